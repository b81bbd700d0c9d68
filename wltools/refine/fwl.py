"""3-WL as the 2-dimensional folklore WL test (2-FWL; Cai, Fuerer & Immerman 1992; recalled in
PPGT App. E): colours of ordered pairs,

.. math::  \\chi^\\ell(u, v) = \\mathrm{hash}(\\chi^{\\ell-1}(u, v),
           \\{\\{(\\chi^{\\ell-1}(u, w), \\chi^{\\ell-1}(w, v)) : w \\in V\\}\\}),

initial colour = isomorphism type of the ordered pair (``u == v``, adjacent, non-adjacent).

Fast path: colour matrix ``C [n, n]``; items ``C[u, w] * k + C[w, v]`` sorted along ``w``, prefixed by
``C[u, v]``; all ``n^2`` rows of both graphs renumbered by the shared engine.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import numpy as np

from ..distances import adjacency_matrix
from .engine import RefinementResult, multiset_rows, multiset_text, run_reference, run_refinement

__all__ = ["refine_fwl2", "refine_fwl2_reference", "atomic_types"]

_ATOMIC = {0: "u = v", 1: "adjacent", 2: "non-adjacent"}


def atomic_types(A: np.ndarray) -> np.ndarray:
    """Initial 2-FWL colours: 0 on the diagonal, 1 for edges, 2 for non-edges.

    Examples
    --------
    >>> import numpy as np
    >>> atomic_types(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]])).tolist()
    [[0, 1, 2], [1, 0, 2], [2, 2, 0]]
    """
    C = np.where(A > 0, 1, 2).astype(np.int64)
    np.fill_diagonal(C, 0)
    return C


def refine_fwl2(G: nx.Graph, H: nx.Graph) -> RefinementResult:
    """2-FWL (= 3-WL) on a pair with one shared colour table (fast exact path).

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_fwl2(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
    >>> r.distinguished, r.iteration, r.class_sizes
    (True, 1, ((12, 12, 6, 6), (18, 12, 6)))
    """
    Cg, Ch = atomic_types(adjacency_matrix(G)), atomic_types(adjacency_matrix(H))
    n = Cg.shape[0]

    def step(cg, ch, k):
        # items[u, v, w] = C[u, w] * k + C[w, v]
        return tuple(
            multiset_rows(C.reshape(-1), (C[:, None, :] * k + C.T[None, :, :]).reshape(n * n, n)) for C in (cg, ch)
        )

    def describe(t, c, row, kp):
        if row is None:
            return f"ordered pairs of type {c}"
        items = Counter((int(x) // kp, int(x) % kp) for x in row[1:])
        if t == 1:
            return f"{_ATOMIC[int(row[0])]} pairs (u, v) whose (type(u,w), type(w,v)) multiset is " + multiset_text(
                items, lambda ab: f"({_ATOMIC[ab[0]]}, {_ATOMIC[ab[1]]})"
            )
        return f"pairs of colour {int(row[0])} (round {t - 1}) whose (colour(u,w), colour(w,v)) multiset is " + multiset_text(
            items, lambda ab: f"({ab[0]}, {ab[1]})"
        )

    return run_refinement("3wl", Cg, Ch, step, describe)


def refine_fwl2_reference(G: nx.Graph, H: nx.Graph) -> RefinementResult:
    """Straightforward 2-FWL (dicts of sorted tuples), the exact reference for tests.

    Examples
    --------
    >>> from wltools.graphs import named_graph
    >>> r = refine_fwl2_reference(named_graph("shrikhande"), named_graph("rook4x4"))  # srg(16, 6, 2, 2)
    >>> r.distinguished, r.iterations, r.class_sizes
    (False, 0, ((144, 96, 16), (144, 96, 16)))
    """
    graphs = (G, H)
    n = [len(G), len(H)]
    elems = [[(u, v) for u in range(m) for v in range(m)] for m in n]

    def init(g, e):
        u, v = e
        return 0 if u == v else (1 if graphs[g].has_edge(u, v) else 2)

    def sig(g, e, cols):
        c = cols[g]
        u, v = e
        return (c[e], tuple(sorted((c[(u, w)], c[(w, v)]) for w in range(n[g]))))

    return run_reference("3wl", elems[0], elems[1], init, sig)
