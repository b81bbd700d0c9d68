"""1-WL colour refinement started from a given exact initial colouring of the nodes.

The substructure and ego-network baselines of BREC (:mod:`wltools.refine.substructure`,
:mod:`wltools.refine.ego`) are 1-WL runs whose round-0 colours are not all equal but an exact
per-node invariant (subgraph counts, the isomorphism class of an ego network): BREC's
``Non-GNNs/utils.py`` ``WL_1_hash`` computes the invariant, then refines with the usual update

.. math::

    \\chi^{t+1}(v) = \\mathrm{hash}\\big(\\chi^t(v), \\{\\{\\chi^t(u) : u \\in N(v)\\}\\}\\big)

until the partition of the graph is stable, and compares the two graphs' colour histograms. Here
the two graphs of a pair are refined together with one colour table (:mod:`wltools.refine.engine`),
so "the histograms differ at some round" is exactly BREC's verdict without its string hashes.

Initial keys are any hashable, orderable exact objects (tuples of ints, bytes); they are numbered
in sorted order over both graphs, so the numbering is one shared table and deterministic.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Callable, Sequence

import networkx as nx
import numpy as np

from ..errors import UnsupportedGraphError
from ..graphs import check_simple
from .engine import RefinementResult, multiset_text, run_reference
from .kernel import Aggregate, Declaration, interned_ids, refine, stacked_ids

__all__ = ["refine_from_keys", "keys_declaration", "neighbour_aggregate", "refine_from_keys_reference", "shared_ids", "neighbour_table", "graph_csr",
           "check_pair"]


def check_pair(G: nx.Graph, H: nx.Graph) -> None:
    """Refuse (:class:`~wltools.errors.UnsupportedGraphError`) a directed graph, a multigraph, a
    self-loop or nodes other than ``0..n-1`` in either graph.

    Examples
    --------
    >>> import networkx as nx
    >>> check_pair(nx.path_graph(2), nx.Graph([(0, 0), (0, 1)]))
    Traceback (most recent call last):
    ...
    wltools.errors.UnsupportedGraphError: H has 1 self-loop(s)
    """
    check_simple(G, "G", error=UnsupportedGraphError, allow_empty=True)
    check_simple(H, "H", error=UnsupportedGraphError, allow_empty=True)


def shared_ids(keys_g: Sequence, keys_h: Sequence) -> tuple[np.ndarray, np.ndarray, list]:
    """Number the keys of both graphs from one table (sorted keys ``-> 0..k-1``).

    Returns the ids of G's nodes, of H's nodes, and the sorted distinct keys (id ``i`` is key
    ``table[i]``).

    Examples
    --------
    >>> g, h, table = shared_ids([(1, 0), (0, 2)], [(0, 2), (0, 2)])
    >>> g.tolist(), h.tolist(), table
    ([1, 0], [0, 0], [(0, 2), (1, 0)])
    >>> [x.tolist() for x in shared_ids(np.array([[1, 0], [0, 2]]), np.array([[0, 2], [0, 2]]))[:2]]
    [[1, 0], [0, 0]]
    """
    if isinstance(keys_g, np.ndarray):  # rows of non-negative integers
        X = np.concatenate([keys_g, keys_h])
        span = X.max(axis=0, initial=0) + 1 if X.size else np.ones(X.shape[1], dtype=np.int64)
        if X.size and float(np.prod(span.astype(np.float64))) < 2**62:  # one mixed-radix integer a row
            code = X[:, 0].copy()
            for j in range(1, X.shape[1]):
                code = code * span[j] + X[:, j]
            codes, first, inv = np.unique(code, return_index=True, return_inverse=True)
            rows = X[first]  # in the order of the codes: lexicographic, as np.unique(axis=0)
        else:
            rows, inv = np.unique(X, axis=0, return_inverse=True)
        inv = inv.reshape(-1)
        return inv[: len(keys_g)], inv[len(keys_g):], list(map(tuple, rows.tolist()))
    table = sorted(set(keys_g) | set(keys_h))
    index = {k: i for i, k in enumerate(table)}
    ig = np.fromiter((index[k] for k in keys_g), dtype=np.int64, count=len(keys_g))
    ih = np.fromiter((index[k] for k in keys_h), dtype=np.int64, count=len(keys_h))
    return ig, ih, table


def graph_csr(G: nx.Graph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indptr, indices, degrees)`` (int64) of a graph on nodes ``0..n-1``, read straight from
    its adjacency dicts (C-level iteration when the dict order is ``0..n-1``, as it is for graphs
    built in node order); the neighbours of ``v`` are ``indices[indptr[v]:indptr[v + 1]]``.

    Examples
    --------
    >>> import networkx as nx
    >>> [a.tolist() for a in graph_csr(nx.path_graph(3))]
    [[0, 1, 3, 4], [1, 0, 2, 1], [1, 2, 1]]
    """
    n = G.number_of_nodes()
    adj = dict(G.adjacency())  # networkx's public view of its adjacency dicts
    if list(adj) == list(range(n)):
        deg = np.fromiter(map(len, adj.values()), dtype=np.int64, count=n)
        flat = chain.from_iterable(adj.values())
    else:
        deg = np.fromiter((len(adj[v]) for v in range(n)), dtype=np.int64, count=n)
        flat = chain.from_iterable(adj[v] for v in range(n))
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(deg, out=indptr[1:])
    indices = np.fromiter(flat, dtype=np.int64, count=int(indptr[-1]))
    return indptr, indices, deg


def neighbour_table(G: nx.Graph, offset: int = 0, width: int | None = None, pad: int = -1,
                    csr: tuple | None = None) -> np.ndarray:
    """The neighbours of nodes ``0..n-1`` as rows of an ``[n, width]`` int64 matrix (shifted by
    ``offset``), padded with ``pad``; ``width`` defaults to the largest degree. ``csr``: the
    graph's :func:`graph_csr`, if already computed.

    Examples
    --------
    >>> import networkx as nx
    >>> neighbour_table(nx.path_graph(3)).tolist()
    [[1, -1], [0, 2], [1, -1]]
    """
    indptr, indices, degrees = csr if csr is not None else graph_csr(G)
    n = degrees.size
    d = int(degrees.max(initial=0)) if width is None else width
    out = np.full((n, max(d, 1)), pad, dtype=np.int64)
    total = indices.size
    if total:
        rows = np.repeat(np.arange(n), degrees)
        cols = np.arange(total) - indptr[rows]
        out[rows, cols] = indices + offset
    return out


def refine_from_keys(
    test: str,
    G: nx.Graph,
    H: nx.Graph,
    keys_g: Sequence,
    keys_h: Sequence,
    describe_key: Callable[[object], str],
    csr_g: tuple | None = None,
    csr_h: tuple | None = None,
) -> RefinementResult:
    """1-WL on the pair ``(G, H)`` (nodes ``0..n-1``, equal orders) from the initial colours
    ``keys_g[v]`` / ``keys_h[v]``, fast and exact (:func:`~wltools.refine.kernel.refine`
    over padded neighbour matrices; rows grouped by the verified hash of
    :func:`~wltools.runtime.hashing.unique_rows`).

    ``describe_key(key)`` renders an initial colour class for the witness of a difference at
    iteration 0 (e.g. ``"nodes in 2 triangles and 1 induced 3-path"``). Keys are hashable
    orderable objects, or the rows of an int matrix ``[n, c]``; ``csr_g`` / ``csr_h`` are the
    graphs' :func:`graph_csr` if the caller has them.

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_from_keys("deg", nx.path_graph(3), nx.cycle_graph(3), [1, 2, 1], [2, 2, 2],
    ...                      lambda k: f"nodes of degree {k}")
    >>> r.distinguished, r.iteration, r.witness
    (True, 0, 'iteration 0: nodes of degree 1: 2 in G, 0 in H; nodes of degree 2: 1 in G, 3 in H')
    """
    return refine(keys_declaration(test, G, H, keys_g, keys_h, describe_key, csr_g, csr_h))


def keys_declaration(test: str, G: nx.Graph, H: nx.Graph, keys_g: Sequence, keys_h: Sequence,
                     describe_key: Callable[[object], str], csr_g: tuple | None = None,
                     csr_h: tuple | None = None) -> Declaration:
    """1-WL from initial keys as a :class:`~wltools.refine.kernel.Declaration` (arguments of
    :func:`refine_from_keys`): it colours nodes, starts from the keys' ids in one sorted table and
    aggregates the neighbours' colours."""
    n = G.number_of_nodes()
    init_g, init_h, table = shared_ids(keys_g, keys_h)
    csr_g = csr_g if csr_g is not None else graph_csr(G)
    csr_h = csr_h if csr_h is not None else graph_csr(H)
    if 2 * n <= SMALL_PAIR:
        aggregate = _small_round(n, csr_g, csr_h)
    else:  # neighbours of G's nodes as 0..n-1, of H's as n..2n-1; padding points at slot 2n (colour -1)
        width = int(max(csr_g[2].max(initial=0), csr_h[2].max(initial=0)))
        aggregate = neighbour_aggregate(np.concatenate([neighbour_table(G, 0, width, 2 * n, csr_g),
                                                        neighbour_table(H, n, width, 2 * n, csr_h)]))

    def describe(t, c, row, k):
        if row is None:
            return describe_key(table[c])
        items = Counter(int(x) for x in row[1:] if x >= 0)
        if t == 1:  # round-0 colours are initial keys: show them
            return (describe_key(table[int(row[0])]) + ", whose neighbours' initial colours are "
                    + multiset_text(items, lambda i: str(table[i])))
        return (f"nodes of colour {int(row[0])} (round {t - 1}) whose neighbour colours are "
                + multiset_text(items, str))

    return Declaration(test, (init_g, init_h), aggregate, describe)


#: Pairs of at most this many nodes in all build their keys as Python tuples and number them by a
#: dict (:func:`~wltools.refine.kernel.interned_ids`): below it that is faster than numpy calls.
SMALL_PAIR = 48


def neighbour_aggregate(nb: np.ndarray) -> Aggregate:
    """The 1-WL round over the padded neighbour matrix ``nb`` of all elements of G then H
    (padding: one past the last element, read as colour ``-1``): the ids of the rows ``[colour,
    sorted neighbour colours]`` (:func:`~wltools.refine.kernel.stacked_ids`).

    Examples
    --------
    >>> import numpy as np
    >>> nb = np.array([[1, 3], [0, 3], [3, 3]])  # G: nodes 0 - 1, H: node 2 alone; padding 3
    >>> ids, _ = neighbour_aggregate(nb)(np.array([0, 0]), np.array([0]), 1)
    >>> bool(ids[0] == ids[1] != ids[2])
    True
    """

    def aggregate(cg, ch, k):
        ext = np.concatenate([cg.reshape(-1), ch.reshape(-1), np.array([-1], dtype=np.int64)])
        items = ext[nb]
        items.sort(axis=1)
        return stacked_ids(np.concatenate([ext[:-1, None], items], axis=1))

    return aggregate


def _small_round(n: int, csr_g: tuple, csr_h: tuple):
    """The 1-WL round of small pairs: keys ``(colour, sorted neighbour colours...)`` as tuples."""
    nbrs = [csr_g[1][csr_g[0][v]:csr_g[0][v + 1]].tolist() for v in range(n)]
    nbrs += [[u + n for u in csr_h[1][csr_h[0][v]:csr_h[0][v + 1]].tolist()] for v in range(n)]

    def aggregate(cg, ch, k):
        col = cg.tolist() + ch.tolist()
        return interned_ids([(col[v], *sorted([col[u] for u in nbrs[v]])) for v in range(2 * n)])

    return aggregate


def refine_from_keys_reference(
    test: str, G: nx.Graph, H: nx.Graph, keys_g: Sequence, keys_h: Sequence
) -> RefinementResult:
    """The straightforward exact 1-WL from initial keys (dicts of sorted tuples,
    :func:`~wltools.refine.engine.run_reference`), for cross-checking :func:`refine_from_keys`.

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_from_keys_reference("deg", nx.path_graph(3), nx.cycle_graph(3), [1, 2, 1], [2, 2, 2])
    >>> r.distinguished, r.iteration
    (True, 0)
    """
    graphs, keys = (G, H), (keys_g, keys_h)

    def sig(g, v, cols):
        c = cols[g]
        return (c[v], tuple(sorted(c[u] for u in graphs[g][v])))

    return run_reference(test, list(G.nodes), list(H.nodes), lambda g, v: keys[g][v], sig)
