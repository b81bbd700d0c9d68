"""Issue 45, round three: readers name the kind of run they were given (a count run to a BREC
reader, a BREC run to a suite or count reader, ...) and the command that reads it, in one line with
exit 2, and ``brec upgrade`` never rewrites a count run; ``brec report --explain`` of a run that
missed nothing says so (docs/reliability.md, "Round three")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_runs import unit_record, write_run

import cli
from brec_runner.runs.protocol import Protocol
from wltools.runtime.shipped import PROJECT_ROOT

BREC_RUN = PROJECT_ROOT / "reports/brec-runs/gin-example-cpu"
SUITE_RUN = PROJECT_ROOT / "reports/suite-runs/grit-brec-csl-cpu"
COUNT_RUN = PROJECT_ROOT / "reports/count-runs/gin-graph"


def _run(*args):
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def _one_error_line(result, *needles: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output, result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def _files(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_brec_upgrade_refuses_a_count_run_and_leaves_it_whole(tmp_path):
    """Before: ``brec upgrade COUNT_RUN`` rewrote the count run's config and records into a BREC
    run that neither reader then read (a count config has no ``format``, read as format 1)."""
    run = shutil.copytree(COUNT_RUN, tmp_path / "count-run")
    before = _files(run)
    _one_error_line(_run("brec", "upgrade", run), "is a count run", "wltools count report")
    assert _files(run) == before
    assert _run("count", "report", run).exit_code == 0  # still a count run its reader reads


@pytest.mark.parametrize("command, run, kind, reader", [
    (("brec", "report"), COUNT_RUN, "is a count run", "wltools count report"),
    (("brec", "compare"), COUNT_RUN, "is a count run", "wltools count report"),
    (("suite", "compare"), COUNT_RUN, "is a count run", "wltools count report"),
    (("suite", "compare"), BREC_RUN, "is a BREC run", "wltools brec report"),
    (("brec", "compare"), SUITE_RUN, "is a run of suite csl", "wltools suite compare"),
    (("count", "report"), BREC_RUN, "is a BREC run", "wltools brec report"),
    (("count", "report"), SUITE_RUN, "is a run of suite csl", "wltools suite compare"),
])
def test_readers_name_the_kind_of_run_and_its_reader(command, run, kind, reader):
    """Before: ``brec compare`` on a count run said "run wltools brec upgrade" (which damages it),
    ``suite compare`` called it a BREC run, ``count report`` called a suite run a BREC run."""
    line = _one_error_line(_run(*command, run), kind, reader)
    assert "upgrade" not in line


def test_claims_verify_brec_run_refuses_a_count_run():
    result = _run("claims", "verify", "brec-run", "--run-dir", COUNT_RUN, "--format", "text")
    assert "is a count run" in result.output and "wltools count report" in result.output
    assert "PASS" not in result.output.split("claims:")[0].replace("0 PASS", "")


def _bound(test: str) -> dict:
    return {"class": f"{test}, as declared", "lower": None, "upper": test, "note": "", "rrwp_steps": None,
            "source": "--bound"}


def test_explain_when_the_model_missed_nothing(tmp_path, monkeypatch):
    """Before: ``brec report RUN --explain`` failed with "empty list of BREC pair ids" whenever no
    pair was missed. A 3-WL-bounded run that realises Basic pairs 0 and 1 (3-WL separates every
    Basic pair, published 60/60) missed nothing: the section says so."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    cfg = {"model": "sgformer", "preset": "small", "model_overrides": {}, "protocol": Protocol().to_dict(),
           "device_type": "cpu", "device": "cpu", "bound": _bound("3wl"),
           "theory": {"theory": {}, "published": None}}
    d = write_run(tmp_path / "run", cfg, [unit_record(0, 0, True), unit_record(1, 0, True)])
    result = _run("brec", "report", d, "--explain")
    assert result.exit_code == 0, result.output
    assert "none: every pair the bound separates is realised" in result.output
    # and a run that missed pair 1 still names its pattern (the section is not always "none")
    d2 = write_run(tmp_path / "run2", cfg, [unit_record(0, 0, True), unit_record(1, 0, False)])
    result = _run("brec", "report", d2, "--explain")
    assert result.exit_code == 0 and "- pair 1: pattern" in result.output, result.output
