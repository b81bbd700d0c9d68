"""Multi-pair mode: train the independent models of several (pair, seed) units at once.

Each unit of the RPC protocol (:mod:`brec_runner.runs.rpc`) trains its own fresh model. On small graphs
the one-pair loop is dominated by per-operation overhead, so here G units whose batches have equal
tensor shapes (same node and edge counts, e.g. one pair under several seeds, or pairs of one
BREC family) are trained together: their parameters are stacked (one leading axis per unit), the
model runs under ``torch.func.vmap`` over ``torch.func.functional_call``. The units' parameters are
the rows of one matrix, so a vectorised Adam/AdamW (the single-tensor arithmetic of ``torch.optim``)
updates every unit in a few whole-matrix operations, with its own learning rate (per-unit
``ReduceLROnPlateau`` / cosine schedule), its own gradient-norm clipping and its own early stop: a
unit that stops keeps its parameters and buffers of that epoch and leaves the group, so the later
epochs compute only the units still training. The test is the same T² computation on the vmapped
eval outputs.

Every unit sees exactly the batches, initial parameters (``reset_parameters`` under the seed of
(seed, pair id)), schedule and stopping rule of the one-pair loop, so verdicts are the same; T²
values agree up to floating-point reassociation (tested). Dropout under vmap draws different
random numbers than the loop (``randomness="different"``): with dropout > 0 only the statistics,
not the draws, match.

The registered models pad nodes with :func:`wltools.models.layers.dense_batch`, PyG's
``to_dense_batch`` written out of place so that it runs under vmap (PyG's in-place write does not).
If a model's operations cannot run under vmap (data-dependent shapes, ``.item()`` on a batched
tensor, in-place writes of batched values into unbatched tensors, kernels without the needed gradient such as CPU
flash attention w.r.t. a learnable ``attn_mask``), the group falls back to the one-pair loop with a
warning, and results carry ``mode = "single-fallback"``.

A unit whose model raises (:func:`brec_runner.runs.rpc.is_model_failure`) yields a
:class:`~brec_runner.runs.rpc.UnitFailure` instead of an outcome. When a group raises, its units are run
one by one: if at least one then succeeds, the group's error was vmap's (the fallback above); if
every one fails alone too, the error was the model's, the units are failures, and the model keeps
its multi-pair mode for the next groups.
"""

from __future__ import annotations

import copy
import warnings
from collections import defaultdict
from typing import Iterator, Sequence

import torch
from torch import nn

from .protocol import Protocol
from .rpc import (
    PairOutcome,
    PlateauState,
    UnitFailure,
    UnitTimer,
    _batches,
    couple_loss,
    decide,
    evaluate_pair,
    fresh_parameters,
    is_model_failure,
    lr_at_epoch,
    t2_statistic,
)

__all__ = ["evaluate_units", "shape_signature", "train_and_test_group"]

_BETA1, _BETA2, _EPS = 0.9, 0.999, 1e-8  # torch.optim.Adam/AdamW defaults


def _batch_signature(batch) -> tuple:
    return tuple(sorted((k, tuple(v.shape), str(v.dtype)) for k, v in batch.items() if torch.is_tensor(v)))


def shape_signature(graphs: Sequence, reliability: Sequence, protocol: Protocol, eval_batch_size=None) -> tuple:
    """Tensor shapes of every training and test batch of a unit: units group iff these are equal."""
    train = _batches(graphs, protocol.batch_size, "cpu")
    ev = _batches(graphs, eval_batch_size or len(graphs), "cpu") + _batches(
        reliability, eval_batch_size or len(reliability), "cpu")
    return tuple(_batch_signature(b) for b in train + ev)


def _split(batches: list):
    """(template, stacked): tensors equal in every unit stay in the template; the others are stacked."""
    template = batches[0]
    stacked = {}
    if all(b is template for b in batches):  # units of one pair share one collated batch
        return template, stacked
    for key, val in template.items():
        if not torch.is_tensor(val):
            continue
        vals = [b[key] for b in batches]
        if not all(v is val or torch.equal(v, val) for v in vals[1:]):
            stacked[key] = torch.stack(vals)
    return template, stacked


def _collated(lists: list, size: int | None, device, prepare=None) -> list[list]:
    """``_batches`` of every list, collating (and preparing) each distinct list object once."""
    done: dict[int, list] = {}
    for graphs in lists:
        if id(graphs) not in done:
            done[id(graphs)] = _batches(graphs, size or len(graphs), device, prepare)
    return [done[id(g)] for g in lists]


class _Vmapped:
    """``model`` applied to P stacked parameter sets and P stacked batches."""

    def __init__(self, model: nn.Module):
        self.model = model

    def __call__(self, params, buffers, template, stacked):
        from torch.func import functional_call, vmap

        def one(p, b, data):
            batch = copy.copy(template)
            for key, val in data.items():
                batch[key] = val
            return functional_call(self.model, (p, b), (batch,))

        from torch.nn.attention import SDPBackend, sdpa_kernel

        # the math backend: the CPU flash kernel has no gradient for a learnable attn_mask under vmap
        with sdpa_kernel([SDPBackend.MATH]):
            return vmap(one, in_dims=(0, 0, 0), randomness="different")(params, buffers, stacked)


class _FlatParameters:
    """The parameters of the A active units as one ``[A, numel]`` leaf, one row per unit.

    The model sees per-name views ``[A, *shape]`` of the rows (:meth:`views`); :meth:`gradient`
    returns one gradient matrix, so the optimizer, clipping and early-stop bookkeeping are a few
    whole-matrix operations instead of a loop over every parameter tensor.
    """

    def __init__(self, rows: list[dict[str, torch.Tensor]]):
        first = rows[0]
        dtypes = {v.dtype for v in first.values()}
        if len(dtypes) != 1:
            raise TypeError(f"multi-pair mode needs one parameter dtype, got {sorted(map(str, dtypes))}")
        self.names = list(first)
        self.shapes = [tuple(first[k].shape) for k in self.names]
        self.sizes = [first[k].numel() for k in self.names]
        self.flat = torch.stack([torch.cat([r[k].reshape(-1) for k in self.names]) for r in rows]).requires_grad_(True)

    def views(self) -> tuple[dict[str, torch.Tensor], tuple[torch.Tensor, ...]]:
        """``({name: [A, *shape]}, pieces)``: the per-name views and the ``[A, numel]`` column
        blocks they reshape, for :meth:`gradient`."""
        a = self.flat.shape[0]
        pieces = self.flat.split(self.sizes, dim=1)
        return {k: piece.view(a, *shape) for k, piece, shape in zip(self.names, pieces, self.shapes)}, pieces

    def gradient(self, loss: torch.Tensor, pieces: Sequence[torch.Tensor]) -> tuple[torch.Tensor, list[slice]]:
        """``(grad [A, numel], unused)``: d loss / d rows, and the column ranges of parameters the
        loss does not depend on (``torch.optim`` skips a parameter whose ``grad`` is None)."""
        grads = torch.autograd.grad(loss, pieces, allow_unused=True)
        unused, start = [], 0
        for g, n in zip(grads, self.sizes):
            if g is None:
                unused.append(slice(start, start + n))
            start += n
        return torch.cat([torch.zeros_like(p) if g is None else g for g, p in zip(grads, pieces)], dim=1), unused

    def keep(self, rows: torch.Tensor) -> None:
        """Keep only ``rows`` (indices of the units still training), as a fresh leaf."""
        self.flat = self.flat.detach()[rows].clone().requires_grad_(True)


def train_and_test_group(model: nn.Module, units: Sequence[tuple], protocol: Protocol, device="cpu",
                         eval_batch_size=None) -> list[PairOutcome]:
    """Train and test units ``(pair_id, seed, graphs, reliability)`` of equal shapes together.

    The units still training are the rows of one parameter matrix (:class:`_FlatParameters`); a
    unit that stops early (epoch loss below ``loss_threshold``) keeps its parameters and buffers of
    that epoch and leaves the group, so later epochs compute only the units still training.
    """
    device = torch.device(device)
    timer = UnitTimer(device)
    group = _GroupTraining(model, units, protocol, device)
    model.train()
    for epoch in range(protocol.epochs):
        if not group.active:
            break
        group.epoch(epoch)
    with torch.no_grad():
        group.finish()
        model.eval()
        t2 = [group.t2_values([unit[which] for unit in units], eval_batch_size) for which in (2, 3)]
    wall, cuda_s = timer.stop()
    wall, cuda_s = wall / len(units), None if cuda_s is None else cuda_s / len(units)  # a unit's share
    outcomes = []
    for u, (pid, seed, _, _) in enumerate(units):
        dist, rel = decide(t2[0][u], t2[1][u], protocol)
        outcomes.append(PairOutcome(
            id=int(pid), seed=int(seed), t2_pair=t2[0][u], t2_reliability=t2[1][u], threshold=protocol.threshold,
            distinguished=dist, reliable=rel, epochs=group.epochs_run[u], final_loss=float(group.final_loss[u]),
            wall_s=wall, cuda_s=cuda_s, mode=f"multipair:{len(units)}"))
    return outcomes


class _GroupTraining:
    """The state of one group of units trained together by :func:`train_and_test_group`: the
    parameter matrix, Adam's moments, the buffers, the stacked training batches and which units
    are still training (row ``r`` of every matrix is unit ``active[r]``)."""

    def __init__(self, model: nn.Module, units: Sequence[tuple], protocol: Protocol, device) -> None:
        self.protocol, self.device, self.P = protocol, device, len(units)
        model.to(device)
        plist, blist = [], []
        for pid, seed, _, _ in units:
            fresh_parameters(model, seed, pid)
            plist.append({k: v.detach().clone() for k, v in model.named_parameters()})
            blist.append({k: v.detach().clone() for k, v in model.named_buffers()})
        self.params = _FlatParameters(plist)
        self.buffers = {k: torch.stack([b[k] for b in blist]) for k in blist[0]}
        self.fwd = _Vmapped(model)
        per_unit = _collated([u[2] for u in units], protocol.batch_size, device, getattr(model, "prepare_batch", None))
        self.train = [_split([per_unit[u][j] for u in range(self.P)]) for j in range(len(per_unit[0]))]
        self.couples = [b.num_graphs // 2 for b in per_unit[0]]
        self.exp_avg = torch.zeros_like(self.params.flat)
        self.exp_sq = torch.zeros_like(self.params.flat)
        self.steps = 0  # Adam's step count: equal for every unit still training
        self.active = list(range(self.P))
        self.epochs_run = [0] * self.P
        self.final_loss = [float("nan")] * self.P
        self.done_params: dict[int, torch.Tensor] = {}  # unit -> its final parameter row
        self.done_buffers: dict[int, dict[str, torch.Tensor]] = {}
        self.plateaus = [PlateauState(protocol.lr, protocol.plateau_factor, protocol.plateau_patience)
                         for _ in range(self.P)]

    def epoch(self, epoch: int) -> None:
        """One epoch over the training batches for the units still training; retire those whose
        loss fell below the threshold."""
        from torch.func import vmap

        protocol = self.protocol
        if protocol.scheduler == "plateau":
            lrs = [self.plateaus[u].lr for u in self.active]
        else:
            lrs = [lr_at_epoch(protocol, epoch)] * len(self.active)
        lr_col = torch.tensor(lrs, dtype=torch.float64, device=self.device).view(-1, 1)
        loss_all = [0.0] * len(self.active)
        for (template, stacked), c in zip(self.train, self.couples):
            views, pieces = self.params.views()
            out = self.fwd(views, self.buffers, template, stacked)  # [A, graphs in batch, d]
            losses = vmap(couple_loss, in_dims=(0, None))(out, protocol.margin)  # [A]
            grad, unused = self.params.gradient(losses.sum(), pieces)
            self.steps += 1
            with torch.no_grad():
                _adam_step(self.params.flat, grad, self.exp_avg, self.exp_sq, self.steps, lr_col, protocol,
                           skip=unused)
            for r, v in enumerate(losses.detach().cpu().tolist()):
                loss_all[r] += c * v
        stopping = []
        for r, u in enumerate(self.active):
            self.final_loss[u] = loss_all[r] / protocol.num_relabelings
            self.epochs_run[u] = epoch + 1
            if self.final_loss[u] < protocol.loss_threshold:
                stopping.append(r)
            elif protocol.scheduler == "plateau":
                self.plateaus[u].step(self.final_loss[u])
        if stopping:
            self._retire(stopping)

    def _retire(self, stopping: list[int]) -> None:
        """Rows ``stopping`` stop here: keep their state, train the others on without them."""
        for r in stopping:
            self.done_params[self.active[r]] = self.params.flat.detach()[r].clone()
            self.done_buffers[self.active[r]] = {k: v[r].clone() for k, v in self.buffers.items()}
        keep = [r for r in range(len(self.active)) if r not in stopping]
        self.active = [self.active[r] for r in keep]
        if self.active:
            rows = torch.tensor(keep, device=self.device)
            self.params.keep(rows)
            self.exp_avg, self.exp_sq = self.exp_avg[rows], self.exp_sq[rows]
            self.buffers = {k: v[rows] for k, v in self.buffers.items()}
            self.train = [(template, {k: v[rows] for k, v in stacked.items()}) for template, stacked in self.train]

    def finish(self) -> None:
        """Every unit's final parameters and buffers, back in unit order (call under no_grad)."""
        for r, u in enumerate(self.active):
            self.done_params[u] = self.params.flat.detach()[r]
            self.done_buffers[u] = {k: v[r] for k, v in self.buffers.items()}
        self.params.flat = torch.stack([self.done_params[u] for u in range(self.P)])
        self.buffers = {k: torch.stack([self.done_buffers[u][k] for u in range(self.P)]) for k in self.buffers}

    def t2_values(self, graph_lists: list, eval_batch_size) -> list:
        """Per unit, the T2 statistic of its graphs (relabelings or reliability set)."""
        dtype = getattr(torch, self.protocol.t2_dtype)
        lists = _collated(graph_lists, eval_batch_size, self.device)
        outs = []
        for j in range(len(lists[0])):
            template, stacked = _split([lists[u][j] for u in range(self.P)])
            outs.append(self.fwd(self.params.views()[0], self.buffers, template, stacked))
        out = torch.cat(outs, dim=1)  # [P, graphs, d]
        return [t2_statistic(out[u, 0::2], out[u, 1::2], dtype=dtype) for u in range(self.P)]


_CHUNK_ELEMENTS = 1 << 20  # rows updated together: about 4 MB per float32 matrix, to stay in cache


def _adam_step(flat: torch.Tensor, grad: torch.Tensor, exp_avg: torch.Tensor, exp_sq: torch.Tensor, step: int,
               lr_col: torch.Tensor, protocol: Protocol, skip: Sequence[slice] = ()) -> None:
    """One Adam / AdamW step of every row (unit) of ``flat`` in place, with its own learning rate.

    The arithmetic of ``torch.optim.Adam`` / ``AdamW`` (single-tensor path, ``foreach=False``),
    elementwise, so each row gets what the one-pair loop's optimizer gives its parameters:
    optional per-unit gradient-norm clipping (``clip_grad_norm_``: one global L2 norm over the
    unit's gradients, coefficient ``max_norm / (norm + 1e-6)`` capped at 1), L2 weight decay
    (Adam) or decoupled decay ``p *= 1 - lr wd`` (AdamW), moments, bias corrections and
    ``p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)``.
    ``lr_col`` is ``[A, 1]`` float64; ``step`` is the common step count t; ``grad`` is overwritten.
    Rows are updated a few at a time (about ``_CHUNK_ELEMENTS`` values) so that the four matrices
    of a chunk stay in the CPU cache. Columns in ``skip`` (parameters without a gradient, which
    ``torch.optim`` leaves alone, state included) keep their values and moments.
    """
    kept = [(cols, flat[:, cols].clone(), exp_avg[:, cols].clone(), exp_sq[:, cols].clone()) for cols in skip]
    wd = protocol.weight_decay
    bias2_sqrt = (1 - _BETA2**step) ** 0.5
    rows = max(1, _CHUNK_ELEMENTS // max(flat.shape[1], 1))
    for r0 in range(0, flat.shape[0], rows):
        p, g, m, v = (t[r0 : r0 + rows] for t in (flat, grad, exp_avg, exp_sq))
        lr = lr_col[r0 : r0 + rows]
        if protocol.grad_clip is not None:
            norm = g.to(torch.float64).pow(2).sum(1, keepdim=True).sqrt()  # [rows, 1]
            g.mul_((protocol.grad_clip / (norm + 1e-6)).clamp(max=1.0).to(g.dtype))
        if protocol.optimizer == "adam" and wd != 0:
            g.add_(p, alpha=wd)
        if protocol.optimizer == "adamw" and wd != 0:
            p.mul_((1 - lr * wd).to(p.dtype))
        m.lerp_(g, 1 - _BETA1)
        v.mul_(_BETA2).addcmul_(g, g, value=1 - _BETA2)
        denom = v.sqrt().div_(bias2_sqrt).add_(_EPS)
        torch.mul(m, (lr / (1 - _BETA1**step)).to(p.dtype), out=g)  # step size * m
        p.addcdiv_(g, denom, value=-1.0)
    for cols, p, m, v in kept:
        flat[:, cols], exp_avg[:, cols], exp_sq[:, cols] = p, m, v


def _shares_data(chunk) -> bool:
    return len({id(u[2]) for u in chunk}) == 1 and len({id(u[3]) for u in chunk}) == 1


def evaluate_units(model: nn.Module, units: Sequence[tuple], protocol: Protocol, device="cpu",
                   group_size: int = 8, eval_batch_size=None,
                   failures: dict[str, str] | None = None) -> Iterator[PairOutcome | UnitFailure]:
    """Outcomes of every unit ``(pair_id, seed, graphs, reliability)``, G = ``group_size`` at a time.

    Units are grouped by :func:`shape_signature` (order of first appearance, then chunks of G).
    Units of one pair (several seeds) share their data, so only parameters are vmapped; units of
    different pairs also vmap over the graphs, which more models refuse (data-dependent shapes
    such as boolean-mask edge filtering in GCN normalisation). When that fails once, later groups
    are formed from units of the same pair only; when even that fails, the model uses the one-pair
    loop. A group of one runs the one-pair loop. ``failures`` (``{"data" | "all": first error}``)
    carries what was learned across calls for this model; pass the same dict to later calls.
    A unit whose model raises yields its :class:`~brec_runner.runs.rpc.UnitFailure` (module docstring).
    """
    groups: dict[tuple, list] = defaultdict(list)
    for unit in units:
        groups[shape_signature(unit[2], unit[3], protocol, eval_batch_size)].append(unit)
    name = type(model).__name__
    failed = failures if failures is not None else {}

    def chunks():
        for members in groups.values():
            if "data" in failed:  # only units of one pair together
                by_pair: dict[int, list] = defaultdict(list)
                for u in members:
                    by_pair[id(u[2])].append(u)
                parts = list(by_pair.values())
            else:
                parts = [members]
            for part in parts:
                for i in range(0, len(part), group_size):
                    yield part[i : i + group_size]

    def one_by_one(chunk, mode: str) -> list:
        out = []
        for pid, seed, graphs, rel in chunk:
            try:
                o = evaluate_pair(model, pid, graphs, rel, protocol, seed, device, eval_batch_size)
            except Exception as exc:  # noqa: BLE001 - a model failure is this unit's outcome
                if not is_model_failure(exc):
                    raise
                out.append(UnitFailure.of(pid, seed, exc, "train"))
                continue
            o.mode = mode
            out.append(o)
        return out

    pending = list(chunks())
    while pending:
        chunk = pending.pop(0)
        if len(chunk) > 1 and "all" not in failed:
            shared = _shares_data(chunk)
            try:
                outcomes = train_and_test_group(model, chunk, protocol, device, eval_batch_size)
            except Exception as exc:  # noqa: BLE001 - vmap's limits and model failures alike; told apart below
                if not is_model_failure(exc):
                    raise
                msg = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
                if not shared:  # retry these units grouped by pair
                    failed["data"] = msg
                    warnings.warn(f"multi-pair mode: {name} cannot run under vmap over different graphs ({msg}); "
                                  "grouping seeds of one pair only", RuntimeWarning, stacklevel=2)
                    by_pair: dict[int, list] = defaultdict(list)
                    for u in chunk:
                        by_pair[id(u[2])].append(u)
                    pending = list(by_pair.values()) + pending
                    continue
                singles = one_by_one(chunk, "single-fallback")
                if any(isinstance(o, PairOutcome) for o in singles):  # vmap's limit, not the model's
                    failed["all"] = msg
                    warnings.warn(f"multi-pair mode: {name} cannot run under vmap at all ({msg}); "
                                  "falling back to the one-pair loop", RuntimeWarning, stacklevel=2)
                # else every unit fails alone too: the model's failure (recorded per unit), not vmap's
                yield from singles
                continue
            yield from outcomes
            continue
        yield from one_by_one(chunk, "single-fallback" if "all" in failed else "single")
