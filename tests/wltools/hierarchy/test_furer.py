"""Fürer graphs (wltools.hierarchy.furer) against hand computations and networkx."""

from __future__ import annotations

import networkx as nx
import pytest

from wltools.errors import UnsupportedGraphError
from wltools.hierarchy.furer import furer_graph, furer_pair, furer_size
from wltools.hom.patterns import connected_graphs


def _isomorphic(G, H) -> bool:
    """bliss through python-igraph: independent of wltools.iso's pynauty, and unlike VF2 quick on
    CFI graphs."""
    import igraph

    return igraph.Graph(n=G.number_of_nodes(), edges=list(G.edges)).isomorphic_bliss(
        igraph.Graph(n=H.number_of_nodes(), edges=list(H.edges)))


def test_triangle_by_hand():
    """Over a triangle the untwisted graph is two triangles and the twisted one a 6-cycle
    (each vertex has the gadget states {} and {both neighbours})."""
    G, H = furer_pair(nx.cycle_graph(3))
    assert nx.is_isomorphic(G, nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
    assert nx.is_isomorphic(H, nx.cycle_graph(6))


@pytest.mark.parametrize("F", [F for F in connected_graphs(5, 2)], ids=lambda F: nx.to_graph6_bytes(F, header=False).decode().strip())
def test_sizes_and_non_isomorphism_over_every_small_connected_graph(F):
    """sum 2^(deg-1) vertices; where F has no leaf, each (x, U) has sum over y in N(x) of
    2^(deg(y) - 2) neighbours (half of each neighbour's gadget) in both graphs; the twisted graph is
    not isomorphic to the untwisted one (CFI; bliss decides)."""
    G, H = furer_pair(F)
    assert G.number_of_nodes() == H.number_of_nodes() == furer_size(F)
    if min(d for _, d in F.degree) >= 2:
        want = [sum(2 ** (F.degree(y) - 2) for y in F[x]) for x in sorted(F) for _ in range(2 ** (F.degree(x) - 1))]
        assert [d for _, d in sorted(G.degree)] == want == [d for _, d in sorted(H.degree)]
    assert not _isomorphic(G, H)


def test_twisting_any_edge_gives_the_same_graph_up_to_isomorphism():
    """The isomorphism type of a twisted Fürer graph does not depend on which edge is twisted
    (connected F): the CFI fact the pair relies on."""
    F = nx.complete_graph(4)
    first = furer_graph(F, (0, 1))
    for e in F.edges:
        assert _isomorphic(first, furer_graph(F, e))


def test_bad_bases_are_refused():
    with pytest.raises(UnsupportedGraphError, match="not an edge"):
        furer_graph(nx.path_graph(3), (0, 2))
    with pytest.raises(UnsupportedGraphError, match="needs a base graph with an edge"):
        furer_pair(nx.empty_graph(3))
    with pytest.raises(UnsupportedGraphError, match="simple undirected"):
        furer_graph(nx.DiGraph([(0, 1)]))
