r"""Fürer graphs and their twisted versions (Fürer 2001; the CFI construction over any base graph).

For a base graph F, the Fürer graph has a vertex :math:`(x, U)` for every vertex :math:`x` of F and
every even-size subset :math:`U \subseteq N_F(x)`, and an edge between :math:`(x, U)` and
:math:`(y, V)` when :math:`\{x, y\} \in E(F)` and :math:`(x \in V) \leftrightarrow (y \in U)`
(Zhang, Gai, Du, Ye, He & Wang, "Beyond Weisfeiler-Lehman", ICLR 2024, arXiv 2401.08514, Sec. 3.2,
the Fürer graph of Definition 3.2's proofs). The twisted Fürer graph negates that condition on one
edge of F. A connected F gives a non-isomorphic pair with :math:`\sum_x 2^{\deg(x) - 1}` vertices
each; a test whose homomorphism family misses F cannot tell them apart (Zhang et al. 2024, the
proof of their maximality theorem), while :math:`\hom(F, \cdot)` differs between them (Roberson
2022: it differs exactly when F has a weak oddomorphism to the base graph, and F has one to itself).

Examples
--------
>>> import networkx as nx
>>> G, H = furer_pair(nx.cycle_graph(3))   # two triangles against a 6-cycle
>>> sorted(len(c) for c in nx.connected_components(G)), nx.is_connected(H), furer_size(nx.cycle_graph(3))
([3, 3], True, 6)
"""

from __future__ import annotations

from itertools import combinations

import networkx as nx

from ..errors import UnsupportedGraphError

__all__ = ["furer_graph", "furer_pair", "furer_size", "furer_vertex", "rooted_furer_pair", "MAX_FURER_VERTICES"]

#: The largest Fürer graph built (vertices): a vertex of degree d alone brings 2^(d-1).
MAX_FURER_VERTICES = 100_000


def furer_size(F: nx.Graph) -> int:
    """Vertices of the Fürer graph of F: the sum over x of 2^(deg(x) - 1) (1 for an isolated x)."""
    return sum(2 ** (d - 1) if d else 1 for _, d in F.degree)


def _even_subsets(items: list) -> list[frozenset]:
    return [frozenset(c) for k in range(0, len(items) + 1, 2) for c in combinations(items, k)]


def _vertex_index(F: nx.Graph, gadgets: dict) -> dict:
    """``{(x, U): i}``: the vertex numbers of the Fürer graph, in the order of ``(x, sorted U)``
    (x in sorted order, U by size, then by its sorted members)."""
    order = ((x, U) for x in sorted(F) for U in sorted(gadgets[x], key=lambda s: (len(s), sorted(s))))
    return {key: i for i, key in enumerate(order)}


def furer_vertex(F: nx.Graph, x, U=()) -> int:
    """The number of the vertex ``(x, U)`` in :func:`furer_graph` of F, twisted or not (both
    number their vertices alike); ``U`` an even-size set of x's neighbours, by default the empty
    one. ``(x, {})`` is the vertex of x's gadget that Zhang et al.'s maximality proof for node and
    edge level marks in both graphs (ICLR 2024, arXiv 2401.08514, Sec. 3.3, Theorem 3.7).

    Examples
    --------
    >>> P = nx.path_graph(3)                  # gadgets: 0 -> {}, 1 -> {}, {0, 2}, 2 -> {}
    >>> furer_vertex(P, 1), furer_vertex(P, 1, {0, 2}), furer_vertex(P, 2)
    (1, 2, 3)
    """
    key = (x, frozenset(U))
    index = _vertex_index(F, {y: _even_subsets(sorted(F[y])) for y in F})
    if key not in index:
        raise UnsupportedGraphError(f"({x!r}, {set(U) or '{}'}) is not a vertex of the Fürer graph "
                                    "(x a vertex of F, U an even-size set of its neighbours)")
    return index[key]


def furer_graph(F: nx.Graph, twisted_edge: tuple | None = None) -> nx.Graph:
    """The Fürer graph of F (module docstring), twisted on ``twisted_edge`` when given; vertices
    ``0..N-1`` in the order of ``(x, sorted U)``, with ``graph["name"]`` saying what it is."""
    if F.is_directed() or F.is_multigraph() or nx.number_of_selfloops(F):
        raise UnsupportedGraphError("a Fürer graph is built over a simple undirected graph")
    if twisted_edge is not None and not F.has_edge(*twisted_edge):
        raise UnsupportedGraphError(f"the twisted edge {twisted_edge!r} is not an edge of the base graph")
    if furer_size(F) > MAX_FURER_VERTICES:
        raise UnsupportedGraphError(f"the Fürer graph would have {furer_size(F)} vertices "
                                    f"(at most {MAX_FURER_VERTICES} are built)")
    gadgets = {x: _even_subsets(sorted(F[x])) for x in F}
    index = _vertex_index(F, gadgets)
    twist = frozenset(twisted_edge) if twisted_edge is not None else None
    out = nx.Graph(name=f"{'twisted ' if twist else ''}Fürer graph over {nx.to_graph6_bytes(F, header=False).decode().strip()}")
    out.add_nodes_from(range(len(index)))
    for x, y in F.edges:
        flip = twist == frozenset((x, y))
        for U in gadgets[x]:
            for V in gadgets[y]:
                if ((x in V) == (y in U)) != flip:
                    out.add_edge(index[(x, U)], index[(y, V)])
    return out


def furer_pair(F: nx.Graph) -> tuple[nx.Graph, nx.Graph]:
    """The Fürer graph of F and its version twisted on F's first edge (F needs an edge)."""
    edges = sorted(tuple(sorted(e)) for e in F.edges)
    if not edges:
        raise UnsupportedGraphError("a Fürer pair needs a base graph with an edge")
    return furer_graph(F), furer_graph(F, edges[0])


def rooted_furer_pair(F: nx.Graph, marks: tuple) -> tuple[nx.Graph, nx.Graph, tuple[int, ...]]:
    """The Fürer pair of F marked at ``marks`` (one vertex ``w``, or two): G(F), its version
    twisted on the first edge of F that does not join two marks, and the vertices ``(m, {})``
    of the marks (:func:`furer_vertex`, the same numbers in both graphs).

    The marked pair is the same, up to an isomorphism fixing the marked vertices, whichever such
    edge is twisted, when F less its marks is connected: moving the twist from an edge to the next
    one across a vertex ``y`` (``(y, U) -> (y, U ^ {the two edges' other ends})``) is an
    isomorphism that touches only ``y``'s gadget (the CFI argument; Fürer 2001). When the marks
    separate F, the twist cannot cross them and the pair depends on the side it lies on:
    :class:`~wltools.errors.UnsupportedGraphError`.

    Examples
    --------
    >>> G, H, at = rooted_furer_pair(nx.cycle_graph(3), (0,))   # two triangles against a 6-cycle
    >>> at, sorted(G[0]), sorted(H[0])
    ((0,), [2, 4], [3, 4])
    """
    rest = F.subgraph(set(F) - set(marks))
    if rest.number_of_nodes() and not nx.is_connected(rest):
        raise UnsupportedGraphError(f"the marks {tuple(marks)!r} separate the pattern: its marked Fürer pair "
                                    "depends on the side of the twisted edge")
    edges = sorted(tuple(sorted(e)) for e in F.edges)
    free = [e for e in edges if not set(e) <= set(marks)] or edges
    if not free:
        raise UnsupportedGraphError("a Fürer pair needs a base graph with an edge")
    return furer_graph(F), furer_graph(F, free[0]), tuple(furer_vertex(F, m) for m in marks)
