"""Witnesses (:mod:`wltools.hom.witness`): the smallest family pattern with different counts,
recounted by backtracking; the search order, its early stop and cache; the stand-in families
against published counts; a difference where a test does not distinguish is raised as a bug."""

from __future__ import annotations

import networkx as nx
import pytest

from wltools.errors import UnsupportedGraphError, WLToolsError
from wltools.graphs import load_graph
from wltools.hom.brute import hom_count_brute
from wltools.hom.witness import (CountCache, TheoryViolation, graph_family_patterns, explain, pattern_key,
                                 smallest_witness)


@pytest.fixture(scope="module")
def srg_pair():
    return load_graph("shrikhande"), load_graph("rook4x4")


def test_k4_is_the_smallest_treewidth_3_witness_for_shrikhande_and_rook(srg_pair):
    """The issue's example: the two srg(16, 6, 2, 2) agree on every pattern of treewidth <= 2
    (3-WL cannot separate them), and the smallest treewidth-3 pattern that separates them is K4."""
    G, H = srg_pair
    assert smallest_witness(G, H, graph_family_patterns("3wl", 5)) is None
    w = smallest_witness(G, H, graph_family_patterns("3fwl", 5))
    assert nx.is_isomorphic(nx.from_graph6_bytes(w.pattern.encode()), nx.complete_graph(4))
    K4 = nx.complete_graph(4)
    assert (w.hom_g, w.hom_h) == (hom_count_brute(K4, G), hom_count_brute(K4, H)) == (0, 192)
    assert w.to_dict() == {"pattern": "C~", "name": "K4", "hom_g": 0, "hom_h": 192}


def test_order_early_stop_and_cache():
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    patterns = [nx.complete_graph(4), nx.cycle_graph(4), nx.cycle_graph(3), nx.path_graph(3), nx.path_graph(2)]
    cache = CountCache(G, H)
    w = smallest_witness(G, H, patterns, cache)
    # P2, P3 (trees: equal, both 2-regular), then C3: 0 into C6, 12 into two triangles; C4 and K4 never counted
    assert (w.n, w.m, w.hom_g, w.hom_h) == (3, 3, 0, 12) and cache.counted == 3
    assert smallest_witness(G, H, patterns, cache) == w and cache.counted == 3
    with pytest.raises(ValueError, match="another pair"):
        smallest_witness(H, G, patterns, cache)
    assert sorted(patterns, key=pattern_key)[0].number_of_nodes() == 2


def test_families_match_published_counts():
    """Per size 1..7: trees 1, 1, 1, 2, 3, 6, 11 (OEIS A000055); connected graphs of treewidth <= 2
    (no K4 minor) 1, 1, 2, 5, 15, 56 (up to 6 vertices); treewidth <= 3 up to 5 vertices: every connected graph
    but K5 (1, 1, 2, 6, 20)."""
    def sizes(test, k):
        return [sum(F.number_of_nodes() == s for F in graph_family_patterns(test, k)) for s in range(1, k + 1)]

    assert sizes("1wl", 7) == [1, 1, 1, 2, 3, 6, 11]
    assert sizes("3wl", 6) == [1, 1, 2, 5, 15, 56]
    assert sizes("3fwl", 5) == [1, 1, 2, 6, 20]
    assert all(nx.is_tree(F) for F in graph_family_patterns("1wl", 6))
    assert graph_family_patterns("spd", 5) is None and graph_family_patterns("rrwp", 5) is None
    keys = [pattern_key(F) for F in graph_family_patterns("3wl", 6)]
    assert keys == sorted(keys)
    with pytest.raises(WLToolsError, match="up to 9 vertices"):
        graph_family_patterns("1wl", 10)


def test_explain_says_none_found_and_raises_on_a_theory_violation():
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    e = explain(G, H, "1wl", distinguished=True, max_nodes=5)  # not so, but the search is the same
    assert e.witness is None and "none up to 5 vertices" in str(e)
    assert e.to_dict() == {"hom_witness": None, "hom_searched_up_to": 5}
    assert "equal counts" in str(explain(G, H, "1wl", distinguished=False, max_nodes=5))
    assert explain(G, H, "spd", distinguished=True, max_nodes=5) is None
    with pytest.raises(TheoryViolation, match="internal error: 1wl does not distinguish.*bug"):
        explain(G, H, "1wl", distinguished=False, max_nodes=3, family=lambda t, k: [nx.cycle_graph(3)])


def test_labelled_graphs_are_refused():
    G = nx.path_graph(3)
    nx.set_node_attributes(G, 1, "label")
    with pytest.raises(UnsupportedGraphError, match="unlabelled graphs only"):
        smallest_witness(G, nx.path_graph(3), [nx.path_graph(2)])
