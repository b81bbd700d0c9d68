"""Relative random-walk probabilities (RRWP), GRIT Eq. (1):
``P_ij = [I, M, M^2, ..., M^(K-1)]_ij`` with ``M = D^-1 A``; an isolated node has a zero row of
``M`` (so its RRWP row is zero beyond the identity channel).

Exact scheme: with ``L`` the lcm of the positive degrees, ``B = L D^-1 A`` is an integer matrix and
``M^k = B^k / L^k`` (``0 <= (B^k)_ij <= L^k`` since rows of ``B`` sum to ``L``). The exact form
:func:`rrwp_exact` uses Python integers. The refinement keys (:func:`rrwp_keys`) use residues of
``B^k`` modulo primes ``p`` with ``d L p < 2^53`` (``d`` the largest degree; so float64 sparse and
BLAS products are exact) whose
product exceeds ``L^(K-1)``: equal residue vectors imply equal integers, hence equal rationals.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import networkx as nx
import numpy as np

from .adjacency import SMALL_N, adjacency_csr, adjacency_matrix
from ..runtime.hashing import HashCollision, with_retries
from .modular import primes_from
from .walk_certificate import unproven_entries

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


def rrwp_scaled(G: nx.Graph, K: int) -> tuple[list[np.ndarray], int]:
    """``([B^0, ..., B^(K-1)], L)``: exact RRWP (GRIT Eq. 1) in Python integers, ``M^k = B^k / L^k``
    with ``B = L D^-1 A`` and ``L`` the lcm of the degrees (:func:`rrwp_exact` without building
    Fractions)."""
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
    return powers, L


def rrwp_exact(G: nx.Graph, K: int) -> list[list[tuple]]:
    """Exact RRWP (GRIT Eq. 1): ``P[i][j] = (I_ij, M_ij, ..., (M^(K-1))_ij)`` as Fractions.

    Uses ``M^k = B^k / L^k`` with the integer matrix ``B = L D^-1 A`` (Python integers); entries
    with equal numerators share one tuple of Fractions (built once, reduced by ``Fraction``).

    Examples
    --------
    >>> import networkx as nx
    >>> rrwp_exact(nx.path_graph(3), 3)[0][2]
    (Fraction(0, 1), Fraction(0, 1), Fraction(1, 2))
    """
    powers, L = rrwp_scaled(G, K)
    n = powers[0].shape[0]
    scaled = [[list(map(int, r)) for r in P.tolist()] for P in powers]  # numerators over L^k
    denominators = [L**k for k in range(K)]
    made: dict = {}  # numerator tuple -> its Fractions: one tuple per distinct entry, not per (i, j)

    def entry(key):
        got = made.get(key)
        if got is None:
            got = made[key] = tuple(map(Fraction, key, denominators))
        return got

    return [list(map(entry, zip(*(S[i] for S in scaled)))) for i in range(n)]


def rrwp_nonzero(G: nx.Graph, K: int) -> np.ndarray:
    """``[K, n, n]`` booleans: whether the exact RRWP channel ``(M^k)_vu`` (GRIT Eq. 1) is nonzero.

    ``M^k = B^k / L^k`` with ``B = L D^-1 A`` (:func:`rrwp_scaled`), whose entries are nonnegative
    integers at most ``L^k``: one is zero iff it is zero modulo every prime of
    :func:`_prime_moduli` (their product exceeds ``L^(K-1)``; Chinese remainder theorem). The
    residues come exactly from float64 products (:func:`_residue_steps`), the same values as
    :func:`rrwp_scaled`'s Python integers at a fraction of their cost.

    Examples
    --------
    >>> import networkx as nx
    >>> rrwp_nonzero(nx.path_graph(3), 3)[:, 0, 2].tolist()
    [False, False, True]
    """
    check_steps(K)
    A = adjacency_matrix(G)
    n = A.shape[0]
    if n == 0:
        return np.zeros((K, 0, 0), dtype=bool)
    deg = A.sum(axis=1)
    L = _lcm_degrees([A])
    B = A * np.where(deg > 0, L // np.maximum(deg, 1), 0).astype(np.float64)[:, None]
    out = np.empty((K, n, n), dtype=bool)
    for k, (X,) in enumerate(_residue_steps([B], _prime_moduli(int(deg.max()), L, K), K)):
        out[k] = X.any(axis=1)  # X [n, P, n]: (B^k)_vu mod each prime
    return out


def _prime_moduli(dmax: int, L: int, K: int) -> list[int]:
    """Primes ``p < min(2^40, 2^53 / (d L))`` (``d = dmax`` the largest degree: float64 products
    exact, :func:`_residue_steps`), product ``> L^(K-1)``."""
    pmax = min((2**53) // (max(dmax, 1) * L + 1), 2**40)
    need = L ** (K - 1)
    primes: list[int] = []
    prod = 1
    while prod <= need or not primes:  # the primes below pmax in decreasing order, remembered per cap
        p = primes_from(pmax, len(primes) + 1)[-1]
        primes.append(p)
        prod *= p
    return primes


#: Multiply-adds of one dense ``@`` in :func:`_product` (OpenBLAS runs larger ones threaded).
SLAB_PRODUCT = 2**18


def _reduce(Y: np.ndarray, pk: np.ndarray, primes: np.ndarray, tmp: np.ndarray) -> np.ndarray:
    """Canonical residues (in ``[0, p)``) of the non-negative integers ``Y < 2^53`` modulo the
    primes ``pk`` (broadcast along axis 1), in place; ``tmp`` is a work array of ``Y``'s shape.

    ``floor(Y / p)`` in float64 is off by at most one, so ``Y - p floor(Y / p)`` (exact: integers
    below ``2^53``) lies in ``[-p, 2p)``; the two corrections run only where needed.
    """
    if Y.size == 0:  # a graph none of whose columns is asked for
        return Y
    np.divide(Y, pk, out=tmp)
    np.floor(tmp, out=tmp)
    tmp *= pk
    Y -= tmp
    if Y.min() < 0:
        np.add(Y, pk, out=Y, where=Y < 0)
    over = Y >= pk  # one contiguous pass (a max over axes 0 and 2 is strided, 3x slower)
    if over.any():
        np.subtract(Y, pk, out=Y, where=over)
    return Y


def _product(B):
    """``X -> B @ X`` for the float64 matrix ``B`` (sparse, or dense on small graphs); a dense
    ``B`` multiplies slabs of columns of ``X`` of at most :data:`SLAB_PRODUCT` multiply-adds each,
    the same exact integers (every entry the same sum of non-negative terms below ``2^53``): no
    BLAS call is then large enough for OpenBLAS to run it threaded, which on these small products
    costs several times the work itself (measured: all 400 BREC pairs at K = 32 take half the
    CPU)."""
    if not isinstance(B, np.ndarray):
        return B.__matmul__
    step = max(1, SLAB_PRODUCT // max(B.size, 1))

    def product(X):
        if X.shape[1] <= step:
            return B @ X
        out = np.empty((B.shape[0], X.shape[1]))
        for a in range(0, X.shape[1], step):
            out[:, a : a + step] = B @ X[:, a : a + step]
        return out

    return product


def _residue_steps(Bs, primes: Sequence[int], K: int, cols=None):
    """Yield, for ``k = 0..K-1``, the residues of ``B^k`` modulo every prime: one float64 array
    ``[n, P, c]`` per graph (entry ``[i, q, t]`` = ``(B^k)_{i, cols[t]} mod p_q``, an integer below
    ``p_q``, exact), for the columns ``cols[g]`` of graph ``g`` (all columns when ``cols`` is
    None). ``B^k = B B^(k-1)`` is one sparse-times-dense product of ``B`` (``2m`` nonzeros) with
    all ``P`` residue matrices side by side, so every partial sum is an integer below
    ``d L p < 2^53`` (rows of ``B`` sum to ``L``; rows of ``B^T``, which :func:`_verified` may pass
    instead, to ``sum_{i in N(j)} L / d_i <= d_j L``). The arrays are reused: consume each step's
    before asking for the next."""
    P = len(primes)
    pv = np.array(primes, dtype=np.float64)
    pk = pv[None, :, None]
    Xs = []
    for g, B in enumerate(Bs):
        n = B.shape[0]
        c = np.arange(n) if cols is None else np.asarray(cols[g], dtype=np.int64)
        X = np.zeros((n, P, c.size))
        X[c, :, np.arange(c.size)] = 1.0
        Xs.append(X)
    yield Xs
    work = np.empty(max(X.size for X in Xs))  # one work array shared by the graphs
    products = [_product(B) for B in Bs]
    for _ in range(1, K):
        for g, B in enumerate(Bs):
            n, c = B.shape[0], Xs[g].shape[2]
            Y = products[g](Xs[g].reshape(n, P * c)).reshape(n, P, c)
            Xs[g] = None  # free B^(k-1) before reducing B^k
            Xs[g] = _reduce(Y, pk, pv, work[: Y.size].reshape(Y.shape))
        yield Xs


def _hash_pass(Bs, primes: Sequence[int], K: int, w: np.ndarray, sizes: Sequence[int]) -> np.ndarray:
    """One 64-bit hash per entry (all graphs, row-major, concatenated) of its residues modulo
    ``primes`` at every step ``k < K``, with odd weights ``w[k, q]``: a function of the exact
    RRWP values, so equal values give equal hashes."""
    offsets = np.cumsum([0, *sizes])
    h = np.zeros(int(offsets[-1]), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k, Xs in enumerate(_residue_steps(Bs, primes, K)):
            h *= np.uint64(0x9E3779B97F4A7C15)
            for g, X in enumerate(Xs):
                seg = h[offsets[g] : offsets[g + 1]].reshape(X.shape[0], X.shape[2])
                for q in range(X.shape[1]):
                    seg += X[:, q, :].view(np.uint64) * w[k, q]
            h ^= h >> np.uint64(31)
    return h


#: Residue arrays of one pass stay below this many bytes: the primes are taken in chunks, each
#: chunk a pass over all K steps (the same arithmetic, bounded memory).
RESIDUE_BUDGET = 512 * 2**20


def _prime_chunks(P: int, per_prime_bytes: int) -> list[tuple[int, int]]:
    size = max(1, RESIDUE_BUDGET // max(3 * per_prime_bytes, 1))  # powers, products, work array
    return [(a, min(P, a + size)) for a in range(0, P, size)]


def _verified(Bs, primes: Sequence[int], K: int, L: int, ns: Sequence[int], dup: np.ndarray,
              rep: np.ndarray) -> bool:
    """Whether every entry ``dup[t]`` equals entry ``rep[t]`` (indices into all graphs' entries,
    row-major, concatenated) modulo every prime that determines step ``k`` (the first ``P_k``,
    whose product exceeds ``2 L^k > max (B^k)_ij``) at every ``k``: then by the Chinese remainder
    theorem their integers ``(B^k)_ij``, hence their RRWP tuples, are equal.

    When the entries are few (at most an eighth of all), only the residues the comparison reads
    are computed: the columns of ``B^k`` holding those entries, or, when fewer, their rows (as
    columns of ``(B^T)^k``). Otherwise all residues are, compared one prime at a time. Either way
    the primes go in chunks whose arrays stay below :data:`RESIDUE_BUDGET`."""
    ns = np.asarray(ns, dtype=np.int64)
    offsets = np.cumsum([0, *(ns * ns)])
    logs = np.cumsum(np.log2(np.array(primes, dtype=np.float64)))
    needed = [min(len(primes), int(np.searchsorted(logs, k * math.log2(L) + 1)) + 1) for k in range(K)]
    half = dup.size
    if 8 * dup.size > offsets[-1]:
        for q0, q1 in _prime_chunks(len(primes), 8 * int(offsets[-1])):
            if q0 >= needed[-1]:
                break
            for k, Xs in enumerate(_residue_steps(Bs, primes[q0:q1], K)):
                for q in range(q0, min(q1, needed[k])):
                    flat = np.concatenate([X[:, q - q0, :].reshape(-1) for X in Xs])
                    if not np.array_equal(flat[dup], flat[rep]):
                        return False
        return True
    want = np.concatenate([dup, rep])
    g = np.searchsorted(offsets, want, side="right") - 1
    i, j = np.divmod(want - offsets[g], ns[g])
    by_rows = len(np.unique(g * (ns.max() + 1) + i)) < len(np.unique(g * (ns.max() + 1) + j))
    if by_rows:  # (B^k)_ij = ((B^T)^k)_ji
        i, j = j, i
        Bs = [np.ascontiguousarray(B.T) if isinstance(B, np.ndarray) else B.T.tocsr() for B in Bs]
    cols = [np.unique(j[g == h]) for h in range(len(Bs))]
    width = np.array([c.size for c in cols], dtype=np.int64)
    pos = np.empty_like(j)
    for h, c in enumerate(cols):
        sel = g == h
        pos[sel] = np.searchsorted(c, j[sel])
    for q0, q1 in _prime_chunks(len(primes), 8 * int(np.sum(ns * width))):
        if q0 >= needed[-1]:
            break
        P = q1 - q0
        # entry t's residue modulo prime q0 + q in the graphs' [n, P, c] arrays laid end to end
        start = np.concatenate([[0], np.cumsum(ns * P * width)[:-1]])
        base, stride = start[g] + i * P * width[g] + pos, width[g]  # residue q at base + q * stride
        for k, Xs in enumerate(_residue_steps(Bs, primes[q0:q1], K, cols)):
            flat = np.concatenate([X.reshape(-1) for X in Xs])
            for q in range(min(q1, needed[k]) - q0):
                vals = np.take(flat, base + q * stride)
                if not np.array_equal(vals[:half], vals[half:]):
                    return False
    return True


def rrwp_keys(graphs: Sequence[nx.Graph], K: int, *, certify: bool = True) -> list[np.ndarray]:
    """Exact RRWP keys: int64 ``[n, n]`` per graph, equal iff the RRWP tuples are equal.

    One shared table for all ``graphs`` (same ``L`` for all of them, see the module docstring).
    Residues of ``B^k`` modulo primes ``p`` with ``d_max L p < 2^53`` are exact in float64
    products with the sparse ``B``; their product exceeds ``L^(K-1)``, so equal residue vectors
    mean equal integers.

    First a pass over ``k = 0..K-1`` hashes every entry's residues modulo *one* prime at every
    step into 64 bits and groups the entries by hash; equal values always share a hash, so each
    group is a union of classes. Then every group is *proven* a single class: above
    :data:`~wltools.distances.adjacency.SMALL_N` nodes the walk certificate
    (:mod:`wltools.distances.walk_certificate`) proves the groups that symmetry explains with no
    arithmetic, and the residues modulo *all* primes (:func:`_verified`, in chunks of bounded
    memory, only on the rows or columns needed when few entries are left) check that every other
    entry equals its group's first entry at every step and every prime it needs. So the keys are
    exact. A group that fails (two values equal modulo the hash prime at every step, or a 64-bit
    collision, probability about ``N^2 / 2^64`` for ``N`` entries) is detected, and the grouping
    is redone with another prime and other weights. ``certify=False`` skips the certificate (the
    residues check every group: the tests' oracle for it).

    Examples
    --------
    >>> import networkx as nx
    >>> keys = rrwp_keys([nx.path_graph(3)], 2)[0]
    >>> bool(keys[0, 1] == keys[2, 1]), bool(keys[1, 0] == keys[0, 1])  # M_01 = M_21 = 1, M_10 = 1/2
    (True, False)
    """
    check_steps(K)
    dense = max((G.number_of_nodes() for G in graphs), default=0) <= SMALL_N  # numpy only, no scipy
    As = [adjacency_matrix(G) if dense else adjacency_csr(G) for G in graphs]
    degs = [np.asarray(A.sum(axis=1)).reshape(-1) for A in As]
    L = math.lcm(*{int(d) for dg in degs for d in dg if d > 0}) if any(dg.any() for dg in degs) else 1
    dmax = max((int(dg.max()) for dg in degs if dg.size), default=1)
    primes = _prime_moduli(dmax, L, K)
    Bs = []
    for A, deg in zip(As, degs):
        scale = np.where(deg > 0, L // np.maximum(deg, 1), 0).astype(np.float64)
        if dense:
            Bs.append(A * scale[:, None])  # float64 [n, n]; the products below are the same
        else:
            from scipy.sparse import csr_matrix

            Bs.append(csr_matrix(A.multiply(scale[:, None]).astype(np.float64)))
    sizes = [A.shape[0] ** 2 for A in As]
    offsets = np.cumsum([0] + sizes)
    total = int(offsets[-1])
    if total == 0:
        return [np.zeros(A.shape, dtype=np.int64) for A in As]
    def attempt(salt):
        hashed = [primes[salt % len(primes)]]  # another prime and other weights on every try
        w = np.random.default_rng([20240601, salt]).integers(1, 2**62, size=(K, len(hashed)), dtype=np.uint64)
        w = w * np.uint64(2) + np.uint64(1)
        h = _hash_pass(Bs, hashed, K, w, sizes)
        _, first, inv = np.unique(h, return_index=True, return_inverse=True)
        del h
        inv = inv.reshape(-1)
        rep = first[inv]
        dup = np.flatnonzero(rep != np.arange(total))  # entries to check against their group's first
        if not dense and certify:
            # entries of classes the walk certificate proves need no residues at all
            unproven = unproven_entries([(A.indptr.astype(np.int64), A.indices.astype(np.int64)) for A in As], inv)
            if unproven is not None:
                dup = np.intersect1d(dup, unproven, assume_unique=True)
        if dup.size and not _verified(Bs, primes, K, L, [A.shape[0] for A in As], dup, rep[dup]):
            raise HashCollision
        return [inv[offsets[g] : offsets[g + 1]].reshape(As[g].shape) for g in range(len(As))]

    return with_retries(attempt, "RRWP keys")
