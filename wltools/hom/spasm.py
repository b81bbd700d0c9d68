"""The spasm of a pattern (all its homomorphic images) and subgraph-counting power.

Zhang et al., "Beyond Weisfeiler-Lehman", ICLR 2024 (arXiv 2401.08514), Sec. 2 and Sec. 4.2: a
homomorphic image of F is a graph G with a homomorphism from F onto G, surjective on vertices and
edges; Spasm(F) is the set of them. Each is the quotient of F by a partition of V(F) into
independent sets (a block becomes a vertex; two blocks are adjacent iff some vertices of them are),
and every such quotient is one; :func:`spasm` lists them up to isomorphism. Rooted patterns:
the homomorphism keeps the marks, so the block of a mark is marked; at edge level the two marks
``w != x`` stay in different blocks (an edge-level colour belongs to a pair of distinct vertices;
for ``{w, x}`` an edge, as in Example 4.6, they never merge anyway).

Theorem 4.5: a model whose homomorphism expressivity ``F^M`` exists can subgraph-count F iff
``Spasm(F)`` lies in ``F^M`` (node / edge level: the rooted spasm in the rooted family).
:func:`can_count` decides it and returns, for "no", the smallest image outside the family (fewest
vertices, then edges, then graph6), from which the paper builds the counterexample pair.
"""

from __future__ import annotations

import networkx as nx
import pynauty

from ..errors import ResourceLimitError, UnsupportedGraphError
from .families import family_of, no_family_reason
from .patterns import certificate, sort_key

__all__ = ["MAX_SPASM_NODES", "spasm", "can_count"]

#: Largest pattern whose spasm is enumerated (partitions grow like the Bell numbers: B(10) = 115975).
MAX_SPASM_NODES = 10


def _partitions(nodes: list, adj: dict, apart: set):
    """Partitions of ``nodes`` into independent sets, each once (blocks opened in vertex order);
    vertices of ``apart`` never share a block."""
    blocks: list[list] = []

    def place(i: int):
        if i == len(nodes):
            yield [list(b) for b in blocks]
            return
        v = nodes[i]
        for b in blocks:
            if not any(u in adj[v] for u in b) and not (v in apart and any(u in apart for u in b)):
                b.append(v)
                yield from place(i + 1)
                b.pop()
        blocks.append([v])
        yield from place(i + 1)
        blocks.pop()

    yield from place(0)


def spasm(F: nx.Graph, roots: tuple = ()) -> list[tuple[nx.Graph, tuple]]:
    """The homomorphic images of the (rooted) pattern F, one per isomorphism class (fixing the
    marks): ``(image, image_roots)`` pairs, each image canonically labelled with its marks as
    vertices 0 (and 1), sorted by fewest vertices, then edges, then graph6."""
    if F.number_of_nodes() > MAX_SPASM_NODES:
        raise ResourceLimitError(f"the spasm is enumerated for patterns of at most {MAX_SPASM_NODES} "
                                 f"vertices; this one has {F.number_of_nodes()}")
    key = (F.number_of_nodes(), len(roots), certificate(F, roots))
    if key not in _CACHE:
        _CACHE[key] = _images(F, roots)
    return list(_CACHE[key])


#: Spasms already enumerated, by the pattern's canonical certificate (marks included).
_CACHE: dict = {}


def _images(F: nx.Graph, roots: tuple) -> list[tuple[nx.Graph, tuple]]:
    nodes, edges = list(F.nodes), list(F.edges)
    adj = {v: set(F[v]) for v in nodes}
    found: set = set()
    for blocks in _partitions(nodes, adj, set(roots)):
        where = {v: k for k, b in enumerate(blocks) for v in b}
        qadj: dict[int, set] = {k: set() for k in range(len(blocks))}
        for u, v in edges:
            qadj[min(where[u], where[v])].add(max(where[u], where[v]))
        cells = [{where[r]} for r in roots]
        coloring = cells + [set(qadj) - {where[r] for r in roots}] if roots else []
        g = pynauty.Graph(len(blocks), adjacency_dict={k: list(a) for k, a in qadj.items()},
                          vertex_coloring=coloring)
        position = {v: i for i, v in enumerate(pynauty.canon_label(g))}  # marks first, in order
        found.add((len(blocks), tuple(sorted((min(position[a], position[b]), max(position[a], position[b]))
                                             for a, nb in qadj.items() for b in nb))))
    images = sorted((_image(key) for key in found), key=lambda image: image[1])
    marks = tuple(range(len(roots)))
    return [(G, marks) for G, _ in images]


#: Images met so far, by (vertices, canonically labelled edges): ``(frozen graph, sort key)``; the
#: spasms of many patterns share their small images.
_IMAGES: dict = {}
_IMAGES_MAX = 1 << 16


def _image(key: tuple) -> tuple[nx.Graph, tuple]:
    """The frozen canonical image of ``key`` (vertices ``0..n-1``, edges as labelled: the graph
    :func:`~wltools.hom.patterns.canonical_form` returns) and its :func:`sort_key`."""
    if key not in _IMAGES:
        if len(_IMAGES) >= _IMAGES_MAX:  # bounded: a run over many large patterns starts afresh
            _IMAGES.clear()
        Q = nx.Graph()
        Q.add_nodes_from(range(key[0]))
        Q.add_edges_from(key[1])
        _IMAGES[key] = (nx.freeze(Q), sort_key(Q))
    return _IMAGES[key]


def can_count(F: nx.Graph, test: str, level: str = "graph", roots: tuple | None = None
              ) -> tuple[bool, nx.Graph | None]:
    """Whether ``test`` can subgraph-count the pattern F at ``level`` (Theorem 4.5), and for
    "no" the smallest homomorphic image outside the family (marks as vertices 0 and 1).

    ``roots``: the marked vertices (default: vertex 0 at node level, vertices 0 and 1 at edge
    level: for ``cycle:n`` and ``path:n`` an edge, with 0 an end of the path, as in Example 4.6).
    Raises :class:`~wltools.errors.UnsupportedGraphError` when the test has no family at that
    level, or the pattern is not one the family is defined for."""
    if any("label" in d for _, d in F.nodes(data=True)) or any("label" in d for *_, d in F.edges(data=True)):
        raise UnsupportedGraphError("labelled patterns are refused: the families and the spasm are "
                                    "defined here for unlabelled patterns")
    fam = family_of(test, level)
    if fam is None:
        raise UnsupportedGraphError(f"{test} has no known pattern family at {level} level: "
                                    f"{no_family_reason(test, level)}")
    if roots is None:
        roots = {"graph": (), "node": (0,), "edge": (0, 1)}[level]
    roots = tuple(roots)
    if any(r not in F for r in roots) or len(set(roots)) != len(roots):
        raise UnsupportedGraphError(f"the marked vertices {roots!r} are not distinct vertices of the pattern")
    if level != "graph" and not nx.is_connected(F):
        raise UnsupportedGraphError("node- and edge-level patterns must be connected (Definition 3.6)")
    fam.contains(F, roots)  # validates the pattern for the family (marks, connectivity)
    for image, marks in spasm(F, roots):
        if not fam.contains(image, marks):
            return False, image
    return True, None
