"""CLI tests of `wltools suite` (list, verify-data, theory) and `wltools check --test epwl`."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

import cli


def _run(*args: str):
    return CliRunner().invoke(cli.cli, list(args))


def test_list_text_and_json():
    r = _run("suite", "list")
    assert r.exit_code == 0
    assert [line.split()[0] for line in r.output.splitlines() if not line.startswith(" ")][:4] == [
        "csl", "exp", "sr25", "graph8c"]
    rows = json.loads(_run("suite", "list", "--format", "json").output)
    assert {r["name"] for r in rows} >= {"csl", "exp", "exp-ppgn", "cexp", "sr16", "sr25", "graph8c"}


def test_verify_data():
    r = _run("suite", "verify-data", "sr25", "csl")
    assert r.exit_code == 0, r.output
    assert "OK sr25:" in r.output and "105 pairs non-isomorphic" in r.output
    assert "10 classes of 15 copies, each class isomorphic" in r.output


def test_theory_formats_and_out(tmp_path):
    r = _run("suite", "theory", "sr28", "--tests", "1wl,epwl,epwl-lap")
    assert r.exit_code == 0, r.output
    assert "| all | 0 / 6 | 0 / 6 | 0 / 6 |" in r.output
    doc = json.loads(_run("suite", "theory", "sr28", "--tests", "epwl", "--format", "json").stdout)
    assert len(doc["pairs"]) == 6 and doc["counts"] == {"epwl": [0, 6]}
    assert doc["pairs"][0]["tests"]["epwl"]["distinguished"] is False
    out = tmp_path / "v.csv"
    r = _run("suite", "theory", "csl", "--tests", "1wl,epwl", "--pairs", "0-2", "--format", "csv", "--out", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [(row["id"], row["test"], row["distinguished"]) for row in rows] == [
        ("0", "1wl", "0"), ("0", "epwl", "1"), ("1", "1wl", "0"), ("1", "epwl", "1"), ("2", "1wl", "0"), ("2", "epwl", "1")]


def test_errors_are_one_line_exit_2():
    for args in (("suite", "theory", "sr99"), ("suite", "theory", "sr16", "--tests", "4wl"),
                 ("suite", "theory", "sr25", "--pairs", "200"), ("suite", "verify-data", "nope")):
        r = _run(*args)
        assert r.exit_code == 2, args
        assert r.output.startswith("error: ") and r.output.count("\n") == 1, r.output
    assert _run("suite", "verify-data").exit_code == 2


def test_check_with_epwl():
    r = _run("check", "cycle:6", "cycle:3+cycle:3", "--test", "epwl", "--format", "json")
    assert r.exit_code == 0
    res = json.loads(r.output)["results"]
    assert [(x["test"], x["distinguished"], x["iteration"]) for x in res] == [("epwl", True, 1)]
    r = _run("check", "shrikhande", "rook4x4", "--test", "epwl-lap")
    assert r.exit_code == 0 and "not distinguished" in r.output


def test_suite_run_trains_through_the_brec_runner_and_reports_against_the_suite(tmp_path, monkeypatch):
    """`suite run`: the same runner, records and checks as BREC; the report's theory is the suite's."""
    import json
    from pathlib import Path

    from brec_runner.records.record import read_run
    from brec_runner.reports.report import build_report

    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    gin = f"{Path(__file__).resolve().parents[2] / 'examples' / 'gin.py'}:gin"
    out = tmp_path / "csl"
    res = CliRunner().invoke(cli.cli, ["suite", "run", "csl", "--model", gin, "--pairs", "0-1", "--epochs", "1",
                                       "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    run = read_run(out)
    assert run.config["suite"] == "csl" and {r["category"] for r in run.records} == {"csl"}
    assert sorted((r["id"], r["seed"]) for r in run.records) == [(0, 0), (1, 0)]
    rep = build_report([out])
    assert rep["suite"] == "csl" and rep["categories"][-1]["theory_upper"] == 0  # GIN is 1-WL: CSL is beyond it
    assert rep["categories"][-1]["3wl"] == 2
    # BREC records and suite records are different data: one directory never mixes them
    res = CliRunner().invoke(cli.cli, ["brec", "run", "--model", gin, "--pairs", "0-1", "--epochs", "1",
                                       "--out", str(out), "--quiet"])
    assert res.exit_code == 2 and "dataset" in res.output
    res = CliRunner().invoke(cli.cli, ["suite", "run", "nosuch", "--model", gin])
    assert res.exit_code == 2 and "nosuch" in res.output
    assert json.loads((out / "config.json").read_text())["pairs"] == [0, 1]
    # --multi-pair as for brec run: two seeds in the loop, and a bad value is one line
    loop = tmp_path / "loop"
    res = CliRunner().invoke(cli.cli, ["suite", "run", "sr16", "--model", gin, "--seeds", "0,1", "--epochs", "1",
                                       "--multi-pair", "1", "--out", str(loop), "--quiet"])
    assert res.exit_code == 0, res.output
    assert {r["mode"] for r in read_run(loop).records} == {"single"} and not (loop / "multi_pair.json").exists()
    res = CliRunner().invoke(cli.cli, ["suite", "run", "sr16", "--model", gin, "--multi-pair", "0"])
    assert res.exit_code == 2 and "group size" in res.output


@pytest.mark.parametrize("name", ["csl", "exp", "exp-ppgn", "cexp", "sr16", "sr25", "sr26", "sr28", "graph8c"])
def test_the_runner_trains_on_one_pair_of_every_suite(name, tmp_path, monkeypatch):
    from pathlib import Path

    from brec_runner.records.record import read_run
    from brec_runner.runs.evaluate import run

    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    gin = f"{Path(__file__).resolve().parents[2] / 'examples' / 'gin.py'}:gin"
    out = run(gin, suite=name, pairs=[0], categories=None, protocol={"epochs": 1}, out=tmp_path / name,
              progress=False)
    (rec,) = read_run(out).records
    assert rec["id"] == 0 and rec["category"] == name and rec["reliable"]
