"""``wltools count run``: train a model to count a pattern, into a resumable run directory.

The model is resolved and checked as for a BREC run (:func:`brec_runner.models.source.resolve_model`,
:func:`brec_runner.models.contract.check_model`): built-ins, plugins, ``MODULE:ATTR`` and ``PATH.py:ATTR``
take one path, with the same refusals. One *unit* is a (task, level, seed); its model is built by
:func:`brec_runner.runs.rpc.fresh_model` under the seed and trained by
:func:`brec_runner.counting.train.train_unit` with the protocol of :class:`~brec_runner.counting.train.CountProtocol`.

Layout of a count run directory (the BREC run's, :mod:`brec_runner.records.record`)::

    RUN_DIR/
      config.json        model, bound, protocol (with its sources), dataset digest, tasks, levels,
                         seeds, provenance, settings hash, code versions; sealed (config_check)
      results.jsonl      one checksummed JSON line per finished unit, appended and fsynced
      predictions/       each unit's test predictions (TASK~LEVEL~SEED.npy), whose sha256 its line
                         holds; every read recomputes the line's error from them
                         (brec_runner.counting.predictions)
      failures.jsonl     units whose model raised (one line each); a resume runs them again
      .lock-results.jsonl   the one writer's lock (brec_runner.records.locks)

A resume skips finished units; other settings, another declared bound, or another code version
without ``allow_code_change``, are refused naming the difference
(:func:`brec_runner.records.identity.differing_settings`). Readers count each unit identity
(:func:`unit_identity`) once (:func:`merge_units`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wltools.errors import RunDirectoryError, WLToolsError

from ..models.source import ModelSource
from ..records.fileio import read_regular, write_atomic
from ..records.identity import (code_version, config_problem, differing_settings, record_checksum, seal_config,
                                settings_hash)
from ..records.locks import FileLock
from ..records.record import check_kind, prepare_run_dir, read_config, read_results
from .predictions import predictions_problem, stores_predictions, write_predictions

if TYPE_CHECKING:  # count_train imports torch: only a run needs it, not reading or reporting runs
    from .train import CountProtocol

__all__ = ["read_count_run", "record_problem", "count_protocol", "count_code_version", "dataset_digest", "CountRun",
           "MAX_FAILURES", "unit_identity", "merge_units", "declared_bound"]

MAX_FAILURES = 10
KIND = "count"
_REQUIRED = {"task": str, "level": str, "seed": int, "test_nmae": float, "val_nmae": float, "best_epoch": int}
_FILES = ("train.py", "run.py", "predictions.py")
#: Fields of a record that are its unit's result: two records of one unit identity must agree on them.
RESULT_FIELDS = ("test_nmae", "val_nmae", "test_mae", "std", "best_epoch", "epochs_run", "curve")


def count_protocol(overrides: dict[str, Any] | None = None) -> CountProtocol:
    """The default :class:`CountProtocol` with ``overrides`` (unknown fields: one error)."""
    import dataclasses

    from .train import CountProtocol

    overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
    unknown = sorted(set(overrides) - set(CountProtocol.field_names()))
    if unknown:
        raise WLToolsError(f"unknown protocol field(s) {', '.join(unknown)}")
    return dataclasses.replace(CountProtocol(), **overrides)


def count_code_version(source: ModelSource) -> str:
    """The code version of a count record: the BREC runner's and the model's
    (:func:`brec_runner.records.identity.code_version`), the counting modules and ``wltools/counting``."""
    import wltools.counting as counting

    h = hashlib.sha256(code_version(source)["version"].encode())
    here = Path(__file__).resolve().parent
    for path in [here / f for f in _FILES] + sorted(Path(counting.__file__).resolve().parent.glob("*.py")):
        h.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


def dataset_digest() -> str:
    from wltools.counting.data import CHECKSUMS

    return hashlib.sha256(json.dumps(CHECKSUMS, sort_keys=True).encode()).hexdigest()[:16]


def record_problem(rec: Any, cfg: dict[str, Any]) -> str | None:
    """Why a results line cannot be trusted as a record of the count run ``cfg`` (None: it can)."""
    if not isinstance(rec, dict):
        return f"a JSON {type(rec).__name__}, not a record"
    for k, kind in _REQUIRED.items():
        v = rec.get(k)
        if isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else kind):
            return f"missing or wrong field {k}"
    if rec.get("check") != record_checksum(rec):
        return "checksum mismatch (the line was edited or damaged)"
    if rec.get("settings") != cfg.get("settings_hash"):
        return "written under other settings"
    if rec.get("code") not in (cfg.get("code_versions") or []):
        return f"code version {rec.get('code')} is not one of this run's"
    return None


#: The parts of a declared bound that the report reads (not where it was declared, nor its note).
_BOUND_KEYS = ("lower", "upper", "rrwp_steps")


def declared_bound(cfg: dict[str, Any]) -> dict[str, Any]:
    """The run's declared bound as the report reads it: ``lower``, ``upper``, ``rrwp_steps``."""
    bound = cfg.get("bound") if isinstance(cfg.get("bound"), dict) else {}
    return {k: bound.get(k) for k in _BOUND_KEYS}


def unit_identity(cfg: dict[str, Any], rec: dict[str, Any]) -> tuple:
    """What one count result is a result of: the run's settings hash (model, its configuration,
    transform, protocol, device type, dataset), its declared bound (:func:`declared_bound`), and
    the record's task, level and seed. Two records of one identity are one seed, counted once."""
    bound = json.dumps(declared_bound(cfg), sort_keys=True)
    return cfg.get("settings_hash"), bound, rec["task"], rec["level"], rec["seed"]


def merge_units(entries, duplicates: list[str] | None = None) -> list[tuple]:
    """Each ``(identity, record, where)`` of ``entries`` once, in order: a later record of an
    identity already seen is dropped when its result (:data:`RESULT_FIELDS`) is the same (a copy,
    a run given twice; said in ``duplicates``), and refused in one line naming both places when
    it differs (two different results cannot both be that seed)."""
    first: dict[tuple, tuple] = {}
    out = []
    for ident, rec, where in entries:
        if ident not in first:
            first[ident] = (rec, where)
            out.append((ident, rec, where))
            continue
        kept, kept_where = first[ident]
        what = f"{rec['task']} {rec['level']} seed {rec['seed']}"
        diff = [k for k in RESULT_FIELDS if rec.get(k) != kept.get(k)]
        if diff:
            raise RunDirectoryError(f"{where} and {kept_where} hold different results for {what} of one model "
                                    f"and settings ({diff[0]}: {rec.get(diff[0])!r} vs {kept.get(diff[0])!r}); "
                                    "a seed is counted once: report them separately")
        if duplicates is not None:
            duplicates.append(f"{where}: {what}, the same result as {kept_where}")
    return out


def read_count_run(run_dir, *, skip_bad: bool = False, duplicates: list[str] | None = None
                   ) -> tuple[dict[str, Any], list[dict], list[str]]:
    """``(config, records, bad lines)`` of a count run directory, every line checked; a unit
    recorded twice is kept once (:func:`merge_units`; said in ``duplicates`` when given)."""
    cfg = read_config(run_dir)
    check_kind(run_dir, cfg, (KIND,))
    if cfg.get("settings_hash") != settings_hash(cfg) or config_problem(cfg):
        raise RunDirectoryError(f"{run_dir}/config.json was edited (its checks fail); restore it from a backup")
    good, bad = [], []
    for where, rec in _lines(Path(run_dir) / "results.jsonl", bad):
        why = record_problem(rec, cfg)
        if why is None and stores_predictions(cfg):  # its error must follow from its predictions
            why = predictions_problem(run_dir, cfg, rec)
        if why is None:
            good.append((unit_identity(cfg, rec), rec, where))
        else:
            bad.append(f"{where}: {why}")
    if bad and not skip_bad:
        raise RunDirectoryError(f"{bad[0]} (wltools count report --skip-bad skips and counts such lines)")
    return cfg, [rec for _, rec, _ in merge_units(good, duplicates)], bad


def _lines(path: Path, bad: list[str]) -> list[tuple[str, dict]]:
    """``(where, record)`` of every line of a count results file that is a JSON object
    (:func:`brec_runner.records.record.read_results`); a line that is not (cut off, ``[]``, not JSON) goes
    to ``bad`` as ``"FILE, line N: why"``, like any other bad line."""
    data = read_regular(path)
    if data is None:
        return []
    before = len(bad)
    kept = read_results(path, skip_bad=True, bad=bad)
    refused = {int(b[len(f"{path}, line "):].split(":")[0]) for b in bad[before:]}
    ids = [i for i in range(1, data.count(b"\n") + 1 + (not data.endswith(b"\n"))) if i not in refused]
    ids = ids[:len(kept)]  # an unfinished last line (ignored by read_results) is the last of them
    return [(f"{path}, line {i}", rec) for i, rec in zip(ids, kept)]


class CountRun:
    """A count run directory being written: config check, resume set, appends, one writer."""

    def __init__(self, path, config: dict[str, Any], code: str, allow_code_change: bool = False) -> None:
        self.path = Path(path)
        prepare_run_dir(self.path)
        self.code = code
        self._lock = FileLock(self.path / ".lock-results.jsonl", f"{self.path / 'results.jsonl'}").acquire()
        try:
            self.config = self._open(config, allow_code_change)
            read_results(self.path / "results.jsonl", repair=True)
            _, records, _ = read_count_run(self.path)
        except BaseException:
            self.close()
            raise
        self.done = {(r["task"], r["level"], r["seed"]) for r in records}

    def _open(self, new: dict[str, Any], allow_code_change: bool) -> dict[str, Any]:
        new = {**json.loads(json.dumps(new)), "kind": KIND}
        new["settings_hash"] = settings_hash(new)
        new["code_versions"] = [self.code]
        if read_regular(self.path / "config.json") is None:
            if (self.path / "results.jsonl").exists():
                raise RunDirectoryError(f"{self.path} holds results but no config.json; move them away to start afresh")
            self._write(new)
            return new
        old, _, _ = read_count_run(self.path, skip_bad=True)
        if not stores_predictions(old):
            raise RunDirectoryError(f"{self.path} was recorded before count records stored their test predictions; "
                                    "its records are read as they are, but not extended: use another --out")
        diff = differing_settings(old, new) + (["bound"] if declared_bound(old) != declared_bound(new) else [])
        if diff:  # the declared bound decides the report's theory column: part of the run's identity
            raise RunDirectoryError(f"{self.path} holds a count run with other settings ({', '.join(diff)}); "
                                    "use another --out or the same settings")
        versions = list(old["code_versions"])
        if self.code not in versions:
            if not allow_code_change:
                raise RunDirectoryError(f"{self.path} was run by code version {', '.join(versions)}, this code is "
                                        f"{self.code}; use another --out, or --allow-code-change to continue")
            versions.append(self.code)
        merged = {**old, **{k: sorted(set(old.get(k) or []) | set(new.get(k) or []), key=str)
                            for k in ("tasks", "levels", "seeds")},
                  "bound": new.get("bound"), "code_versions": versions}
        if merged != old:
            self._write(merged)
        return merged

    def _write(self, cfg: dict[str, Any]) -> None:
        write_atomic(self.path / "config.json", json.dumps(seal_config(cfg), indent=2, sort_keys=True) + "\n")

    def _append(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        import os

        rec = {**body, "settings": self.config["settings_hash"], "code": self.code}
        rec["check"] = record_checksum(rec)
        try:
            with open(self.path / name, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(rec, sort_keys=True) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise RunDirectoryError(f"cannot append to {self.path / name}: {exc.strerror}") from None
        return rec

    def append(self, body: dict[str, Any], test_pred) -> dict[str, Any]:
        """Record a finished unit: its test predictions first (``predictions/``), then its line,
        which holds their digest (:mod:`brec_runner.counting.predictions`)."""
        entry = write_predictions(self.path, body["task"], body["level"], body["seed"], test_pred)
        rec = self._append("results.jsonl", {**body, "predictions": entry})
        self.done.add((rec["task"], rec["level"], rec["seed"]))
        return rec

    def append_failure(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._append("failures.jsonl", body)

    def close(self) -> None:
        if getattr(self, "_lock", None) is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> "CountRun":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
