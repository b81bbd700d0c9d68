"""Progress (issue 34 item 4): a bar only on a terminal, one line per stage in a log, nothing with
``--quiet``; every long loop goes through :func:`wltools.runtime.progress.progress_bar`."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

from click.testing import CliRunner

from cli import cli
from wltools.runtime.progress import StageLine, progress_bar

ROOT = Path(__file__).resolve().parents[2]


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_one_line_per_stage_and_messages_pass_through():
    log = io.StringIO()
    bar = progress_bar(range(5), desc="verify", unit="graph", file=log)
    assert isinstance(bar, StageLine) and sum(1 for _ in bar) == 5
    assert log.getvalue().startswith("wltools: verify: 5 graphs in ") and log.getvalue().count("\n") == 1
    quiet = io.StringIO()
    bar = progress_bar(total=2, desc="refine", unit="run", enabled=False, file=quiet)
    bar.update(2)
    bar.write("wltools: unit (0, 1) failed")  # a failure line is a message, shown even when quiet
    bar.close()
    assert quiet.getvalue() == "wltools: unit (0, 1) failed\n"


def test_on_a_terminal_a_bar_with_carriage_returns():
    tty = _Tty()
    with progress_bar(total=3, desc="refine", unit="run", file=tty) as bar:
        bar.update(3)
    assert not isinstance(bar, StageLine) and "\r" in tty.getvalue() and "3/3" in tty.getvalue()
    assert progress_bar(total=3, enabled=False, file=_Tty()).__class__ is StageLine  # --quiet on a terminal


def test_no_tqdm_outside_the_helper():
    """One place makes bars: no other module of the packages imports tqdm (the dataset package's
    own bars are turned off off a terminal by its command)."""
    hits = subprocess.run(["git", "grep", "--untracked", "-l", "tqdm", "--", "wltools", "brec_runner", "cli"], cwd=ROOT,
                          capture_output=True, text=True).stdout.split()
    assert sorted(hits) == ["wltools/dataset/analysis.py", "wltools/runtime/progress.py"]


def test_brec_theory_logs_one_stage_line_and_none_with_quiet(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    args = ["brec", "theory", "--tests", "1wl,spd", "--pairs", "0-2", "--no-cache"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert "\r" not in r.stderr and [ln for ln in r.stderr.splitlines() if ln.startswith("wltools: refine: 6 runs in")]
    assert len(r.stderr.splitlines()) == 1
    r = CliRunner().invoke(cli, [*args, "--quiet"])
    assert r.exit_code == 0 and r.stderr == ""
    for cmd in (["brec", "verify-data"], ["suite", "verify-data"], ["suite", "theory"], ["claims", "verify"],
                ["brec", "run"], ["suite", "run"], ["dataset"]):
        assert "--quiet" in CliRunner().invoke(cli, [*cmd, "--help"]).output, cmd
