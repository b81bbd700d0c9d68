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

from .adjacency import adjacency_matrix
from .modular import primes_below, unique_rows

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


def rrwp_keys(graphs: Sequence[nx.Graph], K: int) -> list[np.ndarray]:
    """Exact RRWP keys: int64 ``[n, n]`` per graph, equal iff the RRWP tuples are equal.

    One shared table for all ``graphs`` (same ``L`` for all of them, see the module docstring).
    Residues of ``B^k`` modulo primes ``p`` with ``n_max L p < 2^53`` are exact in float64
    BLAS; their product exceeds ``L^(K-1)``, so equal residue vectors mean equal integers.

    Examples
    --------
    >>> import networkx as nx
    >>> keys = rrwp_keys([nx.path_graph(3)], 2)[0]
    >>> bool(keys[0, 1] == keys[2, 1]), bool(keys[1, 0] == keys[0, 1])  # M_01 = M_21 = 1, M_10 = 1/2
    (True, False)
    """
    check_steps(K)
    As = [adjacency_matrix(G) for G in graphs]
    L = _lcm_degrees(As)
    nmax = max((A.shape[0] for A in As), default=1) or 1
    pmax = (2**53) // (nmax * L + 1)
    pmax = min(pmax, 2**40)
    need = L ** (K - 1)
    primes: list[int] = []
    prod, p = 1, pmax
    while prod <= need:
        p = primes_below(p, 1)[0]
        primes.append(p)
        prod *= p
    if not primes:
        primes = [primes_below(pmax, 1)[0]]
    P = len(primes)
    pr = np.array(primes, dtype=np.float64)[:, None, None]
    Bs, Xs, ids = [], [], []
    for A in As:
        n = A.shape[0]
        deg = A.sum(axis=1)
        B = np.zeros((n, n), dtype=np.float64)
        nz = deg > 0
        B[nz] = A[nz] * (L // deg[nz])[:, None]
        Bs.append(csr_matrix(B))
        Xs.append(np.broadcast_to(np.eye(n), (P, n, n)).copy())
        ids.append(np.eye(n, dtype=np.int64).reshape(-1))
    sizes = [A.shape[0] ** 2 for A in As]
    offsets = np.cumsum([0] + sizes)
    cur = unique_rows(np.concatenate(ids)[:, None])
    for _ in range(1, K):
        cols = []
        for g, (B, X) in enumerate(zip(Bs, Xs)):
            n = B.shape[0]
            # X @ B with B sparse (nnz = 2m): every partial sum is an integer < 2^53, exact
            Y = np.fmod((B.T @ X.reshape(P * n, n).T).T, np.repeat(pr[:, 0, 0], n)[:, None]).reshape(P, n, n)
            Xs[g] = Y
            cols.append(Y.reshape(P, n * n).T.astype(np.int64))
        stacked = np.concatenate([cur[:, None], np.concatenate(cols, axis=0)], axis=1)
        cur = unique_rows(stacked)
    return [cur[offsets[g] : offsets[g + 1]].reshape(As[g].shape) for g in range(len(As))]
