"""--multi-pair auto (brec_runner.runs.probe): the probe's choice, its windows of one pair, the same verdicts."""

from __future__ import annotations

import itertools

import pytest

from brec_runner.models.source import resolve_model
from brec_runner.records.record import read_run
from brec_runner.runs import probe
from brec_runner.runs.evaluate import run
from brec_runner.runs.execute import RunSpec
from brec_runner.runs.protocol import Protocol


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
    monkeypatch.setattr(probe, "MIN_GAIN", float("inf"))  # force grouping, whatever the timing
    monkeypatch.setattr(probe, "MAX_GROUP", 2)  # groups of 2 over 3 seeds: a window could mix pairs
    kw = dict(protocol=Protocol(epochs=2), pairs=[0, 1, 2], categories=None, seeds=[0, 1, 2], progress=False)
    loop = read_run(run(tiny_model, preset="brec", out=tmp_path / "loop", multi_pair=1, **kw)).records
    auto = read_run(run(tiny_model, preset="brec", out=tmp_path / "auto", multi_pair="auto", **kw)).records
    key = lambda r: (r["id"], r["seed"])  # noqa: E731
    assert {key(r): (r["distinguished"], r["reliable"], r["epochs"]) for r in auto} == {
        key(r): (r["distinguished"], r["reliable"], r["epochs"]) for r in loop}
    for pid in (0, 1, 2):  # windows never mix pairs: per pair two seeds together, the third alone
        assert sorted(r["mode"] == "multipair:2" for r in auto if r["id"] == pid) == [False, True, True]


def test_the_decision_is_recorded_and_kept_by_resumes(tiny_model, tmp_path, monkeypatch, capsys):
    """The first timed probe's choice is written to multi_pair.json; a resume whose own probe would
    choose otherwise keeps it, and a damaged file is reported and replaced by a fresh probe."""
    import json

    kw = dict(protocol=Protocol(epochs=1), categories=None, seeds=[0, 1], progress=False)
    out = tmp_path / "run"
    monkeypatch.setattr(probe, "MIN_GAIN", float("inf"))  # grouping wins, whatever the timing
    run(tiny_model, preset="brec", out=out, pairs=[0], **kw)  # default multi_pair: "auto"
    doc = json.loads((out / "multi_pair.json").read_text())
    assert doc["group"] == 2 and doc["probe"]["chosen"] == "multipair:2" and "loop_s" in doc["probe"]
    monkeypatch.setattr(probe, "MIN_GAIN", 0.0)  # a new probe would now choose the loop (t < 0: never)
    run(tiny_model, preset="brec", out=out, pairs=[0, 1], **kw)
    recs = read_run(out).records
    assert {r["mode"] for r in recs if r["id"] == 1} == {"multipair:2"}  # the recorded choice held
    (out / "multi_pair.json").write_text("{not json")
    run(tiny_model, preset="brec", out=out, pairs=[0, 1, 2], **kw)
    assert "multi_pair.json is damaged" in capsys.readouterr().err
    assert json.loads((out / "multi_pair.json").read_text())["group"] is None  # probed again: the loop
    assert {r["mode"] for r in read_run(out).records if r["id"] == 2} == {"single"}


def test_one_seed_runs_record_no_decision_and_multi_pair_1_is_the_loop(tiny_model, tmp_path):
    kw = dict(protocol=Protocol(epochs=1), categories=None, pairs=[0], progress=False)
    run(tiny_model, preset="brec", out=tmp_path / "a", seeds=[0], **kw)
    assert not (tmp_path / "a" / "multi_pair.json").exists()
    run(tiny_model, preset="brec", out=tmp_path / "b", seeds=[0, 1], multi_pair=1, **kw)
    assert not (tmp_path / "b" / "multi_pair.json").exists()
    assert {r["mode"] for r in read_run(tmp_path / "b").records} == {"single"}
