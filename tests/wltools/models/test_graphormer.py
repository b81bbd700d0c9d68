"""Tests of wltools.models.graphormer: the spatial bias really uses SPD (Eq. 6) and [VNode] has its
own bias, the attention equals an explicit softmax, the edge encoding (Eq. 7) over shortest paths,
learning to separate C6 from two triangles. (Relabelling invariance, reset determinism and CUDA:
test_all_models.py.)"""

import math

import networkx as nx
import torch
from torch_geometric.data import Batch

from wltools.graphs import named_graph
from wltools.models import create_model, create_transform
from wltools.models.encodings import to_dense_pair
from wltools.models.graphormer import AddShortestPathEdges

NAME = "graphormer"


def test_attention_bias_is_the_spd_table_and_vnode_scalar(helpers):
    G = named_graph("decalin")
    b = helpers.batch(NAME, [G, nx.cycle_graph(4)])
    model = create_model(NAME, "small").eval()
    spd_dense = torch.full((2, 10, 10), model.config.max_dist + 1, dtype=torch.long)
    spd_dense[0] = torch.tensor(
        [[nx.shortest_path_length(G, i, j) for j in range(10)] for i in range(10)]
    )
    C4 = nx.cycle_graph(4)
    spd_dense[1, :4, :4] = torch.tensor(
        [[nx.shortest_path_length(C4, i, j) for j in range(4)] for i in range(4)]
    )
    node_mask = torch.zeros(2, 10, dtype=torch.bool)
    node_mask[0] = True
    node_mask[1, :4] = True
    bias = model.attention_bias(spd_dense, node_mask)  # [B, H, 11, 11]
    H = model.config.heads
    assert bias.shape == (2, H, 11, 11)
    for h in range(H):
        t = model.vnode_bias[h]
        assert torch.all(bias[:, h, 0, :] == t) and torch.all(bias[:, h, :, 0] == t)  # [VNode]: own t
        table = model.spatial.weight[:, h]
        assert torch.equal(bias[0, h, 1:, 1:], table[spd_dense[0]])  # b_phi(vi, vj), Eq. 6
    # the transform's SPD reaches the model unchanged (via Batch + to_dense_pair)
    assert torch.equal(b.spd[:100].view(10, 10), spd_dense[0])


def test_changing_one_spd_entry_changes_the_output(helpers):
    b = helpers.batch(NAME, [named_graph("decalin")])
    model = create_model(NAME, "small").double().eval()
    out = model(b)
    b2 = b.clone()
    b2.spd = b.spd.clone()
    b2.spd[0 * 10 + 3] = b.spd[3] + 2  # pair (0, 3) only (row-major layout), a longer distance
    assert not torch.allclose(out, model(b2))
    b3 = b.clone()
    b3.spd = b.spd.clone()  # unchanged SPD: same output (the change above is what mattered)
    assert torch.equal(out, model(b3))


def test_attention_matches_explicit_softmax_reference():
    """The layer's SDPA path equals softmax(QK^T / sqrt(d_h) + b) V written out (Eq. 6)."""
    torch.manual_seed(0)
    model = create_model(NAME, "small").double().eval()
    layer = model.blocks[0]
    B, N, d, H = 2, 5, model.config.hidden, model.config.heads
    h = torch.randn(B, N, d, dtype=torch.float64)
    bias = torch.randn(B, H, N, N, dtype=torch.float64)
    mask = torch.tensor([[True] * 5, [True, True, True, False, False]])
    out = layer(h, bias, mask)
    x = layer.ln1(h)
    q, k, v = layer.qkv(x).view(B, N, 3, H, d // H).permute(2, 0, 3, 1, 4)
    scores = q @ k.transpose(-1, -2) / math.sqrt(d // H) + bias
    scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
    a = torch.softmax(scores, -1) @ v
    ref = h + layer.out(a.transpose(1, 2).reshape(B, N, d))  # Eq. 8
    ref = ref + layer.ffn(layer.ln2(ref))  # Eq. 9
    assert torch.allclose(out[0], ref[0], atol=1e-10)
    assert torch.allclose(out[1, :3], ref[1, :3], atol=1e-10)


def test_brec_preset_shape_and_options(helpers):
    model = create_model(NAME)
    c = model.config
    assert (c.layers, c.hidden, c.heads, c.ffn_dim, c.out_dim) == (12, 80, 8, 80, 16)  # BREC run
    assert model.num_parameters() == sum(p.numel() for p in model.parameters())
    assert "max_dist=510" in repr(create_transform(NAME))
    out = create_model(NAME, "small").eval()(helpers.batch(NAME, [nx.cycle_graph(6), nx.empty_graph(3), nx.path_graph(2)]))
    assert out.shape == (3, 16) and torch.isfinite(out).all()
    assert "AddShortestPathEdges(max_hops=5)" in repr(create_transform(NAME, edge_dim=2))


def test_shortest_path_edges_form_shortest_paths(helpers):
    G = named_graph("decalin")
    max_hops = 3
    d = AddShortestPathEdges(max_hops)(helpers.data(G))
    steps, pairs, hops = d.sp_step_index.T.tolist(), d.sp_pair_index.T.tolist(), d.sp_hop.tolist()
    paths: dict = {}
    for (u, v), (i, j), n in zip(steps, pairs, hops):
        paths.setdefault((i, j), []).append((n, u, v))
    for i in range(10):
        for j in range(10):
            dist = nx.shortest_path_length(G, i, j)
            walk = sorted(paths.get((i, j), []))
            assert [n for n, _, _ in walk] == list(range(min(dist, max_hops)))
            node = i
            for _, u, v in walk:
                assert u == node and G.has_edge(u, v)
                assert nx.shortest_path_length(G, v, j) == nx.shortest_path_length(G, u, j) - 1
                node = v
            if 0 < dist <= max_hops:
                assert node == j


def test_edge_encoding_is_eq7_and_uses_edge_features(helpers):
    G = named_graph("decalin")
    tf = create_transform(NAME, "small", edge_dim=2, max_hops=3)
    data = helpers.data(G)
    torch.manual_seed(0)
    data.edge_attr = torch.randn(data.edge_index.shape[1], 2)
    b = Batch.from_data_list([tf(data)])
    model = create_model(NAME, "small", edge_dim=2, max_hops=3).double().eval()
    spd = b.spd.view(1, 10, 10)
    c = model.edge_encoding(b, b.batch, 1, 10, spd)  # [1, 10, 10, H]
    feat = {tuple(e): b.edge_attr[k].double() for k, e in enumerate(b.edge_index.T.tolist())}
    for (i, j) in [(0, 0), (1, 2), (1, 7), (2, 7)]:
        cols = (b.sp_pair_index[0] == i) & (b.sp_pair_index[1] == j)
        terms = [feat[tuple(e)] @ model.edge_weight[n] for e, n in
                 zip(b.sp_step_index[:, cols].T.tolist(), b.sp_hop[cols].tolist())]
        zero = torch.zeros(model.config.heads, dtype=torch.float64)
        expected = torch.stack(terms).mean(0) if terms else zero
        assert torch.allclose(c[0, i, j], expected, atol=1e-12)  # Eq. 7: mean of x_e . w_n
    # batching offsets: the same graph second in a batch gets the same encoding
    other = helpers.data(nx.cycle_graph(5))
    other.edge_attr = torch.randn(other.edge_index.shape[1], 2)
    bb = Batch.from_data_list([tf(other), tf(data)])
    spd_bb = to_dense_pair(bb.spd, bb.pair_index, bb.batch, 2, 10, fill_value=model.config.max_dist + 1)
    assert torch.allclose(model.edge_encoding(bb, bb.batch, 2, 10, spd_bb)[1], c[0], atol=1e-12)
    out = model(b)
    b2 = b.clone()
    b2.edge_attr = b.edge_attr.clone()
    b2.edge_attr[0] += 1.0
    assert not torch.allclose(out, model(b2))
    # with identical features on every edge the path choice cannot matter: invariant again
    graphs = [G] + [helpers.relabel(G, s) for s in range(2)]
    datas = []
    for H in graphs:
        dd = helpers.data(H)
        dd.edge_attr = torch.ones(dd.edge_index.shape[1], 2)
        datas.append(tf(dd))
    outs = model(Batch.from_data_list(datas))
    assert torch.allclose(outs[0], outs[1], atol=1e-6) and torch.allclose(outs[0], outs[2], atol=1e-6)


def test_learns_to_separate_c6_and_two_triangles(helpers):
    # 1-WL-equivalent (both 2-regular on 6 nodes), separated by SPD-WL (unreachable pairs)
    two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    b = helpers.batch(NAME, [nx.cycle_graph(6), two_triangles])
    model = create_model(NAME, "small")
    before, after = helpers.separation_training(model, b, steps=150, lr=1e-3, seed=0)
    assert after < 0.5
    assert after < before - 0.3
