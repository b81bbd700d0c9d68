"""Exact ids of rows produced block by block, with bounded memory.

A refinement round of GD-WL or 2-FWL defines the new colour of an element by a row
``(prefix, sorted items...)`` of fixed width. :class:`RowGrouper` takes those rows a block at a
time and gives every row the id of its group of *equal* rows, without ever holding all rows:

1. each row gets the 64-bit hash of the one hashing routine
   (:func:`wltools.runtime.hashing.key_hashes`, the prefix mixed in);
2. rows are grouped by hash (sorted arrays of the hashes seen so far), a new group per new hash;
3. every row is then *verified* entry by entry against its group's first row (the representative),
   kept in a store of sorted rows while the store is within its byte budget, recomputed through
   ``row_fn`` beyond it.

A hash collision (two different rows, one hash) is therefore detected, never silently merged:
:class:`~wltools.runtime.hashing.HashCollision` is raised and the caller redoes the round with
other weights (``salt``, :func:`~wltools.runtime.hashing.with_retries`): the project's one
collision policy. The ids (in order of first appearance) are exact.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..runtime.hashing import HashCollision, key_hashes

__all__ = ["RowGrouper", "HashCollision"]


class RowGrouper:
    """Exact group ids of rows given block by block (see the module docstring).

    Parameters
    ----------
    total : int
        Number of rows of the round (global indices ``0..total-1``).
    row_fn : callable
        ``row_fn(indices) -> (prefix [r], rows [r, w])``: recomputes the sorted rows of the given
        global indices (used for representatives that are not in the store).
    store_bytes : int
        Budget of the store of representative rows.
    salt : int
        Chooses the hash weights.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 2], [3, 4], [1, 2], [3, 4], [5, 6]])
    >>> P = np.zeros(5, dtype=np.int64)
    >>> g = RowGrouper(5, lambda idx: (P[idx], X[idx]), store_bytes=0)
    >>> g.add(np.arange(0, 2), P[:2], X[:2]); g.add(np.arange(2, 5), P[2:], X[2:])
    >>> g.ids.tolist(), g.count
    ([0, 1, 0, 1, 2], 3)
    """

    def __init__(self, total: int, row_fn: Callable, store_bytes: int, salt: int = 0):
        self.ids = np.empty(total, dtype=np.int64)
        self.count = 0
        self._row_fn = row_fn
        self._salt = salt
        self._store_left = store_bytes
        self._known_h = np.zeros(0, dtype=np.uint64)  # sorted hashes of the groups so far
        self._known_gid = np.zeros(0, dtype=np.int64)
        self._rep = []  # per block: global index of each new group's representative
        self._rep_prefix = []
        self._chunks: list[np.ndarray] = []  # stored representative rows, one chunk per block
        self._where: list[np.ndarray] = []  # per block: (chunk, row) of each new group, -1 = not stored
        self._rep_all = np.zeros(0, dtype=np.int64)
        self._prefix_all = np.zeros(0, dtype=np.int64)
        self._where_all = np.zeros((0, 2), dtype=np.int64)

    def add(self, index: np.ndarray, prefix: np.ndarray, rows: np.ndarray) -> None:
        """Group the rows ``rows [b, w]`` (sorted items, C-contiguous int64) with prefixes
        ``prefix [b]`` at global indices ``index [b]``. Raises :class:`HashCollision`."""
        b = rows.shape[0]
        if b == 0:
            return
        h = key_hashes(rows, prefix, self._salt)
        uh, first, inv = np.unique(h, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        if self._known_h.size:
            pos_c = np.minimum(np.searchsorted(self._known_h, uh), self._known_h.size - 1)
            found = self._known_h[pos_c] == uh
        else:
            pos_c, found = np.zeros(uh.size, dtype=np.int64), np.zeros(uh.size, dtype=bool)
        gid_u = np.empty(uh.size, dtype=np.int64)
        gid_u[found] = self._known_gid[pos_c[found]]
        new = np.flatnonzero(~found)
        new = new[np.argsort(first[new], kind="stable")]  # ids in order of first appearance
        gid_u[new] = self.count + np.arange(new.size)
        self.count += new.size
        # every row of a new group equals the group's first row in this block
        row_new = ~found[inv]
        rep_local = first[inv]
        sel = np.flatnonzero(row_new)
        sel = sel[rep_local[sel] != sel]  # a representative equals itself
        if sel.size and not (
            np.array_equal(rows[sel], rows[rep_local[sel]]) and np.array_equal(prefix[sel], prefix[rep_local[sel]])
        ):
            raise HashCollision
        # rows of known groups equal their stored (or recomputed) representative
        old = np.flatnonzero(~row_new)
        if old.size == b:  # every row in a known group (most blocks after the first): no copies
            self._verify(gid_u[inv], prefix, rows)
        elif old.size:
            self._verify(gid_u[inv[old]], prefix[old], rows[old])
        # register the new groups
        if new.size:
            reps = first[new]
            keep = min(new.size, max(0, self._store_left // (8 * rows.shape[1]))) if rows.shape[1] else new.size
            where = np.full((new.size, 2), -1, dtype=np.int64)
            if keep:
                self._chunks.append(np.ascontiguousarray(rows[reps[:keep]]))
                self._store_left -= self._chunks[-1].nbytes
                where[:keep, 0] = len(self._chunks) - 1
                where[:keep, 1] = np.arange(keep)
            self._rep_all = np.concatenate([self._rep_all, index[reps]])
            self._prefix_all = np.concatenate([self._prefix_all, prefix[reps]])
            self._where_all = np.concatenate([self._where_all, where])
            order = np.argsort(np.concatenate([self._known_h, uh[new]]), kind="stable")
            self._known_h = np.concatenate([self._known_h, uh[new]])[order]
            self._known_gid = np.concatenate([self._known_gid, gid_u[new]])[order]
        self.ids[index] = gid_u[inv]

    def _verify(self, gids: np.ndarray, prefix: np.ndarray, rows: np.ndarray) -> None:
        if not np.array_equal(self._prefix_all[gids], prefix):
            raise HashCollision
        where = self._where_all[gids]
        stored = where[:, 0] >= 0
        reps = np.empty_like(rows)  # each row's representative, gathered, then one comparison
        chunks = np.unique(where[stored, 0])
        if chunks.size == 1 and stored.all():  # the usual case: one gather, no temporary
            np.take(self._chunks[chunks[0]], where[:, 1], axis=0, out=reps, mode="clip")
        else:
            for c in chunks:
                s = np.flatnonzero(stored & (where[:, 0] == c))
                reps[s] = self._chunks[c][where[s, 1]]
        rest = np.flatnonzero(~stored)
        if rest.size:
            ug, ginv = np.unique(gids[rest], return_inverse=True)
            _, rep_rows = self._row_fn(self._rep_all[ug])
            reps[rest] = rep_rows[ginv.reshape(-1)]
        if not np.array_equal(reps, rows):
            raise HashCollision

    def representative(self, gid: int) -> int:
        """Global index of the first row of group ``gid``."""
        return int(self._rep_all[gid])
