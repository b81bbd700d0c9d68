"""Tests of wltools.models.layers: dense batching and graph index, norms (PPGT Eq. 3, Prop. E.3),
attention (PPGT Eq. 4-5)."""

import pytest
import torch
from torch import nn
from torch_geometric.data import Batch, Data
from torch_geometric.utils import to_dense_batch

from wltools.models.layers import (
    MLP,
    NORMS,
    AdaRMSNorm,
    FeedForward,
    RMSNorm,
    TokenBatchNorm,
    dense_attention,
    dense_attention_reference,
    degree,
    dense_batch,
    graph_index,
    make_norm,
)


def _x(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


@pytest.mark.parametrize("max_nodes,batch_size", [(None, None), (2, None), (None, 5), (3, 4)])
def test_dense_batch_equals_pyg_values_and_gradients(max_nodes, batch_size):
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(9, 3, generator=gen, dtype=torch.float64)
    batch = torch.tensor([0, 0, 0, 1, 1, 3, 3, 3, 3])
    kw = dict(fill_value=-1.0, max_num_nodes=max_nodes, batch_size=batch_size)
    xa, xb = x.clone().requires_grad_(True), x.clone().requires_grad_(True)
    a = to_dense_batch(xa, batch, **kw)
    b = dense_batch(xb, batch, **kw)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    assert a[1].dtype == b[1].dtype == torch.bool
    w = torch.randn(a[0].shape, generator=gen, dtype=torch.float64)
    (a[0] * w).sum().backward()
    (b[0] * w).sum().backward()
    assert torch.equal(xa.grad, xb.grad)
    if max_nodes is not None:  # dropped nodes get no gradient, kept ones do
        assert (xb.grad == 0).any() and (xb.grad != 0).any()


def test_dense_batch_without_batch_vector():
    x = torch.arange(6.0).view(3, 2)
    out, mask = dense_batch(x)
    assert torch.equal(out, x[None]) and mask.all() and mask.shape == (1, 3)


@pytest.mark.parametrize("dtype", [torch.long, torch.float32, torch.float64])
def test_degree_equals_pyg_and_runs_under_vmap(dtype):
    from torch_geometric.utils import degree as pyg_degree

    index = torch.tensor([0, 2, 2, 3, 0, 2])
    got = degree(index, 5, dtype=dtype)
    assert got.dtype == dtype and torch.equal(got, pyg_degree(index, 5, dtype=dtype))
    both = torch.stack([index, index.flip(0).roll(1)])
    with pytest.raises(RuntimeError):  # PyG's in-place scatter_add_ with a batched index
        torch.func.vmap(lambda i: pyg_degree(i, 5, dtype=dtype))(both)
    out = torch.func.vmap(lambda i: degree(i, 5, dtype=dtype))(both)
    assert torch.equal(out[0], got) and torch.equal(out[1], pyg_degree(both[1], 5, dtype=dtype))


@pytest.mark.parametrize("max_nodes", [None, 3])
def test_dense_batch_runs_under_vmap(max_nodes):
    # PyG's in-place write is refused under vmap with a batched x; dense_batch is not
    x = torch.randn(9, 3, generator=torch.Generator().manual_seed(1))
    batch = torch.tensor([0, 0, 0, 1, 1, 3, 3, 3, 3])
    xs = torch.stack([x, 2 * x])
    with pytest.raises(RuntimeError):
        torch.func.vmap(lambda t: to_dense_batch(t, batch, max_num_nodes=max_nodes, batch_size=4))(xs)
    out, mask = torch.func.vmap(lambda t: dense_batch(t, batch, batch_size=4, max_num_nodes=max_nodes))(xs)
    assert torch.equal(out[1], 2 * out[0])
    assert torch.equal(out[0], dense_batch(x, batch, batch_size=4, max_num_nodes=max_nodes)[0])
    assert torch.equal(mask[0], mask[1])


def test_graph_index_of_batch_and_single_graph():
    ei = torch.tensor([[0, 1], [1, 0]])
    g1, g2 = Data(x=torch.ones(2, 1), edge_index=ei), Data(x=torch.ones(3, 1), edge_index=ei)
    b, B = graph_index(Batch.from_data_list([g1, g2]))
    assert B == 2 and b.tolist() == [0, 0, 1, 1, 1]
    b, B = graph_index(g2)
    assert B == 1 and b.tolist() == [0, 0, 0] and b.dtype == torch.long


def test_adarmsn_equals_rmsn_at_init():
    x = _x(7, 12)
    ada, rms = AdaRMSNorm(12).double(), RMSNorm(12).double()
    assert torch.allclose(ada(x), rms(x), atol=1e-12)
    assert torch.allclose(rms(x).pow(2).mean(-1), torch.ones(7, dtype=torch.float64), atol=1e-5)


def test_adarmsn_is_identity_with_alpha_one_beta_zero():
    x = _x(7, 12) * 5.0
    ada = AdaRMSNorm(12).double()
    with torch.no_grad():
        ada.alpha.fill_(1.0)
        ada.beta.zero_()
    assert torch.allclose(ada(x), x, atol=1e-6)


@pytest.mark.parametrize("scale", [0.1, 3.7])
def test_scale_invariance_prop_e3(scale):
    """PPGT Prop. E.3: LayerNorm and RMSN lose the token magnitude, AdaRMSN need not."""
    x = _x(5, 16) + 0.5
    for norm in (nn.LayerNorm(16, eps=0.0).double(), RMSNorm(16, eps=0.0).double()):
        assert torch.allclose(norm(scale * x), norm(x), atol=1e-9)
    ada = AdaRMSNorm(16, eps=0.0).double()
    with torch.no_grad():
        ada.alpha.copy_(_x(16, seed=1))
        ada.beta.copy_(_x(16, seed=2))
    assert not torch.allclose(ada(scale * x), ada(x), atol=1e-3)


def test_make_norm_and_batchnorm_on_token_lists():
    for kind in NORMS:
        assert make_norm(kind, 8)(torch.randn(3, 4, 8)).shape == (3, 4, 8)
    with pytest.raises(ValueError):
        make_norm("groupnorm", 8)
    bn = TokenBatchNorm(8).double()
    x = _x(3, 4, 8)
    assert torch.allclose(bn(x).reshape(12, 8), bn(x.reshape(12, 8)))


def test_mlp_and_ffn_shapes():
    m = MLP(5, 11, 3, num_layers=3)
    assert len(m.linears) == 3 and m(torch.randn(2, 5)).shape == (2, 3)
    f = FeedForward(6, expansion=2)
    assert f.mlp.linears[0].out_features == 12 and f(torch.randn(4, 6)).shape == (4, 6)


def _qkv(B=3, H=2, N=5, D=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(B, H, N, D, generator=g, dtype=torch.float64) for _ in range(3))
    bias = torch.randn(B, H, N, N, generator=g, dtype=torch.float64)
    urpe = torch.randn(B, H, N, N, generator=g, dtype=torch.float64)
    mask = torch.ones(B, N, dtype=torch.bool)
    mask[1, 3:] = False  # graph 1 has 3 nodes
    mask[2, 1:] = False  # graph 2 has 1 node
    return q, k, v, bias, urpe, mask


@pytest.mark.parametrize("kind,l2_form", [("sl2", "mask"), ("sl2", "key"), ("sdp", "mask")])
@pytest.mark.parametrize("with_urpe", [False, True])
def test_sdpa_path_equals_explicit_reference(kind, l2_form, with_urpe):
    q, k, v, bias, urpe, mask = _qkv()
    u = urpe if with_urpe else None
    fast = dense_attention(q, k, v, bias, mask, kind=kind, urpe=u, l2_form=l2_form)
    ref = dense_attention_reference(q, k, v, bias, mask, kind=kind, urpe=u)
    assert torch.isfinite(fast).all()
    assert torch.allclose(fast, ref, atol=1e-10)


def test_sl2_differs_from_sdp_and_padding_is_ignored():
    q, k, v, bias, _, mask = _qkv()
    assert not torch.allclose(dense_attention(q, k, v, bias, mask, "sl2"),
                              dense_attention(q, k, v, bias, mask, "sdp"))
    # changing padded keys / values leaves every output unchanged
    k2, v2 = k.clone(), v.clone()
    k2[1, :, 3:] += 100.0
    v2[1, :, 3:] -= 50.0
    a = dense_attention(q, k, v, bias, mask, "sl2")
    b = dense_attention(q, k2, v2, bias, mask, "sl2")
    assert torch.allclose(a, b, atol=1e-12)
    with pytest.raises(ValueError):
        dense_attention(q, k, v, bias, mask, "cosine")
    with pytest.raises(ValueError):
        dense_attention(q, k, v, bias, mask, "sl2", l2_form="query")


def test_l2_forms_have_equal_gradients():
    q, k, v, bias, urpe, mask = _qkv(seed=4)
    grads = []
    for form in ("mask", "key"):
        qq, kk = q.clone().requires_grad_(), k.clone().requires_grad_()
        dense_attention(qq, kk, v, bias, mask, "sl2", l2_form=form).pow(2).sum().backward()
        grads.append((qq.grad, kk.grad))
    assert torch.allclose(grads[0][0], grads[1][0], atol=1e-10)
    assert torch.allclose(grads[0][1], grads[1][1], atol=1e-10)
