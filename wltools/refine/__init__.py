"""Exact colour refinement for pairs of graphs: 1-WL, GD-WL over SPD / RD / RRWP, 3-WL (2-FWL), and
the subgraph WL hierarchy SWL ... SLFWL(2) (:mod:`wltools.refine.swl`).

All tests run on one refinement kernel (:mod:`wltools.refine.kernel`: the round loop, exact hashing
with retry, the per-round history, progress), each declared in a few lines (what it colours, its
initial colouring, its aggregation; :mod:`wltools.refine.declarations`): the two graphs of a pair
are refined together with one colour table, so colours mean the same thing in both. 1-WL also has
an incremental path (:mod:`wltools.refine.wl1`) that touches only the nodes that can change.

Labels (:mod:`wltools.graphs.labels`: node and edge attribute ``"label"``) are part of the graph in every
test but BREC's non-GNN baselines; each test's module states how they enter (its docstring):
1-WL, GD-WL and EPWL start from the node labels, 1-WL and GD-WL aggregate edge labels with the
neighbour colours, 2-FWL / 3-FWL and the localised folklore tests start from labelled atomic
types, the node-marking subgraph tests mark ``(u == v, label of v)`` and aggregate edge labels.
EPWL refuses edge labels, and s3, s4, nK, m1, m2 refuse labels, with one line
(:class:`~wltools.errors.UnsupportedGraphError`). Unlabelled graphs take exactly the paths they
took before labels existed.

Examples
--------
>>> import networkx as nx
>>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
>>> refine_pair(nx.cycle_graph(6), two_triangles, "1wl").distinguished
False
>>> refine_pair(nx.cycle_graph(6), two_triangles, "spd").distinguished
True

Labels are taken from the node / edge attribute ``"label"``:

>>> G, H = nx.path_graph(3), nx.path_graph(3)
>>> nx.set_node_attributes(G, {0: "C", 1: "O", 2: "C"}, "label")
>>> nx.set_node_attributes(H, {0: "O", 1: "C", 2: "C"}, "label")
>>> r = refine_pair(G, H, "1wl")
>>> r.distinguished, r.iteration, refine_pair(G, H, "1wl", node_label=None).distinguished
(True, 1, False)
"""

from __future__ import annotations

import networkx as nx

from ..graphs import edge_count, relabel_consecutive
from ..graphs.labels import EDGE_LABEL, NODE_LABEL, pair_labels
from .engine import RefinementResult
from .kernel import verdict_only

__all__ = ["TESTS", "refine_pair", "RefinementResult", "verdict_only"]


def __getattr__(name: str):
    """``TESTS``, read from :mod:`wltools.refine.names` when first asked for: the registry's test
    modules import this package's modules, so this package imports the registry only when used."""
    if name == "TESTS":
        from .names import TESTS

        return TESTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _on_nodes_0_to_n(G: nx.Graph) -> nx.Graph:
    """``G`` itself when its nodes are ``0..n-1`` or it is directed or a multigraph (refused later
    by :func:`~wltools.distances.adjacency_matrix`, not merged by relabelling), else
    :func:`~wltools.graphs.relabel_consecutive` of it."""
    if G.is_directed() or G.is_multigraph() or set(G.nodes) == set(range(G.number_of_nodes())):
        return G
    return relabel_consecutive(G)


def refine_pair(
    G: nx.Graph, H: nx.Graph, test: str, *, rrwp_steps: int | None = None, fast: bool = True,
    node_label: str | None = NODE_LABEL, edge_label: str | None = EDGE_LABEL,
) -> RefinementResult:
    """Can ``test`` distinguish ``G`` and ``H``?

    Parameters
    ----------
    G, H : nx.Graph
        Simple undirected graphs; other nodes than ``0..n-1`` are relabelled by
        :func:`wltools.graphs.relabel_consecutive`.
    test : str or WLTest
        A test of the registry (:func:`wltools.wltests.get_test`: every built-in test of
        :data:`~wltools.refine.names.ALL_TESTS`, ``nK`` for any K >= 1, ``rrwp:K``, or a test from
        outside); each test's module of :mod:`wltools.wltests` says what it is and cites its paper.
    rrwp_steps : int, optional
        ``K`` of RRWP (GRIT Eq. 1); default ``max(n_G, n_H)``.
    fast : bool
        ``True``: the vectorised engine (exact: integer keys, verified row grouping).
        ``False``: the straightforward reference implementation over exact values (Fractions,
        dicts of sorted tuples); slow, for cross-checking.
    node_label, edge_label : str or None
        Node / edge attribute holding the labels (default ``"label"``, :mod:`wltools.graphs.labels`);
        used when some node (edge) of either graph has it, and then every node (edge) of both
        must. ``None`` ignores that kind of label.

    Returns
    -------
    RefinementResult
        ``reason`` is ``'order'`` or ``'edges'`` when the graphs differ in node or edge count
        (no refinement run; ``iterations = 0``), else ``'histogram'`` or ``'none'``.

    Raises
    ------
    UnknownNameError
        ``test`` is not registered (:func:`wltools.wltests.get_test`).
    UnsupportedGraphError
        A directed graph, a multigraph or a self-loop; labels given to a test that refuses them
        (its :attr:`~wltools.wltests.WLTest.labels`).
    GraphFormatError
        Labels on some nodes (edges) only, on one graph only, or values that are not labels
        (:func:`wltools.graphs.labels.pair_labels`).

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_pair(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "spd")
    >>> r.distinguished, r.reason, r.iteration
    (True, 'histogram', 1)
    >>> r.witness.split("; ")[1]
    'nodes whose SPD multiset is {0:1, 1:2, inf:3}: 0 in G, 6 in H'
    >>> refine_pair(nx.path_graph(3), nx.path_graph(4), "1wl").witness
    'G has 3 nodes, H has 4'
    """
    from ..wltests.registry import get_test

    spec = get_test(test)  # UnknownNameError: one line listing the names
    if rrwp_steps is not None and rrwp_steps < 1:
        raise ValueError("rrwp_steps must be >= 1")
    G, H = _on_nodes_0_to_n(G), _on_nodes_0_to_n(H)
    labels = _labels(G, H, spec, node_label, edge_label)
    ng, nh = G.number_of_nodes(), H.number_of_nodes()
    if ng != nh:
        return RefinementResult(spec.name, True, "order", 0, 0, ((), ()), f"G has {ng} nodes, H has {nh}")
    mg, mh = edge_count(G), edge_count(H)
    if mg != mh:
        return RefinementResult(spec.name, True, "edges", 0, 0, ((), ()), f"G has {mg} edges, H has {mh}")
    if labels is not None:
        spec.check_labels(labels)  # EPWL: edge labels
    return spec.refine(G, H, labels=labels, rrwp_steps=rrwp_steps, fast=fast)


def _labels(G: nx.Graph, H: nx.Graph, spec, node_label, edge_label):
    """The pair's joint label ids (None: unlabelled, or directed / multigraphs, refused later);
    a test defined on unlabelled graphs only (BREC's non-GNN baselines) refuses labels here."""
    if any(X.is_directed() or X.is_multigraph() for X in (G, H)):
        return None
    labels = pair_labels(G, H, node_label, edge_label)
    if labels is not None and spec.labels == "none":
        spec.check_labels(labels)
    return labels
