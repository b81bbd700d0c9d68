"""Every test that runs on the kernel, by name: :func:`declaration` gives its
:class:`~wltools.refine.kernel.Declaration` for a pair (what it colours, its initial colouring,
its aggregation), which :func:`wltools.refine.kernel.refine` runs. Drawings
(:mod:`wltools.draw.colourings`) read the kernel's history of these runs.

Each declaration lives beside its test's definition: 1-WL (:func:`~wltools.refine.wl1.wl1_declaration`;
:func:`~wltools.refine.wl1.refine_wl1` is its incremental equivalent), GD-WL over SPD / RD / RRWP
(:func:`~wltools.refine.gdwl.gdwl_declaration`), EPWL (:func:`~wltools.refine.epwl.epwl_declaration`),
2-FWL (:func:`~wltools.refine.fwl.fwl2_declaration`), the subgraph WL hierarchy
(:func:`~wltools.refine.swl.swl_declaration`), and 1-WL from exact per-node keys for BREC's S3, S4
and N_K (:func:`~wltools.refine.substructure.substructure_declaration`,
:func:`~wltools.refine.ego.ego_declaration`, over :func:`~wltools.refine.seeded.keys_declaration`). M1 / M2 refine many marked copies jointly
on the kernel and compare classes of copies (:mod:`wltools.refine.marking`), so they have no single
declaration here.

Examples
--------
>>> import networkx as nx
>>> from wltools.refine.kernel import History, refine
>>> h = History()
>>> r = refine(declaration(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "spd"), history=h)
>>> r.iteration, h.first_diff, len(h.colours)
(1, 1, 2)
"""

from __future__ import annotations

import networkx as nx

from ..distances import adjacency_matrix
from ..errors import UnknownNameError
from ..graphs.labels import PairLabels
from .names import ego_radius
from .ego import ego_declaration
from .epwl import MATRICES, epwl_declaration
from .fwl import fwl2_declaration
from .gdwl import gdwl_declaration
from .kernel import Declaration
from .substructure import substructure_declaration
from .swl import SWL_CLASSES, swl_declaration
from .wl1 import wl1_declaration

__all__ = ["declaration", "DECLARED"]

#: Tests with a declaration (and ``nK`` for any ``K >= 1``).
DECLARED = ("1wl", "spd", "rd", "rrwp", "3wl", "epwl", "epwl-lap", "s3", "s4", "n1", "n2", *SWL_CLASSES)


def declaration(G: nx.Graph, H: nx.Graph, test: str, *, rrwp_steps: int | None = None,
                labels: PairLabels | None = None) -> Declaration:
    """The declaration of ``test`` on ``(G, H)`` (nodes ``0..n-1``, equal orders; ``labels`` the
    pair's joint label ids, :func:`wltools.graphs.labels.pair_labels`).

    Raises :class:`~wltools.errors.UnknownNameError` for a test without one (module docstring).
    """
    if test == "1wl":
        return wl1_declaration(G, H, labels=labels)
    if test in ("spd", "rd", "rrwp"):
        return gdwl_declaration(G, H, (test,), rrwp_steps=rrwp_steps, test=test, labels=labels)
    if test in MATRICES:
        return epwl_declaration(G, H, test, labels=labels)
    if test == "3wl":
        return fwl2_declaration(G, H, labels=labels)
    if test in SWL_CLASSES and G.number_of_nodes():
        return swl_declaration(test, adjacency_matrix(G), adjacency_matrix(H), labels=labels)
    if labels is None and test in ("s3", "s4"):
        return substructure_declaration(G, H, test)
    if labels is None and ego_radius(test) is not None:
        return ego_declaration(G, H, ego_radius(test), test)
    raise UnknownNameError(f"{test!r} has no single kernel declaration; declared: {', '.join(DECLARED)}, nK")
