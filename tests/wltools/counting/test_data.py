"""The shipped counting benchmark: files and checksums, the split, and the targets checked against
brute force (networkx monomorphisms) on a sample, and against counting identities on every graph."""

import hashlib

import networkx as nx
import numpy as np
import pytest

from wltools.counting import STANDARD_TASKS, parse_task
from wltools.counting import data as D
from wltools.errors import DataIntegrityError, WLToolsError


def test_files_match_their_checksums_and_the_readme():
    readme = (D.DATA_DIR / "README.md").read_text()
    for name, digest in D.CHECKSUMS.items():
        assert hashlib.sha256((D.DATA_DIR / name).read_bytes()).hexdigest() == digest
        assert digest in readme


def test_graphs_and_split():
    graphs = D.load_graphs()
    assert len(graphs) == 5000
    assert {G.number_of_nodes() for G in graphs} == {10, 15, 20, 30}
    assert all(nx.number_of_selfloops(G) == 0 for G in graphs)
    splits = D.load_splits()
    assert [len(splits[s]) for s in D.SPLITS] == [1500, 1000, 2500]
    every = [i for s in D.SPLITS for i in splits[s]]
    assert sorted(every) == list(range(5000))  # disjoint and covering


def test_a_changed_file_is_refused(monkeypatch):
    monkeypatch.setitem(D.CHECKSUMS, "splits.json", "0" * 64)
    with pytest.raises(DataIntegrityError, match="splits.json"):
        D._path("splits.json")


@pytest.fixture(scope="module")
def sample():
    """Graph indices of a sample: the first 10-node graph of each split (brute force is slow)."""
    graphs = D.load_graphs()
    return [next(i for i in D.split_indices(s) if graphs[i].number_of_nodes() == 10) for s in D.SPLITS]


@pytest.mark.parametrize("name", STANDARD_TASKS)
def test_shipped_targets_equal_brute_force(name, sample, brute):
    F = parse_task(name).pattern
    graphs = D.load_graphs()
    sample = sample[:2] if F.number_of_nodes() <= 4 else sample[:1]  # networkx is slow on the larger patterns
    per_level = [D.targets(name, level, sample) for level in D.LEVELS]
    for k, i in enumerate(sample):
        want = brute(F, graphs[i])
        assert per_level[0][k] == want[0]
        assert np.array_equal(per_level[1][k], want[1]) and np.array_equal(per_level[2][k], want[2])


@pytest.mark.parametrize("name", STANDARD_TASKS)
def test_levels_agree_on_every_graph(name):
    """On all 5,000 graphs: node counts sum to |V(F)| x the graph count, edge counts to |E(F)| x it."""
    F = parse_task(name).pattern
    g = np.array(D.targets(name, "graph"))
    node = np.array([v.sum() for v in D.targets(name, "node")])
    edge = np.array([v.sum() for v in D.targets(name, "edge")])
    assert np.array_equal(node, g * F.number_of_nodes()) and np.array_equal(edge, g * F.number_of_edges())
    assert [len(v) for v in D.targets(name, "edge", [0, 1])] == [D.load_graphs()[i].number_of_edges() for i in (0, 1)]


def test_hom_tasks_match_brute_force():
    """Homomorphism targets equal brute-force homomorphism counts (every map V(F) -> V(G)) on a
    small graph, at graph, node and edge level."""
    import itertools

    G = nx.gnp_random_graph(6, 0.6, seed=2)
    for name in ("hom:chordal4_1", "hom:chordal4_4"):
        F = parse_task(name).pattern
        maps = [m for m in itertools.product(G.nodes, repeat=F.number_of_nodes())
                if all(G.has_edge(m[a], m[b]) for a, b in F.edges)]
        g, node, edge = D.exact_targets(name, G)
        assert g == len(maps)
        assert list(node) == [sum(1 for m in maps if m[0] == v) for v in G.nodes]
        assert list(edge) == [sum(1 for m in maps if (m[0], m[1]) == (u, v)) for u, v in D.edge_list(G)]


def test_bad_requests():
    with pytest.raises(WLToolsError, match="unknown level"):
        D.targets("cycle:3", "face")
    with pytest.raises(WLToolsError, match="unknown split"):
        D.split_indices("training")
    with pytest.raises(WLToolsError, match="not precomputed"):
        D.targets("cycle:3".replace("3", "8") if "cycle:8" not in STANDARD_TASKS else "path:6", "graph")


def test_a_few_graphs_of_a_computed_task_are_those_graphs_targets():
    """targets(task, level, indices) of a task that is not shipped computes only those graphs
    (count data --limit 5; the check before a count run: every graph took 20-40 s), each the
    targets of the graph at its index, at every level."""
    import numpy as np

    from wltools.counting import data as D

    name, ids = "hom:chordal4_1", [3, 70, 1000]
    D._computed.cache_clear()
    D._COMPUTED_NAMES.clear()
    graphs = D.load_graphs()
    for k, level in enumerate(D.LEVELS):
        got = D.targets(name, level, ids)
        want = [D.exact_targets(name, graphs[i])[k] for i in ids]
        assert all(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(got, want)), level
    assert name not in D._COMPUTED_NAMES  # not every graph
