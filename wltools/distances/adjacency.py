"""The 0/1 adjacency matrix every exact distance starts from."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..errors import UnsupportedGraphError
from ..graphs import check_simple

__all__ = ["adjacency_matrix"]


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
