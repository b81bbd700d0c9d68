"""Results you can trust (issue 15): every fault of README's fault table, tried.

Each test damages a run directory, a cache entry or the run itself the way a careless user or a
crash would, and checks the outcome: one error line naming the file (exit 2 in the CLI), a safe
recovery with a message, or a visible count; never a traceback, never a silently wrong number.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

import cli
from brec_runner.models.encoding_cache import encoded_graphs, setting_dir
from brec_runner.records.record import RunDirectory, read_results, read_run
from brec_runner.records.upgrade import upgrade_legacy
from brec_runner.runs import dataset
from brec_runner.runs.evaluate import run
from brec_runner.runs.protocol import Protocol, t2_threshold
from kill_mid_run import kill_when
from wltools.errors import RunDirectoryError

ROOT = Path(__file__).resolve().parents[2]
GIN = f"{ROOT / 'examples' / 'gin.py'}:gin"
FAST = ["--epochs", "1", "--quiet"]

pytestmark = pytest.mark.usefixtures("own_cache")  # every test with its own encoding cache


@pytest.fixture
def runner():
    return CliRunner()


def _cli(runner, *args):
    return runner.invoke(cli.cli, list(args))


def _copy(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock*"))
    return dst


# ------------------------------------------------------------------------------- records


def test_a_flipped_verdict_is_an_error_naming_file_and_line(finished, tmp_path, runner):
    d = _copy(finished, tmp_path / "run")
    lines = (d / "results.jsonl").read_text().splitlines()
    rec = json.loads(lines[2])
    rec["distinguished"] = not rec["distinguished"]
    lines[2] = json.dumps(rec, sort_keys=True)
    (d / "results.jsonl").write_text("\n".join(lines) + "\n")
    res = _cli(runner, "brec", "report", str(d), "--no-theory")
    assert res.exit_code == 2 and "results.jsonl, line 3: checksum mismatch" in res.output
    assert "Traceback" not in res.output
    # --skip-bad reports the other three and says, in the report and on stderr, what it left out
    res = _cli(runner, "brec", "report", str(d), "--no-theory", "--skip-bad")
    assert res.exit_code == 0, res.output
    assert "**1 results line(s) skipped as untrustworthy**" in res.output and "3 (pair, seed) results" in res.output
    assert "1 untrustworthy results line(s) skipped" in res.stderr


def test_a_flipped_verdict_with_a_recomputed_checksum_still_fails(finished, tmp_path):
    from brec_runner.records.identity import record_checksum

    d = _copy(finished, tmp_path / "run")
    lines = (d / "results.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    rec["distinguished"] = True
    rec["check"] = record_checksum(rec)
    lines[0] = json.dumps(rec, sort_keys=True)
    (d / "results.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(RunDirectoryError, match="line 1: verdict distinguished=True.*does not follow from its T"):
        read_run(d)


def test_a_record_of_another_run_is_refused(finished, tmp_path, user_model_file):
    other = run(f"{user_model_file}:tiny", pairs=[5], categories=None, protocol={"epochs": 1}, out=tmp_path / "o",
                progress=False)
    d = _copy(finished, tmp_path / "run")
    with open(d / "results.jsonl", "a") as fh:
        fh.write((other / "results.jsonl").read_text())
    with pytest.raises(RunDirectoryError, match=r"line 5: written under other settings"):
        read_run(d)
    got = read_run(d, skip_bad=True)
    assert len(got.records) == 4 and len(got.bad) == 1


def test_config_deleted_then_a_new_run_with_other_settings_is_refused(finished, tmp_path, runner):
    d = _copy(finished, tmp_path / "run")
    (d / "config.json").unlink()
    res = _cli(runner, "brec", "run", "--model", GIN, "--pairs", "0-3", "--epochs", "2", "--out", str(d), "--quiet")
    assert res.exit_code == 2 and "holds results but no config.json" in res.output
    assert len(read_results(d / "results.jsonl")) == 4  # nothing lost
    res = _cli(runner, "brec", "report", str(d))
    assert res.exit_code == 2 and "restore its config.json" in res.output


def test_resume_under_other_settings_names_the_setting(finished, tmp_path, runner):
    d = _copy(finished, tmp_path / "run")
    res = _cli(runner, "brec", "run", "--model", GIN, "--pairs", "0-3", "--epochs", "1", "--threshold", "exact",
               "--out", str(d), "--quiet")
    assert res.exit_code == 2 and "protocol.threshold" in res.output and "protocol.threshold_rule" in res.output


def test_an_edited_config_is_refused(finished, tmp_path):
    d = _copy(finished, tmp_path / "run")
    cfg = json.loads((d / "config.json").read_text())
    cfg["protocol"]["epochs"] = 50
    (d / "config.json").write_text(json.dumps(cfg))
    # the config check (over every entry) fires first; a config without one fails its settings hash
    with pytest.raises(RunDirectoryError, match="config_check does not match"):
        read_run(d)
    del cfg["config_check"]
    (d / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(RunDirectoryError, match="do not match its settings hash"):
        read_run(d)


def test_a_changed_model_file_needs_allow_code_change(user_model_file, tmp_path, runner):
    kw = dict(pairs=[0], categories=None, protocol={"epochs": 1}, out=tmp_path / "r", progress=False)
    run(f"{user_model_file}:tiny", **kw)
    user_model_file.write_text(user_model_file.read_text() + "\n# a bug fix\n")
    with pytest.raises(RunDirectoryError, match="allow-code-change"):
        run(f"{user_model_file}:tiny", **{**kw, "pairs": [0, 1]})
    run(f"{user_model_file}:tiny", **{**kw, "pairs": [0, 1]}, allow_code_change=True)
    got = read_run(tmp_path / "r")
    assert len(got.records) == 2 and len({r["code"] for r in got.records}) == 2
    assert got.config["code_versions"] == sorted(got.config["code_versions"], key=got.config["code_versions"].index)


# ------------------------------------------------------------------------------- damaged files


@pytest.mark.parametrize("name, content, message", [
    ("results.jsonl", b"", None),  # an empty results file is a run with no finished unit
    ("results.jsonl", b"\x89PNG\r\n\x1a\n\x00\x00binary\n", "line 1: not UTF-8"),
    ("results.jsonl", b"garbage\n", "line 1: not JSON"),
    ("results.jsonl", b"[]\n", "line 1: a JSON list, not a record"),
    ("results.jsonl", b'"text"\n', "line 1: a JSON str, not a record"),
    ("config.json", b"", "not valid JSON"),
    ("config.json", b"\xff\xfe\x00binary", "not UTF-8"),
    ("config.json", b"[]", "holds a JSON list"),
    ("config.json", b'"a string"', "holds a JSON str"),
    ("config.json", b'{"model": 3}', "no valid 'model' entry"),
    ("config.json", b'{"model": "gin", "protocol": {}', "not valid JSON"),
])
def test_damaged_run_files(finished, tmp_path, runner, name, content, message):
    """A damaged results file: `brec report` says so in one line (exit 2); a damaged config: so do
    `brec run` and `claims verify`, the other commands that read it."""
    d = _copy(finished, tmp_path / "run")
    (d / name).write_bytes(content)
    commands = [("brec", "report", str(d), "--no-theory")]
    if name == "config.json":
        commands += [("brec", "run", "--model", GIN, "--pairs", "0-3", "--out", str(d), *FAST),
                     ("claims", "verify", "brec-run", "--run-dir", str(d))]
    for args in commands:
        res = _cli(runner, *args)
        if message is None:
            assert res.exit_code == 0 and "0 (pair, seed) results" in res.output
        else:
            assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output, (args, res.output)
            lines = res.output.strip().splitlines()  # claims verify says first what it verifies
            assert lines[-1].startswith("error: ") and len(lines) == (2 if args[0] == "claims" else 1), (args, lines)
    assert (d / name).read_bytes() == content  # nothing overwritten
    if name == "config.json":
        assert len(read_results(d / "results.jsonl")) == 4  # nothing lost


def test_a_run_directory_that_is_a_file_and_an_unwritable_output(tmp_path, runner):
    f = tmp_path / "file"
    f.write_text("x")
    res = _cli(runner, "brec", "run", "--model", GIN, "--pairs", "0", "--out", str(f), *FAST)
    assert res.exit_code == 2 and "is a file" in res.output
    with pytest.raises(RunDirectoryError, match="exists and is not a directory"):
        run(GIN, pairs=[0], categories=None, protocol={"epochs": 1}, out=f, progress=False)
    res = _cli(runner, "brec", "report", str(f))
    assert res.exit_code == 2 and "is a file, not a run directory" in res.output
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        res = _cli(runner, "brec", "run", "--model", GIN, "--pairs", "0", "--out", str(locked / "run"), *FAST)
        assert res.exit_code == 2 and "cannot create the run directory" in res.output
    res = _cli(runner, "brec", "report", str(tmp_path / "nowhere"))
    assert res.exit_code == 2


def test_report_out_path_unwritable_is_one_line(finished, tmp_path, runner):
    res = _cli(runner, "brec", "report", str(finished), "--no-theory", "--out", str(tmp_path / "no" / "such" / "r.md"))
    assert res.exit_code == 2 and "cannot write" in res.output and "Traceback" not in res.output


def test_reports_over_different_models_need_allow_mixed(finished, tmp_path, runner, user_model_file):
    other = run(f"{user_model_file}:tiny", pairs=[0, 1], categories=None, protocol={"epochs": 1}, out=tmp_path / "o",
                progress=False)
    res = _cli(runner, "brec", "report", str(finished), str(other), "--no-theory")
    assert res.exit_code == 2 and "different settings" in res.output
    res = _cli(runner, "brec", "report", str(finished), str(other), "--no-theory", "--allow-mixed")
    assert res.exit_code == 0 and res.output.count("# BREC: ") == 2
    assert "4 (pair, seed) results" in res.output and "2 (pair, seed) results" in res.output


def test_legacy_directories_need_an_upgrade_that_keeps_every_value(tmp_path, runner):
    legacy = _copy(ROOT / "tests" / "data" / "legacy-run", tmp_path / "legacy")
    before = read_results(legacy / "results.jsonl")
    res = _cli(runner, "brec", "report", str(legacy), "--no-theory")
    assert res.exit_code == 2 and "wltools brec upgrade" in res.output
    res = _cli(runner, "brec", "upgrade", str(legacy))
    assert res.exit_code == 0 and f"{len(before)} records" in res.output
    after = read_run(legacy).records
    assert [{k: r[k] for k in before[0]} for r in after] == before  # every value kept
    assert all(r["threshold_rule"] == "exact" for r in after)
    with pytest.raises(RunDirectoryError, match="already format 3"):  # format 3: the bound in the settings hash
        upgrade_legacy(legacy)


# ------------------------------------------------------------------------------- one writer


def test_a_second_writer_fails_at_once(finished, tmp_path, runner, monkeypatch):
    from brec_runner.records import locks

    waits = []  # "at once": the lock never sleeps to try again (no wall-clock bound, which load could break)
    monkeypatch.setattr(locks, "time", SimpleNamespace(**{k: getattr(time, k) for k in ("monotonic", "strftime", "gmtime")},
                                                       sleep=waits.append))
    d = _copy(finished, tmp_path / "run")
    cfg = json.loads((d / "config.json").read_text())
    with RunDirectory(d, cfg, code=cfg["code_versions"][0]):
        res = _cli(runner, "brec", "run", "--model", GIN, "--pairs", "0-5", "--out", str(d), *FAST)
        assert res.exit_code == 2 and "is in use by another run (process" in res.output
        assert waits == []
        # another shard of the same directory is a different file: it runs
        res = _cli(runner, "brec", "run", "--model", GIN, "--pairs", "0-5", "--shard", "2/2", "--out", str(d), *FAST)
        assert res.exit_code == 0, res.output
    assert len(read_results(d / "results.jsonl")) == 4  # the refused run wrote nothing


def test_a_stale_lock_of_a_dead_process_is_taken_over(finished, tmp_path, capfd):
    d = _copy(finished, tmp_path / "run")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (d / ".lock-results.jsonl").write_text(json.dumps({"pid": int(dead.stdout), "host": "h", "since": "then"}))
    cfg = json.loads((d / "config.json").read_text())
    with RunDirectory(d, cfg, code=cfg["code_versions"][0]) as rd:
        assert len(rd.done) == 4
    assert f"left by process {int(dead.stdout)}" in capfd.readouterr().err


def _cmd(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "cli", "brec", "run", "--model", GIN, "--pairs", "0-11", "--epochs", "3", "--quiet",
            "--out", str(out), *extra]


def test_kill_9_mid_run_then_resume_loses_and_duplicates_nothing(tmp_path, runner):
    """Only the killed run needs a process of its own: the uninterrupted run (through the API) and
    the resume (through the CLI) run in this process, each sparing a torch start-up; records do not
    depend on the caller (tested here too: the killed process's records equal the API run's)."""
    env = {**os.environ, "WLTOOLS_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    whole = run(GIN, pairs="0-11", protocol={"epochs": 3}, out=tmp_path / "whole", progress=False)
    killed = tmp_path / "killed"
    proc = subprocess.Popen(_cmd(killed), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    f = killed / "results.jsonl"
    kill_when(proc, lambda: f.exists() and f.read_text().count("\n") >= 3, "record 3 units")
    assert 3 <= f.read_text().count("\n") < 12  # killed mid-run
    # a second run while the first is dead: the kernel released its lock, the unit in progress is redone
    res = _cli(runner, *_cmd(killed)[3:])
    assert res.exit_code == 0, res.output
    key = lambda r: (r["id"], r["seed"])  # noqa: E731
    strip = ("wall_s", "check")
    a = sorted(({k: v for k, v in r.items() if k not in strip} for r in read_run(killed).records), key=key)
    b = sorted(({k: v for k, v in r.items() if k not in strip} for r in read_run(whole).records), key=key)
    assert len(a) == 12 and a == b
    assert len(read_results(killed / "results.jsonl")) == 12  # no unit recorded twice (read_run keeps one of each)


# ------------------------------------------------------------------------------- cache


def _graphs():
    pair = dataset.load_pairs(ids=[0])[0]
    return [pair.g, pair.h]


def test_swapped_and_truncated_cache_entries_are_recomputed_with_a_warning(capfd):
    from wltools.models.encodings import AddRRWP

    t = AddRRWP(8)
    want = encoded_graphs(_graphs(), t, "rrwp8")
    files = sorted(setting_dir("rrwp8", t).glob("*.npz"))
    assert len(files) == 2
    a, b = files[0].read_bytes(), files[1].read_bytes()
    files[0].write_bytes(b)  # swapped
    files[1].write_bytes(a)
    stats = {}
    got = encoded_graphs(_graphs(), t, "rrwp8", stats=stats)
    assert stats["rejected"] == 2 and stats["computed"] == 2
    assert "holds another entry" in capfd.readouterr().err
    for x, y in zip(got, want):
        assert x.rrwp.equal(y.rrwp) and x.pair_index.equal(y.pair_index)
    files[0].write_bytes(files[0].read_bytes()[:100])  # truncated
    stats = {}
    got = encoded_graphs(_graphs(), t, "rrwp8", stats=stats)
    assert stats["rejected"] == 1 and "unreadable (BadZipFile)" in capfd.readouterr().err
    assert all(x.rrwp.equal(y.rrwp) for x, y in zip(got, want))
    # and the entry is rewritten: a third read hits the disk without a warning
    stats = {}
    encoded_graphs(_graphs(), t, "rrwp8", stats=stats)
    assert stats["disk_hits"] == 2 and stats["rejected"] == 0 and capfd.readouterr().err == ""


def test_an_edited_cache_entry_fails_its_checksum(capfd):
    from wltools.models.encodings import AddRRWP

    t = AddRRWP(8)
    want = encoded_graphs(_graphs(), t, "rrwp8")
    f = sorted(setting_dir("rrwp8", t).glob("*.npz"))[0]
    with np.load(f) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["t:rrwp"] = arrays["t:rrwp"] * 2  # a plausible but wrong encoding, key and checksum kept
    with open(f, "wb") as fh:
        np.savez(fh, **arrays)
    stats = {}
    got = encoded_graphs(_graphs(), t, "rrwp8", stats=stats)
    assert stats["rejected"] == 1 and "checksum mismatch" in capfd.readouterr().err
    assert all(x.rrwp.equal(y.rrwp) for x, y in zip(got, want))


# ------------------------------------------------------------------------------- reference protocol


def _plain_draws(pair, seed=0):
    """The draws before the reference's re-draw: independent permutations (the old rule)."""
    rng = dataset._rng(seed, pair.id, 0)
    rel = []
    for _ in range(31):
        rel += [rng.permutation(pair.g.number_of_nodes()), rng.permutation(pair.h.number_of_nodes())]
    rng = dataset._rng(seed, pair.id, 1)
    side = "g" if rng.integers(2) == 0 else "h"
    n = (pair.g if side == "g" else pair.h).number_of_nodes()
    return rel, [rng.permutation(n) for _ in range(64)]


def test_relabelled_copies_are_distinct_for_all_400_pairs_and_only_8_pairs_change():
    changed = set()
    for pair in dataset.load_pairs():
        edges = {"g": dataset._edge_array(pair.g), "h": dataset._edge_array(pair.h)}  # once per graph
        plans = dataset.relabeling_plan(pair), dataset.reliability_plan(pair)  # once per pair
        for plan in plans:
            keys = {(side, dataset._labelled_key(edges[side], p)) for side, p in plan}
            assert len(keys) == len(plan), pair.id  # pairwise distinct labelled graphs per side
        rel, reli = _plain_draws(pair)
        new_rel = [p for _, p in plans[0][2:]]
        new_reli = [p for _, p in plans[1]]
        if not all(np.array_equal(a, b) for a, b in zip(rel, new_rel)) or not all(
                np.array_equal(a, b) for a, b in zip(reli, new_reli)):
            changed.add(pair.id)
    # docs/protocol.md difference 1: the sets that held repeated labelled graphs, and only those
    assert changed == {62, 63, 64, 67, 91, 104, 107, 166}


def test_threshold_rule_reference_by_default_exact_on_request_and_in_every_line(tmp_path):
    assert Protocol().threshold == 72.34
    assert Protocol(threshold_rule="exact").threshold == t2_threshold(32, 16, 0.95) != 72.34
    for rule in ("reference", "exact"):
        out = run(GIN, pairs=[0, 1], categories=None, protocol={"epochs": 1, "threshold_rule": rule},
                  out=tmp_path / rule, progress=False)
        recs = read_run(out).records
        want = Protocol(threshold_rule=rule).threshold
        assert {(r["threshold_rule"], r["threshold"]) for r in recs} == {(rule, want)}


def test_graphormer_brec_preset_is_the_reference_configuration():
    from brec_runner.configs import load_protocol
    from wltools.models import registry

    assert load_protocol("graphormer").loss_threshold == 0.0
    cfg = registry.model_config("graphormer", "brec")
    assert cfg.dropout == 0.0 and cfg.attn_dropout == 0.1
