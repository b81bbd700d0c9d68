"""RPC protocol (brec_runner.runs.rpc): T² statistic and threshold, decision, schedules, determinism."""

import math

import numpy as np
import pytest
import torch
from torch import nn

from brec_runner.runs import dataset
from brec_runner.runs.protocol import Protocol, t2_threshold
from brec_runner.runs.rpc import (
    PlateauState,
    UnitTimer,
    couple_loss,
    decide,
    evaluate_pair,
    fresh_parameters,
    lr_at_epoch,
    pair_seed,
    t2_statistic,
    train_pair,
)


def _pair_data(pid, tf, protocol=Protocol()):
    pair = dataset.load_pairs(ids=[pid])[0]
    g = [tf(dataset.to_pyg(x)) for x in dataset.relabelings(pair, protocol.relabel_seed, protocol.num_relabelings)]
    r = [tf(dataset.to_pyg(x)) for x in dataset.reliability_set(pair, protocol.relabel_seed, protocol.reliability_size)]
    return g, r


def test_threshold_reproduces_published_value():
    assert round(t2_threshold(32, 16, 0.95), 2) == 72.34
    assert round(Protocol().threshold, 2) == 72.34
    # Hotelling's critical value falls with more observations and rises with the dimension
    assert t2_threshold(64, 16) < t2_threshold(32, 16) < t2_threshold(32, 24)
    # d = 1: T² = t², so the critical value is F(1, q-1) = t²_{q-1}
    from scipy.stats import t as t_dist

    assert math.isclose(t2_threshold(32, 1, 0.95), t_dist.ppf(0.975, 31) ** 2, rel_tol=1e-9)
    with pytest.raises(ValueError):
        t2_threshold(16, 16)


def _numpy_t2(x, y):
    d = (x - y).T  # [d, q]
    mean = d.mean(axis=1, keepdims=True)
    cov = np.cov(d)
    return (mean.T @ np.linalg.pinv(cov) @ mean).item()


@pytest.mark.parametrize("q,d", [(32, 16), (8, 16), (40, 3)])
def test_t2_matches_numpy(q, d):
    rng = np.random.default_rng(q * 100 + d)
    x = rng.normal(size=(q, d))
    y = x + rng.normal(0.3, 1.0, size=(q, d))
    ours = t2_statistic(torch.from_numpy(x), torch.from_numpy(y), dtype=torch.float64)
    assert math.isclose(ours, _numpy_t2(x, y), rel_tol=1e-7)
    # the statistic only sees the differences, and does not depend on the order of the couples
    perm = rng.permutation(q)
    assert math.isclose(t2_statistic(torch.from_numpy(x[perm]), torch.from_numpy(y[perm]), dtype=torch.float64),
                        ours, rel_tol=1e-7)


def test_t2_of_identical_outputs_is_zero():
    x = torch.randn(32, 16)
    assert t2_statistic(x, x.clone()) == 0.0


def test_decide_follows_published_rule():
    p = Protocol()
    thr = p.threshold
    assert decide(thr + 10, 1.0, p) == (True, True)
    assert decide(thr - 1, 1.0, p) == (False, True)
    assert decide(thr + 10, thr + 10 + 1e-7, p) == (False, False)  # close to the reliability T²
    assert decide(1e6, 1e6 * (1 + 1e-6), p)[0] is False  # torch.isclose's rtol 1e-5
    assert decide(thr + 10, thr + 1, p) == (True, False)
    assert decide(float("nan"), float("nan"), p) == (False, False)


def test_plateau_state_matches_torch():
    losses = [1.0, 0.9, 0.9, 0.95, 0.91] + [0.9] * 14 + [0.5, 0.5] + [0.5] * 12
    opt = torch.optim.Adam([nn.Parameter(torch.zeros(1))], lr=1e-3)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min")
    ours = PlateauState(1e-3)
    for loss in losses:
        sched.step(loss)
        assert math.isclose(ours.step(loss), opt.param_groups[0]["lr"], rel_tol=1e-12)
    assert ours.lr < 1e-3  # the sequence does trigger reductions


def test_cosine_schedule_with_warmup():
    p = Protocol(scheduler="cosine", lr=1e-3, min_lr=7e-5, warmup_epochs=10, epochs=200)
    assert math.isclose(lr_at_epoch(p, 0), 1e-4)
    assert math.isclose(lr_at_epoch(p, 9), 1e-3)
    assert math.isclose(lr_at_epoch(p, 10), 1e-3)
    assert math.isclose(lr_at_epoch(p, 105), (1e-3 + 7e-5) / 2)
    assert all(lr_at_epoch(p, e) >= lr_at_epoch(p, e + 1) for e in range(10, 199))
    assert lr_at_epoch(p, 199) > 7e-5
    assert lr_at_epoch(Protocol(), 7) == 1e-4


def test_pair_seed_and_fresh_parameters(tiny):
    assert pair_seed(0, 1) == pair_seed(0, 1)
    assert len({pair_seed(s, i) for s in range(3) for i in range(50)}) == 150
    m = tiny()
    fresh_parameters(m, 5, 3)
    a = [p.detach().clone() for p in m.parameters()]
    fresh_parameters(m, 5, 3)
    assert all(torch.equal(x, p) for x, p in zip(a, m.parameters()))
    fresh_parameters(m, 6, 3)
    assert not torch.equal(a[0], m.lin1.weight)


def test_epoch_loss_bookkeeping(tiny, triangle_feature):
    """With lr 0 the epoch loss is the mean couple loss over all 32 couples (sum(batch loss x couples) / 32)."""
    protocol = Protocol(lr=0.0, weight_decay=0.0, epochs=1, batch_size=12)  # batches of 6, 6, ..., 4 couples
    graphs, _ = _pair_data(0, triangle_feature)
    m = tiny()
    fresh_parameters(m, 0, 0)
    epochs, loss = train_pair(m, graphs, protocol)
    from torch_geometric.data import Batch

    with torch.no_grad():
        out = m(Batch.from_data_list(graphs))
        direct = couple_loss(out, 0.0).item()
    assert epochs == 1
    assert math.isclose(loss, direct, rel_tol=1e-5)


def test_early_stop_below_loss_threshold(tiny, triangle_feature):
    graphs, _ = _pair_data(1, triangle_feature)
    m = tiny()
    fresh_parameters(m, 0, 1)
    epochs, loss = train_pair(m, graphs, Protocol(loss_threshold=10.0))
    assert epochs == 1 and loss < 10.0


def test_verdicts_and_t2_deterministic_for_a_seed(tiny, triangle_feature):
    protocol = Protocol(epochs=3)
    m = tiny()
    for pid in (0, 5, 17):
        g, r = _pair_data(pid, triangle_feature)
        a = evaluate_pair(m, pid, g, r, protocol, seed=7)
        b = evaluate_pair(m, pid, g, r, protocol, seed=7)
        assert (a.t2_pair, a.t2_reliability, a.final_loss, a.epochs) == (b.t2_pair, b.t2_reliability, b.final_loss, b.epochs)
        assert (a.distinguished, a.reliable) == (b.distinguished, b.reliable)
        assert a.threshold == protocol.threshold
        c = evaluate_pair(m, pid, g, r, protocol, seed=8)
        assert (c.t2_pair, c.t2_reliability) != (a.t2_pair, a.t2_reliability)  # another seed, other parameters


def test_protocol_validation():
    with pytest.raises(ValueError):
        Protocol(batch_size=15)
    with pytest.raises(ValueError):
        Protocol(optimizer="sgd")
    with pytest.raises(TypeError):
        Protocol().replace(nonsense=1)
    d = Protocol().to_dict()
    assert d["threshold"] == Protocol().threshold and d["epochs"] == 20 and d["lr"] == 1e-4


def test_sgformer_never_reliably_distinguishes_1wl_equivalent_pairs():
    """SGFormer is bounded by 1-WL; every BREC pair is 1-WL-indistinguishable and the inputs are
    constant features, so no pair may come out distinguished *and* reliable."""
    from wltools.models import registry

    protocol = Protocol(epochs=2)
    tf = registry.create_transform("sgformer", "small")
    model = registry.create_model("sgformer", "small")
    for pid in (0, 1, 30):
        pair = dataset.load_pairs(ids=[pid])[0]
        g = [tf(dataset.to_pyg(x)) for x in dataset.relabelings(pair, 0, 32)]
        r = [tf(dataset.to_pyg(x)) for x in dataset.reliability_set(pair, 0, 64)]
        o = evaluate_pair(model, pid, g, r, protocol, seed=0)
        assert not (o.distinguished and o.reliable), o


@pytest.mark.parametrize("device", ["cpu"] + (["cuda"] if torch.cuda.is_available() else []))
def test_unit_timer_measures_the_work_between_start_and_stop(device):
    """wall_s covers a known pause (time.sleep is independent of the timer); cuda_s exists on CUDA only."""
    import time

    timer = UnitTimer(device)
    time.sleep(0.02)
    if device == "cuda":
        x = torch.randn(2048, 2048, device=device)
        for _ in range(10):
            x = x @ x / 2048  # GPU-side work the events must see
    wall_s, cuda_s = timer.stop()
    assert wall_s >= 0.02
    assert (cuda_s is None) == (device == "cpu")
    if cuda_s is not None:
        assert 0 < cuda_s <= wall_s


def test_t2_threshold_is_bit_equal_to_scipy_stats_f_ppf():
    """Runs record the exact threshold and reports compare it with ``!=``: the quantile function
    the threshold uses (chosen for start-up) must give scipy.stats.f.ppf's float, bit for bit."""
    from scipy.stats import f as f_dist

    for q, d, alpha in [(32, 16, 0.95), (32, 5, 0.95), (64, 16, 0.99), (33, 32, 0.9), (100, 1, 0.5)]:
        assert t2_threshold(q, d, alpha) == float((q - 1) * d / (q - d) * f_dist.ppf(alpha, d, q - d))
