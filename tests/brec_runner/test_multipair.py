"""Multi-pair mode (brec_runner.multipair) gives the verdicts of the one-pair loop."""

import math
import warnings

import pytest
import torch
from torch import nn
from torch_geometric.transforms import BaseTransform

from brec_runner import dataset
from brec_runner.multipair import evaluate_units, shape_signature, train_and_test_group
from brec_runner.rpc import Protocol, evaluate_pair


class TriangleFeature(BaseTransform):
    def forward(self, data):
        n = data.num_nodes
        A = torch.zeros(n, n)
        A[data.edge_index[0], data.edge_index[1]] = 1.0
        data.x = torch.cat([data.x, (torch.diagonal(A @ A @ A) / 2)[:, None]], dim=1)
        return data


class Tiny(nn.Module):
    """Sum aggregation, BatchNorm (a buffer that moves in training) and sum pooling."""

    def __init__(self, hidden=16, out_dim=16):
        super().__init__()
        self.lin1, self.lin2, self.out = nn.Linear(2, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, out_dim)
        self.norm = nn.BatchNorm1d(hidden)

    def reset_parameters(self):
        for m in (self.lin1, self.lin2, self.out, self.norm):
            m.reset_parameters()

    def forward(self, batch):
        ei = batch.edge_index
        h = torch.relu(self.norm(self.lin1(batch.x)))
        h = torch.tanh(self.lin2(h + torch.zeros_like(h).index_add(0, ei[1], h[ei[0]])))
        return self.out(torch.zeros(batch.num_graphs, h.shape[-1]).index_add(0, batch.batch, h))


class NoVmap(Tiny):
    def forward(self, batch):
        out = super().forward(batch)
        if out.abs().sum().item() < 0:  # a Python value of a batched tensor: not allowed under vmap
            raise AssertionError
        return out


def _units(pids, seeds, protocol):
    tf = TriangleFeature()
    out = []
    for pid in pids:
        pair = dataset.load_pairs(ids=[pid])[0]
        g = [tf(dataset.to_pyg(x)) for x in dataset.relabelings(pair, 0, protocol.num_relabelings)]
        r = [tf(dataset.to_pyg(x)) for x in dataset.reliability_set(pair, 0, protocol.reliability_size)]
        out += [(pid, s, g, r) for s in seeds]
    return out


def _check_same(multi, single, rtol=1e-4):
    """Same verdicts and epochs; final losses equal up to float reassociation, which Adam's
    g / sqrt(v) amplifies over epochs at large learning rates (measured: 1e-8 after 2 epochs,
    ~1e-4..1e-3 after 4-6 epochs at lr 3e-3)."""
    assert [(o.id, o.seed) for o in multi] == [(o.id, o.seed) for o in single]
    for m, s in zip(multi, single):
        assert (m.distinguished, m.reliable, m.epochs) == (s.distinguished, s.reliable, s.epochs), (m, s)
        assert math.isclose(m.final_loss, s.final_loss, rel_tol=rtol, abs_tol=1e-6)


PROTOCOLS = {
    "published": Protocol(epochs=4),
    # PPGT-like: AdamW, warm-up + cosine, gradient clipping, no early stop
    "ppgt-like": Protocol(epochs=4, optimizer="adamw", lr=1e-3, weight_decay=1e-5, scheduler="cosine",
                          warmup_epochs=2, min_lr=7e-5, loss_threshold=0.0, grad_clip=0.5),
    # early stop at different epochs for different units (frozen parameters and BatchNorm buffers)
    "early-stop": Protocol(epochs=6, lr=3e-3, loss_threshold=0.55),
}


@pytest.mark.parametrize("name", list(PROTOCOLS))
def test_group_matches_single_loop(name):
    protocol = PROTOCOLS[name]
    units = _units([10], [0, 1, 2, 3], protocol)
    model = Tiny()
    multi = train_and_test_group(model, units, protocol)
    single = [evaluate_pair(model, pid, g, r, protocol, s) for pid, s, g, r in units]
    _check_same(multi, single, rtol=1e-2 if name == "early-stop" else 1e-4)
    assert all(o.mode == "multipair:4" for o in multi)
    if name == "early-stop":
        assert len({o.epochs for o in single}) > 1, "the case should stop units at different epochs"


def test_evaluate_units_groups_by_shape_and_keeps_every_unit():
    protocol = Protocol(epochs=1)
    units = _units([0, 1, 22], [0, 1], protocol)  # 0 and 22: same size (10 nodes, 26 edges), 1 another
    sigs = {shape_signature(g, r, protocol) for _, _, g, r in units}
    model = Tiny()
    out = list(evaluate_units(model, units, protocol, group_size=4))
    assert sorted((o.id, o.seed) for o in out) == sorted((u[0], u[1]) for u in units)
    single = {(o.id, o.seed): o for o in (evaluate_pair(model, p, g, r, protocol, s) for p, s, g, r in units)}
    _check_same(out, [single[(o.id, o.seed)] for o in out])
    assert len(sigs) == 2
    assert sorted(o.mode for o in out).count("single") <= 2


@pytest.mark.parametrize("max_nodes,batch_size", [(None, None), (2, None), (None, 5), (3, 4)])
def test_vmap_safe_to_dense_batch_equals_pyg(max_nodes, batch_size):
    from torch_geometric.utils import to_dense_batch

    from brec_runner.multipair import _to_dense_batch

    gen = torch.Generator().manual_seed(0)
    x = torch.randn(9, 3, generator=gen)
    batch = torch.tensor([0, 0, 0, 1, 1, 3, 3, 3, 3])
    a = to_dense_batch(x, batch, fill_value=-1.0, max_num_nodes=max_nodes, batch_size=batch_size)
    b = _to_dense_batch(x, batch, fill_value=-1.0, max_num_nodes=max_nodes, batch_size=batch_size)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    # and it runs under vmap with batched x (PyG's in-place write does not)
    xs = torch.stack([x, 2 * x])
    out, _ = torch.func.vmap(lambda t: _to_dense_batch(t, batch, max_num_nodes=max_nodes, batch_size=batch_size))(xs)
    assert torch.equal(out[1], 2 * out[0])


def test_fallback_for_models_vmap_cannot_run():
    protocol = Protocol(epochs=1)
    units = _units([3], [0, 1], protocol)
    model = NoVmap()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = list(evaluate_units(model, units, protocol, group_size=2))
    assert any("falling back to the one-pair loop" in str(w.message) for w in caught)
    assert all(o.mode == "single-fallback" for o in out)
    single = [evaluate_pair(model, p, g, r, protocol, s) for p, s, g, r in units]
    _check_same(out, single)
    assert [o.t2_pair for o in out] == [o.t2_pair for o in single]
