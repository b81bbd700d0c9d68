"""CLI tests of `wltools brec verify-data` and `wltools brec theory` (bad input, small runs)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import cli


def _run(*args):
    return CliRunner().invoke(cli.cli, list(args))


def _one_error_line(result):
    lines = [ln for ln in result.output.strip().splitlines() if ln.strip()]
    assert lines and lines[-1].startswith("error: "), result.output
    assert "Traceback" not in result.output
    return lines[-1]


def test_verify_data_small_selection():
    r = _run("brec", "verify-data", "--pairs", "0-1,260", "--seed", "0")
    assert r.exit_code == 0, r.output
    assert "OK: 3 pairs non-isomorphic" in r.output
    assert "192 relabelings and 192 reliability graphs (seed 0)" in r.output


@pytest.mark.parametrize(
    "command, args, fragment",
    [
        ("verify-data", ["--pairs", "5-2"], "empty pair id range"),
        ("verify-data", ["--pairs", ""], "empty pair id range"),
        ("verify-data", ["--pairs", "0-400"], "out of range"),
        ("verify-data", ["--category", "nope"], "unknown BREC category 'nope'"),
        ("verify-data", ["--category", "basic", "--pairs", "300"], "no BREC pair matches"),
        ("theory", ["--tests", "1wl,foo"], "unknown test 'foo'"),
        ("theory", ["--tests", ","], "empty list of tests"),
        ("theory", ["--pairs", "10-3"], "empty pair id range"),
        ("theory", ["--category", "regular150"], "unknown BREC category"),
    ],
)
def test_bad_arguments(command, args, fragment, tmp_path):
    """One `error:` line, exit 2, and (theory) no output folder."""
    out = ["--out", str(tmp_path / "out")] if command == "theory" else []
    r = _run("brec", command, *args, *out)
    assert r.exit_code == 2
    assert fragment in _one_error_line(r)
    assert not (tmp_path / "out").exists()


def test_theory_bad_rrwp_steps(tmp_path):
    r = _run("brec", "theory", "--rrwp-steps", "0", "--out", str(tmp_path))
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_theory_small_run(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "out"
    r = _run("brec", "theory", "--tests", "1wl,spd", "--pairs", "0-3,60", "--out", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "verdicts.json").read_text())
    assert [p["id"] for p in doc["pairs"]] == [0, 1, 2, 3, 60]
    assert all(p["tests"]["1wl"]["distinguished"] is False for p in doc["pairs"])
    assert (out / "verdicts.csv").read_text().count("\n") == 1 + 5 * 2
    md = (out / "README.md").read_text()
    assert "| basic |" in md and "spd" in md
