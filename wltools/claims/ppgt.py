"""Claims of PPGT: "Plain Transformers Can be Powerful Graph Learners"
(../shared/papers/ppgt-plain-transformers-powerful-graph-learners.txt).

* ``ppgt-e3``: Prop. E.3 (App. E.2) with Sec. 3.1: LayerNorm and RMSNorm are magnitude-invariant,
  ``N(c x) = N(x)`` for ``c > 0``; AdaRMSN (Eq. 3) is not, equals RMSN at its initialisation
  (alpha = 0, beta = 1) and is the identity at alpha = 1, beta = 0.
* ``ppgt-e1``: Prop. E.1 (App. E.1): with the weights of its proof (W_Q = W_K = 0, theta = 0, one
  head per distance value with phi^h = indicator of that value, Eq. 16-17) one sL2 attention layer
  with URPE computes, for every node, the tuple of colour multisets of Eq. 15, i.e. one GD-WL
  iteration (Eq. 13).

For ``ppgt-e1`` the weights are built explicitly on top of the model's attention function
(``wltools.models.layers.dense_attention``, PPGT Eq. 4-5) rather than by loading them into the
registered ``PPGT`` model: the proof needs phi^h to be the indicator of one distance value, which is
linear only on a one-hot distance stem, while the model's stem is an MLP on RRWP. The colour update
that the proof assigns to the FFN (Lemma E.2) is an exact injective relabelling. Its default
examples include four BREC pairs, taken from the ``pairs`` input (:mod:`wltools.claims.inputs`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Sequence

import networkx as nx

from ._common import describe
from .inputs import select_pairs
from .registry import ClaimResult, register_claim

__all__ = ["check_norm_magnitude", "check_attention_gdwl", "gdwl_attention_colours",
           "default_examples", "DEFAULT_BREC_IDS"]

_PPGT = "PPGT (Plain Transformers Can be Powerful Graph Learners)"


# ---------------------------------------------------------------------------------------------
# Prop. E.3


def _default_norm(kind: str) -> Callable[[int], object]:
    from wltools.models.layers import make_norm

    return lambda dim: make_norm(kind, dim)


def _prepare(module, dtype, eps: float | None):
    module = module.to(dtype)
    if eps is not None and hasattr(module, "eps"):
        module.eps = eps
    return module.eval()


@register_claim(
    "ppgt-e3",
    statement=("LayerNorm and RMSNorm are magnitude-invariant (N(c x) = N(x) for every c > 0); "
               "AdaRMSN is not, equals RMSN at its initialisation (alpha=0, beta=1) and recovers "
               "the identity with alpha=1, beta=0."),
    source=f"{_PPGT}, Prop. E.3 (App. E.2), Sec. 3.1 Eq. 1 and 3",
    method="numeric",
)
def check_norm_magnitude(*, layernorm: Callable | None = None, rmsnorm: Callable | None = None,
                         adarmsnorm: Callable | None = None, dims: Sequence[int] = (4, 16, 64),
                         samples: int = 2000, log10_scale: float = 3.0, seed: int = 0,
                         tol: float = 1e-9, eps: float | None = 0.0) -> ClaimResult:
    """Numeric check of PPGT Prop. E.3 and the AdaRMSN properties of Sec. 3.1.

    For every ``dim`` in ``dims``: ``samples`` random Gaussian vectors ``x`` and scales
    ``c = 10^u``, ``u ~ U(-log10_scale, log10_scale)`` with ``|u| >= log10(2)``, in float64, with
    random affine parameters (the proposition holds for any). Pass criteria (relative errors
    ``||a - b|| / ||b||``): LN and RMSN ``max rel |N(cx) - N(x)| <= tol``; AdaRMSN with random
    alpha, beta moves at least half the samples by more than ``1e-3`` (it is *not* invariant);
    AdaRMSN at (0, 1) equals RMSN with unit gain and at (1, 0) equals ``x``, both within ``tol``.

    Norm factories (``dim -> module``) default to ``wltools.models.layers.make_norm``; ``eps`` is
    set on modules that have one (the proposition is about the eps-free formula; default 0).
    """
    import torch

    layernorm = layernorm or _default_norm("layernorm")
    rmsnorm = rmsnorm or _default_norm("rmsnorm")
    adarmsnorm = adarmsnorm or _default_norm("adarmsnorm")
    dtype = torch.float64
    gen = torch.Generator().manual_seed(seed)

    def rel(a, b):
        return ((a - b).norm(dim=-1) / b.norm(dim=-1).clamp_min(1e-300))

    ev: dict = {"dims": list(dims), "samples per dim": samples, "seed": seed, "tol": tol,
                "scales": f"10^u, u ~ U(-{log10_scale}, {log10_scale}), |u| >= log10 2",
                "eps": eps, "dtype": "float64"}
    worst = {"layernorm": 0.0, "rmsnorm": 0.0, "adarmsnorm identity": 0.0,
             "adarmsnorm init vs rmsnorm": 0.0}
    moved_fracs = []
    failures = []
    with torch.no_grad():
        for dim in dims:
            x = torch.randn(samples, dim, generator=gen, dtype=dtype)
            u = (torch.rand(samples, 1, generator=gen, dtype=dtype) * 2 - 1) * log10_scale
            u = torch.where(u.abs() < math.log10(2), torch.sign(u + 1e-12) * math.log10(2), u)
            c = 10.0 ** u  # [samples, 1], positive
            for name, factory in (("layernorm", layernorm), ("rmsnorm", rmsnorm)):
                m = _prepare(factory(dim), dtype, eps)
                for p in m.parameters():
                    p.copy_(torch.randn(p.shape, generator=gen, dtype=dtype))
                err = rel(m(c * x), m(x)).max().item()
                worst[name] = max(worst[name], err)
            ada = _prepare(adarmsnorm(dim), dtype, eps)
            if not (hasattr(ada, "alpha") and hasattr(ada, "beta")):
                raise TypeError(f"the AdaRMSN module {type(ada).__name__} has no alpha / beta "
                                "parameters (PPGT Eq. 3)")
            # random alpha, beta: magnitude must matter
            ada.alpha.copy_(torch.randn(dim, generator=gen, dtype=dtype))
            ada.beta.copy_(torch.randn(dim, generator=gen, dtype=dtype))
            moved = rel(ada(c * x), ada(x)) > 1e-3
            moved_fracs.append(moved.double().mean().item())
            # identity at alpha = 1, beta = 0
            ada.alpha.fill_(1.0)
            ada.beta.fill_(0.0)
            worst["adarmsnorm identity"] = max(worst["adarmsnorm identity"],
                                                rel(ada(c * x), c * x).max().item())
            # initialisation (reset_parameters) equals RMSN with unit gain
            ada.reset_parameters()
            rms = _prepare(rmsnorm(dim), dtype, eps)
            for p in rms.parameters():
                p.fill_(1.0)
            worst["adarmsnorm init vs rmsnorm"] = max(worst["adarmsnorm init vs rmsnorm"],
                                                      rel(ada(x), rms(x)).max().item())
    ev["max relative error"] = worst
    ev["fraction of samples AdaRMSN(c x) != AdaRMSN(x) (rel > 1e-3), per dim"] = moved_fracs
    for name, err in worst.items():
        if not err <= tol:
            failures.append(f"{name}: max relative error {err:.3g} > tol {tol:g}")
    if min(moved_fracs) < 0.5:
        failures.append(f"AdaRMSN with random alpha, beta kept the output for "
                        f"{1 - min(moved_fracs):.0%} of rescaled inputs (looks magnitude-invariant)")
    if failures:
        return ClaimResult("FAIL", "; ".join(failures), ev)
    return ClaimResult(
        "PASS",
        f"LN and RMSN unchanged by rescaling (max rel. error {max(worst['layernorm'], worst['rmsnorm']):.1e}"
        f" <= {tol:g}); AdaRMSN with random alpha, beta changed >= {min(moved_fracs):.2%} of rescaled "
        f"inputs by > 1e-3, equals RMSN at "
        f"init and x at (alpha=1, beta=0) (max rel. errors {worst['adarmsnorm init vs rmsnorm']:.1e},"
        f" {worst['adarmsnorm identity']:.1e}).",
        ev)


# ---------------------------------------------------------------------------------------------
# Prop. E.1


def _exact_distances(G: nx.Graph, test: str, K: int):
    """n x n nested list of exact, hashable distance values for ``test`` (wltools.distances)."""
    from wltools import distances as dist

    if test == "spd":
        M = dist.spd_matrix(G)
        return [[int(v) for v in row] for row in M]
    if test == "rd":
        R = dist.resistance_exact(G)
        return [[("inf",) if v is dist.INF else (Fraction(v),) for v in row] for row in R]
    if test == "rrwp":
        P = dist.rrwp_exact(G, K)
        return [[tuple(Fraction(x) for x in P[i][j]) for j in range(len(P))] for i in range(len(P))]
    raise ValueError(f"no exact distance for test {test!r}")


def gdwl_attention_colours(graphs: Sequence[nx.Graph], test: str, *, rrwp_steps: int | None = None,
                           distance_key: Callable = lambda d: d, attention: Callable | None = None,
                           max_iterations: int | None = None) -> list[list[list[int]]]:
    """Colourings of ``graphs`` (one shared colour table) by iterating the Prop. E.1 construction.

    Per iteration and graph (n nodes, colours one-hot ``x_u`` in R^C):

    * the PE stem gives ``p_vu = onehot(index of distance_key(d(v, u)))`` over the distance values
      of all ``graphs`` (so that phi is linear, as PPGT Eq. 5 requires);
    * head ``h`` has ``W_Q = W_K = 0`` and ``theta = 0`` (uniform softmax 1/n) and
      ``phi^h(p) = p_h``, the indicator of the h-th distance value; ``W_V = I``; the attention is
      ``wltools.models.layers.dense_attention(kind="sl2", urpe=phi)`` (PPGT Eq. 5), giving
      ``(1/n) sum_{u: d(v,u) = d_h} x_u`` (Eq. 17);
    * the FFN's part (Lemma E.2 and the 1/|V| extraction of the proof) is an injective relabelling
      of the per-head colour counts ``n * out``, rounded to integers (the rounding error is
      asserted below 1e-6), through one table shared by all graphs.

    Returns one colouring (list of node colours) per iteration, starting with the constant initial
    colouring, until the joint partition stops refining.
    """
    import torch

    if attention is None:
        from wltools.models.layers import dense_attention as attention
    n_max = max(G.number_of_nodes() for G in graphs)
    K = rrwp_steps or n_max
    dists = [_exact_distances(G, test, K) for G in graphs]
    values = sorted({distance_key(d) for D in dists for row in D for d in row}, key=repr)
    index = {v: i for i, v in enumerate(values)}
    H = len(values)
    colours = [[0] * G.number_of_nodes() for G in graphs]
    history = [colours]
    limit = max_iterations or (sum(G.number_of_nodes() for G in graphs) + 1)
    for _ in range(limit):
        C = 1 + max(max(c) for c in colours)
        keys = []
        for G, D, col in zip(graphs, dists, colours):
            n = G.number_of_nodes()
            onehot = torch.zeros(n, C, dtype=torch.float64)
            onehot[torch.arange(n), torch.tensor(col)] = 1.0  # [n, C]
            phi = torch.zeros(1, H, n, n, dtype=torch.float64)  # [B, H, N, N]
            for v in range(n):
                for u in range(n):
                    phi[0, index[distance_key(D[v][u])], v, u] = 1.0
            q = torch.zeros(1, H, n, 1, dtype=torch.float64)  # W_Q = 0
            k = torch.zeros(1, H, n, 1, dtype=torch.float64)  # W_K = 0
            val = onehot.expand(1, H, n, C)  # W_V = I in every head
            out = attention(q, k, val, bias=None, kind="sl2", urpe=phi)  # [1, H, n, C]
            counts = out[0] * n  # [H, n, C]
            rounded = counts.round()
            err = (counts - rounded).abs().max().item()
            if err > 1e-6:
                raise AssertionError(f"attention output is not (1/n) x counts (error {err:.2e})")
            r = rounded.to(torch.int64).permute(1, 0, 2).reshape(n, -1).tolist()  # [n, H*C]
            keys.append([tuple(row) for row in r])
        table = {key: i for i, key in enumerate(sorted({k for ks in keys for k in ks}))}
        new = [[table[k] for k in ks] for ks in keys]
        history.append(new)
        if len(table) == len({c for col in colours for c in col}):
            break  # the joint partition stopped refining
        colours = new
    return history


def _class_sizes(col: list[int]) -> tuple[int, ...]:
    from collections import Counter
    return tuple(sorted(Counter(col).values(), reverse=True))


def _histogram(col: list[int]) -> dict:
    from collections import Counter
    return dict(Counter(col))


#: BREC pairs among the default examples of ``ppgt-e1``: two Basic, two Regular.
DEFAULT_BREC_IDS = (0, 7, 60, 110)


def default_examples(pairs) -> list[tuple[str, nx.Graph, nx.Graph]]:
    """``(name, G, H)``: four classic pairs and the BREC pairs :data:`DEFAULT_BREC_IDS` of
    ``pairs``; without ``pairs`` (or with one of those ids missing) a ``ValueError``, never a
    shorter list."""
    ex = [("Dodecahedron vs Desargues", nx.dodecahedral_graph(), nx.desargues_graph()),
          ("C6 vs 2 x C3", nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
          ("C8 vs 2 x C4", nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))),
          ("Petersen vs 5-prism", nx.petersen_graph(), nx.circular_ladder_graph(5))]
    for p in select_pairs(pairs, DEFAULT_BREC_IDS):
        ex.append((f"BREC {p.id} ({p.category})", p.g, p.h))
    return ex


@register_claim(
    "ppgt-e1",
    statement=("With the weights of the proof (W_Q = W_K = 0, theta = 0, one URPE head per distance "
               "value with phi^h the indicator of that value), PPGT's sL2 attention with URPE "
               "reproduces GD-WL's colour refinement: iterated, it yields the same stable partition "
               "and the same verdict as GD-WL (SPD, RD, RRWP) on example pairs."),
    source=f"{_PPGT}, Prop. E.1 and its proof (App. E.1, Eq. 13-17)",
    method="numeric",
    inputs=("pairs",),
)
def check_attention_gdwl(*, pairs=None, tests: Sequence[str] = ("spd", "rd", "rrwp"),
                         examples=None, distance_key: Callable = lambda d: d,
                         attention: Callable | None = None,
                         refine: Callable | None = None) -> ClaimResult:
    """Exact comparison of the Prop. E.1 construction (:func:`gdwl_attention_colours`) with
    ``wltools.refine.refine_pair`` on example pairs (``examples``, ``(name, G, H)``; default
    :func:`default_examples` of the BREC ``pairs``): per pair and test, the verdict
    (distinguished or not), the first iteration whose colour histograms differ, and the stable
    partition's sorted class sizes of each graph and the number of rounds that split a class must
    all agree (for pairs of equal order and size; otherwise only the verdict). ``distance_key`` (default: the
    exact distance itself) and ``attention`` are injectable so that tests can break them.
    """
    if refine is None:
        from wltools.refine import refine_pair as refine
    examples = examples if examples is not None else default_examples(pairs)
    if not examples:
        raise ValueError("no example pairs: nothing to compare")
    rows, mismatches = [], []
    for name, G, H in examples:
        for test in tests:
            K = max(G.number_of_nodes(), H.number_of_nodes())
            hist = gdwl_attention_colours([G, H], test, rrwp_steps=K, distance_key=distance_key,
                                          attention=attention)
            first_diff = next((i for i, (cg, ch) in enumerate(hist)
                               if sorted(_histogram(cg).items()) != sorted(_histogram(ch).items())),
                              None)
            ours = {"distinguished": first_diff is not None, "iteration": first_diff,
                    "iterations": len(hist) - 2,  # last round that split a class
                    "class_sizes": (_class_sizes(hist[-1][0]), _class_sizes(hist[-1][1]))}
            if G.number_of_nodes() != H.number_of_nodes():
                ours["iteration"] = None  # refine reports reason "order" without an iteration
            ref = refine(G, H, test, rrwp_steps=K)
            theirs = {"distinguished": bool(ref.distinguished), "iteration": ref.iteration,
                      "iterations": ref.iterations,
                      "class_sizes": tuple(tuple(sorted(c, reverse=True)) for c in ref.class_sizes)}
            agree = (ours["distinguished"] == theirs["distinguished"]
                     and (ref.reason not in ("histogram", "none") or ours == theirs))
            rows.append({"pair": name, "test": test, "attention": ours, "gdwl": theirs,
                         "agree": agree})
            if not agree:
                mismatches.append(f"{name}, {test}: attention construction {ours} vs "
                                  f"GD-WL {theirs} ({describe(G)} vs {describe(H)})")
    ev = {"comparisons": len(rows), "mismatches": len(mismatches),
          "per pair": [f"{r['pair']} / {r['test']}: distinguished "
                       f"{r['attention']['distinguished']} (GD-WL {r['gdwl']['distinguished']}), "
                       f"first differing iteration {r['attention']['iteration']} "
                       f"(GD-WL {r['gdwl']['iteration']})" for r in rows]}
    if mismatches:
        return ClaimResult("FAIL", f"{len(mismatches)} of {len(rows)} comparisons disagree",
                           ev, witness=mismatches[0])
    n_dist = sum(r["gdwl"]["distinguished"] for r in rows)
    return ClaimResult(
        "PASS",
        f"the construction agrees with GD-WL on all {len(rows)} (pair, distance) comparisons "
        f"({n_dist} distinguished, {len(rows) - n_dist} not): same verdicts, same first "
        f"differing iteration, same number of splitting rounds and same stable class sizes.",
        ev)
