"""Homomorphism counts by plain backtracking: the independent reference for
:mod:`wltools.hom.count`.

This is the method of the authors' code (Zhang, Gai, Du, Ye, He, Wang, ICLR 2024, "Beyond
Weisfeiler-Lehman", arXiv 2401.08514; repository subgraph23/homomorphism-expressivity, a C++
backtracking counter): the pattern's vertices are placed one at a time, each on a vertex of G
adjacent to the images of its already placed neighbours, and the complete placements are
counted. It shares nothing with the dynamic programme (no tree decomposition, no numpy), so the
two agreeing is evidence for both. Cost: up to n * Δ^(|V(F)|-1) placements for a connected F.
"""

from __future__ import annotations

import networkx as nx

from .dense import check_unlabelled

__all__ = ["hom_count_brute"]


def _order(F: nx.Graph, fixed: dict) -> list:
    """Pattern vertices in placement order: breadth-first from the fixed ones, then from each
    remaining component's vertex of largest degree, so each vertex (but one per unfixed
    component) has a placed neighbour."""
    order, seen = [], set(fixed)

    def bfs(queue: list) -> None:
        while queue:
            v = queue.pop(0)
            for w in F.neighbors(v):
                if w not in seen:
                    seen.add(w)
                    order.append(w)
                    queue.append(w)

    bfs(list(fixed))
    for s in sorted(F.nodes, key=lambda v: -F.degree(v)):
        if s not in seen:
            seen.add(s)
            order.append(s)
            bfs([s])
    return order


def hom_count_brute(F: nx.Graph, G: nx.Graph, fixed: dict | None = None) -> int:
    """hom(F, G) by backtracking; with ``fixed`` (``{pattern vertex: graph vertex}``) only the
    homomorphisms that agree with it (0 when ``fixed`` itself breaks an edge of F).

    Examples
    --------
    >>> hom_count_brute(nx.cycle_graph(4), nx.complete_graph(3))  # (3-1)^4 + (3-1)
    18
    >>> hom_count_brute(nx.path_graph(2), nx.path_graph(3), fixed={0: 1})
    2
    """
    check_unlabelled(F, "the pattern F")
    check_unlabelled(G, "the graph G")
    fixed = dict(fixed or {})
    for u, v in F.edges:
        if u in fixed and v in fixed and not G.has_edge(fixed[u], fixed[v]):
            return 0
    order = _order(F, fixed)
    adj = {x: set(G.neighbors(x)) for x in G.nodes}
    everything = set(G.nodes)
    earlier = {v: [w for w in F.neighbors(v) if w in fixed or order.index(w) < order.index(v)]
               for v in order}
    image = dict(fixed)

    def extend(i: int) -> int:
        if i == len(order):
            return 1
        v = order[i]
        cands = everything
        for w in earlier[v]:
            cands = cands & adj[image[w]]
            if not cands:
                return 0
        total = 0
        for x in cands:
            image[v] = x
            total += extend(i + 1)
        image.pop(v, None)
        return total

    return extend(0)
