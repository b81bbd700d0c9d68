"""A 2-FWL (3-WL) round from the pairs ``u <= v``: the transpose of a pair, used.

2-FWL (:mod:`wltools.refine.fwl`) colours ordered pairs. Its colouring is *equivariant* under
swapping a pair's positions: the colour of ``(v, u)`` is a function of the colour of ``(u, v)``,
in both graphs alike. It holds at round 0 (the atomic type of ``(v, u)`` is that of ``(u, v)``
with its ends swapped, labels included; Grohe 2017, Sec. 3.5) and carries over a round: the key
of ``(v, u)``, ``(χ(v, u), {{(χ(v, w), χ(w, u)) : w}})``, is the key of ``(u, v)``,
``(χ(u, v), {{(χ(u, w), χ(w, v)) : w}})``, with the prefix mapped, each item ``(a, b)`` turned
into ``(τ(b), τ(a))`` for the map ``τ`` of the previous round. (The same observation for
triples is :mod:`wltools.refine.fwl3_symmetric`'s; Cai, Fürer & Immerman 1992, Sec. 5.)

So one round needs, exactly:

1. the keys of the pairs ``u <= v`` only (``n (n + 1) / 2`` of the ``n^2``), grouped exactly
   (:func:`~wltools.refine.kernel.grouped_ids`): their classes ``K``;
2. for one pair ``(u_K, v_K)`` of each class, the keys of ``(u_K, v_K)`` and ``(v_K, u_K)``,
   grouped exactly: the new colour of ``K`` and of its transpose;
3. every pair gets the colour of its class or of its class's transpose, and the colours are
   renumbered in order of first appearance over G's then H's pairs in row-major order, the order
   of the full round, so the two give the same ids (and the same witnesses).

Work: ``n^3 / 2`` items for the pairs ``u <= v`` and ``2 n`` a class, against ``n^3`` for the full
round: up to 2 times less while the classes are few against the pairs (CFI, strongly regular and
most of BREC's graphs); while they are many (a rigid graph's), :func:`worth_it` keeps the full
round, and a round whose classes turn out too many falls back to it.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .fwl3_symmetric import renumber_by_first_appearance
from .kernel import block_rows, grouped_ids

__all__ = ["symmetric_round", "worth_it"]


def worth_it(n: int, k: int) -> bool:
    """Whether the symmetric round pays from ``k`` colours on ``n`` nodes: its ``2`` rows a class
    (at least ``2 k``: a round never merges classes) stay within half the ``n^2`` pairs, so that it
    builds at most about three quarters of the full round's rows.

    Examples
    --------
    >>> worth_it(198, 5000), worth_it(10, 30), worth_it(1, 1)
    (True, False, False)
    """
    return n >= 2 and 4 * k <= n * n


def symmetric_round(n: int, max_bytes: int, fallback: Callable | None = None) -> Callable:
    """``step(cg, ch, k) -> (ids of all pairs of G then H, row_of)`` (module docstring): the same
    ids as 2-FWL's full round (:func:`wltools.refine.fwl.fwl2_next_colours`). ``fallback(cg, ch,
    k)``, optional, the full round, is taken instead of step 2 when the classes of the pairs
    ``u <= v`` are so many that their ``2`` rows each would pass the full round's ``n^2`` a graph.

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]])  # the path 0 - 1 - 2
    >>> ids, row_of = symmetric_round(3, 2**20)(C, C.copy(), 3)
    >>> ids[:9].reshape(3, 3).tolist(), row_of(1).tolist()
    ([[0, 1, 2], [3, 4, 3], [2, 1, 0]], [1, 1, 3, 7])
    """
    pu, pv = np.triu_indices(n)  # the pairs u <= v in row-major order
    R = pu.size

    def step(cg, ch, k):
        mats = (cg, ch)
        scaled = tuple(C * k for C in mats)  # [u, w] = C[u, w] k
        trans = tuple(np.ascontiguousarray(C.T) for C in mats)  # [v, w] = C[w, v]

        def rows_in(g, u, v):  # prefixes and sorted rows of the pairs (u[i], v[i]) of graph g
            r = scaled[g].take(u, axis=0)
            r += trans[g].take(v, axis=0)
            r.sort(axis=1)
            return mats[g][u, v], r

        def rows_of(graph, u, v):  # the same for pairs of either graph (graph[i])
            prefix = np.empty(graph.size, dtype=np.int64)
            out = np.empty((graph.size, n), dtype=np.int64)
            for g in (0, 1):
                sel = np.flatnonzero(graph == g)
                if sel.size:
                    prefix[sel], out[sel] = rows_in(g, u[sel], v[sel])
            return prefix, out

        ids1 = _upper_classes(rows_of, rows_in, max_bytes)
        first = np.flatnonzero(np.r_[True, np.diff(np.maximum.accumulate(ids1)) > 0])  # ids by first appearance
        if fallback is not None and 2 * first.size > n * n:
            del ids1
            return fallback(cg, ch, k)
        graph_of, rep = np.divmod(first, R)
        ends = np.stack([pu[rep], pv[rep]])  # [2, classes]: (u_K, v_K)

        def rows2(idx):  # idx = 2 K + s: the pair of class K, transposed when s = 1
            cls, s = np.divmod(idx, 2)
            return rows_of(graph_of[cls], ends[s, cls], ends[1 - s, cls])

        def blocks2():
            b = block_rows(n, 2, max_bytes)  # rows gathered, not sliced: twice the temporaries
            for lo in range(0, 2 * first.size, b):
                idx = np.arange(lo, min(2 * first.size, lo + b))
                yield (idx, *rows2(idx))

        table = grouped_ids(2 * first.size, rows2, blocks2, max_bytes, "2-FWL")[0].reshape(-1, 2)
        ids = np.empty(2 * n * n, dtype=np.int64)
        for g in (0, 1):
            cls, out = ids1[g * R:(g + 1) * R], ids[g * n * n:(g + 1) * n * n]
            out[pv * n + pu] = table[cls, 1]  # (v, u); on the diagonal overwritten next by the same id
            out[pu * n + pv] = table[cls, 0]
        renumber_by_first_appearance(ids, int(table.max()) + 1)

        def row_of(i):
            g, rest = divmod(int(i), n * n)
            prefix, r = rows_of(np.array([g]), *(np.array([c]) for c in divmod(rest, n)))
            return np.concatenate([prefix, r[0]])

        return ids, row_of

    def _upper_classes(rows_of, rows_in, max_bytes):
        """Exact classes of the pairs ``u <= v`` of G then H (ids in order of first appearance)."""

        def rows1(idx):
            g, r = np.divmod(idx, R)
            return rows_of(g, pu[r], pv[r])

        def blocks1():
            b = block_rows(n, 2, max_bytes)
            for g in (0, 1):
                for lo in range(0, R, b):
                    hi = min(R, lo + b)
                    yield (g * R + np.arange(lo, hi), *rows_in(g, pu[lo:hi], pv[lo:hi]))

        return grouped_ids(2 * R, rows1, blocks1, max_bytes, "2-FWL")[0]

    return step
