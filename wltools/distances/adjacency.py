"""The adjacency every exact distance starts from: a dense 0/1 matrix, or sparse CSR arrays for
large graphs (no ``n x n`` structure).

scipy is imported only where a scipy object is built (:func:`adjacency_csr`): graphs of at most
:data:`SMALL_N` nodes take numpy-only paths everywhere in :mod:`wltools.distances` and
:mod:`wltools.refine`, so ``wltools check`` on small graphs never pays scipy's import (about half
of its start-up, ``benchmarks/startup_bench.py``)."""

from __future__ import annotations

from itertools import chain

import networkx as nx
import numpy as np
from ..errors import UnsupportedGraphError
from ..graphs import check_simple

__all__ = ["SMALL_N", "adjacency_matrix", "adjacency_csr", "csr_parts"]

#: Graphs of at most this many nodes use dense numpy arithmetic (no scipy): below it a dense
#: product costs about what a sparse one does.
SMALL_N = 64


def adjacency_matrix(G: nx.Graph) -> np.ndarray:
    """0/1 int64 adjacency matrix ``[n, n]`` of a simple undirected graph on nodes ``0..n-1``.

    Raises
    ------
    UnsupportedGraphError
        ``G`` is directed, a multigraph, has a self-loop or other nodes than ``0..n-1``
        (:func:`wltools.graphs.check_simple`; the graph without nodes is accepted).

    Examples
    --------
    >>> import networkx as nx
    >>> adjacency_matrix(nx.path_graph(3)).tolist()
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    >>> adjacency_matrix(nx.Graph()).shape
    (0, 0)
    """
    check_simple(G, error=UnsupportedGraphError, allow_empty=True)
    n = G.number_of_nodes()
    A = np.zeros((n, n), dtype=np.int64)
    for u, v in G.edges():
        A[u, v] = A[v, u] = 1
    return A


def csr_parts(G: nx.Graph) -> tuple[np.ndarray, np.ndarray]:
    """``(indptr, indices)`` (int64) of the 0/1 adjacency in CSR form, sorted column indices:
    the neighbours of ``v`` are ``indices[indptr[v]:indptr[v + 1]]``. numpy only, ``O(n + m)``.

    Raises
    ------
    UnsupportedGraphError
        As :func:`adjacency_matrix`.

    Examples
    --------
    >>> import networkx as nx
    >>> [a.tolist() for a in csr_parts(nx.path_graph(3))]
    [[0, 1, 3, 4], [1, 0, 2, 1]]
    """
    check_simple(G, error=UnsupportedGraphError, allow_empty=True)
    n, m = G.number_of_nodes(), G.number_of_edges()
    e = np.fromiter(chain.from_iterable(G.edges()), dtype=np.int64, count=2 * m).reshape(m, 2)
    rows = np.concatenate([e[:, 0], e[:, 1]])
    cols = np.concatenate([e[:, 1], e[:, 0]])
    order = np.lexsort((cols, rows))
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return indptr, cols[order]


def adjacency_csr(G: nx.Graph):
    """Sparse 0/1 adjacency (``scipy.sparse.csr_array`` of int8, sorted column indices, ``2m``
    stored entries) of a simple undirected graph on nodes ``0..n-1``, built in ``O(n + m)``
    memory without Python lists of edges from :func:`csr_parts` (which raises as
    :func:`adjacency_matrix` does).

    Examples
    --------
    >>> import networkx as nx
    >>> A = adjacency_csr(nx.path_graph(3))
    >>> A.indptr.tolist(), A.indices.tolist()
    ([0, 1, 3, 4], [1, 0, 2, 1])
    >>> (A.toarray() == adjacency_matrix(nx.path_graph(3))).all()
    np.True_
    """
    from scipy.sparse import csr_array

    indptr, indices = csr_parts(G)
    n = G.number_of_nodes()
    return csr_array((np.ones(indices.size, dtype=np.int8), indices, indptr), shape=(n, n))
