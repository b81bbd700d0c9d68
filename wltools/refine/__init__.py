"""Exact colour refinement for pairs of graphs: 1-WL, GD-WL over SPD / RD / RRWP, 3-WL (2-FWL), and
the subgraph WL hierarchy SWL ... SLFWL(2) (:mod:`wltools.refine.swl`).

All tests run on one shared engine (:mod:`wltools.refine.engine`): the two graphs of a pair are
refined together with one colour table, so colours mean the same thing in both.

Examples
--------
>>> import networkx as nx
>>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
>>> refine_pair(nx.cycle_graph(6), two_triangles, "1wl").distinguished
False
>>> refine_pair(nx.cycle_graph(6), two_triangles, "spd").distinguished
True
"""

from __future__ import annotations

import networkx as nx

from ..errors import UnknownNameError
from ..graphs import relabel_consecutive
from ..wl_tests import ALL_TESTS, TESTS, ego_radius, is_test_name
from .engine import RefinementResult
from .ego import refine_ego, refine_ego_reference
from .epwl import refine_epwl, refine_epwl_reference
from .fwl import refine_fwl2, refine_fwl2_reference
from .fwl3 import refine_fwl3, refine_fwl3_reference
from .gdwl import refine_gdwl, refine_gdwl_reference
from .marking import refine_marking, refine_marking_reference
from .substructure import refine_substructure, refine_substructure_reference
from .swl import SWL_CLASSES, refine_swl, refine_swl_reference
from .wl1 import refine_wl1, refine_wl1_reference

__all__ = ["TESTS", "refine_pair", "RefinementResult"]


def _on_nodes_0_to_n(G: nx.Graph) -> nx.Graph:
    """``G`` itself when its nodes are ``0..n-1`` or it is directed or a multigraph (refused later
    by :func:`~wltools.distances.adjacency_matrix`, not merged by relabelling), else
    :func:`~wltools.graphs.relabel_consecutive` of it."""
    if G.is_directed() or G.is_multigraph() or set(G.nodes) == set(range(G.number_of_nodes())):
        return G
    return relabel_consecutive(G)


def refine_pair(
    G: nx.Graph, H: nx.Graph, test: str, *, rrwp_steps: int | None = None, fast: bool = True
) -> RefinementResult:
    """Can ``test`` distinguish ``G`` and ``H``?

    Parameters
    ----------
    G, H : nx.Graph
        Simple undirected graphs; other nodes than ``0..n-1`` are relabelled by
        :func:`wltools.graphs.relabel_consecutive`.
    test : {"1wl", "spd", "rd", "rrwp", "3wl", "epwl", "epwl-lap", "3fwl"}
        1-WL; GD-WL with shortest-path, resistance or RRWP distance (PPGT App. E Eq. 13,
        GRIT Eq. 4); 3-WL as 2-FWL; EPWL over the adjacency matrix or the Laplacian
        (:mod:`wltools.refine.epwl`, exact through walk counts); 4-WL as 3-FWL
        (:mod:`wltools.refine.fwl3`, ``n^4`` work per round); or a test of the subgraph WL
        hierarchy, :data:`~wltools.wl_tests.SUBGRAPH_WL_TESTS` ("swl-vs", "swl-sv", "pswl-vs",
        "pswl-sv", "gswl", "sswl", "lfwl2", "slfwl2"; :mod:`wltools.refine.swl`); or one of BREC's
        non-GNN baselines, :data:`~wltools.wl_tests.SUBGRAPH_BASELINE_TESTS`: "s3", "s4"
        (:mod:`wltools.refine.substructure`), "n1", "n2" and "nK" for any K >= 1
        (:mod:`wltools.refine.ego`), "m1", "m2" (:mod:`wltools.refine.marking`).
    rrwp_steps : int, optional
        ``K`` of RRWP (GRIT Eq. 1); default ``max(n_G, n_H)``.
    fast : bool
        ``True``: the vectorised engine (exact: integer keys, verified row grouping).
        ``False``: the straightforward reference implementation over exact values (Fractions,
        dicts of sorted tuples); slow, for cross-checking.

    Returns
    -------
    RefinementResult
        ``reason`` is ``'order'`` or ``'edges'`` when the graphs differ in node or edge count
        (no refinement run; ``iterations = 0``), else ``'histogram'`` or ``'none'``.

    Raises
    ------
    UnknownNameError
        ``test`` is none of :data:`~wltools.wl_tests.ALL_TESTS`.
    UnsupportedGraphError
        A directed graph, a multigraph or a self-loop.

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
    if not is_test_name(test):
        raise UnknownNameError(f"unknown test {test!r}; choose from {', '.join(ALL_TESTS)} or nK (ego networks of radius K)")
    if rrwp_steps is not None and rrwp_steps < 1:
        raise ValueError("rrwp_steps must be >= 1")
    G, H = _on_nodes_0_to_n(G), _on_nodes_0_to_n(H)
    ng, nh = G.number_of_nodes(), H.number_of_nodes()
    if ng != nh:
        return RefinementResult(test, True, "order", 0, 0, ((), ()), f"G has {ng} nodes, H has {nh}")
    mg, mh = G.number_of_edges(), H.number_of_edges()
    if mg != mh:
        return RefinementResult(test, True, "edges", 0, 0, ((), ()), f"G has {mg} edges, H has {mh}")
    if test == "1wl":
        return refine_wl1(G, H) if fast else refine_wl1_reference(G, H)
    if test == "3wl":
        return refine_fwl2(G, H) if fast else refine_fwl2_reference(G, H)
    if test == "3fwl":
        return refine_fwl3(G, H) if fast else refine_fwl3_reference(G, H)
    if test in ("epwl", "epwl-lap"):
        return (refine_epwl if fast else refine_epwl_reference)(G, H, test)
    if test in ("s3", "s4"):  # BREC's non-GNN baselines
        return (refine_substructure if fast else refine_substructure_reference)(G, H, test)
    if ego_radius(test) is not None:
        return (refine_ego if fast else refine_ego_reference)(G, H, ego_radius(test), test)
    if test in ("m1", "m2"):
        return (refine_marking if fast else refine_marking_reference)(G, H, test)
    if test in SWL_CLASSES:  # the subgraph WL hierarchy (Zhang et al. ICML 2023), wltools.refine.swl
        return (refine_swl if fast else refine_swl_reference)(G, H, test)
    fn = refine_gdwl if fast else refine_gdwl_reference
    return fn(G, H, (test,), rrwp_steps=rrwp_steps, test=test)
