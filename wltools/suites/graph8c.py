"""graph8c: all 11,117 connected simple graphs on 8 vertices, one per isomorphism class.

The file ``data/suites/graph8c/graph8c.g6`` (Balcilar et al., "Breaking the Limits of Message
Passing Graph Neural Networks", ICML 2021, ``balcilar/gnn-matlang``) is checked here against an
independent generation: :func:`generate_connected` builds every connected graph on ``n`` vertices
by McKay's canonical augmentation ("Isomorph-free exhaustive generation", J. Algorithms 1998):
a connected graph on ``k + 1`` vertices is a connected graph on ``k`` vertices plus one vertex
joined to a non-empty set ``S`` (some non-cut vertex can always be removed), ``S`` is taken up to the
automorphisms of the parent, and a child is kept only when the added vertex lies in the
automorphism orbit of the child's canonical deletion vertex (the non-cut vertex that comes last in
nauty's canonical order). Each isomorphism class then comes out exactly once; the counts are OEIS
A001349 (1, 1, 2, 6, 21, 112, 853, 11117 for n = 1..8) and the pynauty certificates are checked
to be distinct anyway.

Pairs: the pairs of graphs that 1-WL does not separate (Balcilar et al. report 312), found by
:func:`wl1_classes` (one shared colour table over all graphs: two graphs are 1-WL-equivalent iff
their colour histograms after ``n`` rounds agree) and listed as ``(i, j)``, ``i < j``, file order.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from dataclasses import replace
from typing import Iterable, Sequence

import networkx as nx
import pynauty

from ..refine.ego import nauty_graph
from ..refine.kernel import History, refine
from ..refine.wl1 import wl1_declaration

__all__ = [
    "CONNECTED_COUNTS",
    "generate_connected",
    "certificates",
    "generated_certificates",
    "wl1_classes",
    "wl1_equivalent_pairs",
]

#: Connected graphs on n unlabelled vertices, n = 1..8 (OEIS A001349).
CONNECTED_COUNTS = {1: 1, 2: 1, 3: 2, 4: 6, 5: 21, 6: 112, 7: 853, 8: 11117}


def _nauty(adj: Sequence[int]) -> pynauty.Graph:
    """The pynauty graph of a bitmask adjacency, built without pynauty's per-vertex checks
    (:func:`wltools.refine.ego.nauty_graph`: the same graph the public constructor builds)."""
    n = len(adj)
    return nauty_graph(n, {v: [u for u in range(n) if adj[v] >> u & 1] for v in range(n)})


def _connected_without(adj: Sequence[int], v: int) -> bool:
    """Is the graph (bitmask adjacency) still connected after removing vertex ``v``?"""
    n = len(adj)
    alive = ((1 << n) - 1) & ~(1 << v)
    if not alive:
        return True
    start = (alive & -alive).bit_length() - 1
    seen, frontier = 1 << start, 1 << start
    while frontier:
        u = (frontier & -frontier).bit_length() - 1
        frontier &= frontier - 1
        new = adj[u] & alive & ~seen
        seen |= new
        frontier |= new
    return seen == alive


def _subset_orbit_reps(k: int, generators: Iterable[Sequence[int]]) -> list[int]:
    """One non-empty subset of ``{0..k-1}`` (bitmask) per orbit of the group the permutations
    ``generators`` generate (union-find over the ``2^k`` masks)."""
    parent = list(range(1 << k))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for gen in generators:
        for mask in range(1, 1 << k):
            image = 0
            m = mask
            while m:
                b = (m & -m).bit_length() - 1
                m &= m - 1
                image |= 1 << gen[b]
            a, b = find(mask), find(image)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return [m for m in range(1, 1 << k) if find(m) == m]


def _children(adj: list[int]) -> list[list[int]]:
    """Canonical children of one connected parent (bitmask adjacency)."""
    k = len(adj)
    gens = pynauty.autgrp(_nauty(adj))[0] if k > 1 else []
    out = []
    for S in _subset_orbit_reps(k, gens):
        child = [a | (1 << k) if S >> v & 1 else a for v, a in enumerate(adj)] + [S]
        g = _nauty(child)
        orbits = pynauty.autgrp(g)[3]
        lab = pynauty.canon_label(g)
        m = next(v for v in reversed(lab) if _connected_without(child, v))
        if orbits[m] == orbits[k]:
            out.append(child)
    return out


def generate_connected(n: int) -> list[nx.Graph]:
    """Every connected simple graph on ``n`` vertices, one per isomorphism class, by canonical
    augmentation (module docstring). ``n`` from 1 to 9 or so (n = 8: about ten seconds).

    Examples
    --------
    >>> [len(generate_connected(n)) for n in range(1, 6)]
    [1, 1, 2, 6, 21]
    """
    if n < 1:
        raise ValueError("n must be >= 1")
    level = [[0]]
    for _ in range(n - 1):
        level = [c for parent in level for c in _children(parent)]
    graphs = []
    for adj in level:
        G = nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from((u, v) for u in range(n) for v in range(u + 1, n) if adj[u] >> v & 1)
        graphs.append(G)
    return graphs


@functools.lru_cache(maxsize=None)
def generated_certificates(n: int) -> tuple[bytes, ...]:
    """:func:`certificates` of :func:`generate_connected` ``(n)``, in generation order, computed
    once per process: the suite's data check (:func:`check_complete`) and the tests compare the
    same generation with the file (about 4 s of CPU for ``n = 8``)."""
    return tuple(certificates(generate_connected(n)))


def certificates(graphs: Iterable[nx.Graph]) -> list[bytes]:
    """pynauty certificates (the canonical adjacency matrix, prefixed by ``n``), one per graph:
    equal iff isomorphic. Equivalent to :func:`wltools.iso.certificate` without its validation,
    for many small graphs.

    Examples
    --------
    >>> import networkx as nx
    >>> a, b, c = certificates([nx.path_graph(3), nx.star_graph(2), nx.cycle_graph(3)])
    >>> a == b != c
    True
    """
    out = []
    for G in graphs:
        n = G.number_of_nodes()
        g = nauty_graph(n, {v: list(G.adj[v]) for v in range(n)})
        out.append(n.to_bytes(8, "big") + pynauty.certificate(g))
    return out


def wl1_classes(graphs: Sequence[nx.Graph]) -> list[list[int]]:
    """Classes (lists of indices, size >= 2) of graphs that 1-WL does not separate.

    One colour table shared by all graphs: the kernel's 1-WL (:func:`wltools.refine.wl1.wl1_declaration`)
    on their disjoint union, to the stable colouring (colours of later rounds determine those of
    earlier ones), then graphs are grouped by their colour histogram. This is the verdict of
    :func:`wltools.refine.refine_pair` with ``"1wl"`` on every pair at once.

    Examples
    --------
    >>> import networkx as nx
    >>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> wl1_classes([nx.cycle_graph(6), nx.path_graph(6), two_triangles])
    [[0, 2]]
    """
    graphs = list(graphs)
    sizes = [G.number_of_nodes() for G in graphs]
    offsets = list(itertools.accumulate(sizes, initial=0))
    union = nx.empty_graph(offsets[-1])  # graph i on nodes offsets[i] + (0..n_i - 1)
    for G, s in zip(graphs, offsets):
        at = {v: s + i for i, v in enumerate(G)}
        union.add_edges_from((at[u], at[v]) for u, v in G.edges)
    history = History(every_round=False)
    # the collection is more elements of one refinement: G = the union (H, edgeless, is unused)
    decl = wl1_declaration(union, nx.empty_graph(union.number_of_nodes()))
    refine(replace(decl, compare=False), history=history)
    cols = history.colours[-1][0].tolist()
    groups: dict = defaultdict(list)
    start = 0
    for i, n in enumerate(sizes):
        groups[(n, tuple(sorted(cols[start:start + n])))].append(i)
        start += n
    return sorted((g for g in groups.values() if len(g) > 1), key=lambda g: g[0])


def wl1_equivalent_pairs(graphs: Sequence[nx.Graph]) -> list[tuple[int, int]]:
    """All pairs ``(i, j)``, ``i < j``, that 1-WL does not separate, sorted.

    Examples
    --------
    >>> import networkx as nx
    >>> wl1_equivalent_pairs([nx.cycle_graph(6), nx.path_graph(6),
    ...                       nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))])
    [(0, 2)]
    """
    return _class_pairs(wl1_classes(graphs))


def _class_pairs(classes: Iterable[Sequence[int]]) -> list[tuple[int, int]]:
    """All pairs ``(i, j)``, ``i < j``, within each class (increasing lists of indices), sorted."""
    return sorted(p for cls in classes for p in itertools.combinations(cls, 2))


def build():
    """The suite: the 11,117 graphs of ``graph8c/graph8c.g6`` and their 1-WL-equivalent pairs."""
    from .base import SuiteData, read_graph6_file

    graphs = read_graph6_file("graph8c/graph8c.g6")
    classes = wl1_classes(graphs)  # once: the pairs are :func:`wl1_equivalent_pairs`' from these classes
    size = {i: len(c) for c in classes for i in c}
    pairs = [(i, j, "graph8c", {"wl1_class_size": size[i]}) for i, j in _class_pairs(classes)]
    sources = [f"graph8c/graph8c.g6 line {i}" for i in range(len(graphs))]
    return SuiteData(graphs, pairs, [], sources)


def check_complete(data, certs: list[bytes]) -> list[str]:
    """The file holds every connected graph on 8 vertices once: 8 nodes and connected each,
    distinct certificates, and the same certificate set as :func:`generate_connected` (8)."""
    from ..errors import DataIntegrityError

    for i, G in enumerate(data.graphs):
        if G.number_of_nodes() != 8 or not nx.is_connected(G):
            raise DataIntegrityError(f"graph8c line {i}: not a connected graph on 8 vertices")
    if len(set(certs)) != len(certs):
        raise DataIntegrityError("graph8c: two graphs of the file are isomorphic")
    generated = set(generated_certificates(8))
    if len(generated) != CONNECTED_COUNTS[8] or generated != set(certs):
        raise DataIntegrityError(
            f"graph8c: the file ({len(set(certs))} classes) differs from the {len(generated)} generated graphs")
    return [
        f"{len(certs)} graphs, all connected on 8 vertices, pairwise non-isomorphic",
        f"equal (by pynauty certificates) to the {len(generated)} connected graphs on 8 vertices generated by "
        "canonical augmentation (OEIS A001349: 11117)",
        f"pairs = the {len(data.pairs)} pairs that 1-WL does not separate (Balcilar et al. 2021: 312)",
    ]
