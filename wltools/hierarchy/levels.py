r"""The node and edge colours of the tests, as Zhang et al. define them for node- and edge-level
expressivity.

Zhang, Gai, Du, Ye, He & Wang ("Beyond Weisfeiler-Lehman", ICLR 2024, arXiv 2401.08514) study each
model class at three levels (Sec. 3.3, Theorem 3.7): the colour of the graph, of one vertex ``u``
(node level, rooted patterns ``F^w``) and of an ordered vertex pair ``(u, v)`` (edge level,
patterns ``F^{wx}``). What a vertex's and a pair's colour is, per model class (Sec. 2, Eq. 1-5):

* MPNN (``1wl``, Eq. 1): the vertex's own stable colour; no pair colour (Theorem 3.7: its
  edge-level expressivity does not exist).
* Subgraph GNN (``swl-vs``, Eq. 2), Local 2-GNN (``sswl``, Eq. 3), 2-FGNN (``3wl``, Eq. 4) and Local
  2-FGNN (``slfwl2``, Eq. 5) colour ordered pairs: the edge colour of ``(u, v)`` is
  :math:`\chi(u, v)`, the node colour of ``u`` is the multiset :math:`\{\{\chi(u, v) : v \in V\}\}`,
  the pooling over ``v`` that each of these graph colours applies first (for Subgraph GNN: the
  colour of the subgraph ``G^u``). The authors' code reads the node-level task the same way (``Pool``
  in ``src/model.py`` of subgraph23/homomorphism-expressivity sums the pair features over their
  second index). In wltools' pair arrays :math:`\chi(u, v)` is the entry ``[u, v]``; for ``swl-vs``
  it is the colour of ``v`` in the subgraph of root ``u`` (:mod:`wltools.refine.swl`). wltools'
  ``sswl`` starts from the node mark and ``slfwl2`` aggregates over closed neighbourhoods; the
  identification of these tests with the paper's classes is :mod:`wltools.hom.families`'.
* M1 (BREC's node-marking baseline, the refinement of SWL(VS), :mod:`wltools.refine.marking`):
  the node colour of ``u`` is the 1-WL class of the graph with ``u`` marked, which is Subgraph
  GNN's multiset :math:`\{\{\chi(u, v) : v\}\}` (each marked copy is refined on its own, as
  ``swl-vs`` refines each subgraph). BREC defines no pair colour for it and wltools exposes none:
  no edge level here.

Each test declares which of these readouts is its own (:attr:`WLTest.level_readout
<wltools.wltests.base.WLTest>`, set in its module). Every colour is the stable one, from one colour
table shared by the two graphs, so equal ids mean equal colours across G and H.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..hom.families import family_of, no_family_reason
from ..wltests.registry import get_test

__all__ = ["level_colours", "no_level_colour_reason"]

_LEVELS = ("node", "edge")


def no_level_colour_reason(test: str, level: str) -> str | None:
    """Why ``test`` has no rooted check at ``level`` (``node`` / ``edge``): no family there
    (:func:`wltools.hom.families.no_family_reason`), or no node / edge colour defined (module
    docstring); None when it has both."""
    if level not in _LEVELS:
        raise ValueError(f"a rooted level is 'node' or 'edge', not {level!r}")
    if family_of(test, level) is None:
        return no_family_reason(test, level)
    kind = get_test(test).level_readout
    if kind is None:
        return f"no {level} colour of {test} is taken from Zhang et al.'s definitions here"
    if kind == "marked" and level == "edge":
        return ("M1 (BREC's baseline) defines a colour per marked copy, not per vertex pair, and "
                "wltools exposes none; its refinement's pair colours are swl-vs', checked under swl-vs")
    return None


def _stable(G: nx.Graph, H: nx.Graph, test: str) -> tuple[np.ndarray, np.ndarray]:
    """The stable element colours of ``test`` on G and H (the kernel's declaration refined to
    stability, :mod:`wltools.refine.kernel`), ids from one table."""
    from ..refine.declarations import declaration
    from ..refine.kernel import History, refine

    history = History(every_round=False)
    refine(declaration(G, H, test), history=history)
    return history.colours[-1]


def _pooled_rows(cg: np.ndarray, ch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The node colour of every ``u`` of both graphs, :math:`\\{\\{\\chi(u, v) : v\\}\\}` (the
    sorted row ``u``), as ids from one table."""
    rows = np.sort(np.concatenate([cg, ch]), axis=1)
    ids = np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1)
    return ids[: len(cg)], ids[len(cg):]


def _marked(G: nx.Graph, H: nx.Graph) -> tuple[np.ndarray, np.ndarray]:
    """M1's node colours: the class of each vertex's marked copy (:func:`~wltools.refine.marking.marked_classes`)."""
    from ..refine.marking import marked_classes

    cg, ch, _ = marked_classes(G, H, 1)
    return np.asarray(cg), np.asarray(ch)


def level_colours(G: nx.Graph, H: nx.Graph, test: str, level: str) -> tuple[np.ndarray, np.ndarray]:
    """The stable ``level`` colours of ``test`` on G and H (nodes ``0..n-1``, equal orders): arrays
    of shape ``(n,)`` (node level: entry ``u``) or ``(n, n)`` (edge level: entry ``[u, v]``), equal
    ids iff equal colours, across the two graphs. Raises :class:`ValueError` with
    :func:`no_level_colour_reason` where there is none.

    Examples
    --------
    >>> G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> {get_test(t).level_readout: len(set(np.concatenate(level_colours(G, H, t, "node")).tolist()))
    ...  for t in ("1wl", "3wl")}
    {'node': 1, 'pairs': 2}
    """
    reason = no_level_colour_reason(test, level)
    if reason is not None:
        raise ValueError(f"{test} at {level} level: {reason}")
    kind = get_test(test).level_readout
    if kind == "marked":
        return _marked(G, H)
    cg, ch = _stable(G, H, test)
    if kind == "pairs" and level == "node":
        return _pooled_rows(cg, ch)
    return cg, ch
