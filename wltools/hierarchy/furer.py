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

__all__ = ["furer_graph", "furer_pair", "furer_size", "MAX_FURER_VERTICES"]

#: The largest Fürer graph built (vertices): a vertex of degree d alone brings 2^(d-1).
MAX_FURER_VERTICES = 100_000


def furer_size(F: nx.Graph) -> int:
    """Vertices of the Fürer graph of F: the sum over x of 2^(deg(x) - 1) (1 for an isolated x)."""
    return sum(2 ** (d - 1) if d else 1 for _, d in F.degree)


def _even_subsets(items: list) -> list[frozenset]:
    return [frozenset(c) for k in range(0, len(items) + 1, 2) for c in combinations(items, k)]


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
    index = {(x, U): i for i, (x, U) in enumerate((x, U) for x in sorted(F) for U in
                                                   sorted(gadgets[x], key=lambda s: (len(s), sorted(s))))}
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
