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
