"""The model contract, checked before any training and before anything is written.

A model can be evaluated when

1. its factory can be imported and called, and returns a ``torch.nn.Module``;
2. it has trainable parameters;
3. ``forward(batch)`` takes a PyG ``Batch`` of BREC graphs (each graph as
   :func:`brec_runner.runs.dataset.to_pyg` builds it, then the model's transform) and returns a
   floating-point tensor of shape ``[batch.num_graphs, d]``;
4. the outputs are finite;
5. ``d`` is small enough for the T² test with the protocol's q relabelings: ``1 <= d < q``.

Each violation is a :class:`~brec_runner.models.source.ModelContractError`: one line naming the
model and the rule.

Permutation invariance is not required, but it is probed (:func:`probe_invariance`: the outputs of
relabelled copies of one graph, in eval mode) and recorded in the run's config, and the report
states it: the RPC test alone cannot always tell, since random relabelings average out. A model
that is not invariant also shows it through reliability failures and separations beyond its
declared bound.
"""

from __future__ import annotations

from typing import Sequence

from .source import ModelContractError, ModelSource

__all__ = ["check_model", "probe_invariance", "check_graphs_kept_apart"]


def check_model(source: ModelSource, graphs: Sequence, num_relabelings: int, device="cpu", *,
                where: str = "") -> int:
    """Check ``source`` against the contract on ``graphs`` (PyG ``Data``, transform applied);
    return the output width ``d``. ``where`` names the graphs in the error messages (for example
    ``" of pair 111, the largest selected"``).

    :func:`brec_runner.runs.evaluate.run` checks twice before anything is written: on the first
    selected pair's two graphs, and on a batch of relabelled copies of the largest selected pair
    as large as the run's biggest batch, so a model that fails on large graphs or batches is
    refused at once, naming the pair, instead of failing unit after unit.

    Examples
    --------
    >>> import torch
    >>> from torch_geometric.data import Data
    >>> from brec_runner.models.source import resolve_model
    >>> class Mean(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.lin = torch.nn.Linear(1, 4)
    ...     def forward(self, batch):
    ...         return self.lin(torch.zeros(batch.num_graphs, 1))
    >>> g = Data(x=torch.ones(3, 1), edge_index=torch.tensor([[0, 1], [1, 0]]), num_nodes=3)
    >>> check_model(resolve_model(Mean), [g, g], num_relabelings=32)
    4
    """
    import torch
    from torch_geometric.data import Batch

    name = source.name
    model = source.build().to(device)
    if not any(p.requires_grad for p in model.parameters()):
        raise ModelContractError(f"model {name}: has no trainable parameters")
    batch = Batch.from_data_list(list(graphs)).to(device)
    model.eval()
    try:
        with torch.no_grad():
            out = model(batch)
    except Exception as exc:  # noqa: BLE001 - a user's model: any failure is one line
        first = (str(exc).splitlines() or [""])[0][:300]
        raise ModelContractError(f"model {name}: forward(batch) failed on a batch of {batch.num_graphs} BREC "
                                 f"graphs{where}: {type(exc).__name__}: {first}") from None
    if not isinstance(out, torch.Tensor):
        raise ModelContractError(f"model {name}: forward(batch) must return a tensor, got {type(out).__name__}")
    if not out.is_floating_point():
        raise ModelContractError(f"model {name}: forward(batch) must return a float tensor, got {out.dtype}")
    if out.dim() != 2 or out.shape[0] != batch.num_graphs:
        raise ModelContractError(f"model {name}: forward(batch) must return shape [num_graphs, d] = "
                                 f"[{batch.num_graphs}, d], got {list(out.shape)}{where and ' (graphs' + where + ')'}")
    d = int(out.shape[1])
    if not 1 <= d < num_relabelings:
        raise ModelContractError(f"model {name}: output width d = {d}, but the T² test with q = "
                                 f"{num_relabelings} relabelings needs 1 <= d < q: the largest allowed d is "
                                 f"{num_relabelings - 1}")
    if not torch.isfinite(out).all():
        raise ModelContractError(f"model {name}: forward(batch) returned non-finite values (NaN or inf)"
                                 f"{where and ' on the graphs' + where}")
    return d


def probe_invariance(source: ModelSource, copies: Sequence, seed: int = 0, pair_id: int = 0,
                     device="cpu", rtol: float = 1e-4, atol: float = 1e-5) -> dict:
    """Outputs of relabelled ``copies`` of one graph (encoded, eval mode), compared with the first.

    The model is built as a run's unit (``seed``, ``pair_id``) would build it. Returns
    ``{"invariant", "max_abs_diff", "copies"}``; invariant means every output agrees with the
    first within ``atol + rtol * max|output|`` (float summation order differs between labellings).
    """
    import torch
    from torch_geometric.data import Batch

    from ..runs.rpc import fresh_model, fresh_parameters

    model = fresh_model(source.factory, source.options, seed, pair_id, device)
    fresh_parameters(model, seed, pair_id)
    model.eval()
    with torch.no_grad():
        out = model(Batch.from_data_list(list(copies)).to(device)).double()
    diff = float((out - out[:1]).abs().max())
    scale = float(out.abs().max())
    return {"invariant": bool(diff <= atol + rtol * scale), "max_abs_diff": diff, "copies": len(copies)}


def check_graphs_kept_apart(source: ModelSource, graphs: Sequence, outputs, device="cpu", *, what: str = "node",
                            rtol: float = 1e-4, atol: float = 1e-5) -> None:
    """The batch-independence check: a graph's outputs may not depend on the other graphs of its batch.

    ``outputs(model, batch)`` gives one row per node (``what="node"``) or per graph (``"graph"``).
    The model (built as the run builds it, eval mode) computes ``graphs`` batched together, in the
    reverse order, and each graph alone; every graph's rows must agree within ``atol + rtol *
    max|output|`` (float summation order differs between batchings). A model that mixes the
    graphs of a batch (attention over all the batch's nodes, a statistic over the batch) fails,
    and is refused in one line naming the check: its per-graph results would depend on which
    graphs it was batched with.
    """
    import torch
    from torch_geometric.data import Batch

    model = source.build().to(device)
    model.eval()
    rows = [int(g.num_nodes) if what == "node" else 1 for g in graphs]

    def blocks(order: list[int]) -> dict[int, "torch.Tensor"]:
        batch = Batch.from_data_list([graphs[i] for i in order]).to(device)
        try:
            with torch.no_grad():
                out = outputs(model, batch).double().cpu()
        except Exception as exc:  # noqa: BLE001 - a user's model: one line
            raise ModelContractError(f"model {source.name}: the batch-independence check failed to run: "
                                     f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:200]}") from None
        return dict(zip(order, torch.split(out, [rows[i] for i in order])))

    order = list(range(len(graphs)))
    together, reverse = blocks(order), blocks(order[::-1])
    alone = {i: blocks([i])[i] for i in order}
    scale = max(float(b.abs().max()) for b in alone.values() if b.numel())
    diff = max(float((b[i] - alone[i]).abs().max()) for b in (together, reverse) for i in order if alone[i].numel())
    if not diff <= atol + rtol * scale:
        raise ModelContractError(
            f"model {source.name}: fails the batch-independence check: the {what} outputs of a graph change by up to "
            f"{diff:.3g} when the other graphs of its batch are reordered or removed (eval mode), so the model "
            "mixes the graphs of a batch; make each graph's outputs depend on that graph alone")
