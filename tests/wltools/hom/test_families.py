"""Pattern families (wltools.hom.families, wltools.hom.ear): exact membership checked against
second formulations (treewidth, apex forests), the paper's published counts (Zhang et al., ICLR
2024, App. G.2, Table 4) and inclusions (Corollary 4.1), and bad input."""

import random
from collections import Counter

import networkx as nx
import pytest

from wltools.errors import UnknownNameError, UnsupportedGraphError
from wltools.hom.decompose import treewidth
from wltools.hom.ear import find_ned, has_ned
from wltools.hom.families import (FAMILY_TESTS, family_of, family_patterns, is_apex_forest,
                                  is_parallel_tree, no_family_reason)
from wltools.hom.patterns import connected_graphs, rooted_patterns

CHAIN = ("1wl", "swl-vs", "sswl", "slfwl2", "3wl", "3fwl")


@pytest.fixture(scope="module")
def small():
    return connected_graphs(6)


def _is_forest(G):
    return G.number_of_edges() == G.number_of_nodes() - nx.number_connected_components(G)


def _valid_ned(F, ears):
    """Re-check a returned decomposition against Definition 3.3 (independent of the search)."""
    edges = [frozenset(e) for ear in ears for e in zip(ear, ear[1:])]
    assert sorted(map(sorted, edges)) == sorted(map(sorted, map(frozenset, F.edges)))
    assert all(len(set(ear)) == len(ear) for ear in ears)
    seen = set(ears[0])
    for ear in ears[1:]:
        assert ear[0] in seen and not (set(ear[1:-1]) & seen)
        seen |= set(ear)


def test_ned_search_agrees_with_treewidth_two(small):
    # Theorem 3.4 (2-FGNN: NED) with Theorem 3.10 (k = 2: treewidth <= 2), every connected graph up
    # to 5 vertices (K4 and its subdivisions included) and every treewidth-2 graph on 6
    checked = 0
    for G in small:
        tw2 = treewidth(G) <= 2
        if G.number_of_nodes() <= 5 or tw2:
            ears = find_ned(G)
            assert (ears is not None) == tw2, nx.to_graph6_bytes(G)
            if ears:
                _valid_ned(G, ears)
            checked += 1
    assert checked > 80


def test_endpoint_shared_ned_is_apex_forest(small):
    # Corollary 3.5: an endpoint-shared NED exists iff deleting some vertex leaves a forest
    for G in small:
        if G.number_of_nodes() <= 5:
            assert has_ned(G, "endpoint-shared") == is_apex_forest(G), nx.to_graph6_bytes(G)
    # rooted (Theorem 3.7): a NED with shared endpoint w iff F - w is a forest
    for F in rooted_patterns(5, "node"):
        assert has_ned(F, "endpoint-shared", shared=0) == _is_forest(F.subgraph(set(F) - {0}))


def test_2fgnn_rooted_families_two_formulations():
    # Theorem 3.7 (NED with the marks as first-ear endpoints) against App. D.1 (treewidth-2
    # decomposition with the marks in the root bag), every rooted pattern up to 5 (node) and 4 (edge)
    # vertices
    node, edge = family_of("3wl", "node"), family_of("3wl", "edge")
    for F in rooted_patterns(5, "node", 2):
        assert node.contains(F, (0,)) == has_ned(F, first_ends=(0,))
    for F in rooted_patterns(4, "edge"):
        assert edge.contains(F, (0, 1)) == has_ned(F, first_ends=(0, 1))


def test_hierarchy_inclusions(small):
    # Corollary 4.1: forests < apex forests < strong < almost-strong < NED, and tw <= 2 < tw <= 3;
    # strict: each difference has a witness on 6 vertices (Table 4's counts differ)
    fams = [family_of(t) for t in CHAIN]
    strict = Counter()
    for G in small:
        inside = [f.contains(G) for f in fams]
        assert inside == sorted(inside), nx.to_graph6_bytes(G)
        for i in range(len(inside) - 1):
            strict[i] += inside[i + 1] and not inside[i]
    assert [strict[i] > 0 for i in range(5)] == [True, True, True, False, True]
    # Gai et al. Cor. 3.8 / 3.5: parallel trees have strong NEDs; cycles are parallel trees
    for G in small:
        if is_parallel_tree(G):
            assert family_of("sswl").contains(G)
    assert all(is_parallel_tree(nx.cycle_graph(n)) for n in range(3, 9))
    assert not is_parallel_tree(nx.complete_graph(4))  # Gai et al., proof of Cor. 3.14


# Zhang et al. App. G.2, Table 4 (connected patterns counted under homomorphism, n = 2..5)
TABLE4 = {"graph": {"1wl": [1, 1, 2, 3], "swl-vs": [1, 2, 5, 15], "sswl": [1, 2, 5, 15],
                    "slfwl2": [1, 2, 5, 15], "3wl": [1, 2, 5, 15]},
          "node": {"1wl": [1, 2, 4, 9], "swl-vs": [1, 3, 8, 27], "sswl": [1, 3, 10, 44],
                   "slfwl2": [1, 3, 10, 44], "3wl": [1, 3, 10, 44]},
          "edge": {"swl-vs": [1, 4, 18, 77], "sswl": [1, 4, 21, 116], "slfwl2": [1, 4, 21, 118],
                   "3wl": [1, 4, 21, 118]}}


@pytest.mark.parametrize("level", ["graph", "node", "edge"])
def test_published_counts_up_to_five_vertices(level):
    for test, row in TABLE4[level].items():
        sizes = Counter(F.number_of_nodes() for F in family_patterns(test, 5, level))
        assert [sizes[n] for n in range(2, 6)] == row, (test, level)


def test_family_patterns_order_roots_and_aliases():
    pats = family_patterns("sswl", 5, "edge")
    keys = [(F.number_of_nodes(), F.number_of_edges(), nx.to_graph6_bytes(F)) for F in pats]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    fam = family_of("sswl", "edge")
    assert all(fam.contains(F, (0, 1)) for F in pats)
    assert [nx.to_graph6_bytes(F) for F in family_patterns("m1", 5)] == \
        [nx.to_graph6_bytes(F) for F in family_patterns("swl-vs", 5)]


def test_examples_and_disconnected_patterns():
    k4 = nx.complete_graph(4)
    assert not family_of("3wl").contains(k4) and family_of("3fwl").contains(k4)
    assert not family_of("3fwl").contains(nx.complete_graph(5))
    wheel = nx.wheel_graph(6)  # hub + C5: treewidth 3
    assert family_of("swl-vs").contains(nx.cycle_graph(7)) and not family_of("3wl").contains(wheel)
    two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    assert not family_of("swl-vs").contains(two_triangles)  # no single vertex leaves a forest
    assert family_of("sswl").contains(two_triangles)  # componentwise (Definition 3.3)
    with pytest.raises(UnsupportedGraphError):
        family_of("epwl").contains(two_triangles)  # Gai et al.: connected patterns
    with pytest.raises(UnsupportedGraphError):
        family_of("sswl", "node").contains(two_triangles, (0,))
    with pytest.raises(UnsupportedGraphError):
        family_of("sswl", "edge").contains(k4, (0, 0))
    with pytest.raises(UnsupportedGraphError):
        family_of("sswl", "node").contains(k4)


def test_relabelling_invariance():
    rng = random.Random(3)
    for G in connected_graphs(6, 6)[::7]:
        names = [f"v{i}" for i in rng.sample(range(100), G.number_of_nodes())]
        H = nx.relabel_nodes(G, dict(zip(G, names)))
        for t in CHAIN + ("epwl",):
            assert family_of(t).contains(G) == family_of(t).contains(H)
        assert family_of("sswl", "node").contains(G, (0,)) == \
            family_of("sswl", "node").contains(H, (names[0],))


def test_tests_without_family_and_bad_names():
    for t in ("spd", "rd", "rrwp", "s3", "s4", "n1", "n2", "m2", "pswl-vs", "gswl", "lfwl2",
              "epwl-lap", "swl-sv", "n5"):
        assert family_of(t) is None and "no published" in no_family_reason(t)
        assert family_patterns(t, 4) is None
    assert family_of("1wl", "edge") is None and "does not exist" in no_family_reason("1wl", "edge")
    assert family_of("3fwl", "node") is None and family_of("epwl", "edge") is None
    assert set(FAMILY_TESTS) <= {t for t in FAMILY_TESTS if family_of(t) is not None}
    for bad in ("2wl", "", "SSWL", None):
        with pytest.raises(UnknownNameError):
            family_of(bad)
    with pytest.raises(UnknownNameError):
        family_of("sswl", "pair")


def test_shared_ned_searches_equal_fresh_ones():
    """has_ned shares its searches between calls on isomorphic graphs (canonically relabelled);
    every answer equals a fresh search's (find_ned), on every rooted pattern of treewidth <= 2 (the
    families ask only those) up to 5 vertices at node and edge level, and on every connected graph
    up to 6 vertices (treewidth 3 ones up to 5) with its vertices renamed and shuffled."""
    from wltools.hom import ear
    from wltools.hom.decompose import treewidth_at_most_2

    ear._SEARCHES.clear()
    cases = [(F, {"first_ends": (0,)}) for F in rooted_patterns(5, "node", 2) if treewidth_at_most_2(F)]
    cases += [(F, {"first_ends": (0, 1)}) for F in rooted_patterns(5, "edge") if treewidth_at_most_2(F)]
    rng = random.Random(11)
    for G in connected_graphs(6, 3):
        if G.number_of_nodes() == 6 and not treewidth_at_most_2(G):
            continue
        names = rng.sample(range(100), G.number_of_nodes())
        H = nx.Graph()
        H.add_nodes_from(rng.sample(names, len(names)))
        H.add_edges_from((names[u], names[v]) for u, v in G.edges)
        cases.append((H, {}))
    for kind in ("strong", "almost-strong"):
        got = [has_ned(F, kind, **kw) for F, kw in cases]
        assert got == [find_ned(F, kind, **kw) is not None for F, kw in cases], kind
        assert 0 < sum(got) < len(got)
    assert has_ned(nx.path_graph(1), "strong") and find_ned(nx.path_graph(1), "strong") == []
    assert has_ned(nx.cycle_graph(5), "endpoint-shared", shared=2)
    with pytest.raises(ValueError):
        has_ned(nx.cycle_graph(3), "strongest")


def test_union_find_forest_equals_edge_count():
    """The forest test (union-find, a vertex left out or not) equals ``m = n - c`` computed by
    networkx on the remaining graph, for every graph up to 6 vertices and every vertex."""
    from wltools.hom.families import _is_forest

    for G in nx.graph_atlas_g()[:209]:
        assert _is_forest(G) == _is_forest_by_count(G)
        for u in G:
            assert _is_forest(G, without=u) == _is_forest_by_count(G.subgraph(set(G) - {u}))
    loop = nx.Graph([(0, 0)])
    assert not _is_forest(loop) and _is_forest(loop, without=0)


def _is_forest_by_count(G):
    return G.number_of_edges() == G.number_of_nodes() - nx.number_connected_components(G)
