"""Exact treewidth and optimal tree decompositions of small patterns.

Homomorphism counting by dynamic programming over a tree decomposition of the pattern F costs
O(|V(G)|^(w+1)) for a decomposition of width w, so the counter wants the smallest width; the
pattern families of Zhang et al. (ICLR 2024, "Beyond Weisfeiler-Lehman", Sec. 3, Theorem 3.8 and
Corollary 3.10: 2-FGNN = 3-WL sees exactly the graphs of treewidth at most 2, k-FGNN those of
treewidth at most k) need treewidth decided exactly.

The treewidth is computed exactly by the subset dynamic programme of Bodlaender, Fomin, Koster,
Kratsch and Thilikos ("On exact algorithms for treewidth", ESA 2006 / ACM TALG 2012, Sec. 3,
Lemma 5): for a vertex set S, TW(S) = min over v in S of max(TW(S - v), |Q(S - v, v)|), where
Q(S, v) is the set of vertices outside S and v reachable from v by a path whose inner vertices all
lie in S; tw(F) = TW(V(F)). It takes O*(2^n) time, fine for patterns (the families list patterns
up to about 10 vertices); :data:`MAX_EXACT_NODES` bounds it. The elimination order the programme
picks gives a tree decomposition of exactly that width (the bags of the eliminated vertices with
their later neighbours in the filled graph).
"""

from __future__ import annotations

from functools import lru_cache

import networkx as nx

from wltools.errors import WLToolsError

#: Largest pattern whose treewidth is computed exactly (2^n subsets).
MAX_EXACT_NODES = 16


def _check_size(F: nx.Graph) -> None:
    if F.number_of_nodes() > MAX_EXACT_NODES:
        raise WLToolsError(f"exact treewidth is computed for patterns of at most {MAX_EXACT_NODES} vertices; "
                           f"this one has {F.number_of_nodes()}")


def _adjacency_masks(F: nx.Graph) -> tuple[list, list[int]]:
    nodes = list(F.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    adj = [0] * len(nodes)
    for u, v in F.edges:
        if u != v:
            adj[index[u]] |= 1 << index[v]
            adj[index[v]] |= 1 << index[u]
    return nodes, adj


def _q_size(adj: list[int], inside: int, v: int) -> int:
    """|Q(S, v)|: vertices outside S + v reachable from v through vertices of S (bit masks)."""
    seen, frontier, reached = (1 << v), (1 << v), 0
    while frontier:
        nxt = 0
        f = frontier
        while f:
            low = f & -f
            nxt |= adj[low.bit_length() - 1]
            f ^= low
        nxt &= ~seen
        seen |= nxt
        reached |= nxt & ~inside
        frontier = nxt & inside
    return bin(reached).count("1")


def _solve(adj: list[int]) -> tuple[int, list[int]]:
    """(treewidth, an elimination order of that width) for the graph of adjacency masks ``adj``."""
    n = len(adj)

    @lru_cache(maxsize=None)
    def tw(S: int) -> tuple[int, int]:
        """(TW(S), the vertex of S eliminated last among S) - Lemma 5 of Bodlaender et al."""
        if S == 0:
            return -1, -1
        best, arg = n + 1, -1
        s = S
        while s:
            low = s & -s
            v = low.bit_length() - 1
            s ^= low
            rest = S ^ low
            cand = max(tw(rest)[0], _q_size(adj, rest, v))
            if cand < best:
                best, arg = cand, v
        return best, arg

    full = (1 << n) - 1
    width = max(tw(full)[0], 0) if n else 0
    order, S = [], full
    while S:
        v = tw(S)[1]
        order.append(v)
        S ^= 1 << v
    tw.cache_clear()
    return width, order[::-1]


def treewidth_at_most_2(F: nx.Graph) -> bool:
    """Whether tw(F) <= 2, by series-parallel reduction (Duffin, "Topology of series-parallel
    networks", J. Math. Anal. Appl. 1965; Arnborg & Proskurowski, "Characterization and recognition
    of partial k-trees", Congr. Numer. 1986, k = 2): delete a vertex of degree <= 1, or replace a
    vertex of degree 2 by an edge between its neighbours (parallel edges merged); F has treewidth at
    most 2 iff this empties it. Each step keeps tw <= 2 both ways (the bag {v, a, b} hangs below a
    bag holding the edge ab), and every non-empty graph of treewidth <= 2 has a vertex of degree
    <= 2, so the order does not matter. Linear in |V(F)| steps; equal to ``treewidth(F) <= 2``
    (tested on every graph up to 7 vertices)."""
    adj = {v: set(F[v]) - {v} for v in F}
    todo = [v for v, nb in adj.items() if len(nb) <= 2]
    while todo:
        v = todo.pop()
        if v not in adj or len(adj[v]) > 2:
            continue
        nb = adj.pop(v)
        for u in nb:
            adj[u].discard(v)
        if len(nb) == 2:
            a, b = nb
            adj[a].add(b)
            adj[b].add(a)
        todo.extend(nb)
    return not adj


def treewidth(F: nx.Graph) -> int:
    """The exact treewidth of F (0 for a graph without edges, -1 never: an empty graph has 0)."""
    _check_size(F)
    if F.number_of_edges() == 0:
        return 0
    return _solve(_adjacency_masks(F)[1])[0]


def tree_decomposition(F: nx.Graph) -> tuple[int, nx.Graph]:
    """An optimal tree decomposition of F: ``(width, T)`` where T's nodes are frozensets (bags) of
    F's vertices, T is a tree (a forest joined into one tree), every edge of F lies in some bag and
    the bags holding any vertex form a subtree. Built from the exact elimination order: each
    vertex's bag is the vertex with its later neighbours in the filled graph, hung below the bag of
    the earliest of those neighbours."""
    _check_size(F)
    nodes, adj = _adjacency_masks(F)
    n = len(nodes)
    T = nx.Graph()
    if n == 0:
        return 0, T
    width, order = _solve(adj) if F.number_of_edges() else (0, list(range(n)))
    position = {v: i for i, v in enumerate(order)}
    filled = [set(i for i in range(n) if adj[v] >> i & 1) for v in range(n)]
    bags: dict[int, frozenset] = {}
    parent: dict[int, int | None] = {}
    for v in order:
        later = {u for u in filled[v] if position[u] > position[v]}
        for a in later:  # eliminating v joins its later neighbours into a clique
            filled[a] |= later - {a}
        bags[v] = frozenset([v, *later])
        parent[v] = min(later, key=position.get) if later else None
    for v in order:
        T.add_node(frozenset(nodes[i] for i in bags[v]))
    roots = []
    for v in order:
        here = frozenset(nodes[i] for i in bags[v])
        if parent[v] is None:
            roots.append(here)
        else:
            T.add_edge(here, frozenset(nodes[i] for i in bags[parent[v]]))
    for a, b in zip(roots, roots[1:]):  # components: one tree (bags of different components share nothing)
        T.add_edge(a, b)
    return width, T
