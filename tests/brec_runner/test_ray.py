"""The Ray executor (brec_runner.runs.execute_ray): the local executor's records, bit for bit, from Ray
tasks; a crashed task is retried; a unit that still fails is reported, never dropped; a driver
killed with SIGKILL resumes with nothing duplicated or lost; without Ray, one error line.

One local Ray instance (2 CPUs, no dashboard) serves the whole module. Its workers see this
checkout (PYTHONPATH) and the module's encoding cache (WLTOOLS_CACHE), set before Ray starts so
every job's workers inherit them. Each new Ray worker imports torch and PyG (about 7 s of CPU, most
of this module's time), so the module keeps its workers: idle ones are not stopped while the killed
driver's job runs (``RAY_num_workers_soft_limit``), and the tests that kill workers (a crashed task)
come last. Models come from a user's .py file that the workers load again;
a model learns its unit from the seed it is built under (brec_runner.runs.rpc.pair_seed), so it can
misbehave in one unit, and only in Ray workers (never in this process, which checks the contract).

Skipped when the ``ray`` extra is not installed (``pip install -e ".[ray]"``; CI installs it
with ``.[test]``), except the test of the error without Ray.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import brec_runner
from brec_runner.records.record import read_results, results_files
from brec_runner.runs.evaluate import run
from brec_runner.runs.rpc import pair_seed
from kill_mid_run import kill_when
from tiny_gnn import tiny_gnn_source

# one xdist worker runs the module: its Ray instance and reference records are made once
pytestmark = pytest.mark.xdist_group("ray")

PAIRS, SEEDS = [0, 1, 2, 3, 4, 5], [0, 1]  # Basic pairs
_KW = dict(categories=None, seeds=SEEDS, protocol={"epochs": 1}, progress=False,
           multi_pair=1)  # the loop: records are compared bit for bit across executors (one epoch: any
# number trains and records the same way, and each one costs every run of the module its time)
# not compared: wall-clock times, the checksum over them, and the settings hash (it names the model
# factory, and the factories below differ in name only)
_TIMING = ("wall_s", "cuda_s", "check", "settings")

MODELS = '''
import os, time
import torch
from torch import nn

DRIVER = {driver}
MARKS = {marks!r}
UNITS = {units!r}  # pair_seed(seed, pair id) -> (pair id, seed)

''' + tiny_gnn_source() + '''

def _unit():
    """(pair id, seed) in a Ray worker (the factory runs under the unit's seed), else None."""
    return None if os.getpid() == DRIVER else UNITS.get(torch.initial_seed())


def tiny(hidden=8, out_dim=16):
    return TinyGNN(hidden, out_dim)


def slow(hidden=8, out_dim=16):
    if _unit() is not None:
        time.sleep(0.5)
    return TinyGNN(hidden, out_dim)


def crash_once(hidden=8, out_dim=16):
    mark = os.path.join(MARKS, "crashed")
    if _unit() == (1, 0) and not os.path.exists(mark):
        open(mark, "w").close()
        os._exit(1)  # the worker dies mid-task: Ray retries the task in a new worker
    return TinyGNN(hidden, out_dim)


def crash_always(hidden=8, out_dim=16):
    if _unit() == (2, 1):
        os._exit(1)
    return TinyGNN(hidden, out_dim)


def raises(hidden=8, out_dim=16):
    if _unit() == (2, 1):
        raise RuntimeError("unit (2, 1) cannot be built")
    return TinyGNN(hidden, out_dim)
'''


@pytest.fixture(scope="module")
def ray_address(tmp_path_factory):
    """A local Ray instance with 2 CPUs for the module; its address."""
    ray = pytest.importorskip("ray", reason='the ray extra is not installed (pip install -e ".[ray]")')
    cache = tmp_path_factory.mktemp("cache")
    root = str(Path(brec_runner.__file__).resolve().parents[1])
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WLTOOLS_CACHE", str(cache))
        mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
        # idle workers kept (the default keeps as many as CPUs, so the killed driver's job would make
        # Ray stop this process's workers, and the resumed run start them again: 2 torch start-ups)
        mp.setenv("RAY_num_workers_soft_limit", "8")
        ctx = ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                       configure_logging=False)
        try:
            yield ctx.address_info["address"]
        finally:
            ray.shutdown()


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    units = {pair_seed(s, p): (p, s) for p in PAIRS for s in SEEDS}
    path = folder / "models.py"
    path.write_text(MODELS.format(driver=os.getpid(), marks=str(folder), units=units))
    return path


def _records(run_dir):
    """(pair, seed) -> record without its timing fields; every line of every results file."""
    lines = [r for f in results_files(run_dir) for r in read_results(f)]
    out = {(r["id"], r["seed"]): {k: v for k, v in r.items() if k not in _TIMING} for r in lines}
    assert len(out) == len(lines), "a unit was recorded twice"
    return out


@pytest.fixture(scope="module")
def local_records(models, ray_address, tmp_path_factory):
    """The in-process executor's records of ``tiny`` on PAIRS x SEEDS (the reference)."""
    out = tmp_path_factory.mktemp("local") / "run"
    run(f"{models}:tiny", pairs=PAIRS, out=out, **_KW)
    return _records(out)


def test_without_ray_one_line_naming_the_extra(tmp_path, monkeypatch):
    from cli import cli

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    res = CliRunner().invoke(cli, ["brec", "run", "--model", "ppgt", "--pairs", "0", "--executor", "ray",
                                   "--out", str(tmp_path / "run"), "--quiet"])
    assert res.exit_code == 2, res.output
    assert len(res.output.strip().splitlines()) == 1 and '".[ray]"' in res.output, res.output
    assert not (tmp_path / "run").exists()  # nothing written


def test_ray_records_equal_local(models, local_records, ray_address, tmp_path):
    out = tmp_path / "ray"
    run(f"{models}:tiny", pairs=PAIRS, out=out, executor="ray", **_KW)
    assert [f.name for f in results_files(out)] == ["results.jsonl"]  # the driver is the only writer
    assert _records(out) == local_records  # bit-identical but for wall-clock times
    # --multi-pair: one task per window, the windows of the in-process executor
    local_mp, ray_mp = tmp_path / "local-mp", tmp_path / "ray-mp"
    run(f"{models}:tiny", pairs=PAIRS[:2], out=local_mp, **{**_KW, "multi_pair": 2})
    run(f"{models}:tiny", pairs=PAIRS[:2], out=ray_mp, executor="ray", **{**_KW, "multi_pair": 2})
    got = _records(ray_mp)
    assert got == _records(local_mp) and {r["mode"] for r in got.values()} == {"multipair:2"}


def test_a_model_that_raises_is_a_recorded_failure(models, local_records, ray_address, tmp_path):
    # as in a local run (tests/brec_runner/test_failures.py): caught in the task, recorded, the run goes on
    from brec_runner.records.record import read_config, read_failures
    from brec_runner.runs.execute_ray import RayExecutor

    out = tmp_path / "ray"
    run(f"{models}:raises", pairs=PAIRS[:3], out=out, executor=RayExecutor(max_retries=1), **_KW)
    got = _records(out)
    assert got == {u: r for u, r in local_records.items() if u[0] in PAIRS[:3] and u != (2, 1)}
    failed = read_failures(out, read_config(out))
    assert [(f["id"], f["seed"], f["executor"], f["stage"], f["attempts"]) for f in failed] == [
        (2, 1, "custom", "build", 1)]  # an exception: not retried
    assert failed[0]["error"] == "RuntimeError: unit (2, 1) cannot be built"


def test_driver_killed_with_sigkill_resumes(models, local_records, ray_address, tmp_path):
    out = tmp_path / "ray"
    script = (f"from brec_runner.runs.evaluate import run\n"
              f"run({str(models) + ':slow'!r}, pairs={PAIRS}, out={str(out)!r}, executor='ray', "
              f"address={ray_address!r}, **{_KW!r})\n")
    driver = subprocess.Popen([sys.executable, "-c", script], env=os.environ.copy(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    results = out / "results.jsonl"
    kill_when(driver, lambda: results.exists() and len(read_results(results)) >= 2, "record 2 units")
    before = len(read_results(results))
    assert 2 <= before < len(local_records)  # killed mid-run
    run(f"{models}:slow", pairs=PAIRS, out=out, executor="ray", **_KW)  # the same command again
    assert _records(out) == local_records  # nothing lost, nothing duplicated, same records
    assert len(read_results(results)) == len(local_records)
    assert json.loads((out / "config.json").read_text())["pairs"] == PAIRS


# the tests below kill Ray workers: last, so the tests above reuse theirs


def test_crashed_task_is_retried(models, local_records, ray_address, tmp_path):
    out = tmp_path / "ray"  # pairs 0 and 1: the crashed unit (1, 0) and three others (equal records: above)
    run(f"{models}:crash_once", pairs=PAIRS[:2], out=out, executor="ray", **_KW)
    assert (models.parent / "crashed").exists()  # a worker did die in unit (1, 0)
    assert _records(out) == {u: r for u, r in local_records.items() if u[0] in PAIRS[:2]}


def test_failed_unit_is_reported_not_dropped(models, local_records, ray_address, tmp_path):
    from brec_runner.runs.execute_ray import RayExecutor, UnitsFailed

    out = tmp_path / "ray"
    with pytest.raises(UnitsFailed) as info:
        run(f"{models}:crash_always", pairs=PAIRS[:3], out=out, executor=RayExecutor(max_retries=1), **_KW)
    assert [(f["id"], f["seed"]) for f in info.value.failures] == [(2, 1)]
    assert info.value.failures[0]["attempts"] == 2  # the worker died: retried
    assert "WorkerCrashedError" in info.value.failures[0]["error"]
    assert len(str(info.value).splitlines()) == 1 and "(2, 1)" in str(info.value)
    got = _records(out)  # every other unit was run and recorded
    assert got == {u: r for u, r in local_records.items() if u[0] in PAIRS[:3] and u != (2, 1)}
    failed = [json.loads(line) for line in (out / "failures.jsonl").read_text().splitlines()]
    assert [(f["id"], f["seed"], f["executor"], f["stage"]) for f in failed] == [(2, 1, "custom", "task")]
