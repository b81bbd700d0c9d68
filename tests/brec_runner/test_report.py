"""Reports (brec_runner.reports.report): merging seeds and shards, counts, classes, formats, plot."""

import csv
import io
import json

import pytest
from fake_runs import unit_record, write_run

from brec_runner.reports.report import build_report, format_report, plot_report
from brec_runner.runs.protocol import Protocol
from wltools.errors import RunDirectoryError

CATEGORY = {0: "basic", 1: "basic", 2: "basic", 3: "basic", 60: "regular", 61: "regular"}


#: real models whose config files give these bounds (brec_runner.configs.theory_bound reads them)
_MODEL_OF_BOUNDS = {("1wl", "1wl"): "sgformer", ("1wl", "3wl"): "graph_transformer"}


def _config(lower="1wl", upper="1wl", published=None):
    return {"model": _MODEL_OF_BOUNDS[(lower, upper)], "preset": "small", "model_overrides": {}, "protocol": Protocol().to_dict(),
            "device_type": "cpu", "device": "cpu",
            "theory": {"theory": {"lower": lower, "upper": upper, "class": "test class", "note": ""},
                       "published": published}}


def _rec(pid, seed, dist, rel=True):
    return unit_record(pid, seed, dist, rel, category=CATEGORY[pid])


def _write(d, config, files):
    """A run directory with ``files``: results file name -> its records."""
    for name, recs in files.items():
        shard = None if name == "results.jsonl" else tuple(int(x) for x in name[len("results-shard-"):-6].split("-of-"))
        write_run(d, config, recs, shard)
    return d


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def two_seeds(tmp_path):
    """Seed 0 in one directory as two shards, seed 1 in another; ids 0-3 Basic, 60-61 Regular."""
    cfg = _config(published={"source": "paper", "Basic": 3, "Regular": 1, "Extension": 7, "CFI": 5, "total": 16})
    s0 = [_rec(0, 0, True), _rec(1, 0, True), _rec(2, 0, False), _rec(3, 0, False), _rec(60, 0, True, rel=False),
          _rec(61, 0, False)]
    s1 = [_rec(0, 1, True), _rec(1, 1, False), _rec(2, 1, False), _rec(3, 1, False), _rec(60, 1, False),
          _rec(61, 1, False)]
    a = _write(tmp_path / "a", cfg, {"results-shard-1-of-2.jsonl": s0[0::2], "results-shard-2-of-2.jsonl": s0[1::2]})
    b = _write(tmp_path / "b", cfg, {"results.jsonl": s1})
    return [a, b]


def test_counts_spread_and_classes(two_seeds):
    rep = build_report(two_seeds)
    assert rep["seeds"] == [0, 1] and rep["records"] == 12 and rep["pairs"] == 6
    rows = {r["category"]: r for r in rep["categories"]}
    assert rows["basic"]["distinguished"] == {"mean": 1.5, "std": 0.5, "min": 1, "max": 2}
    assert rows["regular"]["reliability_failures"]["mean"] == 0.5
    assert rows["regular"]["real_correct"]["mean"] == 0.0  # BREC: distinguished - reliability failures
    assert rows["total"]["distinguished"]["max"] == 3
    # the published total covers only the categories this run has (Basic + Regular), not the paper's 16
    assert rows["basic"]["published"] == 3 and rows["total"]["published"] == 4
    # 1-WL separates no BREC pair; 3-WL separates every Basic pair (published: 60/60)
    assert rows["basic"]["theory_upper"] == 0 and rows["basic"]["3wl"] == 4
    assert rows["basic"]["published"] == 3 and rows["total"]["published"] == 4
    pc = rep["pairs_by_class"]
    # realised (distinguished and reliable) although 1-WL cannot separate: always listed
    assert [(p["id"], p["seeds"]) for p in pc["beyond_theory"]] == [(0, [0, 1]), (1, [0])]
    assert pc["unrealised"] == [] and pc["realised_and_allowed"] == []
    assert [(p["id"], p["seed"]) for p in pc["reliability_failures"]] == [(60, 0)]


def test_against_3wl_upper_bound(two_seeds, tmp_path):
    cfg = _config(lower="1wl", upper="3wl")
    d = _write(tmp_path / "c", cfg, {"results.jsonl": [_rec(0, 0, True), _rec(1, 0, False), _rec(2, 0, False)]})
    pc = build_report([d])["pairs_by_class"]
    assert pc["realised_and_allowed"] == [0] and pc["unrealised"] == [1, 2] and pc["beyond_theory"] == []


def test_formats_and_plot(two_seeds, tmp_path):
    rep = build_report(two_seeds)
    md = format_report(rep, "md")
    assert "| basic | 4 | 1.5 ± 0.5 [1-2] |" in md and "declared bound is wrong (2): 0 (basic, seeds [0, 1]), 1 (basic, seeds [0])" in md
    assert json.loads(format_report(rep, "json"))["pairs"] == 6
    rows = list(csv.DictReader(io.StringIO(format_report(rep, "csv"))))
    assert [r["category"] for r in rows] == ["basic", "regular", "total"]
    assert float(rows[0]["distinguished_mean"]) == 1.5
    png = plot_report(rep, tmp_path / "bars.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "(theoretical verdicts not computed)" in format_report(build_report(two_seeds, theory=False), "md")


def test_mismatched_runs_and_conflicts_rejected(two_seeds, tmp_path):
    other = _write(tmp_path / "o", {**_config(), "preset": "brec"}, {"results.jsonl": [_rec(0, 5, True)]})
    with pytest.raises(RunDirectoryError, match="different settings.*sgformer/small.*sgformer/brec"):
        build_report([two_seeds[0], other])
    clash = _write(tmp_path / "x", _config(), {"results.jsonl": [_rec(0, 1, False)]})
    with pytest.raises(RunDirectoryError, match="conflicting"):
        build_report([two_seeds[1], clash])
    with pytest.raises(RunDirectoryError, match="not a run directory"):
        build_report([tmp_path])


def test_report_shows_epochs_trained_and_early_stops():
    """Issue 28 item 6: the report says how many epochs units trained and how many stopped early;
    checked on a committed run against its own results file."""
    import json as _json
    from pathlib import Path as _Path

    from brec_runner.reports.report import build_report, format_report

    run = _Path(__file__).resolve().parents[2] / "reports" / "brec-runs" / "ds-gin-example-cpu"
    records = [_json.loads(line) for line in (run / "results.jsonl").read_text().splitlines() if line.strip()]
    limit = _json.loads((run / "config.json").read_text())["protocol"]["epochs"]
    epochs = sorted(r["epochs"] for r in records)
    early = sum(e < limit for e in epochs)
    assert 0 < early < len(epochs)  # this run has both kinds
    rep = build_report([run], theory=False)
    assert rep["training"] == {"protocol_epochs": limit, "min": epochs[0], "median": epochs[len(epochs) // 2],
                               "max": epochs[-1], "units": len(epochs), "stopped_early": early,
                               "loss_threshold": 0.2}
    assert (f"Epochs trained per unit: {epochs[0]} to {epochs[-1]} (median {epochs[len(epochs) // 2]}) of "
            f"{limit}; {early} of {len(epochs)} units stopped early") in format_report(rep)


def test_report_says_early_stopping_was_off_when_the_loss_threshold_is_0():
    """Issue 43: with loss threshold 0 (the loss is never negative, so no unit can stop early) the
    PPGT report said "0 of 26 units stopped early (below the protocol's loss threshold)"; it says
    early stopping was off. Checked on the committed GPU run whose config sets the threshold to 0."""
    import json as _json
    from pathlib import Path as _Path

    from brec_runner.reports.report import build_report, format_report

    run = _Path(__file__).resolve().parents[2] / "reports" / "brec-runs" / "ppgt-brec-cfi-gpu"
    assert _json.loads((run / "config.json").read_text())["protocol"]["loss_threshold"] == 0
    text = format_report(build_report([run], theory=False))
    assert "early stopping off (the protocol's loss threshold is 0)." in text
    assert "stopped early" not in text
