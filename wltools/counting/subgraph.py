r"""Exact subgraph counts of a small connected pattern F in a graph G, at graph, node and edge level.

A *subgraph copy* of F in G is a subgraph of G isomorphic to F (not necessarily induced). Every
copy is the image of exactly :math:`|\mathrm{Aut}(F)|` injective homomorphisms (monomorphisms)
:math:`F \to G`, so (Chen et al., NeurIPS 2020, Sec. 2, "subgraph-count";
Curticapean, Dell and Marx, STOC 2017, Sec. 2: :math:`\mathrm{sub}(F, G) = \mathrm{inj}(F, G) /
|\mathrm{Aut}(F)|`)

.. math::
    C_G = \frac{\#\{\phi\}}{|\mathrm{Aut}(F)|},\quad
    C_v = \frac{\#\{\phi : v \in \phi(V_F)\}}{|\mathrm{Aut}(F)|},\quad
    C_{uv} = \frac{\#\{\phi : uv \in \phi(E_F)\}}{|\mathrm{Aut}(F)|}

(the node-level count is the number of copies containing v, the edge-level count the number of
copies containing the edge uv; Zhang et al., ICLR 2024, code ``data/count.cpp``, ``iso``).

The monomorphisms are enumerated by backtracking over F's vertices in a connected order, the
candidates of each vertex being the intersection of its mapped neighbours' neighbourhoods (bit
sets); the last vertex's candidates are counted as a whole. Every division is checked to be exact.
The slow reference in the tests is networkx's ``GraphMatcher.subgraph_monomorphisms_iter``.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from wltools.errors import UnsupportedGraphError

__all__ = ["automorphisms", "subgraph_counts"]


def automorphisms(F: nx.Graph) -> int:
    """:math:`|\\mathrm{Aut}(F)|` by networkx's VF2 (F is a small pattern).

    >>> automorphisms(nx.cycle_graph(5)), automorphisms(nx.star_graph(3))
    (10, 6)
    """
    from networkx.algorithms.isomorphism import GraphMatcher

    return sum(1 for _ in GraphMatcher(F, F).isomorphisms_iter())


def _order(F: nx.Graph) -> tuple[list, list[list[int]]]:
    """F's vertices in BFS order from a vertex of largest degree, and for each position the earlier
    positions adjacent to it (non-empty after the first: F is connected)."""
    start = max(F.nodes, key=lambda v: (F.degree(v), -list(F.nodes).index(v)))
    order = [start] + [v for _, v in nx.bfs_edges(F, start)]
    pos = {v: i for i, v in enumerate(order)}
    back = [[pos[u] for u in F[v] if pos[u] < i] for i, v in enumerate(order)]
    return order, back


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Counter:
    """One enumeration: raw (not yet divided) counts of monomorphisms per graph, node and edge."""

    def __init__(self, F: nx.Graph, G: nx.Graph) -> None:
        self.nodes = list(G.nodes)
        index = {v: i for i, v in enumerate(self.nodes)}
        self.adj = [sum(1 << index[u] for u in G[v]) for v in self.nodes]
        self.order, self.back = _order(F)
        pos = {v: i for i, v in enumerate(self.order)}
        self.pedges = [(min(pos[a], pos[b]), max(pos[a], pos[b])) for a, b in F.edges]
        self.total = 0
        self.node = np.zeros(len(self.nodes), dtype=np.int64)
        self.edge: dict[tuple[int, int], int] = {}
        self.k = [0] * len(self.order)

    def run(self) -> None:
        full = (1 << len(self.nodes)) - 1
        if len(self.order) == 1:
            self._leaf(0, full)
            return
        for v in range(len(self.nodes)):
            self.k[0] = v
            self._extend(1, 1 << v)

    def _extend(self, i: int, used: int) -> None:
        cand = ~used
        for j in self.back[i]:
            cand &= self.adj[self.k[j]]
        if not cand:
            return
        if i == len(self.order) - 1:
            self._leaf(i, cand)
            return
        for w in _bits(cand):
            self.k[i] = w
            self._extend(i + 1, used | (1 << w))

    def _leaf(self, last: int, cand: int) -> None:
        """Every candidate of the last pattern vertex completes one monomorphism."""
        c = bin(cand).count("1")
        self.total += c
        for j in range(last):
            self.node[self.k[j]] += c
        ws = list(_bits(cand))
        for w in ws:
            self.node[w] += 1
        for a, b in self.pedges:
            if b < last:
                key = (min(self.k[a], self.k[b]), max(self.k[a], self.k[b]))
                self.edge[key] = self.edge.get(key, 0) + c
            else:
                for w in ws:
                    key = (min(self.k[a], w), max(self.k[a], w))
                    self.edge[key] = self.edge.get(key, 0) + 1


def _exact_div(values, aut: int, what: str):
    arr = np.asarray(values, dtype=np.int64)
    if np.any(arr % aut):
        raise AssertionError(f"{what}: monomorphism count not divisible by |Aut(F)| = {aut}")
    return arr // aut


def subgraph_counts(F: nx.Graph, G: nx.Graph, *, aut: int | None = None) -> tuple[int, np.ndarray, np.ndarray]:
    """Subgraph counts of the connected pattern ``F`` in ``G``: ``(graph, node, edge)``.

    ``node[i]`` belongs to ``list(G.nodes)[i]``; ``edge[e]`` to the e-th edge of
    ``sorted((min(i, j), max(i, j)) for i, j in G's edges by node position)``. ``aut``: a known
    ``|Aut(F)|`` (computed when None).

    Examples
    --------
    >>> g, node, edge = subgraph_counts(nx.cycle_graph(3), nx.complete_graph(4))
    >>> g, node.tolist(), edge.tolist()
    (4, [3, 3, 3, 3], [2, 2, 2, 2, 2, 2])
    """
    if F.number_of_nodes() == 0 or not nx.is_connected(F):
        raise UnsupportedGraphError("subgraph counting needs a connected, non-empty pattern")
    counter = _Counter(F, G)
    if F.number_of_nodes() <= G.number_of_nodes():
        counter.run()
    aut = automorphisms(F) if aut is None else aut
    index = {v: i for i, v in enumerate(counter.nodes)}
    edges = sorted((min(index[a], index[b]), max(index[a], index[b])) for a, b in G.edges)
    edge = [counter.edge.get(e, 0) for e in edges]
    return (int(_exact_div([counter.total], aut, "graph")[0]), _exact_div(counter.node, aut, "node"),
            _exact_div(edge, aut, "edge"))
