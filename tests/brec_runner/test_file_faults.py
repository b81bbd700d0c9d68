"""Files a careless user or a full disk damages (issue 25, items 4-6): each fault tried, each outcome
one error line with exit 2 or a safe recovery with one message; never a traceback, a hang, or a
silently wrong number.

Faults that could hang (a FIFO where a file should be) or need a real stdout (``/dev/full``, a
closed pipe) run ``python -m cli`` in a subprocess under a timeout, so a hang fails the test.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli
from brec_runner.records.fileio import read_regular, write_atomic
from brec_runner.records.identity import record_checksum
from brec_runner.records.record import RunDirectory, read_config, read_results, read_run
from brec_runner.reports import theory as th
from brec_runner.reports.theory_report import run_theory, write_report
from brec_runner.runs.evaluate import run
from wltools.errors import RunDirectoryError, WLToolsError

ROOT = Path(__file__).resolve().parents[2]
GIN = f"{ROOT / 'examples' / 'gin.py'}:gin"
FAST = ["--epochs", "1", "--quiet"]

pytestmark = pytest.mark.usefixtures("own_cache")  # every test with its own encoding cache


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock*"))
    return dst


def _cli(*args: str):
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def _one_line(res, needle: str) -> str:
    """The single error line of a refused command (exit 2, no traceback)."""
    out = res.output.strip()
    assert res.exit_code == 2 and "Traceback" not in out, res.output
    assert len(out.splitlines()) == 1 and needle in out, out
    return out


def _sub(*args: str, timeout: float = 120, stdout=subprocess.PIPE, **kw) -> subprocess.CompletedProcess:
    """``python -m cli ARGS`` in a subprocess (the test's ``$WLTOOLS_CACHE``); a hang past ``timeout``
    fails the test."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, env=env, timeout=timeout,
                              stdout=stdout, stderr=subprocess.PIPE, text=True, **kw)
    except subprocess.TimeoutExpired:
        pytest.fail(f"wltools {' '.join(map(str, args))} hung (over {timeout} s)")


@contextlib.contextmanager
def _no_hang(seconds: int = 60):
    """Fail (TimeoutError) instead of blocking when the block takes over ``seconds``: SIGALRM
    interrupts a blocking open() or read() of a FIFO."""
    def _raise(signum, frame):
        raise TimeoutError(f"hung for {seconds} s")

    old = signal.signal(signal.SIGALRM, _raise)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _edit_config(d: Path, **entries) -> None:
    cfg = json.loads((d / "config.json").read_text())
    cfg.update(entries)
    (d / "config.json").write_text(json.dumps(cfg, indent=2))


# ------------------------------------------------------------------------------ theory cache


def _cache_file(test="1wl") -> Path:
    return th._cache_file(test, th.DEFAULT_RRWP_STEPS, True, th.code_version())


def test_an_edited_theory_cache_line_is_recomputed_never_used(capsys):
    first = th.theory_verdicts(["1wl"], ids=[0, 1])
    lines = _cache_file().read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["check"] for line in lines)
    rec = json.loads(lines[0])
    rec["distinguished"] = not rec["distinguished"]  # a hand edit that would change the theory column
    _cache_file().write_text(json.dumps(rec) + "\n" + lines[1] + "\n")
    capsys.readouterr()
    stats: dict = {}
    again = th.theory_verdicts(["1wl"], ids=[0, 1], stats=stats)
    err = capsys.readouterr().err.strip().splitlines()
    timeless = lambda v: {i: {t: {k: x for k, x in r.items() if k != "seconds"} for t, r in by.items()}  # noqa: E731
                          for i, by in v.items()}
    assert timeless(again) == timeless(first) and again[1] == first[1] and stats == {"computed": 1, "cached": 1}
    assert len(err) == 1 and "1 line(s) failed their checksum" in err[0]
    # the bad line is gone: the next read is clean and computes nothing
    th.theory_verdicts(["1wl"], ids=[0, 1], stats=stats)
    assert stats == {"computed": 0, "cached": 2} and capsys.readouterr().err == ""
    assert all(json.loads(line)["check"] == record_checksum(json.loads(line))
               for line in _cache_file().read_text().splitlines())


def test_a_torn_theory_cache_line_is_cut_before_appending(capsys):
    th.theory_verdicts(["1wl"], ids=[0])
    data = _cache_file().read_bytes()
    _cache_file().write_bytes(data + data[:30])  # an interrupted append
    stats: dict = {}
    th.theory_verdicts(["1wl"], ids=[0, 1], stats=stats)
    assert stats == {"computed": 1, "cached": 1} and "1 line(s)" in capsys.readouterr().err
    assert [json.loads(line)["id"] for line in _cache_file().read_text().splitlines()] == [0, 1]


def test_an_unusable_theory_cache_computes_without_it(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("WLTOOLS_CACHE", str(blocker / "cache"))  # below a file: no folder can be made
    v = th.theory_verdicts(["1wl"], ids=[0, 1])
    err = capsys.readouterr().err.strip().splitlines()
    assert sorted(v) == [0, 1] and len(err) == 1 and "without caching" in err[0]


def test_a_full_disk_under_the_theory_cache_computes_without_caching(monkeypatch, capsys):
    import errno

    class Full:
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self):
            pass

    monkeypatch.setattr(th, "open", lambda *a, **k: Full(), raising=False)
    v = th.theory_verdicts(["1wl", "3wl"], ids=[0, 1])
    err = capsys.readouterr().err.strip().splitlines()
    assert [sorted(v[i]) for i in (0, 1)] == [["1wl", "3wl"]] * 2
    assert len(err) == 2 and all("No space left on device" in line for line in err)  # one per cache file


def test_an_unreadable_theory_cache_file_is_one_message(monkeypatch, capsys):
    def denied(path, *, error):
        raise error(f"cannot read {path}: Permission denied")

    monkeypatch.setattr(th, "read_regular", denied)
    v = th.theory_verdicts(["1wl"], ids=[0, 1])
    err = capsys.readouterr().err.strip().splitlines()
    assert sorted(v) == [0, 1] and len(err) == 1 and "Permission denied; computing without caching" in err[0]
    assert not _cache_file().exists()


def test_brec_theory_and_report_survive_an_unusable_cache_root(tmp_path, monkeypatch, finished):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("WLTOOLS_CACHE", str(blocker))
    res = _cli("brec", "theory", "--tests", "1wl", "--pairs", "0-1", "--out", tmp_path / "t")
    assert res.exit_code == 0 and "without caching" in res.output, res.output
    res = _cli("brec", "report", finished)
    assert res.exit_code == 0 and "| basic |" in res.output, res.output


def test_theory_tables_are_written_atomically(tmp_path):
    rep = run_theory(["1wl"], ids=[0, 1])
    paths = write_report(rep, tmp_path / "t")
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == ["README.md", "verdicts.csv", "verdicts.json"]
    assert json.loads(paths["json"].read_text())["settings"]["pairs"] == 2
    with pytest.raises(WLToolsError, match="cannot create the output folder"):
        write_report(rep, paths["json"])  # a file where the folder should be


# ------------------------------------------------------------------------------ config.json


@pytest.mark.parametrize("entries", [{"seeds": [0, 1]}, {"pairs": [0, 1, 2]},
                                     {"bound": {"lower": None, "upper": "3wl", "class": "3-WL", "note": "",
                                                "rrwp_steps": None}}])
def test_a_hand_edit_of_seeds_pairs_or_bound_is_refused(finished, tmp_path, entries):
    d = _copy(finished, tmp_path / "run")
    _edit_config(d, **entries)
    for args in (("brec", "report", d, "--no-theory"), ("claims", "verify", "brec-run", "--run-dir", d),
                 ("brec", "run", "--model", GIN, "--pairs", "0-3", "--out", d, *FAST)):
        res = _cli(*args)
        assert res.exit_code == 2 and "config_check does not match" in res.output, (args, res.output)
        assert "Traceback" not in res.output


def test_a_config_written_before_the_config_check_is_read_as_before(finished, tmp_path):
    d = _copy(finished, tmp_path / "run")
    cfg = json.loads((d / "config.json").read_text())
    del cfg["config_check"]
    (d / "config.json").write_text(json.dumps(cfg))
    assert len(read_run(d).records) == 4
    res = _cli("brec", "report", d, "--no-theory")
    assert res.exit_code == 0, res.output


def test_a_changed_bound_on_resume_is_refused_and_the_eval_batch_size_said(finished, tmp_path, capsys):
    """The bound is part of the run's identity (issue 45): a resume under another bound is refused
    naming it, the directory unchanged; the eval batch size (float summation order only) is said
    and recorded."""
    d = _copy(finished, tmp_path / "run")
    before = (d / "config.json").read_bytes()
    with pytest.raises(RunDirectoryError, match=r"other settings \(bound; bound: .*1wl.* here, .*3wl.* now\)"):
        run(GIN, pairs=[0, 1, 2, 3], categories=None, protocol={"epochs": 1}, out=d, progress=False, bound="3wl")
    assert (d / "config.json").read_bytes() == before
    run(GIN, pairs=[0, 1, 2, 3], categories=None, protocol={"epochs": 1}, out=d, progress=False, eval_batch_size=4)
    assert "eval_batch_size changes from none to 4" in capsys.readouterr().err
    cfg = read_config(d)
    assert cfg["bound"]["upper"] == "1wl" and cfg["eval_batch_size"] == 4
    assert [(c["key"], c["to"]) for c in cfg["changes"]] == [("eval_batch_size", 4)]
    assert len(read_run(d).records) == 4  # the config stays sealed and readable
    run(GIN, pairs=[0, 1, 2, 3], categories=None, protocol={"epochs": 1}, out=d, progress=False, eval_batch_size=4)
    assert "changes" not in capsys.readouterr().err  # the same value again: nothing to say


def test_the_eval_batch_size_is_recorded(finished):
    assert "eval_batch_size" in read_config(finished) and read_config(finished)["eval_batch_size"] is None


def test_the_eval_batch_size_changes_only_the_float_summation_order(finished):
    """Eval mode: each graph's output does not depend on the batch it is in, so the outputs agree to
    float round-off (the reason the batch size is recorded, not part of the settings hash). T² itself
    may differ more where G's and H's outputs differ only by round-off (a pair the model is blind
    to: T² is scale-free), as it does between devices."""
    import torch

    from brec_runner.models.source import resolve_model
    from brec_runner.runs import dataset
    from brec_runner.runs.execute import prepare_pair
    from brec_runner.runs.protocol import Protocol
    from brec_runner.runs.rpc import fresh_model, model_outputs

    src = resolve_model(GIN)
    pair = dataset.load_pairs(ids=[0])[0]
    graphs, rel = prepare_pair(pair, Protocol(), src.transform, src.transform_key)
    net = fresh_model(src.factory, src.options, 0, 0, "cpu").eval()
    with torch.no_grad():
        whole, split = (model_outputs(net, rel, "cpu", b) for b in (None, 2))
    assert whole.shape == split.shape and torch.allclose(whole, split, rtol=1e-5, atol=1e-5)


def test_deep_json_in_config_is_one_line(finished, tmp_path):
    d = _copy(finished, tmp_path / "run")
    (d / "config.json").write_text("[" * 100_000 + "]" * 100_000)
    for args in (("brec", "report", d, "--no-theory"), ("claims", "verify", "brec-run", "--run-dir", d)):
        res = _cli(*args)
        assert res.exit_code == 2 and "nested too deeply" in res.output and "Traceback" not in res.output


def test_deep_json_in_a_results_line_or_multi_pair_json(finished, tmp_path, capsys):
    d = _copy(finished, tmp_path / "run")
    with open(d / "results.jsonl", "a") as fh:
        fh.write("[" * 100_000 + "]" * 100_000 + "\n")
    _one_line(_cli("brec", "report", d, "--no-theory"), "line 5: nested too deeply")
    (d / "multi_pair.json").write_text("[" * 100_000 + "]" * 100_000)
    with RunDirectory(d / "fresh", {**read_config(d)}) as rd:
        shutil.copy(d / "multi_pair.json", rd.path / "multi_pair.json")
        assert rd.multi_pair_choice() is None
    assert "nested too deeply" in capsys.readouterr().err


# ------------------------------------------------------------------------------ results.jsonl


def test_a_whole_last_record_without_its_newline_is_kept_and_repaired(finished, tmp_path, capsys):
    d = _copy(finished, tmp_path / "run")
    data = (d / "results.jsonl").read_bytes()
    (d / "results.jsonl").write_bytes(data[:-1])
    assert len(read_run(d).records) == 4
    assert capsys.readouterr().err.count("lacks its newline") == 1
    res = _cli("brec", "report", d, "--no-theory")
    assert res.exit_code == 0 and "4 (pair, seed) results" in res.output
    # the next writer adds the newline (not deleting the line) and says so once
    run(GIN, pairs=[0, 1, 2, 3], categories=None, protocol={"epochs": 1}, out=d, progress=False)
    assert (d / "results.jsonl").read_bytes() == data
    assert capsys.readouterr().err.count("newline added") == 1


def test_an_unfinished_last_line_is_ignored_with_a_message_and_cut_by_the_writer(finished, tmp_path, capsys):
    d = _copy(finished, tmp_path / "run")
    data = (d / "results.jsonl").read_bytes()
    last = data.rstrip(b"\n").rsplit(b"\n", 1)[1]
    (d / "results.jsonl").write_bytes(data[: -len(last) // 2])
    assert len(read_run(d).records) == 3 and "unfinished" in capsys.readouterr().err
    read_results(d / "results.jsonl", repair=True)
    assert (d / "results.jsonl").read_bytes() == data[: -len(last) - 1]


def test_an_edited_last_line_without_newline_is_an_error_not_deleted(finished, tmp_path):
    d = _copy(finished, tmp_path / "run")
    lines = (d / "results.jsonl").read_text().splitlines()
    rec = json.loads(lines[-1])
    rec["distinguished"] = not rec["distinguished"]
    (d / "results.jsonl").write_text("\n".join(lines[:-1] + [json.dumps(rec)]))
    with pytest.raises(RunDirectoryError, match="line 4: checksum mismatch"):
        read_run(d)
    read_results(d / "results.jsonl", repair=True)
    assert (d / "results.jsonl").read_text().splitlines()[-1] == json.dumps(rec)


# ------------------------------------------------------------------------------ multi_pair.json


def test_multi_pair_json_carries_a_checksum(finished, tmp_path, capsys):
    d = _copy(finished, tmp_path / "run")
    cfg = read_config(d)
    with RunDirectory(d, cfg, code=cfg["code_versions"][0]) as rd:
        rd.record_multi_pair_choice(2, {"chosen": "multipair:2", "loop_s": 1.0, "grouped_s": 0.5})
        doc = json.loads((d / "multi_pair.json").read_text())
        assert doc["check"] == record_checksum(doc) and rd.multi_pair_choice()["group"] == 2
        (d / "multi_pair.json").write_text(json.dumps({**doc, "group": 3}))  # valid, but edited
        capsys.readouterr()
        assert rd.multi_pair_choice() is None
        assert capsys.readouterr().err.count("checksum mismatch") == 1
        del doc["check"]  # written before the checksum: read as before
        (d / "multi_pair.json").write_text(json.dumps(doc))
        assert rd.multi_pair_choice()["group"] == 2


# ------------------------------------------------------------------------------ report outputs


@pytest.mark.parametrize("option, target", [
    ("--out", "{d}/results.jsonl"), ("--out", "{d}/config.json"), ("--out", "./{d}/../run/config.json"),
    ("--out", "{d}/failures.jsonl"), ("--out", "{d}/multi_pair.json"), ("--out", "{d}/.lock"),
    ("--out", "{tmp}/elsewhere/results-shard-1-of-2.jsonl"), ("--out", "{tmp}/link.md"),
    ("--plot", "{d}/results.jsonl"), ("--plot", "{tmp}/link.png"), ("--out", "{d}"),
])
def test_report_outputs_never_overwrite_a_run_file(finished, tmp_path, option, target, monkeypatch):
    d = _copy(finished, tmp_path / "run")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.md").symlink_to(d / "results.jsonl")
    (tmp_path / "link.png").symlink_to(d / "config.json")
    before = {p.name: p.read_bytes() for p in d.iterdir()}
    t = target.format(d="run" if target.startswith("./") else d, tmp=tmp_path)
    res = _cli("brec", "report", d, "--no-theory", option, t)
    if Path(t).is_dir():
        assert res.exit_code == 2 and "Traceback" not in res.output  # click: a directory
    else:
        _one_line(res, "would overwrite the run's records")
    assert {p.name: p.read_bytes() for p in d.iterdir()} == before


def test_a_report_beside_the_records_is_written_atomically(finished, tmp_path):
    d = _copy(finished, tmp_path / "run")
    res = _cli("brec", "report", d, "--no-theory", "--out", d / "report.md", "--plot", d / "report.svg")
    assert res.exit_code == 0, res.output
    assert (d / "report.md").read_text().startswith("# BREC") and b"<svg" in (d / "report.svg").read_bytes()
    assert not [p for p in d.iterdir() if ".tmp" in p.name]


@pytest.mark.parametrize("plot, message", [("report.txt", "cannot write a .txt chart"),
                                           ("report", "no file suffix")])
def test_a_plot_format_matplotlib_cannot_write_is_one_line(finished, tmp_path, plot, message):
    _one_line(_cli("brec", "report", finished, "--no-theory", "--plot", tmp_path / plot), message)
    assert not (tmp_path / plot).exists()


def test_write_atomic_leaves_the_old_file_when_the_folder_is_gone(tmp_path):
    write_atomic(tmp_path / "a.md", "one")
    with pytest.raises(RunDirectoryError, match="cannot write"):
        write_atomic(tmp_path / "no" / "a.md", "two")
    assert (tmp_path / "a.md").read_text() == "one" and sorted(os.listdir(tmp_path)) == ["a.md"]


# ------------------------------------------------------------------------------ not regular files


def test_read_regular_refuses_fifos_devices_and_folders(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    for path, kind in ((tmp_path / "fifo", "a FIFO"), ("/dev/zero", "a character device"), (tmp_path, "directory")):
        with pytest.raises(RunDirectoryError, match=kind):
            read_regular(path)
    assert read_regular(tmp_path / "missing") is None


@pytest.mark.parametrize("name", ["config.json", "results.jsonl", "multi_pair.json", ".lock-results.jsonl",
                                  "failures.jsonl"])
def test_a_fifo_in_place_of_a_run_file_is_one_line_never_a_hang(finished, tmp_path, name):
    d = _copy(finished, tmp_path / "run")
    if (d / name).exists():
        (d / name).unlink()
    os.mkfifo(d / name)
    commands = [("brec", "run", "--model", GIN, "--pairs", "0-4", "--out", d, *FAST)]  # pair 4 to run
    if name in ("config.json", "results.jsonl"):
        commands += [("brec", "report", d, "--no-theory"), ("claims", "verify", "brec-run", "--run-dir", d)]
    if name == "failures.jsonl":  # read by reports; a run whose units all succeed never opens it
        commands = [("brec", "report", d, "--no-theory")]
        with _no_hang():
            assert _cli("brec", "run", "--model", GIN, "--pairs", "0-4", "--out", d, *FAST).exit_code == 0
    for args in commands:
        with _no_hang():
            res = _cli(*args)
        assert res.exit_code == 2 and "Traceback" not in res.output, (args, res.output)
        assert "a FIFO (named pipe), not a regular file" in res.output, (args, res.output)


def test_a_fifo_config_json_in_a_real_process(finished, tmp_path):
    d = _copy(finished, tmp_path / "run")
    (d / "config.json").unlink()
    os.mkfifo(d / "config.json")
    res = _sub("brec", "report", d, "--no-theory", timeout=60)
    assert res.returncode == 2 and res.stderr.strip() == f"error: {d}/config.json is a FIFO (named pipe), not a " \
        "regular file; move it away"


def test_a_fifo_in_place_of_a_theory_cache_file_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    path = _cache_file("1wl")
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    with _no_hang():
        res = _cli("brec", "theory", "--tests", "1wl", "--pairs", "0-1", "--out", tmp_path / "t")
    assert res.exit_code == 2 and "Traceback" not in res.output
    last = res.output.strip().splitlines()[-1]
    assert last == f"error: {path} is a FIFO (named pipe), not a regular file; move it away"


# ------------------------------------------------------------------------------ stdout and seeds


@pytest.mark.parametrize("args", [("brec", "report", "{d}", "--no-theory"),
                                  ("brec", "theory", "--tests", "1wl", "--pairs", "0-1", "--out", "{tmp}/t"),
                                  ("check", "--test", "1wl", "cycle:6", "cycle:3+cycle:3")])
def test_stdout_on_a_full_device_is_one_line(finished, tmp_path, args):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    argv = [a.format(d=finished, tmp=tmp_path) for a in args]
    with open("/dev/full", "w") as full:
        res = _sub(*argv, stdout=full, timeout=120)
    err = [line for line in res.stderr.splitlines() if line.startswith("error") or "Traceback" in line]
    assert res.returncode == 2 and err == ["error: cannot write the output: No space left on device"], res.stderr


def test_a_reader_that_stops_early_is_no_traceback(finished, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WLTOOLS_CACHE": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "cli", "brec", "report", str(finished), "--no-theory",
                             "--format", "json"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # like `| head -0`: the pipe is closed before anything is read
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (1, 2) and b"Traceback" not in err and b"Exception ignored" not in err, err


@pytest.mark.parametrize("args", [("--seed", "-1"), ("--seeds", "0,-1")])
@pytest.mark.parametrize("command", ["brec", "suite"])
def test_negative_seeds_are_one_line(tmp_path, command, args):
    head = ("brec", "run", "--pairs", "0") if command == "brec" else ("suite", "run", "csl", "--pairs", "0")
    res = _cli(*head, "--model", GIN, *FAST, "--out", tmp_path / "r", *args)
    assert res.exit_code == 2 and "Traceback" not in res.output and "-1" in res.output, res.output
    assert not (tmp_path / "r").exists()


def test_claims_and_suite_outputs_never_overwrite_a_run_file(finished, tmp_path):
    """`claims verify --out` and `suite theory --out` refuse a run file before any work, like
    `brec report`; the records stay as they were."""
    d = _copy(finished, tmp_path / "run")
    before = (d / "results.jsonl").read_bytes()
    for args in [("claims", "verify", "brec-run", "--run-dir", d, "--out", d / "results.jsonl"),
                 ("suite", "theory", "csl", "--tests", "1wl", "--out", f"./{d}/config.json")]:
        res = _cli(*args)
        assert res.exit_code == 2 and "would overwrite the run's records" in res.output, (args, res.output)
    assert (d / "results.jsonl").read_bytes() == before
    out = tmp_path / "csl.md"
    assert _cli("suite", "theory", "csl", "--tests", "1wl", "--pairs", "0-1", "--out", out).exit_code == 0
    assert "1" in out.read_text() and not list(tmp_path.glob(".csl*"))  # written, no temporary left
