"""Exact subgraph counts against brute force (networkx monomorphisms), closed forms and bad input."""

from math import comb, factorial

import networkx as nx
import numpy as np
import pytest

from wltools.counting import STANDARD_TASKS, automorphisms, parse_task, subgraph_counts
from wltools.errors import UnsupportedGraphError


@pytest.mark.parametrize("name", STANDARD_TASKS)
def test_counts_equal_brute_force_on_random_graphs(name, brute):
    F = parse_task(name).pattern
    G = nx.gnp_random_graph(8, 0.5, seed=1)
    G = nx.relabel_nodes(G, {v: f"v{(3 * v) % 8}" for v in G})  # non-integer, shuffled labels
    got = subgraph_counts(F, G)
    want = brute(F, G)
    assert got[0] == want[0] > 0 or name == "complete:4"
    assert np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])


def test_closed_forms_on_complete_and_star_graphs():
    K = nx.complete_graph(7)
    for k in range(3, 8):  # k-cycles of K_n: n! / ((n - k)! 2k)
        assert subgraph_counts(nx.cycle_graph(k), K)[0] == factorial(7) // (factorial(7 - k) * 2 * k)
    G = nx.gnp_random_graph(12, 0.4, seed=3)
    degrees = [d for _, d in G.degree]
    assert subgraph_counts(nx.star_graph(3), G)[0] == sum(comb(d, 3) for d in degrees)
    assert subgraph_counts(nx.path_graph(3), G)[0] == sum(comb(d, 2) for d in degrees)
    A = nx.to_numpy_array(G, dtype=np.int64)
    assert subgraph_counts(nx.cycle_graph(3), G)[0] == np.trace(A @ A @ A) // 6


def test_levels_sum_to_graph_count_times_pattern_size():
    G = nx.gnp_random_graph(14, 0.35, seed=5)
    for name in ("chordal:5", "tailed-triangle", "star:4"):
        F = parse_task(name).pattern
        g, node, edge = subgraph_counts(F, G)
        assert node.sum() == g * F.number_of_nodes() and edge.sum() == g * F.number_of_edges()


def test_automorphisms_and_relabelling_invariance():
    assert [automorphisms(parse_task(t).pattern) for t in ("cycle:6", "chordal:4", "tailed-triangle", "star:3")] == [12, 4, 2, 6]
    G = nx.gnp_random_graph(11, 0.4, seed=8)
    perm = np.random.default_rng(0).permutation(11)
    H = nx.relabel_nodes(G, {v: int(perm[v]) for v in G})
    F = parse_task("cycle:5").pattern
    g1, n1, _ = subgraph_counts(F, G)
    g2, n2, _ = subgraph_counts(F, H)
    pos = {v: i for i, v in enumerate(H.nodes)}
    assert g1 == g2 and all(n1[v] == n2[pos[int(perm[v])]] for v in range(11))


def test_bad_input():
    with pytest.raises(UnsupportedGraphError):
        subgraph_counts(nx.Graph([(0, 1), (2, 3)]), nx.complete_graph(4))
    with pytest.raises(UnsupportedGraphError):
        subgraph_counts(nx.Graph(), nx.complete_graph(4))
    g, node, edge = subgraph_counts(nx.cycle_graph(5), nx.complete_graph(3))  # pattern larger than G
    assert g == 0 and node.tolist() == [0, 0, 0] and edge.tolist() == [0, 0, 0]
    g, node, edge = subgraph_counts(nx.cycle_graph(3), nx.empty_graph(0))
    assert g == 0 and node.size == 0 and edge.size == 0
