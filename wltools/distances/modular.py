"""Exact integer helpers of the distance keys: primes, inverses and determinants modulo a prime,
lifting by the Chinese remainder theorem (CRT) or Garner's mixed radix, and shared renumbering of
keys. Everything here is exact. Exact ids of rows (hashed, verified, retried) are the one hashing
routine's, :mod:`wltools.runtime.hashing`.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "is_prime",
    "primes_below",
    "prime_cap",
    "inverse_mod_p",
    "inverse_mod_primes",
    "primes_from",
    "crt",
    "garner_digits",
    "renumber_keys",
]

_P31 = 2**31
_WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


def is_prime(p: int) -> bool:
    """Whether ``p`` is prime (Miller-Rabin with the first twelve primes as bases: deterministic
    for ``p < 3.3e24``).

    Examples
    --------
    >>> [p for p in range(20) if is_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19]
    >>> is_prime(2**31 - 1)
    True
    """
    if p < 2:
        return False
    for q in _WITNESSES:
        if p % q == 0:
            return p == q
    d, s = p - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _WITNESSES:
        x = pow(a, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(s - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


def primes_below(start: int, count: int, avoid=()) -> list[int]:
    """The ``count`` largest odd primes below ``start``, in decreasing order, skipping ``avoid``.

    Examples
    --------
    >>> primes_below(20, 3)
    [19, 17, 13]
    >>> primes_below(2**31, 1)
    [2147483647]
    """
    out = []
    p = start - 1 if start % 2 == 0 else start - 2
    while len(out) < count:
        if p < 3:
            raise ValueError("ran out of primes")
        if is_prime(p) and p not in avoid:
            out.append(p)
        p -= 2
    return out


def prime_cap(s: int) -> int:
    """Bound on the primes :func:`inverse_mod_p` accepts for an ``s x s`` matrix:
    ``min(2^31, sqrt(2^62 / (s + 2)))``, so that ``p + s p^2 < 2^62``.

    Examples
    --------
    >>> prime_cap(3)
    960383883
    >>> prime_cap(100)
    212632565
    """
    return min(_P31, math.isqrt((2**62) // (s + 2)))


def inverse_mod_p(M: np.ndarray, p: int) -> tuple[np.ndarray, int] | None:
    """Inverse and determinant of an integer matrix modulo a prime ``p`` below :func:`prime_cap`.

    Gauss-Jordan elimination in int64 with lazy reduction: only the pivot row and column are
    reduced at each step; every other entry changes by less than ``p^2`` per step, so no
    intermediate overflows.

    Returns
    -------
    (int64 array, int) or None
        ``(M^-1 mod p, det M mod p)``; ``None`` when ``M`` is singular modulo ``p``.

    Examples
    --------
    >>> import numpy as np
    >>> inv, det = inverse_mod_p(np.array([[2, 1], [1, 1]]), 7)
    >>> inv.tolist(), det
    ([[1, 6], [6, 2]], 1)
    >>> inverse_mod_p(np.array([[2, 1], [4, 2]]), 7) is None
    True
    """
    s = M.shape[0]
    W = np.concatenate([M % p, np.eye(s, dtype=np.int64)], axis=1)
    det = 1
    for c in range(s):
        col = W[c:, c] % p
        nz = np.flatnonzero(col)
        if nz.size == 0:
            return None
        r = c + int(nz[0])
        if r != c:
            W[[c, r]] = W[[r, c]]
            det = -det
        row = W[c] % p
        piv = int(row[c])
        det = det * piv % p
        row = row * pow(piv, -1, p) % p
        f = W[:, c] % p
        f[c] = 0
        W -= np.outer(f, row)
        W[c] = row
    return W[:, s:] % p, det % p


#: The primes found below each cap so far (:func:`primes_from`), in decreasing order.
_PRIME_RUNS: dict[int, tuple[int, ...]] = {}


def primes_from(cap: int, count: int) -> tuple[int, ...]:
    """:func:`primes_below` ``(cap, count)``, remembered and extended on demand: the primes below
    a cap (:func:`prime_cap` of a matrix order, RRWP's bound of a degree sequence) are the same
    for every component or graph with that cap, so each number is tested once a process (the
    runs of at most 4096 caps are kept).

    Examples
    --------
    >>> primes_from(20, 2), primes_from(20, 4)
    ((19, 17), (19, 17, 13, 11))
    """
    run = _PRIME_RUNS.get(cap, ())
    if len(run) < count:
        if cap not in _PRIME_RUNS and len(_PRIME_RUNS) >= 4096:
            _PRIME_RUNS.clear()
        run = run + tuple(primes_below(run[-1] if run else cap, count - len(run)))
        _PRIME_RUNS[cap] = run  # a new tuple: a reader never sees a run half extended
    return run[:count]


#: Below this order :func:`inverse_mod_primes` eliminates column by column; above it, it splits
#: the matrix in blocks (numpy's int64 products then do most of the work).
_BLOCK_BASE = 16


def _gauss_jordan_batch(W: np.ndarray, P: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """In-place Gauss-Jordan inversion of the residue matrices ``W [m, s, s]`` (entries in
    ``[0, P[i])``), one prime each, pivoting on the diagonal: ``(inverses, dets, failed)``;
    ``failed[i]`` when a pivot was ``0 mod P[i]`` (then row ``i``'s results are meaningless). Lazy
    reduction as :func:`inverse_mod_p`: an entry changes by less than ``p^2`` a step, so its size
    stays below ``s p^2 + p < 2^62``."""
    m, s = P.size, W.shape[-1]
    Pc = P[:, None]
    W = W.copy()
    dets = np.ones(m, dtype=np.int64)
    failed = np.zeros(m, dtype=bool)
    plist = P.tolist()
    for c in range(s):
        piv = W[:, c, c] % P
        failed |= piv == 0
        piv[piv == 0] = 1
        dets = dets * piv % P
        pinv = np.array([pow(x, -1, p) for x, p in zip(piv.tolist(), plist)], dtype=np.int64)
        row = W[:, c, :] % Pc
        row *= pinv[:, None]
        row %= Pc
        row[:, c] = pinv
        f = W[:, :, c] % Pc
        W[:, :, c] = 0
        W -= f[:, :, None] * row[:, None, :]  # row c too: overwritten next
        W[:, c, :] = row
    W %= P[:, None, None]
    return W, dets, failed


def _block_inverse(M: np.ndarray, P: np.ndarray, symmetric: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_gauss_jordan_batch`'s results by 2 x 2 blocks ``[[A, B], [C, D]]``: ``M^-1 =
    [[A^-1 + A^-1 B S^-1 C A^-1, -A^-1 B S^-1], [-S^-1 C A^-1, S^-1]]`` with the Schur complement
    ``S = D - C A^-1 B`` and ``det M = det A det S``, every product of residues below ``p``
    reduced at once (inner dimension below ``s``, so its sums stay below ``s p^2 < 2^62``: int64
    exact). ``symmetric``: ``C = B^T``, and the inverse is symmetric too (two products fewer)."""
    s = M.shape[-1]
    if s <= _BLOCK_BASE:
        return _gauss_jordan_batch(M, P)
    k = s // 2
    Pc = P[:, None, None]
    Ai, det_a, bad_a = _block_inverse(np.ascontiguousarray(M[:, :k, :k]), P, symmetric)
    B, C = M[:, :k, k:], M[:, k:, :k]
    AiB = Ai @ B
    AiB %= Pc
    CAi = np.swapaxes(AiB, 1, 2) if symmetric else (C @ Ai) % Pc
    S = M[:, k:, k:] - C @ AiB
    S %= Pc
    Si, det_s, bad_s = _block_inverse(S, P, symmetric)
    X12 = AiB @ Si
    X12 = (-X12) % Pc
    out = np.empty_like(M)
    out[:, k:, k:] = Si
    out[:, :k, k:] = X12
    out[:, k:, :k] = np.swapaxes(X12, 1, 2) if symmetric else (-(Si @ CAi)) % Pc
    X11 = Ai - X12 @ CAi
    X11 %= Pc
    out[:, :k, :k] = X11
    return out, det_a * det_s % P, bad_a | bad_s


def inverse_mod_primes(M: np.ndarray, primes) -> list[tuple[np.ndarray, int] | None]:
    """:func:`inverse_mod_p` of the integer matrix ``M`` for every prime of ``primes`` (each below
    :func:`prime_cap` of its order), the same results, computed for all primes at once by block
    elimination (:func:`_block_inverse`) pivoting on the diagonal, which every prime not dividing
    a leading principal minor of ``M`` allows (all but a few for the positive definite grounded
    Laplacians of the resistance distance); a prime that meets a zero pivot is redone alone by
    :func:`inverse_mod_p`. The inverse and the determinant modulo ``p`` are unique, so the order
    of elimination changes neither.

    Examples
    --------
    >>> import numpy as np
    >>> [(inv.tolist(), det) for inv, det in inverse_mod_primes(np.array([[2, 1], [1, 1]]), [7, 5])]
    [([[1, 6], [6, 2]], 1), ([[1, 4], [4, 2]], 1)]
    >>> inverse_mod_primes(np.array([[0, 1], [1, 0]]), [7])[0][0].tolist()  # pivot 0: redone with row swaps
    [[0, 1], [1, 0]]
    >>> inverse_mod_primes(np.array([[2, 1], [4, 2]]), [7])
    [None]
    """
    primes = [int(p) for p in primes]
    if not primes:
        return []
    M = np.asarray(M, dtype=np.int64)
    P = np.array(primes, dtype=np.int64)
    W, dets, failed = _block_inverse(M[None, :, :] % P[:, None, None], P, bool(np.array_equal(M, M.T)))
    return [inverse_mod_p(M, p) if bad else (W[i], det)
            for i, (p, bad, det) in enumerate(zip(primes, failed.tolist(), dets.tolist()))]


def crt(residues: list[np.ndarray], primes: list[int]) -> np.ndarray:
    """Lift arrays of residues modulo ``primes`` to the non-negative integers below
    ``prod(primes)`` (Chinese remainder theorem; an object array of Python integers).

    Examples
    --------
    >>> import numpy as np
    >>> crt([np.array([2, 3]), np.array([1, 0])], [5, 7]).tolist()
    [22, 28]
    """
    out = np.zeros(residues[0].shape, dtype=object)
    mod = 1
    for r, p in zip(residues, primes):
        # x = out + mod * t with t = (r - out) * mod^-1  (mod p)
        inv = pow(mod % p, -1, p)
        t = ((r.astype(object) - out) % p) * inv % p
        out = out + mod * t
        mod *= p
    return out


def garner_digits(residues: list[np.ndarray], primes: list[int]) -> np.ndarray:
    """Mixed-radix digits ``[N, P]`` of the integers ``0 <= x < prod(primes)`` with the given
    residues (Garner's algorithm, vectorised in int64): ``x = sum_k d_k prod_{j<k} p_j``, so equal
    digit rows <=> equal integers.

    Examples
    --------
    >>> import numpy as np
    >>> garner_digits([np.array([2, 3]), np.array([1, 0])], [5, 7]).tolist()  # 22 = 2 + 4*5, 28 = 3 + 5*5
    [[2, 4], [3, 5]]
    """
    digits: list[np.ndarray] = []
    for k, (r, p) in enumerate(zip(residues, primes)):
        acc = np.zeros_like(r)
        coef = 1
        for j in range(k):
            acc = (acc + digits[j] * (coef % p)) % p
            coef *= primes[j]
        digits.append(((r - acc) % p) * pow(coef % p, -1, p) % p)
    return np.stack(digits, axis=1)


def renumber_keys(keys: list[np.ndarray]) -> list[np.ndarray]:
    """Renumber integer keys shared by several arrays to ``0..k-1``, keeping their order (one
    table for all arrays, so equal keys stay equal across them).

    Examples
    --------
    >>> import numpy as np
    >>> [k.tolist() for k in renumber_keys([np.array([5, 9]), np.array([9, 7])])]
    [[0, 2], [2, 1]]
    """
    if not keys:
        return keys
    flat = np.concatenate([k.reshape(-1) for k in keys])
    inv = np.unique(flat, return_inverse=True)[1].reshape(-1)
    out, o = [], 0
    for k in keys:
        out.append(inv[o : o + k.size].reshape(k.shape))
        o += k.size
    return out
