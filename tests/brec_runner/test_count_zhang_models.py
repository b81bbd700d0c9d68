"""examples/mpnn_zhang.py and examples/subgraph_zhang.py compute Zhang et al.'s counting MPNN and
Subgraph GNN (their src/utils.py ``subgraph``, src/model.py ``L("vL")`` / ``L("uL")`` and ``Pool``):
each checked against the long way, a dense state h[a, b] per ordered node pair, at graph and node
level. The MPNN file runs one copy where their code runs n identical ones; the Subgraph GNN file keeps
only the pairs of each graph, in its own layout (checked too)."""

import networkx as nx
import pytest
import torch
from torch_geometric.data import Batch

from brec_runner.runs.dataset import to_pyg
from examples.mpnn_zhang import mpnn_zhang
from examples.subgraph_zhang import pair_structure, subgraph_zhang


def _distances(G: nx.Graph, max_dis: int) -> torch.Tensor:
    """clamp(dist(a, b), 0, max_dis) from networkx, unreachable pairs at 0 (their float inf cast to
    int64 on x86 is the most negative integer, which the clamp sends to 0)."""
    lengths, n = dict(nx.all_pairs_shortest_path_length(G)), G.number_of_nodes()
    return torch.tensor([[min(lengths[a].get(b, 0), max_dis) for b in range(n)] for a in range(n)])


def _dense_version(model, G: nx.Graph, level: str, kind: str) -> torch.Tensor:
    """The long way. MPNN: every pair starts at the one learned vector (max_dis = 0) and messages
    run along the first coordinate. Subgraph GNN: pair (u, v) starts at the embedding of their
    distance and messages run along the second coordinate, inside row u. Readout: each node's row
    summed, ReLU(MLP), the mean over nodes at graph level, ReLU(Linear(d, 2d))."""
    n = G.number_of_nodes()
    A = torch.tensor(nx.to_numpy_array(G, nodelist=range(n)), dtype=torch.float32)
    if kind == "mpnn":
        h, spec = model.start.weight[0].expand(n, n, -1), "ab,bjd->ajd"
    else:
        h, spec = model.distance(_distances(G, model.max_dis)), "vw,uwd->uvd"
    for layer in model.layers:
        agg = torch.einsum(spec, A, torch.relu(layer.linear(h)))
        h = torch.relu(layer.mlp((1.0 + layer.eps) * h + agg))
    per_node = torch.relu(model.pool(h.sum(dim=1)))  # [a, d]
    pooled = per_node.mean(dim=0, keepdim=True) if level == "graph" else per_node
    return torch.relu(model.predict_hidden(pooled))


def _graphs():
    two_parts = nx.disjoint_union(nx.cycle_graph(4), nx.path_graph(3))  # unreachable pairs
    long_path = nx.path_graph(9)  # distances past max_dis
    return [nx.gnp_random_graph(n, 0.4, seed=n) for n in (5, 9, 7)] + [two_parts, long_path, nx.empty_graph(3)]


@pytest.mark.parametrize("kind, factory", [("mpnn", lambda: mpnn_zhang(dim=16, layers=3)),
                                           ("subgraph", lambda: subgraph_zhang(dim=16, layers=3, max_dis=5))])
def test_equals_the_dense_pair_formulation(kind, factory):
    torch.manual_seed(0)
    model, graphs = factory().eval(), _graphs()
    batch = Batch.from_data_list([to_pyg(G) for G in graphs])
    with torch.no_grad():
        got_g, got_v = model(batch), model.node_embeddings(batch)
        want_g = torch.cat([_dense_version(model, G, "graph", kind) for G in graphs])
        want_v = torch.cat([_dense_version(model, G, "node", kind) for G in graphs])
    assert got_g.shape == (len(graphs), 32) and got_v.shape == (batch.num_nodes, 32)
    torch.testing.assert_close(got_g, want_g, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(got_v, want_v, rtol=1e-5, atol=1e-5)


def test_subgraph_pair_layout_and_distances():
    """Pair (u, v) sits at row start[u] + local(v); its distance is networkx's, clamped."""
    graphs = _graphs()
    batch = Batch.from_data_list([to_pyg(G) for G in graphs])
    root, adj, dist = pair_structure(batch.edge_index, batch.batch, len(graphs), max_dis=3)
    assert root.numel() == sum(G.number_of_nodes() ** 2 for G in graphs)
    row, offset = 0, 0
    for G in graphs:
        n, want = G.number_of_nodes(), _distances(G, 3)
        for u in range(n):
            assert root[row:row + n].tolist() == [offset + u] * n
            assert dist[row:row + n].tolist() == want[u].tolist()
            row += n
        offset += n
    assert int(adj.to_dense().sum()) == sum(2 * G.number_of_edges() * G.number_of_nodes() for G in graphs)


def test_subgraph_relabelling_invariant():
    torch.manual_seed(1)
    model = subgraph_zhang(dim=8, layers=2).eval()
    G = nx.gnp_random_graph(8, 0.35, seed=3)
    perm = dict(zip(range(8), [3, 7, 0, 5, 1, 6, 2, 4]))
    a, b = (Batch.from_data_list([to_pyg(H)]) for H in (G, nx.relabel_nodes(G, perm)))
    with torch.no_grad():
        torch.testing.assert_close(model(a), model(b), rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(model.node_embeddings(a)[list(perm)], model.node_embeddings(b)[list(perm.values())],
                                   rtol=1e-5, atol=1e-5)


def test_published_sizes():
    """5 layers x 128 (their ``5x128``; Sub with distances 0..5); the head's Linear(256, 1) completes
    ``predict``."""
    mpnn, sub = mpnn_zhang(), subgraph_zhang()
    assert len(mpnn.layers) == 5 and mpnn.start.weight.shape == (1, 128) and mpnn.predict_hidden.out_features == 256
    assert len(sub.layers) == 5 and sub.distance.weight.shape == (6, 128) and sub.predict_hidden.out_features == 256
    assert (mpnn.wl_bound, sub.wl_bound) == ("1wl", "swl-vs")
