"""Relative random-walk probabilities (RRWP), GRIT Eq. (1):
``P_ij = [I, M, M^2, ..., M^(K-1)]_ij`` with ``M = D^-1 A``; an isolated node has a zero row of
``M`` (so its RRWP row is zero beyond the identity channel).

Exact scheme: with ``L`` the lcm of the positive degrees, ``B = L D^-1 A`` is an integer matrix and
``M^k = B^k / L^k`` (``0 <= (B^k)_ij <= L^k`` since rows of ``B`` sum to ``L``). The exact form
:func:`rrwp_exact` uses Python integers. The refinement keys (:func:`rrwp_keys`) use residues of
``B^k`` modulo primes ``p`` with ``n L p < 2^53`` (so float64 BLAS products are exact) whose
product exceeds ``L^(K-1)``: equal residue vectors imply equal integers, hence equal rationals.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import networkx as nx
import numpy as np
from scipy.sparse import csr_matrix

from .adjacency import adjacency_csr, adjacency_matrix
from .modular import primes_below

__all__ = ["rrwp_exact", "rrwp_keys", "check_steps"]


def check_steps(K: int) -> None:
    """Raise ``ValueError`` unless the RRWP step count ``K`` is at least 1.

    Examples
    --------
    >>> check_steps(1)
    >>> check_steps(0)
    Traceback (most recent call last):
    ...
    ValueError: K must be >= 1
    """
    if K < 1:
        raise ValueError("K must be >= 1")


def _lcm_degrees(As: Sequence[np.ndarray]) -> int:
    degs = set()
    for A in As:
        degs.update(int(d) for d in A.sum(axis=1) if d > 0)
    return math.lcm(*degs) if degs else 1


def rrwp_exact(G: nx.Graph, K: int) -> list[list[tuple]]:
    """Exact RRWP (GRIT Eq. 1): ``P[i][j] = (I_ij, M_ij, ..., (M^(K-1))_ij)`` as Fractions.

    Uses ``M^k = B^k / L^k`` with the integer matrix ``B = L D^-1 A`` (Python integers).

    Examples
    --------
    >>> import networkx as nx
    >>> rrwp_exact(nx.path_graph(3), 3)[0][2]
    (Fraction(0, 1), Fraction(0, 1), Fraction(1, 2))
    """
    check_steps(K)
    A = adjacency_matrix(G)
    n = A.shape[0]
    L = _lcm_degrees([A])
    deg = A.sum(axis=1)
    B = np.zeros((n, n), dtype=object)
    for i in range(n):
        if deg[i]:
            for j in np.flatnonzero(A[i]):
                B[i, j] = L // int(deg[i])
    P = np.eye(n, dtype=object) * 1
    powers = [P]
    for _ in range(K - 1):
        P = P.dot(B)
        powers.append(P)
    out = []
    for i in range(n):
        row = []
        for j in range(n):
            row.append(tuple(Fraction(int(powers[k][i, j]), L**k) for k in range(K)))
        out.append(row)
    return out


def _prime_moduli(nmax: int, L: int, K: int) -> list[int]:
    """Primes ``p < min(2^40, 2^53 / (n L))`` (float64 products exact), product ``> L^(K-1)``."""
    pmax = min((2**53) // (nmax * L + 1), 2**40)
    need = L ** (K - 1)
    primes: list[int] = []
    prod, p = 1, pmax
    while prod <= need or not primes:
        p = primes_below(p, 1)[0]
        primes.append(p)
        prod *= p
    return primes


def _residue_steps(Bs, primes, K, L):
    """Yield, for ``k = 0..K-1``, the residues of ``B^k`` modulo the primes that determine it
    (the first ``P_k`` primes, whose product first exceeds ``2 L^k > max (B^k)_ij``): one float64
    array ``[P_k, n, n]`` per graph (integers below ``p``, exact). All ``P`` residues are
    carried from step to step; only the first ``P_k`` are yielded."""
    P = len(primes)
    logs = np.cumsum(np.log2(np.array(primes, dtype=np.float64)))
    pk = np.array(primes, dtype=np.float64)[:, None, None]
    inv = 1.0 / pk
    Xs = [np.broadcast_to(np.eye(B.shape[0]), (P, B.shape[0], B.shape[0])).copy() for B in Bs]
    yield [X[:1] for X in Xs]
    for k in range(1, K):
        Pk = min(P, int(np.searchsorted(logs, k * math.log2(L) + 1)) + 1)
        for g, B in enumerate(Bs):
            n = B.shape[0]
            # X @ B with B sparse (nnz = 2m): every partial sum is an integer <= 2^53, exact
            Y = np.ascontiguousarray((B.T @ Xs[g].reshape(P * n, n).T).T).reshape(P, n, n)
            q = np.floor(Y * inv)  # Y / p up to one unit of rounding
            q *= pk
            Y -= q  # exact (integers below 2^53), in [-p, 2p)
            Y += np.where(Y < 0, pk, 0.0)
            Y -= np.where(Y >= pk, pk, 0.0)
            Xs[g] = Y
        yield [X[:Pk] for X in Xs]


def _agree(Xs, offsets, a, b) -> bool:
    """Whether the flat entries ``a`` and ``b`` (indices over all graphs) have equal residues."""
    flat = np.concatenate([X.reshape(X.shape[0], -1) for X in Xs], axis=1) if len(Xs) > 1 else Xs[0].reshape(Xs[0].shape[0], -1)
    return bool(np.array_equal(flat[:, a], flat[:, b]))


def rrwp_keys(graphs: Sequence[nx.Graph], K: int) -> list[np.ndarray]:
    """Exact RRWP keys: int64 ``[n, n]`` per graph, equal iff the RRWP tuples are equal.

    One shared table for all ``graphs`` (same ``L`` for all of them, see the module docstring).
    Residues of ``B^k`` modulo primes ``p`` with ``n_max L p < 2^53`` are exact in float64
    products with the sparse ``B``; their product exceeds ``L^(K-1)``, so equal residue vectors
    mean equal integers.

    Two passes over ``k = 0..K-1``: the first folds every step's residues into one 64-bit hash
    per entry and groups the entries by it; the second recomputes the residues and *verifies*
    that every entry equals its group's first entry at every step and prime, so the keys are
    exact (a hash collision, probability about ``N^2 / 2^64`` for ``N`` entries, is detected and
    the grouping redone with other weights).

    Examples
    --------
    >>> import networkx as nx
    >>> keys = rrwp_keys([nx.path_graph(3)], 2)[0]
    >>> bool(keys[0, 1] == keys[2, 1]), bool(keys[1, 0] == keys[0, 1])  # M_01 = M_21 = 1, M_10 = 1/2
    (True, False)
    """
    check_steps(K)
    As = [adjacency_csr(G) for G in graphs]
    degs = [np.asarray(A.sum(axis=1)).reshape(-1) for A in As]
    L = math.lcm(*{int(d) for dg in degs for d in dg if d > 0}) if any(dg.any() for dg in degs) else 1
    nmax = max((A.shape[0] for A in As), default=1) or 1
    primes = _prime_moduli(nmax, L, K)
    Bs = []
    for A, deg in zip(As, degs):
        scale = np.where(deg > 0, L // np.maximum(deg, 1), 0).astype(np.float64)
        Bs.append(csr_matrix(A.multiply(scale[:, None]).astype(np.float64)))
    sizes = [A.shape[0] ** 2 for A in As]
    offsets = np.cumsum([0] + sizes)
    total = int(offsets[-1])
    if total == 0:
        return [np.zeros(A.shape, dtype=np.int64) for A in As]
    for salt in range(8):
        w = np.random.default_rng([20240601, salt]).integers(1, 2**62, size=(K, len(primes)), dtype=np.uint64)
        w = w * np.uint64(2) + np.uint64(1)
        h = np.zeros(total, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for k, Xs in enumerate(_residue_steps(Bs, primes, K, L)):
                h *= np.uint64(0x9E3779B97F4A7C15)
                for g, X in enumerate(Xs):
                    h[offsets[g] : offsets[g + 1]] += w[k, : X.shape[0]] @ X.reshape(X.shape[0], -1).view(np.uint64)
                h ^= h >> np.uint64(31)
        _, first, inv = np.unique(h, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        rep = first[inv]
        del h
        dup = np.flatnonzero(rep != np.arange(total))  # entries to check against their group's first
        if all(_agree(Xs, offsets, dup, rep[dup]) for Xs in _residue_steps(Bs, primes, K, L)):
            return [inv[offsets[g] : offsets[g + 1]].reshape(As[g].shape) for g in range(len(As))]
    raise RuntimeError("RRWP keys: hash collisions in 8 independent tries")  # pragma: no cover
