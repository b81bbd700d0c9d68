"""wltools.refine.batch: many pairs at once for s3, s4, nK, against refine_pair pair by pair (every
field, witnesses included) and the straightforward exact paths (fast=False)."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest

import wltools.refine.batch as batch
import wltools.refine.batch.rounds as batch_rounds
import wltools.refine.batch.ego as batch_ego
from brec_runner.runs.dataset import CATEGORY_IDS, load_pairs
from wltools.errors import UnsupportedGraphError
from wltools.graphs import permute_graph
from wltools.refine import refine_pair
from wltools.refine.batch import batchable, refine_pairs
from wltools.refine.batch.union import union_of
from wltools.refine.ego import ego_keys

TESTS = ("s3", "s4", "n1", "n2")
CATEGORIES = ("basic", "simple_regular", "strongly_regular", "extension", "cfi", "4vertex", "distance_regular")


def _summary(r):
    return (r.distinguished, r.reason, r.iteration, r.iterations, r.class_sizes)


def _per_pair(pairs, test, **kw):
    return [refine_pair(G, H, test, **kw) for G, H in pairs]


def _shuffled(G: nx.Graph, seed: int) -> nx.Graph:
    perm = list(range(G.number_of_nodes()))
    random.Random(seed).shuffle(perm)
    return permute_graph(G, perm)


@pytest.fixture(scope="module")
def brec():
    return {p.id: (p.g, p.h) for p in load_pairs()}


@pytest.fixture(scope="module")
def atlas_pairs():
    """Pairs of graphs of the graph atlas (all graphs up to 6 nodes, every third of 7 nodes) of
    equal order and size, some of them isomorphic copies, plus pairs of different orders and of
    different sizes."""
    rng = random.Random(0)
    by_shape: dict = {}
    for k, G in enumerate(nx.graph_atlas_g()[1:]):
        if G.number_of_nodes() == 7 and k % 3:
            continue
        by_shape.setdefault((G.number_of_nodes(), G.number_of_edges()), []).append(G)
    pairs = []
    for graphs in by_shape.values():
        for a, b in zip(graphs, graphs[1:] + graphs[:1]):
            pairs.append((a, b))
        pairs.append((graphs[0], _shuffled(graphs[0], 1)))
    rng.shuffle(pairs)
    pairs += [(nx.path_graph(3), nx.path_graph(4)), (nx.path_graph(4), nx.star_graph(3)),
              (nx.path_graph(4), nx.cycle_graph(4))]
    return pairs


@pytest.mark.parametrize("test", ("s3", "n1"))
def test_all_400_brec_pairs_equal_refine_pair(brec, test):
    pairs = [brec[i] for i in sorted(brec)]
    assert refine_pairs(pairs, test) == _per_pair(pairs, test)


@pytest.mark.parametrize("test", ("s4", "n2", "n3"))
def test_brec_every_ninth_pair_equals_refine_pair(brec, test):
    """Every ninth BREC pair (this test was shadowed by the next one's name and never ran)."""
    pairs = [brec[i] for i in range(0, 400, 9)]
    assert refine_pairs(pairs, test) == _per_pair(pairs, test)


@pytest.mark.parametrize("test", ("s4", "n2"))
def test_brec_sample_equals_refine_pair(brec, test):
    """The representative part of BREC (tests/brec_sample.py), batched together."""
    from brec_sample import sample_ids

    pairs = [brec[i] for i in sample_ids()]
    assert refine_pairs(pairs, test) == _per_pair(pairs, test)


def test_brec_every_category_matches_the_exact_path(brec):
    # the two smallest pairs of each category up to 40 nodes (30 for s4: the straightforward paths
    # take seconds on the 63-node 4-vertex-condition pairs; all 400 are checked against
    # refine_pair above, and refine_pair against the exact paths in test_nongnn_baselines)
    ids = [i for c in CATEGORIES for i in sorted(CATEGORY_IDS[c], key=lambda i: (brec[i][0].number_of_nodes(), i))[:2]]
    limit = {"s3": 40, "n1": 40, "s4": 30, "n2": 40}
    for test in TESTS:
        pairs = [brec[i] for i in ids if brec[i][0].number_of_nodes() <= limit[test]]
        assert len(pairs) >= 10
        got = [_summary(r) for r in refine_pairs(pairs, test)]
        assert got == [_summary(r) for r in _per_pair(pairs, test, fast=False)], test


@pytest.mark.parametrize("test", TESTS)
def test_atlas_pairs_equal_refine_pair_and_exact(atlas_pairs, test):
    got = refine_pairs(atlas_pairs, test)
    assert got == _per_pair(atlas_pairs, test)
    exact = _per_pair(atlas_pairs[::4], test, fast=False)
    assert [_summary(r) for r in got[::4]] == [_summary(r) for r in exact]
    assert sum(r.distinguished for r in got) > 0 and sum(not r.distinguished for r in got) > 0


@pytest.mark.parametrize("test", TESTS)
def test_relabelling_invariance(brec, atlas_pairs, test):
    pairs = [brec[i] for i in (0, 70, 120, 200, 270, 365, 385)] + atlas_pairs[::25]
    shuffled = [(_shuffled(G, 2 * k), _shuffled(H, 2 * k + 1)) for k, (G, H) in enumerate(pairs)]
    assert ([_summary(r) for r in refine_pairs(shuffled, test)]
            == [_summary(r) for r in refine_pairs(pairs, test)])


@pytest.mark.parametrize("test", TESTS)
def test_empty_one_node_different_orders_and_odd_inputs(test):
    labelled = nx.path_graph(3)
    nx.set_edge_attributes(labelled, 1.0, "weight")
    node_data = nx.path_graph(3)
    nx.set_node_attributes(node_data, {0: (0.0, 1.0)}, "pos")
    pairs = [
        (nx.empty_graph(0), nx.empty_graph(0)),
        (nx.empty_graph(1), nx.empty_graph(1)),
        (nx.empty_graph(3), nx.empty_graph(3)),
        (nx.path_graph(3), nx.path_graph(5)),           # different orders
        (nx.path_graph(4), nx.star_graph(3)),           # same order and size
        (nx.path_graph(4), nx.Graph([(0, 1), (2, 3)])),  # different sizes
        (nx.relabel_nodes(nx.path_graph(4), {0: "a", 1: "b", 2: "c", 3: "d"}), nx.star_graph(3)),
        (nx.Graph([(2, 1), (1, 0)]), nx.path_graph(3)),  # nodes 0..n-1, not in order
        (labelled, nx.path_graph(3)),                   # edge data other than labels
        (node_data, nx.path_graph(3)),                  # node data other than labels
    ]
    assert refine_pairs(pairs, test) == _per_pair(pairs, test)
    loop = nx.Graph([(0, 0), (0, 1), (1, 2)])  # as many edges as the triangle: refused, not "edges differ"
    with pytest.raises(UnsupportedGraphError, match="G has 1 self-loop"):
        refine_pair(loop, nx.cycle_graph(3), test)
    with pytest.raises(UnsupportedGraphError, match="G has 1 self-loop"):
        refine_pairs([(nx.path_graph(2), nx.path_graph(2)), (loop, nx.cycle_graph(3))], test)
    with pytest.raises(UnsupportedGraphError):
        refine_pairs([(nx.DiGraph([(0, 1)]), nx.DiGraph([(0, 1)]))], test)
    node_labelled = nx.path_graph(3)
    nx.set_node_attributes(node_labelled, "C", "label")  # not in the union: refine_pair refuses it
    with pytest.raises(UnsupportedGraphError, match="not defined on labelled graphs"):
        refine_pairs([(nx.path_graph(3), nx.path_graph(3)), (node_labelled, node_labelled)], test)


def test_hash_collisions_are_retried_exactly(atlas_pairs, brec, monkeypatch):
    import wltools.runtime.hashing as hashing

    pairs = atlas_pairs[::5] + [brec[i] for i in (0, 70, 265)]
    expected = _per_pair(pairs, "s3")
    real, salts = hashing.weights, []

    def weights(width, salt):  # every key of one colour and degree collides on the first try
        salts.append(salt)
        return np.zeros(width, dtype=np.uint64) if salt == 0 else real(width, salt)

    monkeypatch.setattr(hashing, "weights", weights)
    assert refine_pairs(pairs, "s3") == expected and 1 in salts


def test_chunks_and_gather_blocks_change_nothing(brec, monkeypatch):
    pairs = [brec[i] for i in range(0, 400, 23)]
    for test in ("s3", "n1"):
        expected = _per_pair(pairs, test)
        assert refine_pairs(pairs, test, chunk_nodes=60) == expected
        monkeypatch.setattr(batch_ego, "GATHER_ITEMS", 64)
        assert refine_pairs(pairs, test) == expected
        monkeypatch.undo()


@pytest.mark.parametrize("ratio", (0, 10**9))
@pytest.mark.parametrize("radius", (1, 2))
def test_ego_keys_with_and_without_orbits(brec, ratio, radius, monkeypatch):
    monkeypatch.setattr(batch_ego, "ORBIT_RATIO", ratio)
    pairs = [brec[i] for i in (3, 75, 115, 190, 262, 361, 381)]
    graphs = [X for pair in pairs for X in pair]
    u, rejected = union_of(pairs)
    assert not rejected
    ids, table = batch_ego.union_ego_ids(u, radius, graphs)
    assert table == sorted(set(table))
    assert [table[i] for i in ids.tolist()] == [k for G in graphs for k in ego_keys(G, radius)]


def test_batchable_and_other_tests_pass_through(atlas_pairs):
    assert [batchable(t) for t in ("s3", "s4", "n1", "n7", "m1", "m2", "1wl", "3wl")] == [True] * 4 + [False] * 4
    pairs = atlas_pairs[::40]
    for test in ("m1", "1wl"):
        assert refine_pairs(pairs, test) == _per_pair(pairs, test)
    assert refine_pairs(pairs, "s3", fast=False) == _per_pair(pairs, "s3", fast=False)


def test_brec_theory_uses_the_batch_with_the_same_records(monkeypatch, tmp_path):
    import brec_runner.reports.theory as th

    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path))
    calls = []
    real = batch.refine_pairs

    def spy(pairs, test, **kw):
        calls.append((len(pairs), test))
        return real(pairs, test, **kw)

    monkeypatch.setattr(batch, "refine_pairs", spy)
    ids = [0, 5, 64, 112, 170, 265, 362, 384]
    v = th.theory_verdicts(["s3", "n1", "m1"], ids=ids, use_cache=False)
    assert calls == [(8, "s3"), (8, "n1")]
    for pair in load_pairs(ids=ids):
        for test in ("s3", "n1", "m1"):
            rec = dict(v[pair.id][test])
            assert rec.pop("seconds") >= 0
            want = th._record(pair.id, refine_pair(pair.g, pair.h, test), 0.0)
            want.pop("seconds")
            assert rec == want


def test_rounds_on_brec_never_need_a_retry(brec, monkeypatch):
    # the one hashing routine groups every round of s3 and n1 on all 400 pairs on its first try
    # (a retry would be exact, only slow: this checks the fast path's layout, e.g. that colours
    # stay below the node count after pairs leave the union)
    import wltools.runtime.hashing as hashing

    calls = []
    real = hashing.weights
    monkeypatch.setattr(hashing, "weights", lambda w, salt: calls.append(salt) or real(w, salt))
    pairs = [brec[i] for i in sorted(brec)]
    for test in ("s3", "n1"):
        u, rejected = union_of(pairs)
        init, _, _ = batch._initial(u, test, [X for pair in pairs for X in pair])
        first, rounds, sizes, _ = batch_rounds.joint_rounds(u, init)
        assert not rejected and len(sizes) == 400 and int(rounds.max()) <= 9
    assert calls and set(calls) == {0}


def test_triangles_of_the_union_by_bitsets_sparse_product_and_byte_table(brec, monkeypatch):
    from wltools.refine.substructure import substructure_counts

    pairs = [brec[i] for i in (0, 111, 270, 300, 345, 370, 390)]  # graphs of 10 to 198 nodes
    graphs = [X for pair in pairs for X in pair]
    u, _ = union_of(pairs)
    want = [c[0] for G in graphs for c in substructure_counts(G, 3)]
    assert batch.union_triangles(u).tolist() == want
    monkeypatch.delattr(np, "bitwise_count", raising=False)  # numpy < 2
    assert batch.union_triangles(u).tolist() == want
