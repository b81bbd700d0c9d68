"""The one exact hashing routine of the project: keys -> ids, hashed to be fast, verified to be exact.

A *key* is ``(prefix, items...)``: an integer prefix (a colour) and a sequence of integer items,
given either as the rows of a matrix (fixed width) or as the segments of a flat array
(``indptr``: variable length, as the sorted neighbour colours of 1-WL). Every caller that turns
keys into ids (the refinement kernel's rounds, :class:`wltools.refine.grouping.RowGrouper`'s
blocks, the incremental 1-WL, the batched BREC rounds, the exact distance keys) goes through
:func:`key_hashes` and one collision policy:

1. **hash**: ``h = prefix * w_0 + sum_j items_j * w_(j+1)`` (odd random 64-bit weights, arithmetic
   mod ``2^64``), then mixed (xor-shift, the prefix through splitmix64's constants; a segment's
   length is mixed in too, since zero items add nothing);
2. **group** by hash (:func:`group_hashes`: ``np.unique``'s first indices and inverse);
3. **verify** every key entry by entry against its group's first key (prefix, length, items);
4. on a mismatch (a *collision*), raise :class:`HashCollision`; :func:`with_retries` redoes the
   work with new weights (``salt = 1, 2, ...``), at most :data:`TRIES` times.

So the ids are always exact; the hash only makes them fast. Two different keys collide with
probability about ``2^-64`` per pair (a random linear form mod ``2^64``; the weights are odd), so
a retry is in practice never needed; the tests force one (:func:`weights` monkeypatched).

Examples
--------
>>> import numpy as np
>>> exact_ids(np.array([[1, 2], [3, 4], [1, 2]])).tolist()
[0, 1, 0]
>>> exact_ids(np.array([5, 6, 5, 7]), prefix=np.array([0, 0, 1]), indptr=np.array([0, 2, 3, 4])).tolist()
[0, 1, 2]
"""

from __future__ import annotations

import functools
from typing import Callable, TypeVar

import numpy as np

__all__ = ["HashCollision", "TRIES", "with_retries", "weights", "key_hashes", "group_hashes", "exact_ids", "unique_rows",
           "GOLDEN", "MIX"]

T = TypeVar("T")

#: Constants of the 64-bit mixing step (splitmix64).
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX = np.uint64(0xBF58476D1CE4E5B9)

#: The weights of salt 0 for keys of up to 4096 entries (fixed: ids in hash order are reproducible).
_WEIGHTS = np.random.default_rng(20240601).integers(1, 2**62, size=4096, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
_WEIGHTS.flags.writeable = False

#: :func:`key_hashes` hashes blocks of about this many entries at a time (bounded int64 copies).
_BLOCK_ITEMS = 1 << 22

#: Independent hash weightings tried before exact hashing gives up (a collision has probability
#: about ``N^2 / 2^64`` among ``N`` keys).
TRIES = 8


class HashCollision(Exception):
    """Two different keys got the same hash (redo the work with another salt, :func:`with_retries`)."""


def with_retries(attempt: Callable[[int], T], what: str) -> T:
    """``attempt(salt)`` for ``salt = 0, 1, ...`` until it raises no :class:`HashCollision` (at
    most :data:`TRIES` times): the one retry loop of every exact hashing step.

    Examples
    --------
    >>> def attempt(salt):
    ...     if salt < 2:
    ...         raise HashCollision
    ...     return salt
    >>> with_retries(attempt, "demo")
    2
    """
    for salt in range(TRIES):
        try:
            return attempt(salt)
        except HashCollision:
            continue
    raise RuntimeError(f"{what}: hash collisions in {TRIES} independent tries")


@functools.lru_cache(maxsize=64)
def weights(width: int, salt: int) -> np.ndarray:
    """``width`` odd 64-bit weights of one try (``salt``); salt 0 is fixed for ``width <= 4096``.
    Cached (read-only: callers never write to them).

    Examples
    --------
    >>> w = weights(3, 0)
    >>> w.dtype.name, bool((w % 2 == 1).all()), bool((weights(3, 1) != w).any())
    ('uint64', True, True)
    """
    if salt == 0 and width <= _WEIGHTS.size:
        return _WEIGHTS[:width]
    rng = np.random.default_rng(width if salt == 0 else [20240601, width, salt])
    w = rng.integers(1, 2**62, size=width, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    w.flags.writeable = False
    return w


def _mix(h: np.ndarray, prefix: np.ndarray) -> np.ndarray:
    h ^= h >> np.uint64(29)
    h += (prefix.astype(np.int64, copy=False).view(np.uint64) + GOLDEN) * MIX
    return h


def key_hashes(items: np.ndarray, prefix: np.ndarray, salt: int = 0, indptr: np.ndarray | None = None) -> np.ndarray:
    """64-bit hashes of the keys ``(prefix[i], items of key i)`` (module docstring): ``items`` a
    matrix ``[N, w]`` (key ``i`` is row ``i``) or, with ``indptr [N + 1]``, a flat array (key
    ``i`` is ``items[indptr[i]:indptr[i + 1]]``). Equal keys get equal hashes.

    Examples
    --------
    >>> import numpy as np
    >>> h = key_hashes(np.array([[1, 2], [1, 2], [2, 1]]), np.array([0, 0, 0]))
    >>> bool(h[0] == h[1]), bool(h[0] == h[2])
    (True, False)
    >>> s = key_hashes(np.array([1, 2, 1, 2]), np.array([0, 0]), indptr=np.array([0, 2, 4]))
    >>> bool(s[0] == s[1])
    True
    """
    prefix = np.asarray(prefix)
    if indptr is None:
        return _row_hashes(items, prefix, salt)
    return _segment_hashes(items, prefix, salt, indptr, _segments(indptr))


def _segments(indptr: np.ndarray) -> tuple:
    """``(lengths, owner, position)`` of the segments ``indptr`` and of each of their entries."""
    lengths = indptr[1:] - indptr[:-1]
    owner = np.repeat(np.arange(lengths.size), lengths)
    return lengths, owner, np.arange(owner.size) - indptr[owner]


def _segment_hashes(items, prefix, salt, indptr, layout) -> np.ndarray:
    lengths, owner, pos = layout
    w = weights(int(lengths.max(initial=0)) + 1, salt)
    with np.errstate(over="ignore"):
        terms = items.astype(np.int64, copy=False).view(np.uint64) * w[1 + pos]
        sums = np.concatenate([np.zeros(1, dtype=np.uint64), np.cumsum(terms, dtype=np.uint64)])
        h = sums[indptr[1:]] - sums[indptr[:-1]]  # per segment, wrapping mod 2^64
        h += prefix.astype(np.int64, copy=False).view(np.uint64) * w[0]
        h += lengths.astype(np.uint64) * GOLDEN
        return _mix(h, prefix)


def _row_hashes(rows: np.ndarray, prefix: np.ndarray, salt: int) -> np.ndarray:
    N, m = rows.shape
    w = weights(m + 1, salt)
    step = max(1, _BLOCK_ITEMS // max(m, 1))
    parts = []
    with np.errstate(over="ignore"):
        for a in range(0, N, step):  # one block in the usual case
            block = np.ascontiguousarray(rows[a : a + step], dtype=np.int64).view(np.uint64)
            hb = block @ w[1:] if m else np.zeros(block.shape[0], dtype=np.uint64)
            p = prefix[a : a + step].astype(np.int64, copy=False)
            hb += p.view(np.uint64) * w[0]
            parts.append(_mix(hb, p))
    return parts[0] if len(parts) == 1 else np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


def _verify(items, prefix, indptr, rep, layout) -> bool:
    """Whether every key equals key ``rep[i]`` (its group's first), entry by entry."""
    # np.take: the same gathers as fancy indexing, several times faster on row blocks
    if not np.array_equal(prefix, np.take(prefix, rep)):
        return False
    if indptr is None:
        step = max(1, _BLOCK_ITEMS // max(items.shape[1], 1))
        return all(np.array_equal(items[a : a + step], np.take(items, rep[a : a + step], axis=0))
                   for a in range(0, items.shape[0], step))
    lengths, owner, pos = layout
    if not np.array_equal(lengths, np.take(lengths, rep)):
        return False
    return bool(np.array_equal(items, np.take(items, np.take(indptr, rep)[owner] + pos)))


def group_hashes(h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(h, return_index=True, return_inverse=True)[1:]`` for a non-empty 1-D array:
    per distinct value in increasing order the index of its first occurrence, and per entry the
    rank of its value among the distinct ones. The same arrays at about half the time: an
    unstable argsort (np.unique sorts stably to find first occurrences), the first occurrence of
    a run of equal values being the least index in it.

    Examples
    --------
    >>> import numpy as np
    >>> first, inv = group_hashes(np.array([7, 3, 7, 5, 3], dtype=np.uint64))
    >>> first.tolist(), inv.tolist()
    ([1, 3, 0], [2, 0, 2, 1, 0])
    """
    perm = np.argsort(h)
    sh = h[perm]
    new = np.empty(h.size, dtype=bool)
    new[0] = True
    np.not_equal(sh[1:], sh[:-1], out=new[1:])
    first = np.minimum.reduceat(perm, np.flatnonzero(new))
    inv = np.empty(h.size, dtype=np.int64)
    inv[perm] = np.cumsum(new) - 1
    return first, inv


#: :func:`exact_ids` numbers at most this many keys by a dict of tuples (exact by equality; numpy's
#: call overhead outweighs hashing there, e.g. the incremental 1-WL's rounds on a long path).
SMALL_KEYS = 48


def _interned(items, prefix, indptr) -> np.ndarray:
    """Ids in order of first appearance from a dict of ``(prefix, items...)`` tuples."""
    table: dict = {}
    p = prefix.tolist()
    if indptr is None:
        keys = zip(p, map(tuple, items.tolist()))
    else:
        flat, bounds = items.tolist(), indptr.tolist()
        keys = ((p[i], tuple(flat[bounds[i]:bounds[i + 1]])) for i in range(len(p)))
    return np.array([table.setdefault(key, len(table)) for key in keys], dtype=np.int64)


def exact_ids(items: np.ndarray, prefix: np.ndarray | None = None, indptr: np.ndarray | None = None, *,
              order: str = "first", what: str = "exact ids", layout: tuple | None = None) -> np.ndarray:
    """Exact ids ``0..k-1`` of the keys (:func:`key_hashes`; without ``prefix``, the first column
    of the matrix ``items`` is the prefix): equal ids iff equal keys, verified entry by entry,
    retried with new weights on a collision (module docstring); up to :data:`SMALL_KEYS` keys in
    order of first appearance are interned in a dict instead. ``order``: ``"first"`` numbers the
    keys in order of first appearance, ``"hash"`` in the order of their salt-0 hashes (the order
    :func:`unique_rows` has always given; committed witnesses name colours by it). ``layout``: the
    segments' ``(lengths, owner of each entry, position in its segment)`` when the caller has them.

    Examples
    --------
    >>> import numpy as np
    >>> exact_ids(np.array([[9, 1], [3, 4], [9, 1], [3, 5]])).tolist()
    [0, 1, 0, 2]
    """
    if prefix is None:
        prefix, items = items[:, 0], items[:, 1:]
    N = prefix.size
    if order == "first" and N <= SMALL_KEYS:
        return _interned(items, prefix, indptr)
    if indptr is not None and layout is None:
        layout = _segments(indptr)

    def attempt(salt):
        h = _row_hashes(items, prefix, salt) if indptr is None else _segment_hashes(items, prefix, salt, indptr, layout)
        first, inv = group_hashes(h)
        if not _verify(items, prefix, indptr, first[inv], layout):
            raise HashCollision
        if order == "hash" and salt == 0:
            return inv
        rank = np.empty(first.size, dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(first.size)
        return rank[inv]

    return with_retries(attempt, what) if N else np.zeros(0, dtype=np.int64)


def unique_rows(X: np.ndarray) -> np.ndarray:
    """Exact ids of the distinct rows of an integer matrix ``X [N, m]`` (:func:`exact_ids` with the
    first column as prefix, ids in hash order); ``np.unique(X, axis=0)``'s partition.

    Examples
    --------
    >>> import numpy as np
    >>> ids = unique_rows(np.array([[1, 2], [3, 4], [1, 2]]))
    >>> bool(ids[0] == ids[2] != ids[1]), sorted(set(ids.tolist()))
    (True, [0, 1])
    >>> unique_rows(np.array([[-1, 5], [-1, 5], [5, -1]], dtype=np.int32)).tolist()
    [0, 0, 1]
    """
    N, m = X.shape
    if N == 0 or m == 0:  # no rows, or all rows empty (equal)
        return np.zeros(N, dtype=np.int64)
    if m == 1:
        return group_hashes(X[:, 0])[1]
    return exact_ids(X[:, 1:], X[:, 0], order="hash", what="unique rows")
