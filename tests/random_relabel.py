"""A random relabelling with the edges inserted in random order: the input a careless user (or a
file) may give for an isomorphic copy, shared by the isomorphism tests."""

from __future__ import annotations

import random

import networkx as nx


def random_relabel(G: nx.Graph, rng: random.Random, labels=None) -> nx.Graph:
    """A uniformly random relabelling of G onto ``labels`` (default 0..n-1), nodes and edges
    inserted in random order."""
    nodes = list(G)
    targets = list(labels) if labels is not None else list(range(len(nodes)))
    rng.shuffle(targets)
    mapping = dict(zip(nodes, targets))
    edges = [(mapping[u], mapping[v]) for u, v in G.edges()]
    rng.shuffle(edges)
    H = nx.Graph()
    H.add_nodes_from(rng.sample(targets, len(targets)))
    H.add_edges_from(edges)
    return H
