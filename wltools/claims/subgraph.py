"""The subgraph WL hierarchy and BREC's non-GNN baselines: the inclusions, their strictness, and
the incomparabilities the data shows.

Sources: B. Zhang, G. Feng, Y. Du, D. He, L. Wang, *A Complete Expressiveness Hierarchy for
Subgraph GNNs via Subgraph Weisfeiler-Lehman Tests*, ICML 2023 (the eight tests of
:mod:`wltools.refine.swl`; the inclusions checked against the paper's hierarchy figure, which the
authors' repository subgraph23/SWL reproduces as ``algorithm.png``; theorem numbers "(?)": the
paper's body was not reachable, see :mod:`wltools.refine.swl`), and BREC's baselines
(Wang & Zhang, BREC Sec. 5, Table 2): ``s3``, ``s4`` (:mod:`wltools.refine.substructure`),
``n1``, ``n2`` (:mod:`wltools.refine.ego`), ``m1`` (:mod:`wltools.refine.marking`). "A ⊑ B":
every pair of graphs A distinguishes, B distinguishes.

``subgraph-hierarchy`` checks these inclusions (:data:`PLACEMENT`), on all BREC pairs, on the
classic suites and on the atlas graphs:

From the paper's hierarchy figure (:data:`wltools.refine.swl.HIERARCHY`; every edge strict)
    ``swl-vs ⊑ swl-sv``, ``pswl-vs ⊑ pswl-sv`` (SV pooling is at least VS pooling),
    ``pswl-sv ⊑ gswl``, ``gswl ⊑ sswl`` (the figure's Section 4 box; theorem numbers (?)),
    ``spd ⊑ pswl-vs`` (the figure's GD-WL ≺ PSWL(VS), with the shortest-path distance),
    ``pswl-vs ⊑ lfwl2`` and ``sswl ⊑ slfwl2`` (the figure's Section 5 box, localised folklore WL;
    theorem numbers (?)): taken from the paper, not re-proved here. The figure also draws
    ``swl-vs ≺ pswl-vs``, ``swl-sv ≺ pswl-sv``, ``1wl ≺ swl-vs``, ``lfwl2 ≺ slfwl2`` and
    ``slfwl2 ≺ 3wl`` (FWL(2)), proved below as well.
``swl-vs ⊑ pswl-vs`` and ``swl-sv ⊑ pswl-sv`` (own proof)
    PSWL adds the aggregation ``chi(v, v)`` to SWL's and keeps its pooling. By induction on ``t``
    the PSWL colour ``chi'^t(u, v)`` (one shared table for both graphs) determines SWL's
    ``chi^t(u, v)``: ``chi'^{t+1}`` holds ``chi'^t(u, v)`` and ``{{chi'^t(u, w) : w in N(v)}}``,
    which map to ``chi^t(u, v)`` and ``{{chi^t(u, w)}}``, i.e. to ``chi^{t+1}(u, v)``. Pooled
    multisets of a refinement determine the pooled multisets of the coarser colouring, so a
    difference SWL sees at round ``t`` PSWL sees at round ``t``.
``1wl ⊑ swl-vs`` (own proof)
    In subgraph ``G^u`` SWL(VS) is 1-WL from the marking ``[u = v]``, a colouring that refines the
    constant one; by the same induction ``chi^t(u, v)`` determines the plain 1-WL colour
    ``c^t(v)``, so ``{{chi^t(u, v) : v}}`` determines 1-WL's round-``t`` histogram, and the
    multiset over ``u`` of these determines it ``n`` times over.
``lfwl2 ⊑ slfwl2`` and ``slfwl2 ⊑ 3wl`` (own proof)
    The pair colours start from the atomic type (``u = v``, adjacent, other), which every later
    colour determines. SLFWL(2) aggregates ``(chi(u, w), chi(w, v))`` over ``w in N^1(u) | N^1(v)``;
    the items with ``w in N^1(v)`` are those whose ``chi(w, v)`` has type "equal" or "adjacent",
    so SLFWL's multiset determines LFWL's (over ``N^1(v)``), and by induction SLFWL's colours
    refine LFWL's; both pool all pairs. 2-FWL (= 3-WL, :mod:`wltools.refine.fwl`) aggregates
    over every ``w``, and the items with ``w in N^1(u) | N^1(v)`` are recognisable the same way.
``X ⊑ 3wl`` for each of the eight
    By the chains above and transitivity (the paper's figure: every SWL class is below SLFWL(2),
    strictly below FWL(2), Sec. 5); each is checked on its own.
``1wl ⊑ s3``, ``1wl ⊑ s4``, ``1wl ⊑ n1``, ``1wl ⊑ n2`` (own proof)
    Each is 1-WL from an initial colouring (graphlet counts; the isomorphism class of the ego
    net), which refines the constant one; 1-WL rounds preserve refinement (the induction above), so
    their round-``t`` histograms determine 1-WL's.
``m1 ⊑ swl-vs`` and ``swl-vs ⊑ m1``: M1 = SWL(VS) (own proof)
    ``chi^t(u, v)`` of SWL(VS) is the round-``t`` 1-WL colour of ``v`` in the marked graph
    ``G_u`` (same start ``[u = v]``, same update, one table for all copies). SWL(VS) compares the
    multisets over ``u`` of the round-``t`` histograms of the copies; M1 the multisets of their
    1-WL classes. At the round ``T`` where the joint refinement of all copies is stable, two copies
    are 1-WL equivalent iff their round-``T`` histograms agree, and a round's histogram
    determines every earlier one (a colour holds its predecessor). So the multisets differ at
    some round iff they differ at ``T`` iff M1's multisets differ.

Not claimed (:data:`OBSERVED`, tallied on the same data): ``n1`` vs ``n2``. BREC's ``N_K`` does
not mark the centre, so the radius-2 class does not determine the radius-1 class of the centre
(the end and the middle of the path P3 have the same radius-2 ball, P3, and different radius-1
balls, K2 and P3); the 1-WL rounds on top may or may not recover it, and no proof is given here.
Also ``swl-sv`` vs ``pswl-vs`` (BREC 282: SWL(SV) yes, PSWL(VS) no; the other way is reported
when found), and ``s3`` vs ``swl-vs``.

Incomparabilities (:data:`INCOMPARABLE`): a pair of tests is incomparable when the data holds a
pair each separates and the other does not; each of these is a claim, so a missing witness is a
FAIL: S4, N1 and N2 separate strongly regular BREC pairs that 3-WL (hence every test of the
hierarchy) cannot, while 3-WL and SWL(VS) separate CFI pairs S4, N1 and N2 cannot.

Data: the BREC pairs (verdicts through :func:`wltools.claims.grit.brec_table`, from the cached
theory verdicts), the pairs of each suite of :data:`DEFAULT_SUITES`, and all pairs of atlas
graphs (up to 7 nodes) whose 1-WL invariant agrees (every test here is at or above 1-WL by the
proofs above, so pairs with different 1-WL invariants are separated by the stronger test and
cannot violate an inclusion; the grouping is also checked on a seeded sample of cross-group
pairs). The atlas has few 1-WL-equivalent pairs, so it is a small check.

Model facts (the ``model_bounds`` input): a model whose declared upper bound is one of these
tests is bounded, through the proved inclusions, by every test above it (e.g. 3-WL); the
models each subgraph class bounds (as recalled from the paper, unchecked against its table) are
:data:`wltools.refine.swl.SWL_MODELS`.
"""

from __future__ import annotations

import warnings
from typing import Callable, Sequence

import networkx as nx

from ._common import (
    atlas_graphs,
    data_tallies,
    grouped_atlas_tally,
    grouped_pairs,
    inclusion_verdict,
    judge_inclusion,
    observed_summary,
    tests_of,
)
from .epwl import suite_tally, bounded_by
from .grit import brec_table, verdict_units
from .inputs import select_pairs
from .registry import ClaimResult, register_claim
from .zhang_gdwl import claim_verdict

__all__ = ["PLACEMENT", "OBSERVED", "INCOMPARABLE", "DEFAULT_SUITES", "wl1_key", "check_subgraph_hierarchy"]

_SWL = ("swl-vs", "swl-sv", "pswl-vs", "pswl-sv", "gswl", "sswl", "lfwl2", "slfwl2")

#: (weaker, stronger) inclusions the claim checks (each proved or cited in the module docstring).
PLACEMENT: tuple[tuple[str, str], ...] = (
    ("1wl", "swl-vs"), ("swl-vs", "swl-sv"), ("swl-vs", "pswl-vs"), ("swl-sv", "pswl-sv"),
    ("pswl-vs", "pswl-sv"), ("pswl-sv", "gswl"), ("gswl", "sswl"), ("spd", "pswl-vs"),
    ("pswl-vs", "lfwl2"), ("lfwl2", "slfwl2"), ("sswl", "slfwl2"),
) + tuple((t, "3wl") for t in _SWL) + (
    ("1wl", "s3"), ("1wl", "s4"), ("1wl", "n1"), ("1wl", "n2"), ("m1", "swl-vs"), ("swl-vs", "m1"),
)
#: Pairs of tests shown incomparable by the data: a witness each way is required.
INCOMPARABLE: tuple[tuple[str, str], ...] = (
    ("s4", "3wl"), ("n1", "3wl"), ("n2", "3wl"), ("s4", "swl-vs"), ("n1", "swl-vs"), ("n2", "swl-vs"),
)
#: Relations tallied on the same data without a claim either way (each direction).
OBSERVED: tuple[tuple[str, str], ...] = (
    ("n1", "n2"), ("n2", "n1"), ("swl-sv", "pswl-vs"), ("pswl-vs", "swl-sv"), ("s3", "swl-vs"),
    ("swl-vs", "s3"), ("s3", "s4"), ("s4", "s3"),
)
#: The suites checked by default (all their pairs).
DEFAULT_SUITES: tuple[str, ...] = ("csl", "exp", "sr25", "graph8c", "sr16", "sr26", "sr28")

_SOURCE = ("Zhang, Feng, Du, He & Wang, ICML 2023 (hierarchy figure, as in the authors' repository "
           "subgraph23/SWL algorithm.png: Sec. 4 SWL classes, Sec. 5 LFWL(2)/SLFWL(2); theorem numbers (?)); "
           "BREC Sec. 5 baselines; own proofs in wltools/claims/subgraph.py")


def wl1_key(G: nx.Graph) -> tuple:
    """``(n, hash of 1-WL's colour histograms over n rounds)``: differing keys imply 1-WL separates
    the graphs (the hash is a fixed function of the 1-WL colours), so by the proved ``1wl ⊑ X``
    every test ``X`` here separates them too. Equal keys are refined exactly.

    Examples
    --------
    >>> wl1_key(nx.cycle_graph(6)) == wl1_key(nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
    True
    >>> wl1_key(nx.path_graph(4)) == wl1_key(nx.star_graph(3))
    False
    """
    n = G.number_of_nodes()
    with warnings.catch_warnings():  # networkx >= 3.5 warns that its hashes changed: not used across versions
        warnings.simplefilter("ignore")
        return (n, nx.weisfeiler_lehman_graph_hash(G, iterations=max(n, 1)))


def _atlas_groups(max_nodes: int):
    graphs = atlas_graphs(max_nodes, min_nodes=1)
    keys = [wl1_key(G) for _, G in graphs]
    by_id = {id(G): k for (_, G), k in zip(graphs, keys)}
    pairs, considered, ngroups = grouped_pairs(graphs, by_id.__getitem__, key_of=id)
    return graphs, keys, pairs, considered, ngroups


def _atlas_tally(lower: str, upper: str, groups, verdict, *, sample: int, seed: int = 0):
    """Inclusion tally on the atlas pairs within 1-WL groups, and the grouping's soundness check:
    ``upper`` must separate ``sample`` seeded cross-group pairs."""
    return grouped_atlas_tally(lower, upper, groups, verdict, group_label="1-WL invariant",
                               sample=sample, seed=seed)


def _model_bounds(model_bounds: dict | None) -> tuple[dict, list[str]]:
    """For each model with a declared bound among the tests here: the tests above it through the
    proved inclusions (shortest chain to 3-WL shown)."""
    tests = sorted({t for c in PLACEMENT for t in c})
    out, bounded = {}, []
    for model, upper in (model_bounds or {}).items():
        if upper not in tests or upper == "3wl":
            continue
        above = [t for t in tests if t != upper and bounded_by(upper, t, PLACEMENT)]
        chain = bounded_by(upper, "3wl", PLACEMENT)
        out[model] = {"declared upper bound": upper, "bounded by": above,
                      "chain to 3wl": " ⊑ ".join(chain) if chain else "none proved"}
        bounded.append(model)
    return out, bounded


def _chain_evidence(chains, tallies: Callable, max_nodes: int, ev: dict, problems: list,
                    witnesses: list) -> list[str]:
    """Tally every inclusion of ``chains`` into ``ev`` (violations into ``problems`` and
    ``witnesses``); returns one strictness line per inclusion."""
    strict = []
    for lower, upper in chains:
        name = f"{lower} ⊑ {upper}"
        ts, info = tallies(lower, upper)
        ev[name] = {where: t.to_dict() for where, t in ts.items()}
        ev[name][f"atlas n <= {max_nodes}"].update(info)
        strict.append(judge_inclusion(name, list(ts.items()), info, problems, witnesses))
    return strict


def _incomparable_evidence(incomparable, tallies: Callable, problems: list, witnesses: list
                           ) -> tuple[dict, list[str]]:
    """Per ``(a, b)``: the counts each way and a witness each way; a missing witness is a problem."""
    inc, lines = {}, []
    for a, b in incomparable:
        ts, _ = tallies(a, b)
        ab = next((t.counterexample for t in ts.values() if t.counterexample), None)  # a yes, b no
        ba = next((t.strict for t in ts.values() if t.strict), None)  # b yes, a no
        inc[f"{a} vs {b}"] = {f"{a} separates, {b} does not": sum(t.violations for t in ts.values()),
                              f"{b} separates, {a} does not": sum(t.strict_count for t in ts.values()),
                              "witness one way": ab, "witness other way": ba}
        if ab and ba:
            lines.append(f"{a} ⋈ {b}: {ab}; {ba}")
        else:
            problems.append(f"{a} vs {b}: no witness that {a if not ab else b} separates a pair "
                            f"{b if not ab else a} does not, so incomparability is not shown")
            witnesses.append(ab or ba or f"{a} vs {b}: no pair either way")
    return inc, lines


def _observed_evidence(observed, tallies: Callable) -> dict:
    """Relations tallied for information only (they never decide the status)."""
    return {f"{lower} vs {upper}": observed_summary(lower, upper, tallies(lower, upper)[0])
            for lower, upper in observed}


def _needs(*, pairs=None, brec_ids=None, theory_verdicts=None, suites=(), suite_ids=None, chains=(),
           incomparable=(), observed=(), **_) -> list[tuple]:
    """The verdicts ``subgraph-hierarchy`` reads (its tests on BREC and on the suites)."""
    return verdict_units(pairs, brec_ids, tests_of(chains, incomparable, observed), theory_verdicts, suites,
                         suite_ids)


@register_claim(
    "subgraph-hierarchy",
    statement=("The subgraph WL hierarchy (Zhang et al. 2023): 1-WL ⊑ SWL(VS) ⊑ SWL(SV) ⊑ PSWL(SV), "
               "SWL(VS) ⊑ PSWL(VS) ⊑ PSWL(SV) ⊑ GSWL ⊑ SSWL ⊑ SLFWL(2) ⊑ 3-WL, SPD-WL ⊑ PSWL(VS) ⊑ "
               "LFWL(2) ⊑ SLFWL(2); "
               "BREC's baselines: 1-WL ⊑ S3, S4, N1, N2 and M1 = SWL(VS); every pair a weaker "
               "test distinguishes the stronger does (with strictness witnesses), and S4, N1, N2 "
               "are incomparable with 3-WL and SWL(VS) (a witness each way)."),
    source=_SOURCE,
    method="brec+suites+exhaustive",
    params=("brec_ids",),
    inputs=("pairs", "model_bounds"),
    needs=_needs,
)
def check_subgraph_hierarchy(*, pairs=None, brec_ids=None, theory_verdicts: Callable | None = None,
                             model_bounds: dict | None = None,
                             suites: Sequence[str] = DEFAULT_SUITES, suite_ids: dict | None = None,
                             suite_theory: Callable | None = None,
                             chains: Sequence[tuple[str, str]] = PLACEMENT,
                             incomparable: Sequence[tuple[str, str]] = INCOMPARABLE,
                             observed: Sequence[tuple[str, str]] = OBSERVED,
                             max_nodes: int = 7, atlas_sample: int = 200,
                             refine: Callable | None = None) -> ClaimResult:
    """Per ``(lower, upper)`` of ``chains``: an :class:`InclusionTally` on the BREC ``pairs`` of
    ``brec_ids`` (verdicts from ``theory_verdicts`` when given, else ``refine``), on the pairs of
    each suite of ``suites`` (``suite_ids``: ``{suite: ids}`` to restrict) and on the atlas pairs
    (up to ``max_nodes``) within 1-WL groups (:func:`wl1_key`; ``atlas_sample`` cross-group pairs
    check the grouping). Per ``(a, b)`` of ``incomparable``: a pair where ``a`` separates and ``b``
    not, and one the other way, on the same data. ``observed`` relations are tallied and never
    decide the status. PASS iff no inclusion is violated, the grouping is sound and every
    incomparability has its two witnesses."""
    verdict = claim_verdict(refine)
    pairs = select_pairs(pairs, brec_ids)
    tests = tests_of(chains, incomparable, observed)
    table = brec_table(tests, pairs, theory_verdicts, verdict)
    suite_tables = suite_tally(suites, tests, suite_ids, suite_theory)
    groups = _atlas_groups(max_nodes)

    def tallies(lower, upper, atlas=True):
        out = data_tallies(lower, upper, pairs, table, suite_tables)
        info = None
        if atlas:
            ta, info = _atlas_tally(lower, upper, groups, verdict, sample=atlas_sample)
            out[f"atlas n <= {max_nodes}"] = ta
        return out, info

    ev: dict = {}
    problems, witnesses = [], []
    strict = _chain_evidence(chains, tallies, max_nodes, ev, problems, witnesses)
    ev["strictness"] = strict
    ev["incomparable"], inc_lines = _incomparable_evidence(incomparable, tallies, problems, witnesses)
    ev["observed (no claim)"] = _observed_evidence(observed, tallies)
    rows, bounded = _model_bounds(model_bounds)
    ev["model bounds"] = rows
    where = (f"{len(pairs)} BREC pairs, {sum(len(r) for r in suite_tables.values())} suite pairs "
             f"({', '.join(suite_tables) or 'none'}) and {len(groups[2])} atlas pairs (n <= {max_nodes}, "
             f"within 1-WL classes)")
    return inclusion_verdict(len(chains), where, ev, problems, witnesses, strict, lines=inc_lines, shown=8,
                             more=f"; {len(incomparable)} incomparabilities shown with a witness each way; models "
                                  f"bounded through them: {', '.join(bounded) if bounded else 'none declares a bound here'}")
