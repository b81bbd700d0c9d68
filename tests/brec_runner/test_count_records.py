"""A count record's error follows from what it stores (issue 45, fault 3): its test predictions,
whose digest the line holds, and the shipped targets. The expected errors here are computed from
the targets (``wltools.counting.data``) and numpy, not by the reader under test."""

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

from brec_runner.counting.evaluate import run_count
from brec_runner.counting.report import build_count_report, format_count_report
from brec_runner.counting.run import read_count_run
from brec_runner.records.identity import record_checksum
from cli import cli
from tiny_gnn import tiny_model_file
from wltools.counting import data as D
from wltools.errors import RunDirectoryError

SMALL = {"epochs": 2, "limit": 20, "batch_size": 10}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    model = tmp_path_factory.mktemp("m") / "recmodel.py"
    tiny_model_file(model)
    out = tmp_path_factory.mktemp("runs") / "run"
    run_count(f"{model}:tiny", ["star:3"], ["graph", "node"], [0], out, protocol=SMALL, progress=False, quiet=True)
    return out


def _records(run_dir):
    return [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]


def _rewrite(run_dir, change):
    recs = _records(run_dir)
    change(recs[0])
    recs[0]["check"] = record_checksum(recs[0])  # a careful hand edit: the checksum recomputed
    (run_dir / "results.jsonl").write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in recs))


def test_the_stored_predictions_give_the_recorded_error(run):
    test_ids = D.split_indices("test")[:SMALL["limit"]]
    for rec in _records(run):
        every = np.concatenate([np.atleast_1d(np.asarray(t, dtype=float)) for t in D.targets("star:3", rec["level"])])
        std = np.std(every, ddof=1)
        y = np.concatenate([np.atleast_1d(np.asarray(t, dtype=float))
                            for t in D.targets("star:3", rec["level"], test_ids)]) / std
        pred = np.load(run / rec["predictions"]["file"])
        assert pred.shape == y.shape and rec["predictions"]["items"] == y.size
        assert rec["std"] == pytest.approx(std, rel=1e-12)
        assert rec["test_nmae"] == pytest.approx(np.abs(pred - y.astype(np.float32)).mean(), rel=1e-6)
    assert all(r["recomputed"] for r in build_count_report([run])["rows"])


@pytest.mark.parametrize("edit, message", [
    (lambda r: r.update(test_nmae=r["test_nmae"] / 2, test_mae=r["test_mae"] / 2),
     "does not follow from its stored predictions"),
    (lambda r: r.update(test_mae=r["test_mae"] * 0.9), "test_mae"),
    (lambda r: r.update(std=r["std"] * 2, test_mae=r["test_mae"] * 2), "targets' std"),
    (lambda r: r.pop("predictions"), "no stored test predictions"),
    (lambda r: r["predictions"].update(file="../results.jsonl"), "outside predictions/"),
])
def test_an_edited_error_with_its_checksum_recomputed_is_refused(run, tmp_path, edit, message):
    copy = tmp_path / "edited"
    shutil.copytree(run, copy)
    _rewrite(copy, edit)
    with pytest.raises(RunDirectoryError, match=message):
        read_count_run(copy)
    res = CliRunner().invoke(cli, ["count", "report", str(copy)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and "line 1" in res.output
    assert len(read_count_run(copy, skip_bad=True)[1]) == 1  # the other line still counts


@pytest.mark.parametrize("damage, message", [
    (lambda p: p.write_bytes(p.read_bytes()[:-4] + np.float32(9.0).tobytes()), "was changed"),
    (lambda p: p.unlink(), "is missing"),
])
def test_changed_or_missing_predictions_are_refused(run, tmp_path, damage, message):
    copy = tmp_path / "damaged"
    shutil.copytree(run, copy)
    damage(copy / _records(copy)[0]["predictions"]["file"])
    with pytest.raises(RunDirectoryError, match=message):
        read_count_run(copy)


def test_runs_recorded_before_are_read_with_a_note_and_not_extended(tmp_path):
    """The committed runs predate stored predictions: read as recorded, every row marked (†, and
    ``recomputed`` false); resuming one is refused in one line."""
    report = build_count_report(["reports/count-runs/gin-graph"])
    assert report["rows"] and not any(r["recomputed"] for r in report["rows"])
    text = format_count_report(report, "md")
    assert "† recorded before count records stored their test predictions" in text
    assert all(" †" in ln for ln in text.splitlines() if "| cycle:" in ln or "| star:" in ln)
    copy = tmp_path / "old"
    shutil.copytree("reports/count-runs/gin-graph", copy)
    with pytest.raises(RunDirectoryError, match="before count records stored their test predictions"):
        run_count("examples/gin.py:gin", ["cycle:3"], ["graph"], [0], copy, protocol=SMALL, progress=False,
                  quiet=True)
