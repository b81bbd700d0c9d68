"""Resistance distance (RD): ``R_ij = (e_i - e_j)^T L^+ (e_i - e_j)`` per connected component, and
a distinct infinite symbol :data:`INF` between components (Zhang et al. 2023, GD-WL with RD).

Exact scheme (deterministic, proved exact, no hashing): for a connected component with grounded
Laplacian ``L_0`` (row and column of its first node ``r`` removed), ``tau = det L_0`` is the number
of spanning trees and ``L_0^-1 = adj(L_0) / tau``; then ``tau R_ij = a_ii + a_jj - 2 a_ij`` with
``a = adj(L_0)`` padded by a zero row and column for ``r``. ``adj(L_0)`` and ``tau`` are computed
modulo several primes below :func:`~wltools.distances.modular.prime_cap` (Gauss-Jordan elimination
in int64 with lazy reduction) and lifted by the Chinese remainder theorem. The bound: ``L_0`` is a
positive definite M-matrix, so ``0 <= a_ij <= max(a_ii, a_jj)`` and
``a_ii = tau R(i, r) <= tau (s - 1)``, and by Hadamard's inequality ``tau <= prod_{i != r} deg(i)``;
primes are taken until their product exceeds ``2 (s - 1) prod deg``, so every lifted integer is
exact.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterator, Sequence

import networkx as nx
import numpy as np

from .adjacency import adjacency_matrix
from ..runtime.hashing import unique_rows
from .modular import crt, garner_digits, inverse_mod_p, prime_cap, primes_below, renumber_keys
from .spd import components

__all__ = ["INF", "resistance_exact", "resistance_keys", "resistance_keys_and_values"]


class _Infinity:
    """The resistance distance between nodes of different components (a singleton)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "INF"

    __str__ = __repr__

    def __reduce__(self):
        return (_Infinity, ())


#: The "infinite" resistance distance between different connected components.
INF = _Infinity()


def _grounded_component(A: np.ndarray, comp: np.ndarray):
    """Grounded Laplacian of a component (first node removed) and the proven entry bound."""
    sub = A[np.ix_(comp, comp)]
    deg = sub.sum(axis=1)
    L = np.diag(deg) - sub
    L0 = L[1:, 1:]
    bound = 2 * (len(comp) - 1) * math.prod(int(d) for d in deg[1:])
    return L0, bound


def _adjugate_residues(L0: np.ndarray, bound: int):
    """Residues of ``adj(L_0)`` and ``tau`` modulo enough primes (product > bound)."""
    primes, invs, dets = [], [], []
    prod = 1
    p = prime_cap(L0.shape[0])
    while prod <= bound:
        p = primes_below(p, 1)[0]
        res = inverse_mod_p(L0, p)
        if res is None:  # p divides tau: skip this prime
            continue
        inv, det = res
        primes.append(p)
        invs.append(inv * det % p)  # adj(L0) = det * L0^-1
        dets.append(det)
        prod *= p
    return primes, invs, dets


def _per_component(A: np.ndarray) -> Iterator[tuple[np.ndarray, tuple | None]]:
    """``(component, system)`` for every connected component, ordered by smallest node; ``system``
    is ``None`` for a single node, else ``(primes, residues of adj(L_0), tau)``."""
    for comp in components(A):
        if len(comp) == 1:
            yield comp, None
            continue
        primes, adjs, dets = _adjugate_residues(*_grounded_component(A, comp))
        tau = int(crt([np.array([d]) for d in dets], primes)[0])
        yield comp, (primes, adjs, tau)


def resistance_exact(G: nx.Graph) -> list[list]:
    """Exact resistance distances of ``G`` as an ``n x n`` nested list of :class:`Fraction`,
    with :data:`INF` between nodes of different connected components.

    Computed per component from ``adj(L_0)`` and ``tau = det(L_0)`` by a multi-modular scheme
    with a proven bound (see the module docstring).

    Examples
    --------
    >>> import networkx as nx
    >>> resistance_exact(nx.cycle_graph(4))[0][1]
    Fraction(3, 4)
    >>> resistance_exact(nx.empty_graph(2))[0]
    [Fraction(0, 1), INF]
    """
    A = adjacency_matrix(G)
    n = A.shape[0]
    R: list[list] = [[INF] * n for _ in range(n)]
    for comp, system in _per_component(A):
        if system is None:
            R[comp[0]][comp[0]] = Fraction(0)
            continue
        primes, adjs, tau = system
        s = len(comp)
        adj = crt(adjs, primes)
        a = np.zeros((s, s), dtype=object)
        a[1:, 1:] = adj
        diag = np.array([a[i, i] for i in range(s)], dtype=object)
        num = diag[:, None] + diag[None, :] - 2 * a
        for x in range(s):
            row = R[comp[x]]
            for y in range(s):
                row[comp[y]] = Fraction(int(num[x, y]), tau)
    return R


def resistance_keys(graphs: Sequence[nx.Graph]) -> list[np.ndarray]:
    """Exact resistance-distance keys: int64 ``[n, n]`` per graph, one shared table; equal keys
    iff equal resistance distances (:data:`INF` is its own key).

    Per component, the numerators ``a = tau R`` are lifted as Garner digit rows (exact, see the
    module docstring); only the *distinct* numerators become Python :class:`Fraction` objects
    ``a / tau``, which one dict maps to shared integer keys.

    Examples
    --------
    >>> import networkx as nx
    >>> kp, kq = resistance_keys([nx.path_graph(3), nx.disjoint_union(nx.path_graph(2), nx.path_graph(1))])
    >>> kp.tolist(), kq.tolist()  # 0 = INF, 1 = 0, 2 = 1, 3 = 2
    ([[1, 2, 3], [2, 1, 2], [3, 2, 1]], [[1, 2, 0], [2, 1, 0], [0, 0, 1]])
    """
    return resistance_keys_and_values(graphs)[0]


def _sorted_unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(rows, axis=0, return_inverse=True)`` (distinct rows in lexicographic order, and
    each row's index among them) through :func:`~wltools.runtime.hashing.unique_rows` (hashed,
    verified, exact), 10-20x faster on the tens of thousands of rows of a large component.

    Examples
    --------
    >>> import numpy as np
    >>> u, inv = _sorted_unique_rows(np.array([[2, 1], [0, 5], [2, 1]]))
    >>> u.tolist(), inv.tolist()
    ([[0, 5], [2, 1]], [1, 0, 1])
    """
    ids = unique_rows(rows)
    first = np.unique(ids, return_index=True)[1]  # a row of each id, in id order
    order = np.lexsort(rows[first].T[::-1])
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return rows[first[order]], rank[ids]


def resistance_keys_and_values(graphs: Sequence[nx.Graph]) -> tuple[list[np.ndarray], list]:
    """:func:`resistance_keys` and the exact value of every key (``values[key]``, a
    :class:`Fraction` or :data:`INF`), so that a reader of the keys (a refinement witness) never
    recomputes a resistance.

    Examples
    --------
    >>> import networkx as nx
    >>> keys, values = resistance_keys_and_values([nx.cycle_graph(3)])
    >>> keys[0].tolist(), [str(v) for v in values]
    ([[0, 1, 1], [1, 0, 1], [1, 1, 0]], ['0', '2/3'])
    """
    table: dict = {INF: 0}
    out = []
    for G in graphs:
        A = adjacency_matrix(G)
        n = A.shape[0]
        keys = np.zeros((n, n), dtype=np.int64)  # 0 = INF
        for comp, system in _per_component(A):
            if system is None:
                keys[comp[0], comp[0]] = table.setdefault(Fraction(0), len(table))
                continue
            primes, adjs, tau = system
            s = len(comp)
            num_res = []
            for adj, p in zip(adjs, primes):
                a = np.zeros((s, s), dtype=np.int64)
                a[1:, 1:] = adj
                d = np.diag(a)
                num_res.append((d[:, None] + d[None, :] - 2 * a) % p)
            digits = garner_digits([r.reshape(-1) for r in num_res], primes)
            del num_res
            uniq, inv = _sorted_unique_rows(digits)
            del digits
            radix = [1]
            for p in primes[:-1]:
                radix.append(radix[-1] * p)
            codes = np.array(
                [table.setdefault(Fraction(sum(int(x) * w for x, w in zip(row, radix)), tau), len(table)) for row in uniq],
                dtype=np.int64,
            )
            keys[np.ix_(comp, comp)] = codes[inv.reshape(-1)].reshape(s, s)
        out.append(keys)
    by_id = list(table)  # table ids are 0..len-1 in insertion order
    flat = np.concatenate([k.reshape(-1) for k in out]) if out else np.zeros(0, dtype=np.int64)
    used = np.unique(flat)
    renumbered = renumber_keys(out)
    return renumbered, [by_id[int(i)] for i in used]
