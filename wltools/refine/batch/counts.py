"""The S3 / S4 initial keys of every node of a union of many graphs, for
:mod:`wltools.refine.batch`: BREC's substructure-count baselines (Wang & Zhang, "Towards Better
Evaluation of GNN Expressiveness with BREC Dataset", Sec. 5, Table 2; ``Non-GNNs/utils.py``),
1-WL started from every node's counts of the connected induced ``k``-node subgraphs through it
(:mod:`wltools.refine.substructure`).

The 3-node counts of the whole union at once, by the same formulas as for one graph
(:func:`~wltools.refine.substructure.counts3` on the union's CSR), with the triangles of every
node from neighbourhood bitsets (:func:`union_triangles`); the 4-node counts graph by
graph (the union's enumeration arrays would be far larger than any graph's). Keys numbered in
sorted order over the union (:func:`~wltools.refine.seeded.shared_ids`).

Examples
--------
The keys of a path and a star on 4 nodes, node by node, are their own 4-node counts:

>>> import networkx as nx
>>> from wltools.refine.batch.union import union_of
>>> from wltools.refine.substructure import substructure_counts as counts
>>> G, H = nx.path_graph(4), nx.star_graph(3)
>>> ids, table, _ = union_counts_keys(4)(union_of([(G, H)])[0], [G, H])
>>> [tuple(table[i]) for i in ids.tolist()] == [tuple(c) for c in [*counts(G, 4), *counts(H, 4)]]
True
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .union import Union

__all__ = ["union_counts_keys", "union_triangles"]


def union_counts_keys(k: int) -> Callable:
    """``initial(u, graphs) -> (ids, table, describe_key)`` of the ``k``-node counts (``k`` 3 or 4)
    of the union ``u`` of ``graphs`` (G_0, H_0, G_1, ...), for
    :func:`~wltools.refine.batch.keyed.keyed_results` (module docstring)."""

    def initial(u: Union, graphs: list) -> tuple[np.ndarray, list, Callable]:
        from ..seeded import shared_ids
        from ..substructure import counts3, counts4, describe_counts

        if k == 3:
            counts = counts3(None, (u.indptr, u.indices, u.deg), tri=union_triangles(u))
        else:  # graph by graph: the union's enumeration arrays would be far larger than any graph's
            counts = np.concatenate([counts4(X) for X in graphs])
        ids, _, table = shared_ids(counts, counts[:0])
        return ids, table, describe_counts(k)

    return initial


_BIT = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))  # the 64 one-bit words
_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 (``np.bitwise_count`` from numpy 2, else a byte table), as small
    non-negative integers."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x)
    return _BYTE_BITS[x.view(np.uint8)].reshape(-1, 8).sum(axis=1)


#: Graphs of at most ``64 * WORDS`` nodes get their triangles from neighbourhood bitsets (at most
#: ``WORDS`` 64-bit words a node), larger ones from scipy's sparse product. On BREC's 400 pairs
#: (graphs of 10 to 198 nodes, so 4 words), in runs over all of them: about 7 ms against 8.5 ms
#: with one word (graphs of more than 64 nodes, 12,548 of the 27,804 nodes, then took the sparse
#: product).
WORDS = 16

#: :func:`union_triangles` sets and ANDs the bitsets of this many slots at a time: small
#: temporaries, reused (arrays of every slot's words at once: 14 ms against 7 ms in runs over all
#: 400 BREC pairs, most of the difference the operating system mapping fresh pages).
BLOCK = 2**15


def union_triangles(u: Union) -> np.ndarray:
    """Triangles through every node of the union: in graphs of at most ``64 * WORDS`` nodes from
    bitsets of the neighbourhoods (word ``j`` of a node: its neighbours ``64 j .. 64 j + 63``; the
    common neighbours of the two ends of each edge are the set bits of their ANDs), in larger
    graphs by scipy's sparse product (:func:`wltools.refine.substructure._triangles`), each node
    half its edges' common neighbours.

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.refine.batch.union import union_of
    >>> big = nx.disjoint_union(nx.complete_graph(4), nx.cycle_graph(62))  # 66 nodes: two words
    >>> tri = union_triangles(union_of([(nx.complete_graph(4), nx.complete_graph(4)), (big, big)])[0])
    >>> tri[:8].tolist(), tri[8:12].tolist(), int(tri[12:].sum())
    ([3, 3, 3, 3, 3, 3, 3, 3], [3, 3, 3, 3], 12)
    """
    from ..substructure import triangles_per_node as _triangles

    sizes = np.diff(u.gstart)
    fits = sizes <= 64 * WORDS
    word = np.repeat(fits, sizes)  # nodes of graphs with bitsets
    slots = word[u.owner]
    keep = slice(None) if slots.all() else np.flatnonzero(slots)
    W = -(-int(sizes[fits].max(initial=1)) // 64)
    bits = np.zeros((W, u.nodes), dtype=np.uint64)  # stays 0 in larger graphs: their ANDs below are 0
    local, owner = u.local[keep], u.owner[keep]
    for a in range(0, local.size, BLOCK):  # bit v % 64 of word v // 64 of w, for each neighbour v of w
        v = local[a:a + BLOCK]
        np.bitwise_or.at(bits.reshape(-1), (v >> 6) * u.nodes + owner[a:a + BLOCK], _BIT[v & 63])
    common = np.zeros(u.indices.size + 1, dtype=np.int64)
    for a in range(0, u.indices.size, BLOCK):  # common[1 + s]: the common neighbours of the ends of slot s
        o, i, c = u.owner[a:a + BLOCK], u.indices[a:a + BLOCK], common[1 + a:1 + a + BLOCK]
        for row in bits:
            c += _popcount(row[o] & row[i])
    np.cumsum(common, out=common)
    tri = (common[u.indptr[1:]] - common[u.indptr[:-1]]) // 2  # per node: half its edges' common neighbours
    if not slots.all():  # the other graphs: their edges only, through the sparse product
        indptr = np.zeros(u.nodes + 1, dtype=np.int64)
        np.cumsum(np.where(word, 0, u.deg), out=indptr[1:])
        tri += _triangles(u.nodes, indptr, u.indices[~slots], None, None)
    return tri
