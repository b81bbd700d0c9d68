"""Independent slow references for :func:`wltools.testing.check_test` (each built-in test's
``classes``, set in its module of :mod:`wltools.wltests`): short, obviously correct
pure-Python refinements over networkx graphs, sharing nothing with :mod:`wltools.refine` but the
definitions.

Each reference takes a list of graphs and returns one hashable key per graph, equal exactly for
graphs the test does not distinguish: every graph is refined on ONE colour table shared by the
whole list (a colour is the index of its signature ``(old colour, sorted items)`` in that table,
so colours mean the same in every graph), round after round until no round adds a colour to the
table's current round (the disjoint union of all graphs is then stable); the key is the
histogram of the last round's colours, which records every earlier round (each colour holds its
predecessor). Unlabelled graphs; 1-WL also reads node and edge attributes ``"label"``.

Examples
--------
>>> import networkx as nx
>>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
>>> k = wl1_classes([nx.cycle_graph(6), two_triangles])
>>> k[0] == k[1], spd_classes([nx.cycle_graph(6), two_triangles])[0] == spd_classes([two_triangles])[0]
(True, False)
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, product
from typing import Callable

import networkx as nx

__all__ = ["refine_shared", "fraction_inverse", "wl1_classes", "spd_classes", "rd_classes", "rrwp_classes",
           "fwl2_classes", "fwl3_classes", "substructure_classes"]


def refine_shared(graphs: list, elements: Callable, init: Callable, items: Callable) -> list:
    """The class key of every graph (module docstring): ``elements(G)`` lists what is coloured,
    ``init(G, e)`` its initial colour (any hashable), ``items(G, e, colour)`` the multiset (a list)
    its next colour aggregates, ``colour`` mapping elements to current colours."""
    table: dict = {}
    elems = [list(elements(G)) for G in graphs]
    colours = [{e: table.setdefault(("init", init(G, e)), len(table)) for e in es} for G, es in zip(graphs, elems)]
    used = len({c for col in colours for c in col.values()})
    while True:
        colours = [{e: table.setdefault((col[e], tuple(sorted(items(G, e, col)))), len(table)) for e in es}
                   for G, es, col in zip(graphs, elems, colours)]
        now = len({c for col in colours for c in col.values()})
        if now == used:
            break
        used = now
    return [(len(G), tuple(sorted(Counter(col.values()).items()))) for G, col in zip(graphs, colours)]


def wl1_classes(graphs: list) -> list:
    """1-WL: a node's next colour is its colour and the multiset of (neighbour colour, edge label)."""
    return refine_shared(
        graphs, lambda G: G.nodes, lambda G, v: repr(G.nodes[v].get("label")),
        lambda G, v, c: [(c[u], repr(G.edges[v, u].get("label"))) for u in G[v]])


def _gdwl(graphs: list, distance: Callable) -> list:
    """GD-WL: the multiset over all nodes ``u`` of ``(d(v, u), colour of u)``."""
    D = [distance(G) for G in graphs]
    index = {id(G): i for i, G in enumerate(graphs)}
    return refine_shared(graphs, lambda G: G.nodes, lambda G, v: 0,
                         lambda G, v, c: [(D[index[id(G)]][v][u], c[u]) for u in G])


def _spd(G: nx.Graph) -> dict:
    hops = dict(nx.all_pairs_shortest_path_length(G))
    return {v: {u: hops[v].get(u, -1) for u in G} for v in G}  # -1: unreachable


def fraction_inverse(M: list) -> list:
    """The inverse of a non-singular square matrix of Fractions (Gauss-Jordan)."""
    n = len(M)
    A = [list(row) + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(M)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if A[r][col] != 0)
        A[col], A[pivot] = A[pivot], A[col]
        p = A[col][col]
        A[col] = [x / p for x in A[col]]
        for r in range(n):
            if r != col and A[r][col] != 0:
                f = A[r][col]
                A[r] = [x - f * y for x, y in zip(A[r], A[col])]
    return [row[n:] for row in A]


def _rd(G: nx.Graph) -> dict:
    """Exact resistance distances: ``M = (L + J / n_C)^-1`` per component ``C``,
    ``R(u, v) = M_uu + M_vv - 2 M_uv``; -1 between components."""
    R = {v: {u: Fraction(-1) for u in G} for v in G}
    for comp in nx.connected_components(G):
        nodes = sorted(comp)
        k = len(nodes)
        L = [[Fraction(G.degree(a) if a == b else -int(G.has_edge(a, b))) + Fraction(1, k) for b in nodes] for a in nodes]
        M = fraction_inverse(L)
        for i, a in enumerate(nodes):
            for j, b in enumerate(nodes):
                R[a][b] = M[i][i] + M[j][j] - 2 * M[i][j]
    return R


def _rrwp(G: nx.Graph) -> dict:
    """``[I, M, ..., M^(K-1)]_vu`` with ``M = D^-1 A`` (an isolated node a zero row), ``K = n``."""
    nodes = sorted(G)
    M = {v: {u: Fraction(int(G.has_edge(v, u)), G.degree(v) or 1) for u in nodes} for v in nodes}
    P = {v: {u: Fraction(int(v == u)) for u in nodes} for v in nodes}
    out = {v: {u: [] for u in nodes} for v in nodes}
    for _ in range(len(nodes)):
        for v in nodes:
            for u in nodes:
                out[v][u].append(P[v][u])
        P = {v: {u: sum(P[v][w] * M[w][u] for w in nodes) for u in nodes} for v in nodes}
    return {v: {u: tuple(out[v][u]) for u in nodes} for v in nodes}


def spd_classes(graphs: list) -> list:
    """SPD-WL (networkx BFS distances)."""
    return _gdwl(graphs, _spd)


def rd_classes(graphs: list) -> list:
    """RD-WL (exact resistance distances over Fractions)."""
    return _gdwl(graphs, _rd)


def rrwp_classes(graphs: list) -> list:
    """RRWP-WL with ``K = n`` channels (exact random-walk probabilities over Fractions)."""
    return _gdwl(graphs, _rrwp)


def _atomic(G: nx.Graph, tup: tuple) -> tuple:
    """The isomorphism type of an ordered tuple of nodes: equalities and adjacencies."""
    pairs = list(combinations(range(len(tup)), 2))
    return tuple((tup[i] == tup[j], G.has_edge(tup[i], tup[j])) for i, j in pairs)


def fwl2_classes(graphs: list) -> list:
    """2-FWL (= 3-WL): pairs ``(u, v)``, the multiset over ``w`` of ``(c(u, w), c(w, v))``."""
    return refine_shared(graphs, lambda G: product(G.nodes, repeat=2), _atomic,
                         lambda G, e, c: [(c[e[0], w], c[w, e[1]]) for w in G])


def fwl3_classes(graphs: list) -> list:
    """3-FWL (= 4-WL): triples, the multiset over ``w`` of ``(c(w, v, x), c(u, w, x), c(u, v, w))``."""
    return refine_shared(graphs, lambda G: product(G.nodes, repeat=3), _atomic,
                         lambda G, e, c: [(c[w, e[1], e[2]], c[e[0], w, e[2]], c[e[0], e[1], w]) for w in G])


def substructure_classes(k: int) -> Callable:
    """S3 / S4: 1-WL started from each node's counts of connected induced ``k``-node subgraphs,
    by isomorphism class (:func:`networkx.is_isomorphic` against the first of each class)."""

    def keys(G: nx.Graph) -> dict:
        shapes: list = []
        counts = {v: Counter() for v in G}
        for S in combinations(G, k):
            sub = G.subgraph(S)
            if not nx.is_connected(sub):
                continue
            kind = next((i for i, F in enumerate(shapes) if nx.is_isomorphic(F, sub)), None)
            if kind is None:
                shapes.append(nx.Graph(sub))
                kind = len(shapes) - 1
            for v in S:
                counts[v][_shape_name(shapes[kind])] += 1
        return {v: tuple(sorted(counts[v].items())) for v in G}

    def classes(graphs: list) -> list:
        K = {id(G): keys(G) for G in graphs}
        return refine_shared(graphs, lambda G: G.nodes, lambda G, v: K[id(G)][v],
                             lambda G, v, c: [c[u] for u in G[v]])

    return classes


def _shape_name(F: nx.Graph) -> tuple:
    """A name of a small connected graph's isomorphism class that is the same in every graph:
    its sorted degree sequence and edge count (enough on 3 and 4 nodes)."""
    return (F.number_of_edges(), tuple(sorted(d for _, d in F.degree())))

