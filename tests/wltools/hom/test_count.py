"""Exact homomorphism counts (:mod:`wltools.hom.count`) against plain backtracking
(:mod:`wltools.hom.brute`) on random small pairs, plain and rooted, and against identities that
hold for every graph: hom(K2, G) = 2m, walks, closed walks (trace of A^k), cliques, K1,
multiplicativity over disjoint unions, relabelling invariance, and counts into complete graphs
large enough to overflow int64."""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx
import numpy as np
import pytest

from wltools.errors import ResourceLimitError, UnsupportedGraphError, WLToolsError
from wltools.hom.brute import hom_count_brute
from wltools.hom.count import hom_count, hom_counts, hom_counts_at
from wltools.hom.dense import _count_connected


def _random_pairs(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        F = nx.gnp_random_graph(rng.randint(1, 6), rng.uniform(0.3, 0.9), seed=rng.randrange(10 ** 6))
        G = nx.gnp_random_graph(rng.randint(1, 9), rng.uniform(0.2, 0.8), seed=rng.randrange(10 ** 6))
        yield F, G


@pytest.mark.parametrize("seed", range(3))
def test_dp_equals_backtracking_on_random_pairs(seed):
    for F, G in _random_pairs(seed, 25):
        assert hom_count(F, G) == hom_count_brute(F, G), (nx.to_graph6_bytes(F), nx.to_graph6_bytes(G))


def test_rooted_counts_equal_backtracking_with_fixed_images():
    rng = random.Random(7)
    for _ in range(12):
        F = nx.connected_watts_strogatz_graph(rng.randint(3, 5), 2, 0.5, seed=rng.randrange(1000)) \
            if rng.random() < 0.5 else nx.gnp_random_graph(rng.randint(2, 5), 0.6, seed=rng.randrange(1000))
        G = nx.gnp_random_graph(rng.randint(2, 7), 0.5, seed=rng.randrange(1000))
        r, s = rng.sample(list(F.nodes), 2)
        one = hom_counts_at(F, G, (r,))
        two = hom_counts_at(F, G, (r, s))
        nodes = list(G.nodes)
        assert one.shape == (len(nodes),) and two.shape == (len(nodes), len(nodes))
        for i, x in enumerate(nodes):
            assert one[i] == hom_count_brute(F, G, fixed={r: x})
            for j, y in enumerate(nodes):
                assert two[i, j] == hom_count_brute(F, G, fixed={r: x, s: y})
        assert sum(one) == hom_count(F, G) == two.sum()


def test_rooted_counts_are_python_ints_over_graph_node_order():
    G = nx.relabel_nodes(nx.path_graph(4), {0: "d", 1: "a", 2: "c", 3: "b"})
    out = hom_counts_at(nx.path_graph(2), G, (0,))  # the degree of each vertex, in list(G.nodes) order
    assert out.dtype == object and all(type(x) is int for x in out)
    assert out.tolist() == [G.degree(v) for v in G.nodes]


def test_rooted_counts_with_roots_in_two_components():
    F = nx.disjoint_union(nx.path_graph(2), nx.cycle_graph(3))  # roots 0 (edge) and 2 (triangle)
    G = nx.petersen_graph()
    two = hom_counts_at(F, G, (0, 2))
    assert two.tolist() == np.multiply.outer(hom_counts_at(nx.path_graph(2), G, (0,)),
                                             hom_counts_at(nx.cycle_graph(3), G, (0,))).tolist()


@pytest.mark.parametrize("G", [nx.petersen_graph(), nx.karate_club_graph(), nx.path_graph(1)])
def test_identities(G):
    A = nx.to_numpy_array(G, weight=None).astype(object)
    ones = np.ones(len(A), dtype=object)
    assert hom_count(nx.complete_graph(2), G) == 2 * G.number_of_edges()
    for k in range(1, 7):  # paths on k vertices: walks with k - 1 steps
        assert hom_count(nx.path_graph(k), G) == ones @ np.linalg.matrix_power(A, k - 1) @ ones
    for k in range(3, 8):  # cycles: closed walks, the trace of A^k
        assert hom_count(nx.cycle_graph(k), G) == np.trace(np.linalg.matrix_power(A, k))


@pytest.mark.parametrize("k", [3, 4, 5])
def test_cliques_count_labelled_subgraphs(k):
    G = nx.gnp_random_graph(12, 0.6, seed=k)
    subgraphs = sum(1 for S in itertools.combinations(G.nodes, k)
                    if all(G.has_edge(u, v) for u, v in itertools.combinations(S, 2)))
    assert hom_count(nx.complete_graph(k), G) == math.factorial(k) * subgraphs


def test_into_one_vertex_and_empty_pattern():
    K1 = nx.empty_graph(1)
    assert hom_count(nx.path_graph(2), K1) == 0 and hom_count(nx.cycle_graph(5), K1) == 0
    assert hom_count(nx.empty_graph(3), K1) == 1 and hom_count(nx.empty_graph(3), nx.path_graph(4)) == 64
    assert hom_count(nx.Graph(), nx.petersen_graph()) == 1


def test_multiplicative_over_disjoint_unions_and_relabelling_invariant():
    F1, F2, G = nx.cycle_graph(4), nx.complete_graph(3), nx.circular_ladder_graph(6)
    assert hom_count(nx.disjoint_union(F1, F2), G) == hom_count(F1, G) * hom_count(F2, G)
    rng = random.Random(3)
    for F in (nx.wheel_graph(5), nx.petersen_graph(), nx.path_graph(5)):
        base = hom_count(F, G)
        for _ in range(2):
            pf, pg = list(F.nodes), list(G.nodes)
            rng.shuffle(pf), rng.shuffle(pg)
            assert hom_count(nx.relabel_nodes(F, dict(zip(F.nodes, pf))),
                             nx.relabel_nodes(G, dict(zip(G.nodes, [f"v{x}" for x in pg])))) == base


def test_past_int64_exact():
    """hom(P_k, K_n) = n (n-1)^(k-1) and hom(C_k, K_n) = (n-1)^k + (-1)^k (n-1) (chromatic
    polynomials), at sizes far beyond 2^63: the object path."""
    K = nx.complete_graph(60)
    assert hom_count(nx.path_graph(12), K) == 60 * 59 ** 11 > 2 ** 63
    assert hom_count(nx.cycle_graph(11), K) == 59 ** 11 - 59 > 2 ** 63
    rooted = hom_counts_at(nx.cycle_graph(11), K, (0, 1))
    assert rooted[0, 1] == (59 ** 11 - 59) // (60 * 59) and rooted[0, 0] == 0


@pytest.mark.parametrize("dtype", [np.float64, np.int64, object])
def test_every_arithmetic_agrees(dtype):
    F, G = nx.wheel_graph(5), nx.gnp_random_graph(14, 0.5, seed=1)
    assert int(_count_connected(F, G, dtype=dtype)[()]) == hom_count_brute(F, G)
    assert _count_connected(F, G, (0, 2), dtype=dtype).tolist() == hom_counts_at(F, G, (0, 2)).tolist()


def test_refusals():
    loop = nx.Graph([(0, 0), (0, 1)])
    with pytest.raises(UnsupportedGraphError, match="self-loop"):
        hom_count(loop, nx.path_graph(2))
    with pytest.raises(UnsupportedGraphError, match="multigraph"):
        hom_count(nx.path_graph(2), nx.MultiGraph([(0, 1), (0, 1)]))
    with pytest.raises(UnsupportedGraphError, match="directed"):
        hom_count(nx.DiGraph([(0, 1)]), nx.path_graph(2))
    G = nx.path_graph(3)
    nx.set_node_attributes(G, "C", "label")
    with pytest.raises(UnsupportedGraphError, match="labels"):
        hom_count(nx.path_graph(2), G)
    with pytest.raises(WLToolsError, match="distinct vertices"):
        hom_counts_at(nx.path_graph(3), nx.path_graph(3), (0, 0))
    with pytest.raises(WLToolsError, match="distinct vertices"):
        hom_counts_at(nx.path_graph(3), nx.path_graph(3), (7,))
    with pytest.raises(ResourceLimitError, match="treewidth 5"):
        _count_connected(nx.complete_graph(6), nx.empty_graph(300), max_work=1e9)


def test_many_counts_equal_single_counts():
    patterns = [nx.path_graph(1), nx.cycle_graph(4), nx.disjoint_union(nx.path_graph(2), nx.path_graph(3)),
                nx.complete_graph(4), nx.Graph()]
    G = nx.circulant_graph(11, [1, 3])
    assert hom_counts(patterns, G) == [hom_count_brute(F, G) for F in patterns]


def test_blas_and_numpy_loops_agree(monkeypatch):
    """Every pairwise contraction through BLAS (threshold 0) or through numpy's own loop (the
    default for small products and products without a sum) gives the same exact counts, equal to Python integers
    (object arithmetic), plain and rooted, for patterns of treewidth 1, 2 and 3."""
    from wltools.hom import dense

    G = nx.gnp_random_graph(40, 0.3, seed=4)
    patterns = [nx.star_graph(3), nx.cycle_graph(5), nx.wheel_graph(5), nx.complete_graph(4)]
    exact = [int(_count_connected(F, G, dtype=object)[()]) for F in patterns]
    rooted = _count_connected(nx.cycle_graph(4), G, (0, 2), dtype=object).tolist()
    for work in (0, float("inf")):
        monkeypatch.setattr(dense, "_BLAS_WORK", work)
        assert [int(_count_connected(F, G, dtype=np.float64)[()]) for F in patterns] == exact
        assert hom_counts_at(nx.cycle_graph(4), G, (0, 2)).tolist() == rooted
