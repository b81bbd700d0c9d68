"""A failing model is a recorded outcome, not a crash (brec_runner.evaluate, execute, multipair, rpc).

A unit whose model raises is written to the run directory's failure log, shown as one line on
stderr, and the run goes on (exit 0); more than ``--max-failures`` stop it with exit 2; a resume
retries the failed units; the API's report lists them; the contract check on the largest selected
pair refuses a model that fails on large graphs before anything is written. Interrupts and memory
errors are not model failures. Models live in a researcher's .py file written per test; the
failing ones raise in training only (the contract check runs in eval mode, so it lets them pass).
"""

import json

import pytest
from click.testing import CliRunner

import cli
from brec_runner.records.record import finished_units, read_config, read_failures
from brec_runner.runs.evaluate import TooManyFailures, evaluate, run
from brec_runner.runs.rpc import is_model_failure
from tiny_gnn import tiny_gnn_source

# Basic pairs 0 and 1 have 10 nodes, strongly regular pairs 110 and 111 have 16 and 25
MODELS = '''
import os
import torch
from torch import nn

MARK = {mark!r}

''' + tiny_gnn_source(out_dim=4, wl_bound=False) + '''

def largest(batch):
    return int((batch.ptr[1:] - batch.ptr[:-1]).max())


class Fails(TinyGNN):
    """Raises ``error(*message)`` in training (in eval mode too with ``in_eval``) on a batch whose
    largest graph has more than ``above`` nodes (fewer than ``below``, when set) while ``armed()``."""

    above, below, in_eval = 20, None, False
    error, message = ValueError, ("graphs above 20 nodes are not supported",)

    def armed(self):
        return True

    def forward(self, batch):
        n = largest(batch)
        if (self.training or self.in_eval) and (n < self.below if self.below else n > self.above) and self.armed():
            raise self.error(*self.message)
        return super().forward(batch)


class TrainBig(Fails):
    """Raises in training on graphs above 20 nodes."""


class AlwaysBig(Fails):
    """Raises on graphs above 20 nodes, in eval mode too (the contract check sees it)."""

    in_eval = True


class TrainSmall(Fails):
    """Raises in training on graphs of fewer than 12 nodes."""

    below, error, message = 12, IndexError, ("graphs below 12 nodes are not supported",)


class MarkedBig(Fails):
    """TrainBig while the file MARK exists (a model fixed between two invocations)."""

    message = ("graphs above 20 nodes are not supported yet",)

    def armed(self):
        return os.path.exists(MARK)


class OomBig(Fails):
    error, message = MemoryError, ("out of memory",)


class InterruptBig(Fails):
    error, message = KeyboardInterrupt, ()
'''


@pytest.fixture
def models(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "models.py"
    path.write_text(MODELS.format(mark=str(tmp_path / "mark")))
    return path


def _cli(*args):
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def _brec_run(models, model, out, *extra):
    return _cli("brec", "run", "--model", f"{models}:{model}", "--epochs", 1, "--out", out, "--quiet", *extra)


def _failed(out):
    return [(f["id"], f["seed"]) for f in read_failures(out, read_config(out))]


def test_failing_units_are_recorded_and_the_run_goes_on(models, tmp_path):
    out = tmp_path / "run"
    res = _brec_run(models, "TrainBig", out, "--pairs", "0,1,111", "--multi-pair", 1)
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    assert "pair 111 seed 0 failed (train): ValueError: graphs above 20 nodes are not supported" in res.output
    assert finished_units(out) == {(0, 0), (1, 0)}  # the others ran and were recorded
    assert _failed(out) == [(111, 0)]
    entry = read_failures(out, read_config(out))[0]
    assert entry["type"] == "ValueError" and entry["stage"] == "train" and "in forward" in entry["where"]

    rep = _cli("brec", "report", "--no-theory", "--format", "json", out)
    assert rep.exit_code == 0, rep.output
    data = json.loads(rep.stdout)
    assert data["unfinished"] and [(f["id"], f["seed"]) for f in data["failed_units"]] == [(111, 0)]
    assert {r["category"]: r["units"] for r in data["categories"]}["regular"] == {
        "selected": 1, "recorded": 0, "failed": 1, "missing": 0}
    md = _cli("brec", "report", "--no-theory", out).stdout
    assert "**Unfinished run**: 2 of 3 selected" in md and "pair 111 seed 0 (train): ValueError" in md


def test_more_than_max_failures_stop_with_exit_2(models, tmp_path):
    out = tmp_path / "run"
    res = _brec_run(models, "TrainBig", out, "--pairs", "0,111,112", "--multi-pair", 1, "--max-failures", 1)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert "error: stopped after 2 failed units (more than --max-failures 1)" in res.output
    assert finished_units(out) == {(0, 0)} and _failed(out) == [(111, 0), (112, 0)]
    with pytest.raises(TooManyFailures):  # the API: the same limit; 0 stops at the first failure
        run(f"{models}:TrainBig", pairs=[111, 112], categories=None, protocol={"epochs": 1}, progress=False,
            out=tmp_path / "api", multi_pair=1, max_failures=0)
    assert _failed(tmp_path / "api") == [(111, 0)]


def test_resume_retries_failed_units(models, tmp_path):
    out, mark = tmp_path / "run", tmp_path / "mark"
    mark.touch()
    assert _brec_run(models, "MarkedBig", out, "--pairs", "0,111", "--multi-pair", 1).exit_code == 0
    assert finished_units(out) == {(0, 0)} and _failed(out) == [(111, 0)]
    mark.unlink()  # the model is fixed: the resume runs the failed unit again, and only it
    res = _brec_run(models, "MarkedBig", out, "--pairs", "0,111", "--multi-pair", 1)
    assert res.exit_code == 0, res.output
    assert finished_units(out) == {(0, 0), (111, 0)}
    assert _failed(out) == [(111, 0)]  # the log keeps the history ...
    data = json.loads(_cli("brec", "report", "--no-theory", "--format", "json", out).stdout)
    assert data["failed_units"] == [] and not data["unfinished"]  # ... and the report no longer lists it


def test_the_api_returns_a_report_listing_the_failed_units(models, tmp_path, capsys):
    rep = evaluate(f"{models}:TrainBig", categories=None, pairs=[0, 111], protocol={"epochs": 1}, out=tmp_path / "run",
                   progress=False, theory=False, multi_pair=1)
    assert rep.unfinished and [(f["id"], f["seed"], f["error"]) for f in rep.failed_units] == [
        (111, 0, "ValueError: graphs above 20 nodes are not supported")]
    assert rep.missing_units == [] and "unfinished: 1 failed" in repr(rep)
    err = capsys.readouterr().err
    assert "Traceback" not in err and "pair 111 seed 0 failed (train)" in err


def test_the_contract_check_on_the_largest_pair_refuses_before_writing(models, tmp_path):
    out = tmp_path / "run"
    res = _brec_run(models, "AlwaysBig", out, "--pairs", "0,1,110,111")
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "Traceback" not in res.output
    assert "pair 111 (the largest selected pair, 25 nodes): ValueError: graphs above 20 nodes" in res.output
    assert not out.exists()  # nothing written


def test_a_failing_multi_pair_group_records_each_unit_and_keeps_the_mode(models, tmp_path):
    out = tmp_path / "run"
    with _no_vmap_warning():
        run(f"{models}:TrainSmall", pairs=[0, 110], categories=None, seeds=[0, 1], protocol={"epochs": 1},
            progress=False, out=out, multi_pair=2)
    assert _failed(out) == [(0, 0), (0, 1)]  # the group of pair 0 failed, and each of its units alone
    modes = {(r["id"], r["seed"]): r["mode"] for r in _records(out)}
    assert modes == {(110, 0): "multipair:2", (110, 1): "multipair:2"}  # the model's failure, not vmap's


def test_a_model_failing_in_the_multi_pair_probe_runs_the_loop(models, tmp_path, capsys):
    out = tmp_path / "run"
    run(f"{models}:TrainSmall", pairs=[0, 110], categories=None, seeds=[0, 1], protocol={"epochs": 1},
        progress=False, out=out, multi_pair="auto")  # the probe trains pair 0, where the model raises
    assert _failed(out) == [(0, 0), (0, 1)] and finished_units(out) == {(110, 0), (110, 1)}
    err = capsys.readouterr().err
    assert "the probe's model failed on pair 0 (IndexError); using the loop" in err and "Traceback" not in err


def test_workers_record_failures_and_go_on(models, tmp_path):
    out = tmp_path / "run"
    res = _brec_run(models, "TrainBig", out, "--pairs", "0,1,111", "--multi-pair", 1, "--workers", 2)
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output and "pair 111 seed 0 failed (train)" in res.output
    assert finished_units(out) == {(0, 0), (1, 0)} and _failed(out) == [(111, 0)]


@pytest.mark.parametrize("model, exc", [("OomBig", MemoryError), ("InterruptBig", KeyboardInterrupt)])
def test_memory_errors_and_interrupts_are_not_model_failures(models, tmp_path, model, exc):
    out = tmp_path / "run"
    with pytest.raises(exc):
        run(f"{models}:{model}", pairs=[0, 111], categories=None, protocol={"epochs": 1}, progress=False,
            out=out, multi_pair=1)
    assert finished_units(out) == {(0, 0)} and not (out / "failures.jsonl").exists()


def test_what_counts_as_a_model_failure():
    from brec_runner.models.source import ModelContractError
    from wltools.errors import RunDirectoryError

    assert is_model_failure(ValueError()) and is_model_failure(RuntimeError()) and is_model_failure(AssertionError())
    assert is_model_failure(ModelContractError("x"))
    for exc in (MemoryError(), KeyboardInterrupt(), SystemExit(1), RunDirectoryError("x")):
        assert not is_model_failure(exc)


def test_a_tampered_failure_line_is_left_out(models, tmp_path):
    out = tmp_path / "run"
    assert _brec_run(models, "TrainBig", out, "--pairs", "0,111,112", "--multi-pair", 1).exit_code == 0
    lines = (out / "failures.jsonl").read_text().splitlines()
    (out / "failures.jsonl").write_text(lines[0].replace('"id": 111', '"id": 1') + "\n" + lines[1] + "\n")
    bad = []
    assert [f["id"] for f in read_failures(out, read_config(out), bad=bad)] == [112]
    assert len(bad) == 1 and "line 1: checksum mismatch" in bad[0]
    data = json.loads(_cli("brec", "report", "--no-theory", "--format", "json", out).stdout)
    assert [f["id"] for f in data["failed_units"]] == [112] and len(data["failure_log_skipped"]) == 1
    assert data["missing_units"] == [[111, 0]]  # no result and no trusted failure: missing


def _records(out):
    from brec_runner.records.record import read_run

    return read_run(out).records


class _no_vmap_warning:
    """No "cannot run under vmap" warning inside the block."""

    def __enter__(self):
        import warnings

        self._cm = warnings.catch_warnings(record=True)
        self._log = self._cm.__enter__()
        warnings.simplefilter("always")
        return self

    def __exit__(self, *exc):
        self._cm.__exit__(*exc)
        assert not [w for w in self._log if "vmap" in str(w.message)], [str(w.message) for w in self._log]
