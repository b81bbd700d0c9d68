"""A 3-FWL round from the sorted triples: the position permutations of a triple, used.

3-FWL (:mod:`wltools.refine.fwl3`) colours ordered triples. Its colouring is *equivariant* under
permuting a triple's positions: for ``π`` in ``S_3`` and ``t∘π = (t[π(0)], t[π(1)], t[π(2)])``, the
colour of ``t∘π`` is a function of the colour of ``t`` and of ``π``, in both graphs alike. It holds
at round 0 (the atomic type of ``t∘π`` is that of ``t`` with its pairs permuted, labels included;
Grohe 2017, Sec. 3.5) and carries over a round: ``(t∘π)[i/w] = t[π(i)/w]∘π``, so the key
``(χ(t∘π), {{(χ((t∘π)[i/w]))_i : w}})`` of ``t∘π`` is the key of ``t`` with the entries of each item
permuted by ``π`` and every colour mapped by ``π``, a function of ``t``'s key. (Cai, Fürer &
Immerman 1992, Sec. 5, define the k-dim W-L method on ordered tuples; the invariance of its
partition under permuting positions is the standard observation that lets implementations
store one tuple per orbit.)

So one round needs, exactly:

1. the keys of the **sorted triples** ``u <= v <= x`` only (``n (n + 1) (n + 2) / 6`` of the ``n^3``),
   grouped exactly (:func:`~wltools.refine.kernel.grouped_ids`): their classes ``K``;
2. for one triple ``t_K`` of each class and each of the 6 permutations ``π``, the key of ``t_K∘π``,
   grouped exactly: the new colour of ``(K, π)``;
3. every triple ``s = t∘π`` (``t`` sorted) then gets the colour of ``(class of t, π)``, and the
   colours are renumbered in order of first appearance over G's then H's triples in row-major
   order, the order of the full round, so the two give the same ids (and the same witnesses).

Work: the sorted triples' rows (``n^4 / 6`` items) and ``6`` rows per class, against ``n^4`` items
for the full round. BREC's CFI graphs have few classes against their triples (8,017 on the
198-vertex pair against 1.3 million sorted triples), so the round does up to 6 times less work
(measured: 4.1-4.5x less CPU time on BREC's four largest CFI pairs, ``benchmarks/results/fwl3_largest.json``);
while the classes are many (a rigid graph's), :func:`worth_it` keeps the full round.
"""

from __future__ import annotations

import itertools
from typing import Callable

import numpy as np

from .kernel import block_rows, grouped_ids

__all__ = ["symmetric_round", "worth_it", "sorted_triples", "PERMUTATIONS", "renumber_by_first_appearance"]

#: The permutations of a triple's three positions, the identity first.
PERMUTATIONS = np.array(list(itertools.permutations(range(3))), dtype=np.int64)


def worth_it(n: int, k: int) -> bool:
    """Whether the symmetric round pays from ``k`` colours on ``n`` nodes: its ``6`` rows a class
    (about ``6 k``) stay within twice the sorted triples of the two graphs (``n (n + 1) (n + 2) / 3``),
    so that it builds at most half the rows of the full round (measured on BREC's CFI pair 330,
    112 vertices: 2.3-2.9 s against 7.3-7.6 s a round with 49,000-69,000 classes).

    Examples
    --------
    >>> worth_it(198, 8017), worth_it(10, 200), worth_it(2, 1)
    (True, False, False)
    """
    return n >= 3 and 9 * k <= n * (n + 1) * (n + 2)


def sorted_triples(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The triples ``u <= v <= x`` in row-major order as ``(U, V, X)``, with the pairs ``v <= x``
    (``pv, px``, ``np.triu_indices`` order) and ``start[u]``, the first pair with ``v = u``: the
    triples of first node ``u`` are ``(u, pv[j], px[j])`` for ``j >= start[u]``.

    Examples
    --------
    >>> U, V, X, start, _ = sorted_triples(3)
    >>> list(zip(U.tolist(), V.tolist(), X.tolist()))[:4], len(U), start.tolist()
    ([(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 1)], 10, [0, 3, 5, 6])
    """
    pv, px = np.triu_indices(n)
    start = np.concatenate([[0], np.cumsum(n - np.arange(n))]).astype(np.int64)
    pairs = np.concatenate([np.arange(start[u], pv.size) for u in range(n)]) if n else np.zeros(0, np.int64)
    U = np.repeat(np.arange(n), pv.size - start[:n])
    return U, pv[pairs], px[pairs], start, np.stack([pv, px])


def symmetric_round(n: int, rows_at: Callable, items: Callable, scales: Callable, width: Callable,
                    max_bytes: int, fallback: Callable | None = None) -> Callable:
    """``step(cg, ch, k) -> (ids of all triples of G then H, row_of)`` (module docstring), the
    same ids as the full round. ``rows_at(g, C, k, u, v, x)``: prefixes and sorted rows of the
    triples at those coordinates; ``items(T1, B2, B3, k)``: sorted rows from the three colour
    terms (the first two scaled by ``scales(k)``); ``width(k)``: the width of a row.
    ``fallback(cg, ch, k)``, optional, the full round, is taken instead of step 2 when the sorted
    triples fall into so many classes that their ``6`` rows each pass half the full round's
    ``2 n^3`` (time and memory then stay within the full round's)."""
    U, V, X, start, (pv, px) = sorted_triples(n)
    R = U.size

    def step(cg, ch, k):
        mats = (cg, ch)
        w = width(k)
        b = block_rows(w, 1, max_bytes)
        ids1 = _sorted_classes(mats, k, b, w)
        b2 = block_rows(w, 2, max_bytes)  # rows gathered one by one: twice the temporaries of a slab
        first = np.flatnonzero(np.r_[True, np.diff(np.maximum.accumulate(ids1)) > 0])  # ids by first appearance
        if fallback is not None and 6 * first.size > n**3:
            del ids1
            return fallback(cg, ch, k)
        graph_of, rep = np.divmod(first, R)
        coords = np.stack([U[rep], V[rep], X[rep]])  # [3, classes]: t_K

        def rows2(idx):  # key of t_K∘π for K, π = divmod(idx, 6)
            cls, p = np.divmod(idx, 6)
            return _rows_of(mats, k, w, graph_of[cls], *(coords[PERMUTATIONS[p, i], cls] for i in range(3)))

        def blocks2():
            for lo in range(0, 6 * first.size, b2):
                idx = np.arange(lo, min(6 * first.size, lo + b2))
                yield (idx, *rows2(idx))

        table = grouped_ids(6 * first.size, rows2, blocks2, max_bytes, "3-FWL")[0].reshape(-1, 6)
        ids = np.empty(2 * n**3, dtype=np.int64)
        for g in (0, 1):
            _spread(table, ids1[g * R:(g + 1) * R], ids[g * n**3:(g + 1) * n**3])
        renumber_by_first_appearance(ids, int(table.max()) + 1)

        def row_of(i):
            g, rest = divmod(int(i), n**3)
            prefix, r = _rows_of(mats, k, w, np.array([g]), *(np.array([c]) for c in np.unravel_index(rest, (n,) * 3)))
            return np.concatenate([prefix, r[0]])

        return ids, row_of

    def _rows_of(mats, k, w, graph, u, v, x):
        prefix = np.empty(graph.size, dtype=np.int64)
        out = np.empty((graph.size, w), dtype=np.int64)
        for g in (0, 1):
            sel = np.flatnonzero(graph == g)
            if sel.size:
                prefix[sel], out[sel] = rows_at(g, mats[g], k, u[sel], v[sel], x[sel])
        return prefix, out

    def _sorted_classes(mats, k, b, w):
        """Exact classes of the sorted triples of G then H (ids in order of first appearance)."""

        def rows1(idx):
            g, r = np.divmod(idx, R)
            return _rows_of(mats, k, w, g, U[r], V[r], X[r])

        def blocks1():
            s1, s2 = scales(k)
            for g, C in enumerate(mats):
                T1 = C.transpose(1, 2, 0)[pv, px] * s1  # [(v, x), w] = C[w, v, x] s1
                for u in range(n):
                    CuT, Cu = C[u].T, C[u]  # [x, w] = C[u, w, x]; [v, w] = C[u, v, w]
                    offset = g * R + int(np.searchsorted(U, u))
                    for lo in range(int(start[u]), pv.size, b):
                        hi = min(pv.size, lo + b)
                        rows = items(T1[lo:hi], CuT[px[lo:hi]] * s2, Cu[pv[lo:hi]], k)
                        yield offset + np.arange(lo - start[u], hi - start[u]), C[u, pv[lo:hi], px[lo:hi]], rows

        return grouped_ids(2 * R, rows1, blocks1, max_bytes, "3-FWL")[0]

    def _spread(table, classes, out):
        """The colours of all ``n^3`` triples of a graph into ``out``: ``t∘π`` for each sorted
        triple ``t`` (of class ``classes[t]``) and permutation ``π`` gets ``table[class, π]``."""
        T = (U, V, X)
        for p, (a, c, e) in enumerate(PERMUTATIONS):
            out[(T[a] * n + T[c]) * n + T[e]] = table[classes, p]

    return step


def renumber_by_first_appearance(ids: np.ndarray, m: int, chunk: int = 2**22) -> None:
    """Renumber ``ids`` (``0..m-1``, each present) in place in order of first appearance, with
    work arrays of at most ``chunk`` entries.

    Examples
    --------
    >>> ids = np.array([2, 0, 2, 1, 0])
    >>> renumber_by_first_appearance(ids, 3, chunk=2); ids.tolist()
    [0, 1, 0, 2, 1]
    """
    first = np.full(m, ids.size, dtype=np.int64)
    for lo in range(0, ids.size, chunk):
        hi = min(ids.size, lo + chunk)
        np.minimum.at(first, ids[lo:hi], np.arange(lo, hi))
    rank = np.empty(m, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(m)
    for lo in range(0, ids.size, chunk):
        np.take(rank, ids[lo:lo + chunk], out=ids[lo:lo + chunk])
