"""A certificate that a partition of node pairs is constant for every power of the walk matrix,
checked in ``O(n m)`` from the graphs alone, with no arithmetic on the powers.

RRWP (GRIT Eq. 1) compares the tuples ``((M^k)_ij)_{k < K}`` with ``M = D^-1 A``. With
``B = L D^-1 A`` (``L`` the lcm of the degrees, :mod:`wltools.distances.rrwp`) ``M^k = B^k / L^k``,
so a partition ``pi`` of the pairs ``(i, j)`` (of one or several graphs) groups equal tuples for
*every* ``K`` if ``B^k`` is constant on each class for every ``k``. This holds when

1. no class holds both a diagonal pair ``(i, i)`` and an off-diagonal one (``B^0 = I``), and
2. within each class, any two pairs are joined by a chain of *proven steps*, each of which says
   "if ``B^k`` is constant on the classes of ``pi``, these two pairs have equal ``B^(k+1)``":

   * **same sum**: each pair's ``(B^(k+1))_ij`` is written three ways as a sum
     ``sum (L / e) B^k(c)`` over a multiset of items (class ``c``, denominator ``e``):

     - left, ``sum_{l in N(i)} (L / d_i) (B^k)_lj``: items ``(pi(l, j), d_i)``;
     - right, ``sum_{l in N(j)} (B^k)_il (L / d_l)``: items ``(pi(i, l), d_l)``;
     - right again, with ``d_i (B^k)_il = d_l (B^k)_li`` (``D M^k`` is symmetric):
       ``sum_{l in N(j)} (L / d_i) (B^k)_li``, items ``(pi(l, i), d_i)``;

     two pairs with the same multiset in any of these forms (one pair's left form may match the
     other's right form) are equal;
   * **transpose**: ``D M^k`` is symmetric, so ``(M^k)_ij = (M^k)_ji`` whenever ``d_i = d_j``
     (the same graph);

   where classes made only of pairs in different connected components (zero in every power) are
   left out of the multisets, since they add nothing to the sums.

   The classes a chain does not join (accidental equalities: on grids, or a node's walks through
   two pendant paths alike) are returned by :func:`unproven_entries` for the caller to check;
   the induction then still holds for the others, since each step only needs ``B^k`` constant on
   every class at the step before.

By induction on ``k`` every class is then constant in every ``B^k``. The certificate is sound
whatever ``pi`` is: a class that joins two different tuples cannot pass, because everything it
would conclude is true. It may fail on a correct partition (equal tuples that no chain of the
steps explains, or a ``K`` so small that tuples agree that later powers tell apart); the caller
then verifies by exact residues instead (:func:`wltools.distances.rrwp.rrwp_keys`). On the pairs
that automorphisms, isomorphisms between the graphs, twin vertices or the ``D``-symmetry make
equal, it passes, which covers the large graphs users check.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..runtime.hashing import unique_rows

__all__ = ["unproven_entries", "walk_partition_certified", "CERTIFICATE_MAX_ITEMS"]

#: The certificate is skipped (the caller verifies by residues) when its signature array would
#: hold more than this many items (``3 n^2 * max degree`` over the graphs; int32 when the codes
#: fit, as they do below about 10,000 nodes).
CERTIFICATE_MAX_ITEMS = 100_000_000


def _components(indptr: np.ndarray, indices: np.ndarray, n: int) -> np.ndarray:
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import connected_components

    A = csr_array((np.ones(indices.size, dtype=np.int8), indices, indptr), shape=(n, n))
    return connected_components(A, directed=False)[1]


def _neighbour_lists(indptr: np.ndarray, indices: np.ndarray, rows: np.ndarray, d: int) -> np.ndarray:
    """``[len(rows), d]`` neighbours of ``rows``, all of degree ``d``."""
    return indices[indptr[rows][:, None] + np.arange(d)[None, :]]


def _signatures(indptr, indices, deg, P, width: int, den: str, out: np.ndarray, transpose: bool) -> None:
    """Write into ``out`` (``[n * n, width]``) for entry ``(r, c)`` the sorted multiset of items
    ``(P[l, c], e)`` over ``l in N(r)``, coded ``P[l, c] * (dmax + 1) + e``, where the denominator
    ``e`` is ``d_r`` (``den="row"``), ``d_l`` (``"item"``) or ``d_c`` (``"col"``); items with
    ``P[l, c] = -1`` (zero classes) are -1, as is the padding up to ``width``. The entry's value
    in ``B^(k+1)`` is ``sum (L / e) B^k(P[l, c])`` over its items. With ``transpose`` the row of
    entry ``(r, c)`` is ``out[c * n + r]``."""
    n = deg.size
    base = width + 1
    if den == "item":
        P = np.where(P >= 0, P * base + deg[:, None], -1)
    elif den == "col":  # an isolated column node c: no items (its entries are 0 beyond B^0)
        P = np.where((P >= 0) & (deg[None, :] > 0), P * base + deg[None, :], -1)
    view = out.reshape(n, n, width)
    if transpose:
        view = view.transpose(1, 0, 2)
    view[...] = -1
    for d in np.unique(deg):
        d = int(d)
        if d == 0:
            continue
        rows = np.flatnonzero(deg == d)
        block = P[_neighbour_lists(indptr, indices, rows, d)]  # [rows, d, n]
        if den == "row":
            block = np.where(block >= 0, block * base + d, -1)
        block.sort(axis=1)
        view[rows, :, width - d :] = block.transpose(0, 2, 1)  # -1 padding first, as sort puts it


def walk_partition_certified(
    graphs: Sequence[tuple[np.ndarray, np.ndarray]], labels: np.ndarray
) -> bool | None:
    """Whether the partition ``labels`` of the pairs of ``graphs`` is proven constant in every
    power of ``B = L D^-1 A`` (module docstring), hence in every RRWP channel: True when proven,
    False when not (the partition may still be right), None when the graphs are too large for the
    certificate (:data:`CERTIFICATE_MAX_ITEMS`). Arguments as :func:`unproven_entries`.

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.distances.adjacency import csr_parts
    >>> C = [csr_parts(nx.cycle_graph(4))]
    >>> distance = [min(abs(i - j), 4 - abs(i - j)) for i in range(4) for j in range(4)]
    >>> walk_partition_certified(C, np.array(distance))  # the distance classes of C4 are walk-regular
    True
    >>> walk_partition_certified(C, np.array([0 if i == j else 1 for i in range(4) for j in range(4)]))
    False
    """
    left = unproven_entries(graphs, labels)
    return None if left is None else left.size == 0


def unproven_entries(graphs: Sequence[tuple[np.ndarray, np.ndarray]], labels: np.ndarray) -> np.ndarray | None:
    """The pairs whose classes the certificate does not prove constant in every ``B^k``.

    If every class outside the returned pairs' classes is proven, and those classes are shown
    constant at every ``k < K`` some other way (residues), then all classes are constant at every
    ``k < K``: the induction step only needs ``B^k`` constant on the classes at the step before.

    Parameters
    ----------
    graphs
        ``(indptr, indices)`` CSR adjacency per graph (:func:`wltools.distances.adjacency.csr_parts`).
    labels
        int64 class of every pair: graph 0's ``n_0 x n_0`` pairs row-major, then graph 1's, ...

    Returns
    -------
    Sorted indices into ``labels`` (empty when all is proven), or None when the graphs are too
    large for the certificate's arrays (:data:`CERTIFICATE_MAX_ITEMS`).
    """
    sizes = [indptr.size - 1 for indptr, _ in graphs]
    degs = [np.diff(indptr) for indptr, _ in graphs]
    width = max((int(d.max()) for d in degs if d.size), default=0)
    total = sum(n * n for n in sizes)
    if 3 * total * width > CERTIFICATE_MAX_ITEMS:
        return None
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    labels = np.asarray(labels, dtype=np.int64).reshape(-1)
    offsets = np.cumsum([0, *(n * n for n in sizes)])

    # 1. B^0 = I: no class mixes diagonal and off-diagonal pairs.
    diag = np.concatenate([offsets[g] + np.arange(n) * (n + 1) for g, n in enumerate(sizes)])
    on_diag = np.zeros(total, dtype=bool)
    on_diag[diag] = True
    _, cls = np.unique(labels, return_inverse=True)
    cls = cls.reshape(-1)
    n_cls = int(cls.max()) + 1
    size = np.bincount(cls, minlength=n_cls)
    mixed = (np.bincount(cls, weights=on_diag, minlength=n_cls) % size) != 0

    # Classes of pairs in different components only: zero in every power.
    cross = np.empty(total, dtype=bool)
    for g, ((indptr, indices), n) in enumerate(zip(graphs, sizes)):
        comp = _components(indptr, indices, n)
        cross[offsets[g] : offsets[g + 1]] = (comp[:, None] != comp[None, :]).reshape(-1)
    zero_class = np.bincount(cls, weights=cross, minlength=n_cls) == size
    live = np.where(zero_class[cls], -1, cls)

    # 2. The left, right and transposed-right forms of every entry's value in B^(k+1), over all
    # graphs together (pairs of different graphs may be joined: every graph uses the same L).
    codes = (n_cls + 1) * (width + 1)
    sig = np.empty((3 * total, width), dtype=np.int32 if codes < 2**31 else np.int64)
    transpose = []
    for g, ((indptr, indices), n, deg) in enumerate(zip(graphs, sizes, degs)):
        P = live[offsets[g] : offsets[g + 1]].reshape(n, n)
        for f, (Q, den, swap) in enumerate(((P, "row", False), (P.T, "item", True), (P, "col", True))):
            # left; right; right with D M^k symmetric (rows of form f: f * total + entry)
            rows = sig[f * total + offsets[g] : f * total + offsets[g + 1]]
            _signatures(indptr, indices, deg, Q, width, den, rows, transpose=swap)
        i, j = np.divmod(np.arange(n * n), n)
        same = (deg[i] == deg[j]) & (i < j)
        transpose.append(np.stack([offsets[g] + (i * n + j)[same], offsets[g] + (j * n + i)[same]]))
        del P, i, j, same
    ids = unique_rows(sig)  # exact: equal forms share an id
    del sig
    # each entry linked to the ids of its three forms (id nodes after the entries), and to its
    # transposes: entries in one connected piece are proven equal
    e = np.concatenate([np.concatenate(transpose, axis=1),
                        np.stack([np.arange(ids.size) % total, total + ids])], axis=1)
    del ids
    n_nodes = int(e.max()) + 1

    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components

    links = coo_array((np.ones(e.shape[1], dtype=np.int8), (e[0], e[1])), shape=(n_nodes, n_nodes)).tocsr()
    comp = connected_components(links, directed=False)[1][:total]
    # proven: every class inside one component of the proven-equal graph, and zero classes
    rep = np.empty(n_cls, dtype=comp.dtype)
    rep[cls] = comp  # some member's component per class
    split = np.zeros(n_cls, dtype=bool)
    split[cls[comp != rep[cls]]] = True
    unproven = mixed | (split & ~zero_class)
    return np.flatnonzero(unproven[cls])
