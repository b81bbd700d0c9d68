"""Every test that runs on the kernel, by name: :func:`declaration` gives its
:class:`~wltools.refine.kernel.Declaration` for a pair (what it colours, its initial colouring,
its aggregation), which :func:`wltools.refine.kernel.refine` runs. Drawings
(:mod:`wltools.draw.colourings`) read the kernel's history of these runs.

Each declaration lives beside its test's definition and is named by the test's object
(:attr:`wltools.wltests.WLTest.declaration`, :mod:`wltools.wltests`). M1 / M2 refine many marked
copies jointly on the kernel and compare classes of copies (:mod:`wltools.refine.marking`), so
they have no single declaration.

Examples
--------
>>> import networkx as nx
>>> from wltools.refine.kernel import History, refine
>>> h = History()
>>> r = refine(declaration(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "spd"), history=h)
>>> r.iteration, h.first_diff, len(h.colours)
(1, 1, 2)
>>> "1wl" in DECLARED, "3wl" in DECLARED
(True, True)
"""

from __future__ import annotations

import networkx as nx

from ..graphs.labels import PairLabels
from ..wltests.registry import builtin_tests, get_test
from .kernel import Declaration

__all__ = ["declaration", "DECLARED"]

#: Built-in tests with a declaration (and ``nK`` for any ``K >= 1``).
DECLARED = tuple(t.name for t in builtin_tests() if t.declaration is not None)


def declaration(G: nx.Graph, H: nx.Graph, test, *, rrwp_steps: int | None = None,
                labels: PairLabels | None = None) -> Declaration:
    """The declaration of ``test`` (a name or a :class:`~wltools.wltests.WLTest`) on ``(G, H)``
    (nodes ``0..n-1``, equal orders; ``labels`` the pair's joint label ids,
    :func:`wltools.graphs.labels.pair_labels`).

    Raises :class:`~wltools.errors.UnknownNameError` for a test without one (module docstring).
    """
    return get_test(test).kernel_declaration(G, H, labels=labels, rrwp_steps=rrwp_steps)
