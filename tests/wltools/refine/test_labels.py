"""Labelled graphs in every refinement test (:mod:`wltools.graphs.labels`, :func:`wltools.refine.refine_pair`).

The oracle is a brute-force labelled refinement written here from the definitions in the modules'
docstrings (plain dicts and sorted tuples over the raw label values, not the joint ids), run on
pairs of small graphs of the networkx atlas with seeded random node and edge labels:

(a) it agrees with ``refine_pair(fast=True)`` and ``fast=False`` (verdict and round of first
    difference) for every test that takes labels;
(b) labelled isomorphism is checked in ``tests/wltools/test_iso_labels.py``;
(c) labels that are all equal give exactly the unlabelled result;
(d) labelled-isomorphic pairs (``nx.is_isomorphic`` with label matches) are never distinguished;
(e) results are invariant under renaming the nodes of either graph.

Plus the refusals (BREC baselines; edge labels in EPWL) and bad labels, each one line.
"""

import itertools
import math
import random
import warnings
from collections import Counter
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.isomorphism import categorical_edge_match, categorical_node_match

from wltools.distances import resistance_exact, rrwp_exact
from wltools.errors import GraphFormatError, UnsupportedGraphError
from wltools.refine import refine_pair
from wltools.refine.swl import SWL_CLASSES

SWL = tuple(SWL_CLASSES)


# ------------------------------------------------------------------------------ graphs


def _atlas(nmin=3, nmax=7):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [G for G in nx.graph_atlas_g() if nmin <= len(G) <= nmax]


def _label(G, rng, node_values, edge_values):
    G = nx.Graph(G)
    if node_values:
        for v in G:
            G.nodes[v]["label"] = rng.choice(node_values)
    if edge_values:
        for e in G.edges:
            G.edges[e]["label"] = rng.choice(edge_values)
    return G


def _pairs(count, nmax, seed, node_values=("C", "N"), edge_values=(1, 2)):
    """``count`` labelled pairs of equal order and size from the atlas: a third each of random
    pairs, a graph against a relabelled copy (isomorphic), and a copy with one label changed."""
    rng = random.Random(seed)
    by_size: dict = {}
    for G in _atlas(3, nmax):
        by_size.setdefault((len(G), G.number_of_edges()), []).append(G)
    groups = [g for g in by_size.values() if len(g) > 1]
    out = []
    while len(out) < count:
        kind = len(out) % 3
        if kind == 0:
            G, H = rng.sample(rng.choice(groups), 2)
            out.append((_label(G, rng, node_values, edge_values), _label(H, rng, node_values, edge_values)))
            continue
        G = _label(rng.choice(rng.choice(groups)), rng, node_values, edge_values)
        H = _renamed(G, rng.randrange(10**6))
        if kind == 2:
            if node_values:
                v = rng.choice(list(H))
                H.nodes[v]["label"] = rng.choice(node_values)
            if edge_values and H.number_of_edges():
                e = rng.choice(list(H.edges))
                H.edges[e]["label"] = rng.choice(edge_values)
        out.append((G, H))
    return out


def _renamed(G, seed):
    """``G`` with its nodes renamed by a random permutation (labels travel with the nodes)."""
    perm = np.random.default_rng(seed).permutation(len(G))
    return nx.relabel_nodes(G, {v: int(perm[i]) for i, v in enumerate(sorted(G))})


# ------------------------------------------------------------------------------ brute force


def _nl(G, v):
    return G.nodes[v].get("label")


def _el(G, u, v):
    """The edge label of ``uv``, ``"-"`` for non-edges, ``None`` on graphs without edge labels."""
    if not G.has_edge(u, v):
        return "-"
    return G.edges[u, v].get("label")


def _brute(graphs, elems, init, sig, pooled=lambda g, col: Counter(col.values())):
    """Refine both graphs with one table per round until the number of classes stops growing;
    the first round whose pooled histograms differ (None: never)."""
    table: dict = {}
    cols = [{e: table.setdefault(init(g, e), len(table)) for e in elems[g]} for g in (0, 1)]
    first = 0 if pooled(0, cols[0]) != pooled(1, cols[1]) else None
    t = 0
    while True:
        table = {}
        new = [{e: table.setdefault(sig(g, e, cols[g]), len(table)) for e in elems[g]} for g in (0, 1)]
        if len(table) == len(set(cols[0].values()) | set(cols[1].values())):
            return first
        cols, t = new, t + 1
        if first is None and pooled(0, cols[0]) != pooled(1, cols[1]):
            first = t


def _srt(items):
    return tuple(sorted(items, key=repr))


def brute_wl1(G, H):
    gs = (G, H)
    return _brute(gs, [list(G), list(H)], lambda g, v: _nl(gs[g], v),
                  lambda g, v, c: (c[v], _srt((_el(gs[g], v, u), c[u]) for u in gs[g][v])))


def _distance(G, kind):
    nodes = sorted(G)
    if kind == "spd":
        d = dict(nx.all_pairs_shortest_path_length(G))
        return {(u, v): d[u].get(v, math.inf) for u in nodes for v in nodes}
    M = resistance_exact(G) if kind == "rd" else rrwp_exact(G, len(G))
    return {(u, v): M[u][v] for u in nodes for v in nodes}


def brute_gdwl(G, H, kind):
    gs = (G, H)
    D = [_distance(X, kind) for X in gs]
    return _brute(gs, [list(G), list(H)], lambda g, v: _nl(gs[g], v),
                  lambda g, v, c: (c[v], _srt((D[g][v, u], _el(gs[g], v, u), c[u]) for u in gs[g])))


def _atomic(G, u, v):
    return (u == v, G.has_edge(u, v), _el(G, u, v) if u != v else "=", _nl(G, u), _nl(G, v))


def brute_fwl2(G, H):
    gs = (G, H)
    elems = [list(itertools.product(X, X)) for X in gs]
    return _brute(gs, elems, lambda g, e: _atomic(gs[g], *e),
                  lambda g, e, c: (c[e], _srt((c[e[0], w], c[w, e[1]]) for w in gs[g])))


def brute_fwl3(G, H):
    gs = (G, H)
    elems = [list(itertools.product(X, X, X)) for X in gs]

    def init(g, e):
        u, v, x = e
        return (_atomic(gs[g], u, v), _atomic(gs[g], u, x), _atomic(gs[g], v, x))

    def sig(g, e, c):
        u, v, x = e
        return (c[e], _srt((c[w, v, x], c[u, w, x], c[u, v, w]) for w in gs[g]))

    return _brute(gs, elems, init, sig)


def brute_epwl(G, H, laplacian=False):
    gs = (G, H)
    W = []
    for X in gs:
        A = nx.to_numpy_array(X, nodelist=range(len(X)), dtype=object).astype(int).astype(object)
        B = np.diag(A.sum(axis=1)) - A if laplacian else A
        powers = [np.identity(len(X), dtype=int).astype(object)]
        for _ in range(len(X)):
            powers.append(powers[-1].dot(B))
        W.append({(u, v): tuple(int(P[u, v]) for P in powers) for u in X for v in X})
    return _brute(gs, [list(G), list(H)], lambda g, v: _nl(gs[g], v),
                  lambda g, v, c: (c[v], _srt((W[g][v, u], c[u]) for u in gs[g])))


def brute_swl(G, H, test):
    """The subgraph tests from :mod:`wltools.refine.swl`'s definitions (labelled: marking
    ``([u == v], l(v))``, edge labels in uL / vL items; atomic classes from the labelled type)."""
    spec = SWL_CLASSES[test]
    gs = (G, H)
    elems = [list(itertools.product(X, X)) for X in gs]

    def init(g, e):
        u, v = e
        return _atomic(gs[g], u, v) if spec.init == "atomic" else (u == v, _nl(gs[g], v))

    def sig(g, e, c):
        X, (u, v) = gs[g], e
        key = [c[e]]
        for a in spec.aggregations:
            if a == "uL":
                key.append(_srt((_el(X, v, w), c[u, w]) for w in X[v]))
            elif a == "vL":
                key.append(_srt((_el(X, u, w), c[w, v]) for w in X[u]))
            elif a == "vv":
                key.append(c[v, v])
            elif a == "vG":
                key.append(_srt(c[w, v] for w in X))
            else:
                ws = set(X[v]) | {v}
                if a == "fwl-uv":
                    ws |= set(X[u]) | {u}
                key.append(_srt((c[u, w], c[w, v]) for w in ws))
        return tuple(key)

    def pooled(g, col):
        X = gs[g]
        if spec.pooling == "all":
            return Counter(col.values())
        if spec.pooling == "VS":
            return Counter(_srt(col[u, v] for v in X) for u in X)
        return Counter(_srt(col[u, v] for u in X) for v in X)

    return _brute(gs, elems, init, sig, pooled)


BRUTE = {"1wl": brute_wl1, "spd": lambda G, H: brute_gdwl(G, H, "spd"), "rd": lambda G, H: brute_gdwl(G, H, "rd"),
         "rrwp": lambda G, H: brute_gdwl(G, H, "rrwp"), "3wl": brute_fwl2, "3fwl": brute_fwl3,
         "epwl": brute_epwl, "epwl-lap": lambda G, H: brute_epwl(G, H, True),
         **{t: (lambda G, H, t=t: brute_swl(G, H, t)) for t in SWL}}

#: (test, number of pairs, largest order, kinds of labels): sizes keep the module near 20 s.
CASES = [("1wl", 240, 7, "both"), ("spd", 150, 7, "both"), ("rd", 45, 6, "both"), ("rrwp", 45, 6, "both"),
         ("3wl", 120, 6, "both"), ("3fwl", 24, 5, "both"), ("epwl", 60, 6, "nodes"), ("epwl-lap", 30, 6, "nodes")]
CASES += [(t, 30, 5, "both") for t in SWL]
CASES += [("1wl", 90, 7, "edges"), ("spd", 60, 6, "edges"), ("3wl", 60, 6, "edges"), ("sswl", 30, 5, "edges"),
          ("gswl", 30, 5, "nodes"), ("rd", 30, 6, "nodes")]
_KINDS = {"both": (("C", "N"), (1, 2)), "nodes": (("C", "N"), ()), "edges": ((), ("single", "double"))}


def _key(r):
    return (r.distinguished, r.reason, r.iteration, r.iterations, r.class_sizes)


@pytest.mark.parametrize("test,count,nmax,kind", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_fast_and_reference_agree_with_brute_force(test, count, nmax, kind):
    """(a) verdict and round of first difference of both paths equal the brute force's, and the
    two paths agree on rounds and class sizes; (d) labelled-isomorphic pairs are never
    distinguished. The pairs include distinguished and undistinguished ones."""
    seen = Counter()
    node_values, edge_values = _KINDS[kind]
    for G, H in _pairs(count, nmax, seed=sum(map(ord, test)) + count, node_values=node_values,
                       edge_values=edge_values):
        first = BRUTE[test](G, H)
        fast, ref = refine_pair(G, H, test), refine_pair(G, H, test, fast=False)
        assert (fast.distinguished, fast.iteration) == (first is not None, first), (test, G.nodes(data=True))
        assert _key(fast)[:4] == _key(ref)[:4] and fast.class_sizes == ref.class_sizes
        if nx.is_isomorphic(G, H, node_match=categorical_node_match("label", None),
                            edge_match=categorical_edge_match("label", None)):
            assert not fast.distinguished
            seen["isomorphic"] += 1
        seen[fast.distinguished] += 1
    assert seen[True] and seen[False] and seen["isomorphic"], seen


#: Inclusions that must survive labels: the subgraph hierarchy's (``wltools.refine.swl.HIERARCHY``,
#: 1-WL below SWL(VS) ... SLFWL(2) below 3-WL) and the classic ones.
INCLUSIONS = (("1wl", "swl-vs"), ("swl-vs", "pswl-vs"), ("pswl-vs", "lfwl2"), ("gswl", "sswl"),
              ("sswl", "slfwl2"), ("slfwl2", "3wl"), ("spd", "pswl-vs"), ("1wl", "spd"), ("1wl", "rd"),
              ("1wl", "rrwp"), ("spd", "3wl"), ("rd", "3wl"), ("3wl", "3fwl"))


def test_inclusions_hold_with_labels():
    """What the weaker test of an inclusion distinguishes, the stronger one does too, on labelled
    pairs (node and edge labels, edge labels only); every weaker test distinguishes some of them
    and leaves others (the check is not vacuous)."""
    seen = Counter()
    for i, (G, H) in enumerate(_pairs(90, 5, seed=4) + _pairs(30, 5, seed=5, node_values=())):
        verdict: dict = {}  # each test once per pair (a test is in several inclusions)
        for weak, strong in INCLUSIONS:
            for t in (weak, strong):
                if t not in verdict:
                    verdict[t] = refine_pair(G, H, t).distinguished
            a, b = verdict[weak], verdict[strong]
            assert b or not a, (weak, strong, i)
            seen[weak, a] += 1
    assert all(seen[weak, True] and seen[weak, False] for weak, _ in INCLUSIONS), seen


def _constant(G, node, edge):
    G = nx.Graph(G)
    if node is not None:
        nx.set_node_attributes(G, node, "label")
    if edge is not None:
        nx.set_edge_attributes(G, edge, "label")
    return G


ALL_LABELLED = ("1wl", "spd", "rd", "rrwp", "3wl", "3fwl", "epwl", "epwl-lap") + SWL


@pytest.mark.parametrize("test", ALL_LABELLED)
def test_equal_labels_give_the_unlabelled_result(test):
    """(c) all node labels equal and all edge labels equal: exactly the unlabelled result (verdict,
    rounds, class sizes), on pairs that the unlabelled test does and does not distinguish."""
    rng = random.Random(5)
    atlas = [G for G in _atlas(4, 6 if test != "3fwl" else 5) if nx.is_connected(G)]
    pairs = [(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))]
    by_size: dict = {}
    for G in atlas:
        by_size.setdefault((len(G), G.number_of_edges()), []).append(G)
    groups = [g for g in by_size.values() if len(g) > 1]
    pairs += [tuple(rng.sample(rng.choice(groups), 2)) for _ in range(12)]
    edge = None if test.startswith("epwl") else "single"
    for G, H in pairs:
        plain = refine_pair(G, H, test)
        for fast in (True, False):
            r = refine_pair(_constant(G, "C", edge), _constant(H, "C", edge), test, fast=fast)
            assert _key(r) == _key(plain)


@pytest.mark.parametrize("test", ("1wl", "spd", "3wl", "epwl", "sswl", "lfwl2"))
def test_invariant_under_renaming_nodes(test):
    """(e) renaming the nodes of G or H (labels travel with them) changes nothing."""
    for i, (G, H) in enumerate(_pairs(30, 6, seed=11, edge_values=() if test == "epwl" else (1, 2))):
        base = _key(refine_pair(G, H, test))
        assert _key(refine_pair(_renamed(G, i), _renamed(H, i + 100), test)) == base
        # string node names: relabelled onto 0..n-1 with their labels
        named = nx.relabel_nodes(H, {v: f"n{v}" for v in H})
        assert _key(refine_pair(G, named, test)) == base


def test_labels_change_verdicts_where_they_should():
    """Known facts: P3 labelled a-b-a vs b-a-a is told apart by 1-WL at round 1 (the middle node
    sees two a's), the unlabelled pair is one graph; C6 vs two triangles stays 1-WL-equivalent
    under the same labels on every node, and becomes distinguishable when one triangle's edge is
    labelled differently: in the two triangles the third node of that triangle has two such edges
    at its neighbours, which no node of C6 has (1-WL, round 2)."""
    P = nx.path_graph(3)
    G = _constant(P, None, None)
    nx.set_node_attributes(G, {0: "a", 1: "b", 2: "a"}, "label")
    H = _constant(P, None, None)
    nx.set_node_attributes(H, {0: "b", 1: "a", 2: "a"}, "label")
    r = refine_pair(G, H, "1wl")
    assert (r.distinguished, r.iteration) == (True, 1)
    assert not refine_pair(P, P, "1wl").distinguished
    C6, TT = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    assert not refine_pair(_constant(C6, "x", 1), _constant(TT, "x", 1), "1wl").distinguished
    C6e, TTe = _constant(C6, None, {e: 1 for e in C6.edges}), _constant(TT, None, {e: 1 for e in TT.edges})
    assert not refine_pair(C6e, TTe, "1wl").distinguished
    C6e.edges[0, 1]["label"] = 2
    TTe.edges[0, 1]["label"] = 2
    r = refine_pair(C6e, TTe, "1wl")
    assert (r.distinguished, r.iteration) == (True, 2)


def test_witness_names_labels():
    G, H = nx.path_graph(3), nx.path_graph(3)
    nx.set_node_attributes(G, {0: "C", 1: "C", 2: "O"}, "label")
    nx.set_node_attributes(H, {0: "C", 1: "O", 2: "O"}, "label")
    for test in ("1wl", "spd", "epwl"):
        r = refine_pair(G, H, test)
        assert (r.iteration, r.witness) == (0, "iteration 0: nodes labelled 'C': 2 in G, 1 in H; "
                                                "nodes labelled 'O': 1 in G, 2 in H")
    r = refine_pair(G, H, "3wl")
    assert r.iteration == 0 and "u = v labelled 'C'" in r.witness


@pytest.mark.parametrize("test", ("s3", "s4", "n1", "n2", "m1", "m2"))
def test_baselines_refuse_labels(test):
    G = _constant(nx.cycle_graph(4), "C", None)
    with pytest.raises(UnsupportedGraphError, match=f"^test {test} is not defined on labelled graphs"):
        refine_pair(G, G, test)
    assert not refine_pair(nx.cycle_graph(4), nx.cycle_graph(4), test).distinguished  # unlabelled: as before
    r = refine_pair(G, G, test, node_label=None)  # labels ignored on request
    assert not r.distinguished


def test_epwl_refuses_edge_labels():
    G = _constant(nx.cycle_graph(4), "C", 1)
    with pytest.raises(UnsupportedGraphError, match="^test epwl is not defined on edge-labelled graphs"):
        refine_pair(G, G, "epwl")
    assert not refine_pair(G, G, "epwl", edge_label=None).distinguished


def test_bad_labels_one_line():
    G = nx.path_graph(3)
    partial = _constant(G, None, None)
    partial.nodes[0]["label"] = "C"
    with pytest.raises(GraphFormatError, match=r"^G: node 1 has no attribute 'label', which 1 of the 3"):
        refine_pair(partial, G, "1wl")
    with pytest.raises(GraphFormatError, match="^G has node labels .* and H has none"):
        refine_pair(_constant(G, "C", None), G, "1wl")
    bad = _constant(G, None, None)
    nx.set_node_attributes(bad, {0: {"a": 1}, 1: 1, 2: 2}, "label")
    with pytest.raises(GraphFormatError, match="is a dict; labels must be numbers"):
        refine_pair(bad, bad, "spd")
    nan = _constant(G, None, {(0, 1): 1.0, (1, 2): float("nan")})
    with pytest.raises(GraphFormatError, match="is NaN"):
        refine_pair(nan, nan, "3wl")
    with pytest.raises(GraphFormatError) as info:
        refine_pair(partial, G, "spd")
    assert "\n" not in str(info.value)


def test_feature_rows_and_mixed_values():
    """Feature rows (lists, numpy rows) are labels; equal values of other types (1, 1.0) are one
    label; the node attribute name can be chosen."""
    G, H = nx.path_graph(3), nx.path_graph(3)
    nx.set_node_attributes(G, {0: [1, 0], 1: np.array([0, 1]), 2: (1, 0)}, "x")
    nx.set_node_attributes(H, {0: (1.0, 0.0), 1: [0, 1], 2: [1, 0]}, "x")
    assert not refine_pair(G, H, "1wl", node_label="x").distinguished
    H.nodes[1]["x"] = [1, 0]
    assert refine_pair(G, H, "1wl", node_label="x").iteration == 0
    assert not refine_pair(G, H, "1wl").distinguished  # "label" is absent: unlabelled


def test_rational_labels_order():
    """Labels of mixed types are ordered by a type-safe key (no TypeError from comparing str and
    int) and never by Python's salted hash."""
    G, H = nx.path_graph(4), nx.path_graph(4)
    nx.set_node_attributes(G, {0: "a", 1: 2, 2: Fraction(1, 2), 3: ("t", 1)}, "label")
    nx.set_node_attributes(H, {3: "a", 2: 2, 1: Fraction(1, 2), 0: ("t", 1)}, "label")
    for test in ("1wl", "spd", "3wl", "sswl"):
        assert not refine_pair(G, H, test).distinguished
