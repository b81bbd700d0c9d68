"""The homomorphism half of the full-data verifier (wltools.counting.verify): its brute force (the
sum over F's quotients of LAD's monomorphisms) equals the definition, every map V(F) -> V(G)
tried; the targets it checks are the ones the benchmark serves; a changed target is caught at
every level; bad roots are refused."""

import itertools

import networkx as nx
import numpy as np
import pytest

from wltools.counting import data as D
from wltools.counting import parse_task
from wltools.counting import verify as V
from wltools.errors import DataIntegrityError, UnsupportedGraphError, WLToolsError


def all_maps(F: nx.Graph, G: nx.Graph, roots=(0, 1)):
    """The definition: try all |V(G)|^|V(F)| maps, keep those sending every edge of F onto an edge
    of G; tally them, per G-node of roots[0] and per G-edge (u, v), u < v by position, of roots."""
    fpos = {v: i for i, v in enumerate(F.nodes)}
    gpos = {v: i for i, v in enumerate(G.nodes)}
    A = np.zeros((len(gpos),) * 2, dtype=bool)
    for a, b in G.edges:
        A[gpos[a], gpos[b]] = A[gpos[b], gpos[a]] = True
    maps = np.array(list(itertools.product(range(len(gpos)), repeat=len(fpos))), dtype=np.int64)
    maps = maps.reshape(-1, len(fpos))
    for a, b in F.edges:
        maps = maps[A[maps[:, fpos[a]], maps[:, fpos[b]]]]
    r0, r1 = maps[:, fpos[roots[0]]], maps[:, fpos[roots[1]]]
    node = np.array([np.sum(r0 == x) for x in range(len(gpos))], dtype=np.int64)
    edges = sorted((min(gpos[a], gpos[b]), max(gpos[a], gpos[b])) for a, b in G.edges)
    edge = np.array([np.sum((r0 == u) & (r1 == v)) for u, v in edges], dtype=np.int64)
    return len(maps), node, edge


def _graphs():
    """Small random graphs, a graph smaller than the patterns, an edgeless one, and one with
    string labels in scrambled order and an isolated node."""
    out = [nx.gnp_random_graph(n, p, seed=s) for s, (n, p) in enumerate([(6, 0.5), (7, 0.4), (6, 0.8)])]
    out += [nx.path_graph(3), nx.empty_graph(3)]
    odd = nx.relabel_nodes(nx.gnp_random_graph(6, 0.6, seed=5), {i: f"v{(5 * i) % 6}" for i in range(6)})
    odd.add_node("lonely")
    return out + [odd]


@pytest.mark.parametrize("name", V.HOM_TASKS)
def test_quotient_sum_equals_every_map_tried(name):
    F = parse_task(name).pattern
    for G in _graphs():
        got, want = V.hom_lad_counts(F, G), all_maps(F, G)
        assert got[0] == want[0] and np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])


def test_other_patterns_and_roots():
    """Roots that are not an edge (they may share a block), roots in another order, a tree, a
    pattern with string labels; and a graph relabelled keeps its counts (permuted)."""
    G = nx.gnp_random_graph(7, 0.5, seed=11)
    for F, roots in [(nx.path_graph(3), (0, 2)), (nx.cycle_graph(4), (2, 0)), (nx.star_graph(3), (1, 2)),
                     (nx.relabel_nodes(nx.cycle_graph(5), {i: "abcde"[i] for i in range(5)}), ("c", "b"))]:
        got, want = V.hom_lad_counts(F, G, roots), all_maps(F, G, roots)
        assert got[0] == want[0] and np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])
    F, perm = parse_task("hom:chordal5_31").pattern, [3, 6, 0, 5, 1, 2, 4]
    H = nx.Graph()
    H.add_nodes_from(range(7))
    H.add_edges_from((perm[u], perm[v]) for u, v in G.edges)  # G's node i is H's node perm[i]
    a, b = V.hom_lad_counts(F, G), V.hom_lad_counts(F, H)
    assert a[0] == b[0] and np.array_equal(a[1], b[1][perm])


def test_the_checked_targets_are_the_ones_served(monkeypatch):
    """data.targets (what training reads) of a hom task, every level, equals exact_targets graph by
    graph (what the verifier compares), on a small stand-in for the 5,000 graphs."""
    few = tuple(nx.gnp_random_graph(n, 0.4, seed=n) for n in (5, 8, 6))
    monkeypatch.setattr(D, "load_graphs", lambda: few)
    D._all_targets.cache_clear()
    try:
        for level_index, level in enumerate(D.LEVELS):
            served = D.targets("hom:boat", level, [2, 0])
            for got, i in zip(served, [2, 0]):
                assert np.array_equal(np.asarray(got), np.asarray(D.exact_targets("hom:boat", few[i])[level_index]))
    finally:
        D._all_targets.cache_clear()


@pytest.mark.parametrize("level", ["graph", "node", "edge"])
def test_a_changed_hom_target_is_caught(monkeypatch, level):
    real = D.exact_targets

    def off_by_one(task, G, **kw):
        out = list(real(task, G, **kw))
        if task.name == "hom:chordal5_24" and G is D.load_graphs()[7]:
            k = D.LEVELS.index(level)
            if level == "graph":
                out[k] = out[k] + 1
            else:  # only the last node's / edge's count one more
                out[k] = np.array(out[k], copy=True)
                out[k][-1] += 1
        return tuple(out)

    monkeypatch.setattr(D, "exact_targets", off_by_one)
    with pytest.raises(DataIntegrityError, match=f"1 target.*task hom:chordal5_24, graph 7, level {level}$"):
        V.verify_all(["hom:chordal4_1", "hom:chordal5_24"], indices=[7, 8])


def test_bad_roots_and_graphs():
    F = parse_task("hom:boat").pattern
    for roots in [(0,), (0, 0), (0, 9), (0, 1, 2)]:
        with pytest.raises(WLToolsError, match="roots must be two distinct vertices"):
            V.hom_lad_counts(F, nx.cycle_graph(5), roots)
    looped = nx.cycle_graph(5)
    looped.add_edge(2, 2)  # a loop would let adjacent pattern vertices share an image
    for args in [(F, looped), (looped, F), (F, nx.DiGraph(nx.cycle_graph(5))), (F, nx.MultiGraph(nx.cycle_graph(5)))]:
        with pytest.raises(UnsupportedGraphError, match="simple undirected"):
            V.hom_lad_counts(*args)
