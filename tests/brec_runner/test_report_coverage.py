"""Reports say what they stand on (brec_runner.reports.report): the selected units with results per
category, failed and missing units, an unfinished run marked; mean ± std over seeds only over the
pairs every seed ran (else per seed, with the reason); "realised in some seeds only" only for pairs
every seed ran; run directories compared by their resolved paths (``--skip-bad ./DIR``)."""

import csv
import io
import json

import pytest
from click.testing import CliRunner
from fake_runs import unit_record, write_run

import cli
from brec_runner.reports.report import Report, build_report, format_report
from brec_runner.runs.protocol import Protocol


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))


def _config(pairs, seeds):
    """A config whose model's bound is 1-WL .. 3-WL (3-WL separates every Basic pair)."""
    return {"model": "graph_transformer", "preset": "small", "model_overrides": {}, "protocol": Protocol().to_dict(),
            "device_type": "cpu", "device": "cpu", "pairs": list(pairs), "seeds": list(seeds),
            "theory": {"theory": {"lower": "1wl", "upper": "3wl", "class": "test class", "note": ""},
                       "published": None}}


def _rec(pid, seed, dist=True):
    return unit_record(pid, seed, dist)


def _write(d, pairs, seeds, recs):
    return write_run(d, _config(pairs, seeds), recs)


def _cli(*args):
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def test_seeds_over_different_pairs_spread_over_the_common_pairs_only(tmp_path):
    # seed 0 ran pairs 0-11, seed 1 pairs 0-5 (two directories): every record is distinguished
    a = _write(tmp_path / "a", range(12), [0], [_rec(i, 0) for i in range(12)])
    b = _write(tmp_path / "b", range(6), [1], [_rec(i, 1, dist=i != 2) for i in range(6)])
    rep = build_report([a, b])
    basic = rep["categories"][0]
    assert basic["spread_over"] == "common" and basic["pairs"] == 6 and basic["recorded_pairs"] == 12
    assert basic["distinguished"] == {"mean": 5.5, "std": 0.5, "min": 5, "max": 6}  # not 9.0 ± 3.0
    assert basic["3wl"] == 6  # theory over the same six pairs
    assert [(p["seed"], p["pairs"], p["distinguished"]) for p in basic["per_seed"]] == [(0, 12, 12), (1, 6, 5)]
    # pair 2 is realised by seed 0 only among the pairs both seeds ran; pairs 6-11 are not "some seeds only"
    assert rep["pairs_by_class"]["realised_in_some_seeds_only"] == [{"id": 2, "seeds": [0]}]
    assert rep["pairs_by_class"]["realised_and_allowed"] == list(range(12))
    assert not rep["unfinished"] and rep["selection"] == {"pairs": 12, "seeds": [0, 1], "units": 18}
    md = format_report(rep, "md")
    assert "Seeds cover different pairs" in md and "- basic: 6 of 12 pairs run by every seed" in md
    assert "9.0 ± 3.0" not in md and "All 18 selected (pair, seed) units have results." in md


def test_one_directory_resumed_with_other_seeds_is_unfinished(tmp_path):
    d = _write(tmp_path / "run", range(12), [0], [_rec(i, 0) for i in range(12)])
    _write(d, range(6), [1], [_rec(i, 1) for i in range(6)])  # the config now selects pairs 0-11 x seeds 0, 1
    rep = build_report([d], theory=False)
    assert rep["unfinished"] and rep["missing_units"] == [[i, 1] for i in range(6, 12)]
    assert rep["categories"][0]["units"] == {"selected": 24, "recorded": 18, "failed": 0, "missing": 6}
    assert rep["categories"][0]["distinguished"]["mean"] == 6  # over the six pairs both seeds ran
    assert "- missing (6): 6-11 (seed 1)" in format_report(rep, "md")


def test_seeds_without_a_common_pair_are_shown_per_seed(tmp_path):
    a = _write(tmp_path / "a", range(6), [0], [_rec(i, 0) for i in range(6)])
    b = _write(tmp_path / "b", range(6, 10), [1], [_rec(i, 1) for i in range(6, 10)])
    rep = build_report([a, b], theory=False)
    basic = rep["categories"][0]
    assert basic["spread_over"] == "per_seed" and basic["distinguished"] is None
    assert Report(rep).realised("basic") is None  # no number that would mean something else
    md = format_report(rep, "md")
    assert "| basic | 10 | 6 (seed 0), 4 (seed 1) |" in md
    assert "no pair of the 10 run by every seed, so its counts are shown per seed" in md


def test_an_unfinished_single_seed_run_says_so_in_every_format(tmp_path):
    d = _write(tmp_path / "run", range(12), [0], [_rec(i, 0) for i in range(5)])
    rep = build_report([d], theory=False)
    assert rep["unfinished"] and rep["missing_units"] == [[i, 0] for i in range(5, 12)]
    assert "**Unfinished run**: 5 of 12 selected (pair, seed) units have results" in format_report(rep, "md")
    assert json.loads(format_report(rep, "json"))["unfinished"] is True
    rows = {r["category"]: r for r in csv.DictReader(io.StringIO(format_report(rep, "csv")))}
    assert rows["basic"]["unfinished"] == "true" and rows["basic"]["units_missing"] == "7"
    assert rows["basic"]["missing_units"] == "5-11 (seed 0)"
    res = _cli("brec", "report", "--no-theory", d)
    assert res.exit_code == 0 and "warning: unfinished run" in res.stderr and "7 missing" in res.stderr
    finished = _write(tmp_path / "done", range(3), [0], [_rec(i, 0) for i in range(3)])
    assert not build_report([finished], theory=False)["unfinished"]
    assert "warning" not in _cli("brec", "report", "--no-theory", finished).stderr


def test_skip_bad_with_dot_slash_gives_the_same_report(tmp_path, monkeypatch):
    d = _write(tmp_path / "run", range(3), [0], [_rec(i, 0) for i in range(3)])
    lines = (d / "results.jsonl").read_text().splitlines()
    lines[1] = lines[1].replace('"distinguished": true', '"distinguished": false')  # its checksum fails
    (d / "results.jsonl").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    plain = _cli("brec", "report", "--no-theory", "--skip-bad", "run")
    dotted = _cli("brec", "report", "--no-theory", "--skip-bad", "./run")
    assert plain.exit_code == dotted.exit_code == 0
    assert "1 results line(s) skipped as untrustworthy" in dotted.stdout and "run/results.jsonl, line 2" in dotted.stdout
    assert dotted.stdout == plain.stdout
    twice = build_report(["run", "./run", str(d)], theory=False, skip_bad=True)  # one directory, read once
    assert len(twice["skipped_lines"]) == 1 and twice["records"] == 2 and twice["run_dirs"] == ["run"]
