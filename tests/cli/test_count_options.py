"""``wltools count`` options with one meaning (issue 45, fault 5): a repeated task, level or seed,
more --jobs than cores, --device cuda without CUDA, and --skip-bad on lines that are not records."""

import json
import shutil

import pytest
import torch
from click.testing import CliRunner

from cli import cli
from tiny_gnn import tiny_model_file


def one_line_refusal(args, *needles):
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output, res.output
    for n in needles:
        assert n in res.output, res.output
    return res


@pytest.mark.parametrize("extra, needle", [
    (["--task", "cycle:3,cycle:3"], "task cycle:3 given twice"),
    (["--task", "cycle:3,cycle:03"], "task cycle:3 given twice"),
    (["--task", "cycle:3", "--level", "graph,node,graph"], "level graph given twice"),
])
def test_a_repeated_task_or_level_is_refused_before_any_work(tmp_path, extra, needle):
    out = tmp_path / "r"
    one_line_refusal(["count", "run", "--model", "examples/gin.py:gin", *extra, "--out", str(out)], needle)
    assert not out.exists()


def test_cuda_without_cuda_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    out = tmp_path / "r"
    one_line_refusal(["count", "run", "--model", "examples/gin.py:gin", "--task", "cycle:3", "--device", "cuda",
                      "--out", str(out)], "sees no CUDA device", "--device cpu")
    assert not out.exists()


def test_jobs_are_capped_at_the_usable_cores(monkeypatch):
    """64 jobs on a machine (here: an affinity mask) of one core: one process, no pool, and a note."""
    import multiprocessing
    import os

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(multiprocessing, "get_context", lambda *a: pytest.fail("a process pool was started"))
    res = CliRunner().invoke(cli, ["count", "verify-data", "--sample", "1", "--jobs", "64"])
    assert res.exit_code == 0, res.output
    assert "--jobs 64 capped at 1" in res.output and "OK: 22 tasks" in res.output


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    model = tmp_path_factory.mktemp("m") / "optmodel.py"
    tiny_model_file(model)
    out = tmp_path_factory.mktemp("runs") / "run"
    res = CliRunner().invoke(cli, ["count", "run", "--model", f"{model}:tiny", "--task", "cycle:3", "--seeds", "0,1",
                                   "--limit", "20", "--epochs", "1", "--batch-size", "10", "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.parametrize("junk", [b"[]", b'{"task": "cycle:3", "lev', b"not json", b""])
def test_skip_bad_skips_lines_that_are_not_records(run_dir, tmp_path, junk):
    """A cut-off, ``[]``, non-JSON or empty line between two good ones: refused naming the line and
    pointing to count report --skip-bad; with it, skipped and counted, the two seeds still there."""
    damaged = tmp_path / "damaged"
    shutil.copytree(run_dir, damaged)
    first, second = (damaged / "results.jsonl").read_bytes().splitlines()
    (damaged / "results.jsonl").write_bytes(first + b"\n" + junk + b"\n" + second + b"\n")
    res = one_line_refusal(["count", "report", str(damaged)], "line 2", "count report --skip-bad")
    assert "brec report" not in res.output
    res = CliRunner().invoke(cli, ["count", "report", str(damaged), "--skip-bad", "--format", "json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["rows"][0]["seeds"] == [0, 1] and len(report["bad"]) == 1 and "line 2" in report["bad"][0]
