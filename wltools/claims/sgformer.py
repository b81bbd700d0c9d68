"""Claims about SGFormer: Wu et al., "SGFormer: Simplifying and Empowering Transformers for
Large-Graph Representations" (NeurIPS 2023; ../shared/papers/sgformer.txt).

``sgformer-1wl``: SGFormer without positional encodings (its simple global attention, Sec. 4.1
Eq. 22-26, mixed with the GCN branch by Eq. 21) computes only functions of the multiset of node features
and of neighbourhood aggregations, so it is bounded by 1-WL: on 1-WL-indistinguishable graphs
with equal node features its graph outputs are equal, for any weights. The BREC pairs and the way
BREC feeds a graph to a model are inputs (``pairs``, ``to_data``: see :mod:`wltools.claims.inputs`).
"""

from __future__ import annotations

from typing import Callable, Sequence

import networkx as nx

from ._common import as_bool, describe
from .inputs import INPUTS, select_pairs
from .registry import ClaimResult, register_claim

__all__ = ["check_sgformer_1wl", "registered_model_factory"]

_SG = "SGFormer (Wu et al. 2023)"


def registered_model_factory(name: str = "sgformer", preset: str = "small", **overrides):
    """``factory(seed) -> (model, transform)`` from the model registry: a fresh model with
    parameters drawn under ``torch.manual_seed(seed)`` (then ``reset_parameters``), float64, eval
    mode."""
    import torch

    from wltools.models.registry import create_model, create_transform, list_models

    if name not in list_models():
        raise LookupError(f"model {name!r} is not registered (wltools.models.registry)")

    def factory(seed: int):
        torch.manual_seed(seed)
        model = create_model(name, preset=preset, **overrides)
        if hasattr(model, "reset_parameters"):
            torch.manual_seed(seed)
            model.reset_parameters()
        return model.double().eval(), create_transform(name, preset=preset, **overrides)

    return factory


def _outputs(model, transform, graphs: Sequence[nx.Graph], to_data: Callable):
    import torch
    from torch_geometric.data import Batch

    datas = []
    for G in graphs:
        d = to_data(G)
        if transform is not None:
            d = transform(d)
        for key, val in d.items():
            if torch.is_tensor(val) and val.is_floating_point():
                d[key] = val.double()
        datas.append(d)
    with torch.no_grad():
        return model(Batch.from_data_list(datas))  # [len(graphs), out_dim]


@register_claim(
    "sgformer-1wl",
    statement=("SGFormer without positional encoding is bounded by 1-WL: on 1-WL-indistinguishable "
               "graphs with equal node features it gives equal outputs, for any weights."),
    source=f"{_SG}, Sec. 4.1 (Eq. 21: global attention Eq. 22-26 mixed with a GNN branch); "
           "1-WL bound of permutation-invariant aggregation (Xu et al. 2019)",
    method="brec+numeric",
    params=("seed",),
    inputs=("pairs", "to_data"),
)
def check_sgformer_1wl(*, pairs=None, to_data: Callable | None = None, examples=None,
                       model_factory: Callable | None = None, seeds: Sequence[int] = (0, 1, 2),
                       seed: int | None = None, tol: float = 1e-9, refine: Callable | None = None,
                       control=None) -> ClaimResult:
    """For each seed (fresh random weights, float64, eval mode) and each pair of ``examples``
    (``(name, G, H)``; default: BREC Basic, ids 0-59, of the BREC ``pairs``) that
    ``refine_pair(..., "1wl")`` does not distinguish, the relative output difference
    ``||f(G) - f(H)|| / ||f(G)||`` must be ``<= tol``; graphs reach the model through ``to_data``
    (BREC's featurisation). Control (so the check is not vacuous): on a 1-WL-*distinguishable*
    pair of the same order (default: path P_10 vs star K_1,9) the outputs must differ by more
    than ``1e3 * tol``. No 1-WL-indistinguishable example at all is an ERROR (no evidence).
    """
    if to_data is None:
        raise ValueError(f"this check needs `to_data`: {INPUTS['to_data']}")
    if refine is None:
        from wltools.refine import refine_pair as refine
    model_factory = model_factory or registered_model_factory()
    if seed is not None:
        seeds = (seed,)
    if examples is None:
        examples = [(f"BREC {p.id}", p.g, p.h) for p in select_pairs(pairs, range(60))]
    control = control or ("P_10 vs K_1,9", nx.path_graph(10), nx.star_graph(9))
    skipped = []
    checked = []
    for name, G, H in examples:
        if as_bool(refine(G, H, "1wl")):
            skipped.append(name)
        else:
            checked.append((name, G, H))
    worst, worst_at = 0.0, None
    control_gap = float("inf")
    for s in seeds:
        model, transform = model_factory(s)
        graphs = [g for _, G, H in checked for g in (G, H)] + [control[1], control[2]]
        out = _outputs(model, transform, graphs, to_data)
        for i, (name, G, H) in enumerate(checked):
            a, b = out[2 * i], out[2 * i + 1]
            rel = float((a - b).norm() / a.norm().clamp_min(1e-300))
            if rel > worst:
                worst, worst_at = rel, (s, name, G, H)
        a, b = out[-2], out[-1]
        control_gap = min(control_gap, float((a - b).norm() / a.norm().clamp_min(1e-300)))
    ev = {"seeds": list(seeds), "tol": tol, "dtype": "float64", "pairs checked": len(checked),
          "pairs skipped (1-WL distinguishes them)": skipped,
          "max relative output difference": worst,
          f"control {control[0]}: min relative difference": control_gap}
    if not checked:
        return ClaimResult("ERROR", f"no evidence: 1-WL distinguishes all {len(examples)} example "
                           "pairs, so none can show the bound", ev)
    if not control_gap > 1e3 * tol:
        raise ValueError(f"vacuous check: the model gives (nearly) equal outputs on the "
                         f"1-WL-distinguishable control {control[0]} (gap {control_gap:.2e})")
    if worst > tol:
        s, name, G, H = worst_at
        return ClaimResult("FAIL", f"outputs differ by {worst:.3g} (> tol {tol:g}) on the "
                           f"1-WL-indistinguishable pair {name} (seed {s})", ev,
                           witness=f"{name}: {describe(G)} vs {describe(H)}, seed {s}")
    return ClaimResult(
        "PASS",
        f"equal outputs (max relative difference {worst:.1e} <= {tol:g}) on {len(checked)} "
        f"1-WL-indistinguishable pairs for {len(seeds)} random weight draws; the control pair "
        f"differs by >= {control_gap:.2e}.",
        ev)
