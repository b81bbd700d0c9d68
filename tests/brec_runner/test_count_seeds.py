"""``count report`` counts each seed once (issue 45, fault 2): a unit identity (settings hash,
declared bound, task, level, seed) held by two runs, by one run given twice or by a copy is one
seed; two different results for one identity are refused; another declared bound is another row.
The expected means and stds are numpy's over the records read straight from the results files."""

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

from brec_runner.counting.evaluate import run_count
from brec_runner.counting.report import build_count_report, format_count_report
from brec_runner.counting.run import CountRun, read_count_run
from cli import cli
from tiny_gnn import tiny_gnn_source
from wltools.counting import data as D
from wltools.errors import RunDirectoryError

SMALL = {"epochs": 1, "limit": 20, "batch_size": 10}


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("models") / "seedmodel.py"
    path.write_text("import torch\nfrom torch import nn\n" + tiny_gnn_source() + "\ndef tiny():\n    return TinyGNN()\n\n\ntiny.wl_bound = \"1wl\"\n")
    return path


@pytest.fixture(scope="module")
def two_seeds(model_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "a"
    run_count(f"{model_file}:tiny", ["cycle:3"], ["graph"], [0, 1], out, protocol=SMALL, progress=False, quiet=True)
    return out


def _lines(run):
    return [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]


def test_a_copy_or_a_run_given_twice_counts_each_seed_once(two_seeds, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(two_seeds, copy)
    vals = [r["test_nmae"] for r in _lines(two_seeds)]
    assert len(vals) == 2
    for dirs in ([two_seeds, copy], [two_seeds, two_seeds], [copy, two_seeds, copy]):
        report = build_count_report(dirs)
        (row,) = report["rows"]
        assert row["seeds"] == [0, 1]
        assert row["test_nmae_mean"] == pytest.approx(np.mean(vals), rel=1e-12)
        assert row["test_nmae_std"] == pytest.approx(np.std(vals, ddof=1), rel=1e-12)
        assert report["duplicates"] and "duplicate(s) dropped" in format_count_report(report, "md")
    res = CliRunner().invoke(cli, ["count", "report", str(two_seeds), str(copy), "--format", "csv"])
    assert res.exit_code == 0 and "2 duplicate(s) dropped" in res.output
    assert " ".join(["0", "1"]) in res.output.splitlines()[-1]  # the seeds column: 0 1, not 0 0 1 1


def test_a_line_recorded_twice_in_one_run_is_one_seed(two_seeds, tmp_path):
    copy = tmp_path / "twice"
    shutil.copytree(two_seeds, copy)
    first = (copy / "results.jsonl").read_text().splitlines()[0]
    with open(copy / "results.jsonl", "a") as fh:
        fh.write(first + "\n")
    report = build_count_report([copy])
    assert report["rows"][0]["seeds"] == [0, 1] and len(report["duplicates"]) == 1


def test_one_seed_is_shown_as_one_seed(two_seeds, tmp_path):
    one = tmp_path / "one"
    shutil.copytree(two_seeds, one)
    lines = (one / "results.jsonl").read_text().splitlines()
    (one / "results.jsonl").write_text(lines[0] + "\n")
    report = build_count_report([one])
    assert report["rows"][0]["test_nmae_std"] is None and report["rows"][0]["seeds"] == [0]
    table_row = next(ln for ln in format_count_report(report, "md").splitlines() if "| cycle:3 |" in ln)
    assert "±" not in table_row and f"{json.loads(lines[0])['test_nmae']:.4f}" in table_row


def test_two_different_results_for_one_seed_are_refused(two_seeds, tmp_path):
    """A second run of the same settings whose seed 0 holds another result (written through the
    run's own writer, checksum and all): the report refuses in one line instead of averaging."""
    other = tmp_path / "other"
    shutil.copytree(two_seeds, other)
    (other / "results.jsonl").write_text("")
    cfg, _, _ = read_count_run(two_seeds)
    rec = _lines(two_seeds)[0]
    keep = {k: v for k, v in cfg.items() if k not in ("settings_hash", "code_versions", "config_check", "kind")}
    body = {k: v for k, v in rec.items() if k not in ("settings", "code", "check", "predictions")}
    pred = np.load(two_seeds / rec["predictions"]["file"]) + np.float32(0.5)  # other test outputs
    flat = np.concatenate([np.atleast_1d(t) for t in D.targets("cycle:3", "graph")]).astype(float)
    std = np.std(flat, ddof=1)
    y = (np.asarray(D.targets("cycle:3", "graph", D.split_indices("test")[:SMALL["limit"]])) / std).astype(np.float32)
    nmae = float(np.abs(pred.astype(float) - y.astype(float)).mean())
    with CountRun(other, keep, cfg["code_versions"][0]) as run:
        run.append({**body, "test_nmae": nmae, "test_mae": nmae * std}, pred)
    with pytest.raises(RunDirectoryError, match="different results for cycle:3 graph seed 0"):
        build_count_report([two_seeds, other])
    res = CliRunner().invoke(cli, ["count", "report", str(two_seeds), str(other)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


def test_the_declared_bound_is_part_of_the_identity(model_file, two_seeds, tmp_path):
    """The same model and settings declared 3wl: a resume into the 1wl run is refused naming the
    bound; a separate run is a separate row with its own theory verdict, never merged. The same
    bound declared another way (``--bound 1wl`` instead of the factory's ``wl_bound``) is the same
    identity: the resume goes on and adds nothing."""
    before = (two_seeds / "results.jsonl").read_bytes()
    run_count(f"{model_file}:tiny", ["cycle:3"], ["graph"], [0, 1], two_seeds, bound="1wl", protocol=SMALL,
              progress=False, quiet=True)
    assert (two_seeds / "results.jsonl").read_bytes() == before
    with pytest.raises(RunDirectoryError, match="bound"):
        run_count(f"{model_file}:tiny", ["cycle:3"], ["graph"], [0], two_seeds, bound="3wl", protocol=SMALL,
                  progress=False, quiet=True)
    other = tmp_path / "b3"
    run_count(f"{model_file}:tiny", ["cycle:3"], ["graph"], [0], other, bound="3wl", protocol=SMALL, progress=False,
              quiet=True)
    rows = build_count_report([two_seeds, other])["rows"]
    assert sorted((r["bound"], tuple(r["seeds"]), r["theory"]) for r in rows) == [
        ("1wl", (0, 1), "cannot count"), ("3wl", (0,), "can count")]
