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
from .engine import RefinementResult, multiset_rows, multiset_text, run_reference, run_refinement

__all__ = ["refine_wl1", "refine_wl1_reference"]


def refine_wl1(G: nx.Graph, H: nx.Graph) -> RefinementResult:
    """1-WL on a pair of graphs of equal order with one shared colour table.

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_wl1(nx.path_graph(4), nx.star_graph(3))
    >>> r.iteration, r.class_sizes
    (1, ((2, 2), (3, 1)))
    >>> r.witness.split("; ")[0]
    'iteration 1: nodes of degree 2: 2 in G, 0 in H'
    """
    Ag, Ah = adjacency_matrix(G), adjacency_matrix(H)
    n = Ag.shape[0]

    def step(cg, ch, k):
        big = np.int64(k)  # sentinel: larger than every colour, sorts last
        return tuple(multiset_rows(c, np.where(A > 0, c[None, :], big)) for A, c in ((Ag, cg), (Ah, ch)))

    def describe(t, c, row, kp):
        if row is None:
            return "all nodes (initial colour)"
        items = Counter(int(x) for x in row[1:] if x < kp)
        if kp == 1:
            return f"nodes of degree {sum(items.values())}"
        return f"nodes of colour {int(row[0])} (round {t - 1}) whose neighbour colours are " + multiset_text(
            items, str
        )

    zeros = np.zeros(n, dtype=np.int64)
    return run_refinement("1wl", zeros, zeros.copy(), step, describe)


def refine_wl1_reference(G: nx.Graph, H: nx.Graph) -> RefinementResult:
    """Straightforward 1-WL (dicts of sorted tuples), the exact reference for tests.

    Examples
    --------
    >>> import networkx as nx
    >>> ref = refine_wl1_reference(nx.path_graph(4), nx.star_graph(3))
    >>> fast = refine_wl1(nx.path_graph(4), nx.star_graph(3))
    >>> (ref.iteration, ref.iterations, ref.class_sizes) == (fast.iteration, fast.iterations, fast.class_sizes)
    True
    >>> ref.witness
    'reference: histograms differ at iteration 1'
    """
    graphs = (G, H)

    def sig(g, v, cols):
        c = cols[g]
        return (c[v], tuple(sorted(c[u] for u in graphs[g][v])))

    return run_reference("1wl", list(G.nodes), list(H.nodes), lambda g, v: 0, sig)
