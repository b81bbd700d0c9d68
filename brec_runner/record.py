"""Run directories: the only code that writes a run's files.

Layout of a run directory::

    RUN_DIR/
      config.json                     what was run: model, preset or factory options, transform,
                                      declared bound, protocol constants (with the T² threshold),
                                      seeds, pairs, device, provenance (wltools.provenance)
      results.jsonl                   one JSON object per finished (pair, seed), appended + flushed
      results-shard-K-of-N.jsonl      the same, written by shard K of N (``--shard K/N``)

Directories written by older versions may also hold ``results[-shard-K-of-N]-worker-J-of-W.jsonl``
files; they are read like the others.

Resuming: every (pair, seed) found in *any* ``results*.jsonl`` of the directory counts as done, so
a run may be resumed with other ``--shard`` / ``--workers`` settings without redoing or duplicating
a unit. A last line that is not a complete JSON object ending in a newline (an interrupted write) is
never trusted: it is cut off the file and that unit is redone. A bad line before the last is an
error. If the settings that change results (:data:`COMPARED_KEYS`) differ from ``config.json``
the run stops with :class:`~wltools.errors.RunDirectoryError` naming the differing keys.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from wltools.errors import RunDirectoryError

__all__ = [
    "CONFIG",
    "COMPARED_KEYS",
    "comparable",
    "read_results",
    "results_name",
    "results_files",
    "finished_units",
    "read_config",
    "RunDirectory",
]

CONFIG = "config.json"
#: Config keys that change results: a run directory holds records of one setting of these only.
COMPARED_KEYS = ("model", "preset", "model_overrides", "transform", "protocol", "device_type")
#: Config keys a resume may extend or correct (they do not change any record).
_GROWING = ("seeds", "pairs")
_REPLACED = ("bound",)


def comparable(key: str, value):
    """The part of a config value that changes results (a protocol's cited sources do not).

    Examples
    --------
    >>> comparable("protocol", {"lr": 1e-4, "sources": ["x"]})
    {'lr': 0.0001}
    """
    if key == "protocol" and isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "sources"}
    return value


def _complete(line: str) -> dict | None:
    if not line.endswith("\n"):
        return None
    try:
        rec = json.loads(line)
    except json.JSONDecodeError:
        return None
    return rec if isinstance(rec, dict) else None


def read_results(path, repair: bool = False) -> list[dict]:
    """Records of a results file. A bad *last* line (truncated write) is dropped, and cut off the
    file when ``repair``; a bad line before the last means the file was edited or corrupted:
    :class:`RunDirectoryError`."""
    path = Path(path)
    if not path.exists():
        return []
    with open(path, "r", encoding="utf-8", newline="") as fh:
        lines = fh.readlines()
    records, good_bytes = [], 0
    for i, line in enumerate(lines):
        rec = _complete(line)
        if rec is None:
            if i == len(lines) - 1:
                break  # half-written last line: never trusted
            raise RunDirectoryError(f"{path}: line {i + 1} is not a complete JSON record")
        records.append(rec)
        good_bytes += len(line.encode("utf-8"))
    if repair and good_bytes != path.stat().st_size:
        with open(path, "r+b") as fh:
            fh.truncate(good_bytes)
    return records


def results_name(shard: tuple[int, int] | None = None) -> str:
    """File name of the results of shard K/N (``results.jsonl`` without a shard).

    Examples
    --------
    >>> results_name(), results_name((2, 8))
    ('results.jsonl', 'results-shard-2-of-8.jsonl')
    """
    return "results.jsonl" if shard is None else f"results-shard-{shard[0]}-of-{shard[1]}.jsonl"


def results_files(run_dir) -> list[Path]:
    """Every ``results*.jsonl`` of a run directory, sorted."""
    return sorted(Path(run_dir).glob("results*.jsonl"))


def finished_units(run_dir) -> set[tuple[int, int]]:
    """(pair id, seed) of every complete record in any results file of a run directory."""
    done: set[tuple[int, int]] = set()
    for f in results_files(run_dir):
        done |= {(int(r["id"]), int(r["seed"])) for r in read_results(f)}
    return done


def read_config(run_dir) -> dict[str, Any]:
    """``config.json`` of a run directory; :class:`RunDirectoryError` when missing or not JSON."""
    path = Path(run_dir) / CONFIG
    if not path.is_file():
        raise RunDirectoryError(f"{run_dir} is not a run directory (no {CONFIG})")
    try:
        cfg = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RunDirectoryError(f"{path} is not valid JSON ({exc})") from None
    if not isinstance(cfg, dict):
        raise RunDirectoryError(f"{path} holds a {type(cfg).__name__}, not a run configuration")
    return cfg


class RunDirectory:
    """A run directory being written (module docstring): config check and write, resume set,
    appending records.

    Parameters
    ----------
    path : path-like
    config : dict
        The run's config; the keys in :data:`COMPARED_KEYS` must match an existing config.json.
    shard : (K, N) or None
        Selects the results file this process appends to.
    """

    def __init__(self, path, config: dict[str, Any], shard: tuple[int, int] | None = None):
        self.path = Path(path)
        self.config = json.loads(json.dumps(config))  # normalised as it will be read back
        self.results_path = self.path / results_name(shard)
        self._open()
        self._records = read_results(self.results_path, repair=True)
        self.done = {(int(r["id"]), int(r["seed"])) for r in self._records}
        self.done |= finished_units(self.path)  # other shards' files: read, never repaired

    def _open(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise RunDirectoryError(f"{self.path} exists and is not a directory")
        self.path.mkdir(parents=True, exist_ok=True)
        if not (self.path / CONFIG).exists():
            self._write_config(self.config)
            return
        old, new = read_config(self.path), self.config
        diff = [k for k in COMPARED_KEYS if comparable(k, old.get(k)) != comparable(k, new.get(k))]
        if diff:
            detail = "; ".join(f"{k}: {old.get(k)!r} != {new.get(k)!r}" for k in diff)
            raise RunDirectoryError(
                f"{self.path} holds a run with other settings (differing keys: {', '.join(diff)}); "
                f"use another --out or the same settings. {detail}")
        merged = {**old, **{k: sorted(set(old.get(k) or []) | set(new.get(k) or [])) for k in _GROWING},
                  **{k: new[k] for k in _REPLACED if k in new}}
        if merged != old:
            self._write_config(merged)

    def _write_config(self, config: dict[str, Any]) -> None:
        """Write config.json atomically (temporary file, then rename)."""
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=".config-", suffix=".json")
        with os.fdopen(fd, "w") as fh:
            json.dump(config, fh, indent=2, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, self.path / CONFIG)

    @property
    def records(self) -> list[dict]:
        """Records of this process's results file (not of other shards)."""
        return list(self._records)

    def append(self, record: dict[str, Any]) -> None:
        """Append one record as a JSON line, flushed and fsynced."""
        line = json.dumps(record, sort_keys=True) + "\n"
        with open(self.results_path, "a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        self._records.append(json.loads(line))
        self.done.add((int(record["id"]), int(record["seed"])))
