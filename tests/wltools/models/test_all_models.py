"""One parametrised test file over every registered model (timm style): the shared interface.

Covers whatever :func:`wltools.models.list_models` returns when the tests are collected, so a new
model file is tested without an edit here (unless some of its parameters legitimately get no
gradient: :data:`NO_GRADIENT` says which and why). Each model must declare the class attribute
``invariant_encodings`` (True when every encoding it uses is a function of the graph, so its graph
embedding is invariant to node relabelling; False e.g. for Laplacian-eigenvector PE, whose
eigenvector signs and bases depend on the labelling; that model tests its own behaviour).
"""

import re

import networkx as nx
import pytest
import torch

from wltools.graphs import named_graph
from wltools.models import create_model, create_transform, list_models, transform_key
from wltools.models.embedder import GraphEmbedder
from wltools.models.registry import _spec

MODELS = list_models()
INVARIANT = [name for name in MODELS if _spec(name).model_cls.invariant_encodings]

# Parameters of the "small" presets whose gradient is zero whatever the data, with the reason;
# every other parameter must get a finite, non-zero gradient (test_every_parameter_gets_a_gradient).
# A bias added to every token right before a batch norm is removed with the batch mean.
NO_GRADIENT = {
    "graph_transformer": [
        r"blocks\.\d+\.(O_h|ffn_h\.3)\.bias",  # before norm1_h / norm2_h (batch norm)
    ],
    "graphormer": [],
    "grit": [
        r"blocks\.\d+\.(attn\.W_Eo|ffn\.3)\.bias",  # before norm1_e / norm2_x (batch norm)
        r"blocks\.2\.(attn\.W_Eo|norm1_e)\..+",  # the last layer's pair update (of 3) is never read
    ],
    "ppgt": [
        r"blocks\.\d+\.attn\.theta\.bias",  # one constant per head on every logit: softmax ignores it
        r"head\.linears\.2\.bias",  # before the output batch norm (head_batchnorm)
    ],
    "sgformer": [
        r"(f_in|convs\.\d+)\.bias",  # before bn_in / bns.k (batch norm)
        r"f_v\.bias",  # rows of the attention sum to one, so it shifts every token alike; then bn_attn
    ],
}


def _graphs() -> list[nx.Graph]:
    # different sizes (padding), an asymmetric graph, a disconnected one, a molecule, a
    # vertex-transitive graph
    return [
        nx.lollipop_graph(4, 3),
        nx.cycle_graph(5),
        nx.disjoint_union(nx.path_graph(3), nx.cycle_graph(3)),
        nx.gnp_random_graph(8, 0.4, seed=3),
        named_graph("decalin"),
        nx.petersen_graph(),
    ]


def _float64_model(name: str):
    """The ``small`` preset of ``name`` in float64 and eval mode, parameters drawn under seed 0."""
    torch.manual_seed(0)
    return create_model(name, "small").double().eval()


def _batch64(helpers, name: str, graphs, **kw):
    """The float64 batch of ``graphs`` for ``name``, edges sorted (one summation order)."""
    return helpers.batch(name, graphs, dtype=torch.float64, sort_edges=True, **kw)


def _float64_reference(helpers, name: str):
    """``(model, graphs, output)``: :func:`_float64_model` and its CPU output on :func:`_graphs`."""
    m, graphs = _float64_model(name), _graphs()
    with torch.no_grad():
        return m, graphs, m(_batch64(helpers, name, graphs))


def test_models_are_registered():
    assert {"graph_transformer", "graphormer", "grit", "ppgt", "sgformer"} <= set(MODELS)
    assert MODELS == sorted(MODELS)
    assert all(issubclass(_spec(name).model_cls, GraphEmbedder) for name in MODELS)


def test_only_the_lappe_model_declares_labelling_dependent_encodings():
    # a model flipping its flag would silently drop out of the invariance test below
    assert set(MODELS) - set(INVARIANT) == {"graph_transformer"}


@pytest.mark.parametrize("name", MODELS)
def test_interface(name, helpers):
    spec = _spec(name)
    assert {"brec", "small"} <= set(spec.presets)
    torch.manual_seed(0)
    m = create_model(name, "small")
    assert isinstance(m.config, spec.config_cls)
    assert isinstance(type(m).invariant_encodings, bool), "declare invariant_encodings"
    assert m.num_parameters() == sum(p.numel() for p in m.parameters() if p.requires_grad) > 0
    assert type(m).__name__ in repr(m)
    assert transform_key(name, "small") == repr(create_transform(name, "small"))
    m.eval()
    graphs = _graphs()
    out = m(helpers.batch(name, graphs, dtype=torch.float32, sort_edges=True))
    assert out.shape == (len(graphs), m.config.out_dim)
    assert torch.isfinite(out).all()


@pytest.mark.parametrize("name", MODELS)
def test_every_parameter_gets_a_gradient(name, helpers):
    """Train mode, float64: every parameter gets a finite non-zero gradient, except those of
    :data:`NO_GRADIENT`, whose gradient is zero (or None). Random node features, so that no
    gradient vanishes only because every node of a graph looks alike (BREC's constant features)."""
    m = _float64_model(name).train()
    b = _batch64(helpers, name, _graphs())
    b.x = torch.rand(b.x.shape, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    out = m(b)
    weights = torch.randn(out.shape, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    (out * weights).sum().backward()  # a random direction: no loss-specific cancellation
    exempt = [re.compile(p) for p in NO_GRADIENT.get(name, [])]
    names = [n for n, _ in m.named_parameters()]
    for pattern in exempt:  # each exemption names some parameter (no stale entry)
        assert any(pattern.fullmatch(n) for n in names), pattern.pattern
    for n, p in m.named_parameters():
        if any(pattern.fullmatch(n) for pattern in exempt):
            assert p.grad is None or p.grad.abs().max() < 1e-10, f"{n}: exempt but has a gradient"
        else:
            assert p.grad is not None, f"{n}: no gradient"
            assert torch.isfinite(p.grad).all(), f"{n}: non-finite gradient"
            assert p.grad.abs().max() > 1e-8, f"{n}: zero gradient"


@pytest.mark.parametrize("name", INVARIANT)
def test_relabelling_invariance_float64(name, helpers):
    m, graphs, ref = _float64_reference(helpers, name)
    with torch.no_grad():
        for seed in (1, 2):
            moved = m(_batch64(helpers, name, [helpers.relabel(G, seed + 10 * k) for k, G in enumerate(graphs)]))
            assert torch.allclose(moved, ref, atol=1e-6, rtol=0), (moved - ref).abs().max()
    # and the embedding is not constant: the test could fail
    assert (ref[0] - ref[1]).abs().max() > 1e-6


@pytest.mark.parametrize("name", MODELS)
def test_reset_parameters_restores_determinism(name, helpers):
    m = create_model(name, "small")
    b = helpers.batch(name, _graphs(), dtype=torch.float32, sort_edges=True)
    torch.manual_seed(7)
    m.reset_parameters()
    state = {k: v.clone() for k, v in m.state_dict().items()}
    with torch.no_grad():
        out = m.eval()(b)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(0.5)
    m.train()(b)  # moves batch-norm running statistics too
    torch.manual_seed(7)
    m.reset_parameters()
    for k, v in m.state_dict().items():
        assert torch.equal(v, state[k]), k
    with torch.no_grad():
        assert torch.equal(m.eval()(b), out)
    torch.manual_seed(8)
    m.reset_parameters()
    assert any(not torch.equal(v, state[k]) for k, v in m.state_dict().items())


@pytest.mark.parametrize("name", MODELS)
def test_prepared_batch_gives_identical_outputs_and_gradients(name, helpers):
    """``prepare_batch`` (data-only inputs stored on a batch reused every epoch) changes nothing."""
    m = create_model(name, "small")
    plain = helpers.batch(name, _graphs(), dtype=torch.float32, sort_edges=True)
    prepared = m.prepare_batch(helpers.batch(name, _graphs(), dtype=torch.float32, sort_edges=True))
    results = []
    for b in (plain, prepared, prepared):  # the prepared batch twice: the stored tensors are not consumed
        torch.manual_seed(3)
        m.reset_parameters()
        m.train()
        out = m(b)  # dropout draws from the same seed
        out.pow(2).sum().backward()
        with torch.no_grad():
            ev = m.eval()(b)
        results.append((out.detach(), ev, [p.grad.clone() for p in m.parameters() if p.grad is not None]))
        m.zero_grad(set_to_none=True)
    assert results[0][2], "no parameter got a gradient"
    for out, ev, grads in results[1:]:
        assert torch.equal(out, results[0][0]) and torch.equal(ev, results[0][1])
        assert len(grads) == len(results[0][2]) and all(torch.equal(a, b) for a, b in zip(grads, results[0][2]))


def test_ppgt_prepares_its_sinusoidal_pe_within_the_size_limit(helpers):
    """Without ``dedup_stem`` (the plain stem on every pair) ``prepare_batch`` stores SPE."""
    m = create_model("ppgt", "small", dedup_stem=False)
    b = m.prepare_batch(helpers.batch("ppgt", _graphs(), dtype=torch.float32, sort_edges=True))
    c = m.config
    assert b.ppgt_spe.shape == (b.rrwp.shape[0], c.pair_channels * (1 + 2 * c.spe_bases))
    m.prepare_max_bytes = b.ppgt_spe.numel() * 4 - 1  # one byte too small: not stored
    assert not hasattr(m.prepare_batch(helpers.batch("ppgt", _graphs(), sort_edges=True)), "ppgt_spe")
    # a stored SPE of other settings is ignored, not misread
    other = create_model("ppgt", "small", spe_bases=2, dedup_stem=False)
    torch.manual_seed(0)
    other.reset_parameters()
    with torch.no_grad():
        assert torch.equal(other.eval()(b), other(helpers.batch("ppgt", _graphs(), sort_edges=True)))
        # and forward does read the stored tensor (so the identity test above is not vacuous)
        ref = m.eval()(b)
        b.ppgt_spe.zero_()
        assert not torch.equal(m(b), ref)


def test_ppgt_with_dedup_prepares_a_plan_not_the_spe(helpers):
    """With ``dedup_stem`` (default) SPE runs on the distinct rows only; the batch stores the plan."""
    m = create_model("ppgt", "small")
    b = m.prepare_batch(helpers.batch("ppgt", _graphs(), dtype=torch.float32, sort_edges=True))
    assert not hasattr(b, "ppgt_spe") and b.ppgt_plan.rows is not None
    with torch.no_grad():  # forward reads the stored plan: a corrupted one changes the output
        ref = m.eval()(b)
        b.ppgt_plan.values.zero_()
        assert not torch.equal(m(b), ref)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
@pytest.mark.parametrize("name", MODELS)
def test_cuda_matches_cpu(name, helpers):
    m, graphs, cpu = _float64_reference(helpers, name)
    with torch.no_grad():
        gpu = m.cuda()(_batch64(helpers, name, graphs, device="cuda"))
    assert gpu.device.type == "cuda"
    assert torch.allclose(gpu.cpu(), cpu, atol=1e-6)
    m.train()(_batch64(helpers, name, graphs, device="cuda")).sum().backward()
    grads = [p.grad for p in m.parameters() if p.grad is not None]
    assert grads and all(g.is_cuda for g in grads)
