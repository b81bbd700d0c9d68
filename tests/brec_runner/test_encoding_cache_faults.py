"""Faults of the encoding cache's files and folder (brec_runner/models/encoding_cache.py): a FIFO, device
or directory where an entry should be is a bad entry (never a hang); an unusable cache root (a
regular file, no home, a read-only or full disk) means computing without caching, with one
warning, never a traceback, in ``brec run``, ``brec report`` and ``brec theory``."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner

import cli
from brec_runner.models import encoding_cache as ec
from brec_runner.runs import dataset as ds
from wltools.models.encodings import AddRRWP

ROOT = Path(__file__).resolve().parents[2]
GIN = f"{ROOT / 'examples' / 'gin.py'}:gin"


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path, monkeypatch):
    """Each test has its own cache folder, no warning given yet and no folder marked unwritable."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(ec, "_warned", set())
    monkeypatch.setattr(ec, "_unwritable", set())


def _graphs():
    pair = ds.load_pairs(ids=[0])[0]
    return [pair.g, pair.h]


def _within(seconds: float, fn):
    """``fn()`` in a thread; fails (instead of hanging the suite) if it does not return in time."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            box["error"] = exc

    th = threading.Thread(target=target, daemon=True)
    th.start()
    th.join(seconds)
    assert not th.is_alive(), f"still running after {seconds} s (a blocking open?)"
    if "error" in box:
        raise box["error"]
    return box["value"]


def _same(got, want):
    assert len(got) == len(want)
    for x, y in zip(got, want):
        assert torch.equal(x.rrwp, y.rrwp) and torch.equal(x.pair_index, y.pair_index)


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("wltools: warning:")]


# ------------------------------------------------------------------------------ entries


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_non_regular_entry_is_a_bad_entry_not_a_hang(kind, capfd):
    t = AddRRWP(4)
    want = ec.encoded_graphs(_graphs(), t, "rrwp4")
    entry = sorted(ec.setting_dir("rrwp4", t).glob("*.npz"))[0]
    entry.unlink()
    if kind == "fifo":
        os.mkfifo(entry)
    else:
        entry.mkdir()
    capfd.readouterr()
    stats = {}
    got = _within(30, lambda: ec.encoded_graphs(_graphs(), t, "rrwp4", stats=stats))
    _same(got, want)
    assert stats["rejected"] == 1 and stats["computed"] == 1 and stats["disk_hits"] == 1
    lines = _warnings(capfd.readouterr().err)
    assert len(lines) == 1 and f"is a {'FIFO' if kind == 'fifo' else 'directory'}, not a cache file" in lines[0]
    if kind == "fifo":  # replaced by a sound entry: the next read hits the disk, silently
        assert entry.is_file()
        stats = {}
        _within(30, lambda: ec.encoded_graphs(_graphs(), t, "rrwp4", stats=stats))
        assert stats["disk_hits"] == 2 and capfd.readouterr().err == ""
    else:  # not ours to delete: left alone, computed each time
        assert entry.is_dir() and "without caching" in lines[0]


def test_a_character_device_entry_is_a_bad_entry(capfd, monkeypatch):
    t = AddRRWP(4)
    want = ec.encoded_graphs(_graphs(), t, "rrwp4")
    entry = sorted(ec.setting_dir("rrwp4", t).glob("*.npz"))[0]
    entry.unlink()
    entry.symlink_to("/dev/zero")  # reads forever if treated as a file
    capfd.readouterr()
    got = _within(30, lambda: ec.encoded_graphs(_graphs(), t, "rrwp4"))
    _same(got, want)
    lines = _warnings(capfd.readouterr().err)
    assert len(lines) == 1 and "is a character device, not a cache file" in lines[0]


# ------------------------------------------------------------------------------ roots


def _check_fallback(capfd, expect: str):
    t = AddRRWP(4)
    want = [t(ds.to_pyg(G)) for G in _graphs()]
    stats = {}
    got = ec.encoded_graphs(_graphs(), t, "rrwp4", stats=stats)
    _same(got, want)
    assert stats["computed"] == 2
    again = ec.encoded_graphs(_graphs(), t, "rrwp4")  # a second call: no second warning
    _same(again, want)
    lines = _warnings(capfd.readouterr().err)
    assert len(lines) == 1 and expect in lines[0] and "without caching" in lines[0], lines


def test_cache_root_is_a_regular_file(tmp_path, monkeypatch, capfd):
    root = tmp_path / "not-a-folder"
    root.write_text("x")
    monkeypatch.setenv("WLTOOLS_CACHE", str(root))
    _check_fallback(capfd, "is unusable")
    assert root.read_text() == "x"


def _no_home(monkeypatch):
    def home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("WLTOOLS_CACHE", raising=False)
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(home))


def test_no_home_and_no_cache_variable(monkeypatch, capfd):
    _no_home(monkeypatch)
    with pytest.raises(ec.CacheUnavailableError, match="HOME unset"):
        ec.cache_root()
    _check_fallback(capfd, "no cache folder")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_full_or_read_only_disk(code, monkeypatch, capfd):
    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(ec.np, "savez", refuse)
    _check_fallback(capfd, os.strerror(code))
    assert not list(Path(os.environ["WLTOOLS_CACHE"]).rglob("*.npz*"))  # no temporary file left behind


def test_a_read_only_folder_still_serves_its_entries(monkeypatch, capfd):
    t = AddRRWP(4)
    want = ec.encoded_graphs(_graphs(), t, "rrwp4")

    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(ec.tempfile, "mkstemp", refuse)
    stats = {}
    _same(ec.encoded_graphs(_graphs(), t, "rrwp4", stats=stats), want)
    assert stats["disk_hits"] == 2 and capfd.readouterr().err == ""


# ------------------------------------------------------------------------------ the CLI


def _one_line_or_success(res):
    """Exit 0, or exit 2 with exactly one ``error:`` line; never a traceback."""
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
    if res.exit_code != 0:
        lines = [line for line in res.output.splitlines() if line.strip()]
        assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error:"), res.output


FAULTS = ["root-is-a-file", "no-home", "full-disk"]


def _apply(fault: str, tmp_path: Path, monkeypatch):
    if fault == "root-is-a-file":
        (tmp_path / "cachefile").write_text("x")
        monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cachefile"))
    elif fault == "no-home":
        _no_home(monkeypatch)
    else:
        def refuse(*args, **kwargs):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(ec.np, "savez", refuse)
        monkeypatch.setattr("builtins.open", _refusing_appends(open))


def _refusing_appends(real_open):
    """``open`` whose appends under the cache fail with ENOSPC (the theory cache's writes)."""

    def fake(file, mode="r", *args, **kwargs):
        if "a" in str(mode) and "theory" in str(file):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_open(file, mode, *args, **kwargs)

    return fake


@pytest.mark.parametrize("fault", FAULTS)
def test_brec_run_with_an_unusable_cache(fault, tmp_path, monkeypatch):
    _apply(fault, tmp_path, monkeypatch)
    out = tmp_path / "run"
    res = CliRunner().invoke(cli.cli, ["brec", "run", "--model", f"{ROOT / 'examples' / 'gin_rrwp.py'}:gin_rrwp",
                                       "--pairs", "0", "--epochs", "1", "--quiet", "--set", "hidden=8",
                                       "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "results.jsonl").read_text().count("\n") == 1
    assert len(_warnings(res.output)) == 1, res.output


@pytest.mark.parametrize("fault", FAULTS)
def test_brec_report_and_theory_with_an_unusable_cache(fault, tmp_path, monkeypatch):
    run_dir = tmp_path / "run"
    made = CliRunner().invoke(cli.cli, ["brec", "run", "--model", GIN, "--pairs", "0", "--epochs", "1", "--quiet",
                                        "--out", str(run_dir)])
    assert made.exit_code == 0, made.output
    _apply(fault, tmp_path, monkeypatch)
    res = CliRunner().invoke(cli.cli, ["brec", "report", str(run_dir)])  # with the theory (its cache)
    _one_line_or_success(res)
    res = CliRunner().invoke(cli.cli, ["brec", "report", "--no-theory", str(run_dir)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli.cli, ["brec", "theory", "--tests", "1wl", "--pairs", "0-1",
                                       "--out", str(tmp_path / "theory")])
    _one_line_or_success(res)
