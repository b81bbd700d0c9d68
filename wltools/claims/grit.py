"""Claims of GRIT: Ma et al., "Graph Inductive Biases in Transformers without Message Passing"
(ICML 2023; ../shared/papers/grit.txt).

* ``grit-3.2``: Prop. 3.2 (proof in App. C.1): GD-WL with RRWP (K = n) is strictly stronger than
  GD-WL with SPD. Evidence: identity (6) ``min{k : P_vu,k != 0} = SPD(v, u)`` on every BREC graph;
  SPD-WL-distinguished pairs are RRWP-WL-distinguished (BREC and all atlas graphs up to 7 nodes);
  strictness witness Dodecahedron vs Desargues.

Its numeric claims, ``grit-3.1a`` (Prop. 3.1 (a)) and ``grit-3.3`` (Prop. 3.3), are in
:mod:`wltools.claims.grit_numeric`; this module holds the helpers they and the other
refinement claims share (:func:`brec_table`, :func:`tally_chains`, :func:`first_nonzero_spd`).

The BREC pairs and their cached theory verdicts come in as arguments (``pairs``,
``theory_verdicts``: see :mod:`wltools.claims.inputs`).
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import networkx as nx
import numpy as np

from ..refine.names import DEFAULT_RRWP_STEPS
from ._common import (
    InclusionTally,
    as_bool,
    atlas_graphs,
    describe,
    grouped_atlas_tally,
    grouped_pairs,
    judge_inclusion,
    refine_verdict,
)
from .atlas_ahead import atlas_keys, atlas_units, claim_verdict, gdwl_first_histogram
from .inputs import brec_graphs, ids_text, select_pairs
from .registry import ClaimResult, register_claim

__all__ = ["check_rrwp_refines_spd", "first_nonzero_spd", "gdwl_first_histogram", "brec_table", "tally_chains", "verdict_units",
           "GRIT_SOURCE", "edge_index"]

GRIT_SOURCE = "GRIT (Ma et al. 2023, Graph Inductive Biases in Transformers without Message Passing)"


# ---------------------------------------------------------------------------------------------
# Prop. 3.2


def edge_index(G: nx.Graph):
    import torch
    edges = [(u, v) for u, v in G.edges()] + [(v, u) for u, v in G.edges()]
    if not edges:
        return torch.zeros(2, 0, dtype=torch.long)
    return torch.tensor(edges, dtype=torch.long).t()


def first_nonzero_spd(G: nx.Graph, K: int, *, exact: bool, rrwp_exact=None, rrwp_float=None):
    """``[n, n]`` list of ``min{k < K : P_vu,k != 0}`` (``-1`` when every entry is zero), GRIT
    App. C.1 Eq. (6), from the exact RRWP or from the float64 one.

    The float64 zero pattern is exact when no product underflows: entries are sums of products of
    nonnegative factors ``1/deg``, so a float entry is 0 iff the exact one is, provided
    ``(1/max deg)^(K-1)`` is a normal float64; this is asserted.
    """
    n = G.number_of_nodes()
    if exact and rrwp_exact is None:  # the exact powers B^k (M^k = B^k / L^k), multi-modular
        from wltools.distances.rrwp import rrwp_nonzero

        nz = rrwp_nonzero(G, K)
        return np.where(nz.any(0), nz.argmax(0), -1).tolist()
    if exact:
        P = rrwp_exact(G, K)
        return [[next((k for k, x in enumerate(P[i][j]) if x != 0), -1) for j in range(n)]
                for i in range(n)]
    import torch
    if rrwp_float is None:
        from wltools.distances import rrwp_float
    maxdeg = max((d for _, d in G.degree()), default=1) or 1
    if (K - 1) * math.log10(maxdeg) > 300:
        raise ValueError(f"float64 RRWP may underflow (max degree {maxdeg}, K={K}); use exact")
    P = rrwp_float(edge_index(G), n, K, dtype=torch.float64)  # [n, n, K]
    nz = P != 0
    first = torch.where(nz.any(-1), nz.to(torch.int8).argmax(-1), torch.full((n, n), -1))
    return first.tolist()


def verdict_units(pairs, brec_ids, tests: Sequence[str], theory_verdicts: Callable | None = None,
                  suites: Sequence[str] = (), suite_ids: dict | None = None) -> list[tuple]:
    """The verdict units (:class:`wltools.claims.registry.Claim` ``needs``) of a check that reads
    ``tests`` through :func:`brec_table` on the BREC ``pairs`` of ``brec_ids`` (when
    ``theory_verdicts`` is given: else it refines them itself) and through
    :func:`wltools.suites.theory.suite_theory` on ``suites`` (``suite_ids``: ``{suite: ids}``).

    Examples
    --------
    >>> from types import SimpleNamespace as P
    >>> verdict_units([P(id=0), P(id=1)], [1], ["rrwp"], dict, ["csl"])
    [('brec', 'rrwp', 32, (1,)), ('suite', 'csl', 'rrwp', None)]
    """
    units: list[tuple] = []
    if theory_verdicts is not None:
        ids = tuple(p.id for p in select_pairs(pairs, brec_ids))
        units += [("brec", t, _THEORY_K if t == "rrwp" else None, ids) for t in tests]
    for name in suites:
        ids = None if suite_ids is None else suite_ids.get(name)
        units += [("suite", name, t, None if ids is None else tuple(ids)) for t in tests]
    return units


def _needs_rrwp_spd(*, pairs=None, brec_ids=None, theory_verdicts=None, max_nodes=7, refine=None,
                    **_) -> list[tuple]:
    """The verdicts ``grit-3.2`` reads: SPD-WL and RRWP-WL (K = 32) on the BREC pairs, and its
    atlas pairs."""
    return (verdict_units(pairs, brec_ids, ["spd", "rrwp"], theory_verdicts)
            + atlas_units((("spd", "rrwp"),), max_nodes, max_nodes, refine))


@register_claim(
    "grit-3.2",
    statement=("GD-WL with RRWP distances (K = n) is strictly stronger than GD-WL with shortest-path "
               "distances: SPD is a function of the RRWP vector (Eq. 6), every pair SPD-WL "
               "distinguishes RRWP-WL distinguishes, and Dodecahedron vs Desargues is separated by "
               "RRWP-WL but not by SPD-WL."),
    source=f"{GRIT_SOURCE}, Prop. 3.2 (Sec. 3.2; proof App. C.1, Eq. 6)",
    method="brec+exhaustive",
    params=("brec_ids",),
    inputs=("pairs",),
    needs=_needs_rrwp_spd,
)
def check_rrwp_refines_spd(*, pairs=None, brec_ids=None, theory_verdicts: Callable | None = None,
                           max_nodes: int = 7, exact_max_nodes: int = 40,
                           spd_matrix: Callable | None = None, rrwp_exact: Callable | None = None,
                           rrwp_float: Callable | None = None, refine: Callable | None = None,
                           witness_pair=None) -> ClaimResult:
    """Three parts, all must hold for PASS.

    ``pairs`` are the BREC pairs (those of ``brec_ids`` are used, all by default).

    1. Identity (6) on every selected BREC graph with K = n: the first nonzero RRWP channel equals
       ``spd_matrix`` (-1 = unreachable = all channels zero). Exact RRWP (``rrwp_exact``) for
       graphs with ``n <= exact_max_nodes``; above, the float64 zero pattern (exact, see
       :func:`first_nonzero_spd`), cross-checked against the exact one on the small graphs.
    2. Inclusion: every pair SPD-WL distinguishes, RRWP-WL distinguishes, over the BREC pairs
       and over all pairs of atlas graphs with ``n <= max_nodes`` grouped by RRWP-WL's
       first-iteration histogram (:func:`gdwl_first_histogram`; pairs in different groups are
       RRWP-distinguished). BREC verdicts: RRWP-WL with K = n by ``refine_pair`` for pairs with
       ``n <= 32``; the rest from ``theory_verdicts`` (RRWP with K = 32, which K = n refines), or
       all by ``refine_pair`` when ``theory_verdicts`` is not given.
    3. Strictness witness: Dodecahedron vs Desargues (or ``witness_pair``) is distinguished by
       RRWP-WL and not by SPD-WL.
    """
    if spd_matrix is None:
        from wltools.distances import spd_matrix
    verdict = refine_verdict(refine)
    selected = select_pairs(pairs, brec_ids)
    ev: dict = {}
    problems: list[str] = []
    witness = None

    # 1. identity (6)
    checked = exact_n = float_n = cross = entries = 0
    for label, G in brec_graphs(selected):
        n = G.number_of_nodes()
        S = spd_matrix(G).tolist()
        ex = n <= exact_max_nodes
        F = first_nonzero_spd(G, n, exact=ex, rrwp_exact=rrwp_exact, rrwp_float=rrwp_float)
        if ex and n <= 20:  # cross-check the float zero pattern where exact is cheap
            cross += 1
            Ff = first_nonzero_spd(G, n, exact=False, rrwp_float=rrwp_float)
            if Ff != F:
                problems.append(f"{label}: float and exact RRWP zero patterns differ")
        checked += 1
        exact_n += ex
        float_n += not ex
        entries += n * n
        bad = [(i, j) for i in range(n) for j in range(n) if F[i][j] != S[i][j]]
        if bad:
            i, j = bad[0]
            problems.append(f"{label}: identity (6) fails at ({i}, {j}): first nonzero RRWP "
                            f"channel {F[i][j]} but SPD {S[i][j]} ({len(bad)} entries)")
            witness = witness or f"{label} {describe(G)}, node pair ({i}, {j})"
    ev["identity (6)"] = {"graphs": checked, "entries": entries, "exact RRWP graphs": exact_n,
                          "float64 zero-pattern graphs": float_n,
                          "float/exact cross-checked graphs": cross, "K": "n"}

    # 2. inclusion SPD-WL -> RRWP-WL (K = n)
    brec, direct = _brec_inclusion_rrwp_n(selected, theory_verdicts, claim_verdict(refine))
    ev["inclusion on BREC"] = {**brec.to_dict(), "rrwp verdicts": (
        f"K = n by refine_pair for {direct} pairs with n <= {_THEORY_K}; for larger pairs the "
        f"cached theory verdict with K = {_THEORY_K}, which implies K = n (RRWP_n contains RRWP_"
        f"{_THEORY_K} as a prefix, so its GD-WL is finer)" if theory_verdicts is not None else
        f"K = n by refine_pair for all {direct} pairs (no theory verdicts given)")}
    small, info = _atlas_inclusion("spd", "rrwp", max_nodes, claim_verdict(refine))
    ev[f"inclusion on atlas graphs n <= {max_nodes}"] = {**small.to_dict(), **info}
    for name, t in (("BREC", brec), ("atlas", small)):
        if not t.ok:
            problems.append(f"{name}: {t.violations} pairs SPD-WL distinguishes but RRWP-WL not")
            witness = witness or t.counterexample
    if info["grouping soundness failures"]:
        problems.append(f"atlas grouping unsound: RRWP-WL fails on cross-group pairs "
                        f"{info['grouping soundness failures']}")

    # 3. strictness witness
    G, H = witness_pair or (nx.dodecahedral_graph(), nx.desargues_graph())
    r_spd, r_rrwp = verdict(G, H, "spd"), verdict(G, H, "rrwp")
    ev["strictness witness"] = {"pair": "Dodecahedron vs Desargues" if witness_pair is None
                                else "given pair", "spd distinguished": as_bool(r_spd),
                                "rrwp distinguished": as_bool(r_rrwp),
                                "rrwp witness": getattr(r_rrwp, "witness", None)}
    if as_bool(r_spd) or not as_bool(r_rrwp):
        problems.append(f"strictness witness fails: SPD-WL distinguished={as_bool(r_spd)}, "
                        f"RRWP-WL distinguished={as_bool(r_rrwp)}")
        witness = witness or f"{describe(G, 'G')} vs {describe(H, 'H')}"
    if problems:
        return ClaimResult("FAIL", "; ".join(problems[:5]), ev, witness=witness)
    return ClaimResult(
        "PASS",
        f"identity (6) holds on all {entries} node pairs of {checked} BREC graphs; SPD-WL "
        f"separates {brec.lower_distinguished} of {brec.pairs} BREC pairs, RRWP-WL all of them "
        f"(and {brec.strict_count} more); on the {info['pairs in all']} pairs of atlas graphs "
        f"(n <= {max_nodes}) RRWP-WL's first iteration already yields "
        f"{info[next(k for k in info if k.startswith('groups'))]} classes ({small.pairs} "
        f"within-class pairs refined, none violating; "
        f"{info['cross-group pairs sampled, rrwp must distinguish']} sampled cross-class pairs "
        f"confirmed RRWP-distinguished); Dodecahedron vs Desargues: SPD-WL no, RRWP-WL yes.",
        ev, witness=f"Dodecahedron vs Desargues: {getattr(r_rrwp, 'witness', 'RRWP-WL distinguishes')}")


_THEORY_K = DEFAULT_RRWP_STEPS  # K of the RRWP-WL verdicts asked of ``theory_verdicts``


def _brec_inclusion_rrwp_n(pairs, theory_verdicts, verdict) -> tuple[InclusionTally, int]:
    """SPD-WL vs RRWP-WL with K = n on the BREC ``pairs`` (see ``check_rrwp_refines_spd``);
    returns the tally and the number of pairs whose RRWP verdict ``refine_pair`` gave."""
    t = InclusionTally("spd", "rrwp")
    if theory_verdicts is None:
        for p in pairs:  # refine_pair's default K = n
            t.add(f"BREC {p.id} ({p.category})", as_bool(verdict(p.g, p.h, "spd")),
                  as_bool(verdict(p.g, p.h, "rrwp")))
        return t, len(pairs)
    table = brec_table(["spd", "rrwp"], pairs, theory_verdicts)
    direct = 0
    for p in pairs:
        up = table[p.id]["rrwp"]
        if p.g.number_of_nodes() <= _THEORY_K:
            up = as_bool(verdict(p.g, p.h, "rrwp"))  # refine_pair's default K = n
            direct += 1
        t.add(f"BREC {p.id} ({p.category})", table[p.id]["spd"], up)
    return t, direct


def brec_table(tests: Sequence[str], pairs, theory_verdicts: Callable | None = None,
               verdict: Callable | None = None) -> dict[int, dict[str, bool]]:
    """``{pair id: {test: distinguished}}`` for the BREC ``pairs``: from ``theory_verdicts(test,
    ids, rrwp_steps)`` (RRWP-WL with K = 32) when given, else ``verdict(G, H, test)`` (default
    ``refine_pair``, RRWP-WL with K = n). Verdicts missing from ``theory_verdicts``' answer are
    an error: the check would rest on fewer pairs than it reports."""
    ids = [p.id for p in pairs]
    if theory_verdicts is None:
        verdict = verdict or refine_verdict()
        return {p.id: {t: as_bool(verdict(p.g, p.h, t)) for t in tests} for p in pairs}
    table: dict[int, dict[str, bool]] = {pid: {} for pid in ids}
    for test in tests:
        got = theory_verdicts(test, ids, _THEORY_K if test == "rrwp" else None)
        missing = [pid for pid in ids if pid not in got]
        if missing:
            raise ValueError(f"theory_verdicts gave no {test} verdict for BREC pairs "
                             f"{ids_text(missing)}")
        for pid in ids:
            table[pid][test] = as_bool(got[pid])
    return table


def _atlas_inclusion(lower: str, upper: str, max_nodes: int, verdict, *, sample: int = 200,
                     seed: int = 0, groups_cache: dict | None = None):
    """Inclusion tally over all pairs of atlas graphs (``n <= max_nodes``) in the same group of
    ``upper``'s first-iteration invariant (:func:`gdwl_first_histogram`), plus a soundness check
    of the grouping: on ``sample`` seeded random pairs from *different* groups, ``upper`` must
    distinguish (else the grouping is unsound and the result says so)."""
    graphs = atlas_graphs(max_nodes, min_nodes=1)
    key = (upper, max_nodes)
    if groups_cache is not None and key in groups_cache:
        keys, pairs, considered, ngroups = groups_cache[key]
    else:
        keys = list(atlas_keys(upper, max_nodes))
        pairs, considered, ngroups = grouped_pairs(graphs, dict(
            (id(G), k) for (_, G), k in zip(graphs, keys)).__getitem__, key_of=id)
        if groups_cache is not None:
            groups_cache[key] = (keys, pairs, considered, ngroups)
    return grouped_atlas_tally(lower, upper, (graphs, keys, pairs, considered, ngroups), verdict,
                               group_label=f"{upper} first-iteration invariant", sample=sample, seed=seed)


# ---------------------------------------------------------------------------------------------
# Prop. 3.1 (a)


def tally_chains(chains: Sequence[tuple[str, str]], data_tallies: Callable, verdict, *, max_nodes: int,
                 max_nodes_3wl: int) -> tuple[dict, list[str], list, list[str]]:
    """The per-chain evidence of an inclusion claim (``gdwl-hierarchy``, ``epwl-placement``): for
    each ``(lower, upper)``, the tallies ``data_tallies(lower, upper) -> {where: InclusionTally}``
    on the claim's data and :func:`_atlas_inclusion` on the atlas graphs up to ``max_nodes``
    (``max_nodes_3wl`` when ``upper`` is 3-WL). Returns ``(evidence, problems, witnesses,
    strictness lines)``; the claim fails iff ``problems`` is not empty."""
    ev: dict = {}
    problems, witnesses, strict = [], [], []
    groups_cache: dict = {}
    for lower, upper in chains:
        name = f"{lower} ⊑ {upper}"
        tallies = data_tallies(lower, upper)
        nmax = max_nodes_3wl if upper == "3wl" else max_nodes
        ta, info = _atlas_inclusion(lower, upper, nmax, verdict, groups_cache=groups_cache)
        ev[name] = {where: t.to_dict() for where, t in tallies.items()}
        ev[name][f"atlas n <= {nmax}"] = {**ta.to_dict(), **info}
        strict.append(judge_inclusion(name, list(tallies.items()) + [("atlas", ta)], info, problems, witnesses))
    return ev, problems, witnesses, strict
