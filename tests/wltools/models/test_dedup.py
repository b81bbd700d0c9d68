"""Distinct-row PE stems (``dedup_stem``) and the mask-free full-layout path: same outputs and
gradients as the plain paths (issue 17 items 1-2), on real BREC pairs (a CFI pair included) and on
random graphs of mixed sizes (padding)."""

import networkx as nx
import pytest
import torch
from torch.func import functional_call, stack_module_state, vmap
from torch_geometric.data import Batch

from brec_runner.runs.dataset import load_pairs, relabelings, to_pyg
from wltools.models import create_model, create_transform
from wltools.models.encodings import (
    AddRRWP,
    PairPlan,
    full_pair_index,
    is_full_layout,
    pair_plan,
    to_dense_pair,
    unique_rows,
)

DEDUP_MODELS = ["ppgt", "grit"]
# a CFI pair (the smallest, 18 nodes: few distinct RRWP rows), a Basic and a strongly regular pair
PAIR_IDS = [265, 0, 110]


def _pair_batch(name: str, pid: int, num: int = 4, seed: int = 0) -> Batch:
    pair = load_pairs(ids=[pid])[0]
    tf = create_transform(name, "small")
    return Batch.from_data_list([tf(to_pyg(G)) for G in relabelings(pair, seed=seed, num=num)[:num]])


def _random_batch(name: str) -> Batch:
    """Random graphs of different sizes: padding, so the masked layout."""
    graphs = [nx.gnp_random_graph(n, 0.4, seed=n) for n in (7, 5, 9)]
    tf = create_transform(name, "small")
    return Batch.from_data_list([tf(to_pyg(G)) for G in graphs])


def _run(name, batch, dedup: bool, full_layout: bool = True):
    """Outputs and gradients (float64, train mode, random node features, random direction)."""
    torch.manual_seed(0)
    m = create_model(name, "small", dedup_stem=dedup).double().train()
    m.full_layout = full_layout
    b = batch.clone()
    b.rrwp = b.rrwp.double()
    b.x = torch.rand(b.x.shape, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    out = m(b)
    w = torch.randn(out.shape, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    (out * w).sum().backward()
    grads = {n: p.grad for n, p in m.named_parameters() if p.grad is not None}
    return out.detach(), grads


def _assert_same(a, b, exact: bool = False):
    out_a, g_a = a
    out_b, g_b = b
    assert g_a.keys() == g_b.keys() and g_a
    if exact:
        assert torch.equal(out_a, out_b)
        for n in g_a:
            assert torch.equal(g_a[n], g_b[n]), n
        return
    torch.testing.assert_close(out_b, out_a, rtol=1e-12, atol=1e-12)
    # float summation order only: relative to the largest gradient (parameters right before a batch
    # norm have an analytic gradient of zero, so only rounding noise, on both sides)
    scale = max(g.abs().max().item() for g in g_a.values())
    for n in g_a:
        torch.testing.assert_close(g_b[n], g_a[n], rtol=1e-9, atol=1e-11 * scale, msg=n)


@pytest.mark.parametrize("name", DEDUP_MODELS)
@pytest.mark.parametrize("pid", PAIR_IDS)
def test_dedup_stem_equals_plain_stem_on_brec_pairs(name, pid):
    batch = _pair_batch(name, pid)
    plan = pair_plan(batch.rrwp, batch.pair_index, batch.batch, batch.num_graphs,
                     int(batch.num_nodes // batch.num_graphs))
    assert plan.full and plan.rows.numel() < batch.rrwp.shape[0] // 2  # the shortcut is real here
    _assert_same(_run(name, batch, dedup=False), _run(name, batch, dedup=True))


@pytest.mark.parametrize("name", DEDUP_MODELS)
def test_dedup_stem_equals_plain_stem_with_padding(name):
    batch = _random_batch(name)
    assert not pair_plan(None, batch.pair_index, batch.batch, 3, 9).full
    _assert_same(_run(name, batch, dedup=False), _run(name, batch, dedup=True))


@pytest.mark.parametrize("name", DEDUP_MODELS)
@pytest.mark.parametrize("dedup", [False, True])
def test_mask_free_full_layout_is_bit_identical_to_the_masked_path(name, dedup):
    batch = _pair_batch(name, 265)
    _assert_same(_run(name, batch, dedup, full_layout=False), _run(name, batch, dedup, full_layout=True),
                 exact=True)


@pytest.mark.parametrize("name", DEDUP_MODELS)
def test_dedup_off_where_stem_rows_interact(name):
    """PPGT: a batch-norm stem or stem dropout in training mixes rows, so dedup must not run."""
    if name != "ppgt":
        pytest.skip("GRIT's stem is one linear map: always row-wise")
    m = create_model("ppgt", "small", norm="batchnorm")
    assert not m.train()._dedup_active()
    m = create_model("ppgt", "small", dropout=0.1)
    assert not m.train()._dedup_active() and m.eval()._dedup_active()
    assert not create_model("ppgt", "small", dedup_stem=False)._dedup_active()


@pytest.mark.parametrize("name", DEDUP_MODELS)
def test_stored_plan_applies_only_to_its_own_tensors(name):
    m = create_model(name, "small").eval()
    a = m.prepare_batch(_pair_batch(name, 265))
    other = _pair_batch(name, 0)
    attr = f"{name}_plan"
    assert isinstance(getattr(a, attr), PairPlan)
    setattr(other, attr, getattr(a, attr))  # a plan of other data: ignored, not misread
    with torch.no_grad():
        assert torch.equal(m(other), m(_pair_batch(name, 0)))
        assert torch.equal(m(a), m(_pair_batch(name, 265)))


@pytest.mark.parametrize("name", DEDUP_MODELS)
def test_vmap_over_units_with_different_data(name):
    """Under vmap with per-unit data (multi-pair mode over several pairs) no distinct rows can be
    taken; the model runs the plain stem and gives the one-unit results."""
    ms = [create_model(name, "small").eval() for _ in range(2)]
    for k, m in enumerate(ms):
        torch.manual_seed(k)
        m.reset_parameters()
    params, buffers = stack_module_state(ms)
    tf = create_transform(name, "small")
    rel = relabelings(load_pairs(ids=[0])[0], seed=0, num=4)  # G, H, G', H' of one Basic pair
    batches = [Batch.from_data_list([tf(to_pyg(G)) for G in graphs]) for graphs in (rel[:2], rel[3:1:-1])]
    template = batches[0]
    stacked = {k: torch.stack([b[k] for b in batches]) for k in ("rrwp", "edge_index")}
    assert not torch.equal(stacked["rrwp"][0], stacked["rrwp"][1])

    def one(p, bf, data):
        b = template.clone()
        for key, val in data.items():
            b[key] = val
        return functional_call(ms[0], (p, bf), (b,))

    with torch.no_grad():
        out = vmap(one, randomness="different")(params, buffers, stacked)
        for k, m in enumerate(ms):
            torch.testing.assert_close(out[k], m(batches[k]), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", DEDUP_MODELS)
@pytest.mark.parametrize("prepared", [False, True])
def test_vmap_over_parameters_with_shared_data_keeps_dedup(name, prepared):
    """Several seeds of one pair (multi-pair mode): data shared, parameters vmapped; the distinct
    rows are taken inside vmap (unprepared batch) or read from the stored plan."""
    ms = [create_model(name, "small", dedup_stem=True).eval() for _ in range(2)]
    for k, m in enumerate(ms):
        torch.manual_seed(k)
        m.reset_parameters()
    params, buffers = stack_module_state(ms)
    batch = _pair_batch(name, 265, 2)
    if prepared:
        batch = ms[0].prepare_batch(batch)
    with torch.no_grad():
        out = vmap(lambda p, bf: functional_call(ms[0], (p, bf), (batch,)))(params, buffers)
        for k, m in enumerate(ms):
            torch.testing.assert_close(out[k], m(batch), rtol=1e-5, atol=1e-6)


def test_unique_rows_is_exact():
    g = torch.Generator().manual_seed(0)
    base = torch.randn(7, 5, generator=g)
    x = base[torch.randint(0, 7, (200,), generator=g)]
    rows, inverse = unique_rows(x)
    assert rows.numel() == 7 and torch.equal(x[rows][inverse], x)
    r2, i2 = unique_rows(x.clone())
    assert torch.equal(r2, rows) and torch.equal(i2, inverse)
    # signed zeros are different bits: kept apart (exact on the values as stored)
    z = torch.tensor([[0.0, 1.0], [-0.0, 1.0], [0.0, 1.0]])
    rows, inverse = unique_rows(z)
    assert rows.numel() == 2 and inverse[0] == inverse[2] != inverse[1]
    # rows are compared bitwise: equal NaN rows are one row
    n = torch.tensor([[float("nan"), 1.0], [2.0, 3.0], [float("nan"), 1.0]])
    rows, inverse = unique_rows(n)
    assert rows.numel() == 2 and torch.allclose(n[rows][inverse], n, equal_nan=True)
    e_rows, e_inv = unique_rows(torch.zeros(0, 3))
    assert e_rows.numel() == 0 and e_inv.numel() == 0


def test_unique_rows_survives_hash_collisions(monkeypatch):
    """Force every row into one hash class: the exact fallback must still separate them."""
    import wltools.models.encodings as enc

    monkeypatch.setattr(enc, "_hash_weights", lambda num, device: torch.zeros(num, dtype=torch.int64))
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [1.0, 2.0], [5.0, 6.0]])
    rows, inverse = unique_rows(x)
    assert rows.numel() == 3 and torch.equal(x[rows][inverse], x)


def test_full_layout_and_dense_view():
    datas = [AddRRWP(3)(to_pyg(nx.cycle_graph(4))), AddRRWP(3)(to_pyg(nx.path_graph(4)))]
    b = Batch.from_data_list(datas)
    assert is_full_layout(b.pair_index, 8, 2, 4)
    assert not is_full_layout(b.pair_index.flip(1), 8, 2, 4)  # same pairs, other order
    assert not is_full_layout(b.pair_index, 8, 2, 5)
    view = to_dense_pair(b.rrwp, b.pair_index, b.batch, 2, 4, full=True)
    assert torch.equal(view, to_dense_pair(b.rrwp, b.pair_index, b.batch, 2, 4))
    mixed = Batch.from_data_list([AddRRWP(3)(to_pyg(nx.cycle_graph(4))), AddRRWP(3)(to_pyg(nx.path_graph(3)))])
    assert not is_full_layout(mixed.pair_index, 7, 2, 4)
    assert is_full_layout(full_pair_index(1), 1, 1, 1)
