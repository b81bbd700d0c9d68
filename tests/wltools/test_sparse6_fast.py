"""The vectorised sparse6 decoder against networkx's, and parse_graph6's use of it."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from wltools.errors import UnsupportedGraphError
from wltools.graphs.formats import FAST_SPARSE6_BYTES, parse_graph6
from wltools.graphs.validation import validate_graph
from wltools.graphs.sparse6 import decode_sparse6


def _edges_nx(raw: bytes) -> list:
    G = nx.from_sparse6_bytes(raw)
    return sorted(tuple(sorted(e)) for e in G.edges())


@pytest.mark.parametrize("seed", range(3))
def test_decoder_equals_networkx(seed):
    """Orders around the powers of two (where k and the padding rules change), multigraphs and
    self-loops included (sparse6 can encode them; the decoder returns them as encoded)."""
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.choice([1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 258, 1024, 1025])
        G = nx.MultiGraph(nx.gnm_random_graph(n, rng.randint(0, min(3 * n, n * (n - 1) // 2)),
                                              seed=rng.randrange(10**6)))
        if n > 1 and rng.random() < 0.3:
            u, v = rng.sample(range(n), 2)
            G.add_edge(u, v)  # a repeated edge
        if rng.random() < 0.3:
            G.add_edge(rng.randrange(n), rng.randrange(n)) if n else None  # maybe a loop
        raw = nx.to_sparse6_bytes(G, header=False).strip()
        n_got, edges = decode_sparse6(raw)
        assert n_got == n
        assert sorted(map(tuple, edges.tolist())) == _edges_nx(raw)


def test_large_orders_header():
    """Orders above 62 and above 258,047 use the 4- and 8-byte forms of N(n)."""
    for n in (63, 258047, 258048):
        G = nx.empty_graph(n)
        G.add_edge(0, n - 1)
        raw = nx.to_sparse6_bytes(G, header=False).strip()
        n_got, edges = decode_sparse6(raw)
        assert n_got == n and edges.tolist() == [[0, n - 1]]


@pytest.mark.parametrize("raw", [b"Fa@x^", b":", b":~", b":F\x7fa", b":~~"])
def test_malformed_gives_none(raw):
    assert decode_sparse6(raw) is None


def test_parse_graph6_fast_path_equals_validated_networkx():
    for seed, n in enumerate((2000, 3001, 5000)):
        G = nx.gnm_random_graph(n, 2 * n, seed=seed)
        raw = nx.to_sparse6_bytes(G, header=False).strip()
        assert len(raw) > FAST_SPARSE6_BYTES
        fast = parse_graph6(raw, name="g")
        slow = validate_graph(nx.from_sparse6_bytes(raw), name="g")
        assert list(fast.nodes) == list(slow.nodes)
        assert list(fast.edges) == list(slow.edges)
        assert fast.graph == slow.graph


def test_parse_graph6_large_multigraph_refused_as_before():
    G = nx.MultiGraph(nx.cycle_graph(3000))
    G.add_edge(0, 1)
    raw = nx.to_sparse6_bytes(G, header=False).strip()
    assert len(raw) > FAST_SPARSE6_BYTES
    with pytest.raises(UnsupportedGraphError, match="parallel edges between 0 and 1"):
        parse_graph6(raw, name="g")
    G = nx.MultiGraph(nx.cycle_graph(3000))
    G.add_edge(5, 5)
    with pytest.raises(UnsupportedGraphError, match="self-loop at node 5"):
        parse_graph6(nx.to_sparse6_bytes(G, header=False).strip(), name="g")
