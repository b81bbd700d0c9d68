"""The counting loop's fast batching (brec_runner.counting.train._fast_batch) equals
``Batch.from_data_list`` field by field, falls back for graphs with other fields, and leaves
training bit-for-bit unchanged."""

import random

import networkx as nx
import pytest
import torch
from torch_geometric.data import Batch, Data

from brec_runner.counting import train as T
from brec_runner.runs.dataset import to_pyg
from examples.gin import gin


def _graphs(k: int, seed: int):
    rng = random.Random(seed)
    sizes = [1, 2] + [rng.randint(1, 12) for _ in range(k - 2)]  # a single node, an empty edge set
    return [to_pyg(nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(10 ** 6))) for n in sizes]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fast_batch_equals_from_data_list(seed):
    graphs = _graphs(25, seed)
    idx = random.Random(seed).sample(range(len(graphs)), 17)
    store = T._plain_store(graphs, range(len(graphs)))
    fast, ref = T._fast_batch(store, idx), Batch.from_data_list([graphs[i] for i in idx])
    assert isinstance(fast, Batch) and sorted(fast.keys()) == sorted(ref.keys())
    for key in ref.keys():
        a, b = fast[key], ref[key]
        assert (a.dtype == b.dtype and torch.equal(a, b)) if torch.is_tensor(b) else a == b, key
    assert fast.num_graphs == ref.num_graphs == 17 and fast.num_nodes == ref.num_nodes
    model = gin().eval()
    with torch.no_grad():
        assert torch.equal(model(fast), model(ref))


def test_other_graphs_take_the_general_path():
    graphs = _graphs(4, 3)
    assert T._plain_store(graphs, [0, 1]) is not None
    with_pe = graphs[:2] + [Data(x=graphs[2].x, edge_index=graphs[2].edge_index, pe=torch.ones(graphs[2].num_nodes, 2))]
    assert T._plain_store(with_pe, [0, 1, 2]) is None


def test_training_is_unchanged_by_the_fast_path(monkeypatch):
    graphs = _graphs(40, 4)
    ys = [torch.tensor([sum(nx.triangles(nx.Graph(g.edge_index.t().tolist())).values()) / 3.0])
          if g.edge_index.numel() else torch.zeros(1) for g in graphs]
    data = {"train": (graphs, ys, None, list(range(24))), "val": (graphs, ys, None, list(range(24, 32))),
            "test": (graphs, ys, None, list(range(32, 40)))}
    protocol = T.CountProtocol(epochs=3, batch_size=8)

    def run():
        torch.manual_seed(0)
        out = T.train_unit(gin(hidden=8, layers=2), data, "graph", protocol, seed=5)
        return {k: v.tolist() if k == "test_pred" else v for k, v in out.items() if k != "wall_s"}

    fast = run()
    monkeypatch.setattr(T, "_plain_store", lambda graphs, idx: None)
    assert run() == fast
