"""Tests of wltools.models.graph_transformer: the LapPE transform (Eq. 1), what is and is not
invariant (sign / eigenbasis), neighbour vs full attention, edge features, the published parameter
count, learning to separate a 1-WL-equivalent pair through the PE. (Reset determinism and CUDA:
test_all_models.py.)"""

import networkx as nx
import pytest
import torch
from torch_geometric.data import Batch

from wltools.graphs import named_graph
from wltools.models import create_model, create_transform
from wltools.models.graph_transformer import AddLapPE, GraphTransformer

NAME = "graph_transformer"


def _normalised_laplacian(G: nx.Graph) -> torch.Tensor:
    return torch.tensor(nx.normalized_laplacian_matrix(G, nodelist=range(len(G))).toarray())


def _simple_spectrum_graph() -> nx.Graph:
    """A connected graph whose normalised Laplacian has distinct eigenvalues (checked)."""
    G = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (1, 6), (6, 7), (2, 7), (7, 8), (8, 9), (4, 9)])
    return G


@pytest.mark.parametrize("graph", ["decalin", "petersen"])
def test_lappe_columns_are_nontrivial_laplacian_eigenvectors(graph, helpers):
    G = named_graph(graph)
    k = 4
    pe = AddLapPE(k)(helpers.data(G)).lap_pe.double()  # [n, k]
    L = _normalised_laplacian(G)
    evals = torch.linalg.eigvalsh(L)
    assert pe.shape == (G.number_of_nodes(), k)
    assert torch.allclose(pe.T @ pe, torch.eye(k, dtype=torch.float64), atol=1e-5)  # orthonormal
    for c in range(k):
        u = pe[:, c]
        lam = u @ L @ u
        assert torch.allclose(L @ u, lam * u, atol=1e-5)  # Eq. 1 eigenvector
        assert lam == pytest.approx(evals[c + 1].item(), abs=1e-5)  # k smallest after the trivial


def test_lappe_pads_small_graphs_and_reprs_its_arguments(helpers):
    pe = AddLapPE(5)(helpers.data(nx.path_graph(3))).lap_pe  # only n - 1 = 2 non-trivial vectors
    assert pe.shape == (3, 5)
    assert torch.all(pe[:, 2:] == 0) and torch.all(pe[:, :2].abs().sum(0) > 0)
    assert AddLapPE(1)(helpers.data(nx.empty_graph(1))).lap_pe.shape == (1, 1)
    assert repr(AddLapPE(8)) == "AddLapPE(k=8, attr_name='lap_pe')"
    assert repr(create_transform(NAME)) == "AddLapPE(k=8, attr_name='lap_pe')"  # brec: k = 8
    with pytest.raises(ValueError):
        AddLapPE(0)


def test_equivariant_given_the_same_eigenvectors(helpers):
    """Relabel the nodes and permute the *same* PE rows along: identical embedding."""
    G = named_graph("decalin")
    torch.manual_seed(0)
    model = create_model(NAME, "small").double().eval()
    d0 = AddLapPE(model.config.lap_k)(helpers.data(G))
    outs = [model(Batch.from_data_list([d0]))]
    for seed in range(3):
        perm = helpers.permutation(G.number_of_nodes(), seed)  # node v -> perm[v]
        d = helpers.data(nx.relabel_nodes(G, dict(enumerate(perm))))
        pe = torch.empty_like(d0.lap_pe)
        pe[perm] = d0.lap_pe
        d.lap_pe = pe
        outs.append(model(Batch.from_data_list([d])))
    for o in outs[1:]:
        assert torch.allclose(outs[0], o, atol=1e-6, rtol=0)


def _assert_relabelling_invariant(helpers, G: nx.Graph, pos_enc: str, copies: int) -> None:
    """The float64 model with ``pos_enc`` embeds G and ``copies`` relabelled copies alike."""
    torch.manual_seed(0)
    model = create_model(NAME, "small", pos_enc=pos_enc).double().eval()
    n = G.number_of_nodes()
    graphs = [G] + [nx.relabel_nodes(G, dict(enumerate(helpers.permutation(n, s)))) for s in range(copies)]
    out = model(helpers.batch(NAME, graphs, pos_enc=pos_enc))
    for k in range(1, len(graphs)):
        assert torch.allclose(out[0], out[k], atol=1e-6, rtol=0)


def test_invariant_without_pe(helpers):
    _assert_relabelling_invariant(helpers, named_graph("decalin"), "none", copies=3)


def test_sign_invariant_pe_is_invariant_on_a_simple_spectrum(helpers):
    G = _simple_spectrum_graph()
    evals = torch.linalg.eigvalsh(_normalised_laplacian(G))
    assert (evals.diff() > 1e-6).all()  # precondition: distinct eigenvalues
    _assert_relabelling_invariant(helpers, G, "lap_abs", copies=4)


def test_signed_pe_is_not_invariant(helpers):
    """Documented non-invariance: the embedding depends on eigenvector signs (and bases)."""
    assert GraphTransformer.invariant_encodings is False
    G = named_graph("decalin")
    torch.manual_seed(0)
    model = create_model(NAME, "small").double().eval()
    b = helpers.batch(NAME, [G])
    flipped = b.clone()
    flipped.lap_pe = b.lap_pe.clone()
    flipped.lap_pe[:, 0] = -flipped.lap_pe[:, 0]
    assert not torch.allclose(model(b), model(flipped), atol=1e-6)
    # C6 has repeated eigenvalues: recomputed PEs of relabelled copies are not the permuted PE
    C6 = nx.cycle_graph(6)
    pe0 = AddLapPE(4)(helpers.data(C6)).lap_pe
    differs = []
    for seed in range(5):
        perm = helpers.permutation(6, seed)
        pe = AddLapPE(4)(helpers.data(nx.relabel_nodes(C6, dict(enumerate(perm))))).lap_pe
        differs.append(not torch.allclose(pe[perm], pe0, atol=1e-5))
    assert any(differs)


def test_random_sign_flips_only_in_training(helpers):
    model = create_model(NAME, "small")
    b = helpers.batch(NAME, [named_graph("decalin"), nx.cycle_graph(6)])
    model.eval()
    assert torch.equal(model(b), model(b))  # eval: deterministic, no flips
    model.train()
    torch.manual_seed(0)
    a = model(b)
    outs = []
    for s in range(1, 5):
        torch.manual_seed(s)
        outs.append(model(b))
    assert any(not torch.allclose(a, o) for o in outs)
    noflip = create_model(NAME, "small", sign_flip=False).train()
    torch.manual_seed(0)
    x = noflip(b)
    torch.manual_seed(1)
    assert torch.allclose(x, noflip(b))


def test_full_attention_equals_sparse_on_complete_graphs_only(helpers):
    torch.manual_seed(0)
    sparse = create_model(NAME, "small").double().eval()
    full = create_model(NAME, "small", full_attention=True).double().eval()
    full.load_state_dict(sparse.state_dict())
    K5 = helpers.batch(NAME, [nx.complete_graph(5), nx.complete_graph(3)])  # neighbours = all other nodes
    assert torch.allclose(sparse(K5), full(K5), atol=1e-10)
    C6 = helpers.batch(NAME, [nx.cycle_graph(6)])
    assert not torch.allclose(sparse(C6), full(C6), atol=1e-6)


def test_edge_features_change_the_output(helpers):
    G = named_graph("decalin")
    d = AddLapPE(4)(helpers.data(G))
    d.edge_attr = torch.ones(d.edge_index.shape[1], 2)
    torch.manual_seed(0)
    model = create_model(NAME, "small", edge_dim=2).double().eval()
    out = model(Batch.from_data_list([d]))
    d2 = d.clone()
    d2.edge_attr = d.edge_attr.clone()
    d2.edge_attr[0] = torch.tensor([3.0, -1.0])
    assert out.shape == (1, 16)
    assert not torch.allclose(out, model(Batch.from_data_list([d2])))
    with pytest.raises(ValueError):
        create_model(NAME, "small", edge_dim=2, full_attention=True)


def test_brec_preset(helpers):
    model = create_model(NAME)
    c = model.config
    assert (c.layers, c.heads, c.hidden, c.lap_k, c.norm, c.full_attention) == (10, 8, 64, 8, "batch", False)
    assert model.num_parameters() == sum(p.numel() for p in model.parameters())
    out = create_model(NAME, "small").eval()(helpers.batch(NAME, [nx.cycle_graph(6), nx.empty_graph(2)]))
    assert out.shape == (2, 16) and torch.isfinite(out).all()


def test_zinc_sized_model_matches_published_parameter_count():
    # Dwivedi & Bresson Table 1 (ZINC, BN, LapPE, sparse): 588,929 parameters; ours differs only
    # by the biases of the linear input maps (the public code uses embedding tables)
    n = create_model(NAME, in_dim=28, edge_dim=4, out_dim=1).num_parameters()
    assert abs(n - 588_929) / 588_929 < 0.001
    n_none = create_model(NAME, in_dim=28, edge_dim=4, out_dim=1, pos_enc="none").num_parameters()
    assert n - n_none == 588_929 - 588_353  # the LapPE input map C^0, c^0 (Eq. 3)


def test_learns_to_separate_decalin_and_bicyclopentyl_through_lappe(helpers):
    # 1-WL-equivalent; their normalised Laplacian spectra differ, so the PE separates them
    b = helpers.batch(NAME, [named_graph("decalin"), named_graph("bicyclopentyl")])
    model = create_model(NAME, "small")  # with random sign flips in training, as in the paper
    before, after = helpers.separation_training(model, b, steps=200, lr=3e-3, seed=0)
    assert after < 0.5
    assert after < before - 0.3
