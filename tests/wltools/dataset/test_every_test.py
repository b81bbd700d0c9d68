"""A collection is bounded by every test (issue 34, item 2): the classes the dataset reports, per
round and at the end, are exactly the classes :func:`wltools.refine.refine_pair` gives pair by pair,
on BREC pairs with isomorphic copies and a near miss (one edge fewer), and on a labelled TU sample;
and the 3-WL colours column counts atomic types over all graphs (issue 34, "A wrong number")."""

import itertools
import random

import networkx as nx
import numpy as np
import pytest

from wltools.dataset.collection import from_networkx
from wltools.dataset.pairwise import _bucket, _round_ids, ignored_labels, pairwise_classes
from wltools.dataset.refine import BASE_TESTS, on_one_table, refine_collection
from wltools.refine import refine_pair
from wltools.refine.names import EVERY_TEST

ALL = EVERY_TEST + ("3fwl",)


def _engines(coll, test):
    """The classes per round by every engine that refines ``test``: the one colour table and,
    for the tests it holds in one shard only, the pairwise engine (their path with shards)."""
    out = []
    if on_one_table(test):
        out.append(refine_collection(coll, test).graph_classes)
    if test not in BASE_TESTS:
        out.append(pairwise_classes(coll, test).graph_classes)
    return out


def _permuted(G, seed):
    nodes = list(G.nodes)
    random.Random(seed).shuffle(nodes)
    return nx.relabel_nodes(G, dict(zip(G.nodes, nodes)))


@pytest.fixture(scope="module")
def brec_graphs():
    from brec_runner.runs.dataset import load_pairs

    pairs = {p.id: p for p in load_pairs(ids=[0, 60, 110])}
    graphs = [X for i in sorted(pairs) for X in (pairs[i].g, pairs[i].h)]
    near = pairs[0].g.copy()
    near.remove_edge(*next(iter(near.edges)))
    graphs += [_permuted(pairs[0].g, 1), _permuted(pairs[60].h, 2), near]
    return [nx.convert_node_labels_to_integers(G) for G in graphs]


@pytest.fixture(scope="module")
def tu_graphs():
    """Five NCI1K molecules of one order (node and edge labels) and a relabelled copy of one."""
    from wltools.dataset import open_dataset

    coll = open_dataset("NCI1K")
    order = int(np.bincount(coll.sizes).argmax())
    picks = np.flatnonzero(coll.sizes == order)[:5]
    graphs = [coll.graph(int(i)) for i in picks]
    return graphs + [_permuted(graphs[3], 3)]


def _agree_with_pairs(graphs, test, labelled):
    kw = {"node_label": "label", "edge_label": "label"} if labelled else {}
    coll = from_networkx(graphs, **kw)
    for classes in _engines(coll, test):
        _check_classes(graphs, test, labelled, coll, classes)


def _check_classes(graphs, test, labelled, coll, classes):
    ignored = ignored_labels(coll, test) or ""
    pair_kw = {"node_label": None if "node" in ignored or not labelled else "label",
               "edge_label": None if "edge" in ignored or not labelled else "label"}
    for i, j in itertools.combinations(range(len(graphs)), 2):
        r = refine_pair(graphs[i], graphs[j], test, **pair_kw)
        assert (classes[-1][i] == classes[-1][j]) == (not r.distinguished), (test, i, j, r.witness)
        if r.reason in ("order", "edges"):  # refine_pair's early answers, no rounds to compare
            continue
        for t, c in enumerate(classes):
            assert (c[i] == c[j]) == (r.iteration is None or r.iteration > t), (test, t, i, j)


@pytest.mark.parametrize("test", ALL)
def test_brec_sample_classes_equal_refine_pair(brec_graphs, test):
    _agree_with_pairs(brec_graphs, test, labelled=False)


@pytest.mark.parametrize("test", ALL)
def test_tu_sample_classes_equal_refine_pair(tu_graphs, test):
    _agree_with_pairs(tu_graphs, test, labelled=True)


def test_graph_order_does_not_matter(brec_graphs):
    """The same partition whatever the order of the graphs (the representatives change)."""
    order = list(range(len(brec_graphs)))[::-1]
    for test in ("sswl", "n1"):
        a = pairwise_classes(from_networkx(brec_graphs), test).graph_classes
        b = pairwise_classes(from_networkx([brec_graphs[i] for i in order]), test).graph_classes
        assert len(a) == len(b)
        for x, y in zip(a, b):  # graph k of the second collection is graph order[k] of the first
            assert ((x[order][:, None] == x[order][None, :]) == (y[:, None] == y[None, :])).all()


def _atomic_types(graphs, labelled):
    seen = set()
    for G in graphs:
        lab = (lambda v: G.nodes[v].get("label")) if labelled else (lambda v: None)
        for u in G:
            for v in G:
                e = G.edges[u, v].get("label") if G.has_edge(u, v) else None
                seen.add((u == v, G.has_edge(u, v), e if labelled else None, lab(u), lab(v)))
    return len(seen)


def test_3wl_round0_colours_are_the_atomic_types(tu_graphs):
    """Issue 34's four small unlabelled graphs: 3 atomic types (equal, adjacent, not), not 6."""
    four = [nx.path_graph(3), nx.cycle_graph(4), nx.star_graph(3), nx.complete_graph(2)]
    assert refine_collection(from_networkx(four), "3wl").colours[0] == _atomic_types(four, False) == 3
    mixed = tu_graphs[:4] + [tu_graphs[5].copy()]
    mixed[-1].remove_node(len(mixed[-1]) - 1)  # another order
    coll = from_networkx(mixed, node_label="label", edge_label="label")
    assert refine_collection(coll, "3wl").colours[0] == _atomic_types(mixed, True)


def test_depths_inferred_by_the_ultrametric_rule_give_the_exact_classes():
    """Graphs as random words over {0, 1, 2}: the agreement depth of two is the first position where
    their words differ (an ultrametric, as for refinements), so round t's classes are the words'
    prefixes of length t + 1. The buckets must give exactly those classes, refining fewer pairs."""

    class Words:
        def __init__(self, words):
            self.words, self.calls = words, 0

        def depth(self, i, j):
            self.calls += 1
            a, b = self.words[i], self.words[j]
            return next((float(k) for k in range(len(a)) if a[k] != b[k]), float("inf"))

    rng = random.Random(7)
    for _ in range(20):
        words = [tuple(rng.choice((0, 0, 1, 2)) for _ in range(4)) for _ in range(rng.randint(1, 60))]
        agree = Words(words)
        A, rep_of = _bucket(list(range(len(words))), agree, lambda: None)
        for t in range(4):
            ids = [_round_ids(A, t)[r] for r in rep_of]
            for i, j in itertools.combinations(range(len(words)), 2):
                assert (ids[i] == ids[j]) == (words[i][:t + 1] == words[j][:t + 1])
        assert [rep_of[i] == rep_of[j] for i, j in itertools.combinations(range(len(words)), 2)] == \
            [words[i] == words[j] for i, j in itertools.combinations(range(len(words)), 2)]
        if len(words) > 30:
            assert agree.calls < len(words) * (len(words) - 1) // 4


def test_keyed_tests_with_shards_go_pairwise_with_the_same_classes(tu_graphs):
    from wltools.dataset.analysis import analyse
    from wltools.dataset.refine import LocalShards
    from wltools.errors import UnknownNameError

    coll = from_networkx(tu_graphs, node_label="label", edge_label="label")
    one, two = (analyse(coll, ["rd", "n1"], iso=False, shards=k) for k in (1, 2))
    for a, b in zip(one["tests"], two["tests"]):  # the table runs on to colour stability: rows repeat
        x, y = [r["classes"] for r in a["rounds"]], [r["classes"] for r in b["rounds"]]
        assert x[:len(y)] == y and set(x[len(y):]) <= {y[-1]}
        assert "engine" not in a and b["engine"].startswith("pairwise")
    with pytest.raises(UnknownNameError):
        LocalShards(coll, "rd", shards=2)


def test_one_table_is_what_each_test_declares():
    # a test is refined on one colour table exactly when it declares a shared collection; with
    # several shards only the base tests (their keys mean the same in every shard)
    from wltools.wltests import get_test

    for name in EVERY_TEST + ("n3",):
        assert on_one_table(name) == (get_test(name).collection == "shared"), name
        assert on_one_table(name, 2) == (name in BASE_TESTS), name
