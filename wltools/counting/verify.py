r"""Every shipped counting target against an independent brute-force count.

The shipped targets (``data/counting/targets.npz``) were computed by
:func:`wltools.counting.subgraph.subgraph_counts` (bit-set backtracking that counts the last
vertex's candidates as a whole). This module checks them with code that shares nothing with it:
igraph's LAD algorithm (Solnon, "AllDifferent-based filtering for subgraph isomorphism", Artificial
Intelligence 174, 2010; ``igraph.Graph.get_subisomorphisms_lad`` with ``induced=False``, in C) lists
*every* monomorphism :math:`\phi: F \to G` explicitly, and the three levels are tallied from that
list (Chen et al., NeurIPS 2020, Sec. 2; Curticapean, Dell and Marx, STOC 2017, Sec. 2,
:math:`\mathrm{sub}(F, G) = \mathrm{inj}(F, G) / |\mathrm{Aut}(F)|`):

.. math::
    C_G = \frac{\#\{\phi\}}{|\mathrm{Aut}(F)|},\quad
    C_v = \frac{\#\{\phi : v \in \phi(V_F)\}}{|\mathrm{Aut}(F)|},\quad
    C_{uv} = \frac{\#\{\phi : uv \in \phi(E_F)\}}{|\mathrm{Aut}(F)|}

with :math:`|\mathrm{Aut}(F)|` the number of LAD maps of F onto itself; every division is checked
to be exact. The graphs are split over ``jobs`` worker processes; each compares every task at every
level for its graphs and returns the mismatches (none, on the shipped data).

Homomorphism tasks (``hom:NAME``, Zhang et al., ICLR 2024, Sec. 6, Table 1) have no stored targets:
the benchmark computes them on first use (:func:`wltools.counting.data.exact_targets`, by dynamic
programming over a tree decomposition, :mod:`wltools.hom.count`), and those values are checked here
graph by graph. The brute force shares nothing with the dynamic programme: every homomorphism
:math:`h: F \to G` factors uniquely as the surjection of F onto its quotient :math:`F/\theta` by the
partition :math:`\theta = \{h^{-1}(x)\}` (blocks independent, since G has no loops) followed by an
injective map :math:`F/\theta \to G`, so (Lovász, "Large Networks and Graph Limits", AMS 2012,
Sec. 5.2; Curticapean, Dell and Marx, STOC 2017, Sec. 3)

.. math::
    \mathrm{hom}(F, G) = \sum_{\theta} \mathrm{inj}(F/\theta, G),

the sum over the partitions of V(F) into independent sets (sympy's set partitions, filtered), each
:math:`\mathrm{inj}` listed map by map by LAD. The rooted counts follow from the same lists: the
node-level target of v counts the maps sending the block of root 0 to v, the edge-level target of
the edge (u, v), u < v by node position, those sending the blocks of roots 0 and 1 to u and v
(:mod:`wltools.counting.tasks`; Zhang et al.'s code ``data/count.cpp``, ``hom``).
"""

from __future__ import annotations

import time
from typing import Iterable, Sequence

import networkx as nx
import numpy as np

from wltools.errors import DataIntegrityError, UnsupportedGraphError, WLToolsError

from .tasks import HOM_PATTERNS, LEVELS, STANDARD_TASKS, parse_task

__all__ = ["HOM_TASKS", "VERIFIED_TASKS", "lad_counts", "hom_lad_counts", "verify_all"]

#: Every homomorphism task ``wltools count data`` offers (each at graph, node and edge level).
HOM_TASKS = tuple(f"hom:{k}" for k in HOM_PATTERNS)

#: What :func:`verify_all` checks by default: the shipped subgraph tasks and every homomorphism task.
VERIFIED_TASKS = STANDARD_TASKS + HOM_TASKS


def _igraph(G: nx.Graph):
    import igraph

    index = {v: i for i, v in enumerate(G.nodes)}
    return igraph.Graph(n=len(index), edges=[(index[a], index[b]) for a, b in G.edges])


def lad_counts(F: nx.Graph, G: nx.Graph, aut: int | None = None) -> tuple[int, np.ndarray, np.ndarray]:
    """``(graph, node, edge)`` subgraph counts of F in G from igraph's list of all monomorphisms
    (module docstring); nodes by position in ``G.nodes``, edges in
    :func:`wltools.counting.data.edge_list` order."""
    f, g = _igraph(F), _igraph(G)
    if aut is None:
        aut = len(f.get_subisomorphisms_lad(f, induced=False))
    n = g.vcount()
    maps = np.asarray(g.get_subisomorphisms_lad(f, induced=False), dtype=np.int64).reshape(-1, f.vcount())
    ends = np.asarray(f.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    a, b = maps[:, ends[:, 0]], maps[:, ends[:, 1]]  # [maps, |E(F)|] graph ends of each pattern edge
    through = np.bincount((np.minimum(a, b) * n + np.maximum(a, b)).ravel(), minlength=n * n)
    edges = sorted((min(u, v), max(u, v)) for u, v in g.get_edgelist())
    raw = (len(maps), np.bincount(maps.ravel(), minlength=n), np.array([through[u * n + v] for u, v in edges],
                                                                       dtype=np.int64))
    if raw[0] % aut or np.any(raw[1] % aut) or np.any(raw[2] % aut):
        raise DataIntegrityError(f"monomorphism tallies of {len(maps)} maps are not multiples of |Aut(F)| = {aut}")
    return raw[0] // aut, raw[1] // aut, raw[2] // aut


def _quotients(F: nx.Graph, roots: tuple) -> list[tuple[object, list[int]]]:
    """Every quotient :math:`F/\\theta` by a partition of V(F) into independent sets (module
    docstring), as an igraph pattern (a block becomes a vertex, two blocks adjacent iff an edge of F
    joins them), with the blocks holding ``roots``."""
    import igraph
    from sympy.utilities.iterables import multiset_partitions

    nodes = list(F.nodes)
    out = []
    for blocks in multiset_partitions(list(range(len(nodes)))):
        block = {nodes[v]: k for k, b in enumerate(blocks) for v in b}
        if any(block[a] == block[b] for a, b in F.edges):
            continue
        edges = sorted({(min(block[a], block[b]), max(block[a], block[b])) for a, b in F.edges})
        out.append((igraph.Graph(n=len(blocks), edges=edges), [block[r] for r in roots]))
    return out


def hom_lad_counts(F: nx.Graph, G: nx.Graph, roots: tuple = (0, 1),
                   quotients: list | None = None) -> tuple[int, np.ndarray, np.ndarray]:
    """``(graph, node, edge)`` homomorphism counts of F into G as the sum over F's quotients of
    their monomorphisms listed by LAD (module docstring): hom(F, G); per node v the homomorphisms
    sending ``roots[0]`` to v; per edge (u, v) of :func:`wltools.counting.data.edge_list` (u < v
    by position in ``G.nodes``) those sending ``roots`` to (u, v). ``quotients``: F's
    :func:`_quotients` for these roots, when already built.

    Examples
    --------
    >>> g, node, edge = hom_lad_counts(nx.path_graph(3), nx.star_graph(2), roots=(1, 0))
    >>> g, node.tolist(), edge.tolist()  # the middle at x: deg(x)^2; (1, 0) onto (0, 1): deg(0)
    (6, [4, 1, 1], [2, 2])
    """
    if len(roots) != 2 or roots[0] == roots[1] or any(r not in F for r in roots):
        raise WLToolsError(f"roots must be two distinct vertices of the pattern, got {roots!r}")
    for H, what in ((F, "the pattern"), (G, "the graph")):
        if H.is_directed() or H.is_multigraph() or nx.number_of_selfloops(H):
            raise UnsupportedGraphError(f"{what} is directed, a multigraph or has self-loops: homomorphisms are "
                                        "counted here between simple undirected graphs")
    g = _igraph(G)
    n = g.vcount()
    total, node, pair = 0, np.zeros(n, dtype=np.int64), np.zeros(n * n, dtype=np.int64)
    for q, (r0, r1) in _quotients(F, roots) if quotients is None else quotients:
        if q.vcount() > n:
            continue
        maps = np.asarray(g.get_subisomorphisms_lad(q, induced=False), dtype=np.int64).reshape(-1, q.vcount())
        total += len(maps)
        node += np.bincount(maps[:, r0], minlength=n)
        pair += np.bincount(maps[:, r0] * n + maps[:, r1], minlength=n * n)
    edges = sorted((min(u, v), max(u, v)) for u, v in g.get_edgelist())
    return total, node, np.array([pair[u * n + v] for u, v in edges], dtype=np.int64)


def _subgraph_pairs(name: str, indices: Sequence[int]):
    """``(stored, brute force)`` per graph of ``indices`` for a shipped subgraph task."""
    from . import data

    graphs = data.load_graphs()
    F = parse_task(name).pattern
    aut = len(_igraph(F).get_subisomorphisms_lad(_igraph(F), induced=False))
    stored = {level: data.targets(name, level, indices) for level in LEVELS}
    for k, i in enumerate(indices):
        yield tuple(stored[level][k] for level in LEVELS), lad_counts(F, graphs[i], aut)


def _hom_pairs(name: str, indices: Sequence[int]):
    """``(computed targets, brute force)`` per graph of ``indices`` for a homomorphism task."""
    from . import data

    graphs = data.load_graphs()
    task = parse_task(name)
    quotients = _quotients(task.pattern, (0, 1))
    for i in indices:
        yield data.exact_targets(task, graphs[i]), hom_lad_counts(task.pattern, graphs[i], (0, 1), quotients)


def _check_chunk(args: tuple[Sequence[str], Sequence[int]]) -> tuple[int, list[str]]:
    """Worker: compare every target of ``tasks`` on graphs ``indices``; ``(items checked, mismatches)``."""
    tasks, indices = args
    items, bad = 0, []
    for name in tasks:
        pairs = _hom_pairs if name in HOM_TASKS else _subgraph_pairs
        for i, (stored, brute) in zip(indices, pairs(name, indices)):
            for level, got, want in zip(LEVELS, stored, brute):
                got = np.asarray(got)
                items += int(np.size(want))
                if got.shape != np.shape(want) or not np.array_equal(got, want):
                    bad.append(f"task {name}, graph {i}, level {level}")
    return items, bad


def _usable_cores() -> int:
    """The CPU cores this process may run on (its affinity mask where the OS has one)."""
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def verify_all(tasks: Iterable[str] = VERIFIED_TASKS, indices: Iterable[int] | None = None,
               jobs: int = 1) -> dict:
    """Compare every target of ``tasks`` (every level) on ``indices`` (default: every graph) with
    the brute force (:func:`lad_counts` for the shipped subgraph tasks, :func:`hom_lad_counts` for
    the homomorphism tasks), over ``jobs`` processes (at most the usable
    cores); raise :class:`DataIntegrityError` naming the first mismatches, else return what was checked."""
    from . import data

    tasks = [parse_task(t).name for t in tasks]
    unknown = [t for t in tasks if t not in VERIFIED_TASKS]
    if unknown or not tasks:
        raise WLToolsError(f"only the shipped subgraph tasks ({', '.join(STANDARD_TASKS)}) and the homomorphism "
                           f"tasks ({', '.join(HOM_TASKS)}) have targets to verify; got {', '.join(unknown) or 'none'}")
    if jobs < 1:
        raise WLToolsError(f"jobs must be >= 1, got {jobs}")
    jobs = min(jobs, _usable_cores())  # more processes than cores only add start-up and memory
    n = len(data.load_graphs())
    indices = list(range(n) if indices is None else indices)
    if any(not 0 <= i < n for i in indices):
        raise WLToolsError(f"graph indices must lie in 0..{n - 1}")
    t0 = time.time()
    chunks = [(tasks, indices[k::jobs * 4]) for k in range(jobs * 4) if indices[k::jobs * 4]]
    if jobs == 1:
        results = [_check_chunk(c) for c in chunks]
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(_check_chunk, chunks)
    bad = sorted(b for _, found in results for b in found)
    if bad:
        raise DataIntegrityError(f"{len(bad)} target(s) differ from the brute-force count, e.g. "
                                 + "; ".join(bad[:3]))
    return {"jobs": jobs, "tasks": len(tasks), "hom_tasks": sum(t in HOM_TASKS for t in tasks), "levels": len(LEVELS),
            "graphs": len(indices), "items": sum(i for i, _ in results), "mismatches": 0,
            "wall_s": round(time.time() - t0, 1)}
