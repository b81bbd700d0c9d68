"""Names of small patterns, for printing beside their graph6 (``C~ (K4)``) and for reading back.

A pattern's name is found by its canonical certificate (:func:`wltools.iso.certificate_digest`), so
any labelling of K4 is called K4. The names are the ones :func:`wltools.graphs.load_graph` and the
counting tasks (:mod:`wltools.counting.tasks`) accept as input: ``triangle``, ``K<N>``, ``cycle:N``,
``path:N``, ``star:N`` (the star :math:`K_{1,N}`), ``chordal:4`` / ``chordal:5``,
``tailed-triangle`` and Zhang et al.'s homomorphism patterns ``hom:NAME``. Where a graph has
several names the first in that order is printed (K3 is ``triangle``, P3 ``star:2``).
"""

from __future__ import annotations

import functools

import networkx as nx

__all__ = ["pattern_name", "with_name", "MAX_NAMED_NODES"]

#: Largest pattern (vertices) that gets a name.
MAX_NAMED_NODES = 8


@functools.lru_cache(maxsize=1)
def _names() -> dict:
    from wltools.counting.tasks import HOM_PATTERNS, parse_task
    from wltools.graphs.named import chordal_cycle, tailed_triangle
    from wltools.iso import certificate

    named: list[tuple[str, nx.Graph]] = [("triangle", nx.complete_graph(3))]
    named += [(f"K{n}", nx.complete_graph(n)) for n in range(1, MAX_NAMED_NODES + 1)]
    named += [(f"cycle:{n}", nx.cycle_graph(n)) for n in range(4, MAX_NAMED_NODES + 1)]
    named += [(f"star:{k}", nx.star_graph(k)) for k in range(2, MAX_NAMED_NODES)]
    named += [(f"path:{n}", nx.path_graph(n)) for n in range(4, MAX_NAMED_NODES + 1)]
    named += [("chordal:4", chordal_cycle(4)), ("chordal:5", chordal_cycle(5)), ("tailed-triangle", tailed_triangle())]
    named += [(f"hom:{k}", parse_task(f"hom:{k}").pattern) for k in HOM_PATTERNS]
    table: dict[bytes, str] = {}
    for name, F in named:
        table.setdefault(certificate(_bare(F)), name)
    return table


def _bare(F: nx.Graph) -> nx.Graph:
    """F on ``0..n-1`` without attributes (names ignore labels)."""
    H = nx.Graph()
    index = {v: i for i, v in enumerate(F)}
    H.add_nodes_from(range(len(index)))
    H.add_edges_from((index[u], index[v]) for u, v in F.edges)
    return H


def pattern_name(F: nx.Graph) -> str | None:
    """The name of ``F`` (module docstring), or None for a pattern without one.

    Examples
    --------
    >>> pattern_name(nx.relabel_nodes(nx.complete_graph(4), {0: 3, 3: 0})), pattern_name(nx.petersen_graph())
    ('K4', None)
    """
    if F.number_of_nodes() > MAX_NAMED_NODES or F.number_of_nodes() == 0:
        return None
    from wltools.iso import certificate

    return _names().get(certificate(_bare(F)))


def with_name(text: str, F: nx.Graph) -> str:
    """``text`` (a pattern's graph6) followed by the pattern's name in brackets where it has one."""
    name = pattern_name(F)
    return text if name is None else f"{text} ({name})"
