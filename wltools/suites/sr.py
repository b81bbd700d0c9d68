"""Strongly regular families (files of ``twitter-research/cwn``, MIT, from Brendan McKay's
collection of strongly regular graphs): every graph of a family is strongly regular with the same
parameters ``(n, k, lambda, mu)``, so 1-WL and 3-WL (2-FWL) separate no two of them.

Pairs: all pairs ``(i, j)``, ``i < j``, of a family (SR25: 15 graphs, 105 pairs, as
``balcilar/gnn-matlang``'s ``sr25.py`` counts them). Families offered here are those whose pair
count stays below a thousand; ``sr351668`` (3,854 graphs, 7.4 million pairs), ``sr351899``
(227 graphs, 25,651 pairs) and ``sr361446`` (180 graphs, 16,110 pairs) are not.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..errors import DataIntegrityError
from .base import SuiteData, all_pairs, read_graph6_file

__all__ = ["FAMILIES", "srg_parameters", "build_family", "check_family"]

#: Suite name -> (file, (n, k, lambda, mu)).
FAMILIES: dict[str, tuple[str, tuple[int, int, int, int]]] = {
    "sr16": ("sr/sr16622.g6", (16, 6, 2, 2)),
    "sr25": ("sr/sr251256.g6", (25, 12, 5, 6)),
    "sr26": ("sr/sr261034.g6", (26, 10, 3, 4)),
    "sr28": ("sr/sr281264.g6", (28, 12, 6, 4)),
    "sr29": ("sr/sr291467.g6", (29, 14, 6, 7)),
    "sr40": ("sr/sr401224.g6", (40, 12, 2, 4)),
}


def srg_parameters(G: nx.Graph) -> tuple[int, int, int, int] | None:
    """``(n, k, lambda, mu)`` if ``G`` is strongly regular (``A^2 = k I + lambda A + mu (J - I - A)``),
    else ``None``.

    Examples
    --------
    >>> import networkx as nx
    >>> srg_parameters(nx.petersen_graph()), srg_parameters(nx.path_graph(3))
    ((10, 3, 0, 1), None)
    """
    n = G.number_of_nodes()
    A = nx.to_numpy_array(G, nodelist=range(n), dtype=np.int64)
    deg = A.sum(axis=1)
    if n < 2 or deg.min() != deg.max():
        return None
    k = int(deg[0])
    A2 = A @ A
    off = ~np.eye(n, dtype=bool)
    adj, non = (A == 1) & off, (A == 0) & off
    lam = set(A2[adj].tolist()) or {0}
    mu = set(A2[non].tolist()) or {0}
    if len(lam) != 1 or len(mu) != 1:
        return None
    return (n, k, lam.pop(), mu.pop())


def build_family(name: str) -> SuiteData:
    """All graphs of family ``name`` and all their pairs."""
    rel, _ = FAMILIES[name]
    graphs = read_graph6_file(rel)
    sources = [f"{rel} line {i}" for i in range(len(graphs))]
    return SuiteData(graphs, all_pairs(len(graphs), name), [], sources)


def check_family(name: str, data: SuiteData) -> list[str]:
    """Every graph strongly regular with the family's parameters (raises DataIntegrityError)."""
    rel, params = FAMILIES[name]
    for i, G in enumerate(data.graphs):
        got = srg_parameters(G)
        if got != params:
            raise DataIntegrityError(f"{rel} line {i}: srg parameters {got}, expected {params}")
    return [f"all {len(data.graphs)} graphs strongly regular with parameters {params}"]
