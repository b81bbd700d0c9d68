"""sgformer-1wl: equal outputs on 1-WL-indistinguishable pairs; FAILs for a model that counts
triangles (beyond 1-WL); no evidence (every example 1-WL-distinguishable) is an ERROR."""

import networkx as nx
import pytest
import torch
from torch import nn
from torch_geometric.utils import to_dense_adj

from wltools.claims.sgformer import check_sgformer_1wl, registered_model_factory


@pytest.fixture(scope="module")
def to_data():
    """The ``to_data`` input: BREC's featurisation."""
    from brec_runner.runs.dataset import to_pyg

    return to_pyg


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


def test_sgformer_bounded_by_1wl_passes(brec, to_data):
    examples = [(f"BREC {p.id}", p.g, p.h) for p in brec[:12]]
    r = check_sgformer_1wl(examples=examples, to_data=to_data, seeds=(0,))
    assert r.status == "PASS", r.summary
    assert r.evidence["pairs checked"] == 12


def test_default_examples_are_the_60_basic_pairs(brec, to_data):
    r = check_sgformer_1wl(pairs=brec, to_data=to_data, seeds=(0,))
    assert r.status == "PASS", r.summary
    assert r.evidence["pairs checked"] == 60  # BREC Basic: 1-WL separates none (BREC Table 2)
    with pytest.raises(ValueError, match="lacks BREC pairs 30-59"):
        check_sgformer_1wl(pairs=brec[:30], to_data=to_data, seeds=(0,))
    with pytest.raises(ValueError, match="needs `to_data`"):
        check_sgformer_1wl(pairs=brec, seeds=(0,))


def test_triangle_leak_fails_with_witness(to_data):
    base = registered_model_factory()

    def factory(seed):
        model, transform = base(seed)
        return _TriangleLeak(model).double().eval(), transform

    # C6 vs 2 x C3: 1-WL-indistinguishable, different triangle counts
    examples = [("C6 vs 2C3", nx.cycle_graph(6),
                 nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))]
    r = check_sgformer_1wl(model_factory=factory, examples=examples, to_data=to_data, seeds=(0,))
    assert r.status == "FAIL" and "C6 vs 2C3" in r.witness


def test_pairs_that_1wl_distinguishes_are_not_compared_and_are_no_evidence(to_data):
    examples = [("P4 vs K13", nx.path_graph(4), nx.star_graph(3))]
    r = check_sgformer_1wl(examples=examples, to_data=to_data, seeds=(0,))
    assert r.status == "ERROR" and "no evidence" in r.summary
    assert r.evidence["pairs checked"] == 0
    assert r.evidence["pairs skipped (1-WL distinguishes them)"] == ["P4 vs K13"]
