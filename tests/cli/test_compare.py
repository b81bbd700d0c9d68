"""CLI tests of `wltools brec compare` and `wltools suite compare`: the committed leaderboard is
what the command prints, the formats and the figure, and bad input as one line with exit 2."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli

ROOT = Path(__file__).resolve().parents[2]
REDRAW = ROOT / "reports" / "brec-runs" / "redraw-v2"
SUITE_RUNS = ROOT / "reports" / "suite-runs"


def _run(*args, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(cli.cli, [str(a) for a in args])
    import os

    here = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(cli.cli, [str(a) for a in args])
    finally:
        os.chdir(here)


def _one_error_line(r) -> str:
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in r.output, r.output
    return lines[0]


def test_suite_compare_is_the_leaderboard_machinery():
    """What the command prints is :func:`brec_runner.reports.compare.compare_runs` in Markdown, run
    directories relative to the working directory (the committed leaderboards' test:
    tests/brec_runner/test_compare.py); a file among the paths is left out with a note."""
    from brec_runner.reports.compare import compare_runs
    from brec_runner.reports.compare_format import format_comparison

    runs = [Path("reports/suite-runs/grit-brec-csl-cpu"), Path("reports/suite-runs/sgformer-brec-csl-cpu")]
    r = _run("suite", "compare", *runs, "reports/suite-runs/README.md", cwd=ROOT)
    assert r.exit_code == 0, r.output
    assert r.stdout == format_comparison(compare_runs([ROOT / d for d in runs], suite=True, base=ROOT), "md")
    assert "| grit [brec] (20 epochs, CPU) | rrwp (K=21) | 0 | 45 / 45 / 45 |" in r.stdout  # all of CSL: no pair count
    assert "note: reports/suite-runs/README.md is a file, not a run directory: left out" in r.stderr


def test_formats_out_and_plot(tmp_path):
    runs = [REDRAW / "grit-brec-cpu", REDRAW / "sgformer-brec-cpu"]
    r = _run("brec", "compare", *runs, "--no-theory")
    assert r.exit_code == 0, r.output
    assert "| grit [brec] (20 epochs, CPU) | rrwp (K=21) | 0 |" in r.stdout
    assert "| sgformer [brec] (20 epochs, CPU) | 1wl | 0 |" in r.stdout
    table = list(csv.DictReader(io.StringIO(_run("brec", "compare", *runs, "--format", "csv", "--no-theory").stdout)))
    assert [row["model"] for row in table] == ["grit", "sgformer"]
    assert "—" not in "".join(v for row in table for v in row.values())
    assert table[1]["total_3wl"] == "" and table[1]["total_realised_mean"] == "0.0" and table[1]["total_pairs"] == "8"
    out, plot = tmp_path / "t.tex", tmp_path / "t.svg"
    r = _run("brec", "compare", *runs, "--format", "latex", "--out", out, "--plot", plot, "--no-theory")
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("% wltools brec compare") and "\\bottomrule" in out.read_text()
    assert plot.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("case", ["missing", "empty", "file", "suite-run", "brec-run", "out-run-file",
                                  "plot-format", "plot-folder", "damaged"])
def test_bad_input_is_one_line(tmp_path, case):
    run = tmp_path / "run"
    shutil.copytree(REDRAW / "sgformer-brec-cpu", run, ignore=shutil.ignore_patterns("*.md", "*.png"))
    (tmp_path / "empty").mkdir()
    (tmp_path / "x.txt").write_text("x")
    args = {
        "missing": ("brec", "compare", tmp_path / "nope"),
        "empty": ("brec", "compare", tmp_path / "empty"),
        "file": ("brec", "compare", tmp_path / "x.txt"),
        "suite-run": ("brec", "compare", SUITE_RUNS / "grit-brec-csl-cpu"),
        "brec-run": ("suite", "compare", run),
        "out-run-file": ("brec", "compare", run, "--out", run / "results.jsonl"),
        "plot-format": ("brec", "compare", run, "--plot", tmp_path / "figure.xyz"),
        "plot-folder": ("brec", "compare", run, "--plot", tmp_path / "no-such-folder" / "f.png", "--no-theory"),
        "damaged": ("brec", "compare", run),
    }[case]
    if case == "damaged":
        lines = (run / "results.jsonl").read_text().splitlines(keepends=True)
        (run / "results.jsonl").write_text(lines[0].replace('"reliable": true', '"reliable": false') + "".join(lines[1:]))
    before = (run / "results.jsonl").read_bytes()
    line = _one_error_line(_run(*args))
    assert (run / "results.jsonl").read_bytes() == before
    if case == "out-run-file":
        assert "would overwrite the run's records" in line
    if case == "damaged":  # --skip-bad: the row without that line, and a warning
        r = _run("brec", "compare", run, "--skip-bad", "--no-theory")
        assert r.exit_code == 0 and "1 untrustworthy results line(s) skipped" in r.stderr


def test_unfinished_runs_are_marked(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(REDRAW / "sgformer-brec-cpu", run, ignore=shutil.ignore_patterns("*.md", "*.png"))
    lines = (run / "results.jsonl").read_text().splitlines(keepends=True)
    (run / "results.jsonl").write_text("".join(lines[:3]))
    r = _run("brec", "compare", run, "--no-theory")
    assert r.exit_code == 0, r.output
    assert "sgformer [brec] (unfinished)" in r.stdout and "3 of 8 selected (pair, seed) units" in r.stdout
    assert "warning: 1 row(s) of unfinished runs" in r.stderr
