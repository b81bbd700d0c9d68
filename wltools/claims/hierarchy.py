"""Claims about the hierarchy of tests, checked on Fürer pairs and certified separating pairs.

``fuerer-pairs``: for every test with a graph-level homomorphism family and every connected pattern F
up to ``max_nodes`` vertices (default 5), the Fürer pair over F (:mod:`wltools.hierarchy.furer`) is
distinguished by the test exactly when F lies in the test's family, and hom(F, .) differs between its
two graphs by two independent counters: outside the family the test cannot tell them apart (Zhang,
Gai, Du, Ye, He & Wang, ICLR 2024, arXiv 2401.08514, the proof of their maximality theorem; Gai et
al., ICLR 2025, for EPWL's parallel trees), inside it hom(F, .) differs (Roberson 2022). At node
level (Sec. 3.3, Theorem 3.7) the same for every test with a node-level family and a node colour
(:mod:`wltools.hierarchy.levels`: 1wl, swl-vs, m1, sswl, slfwl2, 3wl) and every pattern ``F^w`` of
2..``max_nodes`` vertices whose root does not separate F: the node colours of ``(w, {})`` in the
Fürer graph and its twisted version (:func:`wltools.hierarchy.furer.rooted_furer_pair`, one colour
table) differ exactly when ``F^w`` is in the family, and hom((F, w), (., (w, {}))) differs by the
dynamic programme and by backtracking with the root fixed. Patterns whose root separates F are
counted, not checked (the marked pair then depends on where the twist lies, and which side the
paper twists could not be read here). Edge level is not checked (:data:`EDGE_LEVEL_NOT_CHECKED`).
A machine check of maximality on every small pattern.

``hierarchy-certified``: :func:`wltools.hierarchy.hierarchy` over the tests of the cited strict chain
(1-WL < SWL(VS) < SSWL < Local 2-FWL < 2-FWL < 3-FWL; :func:`wltools.hierarchy.sources.theorem_edges`):
every certified pair re-checks from its graph6 alone (:func:`wltools.hierarchy.verify_certificate`),
and no certified pair contradicts a cited order (a test separating a pair that a test cited as
stronger does not).
"""

from __future__ import annotations

from .registry import ClaimResult, register_claim

__all__ = ["check_fuerer_pairs", "check_hierarchy_certified"]

_SOURCE = ("Zhang, Gai, Du, Ye, He & Wang, ICLR 2024 (arXiv 2401.08514), Sec. 3 (Theorems 3.4, 3.10), "
           "Corollary 4.1 and the proof of maximality; Gai et al., ICLR 2025 (arXiv 2503.00485), Theorem 3.3; "
           "Roberson 2022; Fürer 2001")

#: ``fuerer-pairs`` checks node level too (Sec. 3.3, Theorem 3.7).
_FUERER_SOURCE = _SOURCE.replace("Theorems 3.4, 3.10", "Theorems 3.4, 3.7, 3.10")

#: The tests of the cited strict chain (:func:`wltools.hierarchy.sources.theorem_edges`).
CHAIN = ("1wl", "swl-vs", "sswl", "slfwl2", "3wl", "3fwl")


#: The marked pattern vertices at each rooted level (:func:`wltools.hom.patterns.rooted_patterns`).
_MARKS = {"node": (0,), "edge": (0, 1)}


def _graph_level(max_nodes: int) -> dict:
    """Graph level: every test of :data:`~wltools.hom.families.FAMILY_TESTS` on the Fürer pair over
    every connected pattern of 2..``max_nodes`` vertices (Zhang et al. 2024, Theorems 3.4, 3.10 and
    the maximality proof; Gai et al. 2025, Theorem 3.3)."""
    from wltools.hierarchy.furer import furer_pair
    from wltools.hom.brute import hom_count_brute
    from wltools.hom.count import hom_count
    from wltools.hom.families import FAMILY_TESTS, family_of
    from wltools.hom.patterns import connected_graphs, graph6
    from wltools.refine import refine_pair, verdict_only

    patterns = connected_graphs(max_nodes, 2)
    out = {"wrong": [], "counts_equal": [], "inside": 0, "tests": list(FAMILY_TESTS), "patterns": len(patterns)}
    for F in patterns:
        G, H = furer_pair(F)
        dp, bt = (hom_count(F, G), hom_count(F, H)), (hom_count_brute(F, G), hom_count_brute(F, H))
        if dp != bt or dp[0] == dp[1]:
            out["counts_equal"].append(f"{graph6(F)}: DP {dp}, backtracking {bt}")
        for test in FAMILY_TESTS:
            member = family_of(test).contains(F)
            out["inside"] += member
            with verdict_only():
                seen = refine_pair(G, H, test).distinguished
            if seen != member:
                verdict = "distinguished" if seen else "not distinguished"
                out["wrong"].append(f"{test} on the Fürer pair over {graph6(F)}: {verdict}, pattern "
                                    f"{'in' if member else 'outside'} its family")
    out["checked"] = len(patterns) * len(FAMILY_TESTS)
    return out


def _rooted_counts(F, G, H, marks: tuple, at: tuple) -> str | None:
    """None when hom((F, marks), (G, at)) and hom((F, marks), (H, at)) differ and the dynamic
    programme (:func:`~wltools.hom.count.hom_counts_at`) and backtracking with the marks fixed
    (:func:`~wltools.hom.brute.hom_count_brute`) agree on both; else what went wrong."""
    from wltools.hom.brute import hom_count_brute
    from wltools.hom.count import hom_counts_at

    dp = tuple(int(hom_counts_at(F, X, marks)[at]) for X in (G, H))
    bt = tuple(hom_count_brute(F, X, fixed=dict(zip(marks, at))) for X in (G, H))
    return None if dp == bt and dp[0] != dp[1] else f"DP {dp}, backtracking {bt}"


#: Why edge level is not checked: the construction that the natural analogue of the node-level
#: one gives is not the paper's fooling pair (measured; the numbers are in the claim's docstring).
EDGE_LEVEL_NOT_CHECKED = (
    "not checked: the edge-level construction of Zhang et al.'s maximality proof could not be read "
    "here, and its natural analogue (the marks (w, {}), (x, {}) of the Fürer pair, twisted away from wx, "
    "marks not separating F) is no fooling pair (measured once: on 35 of 476 (test, marked pattern) cases "
    "up to 5 vertices, for sswl, slfwl2 and 3wl, e.g. K4 minus wx, the marked pair colours differ outside "
    "the family, explained by family patterns whose rooted counts differ at the marks)")


def _rooted_level(level: str, max_nodes: int) -> dict:
    """Node level (Zhang et al. 2024, Sec. 3.3, Theorem 3.7 and its maximality proof): for every
    test with a ``level`` family and a ``level`` colour (:mod:`wltools.hierarchy.levels`) and every
    connected pattern of 2..``max_nodes`` vertices marked at ``w = 0`` (and ``x = 1``) whose marks
    do not separate it, the marked Fürer pair (:func:`~wltools.hierarchy.furer.rooted_furer_pair`):
    the colours of the marked vertices differ exactly inside the family, and the rooted counts
    differ (two counters). Patterns whose marks separate them are counted, not checked."""
    from wltools.errors import UnsupportedGraphError
    from wltools.hierarchy.furer import rooted_furer_pair
    from wltools.hierarchy.levels import level_colours, no_level_colour_reason
    from wltools.hom.families import FAMILY_TESTS, family_of
    from wltools.hom.patterns import graph6, rooted_patterns

    reasons = {t: no_level_colour_reason(t, level) for t in FAMILY_TESTS}
    tests = [t for t, why in reasons.items() if why is None]
    marks = _MARKS[level]
    out = {"wrong": [], "counts_equal": [], "inside": 0, "tests": tests, "patterns": 0, "separated": 0,
           "left_out": {t: why for t, why in reasons.items() if why is not None}}
    for F in rooted_patterns(max_nodes, level, min_nodes=2):
        try:
            G, H, at = rooted_furer_pair(F, marks)
        except UnsupportedGraphError:
            out["separated"] += 1
            continue
        out["patterns"] += 1
        problem = _rooted_counts(F, G, H, marks, at)
        if problem:
            out["counts_equal"].append(f"{graph6(F)} marked {marks}: {problem}")
        for test in tests:
            member = family_of(test, level).contains(F, marks)
            out["inside"] += member
            cg, ch = level_colours(G, H, test, level)
            if (cg[at] != ch[at]) != member:
                out["wrong"].append(f"{test} at {level} level on the Fürer pair over {graph6(F)} marked {marks}: "
                                    f"{'equal' if member else 'different'} colours, pattern "
                                    f"{'in' if member else 'outside'} its family")
    out["checked"] = out["patterns"] * len(tests)
    return out


def _evidence(levels: dict, max_nodes: int) -> dict:
    """The claim's evidence: graph level's figures at the top (as before node level was checked),
    node level's under ``node``, and why edge level is not checked."""
    g, r = levels["graph"], levels["node"]
    return {"tests": g["tests"], "patterns": g["patterns"], "max_nodes": max_nodes, "checked": g["checked"],
            "pattern_inside_family": g["inside"], "mismatches": len(g["wrong"]),
            "hom_counts_not_different": len(g["counts_equal"]),
            "node": {"tests": r["tests"], "patterns": r["patterns"], "checked": r["checked"],
                     "pattern_inside_family": r["inside"], "mismatches": len(r["wrong"]),
                     "hom_counts_not_different": len(r["counts_equal"]),
                     "patterns_separated_by_the_root_not_checked": r["separated"], "left_out": r["left_out"]},
            "edge": {"checked": 0, "why": EDGE_LEVEL_NOT_CHECKED, "left_out": _edge_left_out()}}


def _edge_left_out() -> dict:
    """Why each test of :data:`~wltools.hom.families.FAMILY_TESTS` is not checked at edge level."""
    from wltools.hierarchy.levels import no_level_colour_reason
    from wltools.hom.families import FAMILY_TESTS

    return {t: no_level_colour_reason(t, "edge") or "not checked: no edge-level Fürer construction (see why)"
            for t in FAMILY_TESTS}


@register_claim(
    "fuerer-pairs",
    statement=("For every test with a homomorphism family and every connected pattern F up to 5 vertices, "
               "the Fürer pair over F is distinguished exactly when F is in the test's family, and hom(F, .) "
               "differs between its two graphs (two independent counters). At node level likewise, for every "
               "test with a node-level family and every pattern F^w whose root does not separate F: the node "
               "colours of (w, {}) in the Fürer graph and its twisted version differ exactly when F^w is in the "
               "family, and the rooted counts differ."),
    source=_FUERER_SOURCE,
    method="exhaustive",
    params=("max_nodes",),
)
def check_fuerer_pairs(*, max_nodes: int | None = None) -> ClaimResult:
    """Every (test, pattern) of the statement, at graph and node level; ``max_nodes`` (default 5)
    bounds the patterns at both. Edge level: :data:`EDGE_LEVEL_NOT_CHECKED`."""
    max_nodes = 5 if max_nodes is None else max_nodes
    levels = {"graph": _graph_level(max_nodes), "node": _rooted_level("node", max_nodes)}
    evidence = _evidence(levels, max_nodes)
    wrong = [w for r in levels.values() for w in r["wrong"]]
    counts_equal = [c for r in levels.values() for c in r["counts_equal"]]
    checked = sum(r["checked"] for r in levels.values())
    if wrong or counts_equal:
        return ClaimResult("FAIL", f"{len(wrong)} of {checked} (test, pattern) verdicts disagree with the families; "
                           f"{len(counts_equal)} patterns without differing counts", evidence,
                           witness="; ".join((wrong + counts_equal)[:3]))
    g, r = levels["graph"], levels["node"]
    return ClaimResult("PASS", f"all {checked} (test, pattern) pairs agree: graph level {g['checked']} ({len(g['tests'])} "
                       f"tests x {g['patterns']} connected patterns of 2..{max_nodes} vertices, distinguished exactly "
                       f"inside the family, {g['inside']} times), node level {r['checked']} ({len(r['tests'])} tests x "
                       f"{r['patterns']} rooted patterns whose root does not separate them, the roots' colours differ "
                       f"exactly inside the family, {r['inside']} times); the (rooted) hom counts differ on every pair "
                       f"by both counters; edge level not checked (see the evidence)", evidence)


@register_claim(
    "hierarchy-certified",
    statement=("Every certified separating pair among 1-WL, SWL(VS), SSWL, Local 2-FWL, 2-FWL and 3-FWL "
               "re-checks (exact tests, two homomorphism counters, canonical forms), and none contradicts "
               "the cited strict order 1-WL < SWL(VS) < SSWL < Local 2-FWL < 2-FWL < 3-FWL."),
    source=_SOURCE,
    method="exhaustive",
    params=(),
)
def check_hierarchy_certified() -> ClaimResult:
    """The sweep of :func:`wltools.hierarchy.hierarchy` over :data:`CHAIN`, its certificates re-checked."""
    from wltools.hierarchy import hierarchy, verify_certificate
    from wltools.hierarchy.sources import theorem_edges

    h = hierarchy(CHAIN, max_seconds=1e9)
    problems = [f"{a} < {b} certificate: {p}" for (a, b), c in sorted(h.certificates.items())
                for p in verify_certificate(c.to_dict())]
    contradicted = h.contradictions()
    cited = theorem_edges()
    shown = sorted(e for e in cited if e in h.certificates)
    unshown = sorted(set(cited) - set(shown))
    evidence = {"tests": list(CHAIN), "certificates": len(h.certificates), "recheck_failures": len(problems),
                "contradicted_theorems": contradicted,
                "cited_edges_with_a_certified_pair": [f"{a} < {b}" for a, b in shown],
                "cited_edges_without_one_here": [f"{a} < {b}" for a, b in unshown],
                "coverage": h.coverage}
    if problems or contradicted:
        return ClaimResult("FAIL", f"{len(problems)} certificate checks failed, {len(contradicted)} cited orders "
                           "contradicted", evidence, witness="; ".join((problems + contradicted)[:3]))
    witness = "; ".join(f"{a} < {b}: {h.certificates[(a, b)].G.number_of_nodes()} vertices, "
                        f"{h.certificates[(a, b)].construction}" for a, b in shown)
    return ClaimResult("PASS", f"all {len(h.certificates)} certified pairs among {len(CHAIN)} tests re-check and none "
                       f"contradicts a cited order; {len(shown)} of the {len(cited)} cited strict edges have a "
                       f"certified pair here ({', '.join(f'{a} < {b}' for a, b in unshown) or 'none'} without)",
                       evidence, witness=witness)
