"""Tests of wltools.models.embedder: the base class's parameter count and default prepare_batch."""

import networkx as nx
import torch
from torch import nn

from wltools.models.embedder import GraphEmbedder


class _Tiny(GraphEmbedder):
    invariant_encodings = True

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(3, 2)  # 8 trainable
        self.frozen = nn.Linear(2, 2).requires_grad_(False)  # 6 frozen

    def forward(self, batch):
        return self.frozen(self.lin(batch.x))


def test_num_parameters_counts_trainable_only():
    assert _Tiny().num_parameters() == 8


def test_default_prepare_batch_returns_the_batch_unchanged(helpers):
    b = helpers.batch("sgformer", [nx.cycle_graph(4)])
    keys = set(b.keys())
    before = {k: b[k].clone() for k in keys if torch.is_tensor(b[k])}
    assert _Tiny().prepare_batch(b) is b
    assert set(b.keys()) == keys and all(torch.equal(b[k], v) for k, v in before.items())
