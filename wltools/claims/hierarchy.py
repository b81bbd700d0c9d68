"""Claims about the hierarchy of tests, checked on Fürer pairs and certified separating pairs.

``fuerer-pairs``: for every test with a graph-level homomorphism family and every connected pattern F
up to ``max_nodes`` vertices (default 5), the Fürer pair over F (:mod:`wltools.hierarchy.furer`) is
distinguished by the test exactly when F lies in the test's family, and hom(F, .) differs between its
two graphs by two independent counters: outside the family the test cannot tell them apart (Zhang,
Gai, Du, Ye, He & Wang, ICLR 2024, arXiv 2401.08514, the proof of their maximality theorem; Gai et
al., ICLR 2025, for EPWL's parallel trees), inside it hom(F, .) differs (Roberson 2022). A machine
check of maximality on every small pattern, graph level.

``hierarchy-certified``: :func:`wltools.hierarchy.hierarchy` over the tests of the cited strict chain
(1-WL < SWL(VS) < SSWL < Local 2-FWL < 2-FWL < 3-FWL; :data:`wltools.hierarchy.sources.THEOREM_EDGES`):
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

#: The tests of the cited strict chain (:data:`wltools.hierarchy.sources.THEOREM_EDGES`).
CHAIN = ("1wl", "swl-vs", "sswl", "slfwl2", "3wl", "3fwl")


@register_claim(
    "fuerer-pairs",
    statement=("For every test with a homomorphism family and every connected pattern F up to 5 vertices, "
               "the Fürer pair over F is distinguished exactly when F is in the test's family, and hom(F, .) "
               "differs between its two graphs (two independent counters)."),
    source=_SOURCE,
    method="exhaustive",
    params=("max_nodes",),
)
def check_fuerer_pairs(*, max_nodes: int | None = None) -> ClaimResult:
    """Every (test, pattern) of the statement; ``max_nodes`` (default 5) bounds the patterns."""
    import networkx as nx

    from wltools.hierarchy.furer import furer_pair
    from wltools.hom.brute import hom_count_brute
    from wltools.hom.count import hom_count
    from wltools.hom.families import FAMILY_TESTS, family_of
    from wltools.hom.patterns import connected_graphs
    from wltools.refine import refine_pair, verdict_only

    max_nodes = 5 if max_nodes is None else max_nodes
    patterns = connected_graphs(max_nodes, 2)
    wrong, counts_equal, inside = [], [], 0
    for F in patterns:
        G, H = furer_pair(F)
        g6 = nx.to_graph6_bytes(F, header=False).decode().strip()
        dp, bt = (hom_count(F, G), hom_count(F, H)), (hom_count_brute(F, G), hom_count_brute(F, H))
        if dp != bt or dp[0] == dp[1]:
            counts_equal.append(f"{g6}: DP {dp}, backtracking {bt}")
        for test in FAMILY_TESTS:
            member = family_of(test).contains(F)
            inside += member
            with verdict_only():
                seen = refine_pair(G, H, test).distinguished
            if seen != member:
                wrong.append(f"{test} on the Fürer pair over {g6}: {'distinguished' if seen else 'not distinguished'}"
                             f", pattern {'in' if member else 'outside'} its family")
    checked = len(patterns) * len(FAMILY_TESTS)
    evidence = {"tests": list(FAMILY_TESTS), "patterns": len(patterns), "max_nodes": max_nodes,
                "checked": checked, "pattern_inside_family": inside, "mismatches": len(wrong),
                "hom_counts_not_different": len(counts_equal)}
    if wrong or counts_equal:
        return ClaimResult("FAIL", f"{len(wrong)} of {checked} (test, pattern) verdicts disagree with the families; "
                           f"{len(counts_equal)} patterns without differing counts", evidence,
                           witness="; ".join((wrong + counts_equal)[:3]))
    return ClaimResult("PASS", f"all {checked} (test, pattern) pairs ({len(FAMILY_TESTS)} tests x {len(patterns)} "
                       f"connected patterns of 2..{max_nodes} vertices) agree: the Fürer pair is distinguished exactly "
                       f"inside the family ({inside} times), and hom(F, .) differs on every pair by both counters",
                       evidence)


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
    from wltools.hierarchy.sources import THEOREM_EDGES

    h = hierarchy(CHAIN, max_seconds=1e9)
    problems = [f"{a} < {b} certificate: {p}" for (a, b), c in sorted(h.certificates.items())
                for p in verify_certificate(c.to_dict())]
    contradicted = h.contradictions()
    shown = sorted(e for e in THEOREM_EDGES if e in h.certificates)
    unshown = sorted(set(THEOREM_EDGES) - set(shown))
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
                       f"contradicts a cited order; {len(shown)} of the {len(THEOREM_EDGES)} cited strict edges have a "
                       f"certified pair here ({', '.join(f'{a} < {b}' for a, b in unshown) or 'none'} without)",
                       evidence, witness=witness)
