"""Spasms and subgraph-counting power (wltools.hom.spasm): the quotient enumeration against a
brute force over all maps, the paper's Figure 4 and Example 4.6 boundaries, witnesses, bad input."""

from itertools import product

import networkx as nx
import pytest

from wltools.errors import UnsupportedGraphError
from wltools.hom.families import family_of
from wltools.hom.patterns import canonical_form
from wltools.hom.spasm import can_count, spasm


def _brute_spasm(F, roots=()):
    """Images of every map V(F) -> {0..n-1} that sends edges to edges of K_n (a homomorphism onto
    its image), marks kept apart: an enumeration of maps, not of partitions."""
    nodes = list(F)
    found = set()
    for values in product(range(len(nodes)), repeat=len(nodes)):
        f = dict(zip(nodes, values))
        if any(f[u] == f[v] for u, v in F.edges) or len({f[r] for r in roots}) < len(roots):
            continue
        image = nx.Graph()
        image.add_nodes_from(set(values))
        image.add_edges_from((f[u], f[v]) for u, v in F.edges)
        found.add(canonical_form(image, tuple(f[r] for r in roots))[0])
    return found


@pytest.mark.parametrize("F, roots", [(nx.cycle_graph(5), ()), (nx.path_graph(5), (0,)),
                                      (nx.complete_bipartite_graph(2, 3), (0, 2)),
                                      (nx.star_graph(3), (1,))])
def test_spasm_equals_brute_force(F, roots):
    images, brute = spasm(F, roots), _brute_spasm(F, roots)
    assert {canonical_form(G, marks)[0] for G, marks in images} == brute
    assert len(images) == len(brute)


def test_figure_4_and_sorting():
    images = spasm(nx.cycle_graph(6))
    assert len(images) == 10  # Figure 4(a): Spasm(C6) has 10 graphs
    keys = [(G.number_of_nodes(), G.number_of_edges()) for G, _ in images]
    assert keys == sorted(keys) and keys[0] == (2, 1) and keys[-1] == (6, 6)


def test_example_4_6_boundaries():
    # Zhang et al. Example 4.6 (small part; the claim subgraph-counting checks the whole table)
    assert can_count(nx.path_graph(3), "1wl")[0] and not can_count(nx.path_graph(4), "1wl")[0]
    assert not can_count(nx.cycle_graph(3), "1wl")[0]
    assert can_count(nx.cycle_graph(4), "swl-vs", "node")[0]
    ok, image = can_count(nx.cycle_graph(5), "swl-vs", "node")
    assert not ok and not family_of("swl-vs", "node").contains(image, (0,))
    assert can_count(nx.cycle_graph(6), "swl-vs")[0]  # Sec. 4.2: Subgraph GNN counts 6-cycles
    assert can_count(nx.cycle_graph(6), "sswl", "edge")[0]


def test_witness_k4_for_long_cycles():
    # Gai et al., proof of Cor. 3.14: K4 is a homomorphic image of C_n and P_n for n >= 8
    for F in (nx.cycle_graph(8), nx.path_graph(8)):
        ok, image = can_count(F, "3wl")
        assert not ok and nx.is_isomorphic(image, nx.complete_graph(4))
    assert can_count(nx.cycle_graph(8), "3fwl")[0]


def test_bad_input():
    with pytest.raises(UnsupportedGraphError):
        can_count(nx.cycle_graph(4), "spd")
    with pytest.raises(UnsupportedGraphError):
        can_count(nx.cycle_graph(4), "1wl", "edge")
    with pytest.raises(UnsupportedGraphError):
        can_count(nx.disjoint_union(nx.path_graph(2), nx.path_graph(2)), "sswl", "node")
    with pytest.raises(UnsupportedGraphError):
        can_count(nx.path_graph(3), "sswl", "edge", roots=(0, 0))
    labelled = nx.path_graph(3)
    nx.set_node_attributes(labelled, "C", "label")
    with pytest.raises(UnsupportedGraphError):
        can_count(labelled, "sswl")
    from wltools.errors import ResourceLimitError
    with pytest.raises(ResourceLimitError):
        spasm(nx.path_graph(11))


def _quotient_spasm(F, roots=()):
    """The former enumeration: each quotient built as a graph and relabelled by canonical_form,
    kept once per certificate, sorted by sort_key (the reference for the shared canonical images)."""
    from wltools.hom.patterns import sort_key
    from wltools.hom.spasm import _partitions

    seen = {}
    for blocks in _partitions(list(F), {v: set(F[v]) for v in F}, set(roots)):
        where = {v: k for k, b in enumerate(blocks) for v in b}
        Q = nx.Graph()
        Q.add_nodes_from(range(len(blocks)))
        Q.add_edges_from((where[u], where[v]) for u, v in F.edges)
        cert, canon = canonical_form(Q, tuple(where[r] for r in roots))
        seen.setdefault((len(blocks), cert), canon)
    return [(nx.to_graph6_bytes(G), tuple(range(len(roots)))) for G in sorted(seen.values(), key=sort_key)]


def test_spasm_equals_the_quotient_reference():
    """The same images (graph6 as labelled, marks, order) as building and relabelling each quotient,
    for every rooted pattern on 5 vertices at each level and for cycles and paths of 7 vertices."""
    from wltools.hom.patterns import rooted_patterns

    cases = [(F, ()) for F in rooted_patterns(5, "graph", 5)]
    cases += [(F, (0,)) for F in rooted_patterns(5, "node", 5)[::3]]
    cases += [(F, (0, 1)) for F in rooted_patterns(5, "edge", 5)[::5]]
    cases += [(nx.cycle_graph(7), (0, 1)), (nx.path_graph(7), (0,)), (nx.cycle_graph(7), ())]
    for F, roots in cases:
        got = [(nx.to_graph6_bytes(G), marks) for G, marks in spasm(F, roots)]
        assert got == _quotient_spasm(F, roots), (nx.to_graph6_bytes(F), roots)
        assert all(nx.is_frozen(G) for G, _ in spasm(F, roots))
