"""CSL: circular skip link graphs (Murphy, Srinivasan, Rao & Ribeiro, "Relational Pooling for Graph
Representations", ICML 2019), generated.

``C(41, s)``: nodes ``0..40``, edges ``{i, i+1 mod 41}`` and ``{i, i+s mod 41}``; 41 nodes, 82
edges, 4-regular, so 1-WL separates none of them. The skip lengths
``S = (2, 3, 4, 5, 6, 9, 11, 12, 13, 16)`` give the ten classes (class ``k`` has skip ``S[k]``):
``C(41, s)`` for ``s = 2..39`` falls into exactly ten isomorphism classes and ``S`` holds the
smallest skip of each (checked in the tests). The original data (``PurdueMINDS/RelationalPooling``,
loaded by PyG's ``GNNBenchmarkDataset("CSL")``) has 15 graphs per class: ``C(41, S[k])`` itself
followed by 14 randomly relabelled copies. Here the copies are drawn from ``numpy`` generators
seeded by ``(seed, k)``; the original permutations are not reproduced.

Pairs: one graph per class (``C(41, S[k])`` as generated), all 45 pairs of classes.
"""

from __future__ import annotations

import numpy as np
import networkx as nx

from ..graphs import permute_graph
from .base import SuiteData

__all__ = ["SKIPS", "NODES", "COPIES", "circulant_skip", "csl_graphs", "build"]

#: Skip length of each class, class k <-> SKIPS[k].
SKIPS = (2, 3, 4, 5, 6, 9, 11, 12, 13, 16)
#: Nodes per graph.
NODES = 41
#: Graphs per class in the dataset (the first as generated, the rest relabelled copies).
COPIES = 15


def circulant_skip(n: int, s: int) -> nx.Graph:
    """``C(n, s)``: the cycle ``0..n-1`` plus the chords ``{i, i + s mod n}``.

    Examples
    --------
    >>> G = circulant_skip(41, 2)
    >>> G.number_of_nodes(), G.number_of_edges(), {d for _, d in G.degree()}
    (41, 82, {4})
    """
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((i, (i + 1) % n) for i in range(n))
    G.add_edges_from((i, (i + s) % n) for i in range(n))
    return G


def csl_graphs(seed: int = 0, copies: int = COPIES) -> list[tuple[nx.Graph, int]]:
    """The CSL dataset: ``(graph, class)`` for ``copies`` graphs per class, class by class.

    Graph ``copies * k`` is ``C(41, SKIPS[k])``; the others of class ``k`` are uniformly random
    relabellings drawn from ``numpy.random.default_rng(SeedSequence([seed, k]))``.

    Examples
    --------
    >>> data = csl_graphs()
    >>> len(data), [y for _, y in data[14:16]]
    (150, [0, 1])
    """
    out = []
    for k, s in enumerate(SKIPS):
        base = circulant_skip(NODES, s)
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), k]))
        out.append((base, k))
        for _ in range(copies - 1):
            out.append((permute_graph(base, rng.permutation(NODES)), k))
    return out


def build(seed: int = 0) -> SuiteData:
    """The suite: all 150 graphs, pairs between the first graphs of the classes, the 15 graphs of
    each class as copies."""
    data = csl_graphs(seed)
    graphs = [g for g, _ in data]
    sources = [f"C(41, {SKIPS[y]}) " + ("as generated" if i % COPIES == 0 else f"copy {i % COPIES} (seed {seed})")
               for i, (_, y) in enumerate(data)]
    pairs = []
    for a in range(len(SKIPS)):
        for b in range(a + 1, len(SKIPS)):
            pairs.append((COPIES * a, COPIES * b, "csl",
                          {"skips": [SKIPS[a], SKIPS[b]], "classes": [a, b]}))
    copies = [list(range(COPIES * k, COPIES * (k + 1))) for k in range(len(SKIPS))]
    return SuiteData(graphs, pairs, copies, sources)
