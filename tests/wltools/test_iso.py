"""Tests of wltools.iso: nauty certificates against relabelings, networkx, and BREC facts."""

from __future__ import annotations

import random
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from wltools.errors import UnsupportedGraphError
from wltools.graphs import load_graph, parse_graph6, permute_graph
from wltools.iso import (
    canonical_graph6,
    canonical_labeling,
    canonical_order,
    certificate,
    certificate_digest,
    is_isomorphic,
)

BREC_DIR = Path(__file__).resolve().parents[2] / "data" / "brec"
BREC_FILES = ("basic", "regular", "str", "extension", "cfi", "4vtx", "dr")


def _relabel(G: nx.Graph, rng: random.Random) -> nx.Graph:
    """A uniformly random relabelling of G onto 0..n-1, edges inserted in random order."""
    perm = list(G.nodes)
    rng.shuffle(perm)
    mapping = dict(zip(G.nodes, perm))
    edges = [(mapping[u], mapping[v]) for u, v in G.edges()]
    rng.shuffle(edges)
    H = nx.Graph()
    H.add_nodes_from(rng.sample(perm, len(perm)))
    H.add_edges_from(edges)
    return H


def _brec_pairs() -> list[tuple[nx.Graph, nx.Graph]]:
    pairs = []
    for name in BREC_FILES:
        raw = np.load(BREC_DIR / f"{name}.npy", allow_pickle=True).reshape(-1, 2)
        pairs += [(parse_graph6(g), parse_graph6(h)) for g, h in raw]
    return pairs


def test_random_graphs_vs_random_relabelings():
    rng = random.Random(12345)
    for _ in range(80):
        n = rng.randint(1, 16)
        G = nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(2**32))
        H = _relabel(G, rng)
        assert is_isomorphic(G, H)
        assert certificate(G) == certificate(H)
        assert canonical_graph6(G) == canonical_graph6(H)
        assert certificate_digest(G) == certificate_digest(H)


def test_agrees_with_networkx_on_random_pairs():
    # Same n and m, so the cheap pre-checks rarely decide; both answers occur for small n.
    rng = random.Random(99)
    answers = []
    for _ in range(150):
        n = rng.randint(4, 7)
        m = rng.randint(0, n * (n - 1) // 2)
        G = nx.gnm_random_graph(n, m, seed=rng.randrange(2**32))
        H = nx.gnm_random_graph(n, m, seed=rng.randrange(2**32))
        expected = nx.is_isomorphic(G, H)
        assert is_isomorphic(G, H) == expected
        assert (certificate(G) == certificate(H)) == expected
        assert (canonical_graph6(G) == canonical_graph6(H)) == expected
        answers.append(expected)
    assert any(answers) and not all(answers)


def test_canonical_form_is_a_relabeling_of_the_graph():
    rng = random.Random(5)
    for _ in range(20):
        G = nx.gnp_random_graph(rng.randint(2, 12), 0.5, seed=rng.randrange(2**32))
        C = parse_graph6(canonical_graph6(G))
        assert nx.is_isomorphic(C, G)
        order = canonical_labeling(G)
        assert sorted(order) == list(range(G.number_of_nodes()))
        position = {v: i for i, v in enumerate(order)}
        assert {frozenset((position[u], position[v])) for u, v in G.edges()} == {
            frozenset(e) for e in C.edges()
        }


def test_named_pairs():
    assert not is_isomorphic(load_graph("shrikhande"), load_graph("rook4x4"))
    assert not is_isomorphic(load_graph("decalin"), load_graph("bicyclopentyl"))
    assert not is_isomorphic(load_graph("dodecahedral"), load_graph("desargues"))
    assert not is_isomorphic(load_graph("cycle:6"), load_graph("cycle:3+cycle:3"))
    assert is_isomorphic(load_graph("cubical"), nx.hypercube_graph(3))
    assert is_isomorphic(load_graph("petersen"), nx.kneser_graph(5, 2))


def test_different_orders_and_tiny_graphs():
    K1, K2bar = nx.empty_graph(1), nx.empty_graph(2)
    assert is_isomorphic(K1, nx.path_graph(1))
    assert not is_isomorphic(K1, K2bar)
    assert certificate(K1) != certificate(K2bar)
    # edgeless graphs of orders 1..70: nauty pads rows to words, the order prefix keeps them apart
    certs = {certificate(nx.empty_graph(n)) for n in range(1, 70)}
    assert len(certs) == 69
    assert not is_isomorphic(nx.path_graph(4), nx.star_graph(3))  # same n, m; degrees differ


def test_bad_input():
    with pytest.raises(UnsupportedGraphError):
        certificate(nx.Graph())
    with pytest.raises(UnsupportedGraphError):
        is_isomorphic(nx.DiGraph([(0, 1)]), nx.path_graph(2))
    with pytest.raises(UnsupportedGraphError):
        is_isomorphic(nx.path_graph(2), nx.Graph([(0, 0)]))


def test_brec_pairs_are_non_isomorphic_and_relabelings_are():
    """BREC (Wang & Zhang) README: every one of the 400 pairs is non-isomorphic."""
    pairs = _brec_pairs()
    assert len(pairs) == 400
    assert not any(is_isomorphic(g, h) for g, h in pairs)
    rng = random.Random(2024)
    for g, h in rng.sample(pairs, 40):
        assert is_isomorphic(g, _relabel(g, rng))
        assert is_isomorphic(h, _relabel(h, rng))


def test_docstring_examples_run():
    import doctest

    import wltools.iso

    result = doctest.testmod(wltools.iso)
    assert result.attempted > 0 and result.failed == 0


def test_canonical_order_inverts_canonical_labeling_and_gives_the_canonical_form():
    rng = random.Random(7)
    for _ in range(30):
        G = nx.gnp_random_graph(rng.randint(1, 12), rng.random(), seed=rng.randrange(2**32))
        inv = canonical_order(G)
        lab = canonical_labeling(G)
        assert inv.dtype == np.int64 and inv.shape == (G.number_of_nodes(),)
        assert [int(inv[v]) for v in lab] == list(range(G.number_of_nodes()))
        C = permute_graph(G, inv)
        n = C.number_of_nodes()
        assert nx.to_graph6_bytes(C, nodes=range(n), header=False).decode().strip() == canonical_graph6(G)
        H = _relabel(G, rng)
        assert list(permute_graph(H, canonical_order(H)).edges) == list(C.edges)
