"""examples/mpnn_zhang.py runs one copy of Zhang et al.'s MPNN where their code runs it on all n^2
node pairs (src/utils.py ``index_vL``, src/model.py ``Pool``): the two agree, computed here the
long way on every pair, graph and node level."""

import networkx as nx
import torch
from torch_geometric.data import Batch

from brec_runner.dataset import to_pyg
from examples.mpnn_zhang import mpnn_zhang


def _pairs_version(model, G: nx.Graph, level: str) -> torch.Tensor:
    """Their formulation: a state h[a, j] per pair, messages along the first coordinate only, the
    readout summing each node's row over j, then the mean over nodes (graph level)."""
    n = G.number_of_nodes()
    A = torch.tensor(nx.to_numpy_array(G, nodelist=range(n)), dtype=torch.float32)
    h = model.start.weight[0].expand(n, n, -1)  # [a, j, d]: every pair starts at e (max_dis = 0)
    for layer in model.layers:
        agg = torch.einsum("ab,bjd->ajd", A, torch.relu(layer.linear(h)))
        h = torch.relu(layer.mlp((1.0 + layer.eps) * h + agg))
    per_node = torch.relu(model.pool(h.sum(dim=1)))  # [a, d]
    pooled = per_node.mean(dim=0, keepdim=True) if level == "graph" else per_node
    return torch.relu(model.predict_hidden(pooled))


def test_one_copy_equals_the_pair_formulation():
    torch.manual_seed(0)
    model = mpnn_zhang(dim=16, layers=3).eval()
    graphs = [nx.gnp_random_graph(n, 0.4, seed=n) for n in (5, 9, 7)] + [nx.empty_graph(3)]
    batch = Batch.from_data_list([to_pyg(G) for G in graphs])
    with torch.no_grad():
        got_g, got_v = model(batch), model.node_embeddings(batch)
        want_g = torch.cat([_pairs_version(model, G, "graph") for G in graphs])
        want_v = torch.cat([_pairs_version(model, G, "node") for G in graphs])
    assert got_g.shape == (4, 32) and got_v.shape == (batch.num_nodes, 32)
    torch.testing.assert_close(got_g, want_g, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(got_v, want_v, rtol=1e-5, atol=1e-5)


def test_published_size():
    """5 layers x 128 (their ``5x128``); the head's Linear(256, 1) completes ``predict``."""
    model = mpnn_zhang()
    assert len(model.layers) == 5 and model.start.weight.shape == (1, 128)
    assert model.predict_hidden.out_features == 256
