"""The record of one labelled pair of graphs and the degree summary of its meta, shared by the BREC pairs
(:class:`brec_runner.runs.dataset.BrecPair`) and the suites' pairs (:class:`wltools.suites.base.SuitePair`)."""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx


@dataclass(frozen=True, eq=False)
class GraphPair:
    """``id``, ``category``, ``subcategory``, the two graphs ``g`` and ``h`` and ``meta``; the
    subclasses say what each field holds for their data. Compared by identity."""

    id: int
    category: str
    subcategory: str
    g: nx.Graph
    h: nx.Graph
    meta: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(id={self.id}, category={self.category!r}, subcategory={self.subcategory!r}, "
            f"n={self.meta.get('n')}, m={self.meta.get('m')}, regularity={self.meta.get('regularity')!r})"
        )


def degree_summary(G: nx.Graph) -> str:
    """``"4-regular"`` or ``"irregular (degrees 1-5, mean 2.40)"``.

    Examples
    --------
    >>> import networkx as nx
    >>> degree_summary(nx.cycle_graph(5)), degree_summary(nx.path_graph(3))
    ('2-regular', 'irregular (degrees 1-2, mean 1.33)')
    """
    degs = sorted(d for _, d in G.degree())
    if not degs:
        return "empty"
    if degs[0] == degs[-1]:
        return f"{degs[0]}-regular"
    return f"irregular (degrees {degs[0]}-{degs[-1]}, mean {sum(degs) / len(degs):.2f})"
