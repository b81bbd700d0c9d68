"""Exact homomorphism counts hom(F, G), plain and rooted: the public functions.

hom(F, G) is the number of maps h: V(F) -> V(G) with h(u)h(v) in E(G) for every edge uv of F.
Zhang, Gai, Du, Ye, He, Wang (ICLR 2024, "Beyond Weisfeiler-Lehman: A Quantitative Framework for
GNN Expressiveness", arXiv 2401.08514, Sec. 2 and Definition 3.1) characterise a model class by
the patterns F whose counts it determines; rooted counts (F with one or two marked vertices sent
to given vertices of G) are their node- and edge-level versions (Sec. 3.3).

Two exact methods count a connected F (a disconnected one is the product of its components):
the dense dynamic programme over an optimal tree decomposition (:mod:`wltools.hom.dense`, about
n^(t+1) operations for treewidth t, whatever G's density) and elimination over sparse tables
(:mod:`wltools.hom.sparse`, about n * Δ^t rows). :func:`hom_count`, :func:`hom_counts_at` and
:func:`hom_counts` take, per connected component of F, the one estimated cheaper
(:func:`wltools.hom.batch.prefer_sparse`); :class:`wltools.hom.batch.Counter` does the same for
many graphs at once. Both are exact; the tests check each alone against backtracking
(:mod:`wltools.hom.brute`).

Scope: simple undirected graphs only; loops and multi-edges are refused, and so are labelled
graphs (node or edge labels): what a pattern family means on labelled graphs is not settled here.
"""

from __future__ import annotations

from math import prod

import networkx as nx
import numpy as np

from wltools.errors import WLToolsError

from .batch import plan_count, prefer_sparse
from .dense import (_OBJECT_ENTRY, MAX_WORK, _check_work, _count_connected, _plan, _require_dense, check_unlabelled,
                    estimated_seconds, peak_bytes)
from .sparse import GraphBatch, TooManyRows

__all__ = ["MAX_WORK", "hom_count", "hom_counts", "hom_counts_at", "check_unlabelled", "peak_bytes", "require_count",
           "estimated_seconds", "count_estimate"]


def _plans(F: nx.Graph, G: nx.Graph, roots: tuple):
    """Per connected component of F: ``(component, its roots, plan_count's (method, seconds, bytes))``."""
    for comp in nx.connected_components(F):
        C = nx.Graph(F.subgraph(comp))
        mine = tuple(r for r in roots if r in comp)
        yield C, mine, plan_count(C, G, mine)


def count_estimate(F: nx.Graph, G: nx.Graph, roots: tuple = ()) -> tuple[float, int]:
    """``(seconds, bytes)`` estimated for counting F into G rooted at ``roots``, each connected
    component by its method (:func:`wltools.hom.batch.plan_count`): the seconds added, the bytes
    of the costliest component (they run one after another) plus an n x n table of rooted counts
    where two roots lie in two components."""
    return _estimate(list(_plans(F, G, tuple(roots))), G, len(roots))


def _estimate(plans: list, G: nx.Graph, roots: int) -> tuple[float, int]:
    seconds = sum(plan[1] for _, _, plan in plans)
    need = max((plan[2] for _, _, plan in plans), default=0)
    if roots == 2 and any(len(mine) == 1 for _, mine, _ in plans):
        need += 2 * _OBJECT_ENTRY * G.number_of_nodes() ** 2
    return seconds, need


def require_count(F: nx.Graph, G: nx.Graph, roots: tuple = (), *, max_memory: int | None = None,
                  max_work: float = MAX_WORK) -> None:
    """Refuse, before anything of G's size is built, a count over the memory budget
    (:func:`count_estimate`, :func:`wltools.runtime.memory.require`: ``--max-memory``, default 80%
    of the free memory) or, where the dense programme counts a component, above ``max_work``
    operations (:class:`~wltools.errors.ResourceLimitError`, one line naming the estimate)."""
    from wltools.graphs import edge_count
    from wltools.runtime.memory import require

    n = G.number_of_nodes()
    plans = list(_plans(F, G, tuple(roots)))
    for C, mine, (method, _, _) in plans:
        if method == "dense":
            _check_work(_plan(C, mine)[1], n, max_work)
    dense = any(plan[0] == "dense" for _, _, plan in plans)
    require(_estimate(plans, G, len(roots))[1],
            f"counting homomorphisms of a {F.number_of_nodes()}-vertex pattern into a graph of {n:,} vertices "
            f"and {edge_count(G):,} edges{f' (a dense {n:,} x {n:,} matrix)' if dense else ''}",
            max_memory=max_memory)


def _connected(F: nx.Graph, G: nx.Graph, roots: tuple = (), adjacency: dict | None = None,
               max_memory: int | None = None) -> np.ndarray:
    """:func:`_count_connected` by the cheaper exact method for this F and G
    (:func:`wltools.hom.batch.prefer_sparse`): elimination over sparse tables
    (:mod:`wltools.hom.sparse`; its union of G kept in ``adjacency``) or the dense programme. An
    elimination whose tables would pass :data:`wltools.hom.sparse.MAX_ROWS` rows goes dense,
    after the dense programme's own checks."""
    adjacency = {} if adjacency is None else adjacency
    if prefer_sparse(F, G, roots):
        if "sparse" not in adjacency:
            adjacency["sparse"] = GraphBatch([G], checked=True)
        try:
            if roots:
                return adjacency["sparse"].rooted(F, tuple(roots))[0]
            return np.array(adjacency["sparse"].connected_counts(F, [0])[0], dtype=object)
        except TooManyRows:
            _require_dense(F, G, tuple(roots), max_memory, MAX_WORK)
    return _count_connected(F, G, roots, adjacency=adjacency)


def _check_inputs(F: nx.Graph, G: nx.Graph) -> None:
    check_unlabelled(F, "the pattern F")
    check_unlabelled(G, "the graph G")


def hom_count(F: nx.Graph, G: nx.Graph, *, max_memory: int | None = None) -> int:
    """hom(F, G): the number of homomorphisms from the pattern F to G, exact (a Python int).

    Disconnected F: the product over its components. Cost O(n^(t+1)) per bag of an optimal tree
    decomposition of F (t its treewidth), or about n * Δ^t table rows by elimination where that
    is cheaper (module docstring); refused (:class:`~wltools.errors.ResourceLimitError`)
    above :data:`MAX_WORK` dense operations, and for patterns above
    :data:`wltools.hom.decompose.MAX_EXACT_NODES` vertices, and over the memory budget
    ``max_memory`` (:func:`require_count`; default 80% of the free memory) before G's adjacency
    matrix is built.

    Examples
    --------
    >>> hom_count(nx.complete_graph(2), nx.petersen_graph())  # 2 |E|
    30
    >>> hom_count(nx.cycle_graph(3), nx.complete_graph(4))  # 4 * 3 * 2
    24
    """
    _check_inputs(F, G)
    require_count(F, G, max_memory=max_memory)
    return _hom(F, G)


def _hom(F: nx.Graph, G: nx.Graph, adjacency: dict | None = None) -> int:
    """:func:`hom_count` of checked inputs: the product over F's components."""
    if G.number_of_nodes() == 0:
        return int(F.number_of_nodes() == 0)
    comps = list(nx.connected_components(F))
    parts = [F] if len(comps) == 1 else [nx.Graph(F.subgraph(c)) for c in comps]
    return prod(int(_connected(C, G, adjacency=adjacency)[()]) for C in parts)


def hom_counts(patterns, G: nx.Graph) -> list[int]:
    """``[hom_count(F, G) for F in patterns]``, G's adjacency matrix built once.

    Examples
    --------
    >>> hom_counts([nx.path_graph(1), nx.path_graph(2), nx.cycle_graph(3)], nx.complete_graph(3))
    [3, 6, 6]
    """
    check_unlabelled(G, "the graph G")
    adjacency: dict = {}
    out = []
    for F in patterns:
        check_unlabelled(F, "the pattern F")
        out.append(_hom(F, G, adjacency))
    return out


def hom_counts_at(F: nx.Graph, G: nx.Graph, roots: tuple, *, max_memory: int | None = None) -> np.ndarray:
    """Rooted homomorphism counts: an object array (Python ints) over ``list(G.nodes)``, of shape
    (n,) for one root and (n, n) for two, whose entry at x (or (x, y)) is the number of
    homomorphisms F -> G sending ``roots[0]`` to x (and ``roots[1]`` to y). ``sum`` of the
    entries is hom(F, G). Roots must be distinct vertices of F. Refused over ``max_memory``
    before anything of G's size is built (:func:`require_count`).

    Examples
    --------
    >>> hom_counts_at(nx.path_graph(3), nx.star_graph(2), (1,)).tolist()  # the middle at x: deg(x)^2
    [4, 1, 1]
    """
    _check_inputs(F, G)
    roots = tuple(roots)
    if len(roots) not in (1, 2) or len(set(roots)) != len(roots) or any(r not in F for r in roots):
        raise WLToolsError(f"roots must be one or two distinct vertices of the pattern, got {roots!r}")
    require_count(F, G, roots, max_memory=max_memory)
    n = G.number_of_nodes()
    comps = [F.subgraph(c) for c in nx.connected_components(F)]
    rest = prod(_hom(C, G) for C in comps if not set(roots) & set(C))
    holding = [C for C in comps if set(roots) & set(C)]
    if n == 0:
        return np.zeros((0,) * len(roots), dtype=object)
    if len(holding) == 1:
        return _connected(nx.Graph(holding[0]), G, roots, max_memory=max_memory) * rest
    ordered = holding if roots[0] in holding[0] else holding[::-1]
    a, b = (_connected(nx.Graph(C), G, (r,), max_memory=max_memory) for C, r in zip(ordered, roots))
    return np.multiply.outer(a, b) * rest
