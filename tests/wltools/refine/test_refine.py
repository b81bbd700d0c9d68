"""Tests of wltools.refine: published separations, relabeling invariance, fast vs reference,
BREC counts, result object and bad input."""

import json

import networkx as nx
import numpy as np
import pytest

from wltools.errors import UnknownNameError, UnsupportedGraphError
from wltools.graphs import named_graph, permute_graph
from wltools.iso import is_isomorphic
from wltools.refine import TESTS, RefinementResult, refine_pair
from wltools.refine.engine import unique_rows
from wltools.refine.names import SUBGRAPH_WL_TESTS


def _permuted(G, seed):
    return permute_graph(G, np.random.default_rng(seed).permutation(len(G)))


# ----------------------------------------------------------------------- published separations


@pytest.mark.parametrize(
    "g, h, test, expected",
    [
        ("decalin", "bicyclopentyl", "1wl", False),  # Graphormer Fig. / Zhang et al.
        ("decalin", "bicyclopentyl", "spd", True),
        ("cycle:6", None, "1wl", False),  # C6 vs two triangles
        ("cycle:6", None, "spd", True),
        ("dodecahedral", "desargues", "1wl", False),
        ("dodecahedral", "desargues", "spd", False),  # GRIT Prop. 3.2 (Zhang et al.)
        ("dodecahedral", "desargues", "rrwp", True),  # GRIT Prop. 3.2, K = n
        ("shrikhande", "rook4x4", "3wl", False),  # strongly regular, same parameters
        ("shrikhande", "rook4x4", "1wl", False),
    ],
)
@pytest.mark.parametrize("fast", [True, False])
def test_published_separations(g, h, test, expected, fast):
    G = named_graph(g)
    H = named_graph(h) if h else nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    r = refine_pair(G, H, test, fast=fast)
    assert r.distinguished is expected
    assert r.reason == ("histogram" if expected else "none")
    assert not is_isomorphic(G, H)


def test_witness_names_the_differing_classes():
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    r = refine_pair(G, H, "spd")
    assert r.iteration == 1
    assert "nodes whose SPD multiset is {0:1, 1:2, 2:2, 3:1}: 6 in G, 0 in H" in r.witness
    assert "{0:1, 1:2, inf:3}: 0 in G, 6 in H" in r.witness
    r = refine_pair(named_graph("decalin"), named_graph("bicyclopentyl"), "spd")
    assert r.witness.startswith("iteration 1: nodes whose SPD multiset is")


# ----------------------------------------------------------------------- relabeling invariance


def _random_graphs():
    out = [nx.gnp_random_graph(12, 0.3, seed=s) for s in range(3)]
    out += [nx.random_regular_graph(3, 12, seed=s) for s in range(2)]
    out.append(nx.disjoint_union(nx.cycle_graph(5), nx.path_graph(4)))
    return out


@pytest.mark.parametrize("test", TESTS)
def test_graph_vs_relabeling_never_distinguished(test):
    from brec_runner.runs.dataset import load_pairs

    brec = [p.g for p in load_pairs(ids=[0, 70, 120, 170, 270])]
    for i, G in enumerate(_random_graphs() + brec):
        H = _permuted(G, seed=100 + i)
        assert is_isomorphic(G, H)
        r = refine_pair(G, H, test, rrwp_steps=8)
        assert not r.distinguished, (test, i, r.witness)
        assert r.class_sizes[0] == r.class_sizes[1]


@pytest.mark.parametrize("test", TESTS)
def test_result_invariant_under_relabeling_both(test):
    G, H = named_graph("decalin"), named_graph("bicyclopentyl")
    a = refine_pair(G, H, test)
    b = refine_pair(_permuted(G, 1), _permuted(H, 2), test)
    assert (a.distinguished, a.iteration, a.iterations, a.class_sizes) == (
        b.distinguished,
        b.iteration,
        b.iterations,
        b.class_sizes,
    )


# ----------------------------------------------------------------------- fast vs reference


def _small_pairs():
    pairs = []
    for s in range(4):
        pairs.append((nx.gnm_random_graph(9, 12, seed=s), nx.gnm_random_graph(9, 12, seed=50 + s)))
    for s in range(3):
        pairs.append((nx.random_regular_graph(3, 10, seed=s), nx.random_regular_graph(3, 10, seed=20 + s)))
    pairs.append((nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))))
    return pairs


def _same(a: RefinementResult, b: RefinementResult):
    assert (a.distinguished, a.reason, a.iteration, a.iterations, a.class_sizes) == (
        b.distinguished,
        b.reason,
        b.iteration,
        b.iterations,
        b.class_sizes,
    )


@pytest.mark.parametrize("test", TESTS)
def test_fast_agrees_with_reference_on_random_pairs(test):
    for G, H in _small_pairs():
        for K in (None, 3):
            _same(refine_pair(G, H, test, rrwp_steps=K), refine_pair(G, H, test, rrwp_steps=K, fast=False))


# ----------------------------------------------------------------------- BREC counts


_PUBLISHED = {
    "1wl": dict.fromkeys(
        ["basic", "simple_regular", "strongly_regular", "extension", "cfi", "4vertex", "distance_regular"], 0
    ),
    "spd": {
        "basic": 16,
        "simple_regular": 14,
        "strongly_regular": 0,
        "extension": 41,
        "cfi": 12,
        "4vertex": 0,
        "distance_regular": 0,
    },
    "3wl": {
        "basic": 60,
        "simple_regular": 50,
        "strongly_regular": 0,
        "extension": 100,
        "cfi": 60,
        "4vertex": 0,
        "distance_regular": 0,
    },
}


@pytest.mark.parametrize("test", ["1wl", "spd", "3wl"])
def test_brec_published_counts(test, brec_verdicts):
    """All 400 pairs, per subcategory, against BREC's Table 2 (transcribed above, apart from
    brec_runner.reports.theory.PUBLISHED). The verdicts come from the session's BREC theory (refine_pair's
    fast path per pair, as ``brec theory`` runs it), computed once for every check that reads them."""
    from brec_sample import all_pairs

    verdicts = brec_verdicts(test)
    out = dict.fromkeys(_PUBLISHED[test], 0)
    for p in all_pairs():
        out[p.subcategory] += verdicts[p.id]
    assert out == _PUBLISHED[test]


@pytest.mark.parametrize("test, steps", [("1wl", None), ("spd", None), ("rd", None), ("rrwp", 8), ("3wl", None)])
def test_fast_agrees_with_reference_on_brec_sample(test, steps):
    """The representative part of BREC (tests/brec_sample.py: every subcategory, CFI included); all
    400 pairs: benchmarks/exact_crosscheck.py."""
    from brec_sample import sample_pairs

    for p in sample_pairs():
        _same(refine_pair(p.g, p.h, test, rrwp_steps=steps), refine_pair(p.g, p.h, test, rrwp_steps=steps, fast=False))


# ----------------------------------------------------------------------- result object, errors


def test_order_and_edges_reasons_and_to_dict():
    r = refine_pair(nx.path_graph(4), nx.path_graph(5), "3wl")
    assert (r.distinguished, r.reason, r.iteration) == (True, "order", 0)
    r = refine_pair(nx.path_graph(4), nx.cycle_graph(4), "1wl")
    assert (r.distinguished, r.reason) == (True, "edges")
    r = refine_pair(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "rd")
    d = json.loads(json.dumps(r.to_dict()))
    assert d["test"] == "rd" and d["distinguished"] is True and d["iteration"] == 1
    assert d["class_sizes"] == [[6], [6]]


def test_non_integer_node_labels_are_accepted():
    G = nx.relabel_nodes(nx.cycle_graph(6), {i: f"v{i}" for i in range(6)})
    H = nx.relabel_nodes(nx.path_graph(6), {i: chr(97 + i) for i in range(6)})
    H.add_edge("a", "c")
    assert refine_pair(G, H, "1wl").distinguished
    # mixed labels are relabelled like wltools.graphs does (integers first, then natural order)
    M = nx.relabel_nodes(nx.path_graph(12), {i: (i if i % 2 else f"n{i}") for i in range(12)})
    for test in TESTS:
        assert not refine_pair(M, nx.path_graph(12), test).distinguished


@pytest.mark.parametrize("G", [nx.DiGraph([(1, 2), (2, 3)]), nx.MultiGraph([(1, 2), (1, 2), (2, 3)]),
                               nx.Graph([(1, 1), (1, 2), (2, 3)])])
def test_directed_multi_and_looped_graphs_are_refused_not_relabelled(G):
    for test in TESTS:
        with pytest.raises(UnsupportedGraphError):
            refine_pair(G, G, test)


def test_unknown_test_and_bad_steps():
    with pytest.raises(UnknownNameError):
        refine_pair(nx.path_graph(3), nx.path_graph(3), "4wl")
    with pytest.raises(ValueError):
        refine_pair(nx.path_graph(3), nx.path_graph(3), "rrwp", rrwp_steps=0)


@pytest.mark.parametrize("test", TESTS + SUBGRAPH_WL_TESTS)
def test_edgeless_and_empty_graphs(test):
    for fast in (True, False):
        assert not refine_pair(nx.Graph(), nx.Graph(), test, fast=fast).distinguished
        r = refine_pair(nx.empty_graph(3), nx.empty_graph(3), test, fast=fast)
        assert not r.distinguished and r.class_sizes[0] == r.class_sizes[1]
