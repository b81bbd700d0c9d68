"""Tests of wltools.models.sgformer: the linear-cost global attention equals Eq. 23-24 computed
quadratically, per graph (independent of batch neighbours), and the 1-WL bound: equal outputs on
1-WL-equivalent pairs, before and after training to separate them. (Relabelling invariance, reset
determinism and CUDA: test_all_models.py.)"""

import networkx as nx
import pytest
import torch

from wltools.graphs import named_graph
from wltools.models import create_model, create_transform
from wltools.models.sgformer import simple_global_attention, simple_global_attention_reference

NAME = "sgformer"


def _two_triangles() -> nx.Graph:
    return nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))


def test_linear_attention_equals_quadratic_reference_per_graph():
    torch.manual_seed(0)
    sizes = [5, 1, 8]
    H, D = 2, 4
    T = sum(sizes)
    q, k, v = (torch.randn(T, H, D, dtype=torch.float64) for _ in range(3))
    batch = torch.repeat_interleave(torch.arange(3), torch.tensor(sizes))
    out = simple_global_attention(q, k, v, batch, 3)
    start = 0
    for n in sizes:
        sl = slice(start, start + n)
        ref = simple_global_attention_reference(q[sl], k[sl], v[sl])  # Eq. 23-24 with C explicit
        assert torch.allclose(out[sl], ref, atol=1e-12)
        start += n
    # and the reference is the formula: rows of diag^-1(C 1) C sum to one
    q1, k1 = q[:5], k[:5]
    qt = q1 / q1.pow(2).sum((0, 2), keepdim=True).sqrt()
    kt = k1 / k1.pow(2).sum((0, 2), keepdim=True).sqrt()
    C = torch.eye(5, dtype=torch.float64) + torch.einsum("ihd,jhd->hij", qt, kt) / 5
    ones = torch.ones(5, H, 1, dtype=torch.float64)
    assert torch.allclose(simple_global_attention_reference(q1, k1, ones), ones)
    assert torch.allclose(simple_global_attention_reference(q1, k1, v[:5]),
                          torch.einsum("hij,jhd->ihd", C / C.sum(-1, keepdim=True), v[:5]))


def test_embedding_does_not_depend_on_batch_neighbours(helpers):
    torch.manual_seed(0)
    model = create_model(NAME, "small").double().eval()
    G = named_graph("decalin")
    alone = model(helpers.batch(NAME, [G]))
    together = model(helpers.batch(NAME, [nx.complete_graph(7), G, nx.path_graph(3)]))
    assert torch.allclose(alone[0], together[1], atol=1e-10)


@pytest.mark.parametrize("pair", [("cycle6", "two_triangles"), ("decalin", "bicyclopentyl")])
def test_one_wl_bound_equal_outputs_before_and_after_training(pair, helpers):
    graphs = {"cycle6": nx.cycle_graph(6), "two_triangles": _two_triangles(),
              "decalin": named_graph("decalin"), "bicyclopentyl": named_graph("bicyclopentyl")}
    b = helpers.batch(NAME, [graphs[pair[0]], graphs[pair[1]]])
    model = create_model(NAME, "small").double()
    # try to separate them (as the RPC loop would): the model must not manage
    before, after = helpers.separation_training(model, b, steps=30, lr=1e-2, seed=0)
    assert before == pytest.approx(1.0, abs=1e-9) and after == pytest.approx(1.0, abs=1e-9)
    model.eval()
    out = model(b)
    assert torch.allclose(out[0], out[1], atol=1e-6, rtol=0)
    model.train()
    out = model(b)
    assert torch.nn.functional.cosine_similarity(out[0:1], out[1:2]).item() > 0.99  # train mode too
    # ... while a pair that 1-WL separates does get different outputs from the same model
    c = helpers.batch(NAME, [nx.cycle_graph(6), nx.path_graph(6)])
    o = model(c)
    assert not torch.allclose(o[0], o[1], atol=1e-6)


def test_presets_transform_and_bad_options(helpers):
    model = create_model(NAME)
    assert model.config.out_dim == 16 and model.config.heads == 1
    assert model.num_parameters() == sum(p.numel() for p in model.parameters())
    assert repr(create_transform(NAME)) == "NoEncoding()"
    out = create_model(NAME, "small", heads=2).eval()(helpers.batch(NAME, [nx.cycle_graph(6), nx.empty_graph(2)]))
    assert out.shape == (2, 16) and torch.isfinite(out).all()
    with pytest.raises(ValueError, match="alpha"):
        create_model(NAME, "small", alpha=1.0)


def test_graph_sums_equal_pyg_scatter_bit_for_bit():
    """The per-graph sums use ``index_add`` (vmap-friendly); the values are those of PyG's
    ``scatter(..., reduce="sum")`` that the committed SGFormer runs were computed with, exactly."""
    from torch_geometric.utils import scatter

    gen = torch.Generator().manual_seed(0)
    sizes = [3, 7, 1, 12, 5]
    batch = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))
    q, k, v = (torch.randn(int(batch.numel()), 2, 8, generator=gen) for _ in range(3))

    def with_scatter(q, k, v):
        B = len(sizes)
        n = torch.bincount(batch, minlength=B).to(q.dtype)[batch].view(-1, 1, 1)
        q = q / scatter(q.pow(2).sum(-1), batch, 0, dim_size=B, reduce="sum").sqrt()[batch].unsqueeze(-1)
        k = k / scatter(k.pow(2).sum(-1), batch, 0, dim_size=B, reduce="sum").sqrt()[batch].unsqueeze(-1)
        ktv = scatter(k.unsqueeze(-1) * v.unsqueeze(-2), batch, 0, dim_size=B, reduce="sum")
        k_sum = scatter(k, batch, 0, dim_size=B, reduce="sum")
        num = v + torch.einsum("thd,thde->the", q, ktv[batch]) / n
        return num / (1 + (q * k_sum[batch]).sum(-1, keepdim=True) / n)

    assert torch.equal(simple_global_attention(q, k, v, batch, len(sizes)), with_scatter(q, k, v))
