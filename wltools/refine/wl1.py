"""1-WL colour refinement (Weisfeiler & Leman 1968; the colour refinement update
``chi(v) <- hash(chi(v), {{chi(u) : u in N(v)}})`` as recalled in PPGT App. E).

Fast path: rows ``[chi(v), sorted(chi(u) for u in N(v)) padded with a sentinel]`` over both graphs
(same order, or the pair is already distinguished by order), renumbered by the shared engine.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import numpy as np

from ..distances import adjacency_matrix
from .engine import RefinementResult, multiset_text, run_reference, run_refinement

__all__ = ["refine_wl1", "refine_wl1_reference"]


def refine_wl1(G: nx.Graph, H: nx.Graph) -> RefinementResult:
    """1-WL on a pair of graphs of equal order with one shared colour table."""
    Ag, Ah = adjacency_matrix(G), adjacency_matrix(H)
    n = Ag.shape[0]
    base = {}

    def step(cg, ch, k):
        base["k"] = k
        big = np.int64(k)  # sentinel: larger than every colour, sorts last
        rows = []
        for A, c in ((Ag, cg), (Ah, ch)):
            items = np.where(A > 0, c[None, :], big)
            items.sort(axis=1)
            rows.append(np.concatenate([c[:, None], items], axis=1))
        return rows[0], rows[1]

    def describe(t, c, rows, cg, ch, k):
        if rows is None:
            return "all nodes (initial colour)"
        idx = int(np.flatnonzero(np.concatenate([cg, ch]) == c)[0])
        row = rows[idx]
        kp = base["k"]
        items = Counter(int(x) for x in row[1:] if x < kp)
        if kp == 1:
            return f"nodes of degree {sum(items.values())}"
        return f"nodes of colour {int(row[0])} (round {t - 1}) whose neighbour colours are " + multiset_text(
            items, str
        )

    zeros = np.zeros(n, dtype=np.int64)
    return run_refinement("1wl", zeros, zeros.copy(), step, describe)


def refine_wl1_reference(G: nx.Graph, H: nx.Graph) -> RefinementResult:
    """Straightforward 1-WL (dicts of sorted tuples), the exact reference for tests."""
    graphs = (G, H)

    def sig(g, v, cols):
        c = cols[g]
        return (c[v], tuple(sorted(c[u] for u in graphs[g][v])))

    return run_reference("1wl", list(G.nodes), list(H.nodes), lambda g, v: 0, sig)
