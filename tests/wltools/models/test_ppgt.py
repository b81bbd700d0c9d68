"""Tests of the PPGT model (wltools.models.ppgt), PPGT paper Sec. 3, App. A.2, C."""

import math
import re

import networkx as nx
import pytest
import torch
import torch.nn.functional as F

from wltools.models import create_model, create_transform
from wltools.models.ppgt import PPGT, PRESETS, PPGTConfig, sinusoidal_pe
from wltools.models.registry import model_config


def test_brec_preset_parameter_count():
    """PPGT Table 8 reports about 874K parameters for the BREC configuration."""
    m = create_model("ppgt", "brec")
    assert abs(m.num_parameters() - 874_000) / 874_000 < 0.05, m.num_parameters()
    assert m.num_parameters() == sum(p.numel() for p in m.parameters())
    c = m.config
    assert (c.dim, c.num_layers, c.num_heads, c.pe_hidden, c.pe_ffn, c.spe_bases) == (
        96, 6, 16, 192, 4, 15
    )
    assert c.rrwp_steps + 1 == 33 and c.out_dim == 16 and c.urpe and c.attention == "sl2"
    assert repr(create_transform("ppgt", "brec")).startswith("AddRRWP(walk_length=33,")


def test_urpe_switch_changes_parameters_by_phi():
    c = model_config("ppgt", "small")
    with_u = create_model("ppgt", "small").num_parameters()
    without = create_model("ppgt", "small", urpe=False).num_parameters()
    assert with_u - without == c.num_layers * (c.dim * c.num_heads + c.num_heads)


def test_sinusoidal_pe_eq9():
    p = torch.tensor([[0.25, 0.5]], dtype=torch.float64)
    out = sinusoidal_pe(p, 3)
    assert out.shape == (1, 2 * 7)
    v = 0.25
    expect = [v] + [f(2**s * math.pi * v) for s in range(3) for f in (math.sin, math.cos)]
    assert torch.allclose(out[0, :7], torch.tensor(expect, dtype=torch.float64))
    assert torch.equal(sinusoidal_pe(p, 0), p)


def test_bad_config_values():
    for bad in (dict(attention="cosine"), dict(norm="groupnorm"), dict(num_heads=5),
                dict(pooling="max"), dict(sl2_form="query")):
        with pytest.raises(ValueError):
            create_model("ppgt", "small", **bad)


ABLATIONS = [("sl2", "adarmsnorm", True), ("sl2", "adarmsnorm", False),
             ("sdp", "adarmsnorm", True), ("sdp", "adarmsnorm", False)] + [
    ("sl2", norm, True) for norm in ("rmsnorm", "layernorm", "batchnorm")
]


# Parameters with a zero gradient whatever the data: theta's bias adds one constant per head to
# every attention logit (the softmax ignores it); the head's last bias comes right before the output
# batch norm, which subtracts the batch mean.
NO_GRADIENT = [r"blocks\.\d+\.attn\.theta\.bias", r"head\.linears\.2\.bias"]
# With norm="batchnorm" every norm removes the batch mean, so biases that shift every token of a
# stream alike (before a norm, or along a residual stream that ends in a norm) get none either.
NO_GRADIENT_BATCHNORM = [r"(node_fc|diag_fc|norm_in)\.bias", r"pe_stem\.mlp\.linears\.1\.bias",
                         r"pe_stem\.ffns\.\d+\.mlp\.linears\.1\.bias",
                         r"blocks\.\d+\.(attn\.out|ffn\.mlp\.linears\.1)\.bias"]


@pytest.mark.parametrize("attention,norm,urpe", ABLATIONS)
def test_ablation_switches_run_and_train_every_parameter(attention, norm, urpe, helpers):
    kw = dict(attention=attention, norm=norm, urpe=urpe, num_layers=1, pe_ffn=1, spe_bases=2)
    torch.manual_seed(0)
    m = create_model("ppgt", "small", **kw).double().train()
    b = helpers.batch("ppgt", [nx.cycle_graph(5), nx.path_graph(3), nx.empty_graph(2)], dtype=torch.float64, **kw)
    out = m(b)
    assert out.shape == (3, 16) and torch.isfinite(out).all()
    # a random direction (out.sum() would vanish through the output batch norm)
    out.mul(torch.randn(out.shape, generator=torch.Generator().manual_seed(1), dtype=out.dtype)).sum().backward()
    exempt = NO_GRADIENT + (NO_GRADIENT_BATCHNORM if norm == "batchnorm" else [])
    names = [name for name, _ in m.named_parameters()]
    assert all(any(re.fullmatch(pattern, name) for name in names) for pattern in exempt)  # none stale
    for name, p in m.named_parameters():
        if any(re.fullmatch(pattern, name) for pattern in exempt):
            assert p.grad is None or p.grad.abs().max() < 1e-10, f"{name}: exempt but has a gradient"
        else:
            assert p.grad is not None and torch.isfinite(p.grad).all(), name
            assert p.grad.abs().max() > 1e-8, f"{name}: zero gradient"


@pytest.mark.parametrize("urpe", [True, False])
def test_sl2_forms_give_the_same_model(urpe, helpers):
    torch.manual_seed(0)
    a = create_model("ppgt", "small", urpe=urpe).double().eval()
    b = create_model("ppgt", "small", urpe=urpe, sl2_form="key").double().eval()
    b.load_state_dict(a.state_dict())
    batch = helpers.batch("ppgt", [nx.cycle_graph(6), nx.petersen_graph(), nx.path_graph(2)])
    assert torch.allclose(a(batch), b(batch), atol=1e-10)


def test_batched_equals_one_graph_at_a_time(helpers):
    """Dense padding must not leak between graphs of different sizes (eval mode)."""
    torch.manual_seed(0)
    m = create_model("ppgt", "small").double().eval()
    graphs = [nx.cycle_graph(6), nx.petersen_graph(), nx.path_graph(2)]
    together = m(helpers.batch("ppgt", graphs))
    alone = torch.cat([m(helpers.batch("ppgt", [G])) for G in graphs])
    assert torch.allclose(together, alone, atol=1e-10)


def test_reset_parameters_is_deterministic_and_init_follows_app_c2():
    m = create_model("ppgt", "small")
    torch.manual_seed(3)
    m.reset_parameters()
    a = {k: v.clone() for k, v in m.state_dict().items()}
    for p in m.parameters():
        p.data.add_(1.0)
    torch.manual_seed(3)
    m.reset_parameters()
    assert all(torch.equal(a[k], v) for k, v in m.state_dict().items())
    blk = m.blocks[0]
    w = blk.attn.qkv.weight.detach()
    assert float(w.std()) < 0.03 and float(w.abs().max()) <= 0.04  # trunc. normal, std 0.02
    assert torch.equal(blk.norm.alpha, torch.zeros_like(blk.norm.alpha))  # AdaRMSN init, Eq. 3
    assert torch.equal(blk.norm.beta, torch.ones_like(blk.norm.beta))


def test_learns_to_separate_c6_from_two_triangles(helpers):
    """C6 and 2 x C3 are 1-WL-equivalent but RRWP (hence PPGT) separates them (PPGT Sec. 3.5).

    RPC-style training: 8 relabelings of each graph, CosineEmbeddingLoss(margin 0, target -1),
    Adam(lr 1e-3); within 100 steps the eval-mode mean cosine similarity of the pairs must drop
    below -0.5 (it starts near +1: untrained embeddings of similar graphs are aligned).
    """
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    graphs = [X for _ in range(8) for X in (helpers.relabel(G, gen), helpers.relabel(H, gen))]
    b = helpers.batch("ppgt", graphs)
    m = create_model("ppgt", "small")
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)
    loss_fn = torch.nn.CosineEmbeddingLoss(margin=0.0)
    with torch.no_grad():
        o = m.eval()(b)
    start = F.cosine_similarity(o[0::2], o[1::2]).mean().item()
    cos = start
    for step in range(1, 101):
        m.train()
        out = m(b)
        loss = loss_fn(out[0::2], out[1::2], -torch.ones(8))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            with torch.no_grad():
                o = m.eval()(b)
            cos = F.cosine_similarity(o[0::2], o[1::2]).mean().item()
            if cos < -0.5:
                break
    assert start > 0.5
    assert cos < -0.5, f"mean cosine {cos:.3f} after {step} steps"


def test_presets_are_config_fields():
    fields = set(PPGTConfig.__dataclass_fields__)
    for preset in PRESETS.values():
        assert set(preset) <= fields
    assert isinstance(create_model("ppgt", "small"), PPGT)


def test_brec_preset_relabelling_invariance_float64(helpers):
    """The full BREC configuration on a 10-node Basic-size graph: invariant in float64."""
    torch.manual_seed(0)
    m = create_model("ppgt", "brec").double().eval()
    G = nx.lollipop_graph(6, 4)
    gen = torch.Generator().manual_seed(1)
    graphs = [G, helpers.relabel(G, gen), helpers.relabel(G, gen)]
    b = helpers.batch("ppgt", graphs, "brec")
    b.x, b.rrwp = b.x.double(), b.rrwp.double()
    with torch.no_grad():
        out = m(b)
    assert torch.allclose(out[1:], out[:1].expand(2, -1), atol=1e-6, rtol=0)
    with torch.no_grad():
        single = m(create_transform("ppgt", "brec")(helpers.data(G)))  # a plain Data, not a Batch
    assert torch.allclose(single.double(), out[:1], atol=1e-5)
