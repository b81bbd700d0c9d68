"""Exact treewidth against a brute-force definition (the best of all elimination orders) and known
values; the tree decompositions satisfy the definition."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from wltools.errors import WLToolsError
from wltools.hom.decompose import tree_decomposition, treewidth


def _width_of_order(F: nx.Graph, order) -> int:
    H = nx.Graph(F)
    width = 0
    for v in order:
        nb = list(H.neighbors(v))
        width = max(width, len(nb))
        H.add_edges_from(itertools.combinations(nb, 2))
        H.remove_node(v)
    return width


def _brute_treewidth(F: nx.Graph) -> int:
    return min(_width_of_order(F, order) for order in itertools.permutations(F.nodes))


@pytest.mark.parametrize("F, expected", [
    (nx.path_graph(5), 1), (nx.star_graph(4), 1), (nx.cycle_graph(7), 2), (nx.complete_graph(5), 4),
    (nx.grid_2d_graph(3, 3), 3), (nx.grid_2d_graph(4, 4), 4), (nx.petersen_graph(), 4),
    (nx.complete_bipartite_graph(3, 3), 3), (nx.empty_graph(3), 0), (nx.octahedral_graph(), 4),
    (nx.wheel_graph(6), 3),
])
def test_known_treewidths(F, expected):
    assert treewidth(F) == expected


def _check_decomposition(F: nx.Graph, width: int, T: nx.Graph) -> None:
    assert nx.is_tree(T) if T.number_of_nodes() else True
    assert max((len(b) for b in T.nodes), default=1) - 1 == width
    assert set().union(*T.nodes) == set(F.nodes)
    for u, v in F.edges:
        assert any(u in b and v in b for b in T.nodes)
    for v in F.nodes:
        assert nx.is_connected(T.subgraph([b for b in T.nodes if v in b]))


def test_exact_equals_brute_force_and_decompositions_are_valid():
    rng = random.Random(7)
    for trial in range(60):
        n = rng.randint(1, 7)
        F = nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(10**6))
        tw = treewidth(F)
        assert tw == _brute_treewidth(F), nx.to_graph6_bytes(F)
        width, T = tree_decomposition(F)
        assert width == tw
        _check_decomposition(F, width, T)


def test_too_large_pattern_is_refused():
    with pytest.raises(WLToolsError, match="at most"):
        treewidth(nx.path_graph(40))


def test_series_parallel_reduction_equals_exact_treewidth():
    """The fast ``treewidth <= 2`` test (reduction) against the exact programme on every graph of
    networkx's atlas (all graphs up to 7 vertices, disconnected ones included) and on random
    graphs of 8 to 11 vertices around the threshold; relabelling does not change it."""
    from wltools.hom.decompose import treewidth_at_most_2

    graphs = list(nx.graph_atlas_g())
    rng = random.Random(5)
    graphs += [nx.gnm_random_graph(n, rng.randint(n - 1, 2 * n - 1), seed=rng.randrange(10 ** 6))
               for n in range(8, 12) for _ in range(15)]
    tw2 = [treewidth(G) <= 2 for G in graphs]
    assert [treewidth_at_most_2(G) for G in graphs] == tw2
    assert 0 < sum(tw2[1253:]) < len(tw2) - 1253  # both answers occur among the random ones
    G = nx.relabel_nodes(nx.wheel_graph(5), {i: f"v{i}" for i in range(5)})
    assert not treewidth_at_most_2(G) and treewidth_at_most_2(nx.cycle_graph(9))
    assert treewidth_at_most_2(nx.empty_graph(0)) and treewidth_at_most_2(nx.empty_graph(3))
