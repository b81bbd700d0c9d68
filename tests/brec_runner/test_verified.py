"""The memo of checked results files (brec_runner.records.verified): the same bytes are parsed, not
checked again; any other bytes, config or an unusable cache are checked line by line as before."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import brec_runner.records.record as record
from brec_runner.records.identity import record_checksum
from brec_runner.records.record import RecordError, read_config, read_results, read_run

pytestmark = pytest.mark.usefixtures("own_cache")  # WLTOOLS_CACHE in tmp_path: the memo starts empty


def _copy(finished: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / "run", ignore=shutil.ignore_patterns(".lock*")))


def _edit_line(path: Path, i: int, **fields) -> None:
    lines = path.read_text().splitlines()
    rec = {**json.loads(lines[i]), **fields}
    rec["check"] = record_checksum(rec) if "check" not in fields else rec["check"]
    lines[i] = json.dumps(rec, sort_keys=True)
    path.write_text("\n".join(lines) + "\n")


def _no_line_checks(monkeypatch) -> None:
    def fail(*args, **kwargs):
        raise AssertionError("a remembered file was checked line by line")

    monkeypatch.setattr(record, "record_problem", fail)


def test_the_same_bytes_are_parsed_not_checked_again(finished, tmp_path, monkeypatch):
    d = _copy(finished, tmp_path)
    first = read_run(d).records
    assert len(list((tmp_path / "cache" / "verified-results").iterdir())) == 1
    _no_line_checks(monkeypatch)
    assert read_run(d).records == first


@pytest.mark.parametrize("edit", ["flipped verdict", "recomputed checksum"])
def test_a_remembered_file_edited_since_is_checked_and_refused_as_before(finished, tmp_path, edit):
    d = _copy(finished, tmp_path)
    read_run(d)  # remembered
    path = d / "results.jsonl"
    rec = json.loads(path.read_text().splitlines()[2])
    if edit == "flipped verdict":
        _edit_line(path, 2, distinguished=not rec["distinguished"], check=rec["check"])
        match = "results.jsonl, line 3: checksum mismatch"
    else:
        _edit_line(path, 2, distinguished=not rec["distinguished"])
        match = "results.jsonl, line 3: verdict distinguished=.* does not follow from its T"
    with pytest.raises(RecordError, match=match):
        read_run(d)


def test_a_remembered_file_under_another_config_is_checked(finished, tmp_path):
    d = _copy(finished, tmp_path)
    read_run(d)
    other = {**read_config(d), "settings_hash": "0" * 16}
    with pytest.raises(RecordError, match="line 1: written under other settings"):
        read_results(d / "results.jsonl", config=other)


def test_a_file_with_a_bad_line_is_never_remembered(finished, tmp_path, monkeypatch):
    d = _copy(finished, tmp_path)
    rec = json.loads((d / "results.jsonl").read_text().splitlines()[0])
    _edit_line(d / "results.jsonl", 0, distinguished=not rec["distinguished"], check=rec["check"])
    assert len(read_run(d, skip_bad=True).bad) == 1
    assert not (tmp_path / "cache" / "verified-results").exists()
    assert len(read_run(d, skip_bad=True).bad) == 1  # and checked again


def test_an_unusable_cache_costs_the_checks_and_says_nothing(finished, tmp_path, monkeypatch, capfd):
    d = _copy(finished, tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("WLTOOLS_CACHE", str(blocker))
    assert read_run(d).records == read_run(d).records
    assert capfd.readouterr().err == "" and blocker.read_text() == "x"
