"""Isomorphism of labelled graphs (:mod:`wltools.iso`): node labels as vertex colours, edge labels
by subdivision, for nauty and bliss, checked against networkx's VF2 with label matches on
hundreds of small graphs; certificates invariant under renaming; unlabelled certificates
untouched; refinement never separates labelled-isomorphic graphs."""

import random
import warnings

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.isomorphism import categorical_edge_match, categorical_node_match

from wltools.errors import GraphFormatError
from wltools.iso import canonical_form, certificate, is_isomorphic
from wltools.refine import refine_pair


def _vf2(G, H):
    return nx.is_isomorphic(G, H, node_match=categorical_node_match("label", None),
                            edge_match=categorical_edge_match("label", None))


def _label(G, rng, nodes=("a", "b"), edges=(1, 2)):
    G = nx.Graph(G)
    for v in G:
        if nodes:
            G.nodes[v]["label"] = rng.choice(nodes)
    for e in G.edges:
        if edges:
            G.edges[e]["label"] = rng.choice(edges)
    return G


def _renamed(G, rng):
    nodes = sorted(G)
    perm = list(range(len(G)))
    rng.shuffle(perm)
    return nx.relabel_nodes(G, {v: perm[i] for i, v in enumerate(nodes)})


def _pairs(count, seed, **kw):
    """Labelled pairs of equal order and size: renamed copies (isomorphic), renamed copies with
    one label changed, and random atlas pairs."""
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        atlas = [G for G in nx.graph_atlas_g() if 3 <= len(G) <= 7]
    by_size: dict = {}
    for G in atlas:
        by_size.setdefault((len(G), G.number_of_edges()), []).append(G)
    out = []
    while len(out) < count:
        G = _label(rng.choice(atlas), rng, **kw)
        H = _renamed(G, rng)
        kind = len(out) % 3
        if kind == 1:
            node_labelled = "label" in H.nodes[next(iter(H))]
            edge_labelled = H.number_of_edges() and "label" in H.edges[next(iter(H.edges))]
            if node_labelled and (rng.random() < 0.5 or not edge_labelled):
                v = rng.choice(list(H))
                H.nodes[v]["label"] = "b" if H.nodes[v]["label"] == "a" else "a"
            elif edge_labelled:
                e = rng.choice(list(H.edges))
                H.edges[e]["label"] = 3 - H.edges[e]["label"]
        elif kind == 2:
            H = _label(rng.choice(by_size[len(G), G.number_of_edges()]), rng, **kw)
        out.append((G, H))
    return out


@pytest.mark.parametrize("method", ["nauty", "bliss"])
@pytest.mark.parametrize("kind", ["nodes", "edges", "both"])
def test_agrees_with_vf2(method, kind):
    """(b) certificates equal iff VF2 with label matches finds an isomorphism; both answers occur."""
    kw = {"nodes": {"nodes": ("a", "b"), "edges": ()}, "edges": {"nodes": (), "edges": (1, 2)},
          "both": {}}[kind]
    answers = set()
    for G, H in _pairs(150, seed=len(method) * 10 + len(kind), **kw):
        expected = _vf2(G, H)
        got = canonical_form(G, method).isomorphic(canonical_form(H, method))
        assert got == expected, (list(G.nodes(data=True)), list(G.edges(data=True)))
        answers.add(expected)
        if method == "nauty":
            assert is_isomorphic(G, H) == expected
            if expected:  # (d) labelled-isomorphic pairs are never separated
                assert not refine_pair(G, H, "3wl").distinguished
    assert answers == {True, False}


def test_certificate_invariant_and_canonical_graph():
    """Renamed copies share a certificate; the canonical graph carries the labels and is
    labelled-isomorphic to the input."""
    rng = random.Random(7)
    for G, _ in _pairs(40, seed=7):
        c = canonical_form(G)
        assert canonical_form(_renamed(G, rng)).certificate == c.certificate
        C = c.graph()
        assert _vf2(C, nx.convert_node_labels_to_integers(G, ordering="sorted"))
        assert sorted(C.nodes(data="label")) == sorted(
            (c.order[i], x) for i, x in enumerate(G.nodes[v]["label"] for v in sorted(G)))


def test_unlabelled_certificates_unchanged():
    """An unlabelled graph takes the unlabelled path: its certificate is ``n`` and
    ``pynauty.certificate`` (the documented format), and labels on a copy change it."""
    import pynauty

    G = nx.petersen_graph()
    g = pynauty.Graph(10, adjacency_dict={v: sorted(G[v]) for v in G})
    assert certificate(G) == (10).to_bytes(8, "big") + pynauty.certificate(g)
    L = nx.Graph(G)
    nx.set_node_attributes(L, "x", "label")
    assert certificate(L).startswith(b"labelled") and certificate(L) != certificate(G)
    assert canonical_form(L).labelled and not canonical_form(G).labelled
    assert canonical_form(L).isomorphic(canonical_form(L))


def test_labels_matter_and_equal_values_are_one_label():
    P = nx.path_graph(3)
    G, H = nx.Graph(P), nx.Graph(P)
    nx.set_node_attributes(G, {0: "a", 1: "b", 2: "a"}, "label")
    nx.set_node_attributes(H, {0: "b", 1: "a", 2: "a"}, "label")
    assert not is_isomorphic(G, H) and is_isomorphic(P, P)
    A, B = nx.Graph(P), nx.Graph(P)
    nx.set_node_attributes(A, {0: 1, 1: 2.0, 2: True}, "label")
    nx.set_node_attributes(B, {0: 1.0, 1: 2, 2: 1}, "label")
    assert certificate(A) == certificate(B)
    nx.set_edge_attributes(A, {(0, 1): (1, 0), (1, 2): (0, 1)}, "label")
    nx.set_edge_attributes(B, {(0, 1): (0, 1), (1, 2): (1, 0)}, "label")
    assert is_isomorphic(A, B)  # the reflection 0 <-> 2 maps labels onto labels
    B.edges[0, 1]["label"] = (1, 0)
    assert not is_isomorphic(A, B)


def test_one_graph_labelled_is_one_line():
    G = nx.path_graph(3)
    L = nx.Graph(G)
    nx.set_node_attributes(L, "C", "label")
    with pytest.raises(GraphFormatError, match="^G has node labels .* and H has none"):
        is_isomorphic(L, G)
    bad = nx.Graph(G)
    bad.nodes[0]["label"] = "C"
    with pytest.raises(GraphFormatError, match="node 1 has no attribute 'label'"):
        certificate(bad)


def test_large_labelled_graphs_use_bliss():
    """Above 256 vertices (``n + m`` with edge labels) bliss labels the coloured graph."""
    rng = np.random.default_rng(3)
    G = nx.random_regular_graph(3, 120, seed=1)  # 120 nodes + 180 subdivision vertices
    nx.set_edge_attributes(G, {e: int(rng.integers(2)) for e in G.edges}, "label")
    H = nx.relabel_nodes(G, dict(zip(G, rng.permutation(120).tolist())))
    f, h = canonical_form(G), canonical_form(H)
    assert f.method == "bliss" and f.isomorphic(h)
    H.edges[next(iter(H.edges))]["label"] ^= 1
    assert not canonical_form(H).isomorphic(f)
