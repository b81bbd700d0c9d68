"""--multi-pair auto (brec_runner.probe): the probe's choice, its windows of one pair, the same verdicts."""

from __future__ import annotations

import itertools

import pytest

from brec_runner import probe
from brec_runner.evaluate import run
from brec_runner.execute import RunSpec
from brec_runner.model_source import resolve_model
from brec_runner.protocol import Protocol
from brec_runner.record import read_run


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))


def _fake_timer(loop_s: float, grouped_s: float):
    """perf_counter stand-in: the loop then the grouped probe take the given seconds."""
    ticks = itertools.chain([0.0, loop_s, 100.0, 100.0 + grouped_s], itertools.count(1000.0))
    return lambda: next(ticks)


def test_one_seed_needs_no_probe(tiny_model):
    spec = RunSpec(source=resolve_model(tiny_model, preset="brec"), protocol=Protocol(epochs=1))
    assert probe.choose_multi_pair(spec, [(0, 0), (1, 0)], quiet=True) == (
        None, {"chosen": "loop", "why": "fewer than two seeds per pair"})


@pytest.mark.parametrize("loop_s, grouped_s, chosen", [(1.0, 0.5, 3), (1.0, 0.95, None)])
def test_the_probe_keeps_grouping_only_when_clearly_faster(tiny_model, loop_s, grouped_s, chosen):
    spec = RunSpec(source=resolve_model(tiny_model, preset="brec"), protocol=Protocol(epochs=1))
    group, info = probe.choose_multi_pair(spec, [(0, 0), (0, 1), (0, 2), (1, 0)], quiet=True,
                                          timer=_fake_timer(loop_s, grouped_s))
    assert group == chosen and info["units"] == 3 and info["loop_s"] == loop_s and info["grouped_s"] == grouped_s


def test_auto_runs_give_the_loops_verdicts_in_windows_of_one_pair(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setattr(probe, "MIN_GAIN", 10.0)  # force grouping, whatever the timing
    monkeypatch.setattr(probe, "MAX_GROUP", 2)  # groups of 2 over 3 seeds: a window could mix pairs
    kw = dict(protocol=Protocol(epochs=2), pairs=[0, 1, 2], categories=None, seeds=[0, 1, 2], progress=False)
    loop = read_run(run(tiny_model, preset="brec", out=tmp_path / "loop", **kw)).records
    auto = read_run(run(tiny_model, preset="brec", out=tmp_path / "auto", multi_pair="auto", **kw)).records
    key = lambda r: (r["id"], r["seed"])  # noqa: E731
    assert {key(r): (r["distinguished"], r["reliable"], r["epochs"]) for r in auto} == {
        key(r): (r["distinguished"], r["reliable"], r["epochs"]) for r in loop}
    for pid in (0, 1, 2):  # windows never mix pairs: per pair two seeds together, the third alone
        assert sorted(r["mode"] == "multipair:2" for r in auto if r["id"] == pid) == [False, True, True]
