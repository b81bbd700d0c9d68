"""The slow exact reference of the counting tests: networkx's subgraph monomorphisms."""

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.isomorphism import GraphMatcher


def brute_force(F: nx.Graph, G: nx.Graph):
    """Counts from networkx's monomorphisms: copies, copies through each node and through each edge."""
    aut = sum(1 for _ in GraphMatcher(F, F).isomorphisms_iter())
    nodes = list(G.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    node = np.zeros(len(nodes), dtype=np.int64)
    edge = {}
    total = 0
    for m in GraphMatcher(G, F).subgraph_monomorphisms_iter():  # G-node -> F-node
        inv = {f: g for g, f in m.items()}
        total += 1
        for g in m:
            node[index[g]] += 1
        for a, b in F.edges:
            key = tuple(sorted((index[inv[a]], index[inv[b]])))
            edge[key] = edge.get(key, 0) + 1
    edges = sorted(tuple(sorted((index[a], index[b]))) for a, b in G.edges)
    return total // aut, node // aut, np.array([edge.get(e, 0) for e in edges], dtype=np.int64) // aut


@pytest.fixture(scope="session")
def brute():
    """:func:`brute_force` for the test modules (pytest imports them by path, not by name)."""
    return brute_force
