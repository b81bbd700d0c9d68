"""Tri-WL: 1-WL started from each node's triangle count, a WL test from outside wltools."""

import networkx as nx
import numpy as np

from wltools.refine.kernel import Declaration, stacked_ids
from wltools.wltests import WLTest


def declaration(G, H, *, labels=None):
    """Colours nodes; round 0: triangles through the node; then 1-WL over the neighbours."""
    n = G.number_of_nodes()  # nodes 0..n-1 in both graphs; H's node v is row n + v
    init = tuple(np.array([nx.triangles(X, v) for v in range(n)], dtype=np.int64) for X in (G, H))
    neighbours = [[g * n + u for u in X[v]] for g, X in enumerate((G, H)) for v in range(n)]
    width = max([len(nb) for nb in neighbours] + [1])

    def aggregate(cg, ch, k):
        colours = np.concatenate([cg, ch])
        rows = np.full((2 * n, 1 + width), -1, dtype=np.int64)
        rows[:, 0] = colours
        for i, nb in enumerate(neighbours):
            rows[i, 1:1 + len(nb)] = np.sort(colours[nb])  # a multiset: sorted
        return stacked_ids(rows)

    def describe(t, c, row, k):
        if row is None:
            return f"nodes of initial colour {c} (by triangle count)"
        return f"nodes of colour {row[0]} whose neighbour colours are {sorted(row[1:][row[1:] >= 0].tolist())}"

    return Declaration("triwl", init, aggregate, describe)


def peak_bytes(n, m, *, max_degree=None, **_):
    """Rows of both graphs (three int64 copies), neighbour lists and Python overhead."""
    d = max_degree if max_degree is not None else max(6, 2 * m // max(n, 1))
    return 256 * 1024 + 2 * n * (d + 2) * 8 * 3 + 200 * (n + 2 * m)


def classes(graphs):
    """An independent slow reference for check_test: the same refinement over dicts."""
    from wltools.testing.references import refine_shared

    return refine_shared(graphs, lambda G: G.nodes, lambda G, v: nx.triangles(G, v),
                         lambda G, v, c: [c[u] for u in G[v]])


TEST = WLTest(
    "triwl", "Tri-WL", "nodes", "example: 1-WL from triangle counts (docs/adding-a-test.md)",
    declaration=declaration, labels="none", label_note="it counts triangles of unlabelled graphs",
    peak_bytes=peak_bytes, draw=("node", "its colour", False), collection="pairwise",
    no_hom_family="no published characterisation", classes=classes)
