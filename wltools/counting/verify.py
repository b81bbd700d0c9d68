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
"""

from __future__ import annotations

import time
from typing import Iterable, Sequence

import networkx as nx
import numpy as np

from wltools.errors import DataIntegrityError, WLToolsError

from .tasks import LEVELS, STANDARD_TASKS, parse_task

__all__ = ["lad_counts", "verify_all"]


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


def _check_chunk(args: tuple[Sequence[str], Sequence[int]]) -> tuple[int, list[str]]:
    """Worker: compare every target of ``tasks`` on graphs ``indices``; ``(items checked, mismatches)``."""
    from . import data

    tasks, indices = args
    graphs = data.load_graphs()
    items, bad = 0, []
    for name in tasks:
        F = parse_task(name).pattern
        aut = len(_igraph(F).get_subisomorphisms_lad(_igraph(F), induced=False))
        stored = {level: data.targets(name, level, indices) for level in LEVELS}
        for k, i in enumerate(indices):
            for level, want in zip(LEVELS, lad_counts(F, graphs[i], aut)):
                got = np.asarray(stored[level][k])
                items += int(np.size(want))
                if got.shape != np.shape(want) or not np.array_equal(got, want):
                    bad.append(f"task {name}, graph {i}, level {level}")
    return items, bad


def verify_all(tasks: Iterable[str] = STANDARD_TASKS, indices: Iterable[int] | None = None,
               jobs: int = 1) -> dict:
    """Compare every shipped target of ``tasks`` (every level) on ``indices`` (default: every graph)
    with :func:`lad_counts`, over ``jobs`` processes; raise :class:`DataIntegrityError` naming the
    first mismatches, else return what was checked."""
    from . import data

    tasks = [parse_task(t).name for t in tasks]
    unknown = [t for t in tasks if t not in STANDARD_TASKS]
    if unknown or not tasks:
        raise WLToolsError(f"only the shipped subgraph tasks have stored targets ({', '.join(STANDARD_TASKS)}); "
                           f"got {', '.join(unknown) or 'none'}")
    if jobs < 1:
        raise WLToolsError(f"jobs must be >= 1, got {jobs}")
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
        raise DataIntegrityError(f"{len(bad)} shipped target(s) differ from the brute-force count, e.g. "
                                 + "; ".join(bad[:3]))
    return {"tasks": len(tasks), "levels": len(LEVELS), "graphs": len(indices),
            "items": sum(i for i, _ in results), "mismatches": 0, "wall_s": round(time.time() - t0, 1)}
