"""wltools.refine.batch: many pairs at once for s3, s4, nK, m1, against refine_pair pair by pair
(every field, witnesses included) and the straightforward exact paths (fast=False)."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest

import wltools.refine.batch as batch
import wltools.refine.batch.counts as batch_counts
import wltools.refine.batch.rounds as batch_rounds
import wltools.refine.batch.ego as batch_ego
import wltools.refine.batch.marking as batch_marking
from brec_runner.runs.dataset import CATEGORY_IDS, load_pairs
from wltools.errors import UnsupportedGraphError
from wltools.graphs import permute_graph
from wltools.refine import refine_pair
from wltools.refine.batch import batchable, refine_pairs
from wltools.refine.batch.union import union_of
from wltools.refine.ego import ego_keys

TESTS = ("s3", "s4", "n1", "n2", "m1")
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


@pytest.mark.parametrize("test", ("s3", "n1", "m1"))
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
    limit = {"s3": 40, "n1": 40, "s4": 30, "n2": 40, "m1": 40}
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


@pytest.mark.parametrize("test", ("s3", "m1"))
def test_hash_collisions_are_retried_exactly(atlas_pairs, brec, monkeypatch, test):
    """With every key of one colour and degree colliding on the first try, the batch gives what
    refine_pair gives with its retries (m1: the batch's rows collide too, and those pairs go to
    refine_pair, whose retry numbers them otherwise)."""
    import wltools.runtime.hashing as hashing

    pairs = atlas_pairs[::5] + [brec[i] for i in (0, 70, 265)]
    real, salts = hashing.weights, []

    def weights(width, salt):
        salts.append(salt)
        return np.zeros(width, dtype=np.uint64) if salt == 0 else real(width, salt)

    monkeypatch.setattr(hashing, "weights", weights)
    expected = _per_pair(pairs, test)
    salts.clear()
    assert refine_pairs(pairs, test) == expected and 1 in salts


@pytest.mark.parametrize("stage", ("rounds", "classes"))
def test_m1_collisions_leave_exactly_their_pairs_to_refine_pair(brec, monkeypatch, stage):
    """A pair whose rows (stage "rounds") or copy histograms ("classes") share a hash in the batch
    (forced: all of pair 0's hashes alike) goes to refine_pair alone, the others stay in the
    batch; the results equal refine_pair's."""
    pairs = [brec[i] for i in (0, 70, 115, 270)]
    expected = _per_pair(pairs, "m1")
    real_hashes, real_ranks, real_classes = batch_marking._class_hashes, batch_marking._ranks, batch_marking._copy_classes

    def colliding_ranks(h, group, groups):
        return real_ranks(np.where(group == 0, np.uint64(7), h), group, groups)

    def colliding_classes(*args):
        monkeypatch.setattr(batch_marking, "_ranks", colliding_ranks)
        try:
            return real_classes(*args)
        finally:
            monkeypatch.setattr(batch_marking, "_ranks", real_ranks)

    if stage == "rounds":
        monkeypatch.setattr(batch_marking, "_class_hashes", lambda g, cl, classes, wt: np.where(
            cl.pair[classes] == 0, np.uint64(7), real_hashes(g, cl, classes, wt)))
    else:
        monkeypatch.setattr(batch_marking, "_copy_classes", colliding_classes)
    u, _ = union_of(pairs)
    got = batch_marking.marking_results(u, pairs, "m1")
    assert [r is None for r in got] == [True, False, False, False]
    assert got[1:] == expected[1:]
    assert refine_pairs(pairs, "m1") == expected


def test_m1_copies_in_runs_change_nothing(brec, monkeypatch):
    pairs = [brec[i] for i in range(0, 400, 23)]
    expected = _per_pair(pairs, "m1")
    monkeypatch.setattr(batch_marking, "COPY_NODES", 300)
    assert refine_pairs(pairs, "m1") == expected


def test_chunks_and_gather_blocks_change_nothing(brec, monkeypatch):
    pairs = [brec[i] for i in range(0, 400, 23)]
    for test in ("s3", "n1", "n2"):  # n2: the stacked matrix products in blocks too
        expected = _per_pair(pairs, test)
        assert refine_pairs(pairs, test, chunk_nodes=60) == expected
        monkeypatch.setattr(batch_ego, "GATHER_ITEMS", 64)
        assert refine_pairs(pairs, test) == expected
        monkeypatch.undo()


@pytest.mark.parametrize("share", (0, 1))
@pytest.mark.parametrize("ratio", (0, 10**9))
@pytest.mark.parametrize("radius", (1, 2, 3))
def test_ego_keys_with_and_without_orbits(brec, atlas_pairs, ratio, radius, share, monkeypatch):
    """The union's ego keys equal ego_keys graph by graph, with and without orbits, balls by
    matrix products (share 0) or by expanding neighbour lists (share 1): a basic, a regular, an
    extension, a CFI, a 4-vertex-condition (radius >= 2: every ball its whole graph) and a
    distance-regular pair, and every seventh atlas pair (isolated nodes, disconnected graphs)."""
    monkeypatch.setattr(batch_ego, "ORBIT_RATIO", ratio)
    monkeypatch.setattr(batch_ego, "SPARSE_SHARE", share)
    pairs = [brec[i] for i in (3, 75, 115, 190, 262, 361, 381)] + atlas_pairs[:-3:7]
    graphs = [X for pair in pairs for X in pair]
    u, rejected = union_of(pairs)
    assert not rejected
    ids, table = batch_ego.union_ego_ids(u, radius, graphs)
    assert table == sorted(set(table))
    assert [table[i] for i in ids.tolist()] == [k for G in graphs for k in ego_keys(G, radius)]


@pytest.mark.parametrize("share", (0, 10))
def test_rounds_read_neighbour_colours_either_way(brec, atlas_pairs, monkeypatch, share):
    """Every round's neighbour colours from the whole CSR (share 0) or from the relevant classes'
    neighbour lists alone (share 10): the same results as refine_pair (m1: its marked copies)."""
    monkeypatch.setattr(batch_rounds, "SCAN_SHARE", share)
    pairs = [brec[i] for i in range(0, 400, 13)] + atlas_pairs[::9]
    for test in ("s3", "n1", "m1"):
        assert refine_pairs(pairs, test) == _per_pair(pairs, test), test


def test_graphs_of_more_than_256_nodes(brec):
    """Neighbour ids above a byte (read by np.fromiter, not through a bytearray), five-word
    bitsets for the triangles, beside BREC pairs."""
    regular = []
    for seed in (1, 2):  # nodes 0..n-1 in order
        G = nx.Graph()
        G.add_nodes_from(range(300))
        G.add_edges_from(nx.random_regular_graph(4, 300, seed=seed).edges)
        regular.append(G)
    big = [(nx.cycle_graph(300), nx.disjoint_union(nx.cycle_graph(150), nx.cycle_graph(150))), tuple(regular)]
    pairs = big + [brec[i] for i in (0, 270, 390)]
    u, rejected = union_of(pairs)
    assert not rejected
    assert u.local.tolist() == [v for pair in pairs for X in pair for _, nbrs in X.adjacency() for v in nbrs]
    for test in ("s3", "n1"):
        assert refine_pairs(pairs, test) == _per_pair(pairs, test), test


def test_nodes_equal_to_0_to_n_but_not_ints():
    """Nodes 0.0, 1.0, ... are the nodes 0..n-1 to the union as to refine_pair (np.fromiter reads
    them; a bytearray refuses floats)."""
    floats = [nx.relabel_nodes(G, {v: float(v) for v in G}) for G in (nx.path_graph(4), nx.star_graph(3))]
    pairs = [tuple(floats), (nx.path_graph(4), nx.star_graph(3))]
    assert not union_of(pairs)[1]
    for test in ("s3", "n1"):
        assert refine_pairs(pairs, test) == _per_pair(pairs, test), test


def test_batchable_and_other_tests_pass_through(atlas_pairs):
    assert [batchable(t) for t in ("s3", "s4", "n1", "n7", "m1", "m2", "1wl", "3wl")] == [True] * 5 + [False] * 3
    pairs = atlas_pairs[::40]
    for test in ("m2", "1wl"):
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
    assert calls == [(8, "s3"), (8, "n1"), (8, "m1")]
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
        initial = batch_counts.union_counts_keys(3) if test == "s3" else batch_ego.union_ego_keys(1)
        init, _, _ = initial(u, [X for pair in pairs for X in pair])
        first, rounds, sizes, _ = batch_rounds.joint_rounds(u, init)
        assert not rejected and len(sizes) == 400 and int(rounds.max()) <= 9
    assert calls and set(calls) == {0}


def test_triangles_of_the_union_by_bitsets_sparse_product_and_byte_table(brec, monkeypatch):
    from wltools.refine.substructure import substructure_counts

    pairs = [brec[i] for i in (0, 111, 270, 300, 345, 370, 390)]  # graphs of 10 to 198 nodes
    graphs = [X for pair in pairs for X in pair]
    u, _ = union_of(pairs)
    want = [c[0] for G in graphs for c in substructure_counts(G, 3)]
    for words in (16, 2, 1, 0):  # bitsets of up to 4 words; graphs of more than 128, 64, 0 nodes by the sparse product
        monkeypatch.setattr(batch_counts, "WORDS", words)
        assert batch_counts.union_triangles(u).tolist() == want
    monkeypatch.delattr(np, "bitwise_count", raising=False)  # numpy < 2
    assert batch_counts.union_triangles(u).tolist() == want
