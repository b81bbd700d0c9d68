"""N_K: 1-WL started from the isomorphism class of each node's radius-K ego network.

BREC's neighbourhood baselines N1 and N2 (Wang & Zhang, "Towards Better Evaluation of GNN
Expressiveness with BREC Dataset", Sec. 5, Table 2 "Non-GNN baselines"; reference code
``Non-GNNs/utils.py`` of github.com/GraphPKU/BREC, ``WL_1_hash`` mode ``n<K>``), for any
``K >= 1``. The initial colour of a node ``v`` is

.. math::

    \\chi^0(v) = [\\, G[B_K(v)] \\,]_{\\cong}, \\qquad B_K(v) = \\{u : d(u, v) \\le K\\},

the isomorphism class of the subgraph *induced* on the nodes within ``K`` hops of ``v``
(``networkx.ego_graph(G, v, K)`` in the reference), with the centre *not* marked: the reference
passes the ego network to ``pynauty.certificate`` without a colouring, so two nodes whose balls are
isomorphic by a map that moves the centre get the same colour. Then plain 1-WL runs to a stable
partition (:mod:`wltools.refine.seeded`).

Classes are exact: the canonical certificate of :mod:`wltools.iso` (nauty through pynauty up to
:data:`~wltools.iso.NAUTY_MAX_NODES` nodes, bliss above), where the reference takes Python's
``hash`` of pynauty's certificate.

Which models: N_K is the test of nested / subgraph GNNs that encode each node by its ``K``-hop
ego network and then pass messages, when the inner encoder is injective on ego networks without
the root marked: NGNN (Zhang & Li, "Nested Graph Neural Networks", NeurIPS 2021) and GNN-AK
(Zhao et al., ICLR 2022) with a perfect subgraph encoder; BREC Sec. 5 sets N1/N2 beside them. With
the root marked (NGNN's distance labels, I2-GNN) those models can go beyond N_K.

Costs: the balls come from ``K`` boolean matrix products (dense up to
:data:`~wltools.refine.substructure.DENSE_MAX` nodes, else a breadth-first search per node); one
canonical labelling per node, of a graph of ``|B_K(v)|`` nodes.

Examples
--------
>>> import networkx as nx
>>> r = refine_ego(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), 1)
>>> r.distinguished, r.iteration
(True, 0)
>>> refine_ego(nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4)), 1).distinguished
False
"""

from __future__ import annotations

import functools
import hashlib
from typing import Iterable

import networkx as nx
import numpy as np

from ..iso import NAUTY_MAX_NODES, certificate
from .engine import RefinementResult
from .kernel import Declaration, refine
from .seeded import check_pair, graph_csr, keys_declaration, refine_from_keys_reference
from .substructure import DENSE_MAX

__all__ = ["ego_keys", "ego_keys_reference", "refine_ego", "ego_declaration", "refine_ego_reference"]


def reach_within(A: np.ndarray, radius: int) -> np.ndarray:
    """``reach[v, u]``: ``u`` within ``radius`` hops of ``v`` (boolean products of ``A + I``)."""
    R = A | np.eye(A.shape[0], dtype=bool)
    reach = R
    Rf = R.astype(np.float32)
    for _ in range(radius - 1):
        new = (reach.astype(np.float32) @ Rf) > 0
        if np.array_equal(new, reach):
            break
        reach = new
    return reach


def _balls(n: int, indptr: np.ndarray, indices: np.ndarray, radius: int) -> list[np.ndarray]:
    """The sorted nodes within ``radius`` hops of each node."""
    if n <= DENSE_MAX:
        A = np.zeros((n, n), dtype=bool)
        A[np.repeat(np.arange(n), np.diff(indptr)), indices] = True
        return [np.flatnonzero(row) for row in reach_within(A, radius)]
    out = []
    for v in range(n):  # breadth-first search, radius levels
        seen = {v}
        frontier = [v]
        for _ in range(radius):
            if not frontier:
                break
            nxt = [u for w in frontier for u in indices[indptr[w]:indptr[w + 1]].tolist() if u not in seen]
            seen.update(nxt)
            frontier = list(dict.fromkeys(nxt))
        out.append(np.array(sorted(seen), dtype=np.int64))
    return out


def nauty_graph(b: int, adjacency: dict, colouring: list | None = None):
    """A ``pynauty.Graph`` on nodes ``0..b-1`` (undirected) with this adjacency (``{node: list of
    neighbours}``, lists, node ids in ``0..b-1``: the callers build them from valid CSRs) and
    optional vertex colouring (a list of disjoint sets covering ``0..b-1``, at least two of them),
    built without the constructor's per-vertex checks and copies.

    pynauty's C wrapper reads four attributes of the graph it is given (``number_of_vertices``,
    ``directed``, ``adjacency_dict``, ``vertex_coloring``: ``nautywrap.c``, ``_make_nygraph`` and
    ``set_partition``); the subclass sets them as plain attributes, so ``pynauty.certificate`` and
    ``pynauty.autgrp`` compute on exactly the graph the public constructor would build from the same
    arguments (the tests compare both, certificates and orbits, on random graphs, and the ego keys
    built through it with :func:`wltools.iso.certificate`). Measured on 3,000 random graphs of
    5-31 nodes (pynauty 2.8.8.1): 0.14 s through the public constructor, 0.02-0.03 s through this
    one, the certificates equal.

    Examples
    --------
    >>> import pynauty
    >>> g = nauty_graph(3, {0: [1], 1: [2], 2: []})
    >>> pynauty.certificate(g) == pynauty.certificate(pynauty.Graph(3, adjacency_dict={0: [1], 1: [2]}))
    True
    """
    return _unchecked_graph_type()(b, adjacency, colouring or [])


@functools.lru_cache(maxsize=1)
def _unchecked_graph_type() -> type:
    import pynauty

    class UncheckedGraph(pynauty.Graph):
        """``pynauty.Graph`` whose attributes are plain, set once (:func:`nauty_graph`)."""

        adjacency_dict = None  # plain class attributes in place of the checked properties
        vertex_coloring = None

        def __init__(self, b: int, adjacency: dict, colouring: list):  # the checks of the base class skipped
            self.number_of_vertices = b
            self.directed = False
            self.adjacency_dict = adjacency
            self.vertex_coloring = colouring

    return UncheckedGraph


def nauty_certificate_of(b: int, adjacency: dict) -> bytes:
    """``pynauty.certificate`` of the graph on nodes ``0..b-1`` with this adjacency (lists of
    neighbours, each edge given at least once), through :func:`nauty_graph`."""
    import pynauty

    return pynauty.certificate(nauty_graph(b, adjacency))


def nauty_certificates(b: int, adjacencies: Iterable[dict]) -> list[bytes]:
    """:func:`nauty_certificate_of` of many graphs on ``b`` nodes: one :func:`nauty_graph` whose
    adjacency is replaced for each (nauty reads it afresh every call).

    Examples
    --------
    >>> nauty_certificates(3, [{0: [1], 1: [2]}, {0: [1, 2]}]) == [nauty_certificate_of(3, {0: [1], 1: [2]})] * 2
    True
    """
    import pynauty

    g = nauty_graph(b, {})
    out = []
    for adjacency in adjacencies:
        g.adjacency_dict = adjacency
        out.append(pynauty.certificate(g))
    return out


def _nauty_certificate(sub: np.ndarray) -> bytes:
    """:func:`wltools.iso.certificate` of the graph with boolean adjacency ``sub`` (at most
    :data:`~wltools.iso.NAUTY_MAX_NODES` nodes): the order as 8 big-endian bytes, then
    ``pynauty.certificate`` (the same bytes; the tests check it)."""
    b = sub.shape[0]
    rows, cols = sub.nonzero()
    bounds = rows.searchsorted(np.arange(b + 1)).tolist()
    cl = cols.tolist()
    adjacency = {i: cl[bounds[i]:bounds[i + 1]] for i in range(b)}
    return b.to_bytes(8, "big") + nauty_certificate_of(b, adjacency)


def ego_keys(G: nx.Graph, radius: int, cache: dict | None = None) -> list[tuple[int, int, bytes]]:
    """Per node ``v`` of ``G`` (nodes ``0..n-1``): ``(nodes, edges, certificate)`` of the ego
    network ``G[B_radius(v)]``, the centre unmarked (fast path). ``cache`` maps the bytes of a
    labelled ego network's adjacency matrix to its key (equal labelled graphs, equal keys); pass
    one dict for both graphs of a pair to share it.

    Examples
    --------
    >>> import networkx as nx
    >>> [k[:2] for k in ego_keys(nx.path_graph(4), 1)]
    [(2, 1), (3, 2), (3, 2), (2, 1)]
    """
    n = G.number_of_nodes()
    indptr, indices, deg = graph_csr(G)
    if n > DENSE_MAX:
        return [_sparse_key(G, ball) for ball in _balls(n, indptr, indices, radius)]
    A = np.zeros((n, n), dtype=bool)
    A[np.repeat(np.arange(n), deg), indices] = True
    if radius == 1:  # the closed neighbourhoods, sorted, as one flat array
        owner = np.concatenate([np.arange(n), np.repeat(np.arange(n), deg)])
        flat = np.concatenate([np.arange(n), indices])
        flat = flat[np.lexsort((flat, owner))]
        starts = np.concatenate([[0], np.cumsum(deg + 1)]).tolist()
        balls = [flat[starts[v]:starts[v + 1]] for v in range(n)]
    else:
        balls = [row.nonzero()[0] for row in reach_within(A, radius)]
    keys = []
    cache = {} if cache is None else cache
    for ball in balls:
        if ball.size > NAUTY_MAX_NODES:
            keys.append(_sparse_key(G, ball))
            continue
        sub = A[ball[:, None], ball]
        raw = sub.tobytes()  # b^2 bytes: the order is implied by the length
        key = cache.get(raw)
        if key is None:
            key = cache[raw] = (int(ball.size), int(sub.sum()) // 2, _nauty_certificate(sub))
        keys.append(key)
    return keys


def _sparse_key(G: nx.Graph, ball: np.ndarray) -> tuple[int, int, bytes]:
    """The key of one ball through networkx and :func:`wltools.iso.certificate` (large balls)."""
    S = nx.convert_node_labels_to_integers(G.subgraph(ball.tolist()))
    return (int(ball.size), S.number_of_edges(), certificate(S))


def ego_keys_reference(G: nx.Graph, radius: int) -> list[tuple[int, int, bytes]]:
    """:func:`ego_keys` the straightforward way: ``networkx.ego_graph`` and
    :func:`wltools.iso.certificate`, once per distinct ball (its nodes from networkx's
    breadth-first distances, as ``ego_graph`` finds them).

    Examples
    --------
    >>> import networkx as nx
    >>> ego_keys_reference(nx.cycle_graph(5), 2) == ego_keys(nx.cycle_graph(5), 2)
    True
    """
    keys = []
    seen: dict = {}  # nodes of a ball -> its key: equal balls induce the same graph (often the whole graph)
    for v in sorted(G.nodes):
        ball = frozenset(nx.single_source_shortest_path_length(G, v, cutoff=radius))
        if ball not in seen:
            S = nx.ego_graph(G, v, radius=radius)
            seen[ball] = (S.number_of_nodes(), S.number_of_edges(), certificate(S))  # relabels S itself
        keys.append(seen[ball])
    return keys


def describe_ego(radius: int):
    def text(key) -> str:
        b, m, cert = key
        digest = hashlib.sha256(cert).hexdigest()[:8]
        return f"nodes whose radius-{radius} ego network has {b} nodes and {m} edges (class {digest})"

    return text


def refine_ego(G: nx.Graph, H: nx.Graph, radius: int, test: str | None = None) -> RefinementResult:
    """N_radius on a pair of graphs of equal order on nodes ``0..n-1`` (fast, exact).

    Examples
    --------
    >>> import networkx as nx
    >>> refine_ego(nx.path_graph(4), nx.star_graph(3), 1).witness.split(": ")[1]
    'nodes whose radius-1 ego network has 3 nodes and 2 edges (class b778b7fa)'
    """
    check_pair(G, H)
    return refine(ego_declaration(G, H, radius, test))


def ego_declaration(G: nx.Graph, H: nx.Graph, radius: int, test: str | None = None) -> Declaration:
    """N_radius as a :class:`~wltools.refine.kernel.Declaration`: 1-WL from the isomorphism class
    of every node's ego network (:func:`~wltools.refine.seeded.keys_declaration`)."""
    test = test or f"n{radius}"
    cache: dict = {}  # shared by the two graphs: their ego networks often coincide as labelled graphs
    return keys_declaration(test, G, H, ego_keys(G, radius, cache), ego_keys(H, radius, cache), describe_ego(radius))


def refine_ego_reference(G: nx.Graph, H: nx.Graph, radius: int, test: str | None = None) -> RefinementResult:
    """N_radius the straightforward way (:func:`ego_keys_reference`, dict-based 1-WL).

    Examples
    --------
    >>> import networkx as nx
    >>> refine_ego_reference(nx.path_graph(4), nx.star_graph(3), 1).iteration
    0
    """
    check_pair(G, H)
    test = test or f"n{radius}"
    return refine_from_keys_reference(test, G, H, ego_keys_reference(G, radius), ego_keys_reference(H, radius))
