"""The committed counting report (reports/count-runs/report.{md,json,csv}) is what the code produces
now from the committed run directories, by the commands in reports/count-runs/README.md."""

import glob
from pathlib import Path

import pytest

from brec_runner.counting.report import build_count_report, format_count_report

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def report():
    import os
    here = os.getcwd()
    os.chdir(ROOT)  # the README's commands name the runs relative to the root, as the shell glob does
    try:
        return build_count_report(sorted(glob.glob("reports/count-runs/*/")))
    finally:
        os.chdir(here)


@pytest.mark.parametrize("fmt", ["md", "json", "csv"])
def test_committed_report_is_current(report, fmt):
    committed = (ROOT / "reports" / "count-runs" / f"report.{fmt}").read_text()
    assert format_count_report(report, fmt).rstrip("\n") == committed.rstrip("\n"), (
        f"reports/count-runs/report.{fmt} is stale: regenerate it (reports/count-runs/README.md)")


def test_every_run_directory_is_in_the_report(report):
    dirs = {p.name for p in (ROOT / "reports" / "count-runs").iterdir() if p.is_dir()}
    assert {Path(r["dir"]).name for r in report["runs"]} == dirs
    assert not report["bad"]
