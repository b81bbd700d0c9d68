"""Homomorphism counts by elimination over sparse tables (:mod:`wltools.hom.sparse`) and the
per-graph choice between it and the dense programme (:mod:`wltools.hom.batch`), against plain
backtracking (:mod:`wltools.hom.brute`, nothing shared), against the dense programme, and
against closed forms: every connected pattern up to 5 vertices, rooted counts, many graphs in
one pass, tables cut into pieces, the row cap, int64 overflow, and graphs the dense programme
cannot hold."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest

from wltools.errors import UnsupportedGraphError
from wltools.hom import batch, sparse
from wltools.hom.batch import Counter
from wltools.hom.brute import hom_count_brute
from wltools.hom.count import hom_count, hom_counts_at
from wltools.hom.dense import _count_connected, dp_batched
from wltools.hom.sparse import GraphBatch, TooManyRows

PATTERNS = [nx.freeze(F) for F in nx.graph_atlas_g() if 1 <= F.number_of_nodes() <= 5 and nx.is_connected(F)]


def _graphs(seed: int, count: int = 10):
    """Small random graphs with odd node names, an isolated vertex, an empty graph."""
    rng = random.Random(seed)
    out = [nx.empty_graph(0), nx.empty_graph(2), nx.petersen_graph()]
    for _ in range(count):
        G = nx.gnp_random_graph(rng.randint(1, 8), rng.uniform(0.2, 0.9), seed=rng.randrange(10 ** 6))
        G.add_node(100)
        out.append(nx.relabel_nodes(G, {v: f"v{v}" for v in G}))
    return out


@pytest.mark.parametrize("seed", range(2))
def test_elimination_equals_backtracking_for_every_connected_pattern_up_to_5(seed):
    graphs = _graphs(seed)
    batch_ = GraphBatch(graphs)
    for F in PATTERNS:
        assert batch_.counts(F) == [hom_count_brute(F, G) for G in graphs], nx.to_graph6_bytes(F)


def test_a_subset_of_the_graphs_in_any_order():
    graphs = _graphs(5)
    batch_ = GraphBatch(graphs)
    F = nx.cycle_graph(4)
    everything = batch_.counts(F)
    assert batch_.counts(F, [7, 2, 4]) == [everything[7], everything[2], everything[4]]


def test_disconnected_patterns_multiply():
    graphs = _graphs(2, 4)
    F = nx.disjoint_union(nx.path_graph(3), nx.cycle_graph(3))
    assert GraphBatch(graphs).counts(F) == [hom_count_brute(F, G) for G in graphs]


def test_rooted_counts_equal_backtracking_with_fixed_images():
    rng = random.Random(3)
    graphs = _graphs(3, 5)
    batch_ = GraphBatch(graphs)
    for F in rng.sample(PATTERNS[2:], 8):
        roots = tuple(rng.sample(list(F.nodes), 2))
        for k in (1, 2):
            tables = batch_.rooted(F, roots[:k])
            for G, A in zip(graphs, tables):
                nodes = list(G.nodes)
                assert A.shape == (len(nodes),) * k
                for idx in np.ndindex(A.shape):
                    fixed = {r: nodes[i] for r, i in zip(roots, idx)}
                    assert A[idx] == hom_count_brute(F, G, fixed=fixed)


def test_pieces_and_the_row_cap(monkeypatch):
    """Extensions cut into pieces of three rows count the same; a cap below a table raises
    TooManyRows, and the Counter then halves its batch and, for one graph, counts dense."""
    graphs = _graphs(4)
    F = nx.complete_graph(4)
    expected = [hom_count_brute(F, G) for G in graphs]
    monkeypatch.setattr(sparse, "_PIECE", 3)
    assert GraphBatch(graphs).counts(F) == expected
    monkeypatch.setattr(sparse, "MAX_ROWS", 20)
    with pytest.raises(TooManyRows):
        GraphBatch(graphs).counts(F)
    monkeypatch.setattr(batch, "DENSE_OP_SECONDS", 1e6)  # every graph tried sparse first
    c = Counter(graphs)
    assert {m for m, G in zip(c.methods(F), graphs) if len(G)} == {"sparse"}
    assert c.counts(F) == expected


@pytest.mark.parametrize("route", ["sparse", "dense"])
def test_either_route_alone_is_exact(monkeypatch, route):
    """The Counter with every graph forced onto one method: both equal backtracking."""
    monkeypatch.setattr(batch, "DENSE_OP_SECONDS", 1e6 if route == "sparse" else 0.0)
    graphs = _graphs(6)
    c = Counter(graphs)
    for F in PATTERNS[::3]:
        if F.number_of_nodes() > 1:
            assert {m for m, G in zip(c.methods(F), graphs) if len(G)} == {route}  # empty graphs: nothing to count
        assert c.counts(F) == [hom_count_brute(F, G) for G in graphs], nx.to_graph6_bytes(F)


def test_the_choice_follows_density():
    sparse_graph, dense_graph = nx.cycle_graph(400), nx.complete_graph(12)
    c = Counter([sparse_graph, dense_graph])
    assert c.methods(nx.complete_graph(4)) == ["sparse", "dense"]
    assert c.counts(nx.cycle_graph(4)) == [6 * 400, 11 ** 4 + 11]  # closed 4-walks; (k-1)^4 + (k-1)


def test_stacked_dense_programme_equals_one_graph_at_a_time():
    graphs = [nx.gnp_random_graph(9, 0.5, seed=s) for s in range(6)]
    A = np.stack([nx.to_numpy_array(G, weight=None) for G in graphs])
    for F in (nx.cycle_graph(5), nx.complete_graph(4), nx.wheel_graph(5)):
        stacked = dp_batched(F, A)
        assert [int(round(x)) for x in stacked] == [int(_count_connected(F, G)[()]) for G in graphs]


def test_past_int64_by_elimination(monkeypatch):
    monkeypatch.setattr(batch, "DENSE_OP_SECONDS", 1e6)
    K = nx.complete_graph(60)
    assert Counter([K]).counts(nx.path_graph(12)) == [60 * 59 ** 11]  # above 2^63: Python integers
    assert GraphBatch([K]).counts(nx.cycle_graph(11)) == [59 ** 11 - 59]


def test_relabelling_invariant():
    G = nx.random_regular_graph(3, 40, seed=2)
    perm = list(G.nodes)
    random.Random(1).shuffle(perm)
    H = nx.relabel_nodes(G, dict(zip(G.nodes, perm)))
    for F in PATTERNS[::4]:
        assert GraphBatch([G, H]).counts(F)[0] == GraphBatch([H]).counts(F)[0]


def test_a_graph_too_large_for_the_dense_programme():
    """hom(C4, C_n) = 6n (closed 4-walks) on 100,000 vertices: the dense programme would need a
    100,000 x 100,000 matrix and is refused; elimination counts it."""
    G = nx.cycle_graph(100_000)
    assert hom_count(nx.cycle_graph(4), G) == 600_000
    assert hom_counts_at(nx.path_graph(3), G, (1,))[:3].tolist() == [4, 4, 4]


def test_the_elimination_is_refused_over_the_memory_budget():
    """A count elimination takes is still checked against --max-memory before it starts."""
    from wltools.errors import ResourceLimitError
    from wltools.hom.count import require_count

    G = nx.cycle_graph(100_000)
    require_count(nx.cycle_graph(4), G, max_memory=2**30)
    with pytest.raises(ResourceLimitError, match="100,000 vertices"):
        require_count(nx.cycle_graph(4), G, max_memory=2**20)


def test_labelled_graphs_refused():
    G = nx.path_graph(3)
    nx.set_node_attributes(G, "C", "label")
    with pytest.raises(UnsupportedGraphError, match="labels"):
        GraphBatch([nx.path_graph(2), G])
    with pytest.raises(UnsupportedGraphError, match="labels"):
        Counter([G])
