"""The dense path of the isomorphism invariants (graphs of at most DENSE_MAX_NODES nodes, no scipy)
gives the same integers as the sparse path, on random and structured graphs (issue 34 item 8)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

import wltools.iso.invariants as inv


def _graphs():
    rng = random.Random(34)
    out = [nx.empty_graph(0), nx.empty_graph(3), nx.petersen_graph(), nx.complete_graph(7),
           nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), nx.random_regular_graph(3, 20, seed=1)]
    for _ in range(20):
        n = rng.randint(1, 40)
        G = nx.gnp_random_graph(n, rng.random() * 0.5, seed=rng.randrange(10**6))
        out.append(nx.relabel_nodes(G, {v: f"v{(v * 7) % n}-{v}" for v in G}))  # nodes not 0..n-1
    return out


@pytest.mark.parametrize("max_work", [inv.MAX_WORK, 30])  # 30: some invariants skipped, alike on both paths
def test_dense_and_sparse_invariants_agree(monkeypatch, max_work):
    graphs = _graphs()
    dense = [inv.invariants(G, max_work) for G in graphs]
    monkeypatch.setattr(inv, "DENSE_MAX_NODES", -1)  # every graph through scipy.sparse
    sparse = [inv.invariants(G, max_work) for G in graphs]
    assert dense == sparse
    assert any(d["closed walks per node"] is None for d in dense) == (max_work == 30)


def test_dense_first_difference_matches_sparse(monkeypatch):
    graphs = _graphs()
    pairs = list(zip(graphs, graphs[1:] + graphs[:1]))
    dense = [inv.first_difference(G, H) for G, H in pairs]
    monkeypatch.setattr(inv, "DENSE_MAX_NODES", -1)
    assert dense == [inv.first_difference(G, H) for G, H in pairs]
