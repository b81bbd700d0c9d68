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
from .modular import crt, garner_digits, inverse_mod_primes, prime_cap, primes_from, renumber_keys
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
    """Residues of ``adj(L_0)`` (``[primes, s, s]``) and ``tau`` modulo the largest primes below
    :func:`~wltools.distances.modular.prime_cap` that do not divide ``tau``, in decreasing order,
    until their product passes ``bound``; all primes a product of them can need are inverted at
    once (:func:`~wltools.distances.modular.inverse_mod_primes`), the few more a prime dividing
    ``tau`` costs after."""
    cap = prime_cap(L0.shape[0])
    primes, invs, dets = [], [], []
    prod, tried = 1, 0
    while prod <= bound:
        more, q = 0, prod
        while q <= bound:  # the fewest further primes that pass the bound if none divides tau
            q *= primes_from(cap, tried + more + 1)[tried + more]
            more += 1
        batch = primes_from(cap, tried + more)[tried:]
        tried += more
        for p, res in zip(batch, inverse_mod_primes(L0, batch)):
            if res is None or prod > bound:  # p divides tau: skip it
                continue
            primes.append(p)
            invs.append(res[0])
            dets.append(res[1])
            prod *= p
    adj = np.stack(invs)
    adj *= np.array(dets, dtype=np.int64)[:, None, None]  # adj(L0) = det * L0^-1 (entries < p^2 < 2^62)
    adj %= np.array(primes, dtype=np.int64)[:, None, None]
    return primes, adj, dets


def _lift(L0: np.ndarray, bound: int) -> tuple:
    """``(primes, residues of adj(L_0), tau)`` of a component (:func:`_adjugate_residues`, ``tau``
    lifted by the Chinese remainder theorem)."""
    primes, adjs, dets = _adjugate_residues(L0, bound)
    return primes, adjs, int(crt([np.array([d]) for d in dets], primes)[0])


def _per_component(A: np.ndarray) -> Iterator[tuple[np.ndarray, tuple | None]]:
    """``(component, system)`` for every connected component, ordered by smallest node; ``system``
    is ``None`` for a single node, else ``(primes, residues of adj(L_0), tau)``."""
    for comp in components(A):
        if len(comp) == 1:
            yield comp, None
            continue
        yield comp, _lift(*_grounded_component(A, comp))


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


def _sorted_unique_rows(rows: np.ndarray, key=None) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(rows, axis=0, return_inverse=True)`` (distinct rows in lexicographic order, and
    each row's index among them) through :func:`~wltools.runtime.hashing.unique_rows` (hashed,
    verified, exact), 10-20x faster on the tens of thousands of rows of a large component.
    ``key``, optional, maps the distinct rows to rows in one-to-one correspondence with them (the
    Garner digits of residue rows): those are returned, sorted, in place of the rows.

    Examples
    --------
    >>> import numpy as np
    >>> u, inv = _sorted_unique_rows(np.array([[2, 1], [0, 5], [2, 1]]))
    >>> u.tolist(), inv.tolist()
    ([[0, 5], [2, 1]], [1, 0, 1])
    >>> u, inv = _sorted_unique_rows(np.array([[2, 1], [0, 5], [2, 1]]), key=lambda d: -d)
    >>> u.tolist(), inv.tolist()
    ([[-2, -1], [0, -5]], [0, 1, 0])
    """
    ids = unique_rows(rows)
    first = np.unique(ids, return_index=True)[1]  # a row of each id, in id order
    keyed = rows[first] if key is None else key(rows[first])
    order = np.lexsort(keyed.T[::-1])
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return keyed[order], rank[ids]


def _numerator_residues(adjs: np.ndarray, primes: list[int]) -> np.ndarray:
    """``tau R_ij = a_ii + a_jj - 2 a_ij`` modulo each prime (``[primes, s, s]``), from the
    adjugate residues ``adjs [primes, s - 1, s - 1]`` (``a`` padded by a zero row and column for
    the grounded node)."""
    m, t = adjs.shape[0], adjs.shape[1] + 1
    a = np.zeros((m, t, t), dtype=np.int64)
    a[:, 1:, 1:] = adjs
    d = np.diagonal(a, axis1=1, axis2=2)
    num = d[:, :, None] + d[:, None, :] - 2 * a
    num %= np.array(primes, dtype=np.int64)[:, None, None]
    return num


#: Components of at most this many nodes are lifted in Python integers (:func:`_small_component_keys`).
SMALL_COMPONENT = 8


def _adjugate_bareiss(M: list[list[int]]) -> tuple[list[list[int]], int] | None:
    """``(adj(M), det M)`` of a small integer matrix in Python integers, by fraction-free
    Gauss-Jordan elimination (Bareiss 1968): step ``k`` sets ``m_ij <- (m_kk m_ij - m_ik m_kj) /
    p`` (``p`` the previous pivot; the division is exact by Sylvester's identity) on ``[M | I]``,
    which ends as ``[det M I | adj M]``. Pivots stay on the diagonal: ``None`` when one is
    zero (never for a grounded Laplacian, whose leading principal minors are positive).

    Examples
    --------
    >>> _adjugate_bareiss([[2, -1], [-1, 2]])
    ([[2, 1], [1, 2]], 3)
    """
    t = len(M)
    W = [list(row) + [int(i == j) for j in range(t)] for i, row in enumerate(M)]
    prev = 1
    for k in range(t):
        pivot, rk = W[k][k], W[k]
        if pivot == 0:
            return None
        for i in range(t):
            if i != k:
                f, ri = W[i][k], W[i]
                W[i] = [(pivot * x - f * y) // prev for x, y in zip(ri, rk)]
        prev = pivot
    return [row[t:] for row in W], prev


def _small_component_keys(L0: np.ndarray, bound: int, table: dict) -> np.ndarray | None:
    """:func:`_component_keys` of a component of at most :data:`SMALL_COMPONENT` nodes, from the
    exact adjugate in Python integers (:func:`_adjugate_bareiss`), the same keys: its bound is
    below the largest prime the modular lift would take, which then takes that prime alone, so
    the Garner digits of a numerator ``tau R_ij`` are the numerator itself and new values enter
    ``table`` in increasing order. ``None`` where that does not hold (the modular lift then)."""
    t = L0.shape[0]
    if t + 1 > SMALL_COMPONENT or bound >= primes_from(prime_cap(t), 1)[0]:
        return None
    exact = _adjugate_bareiss(L0.tolist())
    if exact is None:
        return None
    adj, tau = exact
    a = [[0] * (t + 1)] + [[0, *row] for row in adj]  # padded for the grounded node
    d = [a[i][i] for i in range(t + 1)]
    num = [[d[i] + d[j] - 2 * x for j, x in enumerate(row)] for i, row in enumerate(a)]
    code = {x: table.setdefault(Fraction(x, tau), len(table)) for x in sorted({x for row in num for x in row})}
    return np.array([[code[x] for x in row] for row in num], dtype=np.int64)


def _component_keys(system: tuple, table: dict) -> np.ndarray:
    """The keys ``[s, s]`` of one component's resistances (``system`` of :func:`_per_component`),
    new values entered in ``table`` (value -> key) in the lexicographic order of their Garner
    digits. ``R`` is symmetric, so only the pairs ``i <= j`` are lifted: the residues of each
    numerator are grouped exactly (:func:`_sorted_unique_rows`), and only the distinct ones are
    turned into digits and then into :class:`Fraction` values."""
    primes, adjs, tau = system
    s = adjs.shape[1] + 1
    iu, ju = np.triu_indices(s)
    rows = np.ascontiguousarray(_numerator_residues(adjs, primes)[:, iu, ju].T)  # [pairs i <= j, primes]
    uniq, inv = _sorted_unique_rows(rows, key=lambda distinct: garner_digits(list(distinct.T), primes))
    radix = [1]
    for p in primes[:-1]:
        radix.append(radix[-1] * p)
    codes = np.array([table.setdefault(Fraction(sum(x * w for x, w in zip(row, radix)), tau), len(table))
                      for row in uniq.tolist()], dtype=np.int64)
    keys = np.empty((s, s), dtype=np.int64)
    keys[iu, ju] = keys[ju, iu] = codes[inv]
    return keys


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
        for comp in components(A):
            if len(comp) == 1:
                keys[comp[0], comp[0]] = table.setdefault(Fraction(0), len(table))
                continue
            L0, bound = _grounded_component(A, comp)
            small = _small_component_keys(L0, bound, table)
            keys[np.ix_(comp, comp)] = small if small is not None else _component_keys(_lift(L0, bound), table)
        out.append(keys)
    by_id = list(table)  # table ids are 0..len-1 in insertion order
    flat = np.concatenate([k.reshape(-1) for k in out]) if out else np.zeros(0, dtype=np.int64)
    used = np.unique(flat)
    renumbered = renumber_keys(out)
    return renumbered, [by_id[int(i)] for i in used]
