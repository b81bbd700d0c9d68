"""Graph distances used by distance-based WL tests and by the models' positional encodings.

One definition of each distance, in an exact form (for colour refinement) and a float form (for
the models' encodings):

* **SPD**, the shortest-path distance (Graphormer, Ying et al. 2021, Sec. 3.1.2; Zhang et al.
  GD-WL as quoted in PPGT App. E Eq. 13). Unreachable pairs get ``-1``, a symbol of its own.
* **RD**, the resistance distance ``R_ij = (e_i - e_j)^T L^+ (e_i - e_j)`` per connected component;
  between components a distinct infinite symbol (:data:`INF` exactly, ``inf`` as float).
* **RRWP**, relative random-walk probabilities, GRIT Eq. (1):
  ``P_ij = [I, M, M^2, ..., M^(K-1)]_ij`` with ``M = D^-1 A``; an isolated node has a zero row of
  ``M`` (so its RRWP row is zero beyond the identity channel).

Exact schemes (all deterministic, all *proved* exact, no hashing):

* SPD: breadth-first search (scipy.sparse.csgraph, unweighted) over the 0/1 adjacency matrix.
* RD: for a connected component with grounded Laplacian ``L_0`` (row/column of one node ``r``
  removed), ``tau = det L_0`` is the number of spanning trees and ``L_0^-1 = adj(L_0) / tau``; then
  ``tau R_ij = a_ii + a_jj - 2 a_ij`` with ``a = adj(L_0)`` padded by a zero row/column for ``r``.
  ``adj(L_0)`` and ``tau`` are computed modulo several primes below ``min(2^31, sqrt(2^62 / s))`` (Gauss-Jordan elimination in
  int64 with lazy reduction) and lifted by the Chinese remainder theorem. The bound: ``L_0`` is a positive definite
  M-matrix, so ``0 <= a_ij <= max(a_ii, a_jj)`` and ``a_ii = tau R(i, r) <= tau (s - 1)``, and by
  Hadamard's inequality ``tau <= prod_{i != r} deg(i)``; primes are taken until their product
  exceeds ``2 (s - 1) prod deg``, so every lifted integer is exact.
* RRWP: with ``L`` the lcm of the positive degrees, ``B = L D^-1 A`` is an integer matrix and
  ``M^k = B^k / L^k`` (``0 <= (B^k)_ij <= L^k`` since rows of ``B`` sum to ``L``). The exact form
  :func:`rrwp_exact` uses Python integers. The refinement keys (:func:`rrwp_keys`) use residues of
  ``B^k`` modulo primes ``p`` with ``n L p < 2^53`` (so float64 BLAS products are exact) whose
  product exceeds ``L^(K-1)``: equal residue vectors imply equal integers, hence equal rationals.

For colour refinement only *equality* of distance values matters: :func:`distance_keys` maps the
exact values of several graphs to small integers through one shared table.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import networkx as nx
import numpy as np
import torch
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from .errors import UnknownNameError, UnsupportedGraphError

__all__ = [
    "INF",
    "DISTANCES",
    "adjacency_matrix",
    "spd_matrix",
    "resistance_exact",
    "rrwp_exact",
    "spd_float",
    "resistance_float",
    "rrwp_float",
    "distance_keys",
    "rrwp_keys",
    "resistance_keys",
    "unique_rows",
]

DISTANCES = ("spd", "rd", "rrwp")


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


# --------------------------------------------------------------------------- helpers


def adjacency_matrix(G: nx.Graph) -> np.ndarray:
    """0/1 int64 adjacency matrix of a simple undirected graph with nodes ``0..n-1``."""
    if G.is_directed() or G.is_multigraph():
        raise UnsupportedGraphError("only simple undirected graphs are supported")
    n = G.number_of_nodes()
    if set(G.nodes) != set(range(n)):
        raise UnsupportedGraphError("nodes must be 0..n-1 (use wltools.graphs.validate_graph)")
    A = np.zeros((n, n), dtype=np.int64)
    for u, v in G.edges():
        if u == v:
            raise UnsupportedGraphError(f"self-loop at node {u}")
        A[u, v] = A[v, u] = 1
    return A


def _adjacency_from_edge_index(edge_index: torch.Tensor, num_nodes: int) -> np.ndarray:
    """Symmetric 0/1 int64 adjacency from a PyG ``edge_index`` (self-loops dropped)."""
    ei = torch.as_tensor(edge_index).detach().cpu().long().numpy()
    A = np.zeros((num_nodes, num_nodes), dtype=np.int64)
    if ei.size:
        A[ei[0], ei[1]] = 1
        A[ei[1], ei[0]] = 1
    np.fill_diagonal(A, 0)
    return A


def _spd_from_adjacency(A: np.ndarray) -> np.ndarray:
    """Breadth-first search from every node (scipy's C BFS, ``unweighted=True``); the float
    result holds small integers exactly and is converted to int64, -1 = unreachable."""
    n = A.shape[0]
    if n == 0:
        return np.zeros((0, 0), dtype=np.int64)
    D = shortest_path(csr_matrix(A), method="D", directed=False, unweighted=True)
    out = np.full((n, n), -1, dtype=np.int64)
    fin = np.isfinite(D)
    out[fin] = D[fin].astype(np.int64)
    return out


def _components(A: np.ndarray) -> list[np.ndarray]:
    """Connected components as sorted index arrays, ordered by smallest node."""
    n = A.shape[0]
    D = _spd_from_adjacency(A)
    seen = np.zeros(n, dtype=bool)
    comps = []
    for v in range(n):
        if not seen[v]:
            c = np.flatnonzero(D[v] >= 0)
            seen[c] = True
            comps.append(c)
    return comps


def _primes_below(start: int, count: int, avoid=()) -> list[int]:
    """The ``count`` largest primes below ``start`` (deterministic), skipping ``avoid``."""
    out = []
    p = start - 1 if start % 2 == 0 else start - 2
    while len(out) < count:
        if p < 3:
            raise ValueError("ran out of primes")
        if _is_prime(p) and p not in avoid:
            out.append(p)
        p -= 2
    return out


def _is_prime(p: int) -> bool:
    if p < 2:
        return False
    for q in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if p % q == 0:
            return p == q
    d, s = p - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):  # deterministic for p < 3.3e24
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


_P31 = 2**31


def _inverse_mod_p(M: np.ndarray, p: int) -> tuple[np.ndarray, int] | None:
    """Inverse and determinant of an integer matrix modulo a prime ``p`` with
    ``p + s p^2 < 2^62`` (int64 Gauss-Jordan elimination with lazy reduction: only the pivot row
    and column are reduced at each step; every other entry changes by less than ``p^2`` per step,
    so no intermediate overflows). ``None`` when ``M`` is singular modulo ``p``."""
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


def _prime_cap(s: int) -> int:
    """Largest prime size allowed by :func:`_inverse_mod_p` for an ``s x s`` matrix."""
    return min(_P31, math.isqrt((2**62) // (s + 2)))


def _crt(residues: list[np.ndarray], primes: list[int]) -> np.ndarray:
    """Lift arrays of residues to the non-negative integers below prod(primes) (object array)."""
    out = np.zeros(residues[0].shape, dtype=object)
    mod = 1
    for r, p in zip(residues, primes):
        # x = out + mod * t with t = (r - out) * mod^-1  (mod p)
        inv = pow(mod % p, -1, p)
        t = ((r.astype(object) - out) % p) * inv % p
        out = out + mod * t
        mod *= p
    return out


def _grounded_component(A: np.ndarray, comp: np.ndarray):
    """Grounded Laplacian of a component (first node removed) and the proven entry bound."""
    sub = A[np.ix_(comp, comp)]
    deg = sub.sum(axis=1)
    L = np.diag(deg) - sub
    L0 = L[1:, 1:]
    bound = 2 * (len(comp) - 1) * math.prod(int(d) for d in deg[1:])
    return L0, bound


def _resistance_component_mod(L0: np.ndarray, bound: int):
    """Residues of ``adj(L_0)`` and ``tau`` modulo enough primes (product > bound)."""
    primes, invs, dets = [], [], []
    prod = 1
    p = _prime_cap(L0.shape[0])
    while prod <= bound:
        p = _primes_below(p, 1)[0]
        res = _inverse_mod_p(L0, p)
        if res is None:  # p divides tau: skip this prime
            continue
        inv, det = res
        primes.append(p)
        invs.append(inv * det % p)  # adj(L0) = det * L0^-1
        dets.append(det)
        prod *= p
    return primes, invs, dets


# --------------------------------------------------------------------------- exact forms


def spd_matrix(G: nx.Graph) -> np.ndarray:
    """Shortest-path distances of ``G`` as an int64 ``[n, n]`` array; ``-1`` = unreachable.

    Examples
    --------
    >>> spd_matrix(nx.path_graph(3)).tolist()
    [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    """
    return _spd_from_adjacency(adjacency_matrix(G))


def resistance_exact(G: nx.Graph) -> list[list]:
    """Exact resistance distances of ``G`` as an ``n x n`` nested list of :class:`Fraction`,
    with :data:`INF` between nodes of different connected components.

    Computed per component from ``adj(L_0)`` and ``tau = det(L_0)`` by a multi-modular scheme
    with a proven bound (see the module docstring).

    Examples
    --------
    >>> resistance_exact(nx.cycle_graph(4))[0][1]
    Fraction(3, 4)
    """
    A = adjacency_matrix(G)
    n = A.shape[0]
    R: list[list] = [[INF] * n for _ in range(n)]
    for comp in _components(A):
        s = len(comp)
        if s == 1:
            R[comp[0]][comp[0]] = Fraction(0)
            continue
        L0, bound = _grounded_component(A, comp)
        primes, adjs, dets = _resistance_component_mod(L0, bound)
        adj = _crt(adjs, primes)
        tau = int(_crt([np.array([d]) for d in dets], primes)[0])
        a = np.zeros((s, s), dtype=object)
        a[1:, 1:] = adj
        diag = np.array([a[i, i] for i in range(s)], dtype=object)
        num = diag[:, None] + diag[None, :] - 2 * a
        for x in range(s):
            row = R[comp[x]]
            for y in range(s):
                row[comp[y]] = Fraction(int(num[x, y]), tau)
    return R


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
    >>> rrwp_exact(nx.path_graph(3), 3)[0][2]
    (Fraction(0, 1), Fraction(0, 1), Fraction(1, 2))
    """
    if K < 1:
        raise ValueError("K must be >= 1")
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


# --------------------------------------------------------------------------- float forms


def spd_float(edge_index: torch.Tensor, num_nodes: int) -> torch.Tensor:
    """Shortest-path distances as a LongTensor ``[n, n]``, ``-1`` = unreachable (same BFS as
    :func:`spd_matrix`)."""
    A = _adjacency_from_edge_index(edge_index, num_nodes)
    return torch.from_numpy(_spd_from_adjacency(A))


def resistance_float(
    edge_index: torch.Tensor, num_nodes: int, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """Resistance distances ``[n, n]`` in ``dtype`` (computed in float64); ``inf`` across components.

    Uses ``X = (L + sum_c J_c / |c|)^-1 = L^+ + sum_c J_c / |c|`` (block-wise over components
    ``c``), so ``R_ij = X_ii + X_jj - 2 X_ij`` within a component.
    """
    A = _adjacency_from_edge_index(edge_index, num_nodes)
    n = num_nodes
    if n == 0:
        return torch.zeros((0, 0), dtype=dtype)
    Lap = np.diag(A.sum(axis=1)).astype(np.float64) - A
    same = np.zeros((n, n), dtype=bool)
    for c in _components(A):
        Lap[np.ix_(c, c)] += 1.0 / len(c)
        same[np.ix_(c, c)] = True
    X = np.linalg.inv(Lap)
    d = np.diag(X)
    R = d[:, None] + d[None, :] - 2 * X
    R = (R + R.T) / 2
    np.fill_diagonal(R, 0.0)
    R = np.where(same, np.maximum(R, 0.0), np.inf)
    return torch.from_numpy(R).to(dtype)


def rrwp_float(
    edge_index: torch.Tensor, num_nodes: int, K: int, dtype: torch.dtype = torch.float32
) -> torch.Tensor:
    """RRWP (GRIT Eq. 1) as a Tensor ``[n, n, K]``: channel ``k`` is ``(D^-1 A)^k``, ``k < K``.

    Computed in float64 then cast to ``dtype``; isolated nodes give zero rows beyond the identity.
    """
    if K < 1:
        raise ValueError("K must be >= 1")
    A = torch.from_numpy(_adjacency_from_edge_index(edge_index, num_nodes)).double()
    deg = A.sum(dim=1, keepdim=True)
    M = torch.where(deg > 0, A / deg.clamp(min=1), torch.zeros_like(A))
    P = torch.eye(num_nodes, dtype=torch.float64)
    out = [P]
    for _ in range(K - 1):
        P = P @ M
        out.append(P)
    return torch.stack(out, dim=-1).to(dtype)


# --------------------------------------------------------------------------- refinement keys


_WEIGHTS = np.random.default_rng(20240601).integers(1, 2**62, size=4096, dtype=np.uint64) * np.uint64(2) + np.uint64(1)


def unique_rows(X: np.ndarray) -> np.ndarray:
    """Exact ids of the distinct rows of a non-negative int64 matrix ``X [N, m]``.

    Rows are grouped by a 64-bit linear hash (fixed odd random weights, arithmetic mod 2^64),
    then *verified*: every row is compared entry by entry with its group's first row. If any
    group holds two different rows (a hash collision) the function falls back to
    ``np.unique(X, axis=0)``. The result is therefore always exact; the hash only makes it fast.
    Ids are ``0..k-1``; the order of ids is arbitrary but deterministic.
    """
    X = np.ascontiguousarray(X, dtype=np.int64)
    N, m = X.shape
    if N == 0:
        return np.zeros(0, dtype=np.int64)
    if m == 1:
        return np.unique(X[:, 0], return_inverse=True)[1].reshape(-1)
    if m <= _WEIGHTS.size:
        w = _WEIGHTS[:m]
    else:
        w = np.random.default_rng(m).integers(1, 2**62, size=m, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    Xu = X.view(np.uint64)
    h = Xu @ w  # wraps modulo 2^64
    h ^= h >> np.uint64(29)
    h += (Xu[:, 0] + np.uint64(0x9E3779B97F4A7C15)) * np.uint64(0xBF58476D1CE4E5B9)
    uh, first, inv = np.unique(h, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    if np.array_equal(X, X[first[inv]]):
        return inv
    return np.unique(X, axis=0, return_inverse=True)[1].reshape(-1)





def rrwp_keys(graphs: Sequence[nx.Graph], K: int) -> list[np.ndarray]:
    """Exact RRWP keys: int64 ``[n, n]`` per graph, equal iff the RRWP tuples are equal.

    One shared table for all ``graphs`` (same ``L`` for all of them, see the module docstring).
    Residues of ``B^k`` modulo primes ``p`` with ``n_max L p < 2^53`` are exact in float64
    BLAS; their product exceeds ``L^(K-1)``, so equal residue vectors mean equal integers.
    """
    if K < 1:
        raise ValueError("K must be >= 1")
    As = [adjacency_matrix(G) for G in graphs]
    L = _lcm_degrees(As)
    nmax = max((A.shape[0] for A in As), default=1) or 1
    pmax = (2**53) // (nmax * L + 1)
    pmax = min(pmax, 2**40)
    need = L ** (K - 1)
    primes: list[int] = []
    prod, p = 1, pmax
    while prod <= need:
        p = _primes_below(p, 1)[0]
        primes.append(p)
        prod *= p
    if not primes:
        primes = [_primes_below(pmax, 1)[0]]
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


def _garner_digits(residues: list[np.ndarray], primes: list[int]) -> np.ndarray:
    """Mixed-radix digits ``[N, P]`` of the integers ``0 <= x < prod(primes)`` with the given
    residues (Garner's algorithm, vectorised in int64): ``x = sum_k d_k prod_{j<k} p_j``, so equal
    digit rows <=> equal integers."""
    digits: list[np.ndarray] = []
    for k, (r, p) in enumerate(zip(residues, primes)):
        acc = np.zeros_like(r)
        coef = 1
        for j in range(k):
            acc = (acc + digits[j] * (coef % p)) % p
            coef *= primes[j]
        digits.append(((r - acc) % p) * pow(coef % p, -1, p) % p)
    return np.stack(digits, axis=1)


def resistance_keys(graphs: Sequence[nx.Graph]) -> list[np.ndarray]:
    """Exact resistance-distance keys: int64 ``[n, n]`` per graph, one shared table; equal keys
    iff equal resistance distances (:data:`INF` is its own key).

    Per component, the numerators ``a = tau R`` are lifted as Garner digit rows (exact, see the
    module docstring); only the *distinct* numerators become Python :class:`Fraction` objects
    ``a / tau``, which one dict maps to shared integer keys.
    """
    table: dict = {INF: 0}
    out = []
    for G in graphs:
        A = adjacency_matrix(G)
        n = A.shape[0]
        keys = np.zeros((n, n), dtype=np.int64)  # 0 = INF
        for comp in _components(A):
            s = len(comp)
            if s == 1:
                keys[comp[0], comp[0]] = table.setdefault(Fraction(0), len(table))
                continue
            L0, bound = _grounded_component(A, comp)
            primes, adjs, dets = _resistance_component_mod(L0, bound)
            num_res = []
            for adj, p in zip(adjs, primes):
                a = np.zeros((s, s), dtype=np.int64)
                a[1:, 1:] = adj
                d = np.diag(a)
                num_res.append((d[:, None] + d[None, :] - 2 * a) % p)
            tau = int(_crt([np.array([d]) for d in dets], primes)[0])
            digits = _garner_digits([r.reshape(-1) for r in num_res], primes)
            uniq, inv = np.unique(digits, axis=0, return_inverse=True)
            radix = [1]
            for p in primes[:-1]:
                radix.append(radix[-1] * p)
            codes = np.array(
                [table.setdefault(Fraction(sum(int(x) * w for x, w in zip(row, radix)), tau), len(table)) for row in uniq],
                dtype=np.int64,
            )
            keys[np.ix_(comp, comp)] = codes[inv.reshape(-1)].reshape(s, s)
        out.append(keys)
    return _canonical(out)


def _canonical(keys: list[np.ndarray]) -> list[np.ndarray]:
    """Renumber shared keys 0..k-1 (order of first appearance is irrelevant to refinement)."""
    if not keys:
        return keys
    flat = np.concatenate([k.reshape(-1) for k in keys])
    inv = np.unique(flat, return_inverse=True)[1].reshape(-1)
    out, o = [], 0
    for k in keys:
        out.append(inv[o : o + k.size].reshape(k.shape))
        o += k.size
    return out


def distance_keys(graphs: Sequence[nx.Graph], distance: str, *, rrwp_steps: int | None = None):
    """Shared integer keys of one distance over several graphs (one table for all of them).

    Parameters
    ----------
    graphs : sequence of nx.Graph
    distance : {"spd", "rd", "rrwp"}
    rrwp_steps : int, optional
        ``K`` for RRWP; default ``max(n)`` over the graphs.

    Returns
    -------
    list of int64 arrays ``[n, n]``; equal keys iff equal exact distance values.
    """
    if distance == "spd":
        return _canonical([spd_matrix(G) for G in graphs])
    if distance == "rd":
        return resistance_keys(graphs)
    if distance == "rrwp":
        K = rrwp_steps if rrwp_steps is not None else max(G.number_of_nodes() for G in graphs)
        return rrwp_keys(graphs, max(1, K))
    raise UnknownNameError(f"unknown distance {distance!r}; choose from {', '.join(DISTANCES)}")
