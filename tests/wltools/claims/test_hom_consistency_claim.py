"""The claim ``hom-consistency`` (:mod:`wltools.claims.hom_consistency`): PASS on the representative
BREC sample, FAIL when a count or a family is deliberately swapped."""

from __future__ import annotations

import networkx as nx
import pytest

from brec_sample import sample_pairs
from wltools.claims import get_claim
from wltools.claims.hom_consistency import check_hom_consistency
from wltools.hom.count import hom_count
from wltools.hom.witness import graph_family_patterns

#: Small basic pairs (10 vertices): 1-WL does not distinguish them, 3-WL does.
_FEW = [0, 1, 2, 3]


def test_passes_on_the_brec_sample_with_recounted_witnesses(brec_verdicts):
    """1-WL and 3-WL on the 42 pairs, patterns up to 4 vertices (the defaults, 3-FWL and K = 5,
    run end to end in tests/cli/test_claims.py). The verdicts: the session's theory cache, where
    the committed BREC table's check computes them on all 400 pairs."""
    r = check_hom_consistency(pairs=sample_pairs(), theory_verdicts=lambda t, ids, rrwp_steps=None: brec_verdicts(t, ids),
                              tests=("1wl", "3wl"), max_nodes=4, atlas_max_nodes=5)
    assert r.status == "PASS", r.summary
    brec = r.evidence["BREC"]
    assert brec["1wl"]["pairs"] == 42 and brec["1wl"]["not distinguished (all counts equal)"] == 42
    assert brec["3wl"]["with a witness"] > 10
    assert brec["3wl"]["witnesses recounted by backtracking"] == brec["3wl"]["with a witness"]
    assert r.evidence["atlas (Dell-Grohe-Rattan)"]["1wl"]["violations"] == []
    assert "hom-consistency" == get_claim("hom-consistency").id


def test_fails_when_a_count_is_swapped(brec):
    """Triangles counted as 4-cycles: the witnesses' recounts (backtracking) disagree."""
    def swapped(F, G):
        triangle = F.number_of_nodes() == 3 and F.number_of_edges() == 3
        return hom_count(nx.cycle_graph(4) if triangle else F, G)

    r = check_hom_consistency(pairs=brec, brec_ids=_FEW, tests=("3wl",), count=swapped, atlas_max_nodes=3)
    assert r.status == "FAIL" and "recounted by backtracking" in r.summary


def test_fails_when_a_family_is_swapped(brec):
    """1-WL given 3-WL's family: BREC's basic pairs (1-WL-equivalent) differ in triangles."""
    def swapped(test, k):
        return graph_family_patterns("3wl" if test == "1wl" else test, k)

    r = check_hom_consistency(pairs=brec, brec_ids=_FEW, tests=("1wl",), family=swapped, atlas_max_nodes=3)
    assert r.status == "FAIL" and "1wl does not distinguish, but the pattern Bw" in r.summary


def test_fails_on_the_atlas_when_only_the_atlas_is_wrong(brec):
    """Edges counted once more in graphs with a triangle: C6 and two triangles (1-WL-equivalent,
    in the atlas) then differ; BREC pair 0 has triangles in both graphs and stays equal. The right
    counts come from one batched count per pattern over every graph the check reads (a count per
    graph and pattern paid its planning 3,000 times)."""
    from wltools.claims._common import atlas_graphs
    from wltools.hom.batch import Counter as HomCounter

    graphs = [G for _, G in atlas_graphs(6)] + [brec[0].g, brec[0].h]
    exact, at = HomCounter(graphs), {id(G): i for i, G in enumerate(graphs)}
    triangle = [any(nx.triangles(G).values()) for G in graphs]
    rows: dict = {}

    def wrong_with_triangles(F, G):
        if F not in rows:  # F: a pattern object of the family (kept by graph_family_patterns)
            rows[F] = exact.counts(F)
        i = at[id(G)]
        return rows[F][i] + (F.number_of_nodes() == 2 and triangle[i])

    r = check_hom_consistency(pairs=brec, brec_ids=[0], tests=("1wl",), count=wrong_with_triangles,
                              atlas_max_nodes=6)
    assert r.status == "FAIL" and "atlas" in r.summary


def test_atlas_counts_are_those_of_backtracking():
    """The atlas part's counts (one batched count per pattern over all graphs,
    wltools.hom.batch.Counter) against plain backtracking per pattern and graph, the independent
    reference: every connected pattern of 3-FWL's family (trees and treewidth 2 among them) into
    every atlas graph, up to 5 vertices."""
    from wltools.claims._common import atlas_graphs
    from wltools.claims.hom_consistency import _pattern_counts
    from wltools.hom.brute import hom_count_brute

    graphs = atlas_graphs(5)
    counts = _pattern_counts(graphs, None)
    patterns = graph_family_patterns("3fwl", 5)
    assert len(patterns) > 20 and len(graphs) > 50
    for F in patterns:
        assert counts(F) == [hom_count_brute(F, G) for _, G in graphs], F.edges
