"""All connected patterns up to a size, non-isomorphic, canonically labelled and sorted; rooted
patterns (one or two marked vertices) for node- and edge-level families.

Graph level: up to 7 vertices from networkx's atlas (:func:`networkx.graph_atlas_g`, every graph
up to 7 vertices, Read & Wilson); beyond, by vertex augmentation: every connected graph on
``n + 1`` vertices has a vertex whose removal leaves it connected (a leaf of a spanning tree), so
adding one vertex, joined to every non-empty subset of the vertices, to every connected graph on
``n`` vertices reaches them all; duplicates are dropped by pynauty's canonical certificate
(:func:`pynauty.certificate`). Counts (OEIS A001349): 1, 1, 2, 6, 21, 112, 853, 11117, 261080.
8 vertices take about 15 s, 9 vertices several minutes (2 cores, shared; measured by the tests'
author); :data:`MAX_NODES` caps the request.

Every pattern is relabelled canonically (pynauty's :func:`pynauty.canon_label`) on ``0..n-1``, so
its graph6 string is canonical. Rooted patterns (Zhang et al., ICLR 2024, Sec. 3.3: node level
``F^w``, edge level ``F^{wx}`` with ``w != x``, ordered, not necessarily adjacent) are listed up to
isomorphisms fixing the marks and carry their marks as vertex 0 (``w``) and vertex 1 (``x``):
the canonical labelling with the colour cells ``[{w}, {x}, rest]`` puts them first. Order: fewest
vertices, then fewest edges, then graph6.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import networkx as nx
import pynauty

from ..errors import ResourceLimitError, UnknownNameError

__all__ = ["MAX_NODES", "LEVELS", "connected_graphs", "rooted_patterns", "graph6", "sort_key",
           "canonical_form", "canonical_labelling", "certificate"]

#: The most vertices :func:`connected_graphs` enumerates (9 vertices: 261080 graphs, minutes).
MAX_NODES = 9

#: Levels: graph (no mark), node (one marked vertex), edge (two marked vertices).
LEVELS = ("graph", "node", "edge")

_ATLAS_MAX = 7


def graph6(F: nx.Graph) -> str:
    """The graph6 string of F as labelled (no header)."""
    return nx.to_graph6_bytes(F, header=False).decode().strip()


def sort_key(F: nx.Graph) -> tuple:
    """Fewest vertices, then fewest edges, then graph6."""
    return F.number_of_nodes(), F.number_of_edges(), graph6(F)


def _nauty(F: nx.Graph, roots: tuple = ()) -> pynauty.Graph:
    index = {v: i for i, v in enumerate(F.nodes)}
    adj = {i: [] for i in range(len(index))}
    for u, v in F.edges:
        adj[index[u]].append(index[v])
    cells = [{index[r]} for r in roots]
    rest = set(range(len(index))) - {index[r] for r in roots}
    coloring = cells + [rest] if roots else []
    return pynauty.Graph(len(index), adjacency_dict=adj, vertex_coloring=coloring)


def certificate(F: nx.Graph, roots: tuple = ()) -> bytes:
    """pynauty's certificate of F with the marks ``roots`` (the first item of
    :func:`canonical_form`, without building the canonical copy)."""
    return pynauty.certificate(_nauty(F, roots))


def canonical_labelling(F: nx.Graph, roots: tuple = ()) -> dict:
    """F's vertex -> its index in pynauty's canonical labelling (marks ``roots`` first, in order):
    isomorphic (rooted) graphs relabelled by it are equal."""
    nodes = list(F.nodes)
    return {nodes[v]: i for i, v in enumerate(pynauty.canon_label(_nauty(F, roots)))}


def canonical_form(F: nx.Graph, roots: tuple = ()) -> tuple[bytes, nx.Graph]:
    """``(certificate, canonical copy)``: the copy is F relabelled on ``0..n-1`` by pynauty's
    canonical labelling (marks ``roots`` first, in order); equal certificates (with the same
    number of vertices and marks) mean isomorphic (rooted) graphs."""
    nodes = list(F.nodes)
    g = _nauty(F, roots)
    lab = pynauty.canon_label(g)
    position = {nodes[v]: i for i, v in enumerate(lab)}
    H = nx.Graph()
    H.add_nodes_from(range(len(nodes)))
    H.add_edges_from((position[u], position[v]) for u, v in F.edges)
    return pynauty.certificate(g), H


def _augment(graphs: list[nx.Graph]) -> list[nx.Graph]:
    seen: dict[bytes, nx.Graph] = {}
    for G in graphs:
        n = G.number_of_nodes()
        for k in range(1, n + 1):
            for subset in combinations(range(n), k):
                H = G.copy()
                H.add_edges_from((n, v) for v in subset)
                cert, canon = canonical_form(H)
                seen.setdefault(cert, canon)
    return list(seen.values())


@lru_cache(maxsize=1)
def _atlas_by_size() -> dict[int, list[nx.Graph]]:
    """The atlas (every graph up to 7 vertices), read once, grouped by vertex count."""
    out: dict[int, list[nx.Graph]] = {}
    for G in nx.graph_atlas_g():
        out.setdefault(G.number_of_nodes(), []).append(G)
    return out


@lru_cache(maxsize=None)
def _connected(n: int) -> tuple:
    if n <= _ATLAS_MAX:
        found = [canonical_form(G)[1] for G in _atlas_by_size().get(n, [])
                 if n > 0 and nx.is_connected(G)]
    else:
        found = _augment(list(_connected(n - 1)))
    return tuple(sorted(found, key=sort_key))


def connected_graphs(max_nodes: int, min_nodes: int = 1) -> list[nx.Graph]:
    """Every connected graph with ``min_nodes..max_nodes`` vertices, one per isomorphism class,
    canonically labelled, sorted by :func:`sort_key` (copies: callers may change them)."""
    if max_nodes > MAX_NODES:
        raise ResourceLimitError(f"connected patterns are listed up to {MAX_NODES} vertices "
                                 f"({max_nodes} asked): 10 vertices are 11.7 million graphs")
    out = [G.copy() for n in range(max(min_nodes, 1), max_nodes + 1) for G in _connected(n)]
    return out


def _rooted_of(G: nx.Graph, marks: int) -> list[nx.Graph]:
    seen: dict[bytes, nx.Graph] = {}
    nodes = list(G.nodes)
    choices = ([(w,) for w in nodes] if marks == 1
               else [(w, x) for w in nodes for x in nodes if w != x])
    for roots in choices:
        cert, canon = canonical_form(G, roots)
        seen.setdefault(cert, canon)
    return list(seen.values())


@lru_cache(maxsize=None)
def _rooted(n: int, marks: int) -> tuple:
    found = [H for G in _connected(n) for H in _rooted_of(G, marks)]
    return tuple(sorted(found, key=sort_key))


def rooted_patterns(max_nodes: int, level: str, min_nodes: int = 1) -> list[nx.Graph]:
    """The connected patterns of ``level`` (:data:`LEVELS`) up to ``max_nodes`` vertices: graphs
    (graph), graphs with vertex 0 marked (node), graphs with vertices 0, 1 marked (edge; at
    least 2 vertices), one per isomorphism class fixing the marks, sorted by :func:`sort_key`."""
    if level not in LEVELS:
        raise UnknownNameError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    if level == "graph":
        return connected_graphs(max_nodes, min_nodes)
    if max_nodes > MAX_NODES:
        raise ResourceLimitError(f"rooted patterns are listed up to {MAX_NODES} vertices "
                                 f"({max_nodes} asked)")
    marks = 1 if level == "node" else 2
    lo = max(min_nodes, marks)
    return [H.copy() for n in range(lo, max_nodes + 1) for H in _rooted(n, marks)]
