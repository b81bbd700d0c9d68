"""Shortest-path distance (SPD): Graphormer (Ying et al. 2021) Sec. 3.1.2; the distance of
Zhang et al.'s GD-WL as quoted in PPGT App. E Eq. (13).

Exact by breadth-first search (scipy.sparse.csgraph, unweighted) over the 0/1 adjacency matrix;
graphs of at most :data:`~wltools.distances.adjacency.SMALL_N` nodes use the identity
``d(u, v) = min{k : (A^k)_uv > 0}`` with dense numpy products instead (GRIT App. C.1 Eq. 6 for the
walk matrix; no scipy import). Unreachable pairs get ``-1``, a symbol of its own.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .adjacency import SMALL_N, adjacency_csr, adjacency_matrix

__all__ = ["spd_matrix", "spd_from_adjacency", "components", "spd_keys"]


def spd_from_adjacency(A: np.ndarray) -> np.ndarray:
    """Shortest-path distances ``[n, n]`` (int64, ``-1`` = unreachable) of a 0/1 adjacency matrix.

    Breadth-first search from every node (scipy's C BFS, ``unweighted=True``); its float result
    holds small integers exactly.

    Examples
    --------
    >>> import numpy as np
    >>> spd_from_adjacency(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]])).tolist()
    [[0, 1, -1], [1, 0, -1], [-1, -1, 0]]
    """
    n = A.shape[0]
    if n == 0:
        return np.zeros((0, 0), dtype=np.int64)
    if n <= SMALL_N:
        return _spd_by_powers(A)
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    D = shortest_path(csr_matrix(A), method="D", directed=False, unweighted=True)
    out = np.full((n, n), -1, dtype=np.int64)
    fin = np.isfinite(D)
    out[fin] = D[fin].astype(np.int64)
    return out


def _spd_by_powers(A: np.ndarray) -> np.ndarray:
    """Distances of a small dense 0/1 matrix: ``d(u, v)`` is the first ``k`` with ``(A^k)_uv > 0``,
    found one level at a time (the pairs first reached by ``frontier @ A``); ``-1`` = never."""
    n = A.shape[0]
    out = np.full((n, n), -1, dtype=np.int64)
    frontier = np.eye(n, dtype=np.int64)
    reached = frontier.astype(bool)
    out[reached] = 0
    A = (np.asarray(A) != 0).astype(np.int64)
    k = 0
    while frontier.any():
        k += 1
        new = ((frontier @ A) > 0) & ~reached
        out[new] = k
        reached |= new
        frontier = new.astype(np.int64)
    return out


def components(A: np.ndarray) -> list[np.ndarray]:
    """Connected components of a 0/1 adjacency matrix as sorted index arrays, ordered by their
    smallest node.

    Examples
    --------
    >>> import numpy as np
    >>> [c.tolist() for c in components(np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]]))]
    [[0, 2], [1]]
    """
    n = A.shape[0]
    D = spd_from_adjacency(A)
    seen = np.zeros(n, dtype=bool)
    comps = []
    for v in range(n):
        if not seen[v]:
            c = np.flatnonzero(D[v] >= 0)
            seen[c] = True
            comps.append(c)
    return comps


def spd_matrix(G: nx.Graph) -> np.ndarray:
    """Shortest-path distances of ``G`` as an int64 ``[n, n]`` array; ``-1`` = unreachable.

    Examples
    --------
    >>> import networkx as nx
    >>> spd_matrix(nx.path_graph(3)).tolist()
    [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    >>> spd_matrix(nx.empty_graph(2)).tolist()
    [[0, -1], [-1, 0]]
    """
    return spd_from_adjacency(adjacency_matrix(G))


def _key_dtype(n: int) -> np.dtype:
    return np.dtype(np.uint8 if n + 1 < 2**8 else (np.uint16 if n + 1 < 2**16 else np.uint32))


def spd_keys(G: nx.Graph, *, block: int = 1024) -> np.ndarray:
    """SPD keys ``[n, n]``: ``d(v, u) + 1``, and ``0`` for unreachable pairs, in the smallest
    unsigned dtype that holds ``n + 1`` (keys of different graphs are comparable: equal keys iff
    equal distances).

    Built from the sparse adjacency (:func:`~wltools.distances.adjacency.adjacency_csr`) by
    breadth-first search from ``block`` sources at a time (scipy's C BFS), so no ``n x n`` float or
    Python structure is ever held: peak memory is the key matrix plus one ``block x n`` float block.
    Graphs of at most ``SMALL_N`` nodes: from :func:`spd_matrix` (dense, no scipy).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.path_graph(3); G.add_node(3)
    >>> spd_keys(G).tolist()
    [[1, 2, 3, 0], [2, 1, 2, 0], [3, 2, 1, 0], [0, 0, 0, 1]]
    >>> spd_keys(nx.path_graph(300)).dtype
    dtype('uint16')
    """
    n = G.number_of_nodes()
    if n <= SMALL_N:
        return (spd_matrix(G) + 1).astype(_key_dtype(n))  # -1 (unreachable) becomes 0
    from scipy.sparse.csgraph import shortest_path

    A = adjacency_csr(G)
    out = np.zeros((n, n), dtype=_key_dtype(n))
    for lo in range(0, n, max(1, block)):
        idx = np.arange(lo, min(n, lo + block))
        D = shortest_path(A, method="D", directed=False, unweighted=True, indices=idx)
        fin = np.isfinite(D)
        np.add(D, 1, out=D)
        D[~fin] = 0
        out[idx] = D
    return out
