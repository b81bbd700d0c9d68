"""Tests of brec_runner.runs.dataset and brec_runner.models.encoding_cache."""

from __future__ import annotations

from collections import Counter

import networkx as nx
import numpy as np
import pytest
import torch

from brec_runner.models import encoding_cache as ec
from brec_runner.runs import dataset as ds
from brec_runner.runs.protocol import Protocol
from wltools.errors import DataIntegrityError, UnknownNameError
from wltools.graphs import check_simple, permute_graph
from wltools.iso import certificate

# a few pairs of every category, small and large (cfi up to 198 nodes)
SAMPLE_IDS = [0, 59, 60, 109, 110, 159, 160, 259, 260, 359, 360, 399]


# ------------------------------------------------------------------------ loading and selection


def test_exactly_400_pairs_in_id_order():
    pairs = ds.load_pairs()
    assert len(pairs) == 400
    assert [p.id for p in pairs] == list(range(400))


def test_category_sizes():
    pairs = ds.load_pairs()
    assert Counter(p.category for p in pairs) == {
        "basic": 60, "regular": 100, "extension": 100, "cfi": 100, "4vertex": 20, "distance_regular": 20
    }
    sub = Counter(p.subcategory for p in pairs)
    assert [sub[s] for s in ("basic", "simple_regular", "strongly_regular", "extension", "cfi",
                             "4vertex", "distance_regular")] == [60, 50, 50, 100, 100, 20, 20]
    assert len(ds.load_pairs("regular140")) == 140
    assert [p.id for p in ds.load_pairs("regular140")] == list(range(60, 160)) + list(range(360, 400))
    assert {p.subcategory for p in ds.load_pairs("regular")} == {"simple_regular", "strongly_regular"}


def test_published_structure_of_categories():
    # facts stated in data/brec/README.md and the BREC paper: basic graphs have 10 nodes; the
    # regular groups are regular graphs; both graphs of a pair have the same order and size
    # (1-WL-indistinguishable pairs must).
    for p in ds.load_pairs():
        assert p.meta["n"][0] == p.meta["n"][1] and p.meta["m"][0] == p.meta["m"][1]
        assert p.g.number_of_nodes() == p.meta["n"][0]
    assert all(p.meta["n"] == [10, 10] for p in ds.load_pairs("basic"))
    for name in ("simple_regular", "strongly_regular", "4vertex", "distance_regular"):
        for p in ds.load_pairs(name):
            assert p.meta["regularity"].endswith("-regular"), (p.id, p.meta["regularity"])
    assert max(p.meta["n"][0] for p in ds.load_pairs("cfi")) == 198


def test_meta_is_readable():
    p = ds.load_pairs(ids=[61])[0]
    assert p.category == "regular" and p.subcategory == "simple_regular"
    assert p.meta["source"] == "regular.npy[1]"
    assert set(p.meta) >= {"id", "category", "subcategory", "n", "m", "degrees", "regularity", "graph6"}
    assert "simple_regular" in repr(p)
    # the graph6 in meta reproduces the graph
    G = nx.from_graph6_bytes(p.meta["graph6"][0].encode())
    assert sorted(G.nodes()) == sorted(p.g.nodes()) and nx.utils.edges_equal(G.edges(), p.g.edges())


def test_graphs_are_frozen():
    p = ds.load_pairs(ids=[0])[0]
    with pytest.raises(nx.NetworkXError):
        p.g.add_edge(0, 1)


@pytest.mark.parametrize(
    "text, expected",
    [("0-2,5", [0, 1, 2, 5]), (" 7 ", [7]), ("3-3,1-2", [1, 2, 3]), ("398-399,399", [398, 399])],
)
def test_parse_id_ranges(text, expected):
    assert ds.parse_id_ranges(text) == expected


@pytest.mark.parametrize("text", ["", " , ", "5-2", "0-400", "x", "1-2-3", "-1"])
def test_parse_id_ranges_rejects(text):
    with pytest.raises(UnknownNameError):
        ds.parse_id_ranges(text)


def test_selection_by_category_and_ids():
    assert [p.id for p in ds.load_pairs("4vertex", ids="0-361")] == [360, 361]
    assert [p.id for p in ds.load_pairs(["cfi", "basic"], ids=[0, 260])] == [0, 260]
    assert [p.id for p in ds.load_pairs("basic,cfi", ids="59-260")] == [59, 260]
    assert len(ds.load_pairs("simple_regular")) == 50


@pytest.mark.parametrize(
    "kwargs",
    [{"categories": "nope"}, {"categories": []}, {"ids": []}, {"ids": [400]}, {"ids": "5-2"},
     {"categories": "basic", "ids": "300-310"}],
)
def test_bad_selection(kwargs):
    with pytest.raises(UnknownNameError):
        ds.load_pairs(**kwargs)


# ------------------------------------------------------------------------ relabelings


@pytest.mark.parametrize("pid", [0, 110, 260, 399])
def test_relabelings_are_isomorphic_and_interleaved(pid):
    pair = ds.load_pairs(ids=[pid])[0]
    graphs = ds.relabelings(pair, seed=0)
    assert len(graphs) == 64
    assert graphs[0] is pair.g and graphs[1] is pair.h  # first = as given
    cg, ch = certificate(pair.g), certificate(pair.h)
    assert cg != ch
    for k, G in enumerate(graphs):
        assert sorted(G.nodes()) == list(range(pair.g.number_of_nodes()))
        assert certificate(G) == (cg if k % 2 == 0 else ch)
    # they really are relabelled (not the identity every time)
    assert sum(nx.utils.edges_equal(G.edges(), pair.g.edges()) for G in graphs[2::2]) == 0


def test_relabelings_deterministic_and_seed_dependent():
    pair = ds.load_pairs(ids=[70])[0]
    a = ds.relabelings(pair, seed=3)
    b = ds.relabelings(pair, seed=3)
    c = ds.relabelings(pair, seed=4)
    assert all(nx.utils.graphs_equal(x, y) for x, y in zip(a, b))
    assert not all(nx.utils.graphs_equal(x, y) for x, y in zip(a[2:], c[2:]))
    # different pairs with the same seed get different permutations
    p2 = ds.relabelings(ds.load_pairs(ids=[71])[0], seed=3)
    plan_a = ds.relabeling_plan(pair, 3)
    plan_b = ds.relabeling_plan(ds.load_pairs(ids=[71])[0], 3)
    assert not np.array_equal(plan_a[2][1], plan_b[2][1])
    assert len(p2) == 64


def test_relabeling_plan_matches_graphs():
    pair = ds.load_pairs(ids=[5])[0]
    plan = ds.relabeling_plan(pair, 1, num=4)
    graphs = ds.relabelings(pair, 1, num=4)
    assert [s for s, _ in plan] == ["g", "h"] * 4
    for (side, perm), G in zip(plan[2:], graphs[2:]):
        src = pair.g if side == "g" else pair.h
        assert sorted(perm.tolist()) == list(range(src.number_of_nodes()))
        assert {frozenset((perm[u], perm[v])) for u, v in src.edges()} == {frozenset(e) for e in G.edges()}


def test_reliability_set():
    for pid in (1, 150, 300):
        pair = ds.load_pairs(ids=[pid])[0]
        rel = ds.reliability_set(pair, seed=0)
        assert len(rel) == 64
        certs = {certificate(G) for G in rel}
        assert len(certs) == 1 and certs <= {certificate(pair.g), certificate(pair.h)}
        again = ds.reliability_set(pair, seed=0)
        assert all(nx.utils.graphs_equal(x, y) for x, y in zip(rel, again))
    # the chosen side really is random over pairs/seeds: both sides occur
    sides = {ds.reliability_plan(ds.load_pairs(ids=[i])[0], s)[0][0] for i in range(5) for s in range(4)}
    assert sides == {"g", "h"}


def _edge_index_by_tuples(G: nx.Graph) -> list:
    """The sorted arcs of G without self-loops, both directions, each once, over Python tuples."""
    pairs = [(int(u), int(v)) for u, v in G.edges() if u != v]
    return sorted(set(pairs) | {(v, u) for u, v in pairs})


@pytest.mark.parametrize("seed", range(6))
def test_to_pyg_equals_sorting_python_tuples(seed):
    """to_pyg's numpy ordering of the arcs against sorting tuples, on random graphs with self-loops,
    isolated nodes, float node names equal to 0..n-1, and no edges at all."""
    import random

    rng = random.Random(seed)
    n = rng.randint(1, 40)
    G = nx.gnp_random_graph(n, rng.random() * 0.5, seed=seed)
    G.add_edges_from((v, v) for v in rng.sample(range(n), min(3, n)))
    graphs = [G, nx.relabel_nodes(G, {v: float(v) for v in G}), nx.empty_graph(n)]
    for X in graphs:
        data = ds.to_pyg(X)
        assert data.edge_index.t().tolist() == [list(a) for a in _edge_index_by_tuples(X)]
        assert data.edge_index.dtype == torch.long and data.num_nodes == n


def test_to_pyg():
    pair = ds.load_pairs(ids=[0])[0]
    data = ds.to_pyg(pair.g)
    n, m = pair.meta["n"][0], pair.meta["m"][0]
    assert data.num_nodes == n and data.x.shape == (n, 1) and torch.all(data.x == 1)
    assert data.edge_index.shape == (2, 2 * m)
    ei = {tuple(c) for c in data.edge_index.t().tolist()}
    assert ei == {(u, v) for u, v in pair.g.edges()} | {(v, u) for u, v in pair.g.edges()}
    # sorted, so it depends on the labelled graph only
    key = (data.edge_index[0] * n + data.edge_index[1]).tolist()
    assert key == sorted(key)


def test_check_simple_rejects():
    with pytest.raises(DataIntegrityError):
        check_simple(nx.DiGraph([(0, 1)]))
    G = nx.Graph([(0, 1)])
    G.add_edge(1, 1)
    with pytest.raises(DataIntegrityError):
        check_simple(G)
    with pytest.raises(DataIntegrityError):
        check_simple(nx.MultiGraph([(0, 1), (0, 1)]))
    with pytest.raises(DataIntegrityError):
        check_simple(nx.Graph([(1, 2)]))


def test_verify_data_on_a_sample():
    summary = ds.verify_data(ds.load_pairs(ids=[0, 60, 160, 260]), seed=0)
    assert summary["pairs"] == 4 and summary["relabelings"] == 4 * 64
    assert summary["reliability_graphs"] == 4 * 64


def test_verify_data_detects_isomorphic_pair():
    p = ds.load_pairs(ids=[0])[0]
    bad = ds.BrecPair(p.id, p.category, p.subcategory, p.g, permute_graph(p.g, list(range(9, -1, -1))), p.meta)
    with pytest.raises(DataIntegrityError, match="isomorphic"):
        ds.verify_data([bad])


@pytest.mark.parametrize("fault", ["an edge moved", "another permutation"])
def test_verify_data_refuses_a_copy_that_is_not_its_source_renamed(monkeypatch, fault):
    """A relabelled copy that is not its source renamed by its own permutation fails the proof:
    one edge moved (not isomorphic), or the right graph under another permutation (isomorphic, but
    not what the plan says the runner trains on)."""
    p = ds.load_pairs(ids=[0])[0]
    calls, permute = [], ds.permute_graph

    def faulty(G, perm):
        calls.append(1)
        R = permute(G, perm)
        if len(calls) == 7:  # the 7th permuted copy
            if fault == "another permutation":
                return permute(G, list(perm)[1:] + list(perm)[:1])
            u, v = next(iter(R.edges))
            R.remove_edge(u, v)
            R.add_edge(*next((a, b) for a in R for b in R if a < b and not R.has_edge(a, b) and (a, b) != (u, v)))
        return R

    monkeypatch.setattr(ds, "permute_graph", faulty)
    with pytest.raises(DataIntegrityError, match=r"pair 0 relabeling \d+ \(of [GH]\) is not its source renamed by its permutation"):
        ds.verify_data([p])


def test_verify_data_on_the_representative_part():
    """The integrity proof (G against H by canonical certificates, every relabelled copy by its
    permutation) on the representative part of BREC (tests/brec_sample.py); all 400 pairs:
    ``wltools brec verify-data``."""
    from brec_sample import sample_pairs

    pairs = sample_pairs()
    summary = ds.verify_data(pairs, seed=Protocol().relabel_seed)
    assert summary["pairs"] == len(pairs) == 42 and summary["relabelings"] == 42 * 64


# ------------------------------------------------------------------------ encoding cache


class _PairSPD:
    """A permutation-equivariant test transform (pair layout of wltools.models.encodings):
    SPD per pair, degree per node, and an edge attribute (sum of endpoint degrees)."""

    permutation_equivariant = True

    def __init__(self, scale: int = 1):
        self.scale = scale
        self.calls = 0

    def __call__(self, data):
        self.calls += 1
        data = data.clone()
        n = data.num_nodes
        G = nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from(data.edge_index.t().tolist())
        spd = dict(nx.all_pairs_shortest_path_length(G))
        ar = torch.arange(n)
        data.pair_index = torch.stack([ar.repeat_interleave(n), ar.repeat(n)])
        data.spd = torch.tensor([spd[i].get(j, -1) * self.scale for i in range(n) for j in range(n)])
        deg = torch.tensor([G.degree(v) for v in range(n)], dtype=torch.float32)
        data.deg = deg[:, None]
        data.edge_attr = (deg[data.edge_index[0]] + deg[data.edge_index[1]])[:, None]
        return data

    def __repr__(self):
        return f"_PairSPD(scale={self.scale})"


class _NodeIds(_PairSPD):
    """Not equivariant: attaches the node ids."""

    permutation_equivariant = False

    def __call__(self, data):
        self.calls += 1
        data = data.clone()
        data.ids = torch.arange(data.num_nodes)
        return data

    def __repr__(self):
        return "_NodeIds()"


def _assert_same(a, b, exact=True):
    assert set(a.keys()) == set(b.keys())
    for k in a.keys():
        x, y = a[k], b[k]
        if isinstance(x, torch.Tensor):
            assert x.dtype == y.dtype and x.shape == y.shape, k
            if exact or not x.is_floating_point():
                assert torch.equal(x, y), k
            else:
                assert torch.allclose(x, y, atol=1e-6, rtol=1e-5), k
        else:
            assert x == y, k


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("transform_cls", [_PairSPD, _NodeIds])
def test_encoded_graphs_equal_direct_and_read_cache(cache_dir, transform_cls):
    pair = ds.load_pairs(ids=[200])[0]
    graphs = ds.relabelings(pair, seed=0, num=4) + ds.reliability_set(pair, seed=0, num=4)
    t = transform_cls()
    stats = {}
    out = ec.encoded_graphs(graphs, t, "test-key", stats=stats)
    # equivariant: one transform call per canonical form (G and H; the reliability graphs are
    # relabelings of one of them); otherwise one per labelled graph
    expected_computed = 2 if t.permutation_equivariant else len(graphs)
    assert stats["computed"] == t.calls == expected_computed
    for G, d in zip(graphs, out):
        _assert_same(d, t(ds.to_pyg(G)))
    # second call: everything from disk, no recomputation, identical tensors
    t2 = transform_cls()
    stats2 = {}
    out2 = ec.encoded_graphs(graphs, t2, "test-key", stats=stats2)
    assert t2.calls == 0 and stats2["computed"] == 0 and stats2["disk_hits"] == expected_computed
    for a, b in zip(out, out2):
        _assert_same(a, b)
    assert list((cache_dir / "encodings").rglob("*.npz"))


def test_cache_key_changes_with_repr(cache_dir):
    pair = ds.load_pairs(ids=[0])[0]
    ec.encoded_graphs([pair.g], _PairSPD(1), "k")
    t = _PairSPD(2)  # different repr, same cache_key: must not reuse
    out = ec.encoded_graphs([pair.g], t, "k")
    assert t.calls == 1
    assert ec.setting_dir("k", _PairSPD(1)) != ec.setting_dir("k", _PairSPD(2))
    assert ec.setting_dir("k", _PairSPD(1)) != ec.setting_dir("k2", _PairSPD(1))
    _assert_same(out[0], _PairSPD(2)(ds.to_pyg(pair.g)))


def test_cache_files_load_without_pickle(cache_dir):
    pair = ds.load_pairs(ids=[0])[0]
    ec.encoded_graphs([pair.g], _PairSPD(), "k")
    files = list((cache_dir / "encodings").rglob("*.npz"))
    assert files
    with np.load(files[0], allow_pickle=False) as z:
        assert "t:spd" in z.files


def test_no_cache_key_means_no_files(cache_dir):
    pair = ds.load_pairs(ids=[0])[0]
    t = _PairSPD()
    ec.encoded_graphs([pair.g, pair.g], t, None)
    assert not (cache_dir / "encodings").exists()
    assert t.calls == 1  # still deduplicated within the call


def test_real_encodings_agree_with_recomputation(cache_dir):
    from torch_geometric.transforms import Compose

    from wltools.models import encodings as enc

    t = Compose([enc.AddRRWP(6), enc.AddSPD(), enc.AddResistanceDistance()])
    assert ec.is_equivariant(t)
    for pid in (0, 110, 300):
        pair = ds.load_pairs(ids=[pid])[0]
        graphs = ds.relabelings(pair, seed=0, num=3)
        out = ec.encoded_graphs(graphs, t, "real")
        for G, d in zip(graphs, out):
            _assert_same(d, t(ds.to_pyg(G)), exact=False)


def test_unknown_transforms_are_not_treated_as_equivariant():
    from torch_geometric.transforms import AddLaplacianEigenvectorPE, Compose

    assert not ec.is_equivariant(AddLaplacianEigenvectorPE(k=2))
    assert not ec.is_equivariant(Compose([_PairSPD(), AddLaplacianEigenvectorPE(k=2)]))
    assert ec.is_equivariant(Compose([_PairSPD()]))


def test_lappe_is_recomputed_per_labelled_graph(cache_dir):
    from torch_geometric.transforms import AddLaplacianEigenvectorPE

    pair = ds.load_pairs(ids=[0])[0]
    graphs = ds.relabelings(pair, seed=0, num=2)
    t = AddLaplacianEigenvectorPE(k=2, attr_name="lap")
    stats = {}
    out = ec.encoded_graphs(graphs, t, "lap", stats=stats)
    assert stats["computed"] == 4
    for G, d in zip(graphs, out):
        direct = t(ds.to_pyg(G))  # PyG flips eigenvector signs at random: compare up to sign
        assert d.lap.shape == direct.lap.shape
        assert torch.allclose(d.lap.abs(), direct.lap.abs(), atol=1e-5)
        assert torch.equal(d.edge_index, direct.edge_index)
