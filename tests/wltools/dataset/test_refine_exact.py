"""The dataset-level refinement (one colour table over the whole collection) separates exactly the
pairs that a brute-force per-pair labelled refinement separates, round by round; it agrees with
``wltools.refine.refine_pair`` on unlabelled graphs; and it does not depend on the order of the
graphs, the order of their nodes, or how the graphs are split into shards.

The reference below is written from the definitions (module docstring of
``wltools.dataset.refine``) with plain dicts and sorted tuples, one pair at a time.
"""

import itertools
import random

import networkx as nx
import numpy as np
import pytest

from wltools.dataset.collection import from_networkx
from wltools.dataset.refine import LocalShards, first_appearance, refine_collection
from wltools.refine import refine_pair

TESTS = ("1wl", "spd", "3wl")


# ------------------------------------------------------------------ the brute-force reference


def _elements(G, test):
    n = G.number_of_nodes()
    return [(u, v) for u in range(n) for v in range(n)] if test == "3wl" else list(range(n))


def _init(G, test, e):
    label = G.nodes
    if test != "3wl":
        return label[e].get("label")
    u, v = e
    adj = G.has_edge(u, v)
    return (u == v, adj, G.edges[u, v].get("label") if adj else None, label[u].get("label"), label[v].get("label"))


def _dist(G, D, u, v):
    if v not in D[u]:
        return ("inf",)
    if G.has_edge(u, v):
        return (1, G.edges[u, v].get("label"))
    return (D[u][v],)


def _signature(G, D, test, e, c):
    if test == "1wl":
        return (c[e], tuple(sorted(((G.edges[e, u].get("label"), c[u]) for u in G[e]), key=repr)))
    if test == "spd":
        return (c[e], tuple(sorted(((_dist(G, D, e, u), c[u]) for u in G), key=repr)))
    u, v = e
    return (c[e], tuple(sorted((c[(u, w)], c[(w, v)]) for w in G)))


_DIST: dict = {}


def _distances(G):
    if id(G) not in _DIST:
        _DIST[id(G)] = (G, dict(nx.all_pairs_shortest_path_length(G)))  # keep G alive: ids stay unique
    return _DIST[id(G)][1]


def reference_first_difference(G, H, test):
    """First round after which the colour multisets of G and H differ (None: never), refining
    the pair alone with one shared table until its joint partition is stable."""
    graphs = (G, H)
    dists = [_distances(X) for X in graphs]
    elems = [_elements(X, test) for X in graphs]
    table = {}
    cols = [{e: table.setdefault(repr(_init(X, test, e)), len(table)) for e in el} for X, el in zip(graphs, elems)]

    def differ():
        return sorted(cols[0].values()) != sorted(cols[1].values())

    first = 0 if differ() else None
    t = 0
    while True:
        table = {}
        new = [{e: table.setdefault(_signature(X, D, test, e, c), len(table)) for e in el}
               for X, D, el, c in zip(graphs, dists, elems, cols)]
        if len(table) == len(set(cols[0].values()) | set(cols[1].values())):
            return first
        cols, t = new, t + 1
        if first is None and differ():
            first = t


# ------------------------------------------------------------------ helpers


def _separated(ref, i, j, t):
    classes = ref.graph_classes[min(t, len(ref.graph_classes) - 1)]
    return classes[i] != classes[j]


def _label(graphs, rng, node_labels, edge_labels):
    for G in graphs:
        for v in G:
            G.nodes[v]["label"] = rng.randrange(node_labels)
        for u, v in G.edges:
            G.edges[u, v]["label"] = rng.randrange(edge_labels)
    return graphs


def _atlas(max_nodes, seed=None, node_labels=2, edge_labels=2):
    graphs = [G.copy() for G in nx.graph_atlas_g()[1:] if G.number_of_nodes() <= max_nodes]
    if seed is not None:
        _label(graphs, random.Random(seed), node_labels, edge_labels)
    return graphs


def _check_against_reference(graphs, test, pairs, labelled=True):
    kw = dict(node_label="label", edge_label="label") if labelled else {}
    ref = refine_collection(from_networkx(graphs, **kw), test)
    T = len(ref.graph_classes) - 1
    firsts = []
    for i, j in pairs:
        first = reference_first_difference(graphs[i], graphs[j], test)
        for t in range(T + 2):
            assert _separated(ref, i, j, t) == (first is not None and first <= t), (test, i, j, t, first)
        firsts.append(first)
    return firsts


# ------------------------------------------------------------------ tests


def _swap_labels(G, rng):
    """A copy of G with the labels of two nodes of equal degree swapped (equal label counts and
    degrees, so the pair is told apart late or never)."""
    H = G.copy()
    by_degree = {}
    for v in H:
        by_degree.setdefault(H.degree(v), []).append(v)
    groups = [vs for vs in by_degree.values() if len({H.nodes[v]["label"] for v in vs}) > 1]
    if groups:
        vs = rng.choice(groups)
        u = rng.choice([v for v in vs if H.nodes[v]["label"] != H.nodes[vs[0]]["label"]])
        H.nodes[vs[0]]["label"], H.nodes[u]["label"] = H.nodes[u]["label"], H.nodes[vs[0]]["label"]
    return H


@pytest.mark.parametrize("test", TESTS)
def test_labelled_atlas_agrees_with_per_pair_reference(test):
    """500 labelled graphs refined as one collection: 250 atlas graphs (all on 4-6 nodes, 49 on
    7) with random node and edge labels, and a copy of each with two node labels swapped; every
    (graph, copy) pair and sampled pairs of equal order (all on up to 5 nodes), every round."""
    rng = random.Random(1)
    graphs = [G for G in _atlas(6, seed=7) if G.number_of_nodes() >= 4]
    seven = [G.copy() for G in nx.graph_atlas_g() if G.number_of_nodes() == 7]
    graphs += _label(rng.sample(seven, 49), random.Random(8), 2, 2)
    base = len(graphs)
    graphs += [_swap_labels(G, rng) for G in graphs]
    pairs = [(i, j) for i, j in itertools.combinations(range(base), 2)
             if graphs[i].number_of_nodes() == graphs[j].number_of_nodes()]
    small = [p for p in pairs if graphs[p[0]].number_of_nodes() <= 5]
    pairs = small + rng.sample([p for p in pairs if p not in set(small)], 300 if test == "3wl" else 1500)
    pairs += [(i, base + i) for i in range(base)]
    assert len(graphs) == 500
    firsts = _check_against_reference(graphs, test, pairs)
    # not only label histograms: pairs told apart by refinement, and pairs never told apart
    assert sum(f is not None and f >= 1 for f in firsts) >= 20 and firsts.count(None) >= 20


def test_labels_with_few_values_leave_pairs_unseparated():
    """One node label and one edge label value: the reference leaves many pairs unseparated
    (so the agreement above is not only about label histograms)."""
    graphs = _atlas(6, seed=3, node_labels=1, edge_labels=1)
    pairs = [(i, j) for i, j in itertools.combinations(range(len(graphs)), 2)
             if graphs[i].number_of_nodes() == graphs[j].number_of_nodes()]
    _check_against_reference(graphs, "1wl", pairs)
    ref = refine_collection(from_networkx(graphs, node_label="label", edge_label="label"), "1wl")
    assert int(ref.graph_classes[-1].max()) + 1 < len(graphs)


@pytest.mark.parametrize("test", TESTS)
def test_unlabelled_atlas_agrees_with_refine_pair(test):
    """All atlas graphs on up to 6 nodes: graphs of equal order and size are separated after t
    rounds iff ``refine_pair`` says distinguished at iteration <= t; other orders at round 0."""
    graphs = _atlas(6)
    ref = refine_collection(from_networkx(graphs), test)
    T = len(ref.graph_classes) - 1
    for i, j in itertools.combinations(range(len(graphs)), 2):
        G, H = graphs[i], graphs[j]
        if G.number_of_nodes() != H.number_of_nodes():
            assert _separated(ref, i, j, 0)
            continue
        if G.number_of_edges() != H.number_of_edges():
            assert _separated(ref, i, j, 1)
            continue
        r = refine_pair(G, H, test)
        for t in range(T + 2):
            assert _separated(ref, i, j, t) == (r.distinguished and r.iteration <= t), (test, i, j, t)


def _canon(classes):
    return [first_appearance(c).tolist() for c in classes]


@pytest.mark.parametrize("test", TESTS)
def test_invariant_under_graph_order_and_node_relabelling(test):
    graphs = _atlas(6, seed=11)[60:180]
    rng = np.random.default_rng(5)
    order = rng.permutation(len(graphs))
    shuffled = []
    for i in order:
        G = graphs[i]
        perm = rng.permutation(G.number_of_nodes())
        H = nx.relabel_nodes(G, {v: int(perm[v]) for v in G})
        K = nx.Graph()
        K.add_nodes_from(sorted(H.nodes(data=True)))  # node order 0..n-1: a new internal order
        K.add_edges_from(H.edges(data=True))
        shuffled.append(K)
    kw = dict(node_label="label", edge_label="label")
    a = refine_collection(from_networkx(graphs, **kw), test)
    b = refine_collection(from_networkx(shuffled, **kw), test)
    back = np.argsort(order)  # shuffled[back[i]] is graphs[i]
    assert a.colours == b.colours and a.stable_after == b.stable_after
    assert _canon(a.graph_classes) == _canon([c[back] for c in b.graph_classes])


@pytest.mark.parametrize("test", TESTS)
def test_shards_give_the_one_process_result(test):
    graphs = _atlas(6, seed=2)[40:200]
    coll = from_networkx(graphs, node_label="label", edge_label="label")
    one = refine_collection(coll, test, keep_node_colours=True)
    many = refine_collection(coll, test, shards=LocalShards(coll, test, shards=4), keep_node_colours=True)
    assert one.colours == many.colours and one.stable_after == many.stable_after
    assert _canon(one.graph_classes) == _canon(many.graph_classes)
    assert _canon(one.node_colours) == _canon(many.node_colours)


def test_rounds_given_pad_after_stability_and_stop_early():
    coll = from_networkx(_atlas(5))
    full = refine_collection(coll, "1wl")
    s = full.stable_after
    longer = refine_collection(coll, "1wl", rounds=s + 3)
    assert len(longer.graph_classes) == s + 4 and longer.stable_after == s
    assert _canon(longer.graph_classes[-1:]) == _canon(full.graph_classes[-1:])
    shorter = refine_collection(coll, "1wl", rounds=1)
    assert len(shorter.graph_classes) == 2 and shorter.stable_after is None
    assert _canon(shorter.graph_classes) == _canon(full.graph_classes[:2])
