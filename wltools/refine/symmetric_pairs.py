"""A round over ordered pairs from the pairs ``u <= v``: the transpose of a pair, used.

2-FWL (3-WL, :mod:`wltools.refine.fwl`) colours ordered pairs, and so do SSWL and SLFWL(2)
(:mod:`wltools.refine.swl`). Their colourings are *equivariant* under swapping a pair's positions:
the colour of ``(v, u)`` is a function of the colour of ``(u, v)``, in both graphs alike, as long
as the initial colouring is (2-FWL's and SLFWL(2)'s atomic types, labels included, Grohe 2017,
Sec. 3.5; SSWL's node mark without node labels). It carries over a round: the key of ``(v, u)``
is the key of ``(u, v)`` with every colour mapped by the previous round's map ``τ`` and its parts
swapped: 2-FWL's ``(χ(v, u), {{(χ(v, w), χ(w, u)) : w}})`` from ``(χ(u, v), {{(χ(u, w), χ(w, v))
: w}})``, each item ``(a, b)`` turned into ``(τ(b), τ(a))`` (SLFWL(2) alike over ``w`` in
``N^1(u) | N^1(v)``, symmetric in ``u`` and ``v``); SSWL's two multisets ``{{χ(u, w) : w in
N(v)}}`` and ``{{χ(w, v) : w in N(u)}}`` swapped and mapped. (The same observation for triples
is :mod:`wltools.refine.fwl3_symmetric`'s; Cai, Fürer & Immerman 1992, Sec. 5.)

So one round needs, exactly:

1. the keys of the pairs ``u <= v`` only (``n (n + 1) / 2`` of the ``n^2``), grouped exactly
   (:func:`~wltools.refine.kernel.grouped_ids`): their classes ``K``;
2. for one pair ``(u_K, v_K)`` of each class, the keys of ``(u_K, v_K)`` and ``(v_K, u_K)``,
   grouped exactly: the new colour of ``K`` and of its transpose;
3. every pair gets the colour of its class or of its class's transpose, and the colours are
   numbered as the full round numbers them (:func:`~wltools.refine.kernel.blocked`): in order of
   first appearance over G's then H's pairs in row-major order, or, for a round the kernel groups
   at once, in the order of the rows' hashes (:func:`~wltools.refine.kernel.prefixed_ids`; where
   two distinct rows share a hash the full round is taken, as it would retry), so the two give
   the same ids (and the same witnesses).

Work (2-FWL): ``n^3 / 2`` items for the pairs ``u <= v`` and ``2 n`` a class, against ``n^3`` for
the full round: up to 2 times less while the classes are few against the pairs (CFI, strongly
regular and most of BREC's graphs); while they are many (a rigid graph's), :func:`worth_it` keeps
the full round, and a round whose classes turn out too many falls back to it. Measured on all 400
BREC pairs against the full round in the same run: 3-WL 1.40x, SSWL 1.28x, SLFWL(2) 1.36x less CPU
(``benchmarks/results/symmetric_pairs_*.json``, ``benchmarks/symmetric_pairs_bench.py``).
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from .fwl3_symmetric import renumber_by_first_appearance
from ..runtime.hashing import exact_ids, key_hashes
from .kernel import block_rows, grouped_at_once, grouped_ids

__all__ = ["symmetric_round", "worth_it", "equivariant", "fwl2_rows", "upper_pairs"]


@functools.lru_cache(maxsize=8)
def upper_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``u <= v`` of ``n`` nodes in row-major order (``np.triu_indices(n)``, read-only),
    the same arrays for every call: a round's block of all of them passes them to ``rows_in``
    themselves, so that a test recognising them (``u is upper_pairs(n)[0]``) may build those rows
    from whole matrices (:func:`wltools.refine.swl`'s rows).

    Examples
    --------
    >>> [a.tolist() for a in upper_pairs(3)]
    [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]
    """
    pu, pv = np.triu_indices(n)
    pu.flags.writeable = pv.flags.writeable = False
    return pu, pv


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


def equivariant(cg: np.ndarray, ch: np.ndarray) -> bool:
    """Whether the colour of ``(v, u)`` is a function of the colour of ``(u, v)`` over the pairs
    of both colour matrices (the condition on the initial colouring in the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> eye = np.eye(3, dtype=np.int64)
    >>> labelled = eye * 2 + np.array([0, 1, 1])  # mark * 2 + label of v: (0, 1) and (1, 2) alike, not their transposes
    >>> equivariant(eye, eye), equivariant(labelled, labelled)
    (True, False)
    """
    a = np.concatenate([cg.reshape(-1), ch.reshape(-1)])
    b = np.concatenate([cg.T.reshape(-1), ch.T.reshape(-1)])
    m = int(max(a.max(initial=0), b.max(initial=0))) + 1
    return np.unique(a * m + b).size == np.unique(a).size


def symmetric_round(n: int, max_bytes: int, fallback: Callable | None = None, *, rows: Callable | None = None,
                    width: Callable | None = None, hash_order: Callable | None = None,
                    what: str = "2-FWL") -> Callable:
    """``step(cg, ch, k) -> (ids of all pairs of G then H, row_of)`` (module docstring): the same
    ids as the full round. ``fallback(cg, ch, k)``, optional, the full round, is taken instead of
    step 2 when the classes of the pairs ``u <= v`` are so many that their ``2`` rows each would
    pass the full round's ``n^2`` a graph. ``rows(cg, ch, k)`` gives the round's
    ``rows_in(g, u, v) -> (prefixes, sorted rows)`` of graph ``g``'s pairs ``(u[i], v[i])``, of
    ``width(k)`` items (default: 2-FWL's, :func:`fwl2_rows`, width ``n``). ``hash_order(k)``: the
    full round numbers its colours by row hash (needs ``fallback``), else by first appearance.
    ``what``: the test's name in a message about a hash collision that no retry resolved.

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]])  # the path 0 - 1 - 2
    >>> ids, row_of = symmetric_round(3, 2**20)(C, C.copy(), 3)
    >>> ids[:9].reshape(3, 3).tolist(), row_of(1).tolist()
    ([[0, 1, 2], [3, 4, 3], [2, 1, 0]], [1, 1, 3, 7])
    """
    pu, pv = upper_pairs(n)  # the pairs u <= v in row-major order
    R = pu.size

    def step(cg, ch, k):
        rows_in = (rows or fwl2_rows)(cg, ch, k)
        w = n if width is None else width(k)

        def rows_of(graph, u, v):  # the same for pairs of either graph (graph[i])
            prefix = np.empty(graph.size, dtype=np.int64)
            out = np.empty((graph.size, w), dtype=np.int64)
            for g in (0, 1):
                sel = np.flatnonzero(graph == g)
                if sel.size:
                    prefix[sel], out[sel] = rows_in(g, u[sel], v[sel])
            return prefix, out

        ids1 = _upper_classes(rows_of, rows_in, w, max_bytes)
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
            b = block_rows(w, 2, max_bytes)  # rows gathered, not sliced: twice the temporaries
            for lo in range(0, 2 * first.size, b):
                idx = np.arange(lo, min(2 * first.size, lo + b))
                yield (idx, *rows2(idx))

        table = _ids(2 * first.size, w, rows2, blocks2, max_bytes, what).reshape(-1, 2)
        ids = np.empty(2 * n * n, dtype=np.int64)
        for g in (0, 1):
            cls, out = ids1[g * R:(g + 1) * R], ids[g * n * n:(g + 1) * n * n]
            out[pv * n + pu] = table[cls, 1]  # (v, u); on the diagonal overwritten next by the same id
            out[pu * n + pv] = table[cls, 0]
        if hash_order is not None and hash_order(k):
            order = _hash_ranks(table, rows2)
            if order is None:  # two distinct rows share a hash: the full round retries, so take it
                return fallback(cg, ch, k)
            np.take(order, ids, out=ids)
        else:
            renumber_by_first_appearance(ids, int(table.max()) + 1)

        def row_of(i):
            g, rest = divmod(int(i), n * n)
            prefix, r = rows_of(np.array([g]), *(np.array([c]) for c in divmod(rest, n)))
            return np.concatenate([prefix, r[0]])

        return ids, row_of

    def _upper_classes(rows_of, rows_in, w, max_bytes):
        """Exact classes of the pairs ``u <= v`` of G then H (ids in order of first appearance)."""

        def rows1(idx):
            g, r = np.divmod(idx, R)
            return rows_of(g, pu[r], pv[r])

        def blocks1():
            b = block_rows(w, 2, max_bytes)
            for g in (0, 1):
                for lo in range(0, R, b):
                    hi = min(R, lo + b)
                    whole = lo == 0 and hi == R  # then upper_pairs(n) itself, which rows_in may recognise
                    yield (g * R + np.arange(lo, hi), *rows_in(g, *((pu, pv) if whole else (pu[lo:hi], pv[lo:hi]))))

        return _ids(2 * R, w, rows1, blocks1, max_bytes, what)

    return step


def _ids(total: int, w: int, rows: Callable, blocks: Callable, max_bytes: int, what: str) -> np.ndarray:
    """Exact ids, in order of first appearance, of the ``total`` rows of ``blocks()``: all at once
    (:func:`~wltools.runtime.hashing.exact_ids`) when they fit one block, else block by block
    (:func:`~wltools.refine.kernel.grouped_ids`)."""
    if not grouped_at_once(total, w, max_bytes):
        return grouped_ids(total, rows, blocks, max_bytes, what)[0]
    parts = list(blocks())
    prefix = np.concatenate([p for _, p, _ in parts])
    return exact_ids(np.concatenate([r for _, _, r in parts]), prefix, order="first", what=what)


def fwl2_rows(cg: np.ndarray, ch: np.ndarray, k: int) -> Callable:
    """2-FWL's ``rows_in(g, u, v)``: prefixes ``C[u, v]`` and the sorted rows ``C[u, w] k + C[w, v]``
    over ``w`` of the pairs ``(u[i], v[i])`` of graph ``g``."""
    mats = (cg, ch)
    scaled = tuple(C * k for C in mats)  # [u, w] = C[u, w] k
    trans = tuple(np.ascontiguousarray(C.T) for C in mats)  # [v, w] = C[w, v]

    def rows_in(g, u, v):
        r = scaled[g].take(u, axis=0)
        r += trans[g].take(v, axis=0)
        r.sort(axis=1)
        return mats[g][u, v], r

    return rows_in


def _hash_ranks(table: np.ndarray, rows2: Callable) -> np.ndarray | None:
    """The full round's hash-order ids (:func:`~wltools.refine.kernel.prefixed_ids`) of the colours
    ``0..m-1`` in ``table``: the rank of each colour's row hash (salt 0) among those of the ``m``
    distinct rows; None when two of them share a hash (the full round would then retry)."""
    m = int(table.max()) + 1
    flat = table.reshape(-1)
    first = np.full(m, flat.size, dtype=np.int64)
    np.minimum.at(first, flat, np.arange(flat.size))  # a row index (2 K + s) of each colour
    prefix, r = rows2(first)
    h = prefix if r.shape[1] == 0 else key_hashes(r, prefix, 0)  # rows of no items: by prefix, as the kernel
    if np.unique(h).size < m:
        return None
    rank = np.empty(m, dtype=np.int64)
    rank[np.argsort(h, kind="stable")] = np.arange(m)
    return rank
