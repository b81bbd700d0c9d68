"""sgformer-1wl: equal outputs on 1-WL-indistinguishable pairs; FAILs for a model that counts
triangles (beyond 1-WL)."""

import networkx as nx
import pytest
import torch
from torch import nn
from torch_geometric.utils import to_dense_adj

from wltools.claims.sgformer import check_sgformer_1wl, registered_model_factory


def _refine():
    try:
        from wltools.refine import refine_pair
    except ImportError:
        pytest.skip("wltools.refine not available yet")
    return refine_pair


class _TriangleLeak(nn.Module):
    """SGFormer plus the graph's triangle count: a feature 1-WL cannot compute."""

    def __init__(self, base):
        super().__init__()
        self.base = base

    def forward(self, batch):
        out = self.base(batch)
        tri = []
        for i in range(batch.num_graphs):
            A = to_dense_adj(batch[i].edge_index, max_num_nodes=batch[i].num_nodes)[0].double()
            tri.append(torch.trace(A @ A @ A) / 6)
        return out + torch.stack(tri)[:, None]


def _pairs():
    from brec_runner.dataset import load_pairs

    return [(f"BREC {p.id}", p.g, p.h) for p in load_pairs(ids="0-11")]


def test_sgformer_bounded_by_1wl_passes():
    r = check_sgformer_1wl(pairs=_pairs(), seeds=(0,), refine=_refine())
    assert r.status == "PASS", r.summary
    assert r.evidence["pairs checked"] == 12


def test_triangle_leak_fails_with_witness():
    base = registered_model_factory()

    def factory(seed):
        model, transform = base(seed)
        return _TriangleLeak(model).double().eval(), transform

    # C6 vs 2 x C3: 1-WL-indistinguishable, different triangle counts
    pairs = [("C6 vs 2C3", nx.cycle_graph(6),
              nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))]
    r = check_sgformer_1wl(model_factory=factory, pairs=pairs, seeds=(0,), refine=_refine())
    assert r.status == "FAIL" and "C6 vs 2C3" in r.witness


def test_pairs_that_1wl_distinguishes_are_skipped_not_compared():
    pairs = [("P4 vs K13", nx.path_graph(4), nx.star_graph(3))]
    r = check_sgformer_1wl(pairs=pairs, seeds=(0,), refine=_refine())
    assert r.evidence["pairs checked"] == 0
    assert r.evidence["pairs skipped (1-WL distinguishes them)"] == ["P4 vs K13"]
