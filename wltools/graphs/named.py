"""Named graphs: the families ``wltools check`` accepts by name (``petersen``, ``cycle:6``,
``shrikhande``, ``decalin``, ...), each with its source, and :func:`named_graph` to build one
after checking its size against the memory budget.

Split from :mod:`wltools.graphs`, which re-exports every public name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import networkx as nx

from wltools.errors import GraphFormatError, UnknownNameError
from wltools.graphs.validation import require_load, show_spec, validate_graph

__all__ = ["NamedGraph", "NAMED_GRAPHS", "named_graph", "alias", "is_named", "chordal_cycle", "tailed_triangle"]

@dataclass(frozen=True)
class NamedGraph:
    """A graph family known by name.

    Attributes
    ----------
    build : callable
        ``build()`` for fixed graphs, ``build(N)`` for sized ones.
    sized : bool
        Whether the name takes a size, written ``name:N``.
    min_size, max_size : int
        Allowed range of ``N`` for sized families.
    description : str
        One line: what the graph is and where it comes from.
    edges : callable, optional
        ``edges(N)``, the number of edges of a sized family's member (for the memory check made
        before building it); None: ``N`` edges.

    Examples
    --------
    >>> family = NAMED_GRAPHS["cycle"]
    >>> family.sized, family.min_size, family.build(5).number_of_edges()
    (True, 3, 5)
    """

    build: Callable[..., nx.Graph]
    sized: bool
    description: str
    min_size: int = 1
    max_size: int = 0
    edges: Callable[[int], int] | None = None


def _shrikhande() -> nx.Graph:
    """Shrikhande graph: the Cayley graph of Z4 x Z4 with connection set
    {±(1,0), ±(0,1), ±(1,1)}; node (a, b) is ``4a + b``. Strongly regular (16, 6, 2, 2)."""
    G = nx.Graph()
    G.add_nodes_from(range(16))
    for a in range(4):
        for b in range(4):
            for da, db in ((1, 0), (0, 1), (1, 1)):
                G.add_edge(4 * a + b, 4 * ((a + da) % 4) + (b + db) % 4)
    return G


def _rook4x4() -> nx.Graph:
    """4x4 rook's graph K4 □ K4: (a, b) ~ (c, d) iff exactly one coordinate agrees; node (a, b) is
    ``4a + b``. Strongly regular (16, 6, 2, 2) like Shrikhande's graph, yet not isomorphic to it."""
    G = nx.Graph()
    G.add_nodes_from(range(16))
    for u in range(16):
        for v in range(u + 1, 16):
            if (u // 4 == v // 4) != (u % 4 == v % 4):
                G.add_edge(u, v)
    return G


def _decalin() -> nx.Graph:
    """Decalin (bicyclo[4.4.0]decane) carbon skeleton, Graphormer (Ying et al., 2021) App. A.1,
    Fig. 2: two six-rings sharing the bond 0-1 (rings 0-2-3-4-5-1 and 0-6-7-8-9-1); 10 nodes,
    11 edges."""
    return nx.Graph(
        [(0, 1), (0, 2), (2, 3), (3, 4), (4, 5), (5, 1), (0, 6), (6, 7), (7, 8), (8, 9), (9, 1)]
    )


def _bicyclopentyl() -> nx.Graph:
    """Bicyclopentyl (1,1'-bi(cyclopentane)) carbon skeleton, Graphormer (Ying et al., 2021)
    App. A.1, Fig. 2: two five-rings (0-2-3-4-5 and 1-6-7-8-9) joined by the bond 0-1; 10 nodes,
    11 edges. Same 1-WL colouring as decalin, different SPD multisets."""
    return nx.Graph(
        [(0, 1), (0, 2), (2, 3), (3, 4), (4, 5), (5, 0), (1, 6), (6, 7), (7, 8), (8, 9), (9, 1)]
    )


def _cycle(n: int) -> nx.Graph:
    return nx.cycle_graph(n)


def _path(n: int) -> nx.Graph:
    return nx.path_graph(n)


def _complete(n: int) -> nx.Graph:
    return nx.complete_graph(n)


def chordal_cycle(n: int) -> nx.Graph:
    """Cycle 0..n-1 with the chord {1, n-1} (Zhang et al., ICLR 2024, code ``data/count.py``,
    ``chrod``): ``chordal:4`` is the diamond."""
    F = nx.cycle_graph(n)
    F.add_edge(1, n - 1)
    return F


def tailed_triangle() -> nx.Graph:
    """Triangle 0, 1, 2 with the tail 0 - 3 (Chen et al., NeurIPS 2020, Fig. 2)."""
    return nx.Graph([(0, 1), (1, 2), (0, 2), (0, 3)])


#: Known graph names. Fixed graphs are written ``name``; sized families ``name:N``.
NAMED_GRAPHS: dict[str, NamedGraph] = {
    "petersen": NamedGraph(nx.petersen_graph, False, "Petersen graph: 10 nodes, 3-regular"),
    "dodecahedral": NamedGraph(
        nx.dodecahedral_graph, False,
        "dodecahedron: 20 nodes, 3-regular (GRIT Fig. 3, vs desargues)",
    ),
    "desargues": NamedGraph(
        nx.desargues_graph, False,
        "Desargues graph: 20 nodes, 3-regular (GRIT Fig. 3, vs dodecahedral)",
    ),
    "heawood": NamedGraph(nx.heawood_graph, False, "Heawood graph: 14 nodes, 3-regular"),
    "cubical": NamedGraph(nx.cubical_graph, False, "cube Q3: 8 nodes, 3-regular"),
    "shrikhande": NamedGraph(
        _shrikhande, False, "Shrikhande graph: Cayley graph on Z4 x Z4, srg(16, 6, 2, 2)"
    ),
    "rook4x4": NamedGraph(_rook4x4, False, "4x4 rook's graph K4 x K4: srg(16, 6, 2, 2)"),
    "decalin": NamedGraph(
        _decalin, False, "decalin skeleton: 10 nodes, 11 edges (Graphormer App. A.1, Fig. 2)"
    ),
    "bicyclopentyl": NamedGraph(
        _bicyclopentyl, False,
        "bicyclopentyl skeleton: 10 nodes, 11 edges (Graphormer App. A.1, Fig. 2)",
    ),
    "complete": NamedGraph(_complete, True, "complete graph K_N", 1, 1_000, lambda k: k * (k - 1) // 2),
    "cycle": NamedGraph(_cycle, True, "cycle C_N (N >= 3)", 3, 100_000, lambda k: k),
    "path": NamedGraph(_path, True, "path P_N on N nodes", 1, 100_000, lambda k: k - 1),
    "triangle": NamedGraph(lambda: nx.complete_graph(3), False, "triangle K3"),
    "star": NamedGraph(nx.star_graph, True, "star K_{1,N}: a centre and N leaves", 1, 100_000, lambda k: k),
    "chordal": NamedGraph(chordal_cycle, True, "cycle C_N with the chord {1, N-1} (chordal:4: the diamond)", 4,
                          100_000, lambda k: k + 1),
    "tailed-triangle": NamedGraph(tailed_triangle, False, "triangle with a pendant edge (Chen et al. 2020)"),
}

_CLIQUE = re.compile(r"(?:K|clique:)(\d+)")


def alias(name: str) -> str:
    """The :data:`NAMED_GRAPHS` spelling of ``name``: ``K4`` and ``clique:4`` are ``complete:4``;
    other names unchanged.

    Examples
    --------
    >>> alias("K4"), alias("clique:5"), alias("cycle:6")
    ('complete:4', 'complete:5', 'cycle:6')
    """
    m = _CLIQUE.fullmatch(name.strip())
    return f"complete:{m.group(1)}" if m else name.strip()


def known_names() -> str:
    return ", ".join(f"{k}:N" if v.sized else k for k, v in NAMED_GRAPHS.items()) + ", KN (complete:N)"


def named_size(name: str) -> tuple[NamedGraph, int | None]:
    """The family of a graph name and its size (None for fixed graphs), checked."""
    base, sep, arg = alias(name).partition(":")
    spec = NAMED_GRAPHS.get(base)
    if spec is None:
        raise UnknownNameError(f"unknown graph name {show_spec(name)}; known: {known_names()}")
    if not spec.sized:
        if sep:
            raise GraphFormatError(f"graph name {show_spec(name)}: {base!r} takes no size")
        return spec, None
    else:
        if not arg:
            raise GraphFormatError(
                f"graph name {show_spec(name)}: {base!r} needs a size, "
                f"e.g. {base}:{max(spec.min_size, 6)}"
            )
        if not arg.isdigit():
            raise GraphFormatError(f"graph name {show_spec(name)}: size {arg!r} is not an integer")
        size = int(arg)
        if not spec.min_size <= size <= spec.max_size:
            raise GraphFormatError(
                f"graph name {show_spec(name)}: size must be in {spec.min_size}..{spec.max_size}"
            )
        return spec, size


def named_graph(name: str, *, max_memory: int | None = None) -> nx.Graph:
    """Build a named graph (see :data:`NAMED_GRAPHS`), e.g. ``"petersen"`` or ``"cycle:6"``.

    Raises
    ------
    UnknownNameError
        Unknown name.
    GraphFormatError
        A missing, superfluous, non-integer or out-of-range size.
    ResourceLimitError
        The graph would need more memory than ``max_memory`` (default: a share of the free
        memory); checked before it is built.

    Examples
    --------
    >>> named_graph("cycle:6").number_of_edges()
    6
    """
    spec, size = named_size(name)
    if size is None:
        G = spec.build()
    else:
        m = spec.edges(size) if spec.edges is not None else size
        require_load(size, m, show_spec(name.strip()), max_memory)
        G = spec.build(size)
    return validate_graph(G, name=name.strip())


def is_named(spec: str) -> bool:
    """Whether ``spec`` is written as a graph name (``petersen``, ``cycle:6``, ``K4``), valid or not."""
    return alias(spec).partition(":")[0] in NAMED_GRAPHS
