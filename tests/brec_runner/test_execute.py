"""Executors (brec_runner.runs.execute): local worker processes give the one-process verdicts, resume
across worker counts, and a failing worker is one error line. Workers only return outcomes; the
driver is the only writer of the run directory.

Worker processes start without the driver's memory (forked from multiprocessing's fork server, which
has imported only torch and PyG, or spawned: brec_runner.runs.execute.worker_context), so they see only
models they can import or load again: these tests use Graphormer's ``small`` preset and a model in a
user's .py file. The fork server serves every test of the module: its torch start-up is paid once.
"""

import json

import pytest

from brec_runner.records.record import finished_units, read_results, results_files
from brec_runner.runs.evaluate import run
from brec_runner.runs.plan import split_units
from brec_runner.runs.protocol import Protocol
from wltools.errors import WLToolsError

_PAIRS = [0, 1, 5]  # 6 units: two workers each get some (3 left after a stop: 2 + 1); one epoch (training time)
_KW = dict(protocol=Protocol(epochs=1), pairs=_PAIRS, categories=None, seeds=[0, 1], progress=False,
           multi_pair=1)  # the loop: these tests compare T² bit for bit across worker counts


def _by_unit(run_dir):
    return {(r["id"], r["seed"]): r for f in results_files(run_dir) for r in read_results(f)}


def test_split_units_is_a_balanced_partition_in_blocks():
    todo = [(pid, s) for pid in (7, 3, 9) for s in (0, 1, 2, 3)]
    parts = split_units(todo, 2)
    assert sorted(u for p in parts for u in p) == sorted(todo) and [len(p) for p in parts] == [6, 6]
    parts = split_units(todo, 2, block=2)  # blocks of two seeds of one pair: (3,0),(3,1) | (3,2),(3,3) | ...
    assert parts == [[(3, 0), (3, 1), (7, 0), (7, 1), (9, 0), (9, 1)], [(3, 2), (3, 3), (7, 2), (7, 3), (9, 2), (9, 3)]]
    parts = split_units(todo, 2, block=4)  # 3 pairs of 4 seeds: whole pairs, 2 + 1
    assert [sorted({u[0] for u in p}) for p in parts] == [[3, 9], [7]]
    assert len(split_units(todo[:2], 8)) == 2  # no empty workers


@pytest.fixture(scope="module")
def one_process(tmp_path_factory):
    out = tmp_path_factory.mktemp("one") / "run"
    run("graphormer", preset="small", out=out, **_KW)
    return _by_unit(out)


def _same_verdicts(got, want, same_arithmetic=True):
    """Same verdicts and epochs; the same T² and losses too when the same code path computed them
    (the multi-pair mode reassociates float sums, which moves a T² near zero noticeably)."""
    assert got.keys() == want.keys()
    for key, w in want.items():
        g = got[key]
        assert (g["distinguished"], g["reliable"], g["epochs"]) == (w["distinguished"], w["reliable"], w["epochs"])
        if same_arithmetic:
            for field in ("t2_pair", "t2_reliability", "final_loss"):
                assert g[field] == w[field], (key, field)


@pytest.mark.xdist_group("one-process-run")  # with the next test: the reference run made once
def test_workers_match_one_process(one_process, tmp_path):
    out = tmp_path / "run"
    run("graphormer", preset="small", out=out, workers=2, **_KW)
    assert [p.name for p in results_files(out)] == ["results.jsonl"]  # the driver is the only writer
    got = _by_unit(out)
    _same_verdicts(got, one_process)
    assert len(read_results(out / "results.jsonl")) == len(got) == 6  # nothing duplicated
    grouped = tmp_path / "grouped"
    run("graphormer", preset="small", out=grouped, workers=2, **{**_KW, "multi_pair": 2})
    _same_verdicts(_by_unit(grouped), one_process, same_arithmetic=False)
    modes = {(r["id"], r["mode"]) for r in read_results(grouped / "results.jsonl")}
    assert modes == {(p, "multipair:2") for p in _PAIRS}  # both seeds of a pair, trained together
    assert json.loads((out / "config.json").read_text())["pairs"] == _PAIRS


@pytest.mark.xdist_group("one-process-run")
def test_resume_with_another_worker_count(one_process, tmp_path):
    out = tmp_path / "run"
    run("graphormer", preset="small", out=out, stop_after=3, **_KW)  # interrupted one-process run
    assert len(read_results(out / "results.jsonl")) == 3
    run("graphormer", preset="small", out=out, workers=2, **_KW)  # 2 processes, not 3: each costs a torch start-up
    assert len(read_results(out / "results.jsonl")) == 6  # only the 3 left were run
    _same_verdicts(_by_unit(out), one_process)
    run("graphormer", preset="small", out=out, workers=3, **_KW)  # finished: nothing new, nothing started
    assert len(finished_units(out)) == 6 and len(read_results(out / "results.jsonl")) == 6


def test_user_file_model_in_workers_matches_one_process(user_model_file, tmp_path):
    kw = dict(protocol={"epochs": 1}, pairs=[0, 1, 2], categories=None, seeds=[0, 1], progress=False,
              multi_pair=1)  # not "auto": a timed probe could choose grouping in one run only (bits differ)
    one = run(f"{user_model_file}:tiny", out=tmp_path / "one", **kw)
    two = run(f"{user_model_file}:tiny", out=tmp_path / "two", workers=2, **kw)
    _same_verdicts(_by_unit(two), _by_unit(one))


def test_workers_run_under_the_drivers_environment_of_the_run(user_model_file, tmp_path, monkeypatch):
    """A variable set after the fork server started (by the first run here, if no test before) reaches
    the workers of a later run, as it reaches spawned ones: the model raises without it, and a unit
    whose model raised is recorded in failures.jsonl."""
    path = tmp_path / "env_model.py"
    path.write_text(user_model_file.read_text() + "\n\n"
                    f"EXPECTED = {str(tmp_path)!r}\n\n\n"
                    "def env_checked():\n"
                    "    import os\n"
                    "    if os.environ.get('BREC_TEST_RUN_ENV') != EXPECTED:\n"
                    "        raise RuntimeError('BREC_TEST_RUN_ENV not set in this process')\n"
                    "    return TinyGNN()\n")
    kw = dict(protocol={"epochs": 1}, pairs=[0], categories=None, seeds=[0, 1], progress=False, multi_pair=1,
              workers=2)
    run(f"{path}:tiny", out=tmp_path / "before", **kw)  # the fork server (Linux) is running from here on
    monkeypatch.setenv("BREC_TEST_RUN_ENV", str(tmp_path))
    out = run(f"{path}:env_checked", out=tmp_path / "after", **kw)
    assert finished_units(out) == {(0, 0), (0, 1)} and not (out / "failures.jsonl").exists()


def test_a_failing_worker_is_one_error_line(user_model_file, tmp_path):
    # a model that raises is a recorded unit failure (tests/brec_runner/test_failures.py); a worker fails
    # on what is not: here a MemoryError in training on a 35-node strongly regular pair (150), which the
    # contract check (eval mode) does not meet
    path = tmp_path / "oom.py"
    path.write_text(user_model_file.read_text() + "\n\n"
                    "class Oom(TinyGNN):\n"
                    "    def forward(self, batch):\n"
                    "        if self.training and int((batch.ptr[1:] - batch.ptr[:-1]).max()) > 20:\n"
                    "            raise MemoryError('graph too large')\n"
                    "        return super().forward(batch)\n")
    with pytest.raises(WLToolsError, match=r"brec worker [12]/2 failed: MemoryError: graph too large") as err:
        run(f"{path}:Oom", protocol={"epochs": 1}, pairs=[0, 1, 150], categories=None,
            out=tmp_path / "run", workers=2, progress=False)
    assert "\n" not in str(err.value)
    done = finished_units(tmp_path / "run")
    assert (150, 0) not in done and done <= {(0, 0), (1, 0)}  # what finished before is kept


def test_unpicklable_factory_with_workers_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    import torch

    def local_factory():  # a closure: worker processes cannot import it by name
        return torch.nn.Sequential(torch.nn.Linear(1, 4))

    class Wrapped(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = local_factory()

        def forward(self, batch):
            return self.inner(torch.ones(batch.num_graphs, 1))

    with pytest.raises(WLToolsError, match="--workers needs a factory") as err:
        run(Wrapped, pairs=[0, 1], categories=None, protocol={"epochs": 1}, out=tmp_path / "r", workers=2,
            progress=False)
    assert "\n" not in str(err.value)


def test_cuda_workers_are_spawned_never_forked():
    """A CUDA run's workers are spawned: forked from a process that imported PyG on a CUDA build,
    every worker's first CUDA call fails ("initialization error", seen on an H200)."""
    import sys

    from brec_runner.runs.execute import worker_context

    assert worker_context("cuda").get_start_method() == "spawn"
    assert worker_context("cuda:1").get_start_method() == "spawn"
    if sys.platform.startswith("linux"):
        assert worker_context("cpu").get_start_method() == "forkserver"
