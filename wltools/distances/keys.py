"""Shared integer keys of one distance over several graphs, for colour refinement.

Refinement needs only *equality* of distance values: :func:`distance_keys` maps the exact values of
several graphs to small integers through one shared table, so equal keys mean equal values in
every graph of the call.
"""

from __future__ import annotations

from typing import Sequence

import networkx as nx

from ..errors import UnknownNameError
from .modular import renumber_keys
from .resistance import resistance_keys
from .rrwp import rrwp_keys
from .spd import spd_matrix

__all__ = ["DISTANCES", "distance_keys"]

#: Distance names accepted by :func:`distance_keys`.
DISTANCES = ("spd", "rd", "rrwp")


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

    Raises
    ------
    UnknownNameError
        ``distance`` is none of :data:`DISTANCES`.

    Examples
    --------
    >>> import networkx as nx
    >>> kp, ks = distance_keys([nx.path_graph(3), nx.star_graph(2)], "spd")
    >>> kp.tolist(), ks.tolist()
    ([[0, 1, 2], [1, 0, 1], [2, 1, 0]], [[0, 1, 1], [1, 0, 2], [1, 2, 0]])
    """
    if distance == "spd":
        return renumber_keys([spd_matrix(G) for G in graphs])
    if distance == "rd":
        return resistance_keys(graphs)
    if distance == "rrwp":
        K = rrwp_steps if rrwp_steps is not None else max(G.number_of_nodes() for G in graphs)
        return rrwp_keys(graphs, max(1, K))
    raise UnknownNameError(f"unknown distance {distance!r}; choose from {', '.join(DISTANCES)}")
