"""GD-WL: generalised distance Weisfeiler-Leman (Zhang et al. 2023), PPGT App. E Eq. (13), GRIT
Eq. (4):

.. math::  \\chi^\\ell(v) = \\mathrm{hash}(\\{\\{(d(v, u), \\chi^{\\ell-1}(u)) : u \\in V\\}\\})

over any distance of :mod:`wltools.distances` or a tuple of them (then ``d`` is the tuple). The old
colour is also kept in the key; this changes nothing, as ``(d(v, v), chi(v))`` is in the multiset
and ``d(v, v)`` is distinct from ``d(v, u)``, ``u != v``, for SPD, RD and RRWP.

Fast path: distances as exact shared integer keys (:func:`wltools.distances.distance_keys`); rows
``[chi(v), sorted(key(v, u) * k + chi(u) for u in V)]`` renumbered by the shared engine.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Sequence

import networkx as nx
import numpy as np

from ..distances import INF, distance_keys, resistance_exact, rrwp_exact, spd_matrix
from .engine import RefinementResult, multiset_rows, multiset_text, run_reference, run_refinement

__all__ = ["refine_gdwl", "refine_gdwl_reference", "joint_keys"]

_NAMES = {"spd": "SPD", "rd": "RD", "rrwp": "RRWP"}


def joint_keys(G, H, distances: Sequence[str], rrwp_steps: int | None = None):
    """Shared integer keys ``[n, n]`` of G and H for a tuple of distances (equal iff equal tuples).

    Examples
    --------
    >>> import networkx as nx
    >>> kg, kh = joint_keys(nx.path_graph(3), nx.star_graph(2), ["spd"])
    >>> kg.tolist(), kh.tolist()
    ([[0, 1, 2], [1, 0, 1], [2, 1, 0]], [[0, 1, 1], [1, 0, 2], [1, 2, 0]])
    >>> kg, _ = joint_keys(nx.path_graph(3), nx.star_graph(2), ["spd", "rd"])  # on trees RD = SPD
    >>> kg.tolist()
    [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    """
    per = [distance_keys([G, H], d, rrwp_steps=rrwp_steps) for d in distances]
    if len(per) == 1:
        return per[0][0], per[0][1]
    n2g = per[0][0].size
    cols = np.stack([np.concatenate([p[0].reshape(-1), p[1].reshape(-1)]) for p in per], axis=1)
    inv = np.unique(cols, axis=0, return_inverse=True)[1].reshape(-1)
    return inv[:n2g].reshape(per[0][0].shape), inv[n2g:].reshape(per[0][1].shape)


def _label_fn(G, H, distances, Dg, Dh, rrwp_steps):
    """Readable label of a distance key: the exact value at a representative pair."""
    cache: dict = {}
    exact: dict = {}

    def value(g, d):
        if (g, d) not in exact:
            graph = (G, H)[g]
            if d == "spd":
                exact[g, d] = spd_matrix(graph)
            elif d == "rd":
                exact[g, d] = resistance_exact(graph)
        return exact[g, d]

    def rrwp_row(g, i, K):
        """Row i of [I, M, ..., M^(K-1)] exactly (Fractions), by propagating e_i."""
        if (g, i) not in exact:
            graph = (G, H)[g]
            r = {i: Fraction(1)}
            rows = [r]
            for _ in range(K - 1):
                nxt: dict = {}
                for u, x in r.items():
                    deg = graph.degree(u)
                    for w in graph[u]:
                        nxt[w] = nxt.get(w, 0) + x / deg
                r = nxt
                rows.append(r)
            exact[g, i] = rows
        return exact[g, i]

    flat = np.concatenate([Dg.reshape(-1), Dh.reshape(-1)])
    n2g = Dg.size

    def label(key: int) -> str:
        if key in cache:
            return cache[key]
        idx = int(np.flatnonzero(flat == key)[0])
        g, rest = (0, idx) if idx < n2g else (1, idx - n2g)
        n = (Dg if g == 0 else Dh).shape[0]
        i, j = divmod(rest, n)
        parts = []
        for d in distances:
            if d == "spd":
                v = int(value(g, d)[i, j])
                parts.append("inf" if v < 0 else str(v))
            elif d == "rd":
                v = value(g, d)[i][j]
                parts.append("inf" if v is INF else str(v))
            else:
                K = rrwp_steps if rrwp_steps is not None else max(len(G), len(H))
                vals = tuple(row.get(j, 0) for row in rrwp_row(g, i, min(K, 4)))
                parts.append("(" + ", ".join(str(x) for x in vals) + (f", ... #{key})" if K > 4 else ")"))
        cache[key] = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
        return cache[key]

    return label


def refine_gdwl(
    G: nx.Graph, H: nx.Graph, distances: Sequence[str], *, rrwp_steps: int | None = None, test: str | None = None
) -> RefinementResult:
    """GD-WL on a pair with one shared colour table (fast exact path).

    Parameters
    ----------
    G, H : nx.Graph
        Simple undirected graphs on nodes ``0..n-1``, of equal order.
    distances : sequence of {"spd", "rd", "rrwp"}
        One distance, or several (then ``d(v, u)`` is the tuple of them).
    rrwp_steps : int, optional
        ``K`` of RRWP; default ``max(n_G, n_H)``.
    test : str, optional
        Name written into the result (default ``"gdwl"``).

    Examples
    --------
    >>> import networkx as nx
    >>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> r = refine_gdwl(nx.cycle_graph(6), two_triangles, ["spd", "rd"])
    >>> r.test, r.iteration
    ('gdwl', 1)
    >>> r.witness.split("; ")[1]
    'nodes whose SPD/RD multiset is {(0, 0):1, (1, 2/3):2, (inf, inf):3}: 0 in G, 6 in H'
    """
    distances = tuple(distances)
    Dg, Dh = joint_keys(G, H, distances, rrwp_steps)
    Dg, Dh = Dg.astype(np.int64), Dh.astype(np.int64)
    name = "/".join(_NAMES.get(d, d) for d in distances)
    label = _label_fn(G, H, distances, Dg, Dh, rrwp_steps)

    def step(cg, ch, k):
        return tuple(multiset_rows(c, D * k + c[None, :]) for D, c in ((Dg, cg), (Dh, ch)))

    def describe(t, c, row, kp):
        if row is None:
            return "all nodes (initial colour)"
        if kp == 1:
            items = Counter(int(x) // kp for x in row[1:])
            return f"nodes whose {name} multiset is " + multiset_text(items, label)
        items = Counter((int(x) // kp, int(x) % kp) for x in row[1:])
        return f"nodes of colour {int(row[0])} (round {t - 1}) whose ({name}, colour) multiset is " + multiset_text(
            items, lambda dc: f"({label(dc[0])}, {dc[1]})"
        )

    n = Dg.shape[0]
    zeros = np.zeros(n, dtype=np.int64)
    return run_refinement(test or "gdwl", zeros, zeros.copy(), step, describe)


def _exact_matrix(G, d, rrwp_steps, n_max):
    if d == "spd":
        D = spd_matrix(G)
        return [[int(x) for x in row] for row in D]
    if d == "rd":
        return resistance_exact(G)
    K = rrwp_steps if rrwp_steps is not None else n_max
    return rrwp_exact(G, max(1, K))


def refine_gdwl_reference(
    G: nx.Graph, H: nx.Graph, distances: Sequence[str], *, rrwp_steps: int | None = None, test: str | None = None
) -> RefinementResult:
    """Straightforward GD-WL over exact values (ints, Fractions, :data:`INF`, tuples of
    Fractions) with dicts of sorted tuples: the exact reference for tests.

    Examples
    --------
    >>> import networkx as nx
    >>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> r = refine_gdwl_reference(nx.cycle_graph(6), two_triangles, ["rd"], test="rd")
    >>> r.distinguished, r.iteration, r.witness
    (True, 1, 'reference: histograms differ at iteration 1')
    """
    n_max = max(len(G), len(H))
    mats = [[_exact_matrix(X, d, rrwp_steps, n_max) for d in distances] for X in (G, H)]
    nodes = [list(range(len(G))), list(range(len(H)))]

    def dist(g, v, u):
        return tuple(m[v][u] for m in mats[g])

    def sig(g, v, cols):
        c = cols[g]
        return (c[v], tuple(sorted(((dist(g, v, u), c[u]) for u in nodes[g]), key=repr)))

    return run_reference(test or "gdwl", nodes[0], nodes[1], lambda g, v: 0, sig)
