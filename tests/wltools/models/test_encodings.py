"""Tests of wltools.models.encodings: pair layout, batching, dense scatter, equivariance, repr."""

import networkx as nx
import pytest
import torch
from torch_geometric.data import Batch, Data
from torch_geometric.transforms import Compose
from torch_geometric.utils import to_dense_batch

from wltools.distances import resistance_float, rrwp_float, spd_float
from wltools.models.encodings import (
    AddResistanceDistance,
    AddRRWP,
    AddSPD,
    dense_pair_mask,
    full_pair_index,
    to_dense_pair,
)


def _data(G: nx.Graph) -> Data:
    n = G.number_of_nodes()
    e = torch.tensor(list(G.edges()), dtype=torch.long).reshape(-1, 2).T
    ei = torch.cat([e, e.flip(0)], dim=1)
    return Data(x=torch.ones(n, 1), edge_index=ei, num_nodes=n)


def _relabel(G: nx.Graph, seed: int) -> tuple[nx.Graph, list[int]]:
    perm = torch.randperm(G.number_of_nodes(), generator=torch.Generator().manual_seed(seed))
    perm = perm.tolist()  # node v -> perm[v]
    return nx.relabel_nodes(G, dict(enumerate(perm))), perm


def test_full_pair_index_is_row_major():
    pi = full_pair_index(3)
    assert pi.shape == (2, 9)
    for p in range(9):
        assert pi[:, p].tolist() == [p // 3, p % 3]


def test_rrwp_layout_matches_distances():
    G = nx.path_graph(5)
    d = AddRRWP(4)(_data(G))
    assert d.rrwp.shape == (25, 4) and d.pair_index.shape == (2, 25)
    ref = rrwp_float(d.edge_index, 5, 4)  # [n, n, K]
    i, j = d.pair_index
    assert torch.equal(d.rrwp, ref[i, j])
    assert torch.equal(d.rrwp[:, 0], (i == j).float())  # channel 0 = identity
    # channel 1 = D^-1 A: rows sum to one
    assert torch.allclose(d.rrwp[:, 1].reshape(5, 5).sum(1), torch.ones(5))


def test_spd_clamp_and_unreachable():
    G = nx.disjoint_union(nx.path_graph(5), nx.path_graph(1))
    raw = AddSPD()(_data(G)).spd
    assert torch.equal(raw, spd_float(_data(G).edge_index, 6).reshape(-1))
    assert raw.dtype == torch.long and (raw == -1).sum() == 10
    clamped = AddSPD(max_dist=2)(_data(G)).spd
    assert torch.equal(clamped[raw < 0], torch.full(((raw < 0).sum(),), 3))
    assert torch.equal(clamped[raw >= 0], raw[raw >= 0].clamp(max=2))
    assert clamped.min() >= 0 and clamped.max() == 3


def test_resistance_inf_and_inf_value():
    G = nx.disjoint_union(nx.cycle_graph(4), nx.path_graph(2))
    d = AddResistanceDistance()(_data(G))
    ref = resistance_float(_data(G).edge_index, 6).reshape(-1).float()
    assert torch.equal(d.rd, ref)
    assert torch.isinf(d.rd).sum() == 16
    d2 = AddResistanceDistance(inf_value=-1.0, dtype=torch.float64)(_data(G))
    assert d2.rd.dtype == torch.float64 and not torch.isinf(d2.rd).any()
    assert (d2.rd == -1.0).sum() == 16
    assert abs(float(d2.rd[1]) - 0.75) < 1e-12  # adjacent nodes of C4: 1 * 3 / 4


def test_chained_transforms_share_pair_index():
    G = nx.cycle_graph(4)
    d = Compose([AddRRWP(3), AddSPD(5), AddResistanceDistance()])(_data(G))
    assert d.rrwp.shape[0] == d.spd.shape[0] == d.rd.shape[0] == d.pair_index.shape[1] == 16


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_relabelling_permutes_pairs(seed):
    G = nx.lollipop_graph(4, 3)
    H, perm = _relabel(G, seed)
    n = G.number_of_nodes()
    t = Compose([AddRRWP(5), AddSPD(), AddResistanceDistance()])
    dg, dh = t(_data(G)), t(_data(H))
    perm_t = torch.tensor(perm)
    for key in ("rrwp", "spd", "rd"):
        a = dg[key].reshape(n, n, -1)
        b = dh[key].reshape(n, n, -1)
        assert torch.allclose(a, b[perm_t][:, perm_t]), key  # pair (u, v) of G = (perm u, perm v)


def test_batching_offsets_pair_index_and_dense_scatter():
    graphs = [nx.path_graph(3), nx.cycle_graph(5), nx.star_graph(1)]
    datas = [AddRRWP(3)(_data(G)) for G in graphs]
    batch = Batch.from_data_list(datas)
    sizes = [3, 5, 2]
    assert batch.pair_index.shape == (2, sum(s * s for s in sizes))
    assert batch.rrwp.shape == (sum(s * s for s in sizes), 3)
    # block of graph 1 is offset by 3 nodes
    assert torch.equal(batch.pair_index[:, 9:34], datas[1].pair_index + 3)
    dense = to_dense_pair(batch.rrwp, batch.pair_index, batch.batch, fill_value=-7.0)
    xd, mask = to_dense_batch(batch.x, batch.batch)
    assert dense.shape == (3, 5, 5, 3) and mask.shape == (3, 5)
    pm = dense_pair_mask(mask)
    for g, (s, d) in enumerate(zip(sizes, datas)):
        assert torch.equal(dense[g, :s, :s], d.rrwp.reshape(s, s, 3))
        assert bool(pm[g, :s, :s].all()) and int(pm[g].sum()) == s * s
    assert bool((dense[~pm] == -7.0).all())


def test_repr_names_every_argument():
    assert repr(AddRRWP(33)) == "AddRRWP(walk_length=33, attr_name='rrwp', dtype=torch.float32)"
    assert repr(AddSPD(7)) == "AddSPD(max_dist=7, attr_name='spd')"
    assert repr(AddResistanceDistance(inf_value=2.0)) == (
        "AddResistanceDistance(inf_value=2.0, attr_name='rd', dtype=torch.float32)"
    )
    assert repr(AddRRWP(3)) != repr(AddRRWP(4))
    assert repr(AddRRWP(3, dtype=torch.float64)) != repr(AddRRWP(3))


def test_bad_arguments():
    with pytest.raises(ValueError):
        AddRRWP(0)
    with pytest.raises(ValueError):
        AddSPD(0)
