"""GRIT's numeric claims: Ma et al., "Graph Inductive Biases in Transformers without Message
Passing" (ICML 2023; ../shared/papers/grit.txt).

* ``grit-3.1a``: Prop. 3.1 (a) (proof in App. C.2, Eq. 7-10): the (K-1)-truncated SPD is a function
  of the K-step RRWP vector (the proof's f3 o f2 o f1, checked exactly), and an MLP trained on
  RRWP vectors fits it.
* ``grit-3.3``: Prop. 3.3 (proof in App. C.3, Eq. 14-15): after a LayerNorm over node features,
  sum-aggregated, degree-scaled and mean-aggregated node representations coincide.

Prop. 3.2 (RRWP-WL refines SPD-WL) is in :mod:`wltools.claims.grit`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

import networkx as nx

from ._common import describe
from .grit import GRIT_SOURCE, edge_index, first_nonzero_spd
from .inputs import brec_graphs, ids_text
from .registry import ClaimResult, register_claim

__all__ = ["check_truncated_spd", "check_layernorm_degree", "proof_mlp"]


def _positive_channels(G: nx.Graph, K: int, exact: bool, rrwp_exact=None, rrwp_float=None):
    """``(pos [n, n, K] bool, smallest positive entry)`` of the K-step RRWP of ``G``: exact
    (Fractions) or from the float64 form, whose zero pattern is exact (see
    :func:`first_nonzero_spd`)."""
    import numpy as np
    import torch

    n = G.number_of_nodes()
    if exact:
        if rrwp_exact is None:
            from wltools.distances import rrwp_exact
        P = rrwp_exact(G, K)
        pos = np.array([[[v > 0 for v in P[i][j]] for j in range(n)] for i in range(n)], dtype=bool)
        low = min((v for row in P for t in row for v in t if v > 0), default=None)
        return pos.reshape(n, n, K), low
    if rrwp_float is None:
        from wltools.distances import rrwp_float
    maxdeg = max((d for _, d in G.degree()), default=1) or 1
    if (K - 1) * math.log10(maxdeg) > 300:
        raise ValueError(f"float64 RRWP may underflow (max degree {maxdeg}, K={K})")
    P = rrwp_float(edge_index(G), n, K, dtype=torch.float64).numpy()
    pos = P > 0
    return pos, Fraction(float(P[pos].min())) if pos.any() else None


def proof_mlp(K: int, L: float):
    """The ReLU MLP of the proof of GRIT Prop. 3.1 (a), with explicit weights (float64).

    * f1 (Eq. 8): ``step_t = ReLU(a x_t) - ReLU(a x_t - 1)`` with ``a = 2 / L``: exactly 0 at
      ``x_t = 0`` and 1 for ``x_t >= L/2``;
    * f2 (Eq. 9): ``c_t = max_{t' <= t} step_t' = 1 - ReLU(1 - sum_{t' <= t} step_t')``;
    * f3: ``K - sum_t c_t`` (Eq. 10 with the off-by-one corrected, see :func:`check_truncated_spd`).
    """
    import torch
    from torch import nn

    a = 2.0 / L
    l1 = nn.Linear(K, 2 * K)
    l2 = nn.Linear(2 * K, K)
    l3 = nn.Linear(K, 1)
    with torch.no_grad():
        l1.weight.zero_()
        for t in range(K):
            l1.weight[2 * t, t] = a
            l1.weight[2 * t + 1, t] = a
        l1.bias.copy_(torch.tensor([0.0, -1.0] * K))
        # 1 - sum_{t' <= t} step_t' = 1 - sum_{t' <= t} (h_{2t'} - h_{2t'+1})
        l2.weight.zero_()
        for t in range(K):
            for tp in range(t + 1):
                l2.weight[t, 2 * tp] = -1.0
                l2.weight[t, 2 * tp + 1] = 1.0
        l2.bias.fill_(1.0)
        # c_t = 1 - ReLU(...)  =>  K - sum_t c_t = sum_t ReLU(...)
        l3.weight.fill_(1.0)
        l3.bias.fill_(0.0)
    return nn.Sequential(l1, nn.ReLU(), l2, nn.ReLU(), l3).double()


@register_claim(
    "grit-3.1a",
    statement=("The (K-1)-truncated shortest-path distance is a function of the K-step RRWP "
               "vector, computed exactly by a ReLU MLP built as in the proof; an MLP trained on "
               "RRWP vectors fits it."),
    source=f"{GRIT_SOURCE}, Prop. 3.1 (a) (Sec. 3.1.1; proof App. C.2, Eq. 7-10)",
    method="brec+numeric",
    params=("brec_ids", "seed"),
    inputs=("pairs",),
)
def check_truncated_spd(*, pairs=None, brec_ids=None, K: int = 4, exact_max_nodes: int = 40,
                        spd_matrix: Callable | None = None, rrwp_exact: Callable | None = None,
                        rrwp_float: Callable | None = None, train: bool = True, seed: int = 0,
                        train_ids=range(0, 110), test_ids=range(160, 190), steps: int = 600,
                        hidden: int = 64, max_train_mae: float = 0.05) -> ClaimResult:
    """Three parts, on the BREC ``pairs`` (parts 1 and 2 on those of ``brec_ids``, all by
    default; part 3 on those of ``train_ids`` and ``test_ids``, whatever ``brec_ids`` says).

    1. Exact: on every selected BREC graph the proof's composition ``f3 o f2 o f1`` of the RRWP
       vector (``f1_t = [P_t > 0]``, ``f2`` = running max, ``f3 = K - sum_{t<K} x_t``) equals
       ``SPD_{K-1}`` (SPD if <= K-1, else K; GRIT's definition) from ``spd_matrix``, on every node
       pair. Exact RRWP for ``n <= exact_max_nodes``, else the float64 zero pattern (exact).
       Note: the proof prints ``f3(x) = n - sum_{t=1}^{K-1} x_t``, which equals ``SPD_{K-1}`` only
       for ``K = n`` and off the diagonal; we use the corrected ``f3`` and report how often the
       printed one agrees.
    2. Constructed MLP (:func:`proof_mlp`, ``L`` = smallest positive entry seen, Eq. 7) on the
       float64 RRWP of every graph: max |MLP - SPD_{K-1}| must be <= 1e-6.
    3. Trained MLP (``train``): ``K -> hidden -> hidden -> 1`` ReLU, inputs standardised per
       channel (an affine map, foldable into the first layer), Adam lr 1e-2 with cosine decay, MSE,
       ``steps`` full-batch steps, one thread, ``seed``, on the distinct RRWP vectors of the BREC
       graphs ``train_ids``; PASS needs training MAE <= ``max_train_mae``; its max error and the
       error on graphs ``test_ids`` are reported.
    """
    import numpy as np
    import torch

    if spd_matrix is None:
        from wltools.distances import spd_matrix
    graphs = list(brec_graphs(pairs, brec_ids))
    entries = bad = printed_ok = n_exact = 0
    min_pos = None
    witness = None
    for label, G in graphs:
        n = G.number_of_nodes()
        ex = n <= exact_max_nodes
        n_exact += ex
        pos, low = _positive_channels(G, K, ex, rrwp_exact, rrwp_float)
        if low is not None:
            min_pos = low if min_pos is None else min(min_pos, low)
        f2 = np.maximum.accumulate(pos.astype(np.int64), axis=-1)  # [n, n, K]
        f3 = K - f2.sum(-1)
        S = np.asarray(spd_matrix(G))
        target = np.where((S >= 0) & (S <= K - 1), S, K)
        entries += n * n
        wrong = np.argwhere(f3 != target)
        bad += len(wrong)
        printed_ok += int(((n - f2[..., 1:].sum(-1)) == target).sum())
        if len(wrong) and witness is None:
            i, j = map(int, wrong[0])
            witness = (f"{label} {describe(G)} pair ({i}, {j}): positive RRWP channels "
                       f"{pos[i, j].astype(int).tolist()} give {int(f3[i, j])}, SPD_{K - 1} = "
                       f"{int(target[i, j])}")
    ev = {"K": K, "graphs": len(graphs), "exact RRWP graphs": n_exact, "node pairs": entries,
          "mismatches": bad, "smallest positive RRWP entry L (Eq. 7)": _fmt(min_pos),
          "printed f3 (n - sum_{t>=1}) agrees on": f"{printed_ok} of {entries} node pairs "
          "(it is right only for K = n, off the diagonal)"}
    if bad:
        return ClaimResult("FAIL", f"f3 o f2 o f1 (RRWP) != SPD_{K - 1} on {bad} of {entries} "
                           f"node pairs", ev, witness=witness)
    # 2. the proof's MLP, explicit weights
    mlp = proof_mlp(K, float(min_pos))
    worst = 0.0
    with torch.no_grad():
        for label, G in graphs:
            X, y = _rrwp_rows_graph(G, K, spd_matrix, rrwp_float, torch.float64)
            worst = max(worst, float((mlp(X).squeeze(-1) - y).abs().max()))
    ev["constructed MLP max |error|"] = worst
    if not worst <= 1e-6:
        return ClaimResult("FAIL", f"the proof's MLP misses SPD_{K - 1} by up to {worst:.3g}", ev)
    summary = (f"SPD_{K - 1} = f3(f2(f1(RRWP))) on all {entries} node pairs of {len(graphs)} BREC "
               f"graphs (K={K}, L={_fmt(min_pos)}); the proof's ReLU MLP reproduces it within "
               f"{worst:.1e}")
    if train:
        fit = _fit_mlp(K, (ids_text(train_ids), list(brec_graphs(pairs, train_ids))),
                       (ids_text(test_ids), list(brec_graphs(pairs, test_ids))),
                       seed, steps, hidden, spd_matrix, rrwp_float)
        ev["trained mlp"] = fit
        summary += (f"; a trained MLP reaches training MAE {fit['train MAE']:.4f} (max "
                    f"{fit['train max abs error']:.2f}) on {fit['train rows']} distinct vectors, "
                    f"test MAE {fit['test MAE']:.4f}, test rounding accuracy "
                    f"{fit['test rounded accuracy']:.4f}")
        if not fit["train MAE"] <= max_train_mae:
            return ClaimResult("FAIL", summary + f" (> {max_train_mae})", ev)
    return ClaimResult("PASS", summary + ".", ev)


def _fmt(x) -> str:
    if x is None:
        return "none"
    x = Fraction(x)
    return str(x) if x.denominator < 10**9 else f"{float(x):.6g}"


def _rrwp_rows_graph(G, K, spd_matrix, rrwp_float, dtype):
    import torch
    if rrwp_float is None:
        from wltools.distances import rrwp_float
    n = G.number_of_nodes()
    P = rrwp_float(edge_index(G), n, K, dtype=dtype).reshape(n * n, K)
    S = torch.as_tensor(spd_matrix(G)).reshape(-1)
    y = torch.where((S >= 0) & (S <= K - 1), S, torch.full_like(S, K)).to(dtype)
    return P, y


def _rrwp_rows(graphs, K, spd_matrix, rrwp_float):
    import torch
    rows = [_rrwp_rows_graph(G, K, spd_matrix, rrwp_float, torch.float32) for _label, G in graphs]
    return torch.cat([r[0] for r in rows]), torch.cat([r[1] for r in rows])


def _fit_mlp(K, train, test, seed, steps, hidden, spd_matrix, rrwp_float) -> dict:
    """Part 3 of :func:`check_truncated_spd`; ``train`` and ``test`` are ``(ids text, graphs)``."""
    import torch
    from torch import nn

    (train_ids, train_graphs), (test_ids, test_graphs) = train, test
    X, y = _rrwp_rows(train_graphs, K, spd_matrix, rrwp_float)
    Xy = torch.unique(torch.cat([X, y[:, None]], dim=1), dim=0)
    X, y = Xy[:, :K], Xy[:, K]
    Xt, yt = _rrwp_rows(test_graphs, K, spd_matrix, rrwp_float)
    mu, sd = X.mean(0), X.std(0).clamp_min(1e-6)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: threads only contend
    try:
        torch.manual_seed(seed)
        mlp = nn.Sequential(nn.Linear(K, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                            nn.Linear(hidden, 1))
        opt = torch.optim.Adam(mlp.parameters(), lr=1e-2)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
        for _ in range(steps):
            opt.zero_grad()
            loss = (mlp((X - mu) / sd).squeeze(-1) - y).pow(2).mean()
            loss.backward()
            opt.step()
            sched.step()
        with torch.no_grad():
            e = (mlp((X - mu) / sd).squeeze(-1) - y).abs()
            pt = mlp((Xt - mu) / sd).squeeze(-1)
            et = (pt - yt).abs()
    finally:
        torch.set_num_threads(threads)
    return {"seed": seed, "steps": steps, "hidden": hidden, "train ids": train_ids,
            "test ids": test_ids, "train rows": int(X.shape[0]),
            "train MAE": float(e.mean()), "train max abs error": float(e.max()),
            "train rounded accuracy": float((e < 0.5).float().mean()),
            "test rows": int(Xt.shape[0]), "test MAE": float(et.mean()),
            "test max abs error": float(et.max()),
            "test rounded accuracy": float((pt.round() == yt).float().mean())}


# ---------------------------------------------------------------------------------------------
# Prop. 3.3


def _default_graphs(seed: int) -> list[tuple[str, nx.Graph]]:
    out = [("Petersen", nx.petersen_graph()), ("star K_1,5", nx.star_graph(5)),
           ("path P_7", nx.path_graph(7)), ("wheel W_8", nx.wheel_graph(8))]
    for i in range(6):
        G = nx.gnp_random_graph(14, 0.3, seed=seed + i)
        G.remove_nodes_from([v for v, d in dict(G.degree()).items() if d == 0])
        out.append((f"G(14, 0.3) seed {seed + i}", nx.convert_node_labels_to_integers(G)))
    return out


@register_claim(
    "grit-3.3",
    statement=("Sum-aggregated, degree-scaled and mean-aggregated node representations have the "
               "same value after a LayerNorm over each node's features (for any shared affine "
               "parameters and nodes of positive degree), while BatchNorm keeps them apart."),
    source=f"{GRIT_SOURCE}, Prop. 3.3 (Sec. 3.3; proof App. C.3, Eq. 14-15)",
    method="numeric",
    params=("seed",),
)
def check_layernorm_degree(*, layernorm: Callable | None = None, batchnorm: Callable | None = None,
                           graphs=None, dim: int = 16, seed: int = 0, tol: float = 1e-9,
                           eps: float = 0.0) -> ClaimResult:
    """For each graph (default: Petersen, a star, a path, a wheel and six seeded G(14, 0.3), nodes
    of degree 0 removed: the proposition needs ``d_i > 0``), random float64 node features ``X``:
    ``x_sum = sum_{u in N(i)} x_u`` and ``x_mean`` (``torch_geometric.utils.scatter``), and the
    degree-scaled ``s(d_i) x_mean`` for ``s = d, log(1 + d), sqrt(d)``. PASS needs
    ``max rel |LN(a) - LN(x_mean)| <= tol`` for every variant (LN from
    ``wltools.models.layers.make_norm("layernorm")`` with random affine parameters, eps set to
    ``eps``) and, as controls that keep the check from being vacuous, that ``x_sum`` differs from
    ``x_mean`` and BatchNorm over nodes keeps them apart on non-regular graphs.
    """
    import torch
    from torch_geometric.utils import scatter

    if layernorm is None or batchnorm is None:
        from wltools.models.layers import make_norm
    if layernorm is None:
        layernorm = lambda d: make_norm("layernorm", d)  # noqa: E731
    if batchnorm is None:
        batchnorm = lambda d: make_norm("batchnorm", d)  # noqa: E731
    graphs = graphs if graphs is not None else _default_graphs(seed)
    gen = torch.Generator().manual_seed(seed)
    dtype = torch.float64
    worst = 0.0
    raw_gap = bn_gap = float("inf")
    rows = []
    with torch.no_grad():
        for name, G in graphs:
            n = G.number_of_nodes()
            ei = edge_index(G)
            deg = torch.bincount(ei[1], minlength=n).to(dtype)[:, None]  # [n, 1]
            if (deg == 0).any():
                raise ValueError(f"{name}: Prop. 3.3 needs nodes of positive degree")
            X = torch.randn(n, dim, generator=gen, dtype=dtype)
            msg = X[ei[0]]  # [E, dim]
            x_sum = scatter(msg, ei[1], 0, dim_size=n, reduce="sum")
            x_mean = scatter(msg, ei[1], 0, dim_size=n, reduce="mean")
            variants = {"sum": x_sum, "degree-scaled d": deg * x_mean,
                        "degree-scaled log(1+d)": torch.log1p(deg) * x_mean,
                        "degree-scaled sqrt(d)": deg.sqrt() * x_mean}
            ln = layernorm(dim).to(dtype).eval()
            if hasattr(ln, "eps"):
                ln.eps = eps
            for p in ln.parameters():
                p.copy_(torch.randn(p.shape, generator=gen, dtype=dtype))
            ref = ln(x_mean)
            errs = {k: float(((ln(v) - ref).norm(dim=-1) / ref.norm(dim=-1)).max())
                    for k, v in variants.items()}
            worst = max(worst, *errs.values())
            regular = len(set(deg.view(-1).tolist())) == 1
            if not regular:
                raw_gap = min(raw_gap, float((x_sum - x_mean).norm() / x_mean.norm()))
                bn = batchnorm(dim).to(dtype).train()
                bn_gap = min(bn_gap, float((bn(x_sum) - bn(x_mean)).norm() / bn(x_mean).norm()))
            rows.append({"graph": name, "n": n, "max rel. error": max(errs.values()),
                         "regular": regular})
    ev = {"dim": dim, "seed": seed, "tol": tol, "eps": eps, "dtype": "float64",
          "max relative error LN(variant) vs LN(mean)": worst,
          "control: min rel. gap sum vs mean (non-regular graphs)": raw_gap,
          "control: min rel. gap BatchNorm(sum) vs BatchNorm(mean)": bn_gap, "graphs": rows}
    if not (raw_gap > 1e-3 and bn_gap > 1e-3):
        raise ValueError("vacuous check: sum and mean aggregations (or their BatchNorms) coincide")
    if not worst <= tol:
        worst_graph = max(rows, key=lambda r: r["max rel. error"])
        return ClaimResult("FAIL", f"LayerNorm outputs differ by up to {worst:.3g} (> tol {tol:g})",
                           ev, witness=f"graph {worst_graph['graph']}")
    return ClaimResult(
        "PASS",
        f"on {len(rows)} graphs LN(sum) = LN(degree-scaled) = LN(mean) within {worst:.1e} "
        f"(tol {tol:g}); controls: sum vs mean differ by >= {raw_gap:.2f}, BatchNorm keeps a "
        f"relative gap >= {bn_gap:.2f}.",
        ev)
