"""Run directories: the only code that writes a run's files, and the one that reads them back.

Layout of a run directory::

    RUN_DIR/
      config.json                     what was run: model, preset or factory options, transform,
                                      declared bound, protocol constants (with the T² threshold and
                                      its rule), dataset digest, seeds, pairs, device, provenance
                                      (wltools.runtime.provenance), format, settings hash, code versions
      results.jsonl                   one JSON object per finished (pair, seed), appended + fsynced
      results-shard-K-of-N.jsonl      the same, written by shard K of N (``--shard K/N``)
      failures.jsonl                  units whose model raised, or whose Ray task failed after its
                                      retries, one checksummed line each (read_failures); a
                                      resume runs them again
      multi_pair.json                 the --multi-pair auto decision (group size or the loop) and
                                      its probe's timings; every later invocation keeps it
      .lock, .lock-results*.jsonl     advisory locks (brec_runner.records.locks)

Directories written by older versions may also hold ``results[-shard-K-of-N]-worker-J-of-W.jsonl``
files; they are read like the others.

**Identity.** Every line carries the run's settings hash, the code version that computed it and a
checksum (:mod:`brec_runner.records.identity`). Reading a directory checks every line against
``config.json``: a line that does not parse, fails its checksum, belongs to other settings or an
unknown code version, or whose verdict does not follow from its own T² statistics is an error naming
file and line (:class:`RecordError`), or with ``skip_bad`` is skipped and counted.
A file whose every line passed is remembered by content (its bytes, the config, the checking
code: :mod:`brec_runner.records.verified`), so the same bytes are parsed, not checked, next time.

**Resuming.** Every (pair, seed) found in *any* ``results*.jsonl`` counts as done, so a run may be
resumed with other ``--shard`` / ``--workers`` settings without redoing or duplicating a unit. A
last line that is not a complete JSON object (an interrupted write) is never trusted: it is cut off
the file and that unit is redone; a whole record that lacks only its newline is checked and kept
like any line, and the writer adds the newline (each said in one line on stderr).

**config.json** is sealed by ``config_check`` (:func:`brec_runner.records.identity.seal_config`) each
time it is written, so a hand edit of any entry (``seeds``, ``pairs``, the ``bound`` the report
reads) is refused like an edit of the settings. The declared ``bound`` is part of the run's
identity (format 3: of its settings hash too): a resume under another bound is refused like other
settings, except in a directory written before bounds were recorded, which records it then. A
resume may change the ``eval_batch_size`` (it changes no verdict): the change is said on stderr
and kept in the config's ``changes``. config.json, the results files and multi_pair.json are read through
:func:`brec_runner.records.fileio.read_regular`: a FIFO, device or directory in their place is an error,
never a read that blocks.

A run is resumed only under the same settings (:data:`~brec_runner.records.identity.SETTINGS_KEYS`; the
refusal names the differing setting), and under another code version only when asked (``allow_code_change``; each line keeps its own).
Records without a ``config.json`` are refused. Directories of the format before record identity
(format 1) are read only after ``wltools brec upgrade`` stamps them
(:func:`brec_runner.records.upgrade.upgrade_legacy`).

**One writer.** :class:`RunDirectory` holds an advisory lock on the results file it appends to (and
briefly on ``config.json`` while checking and writing it), so a second run into the same file fails
at once; shards append to their own files and run side by side.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wltools.errors import RunDirectoryError

from . import verified
from .fileio import check_regular, load_json, read_regular
from .identity import (FORMAT, READ_FORMATS, SETTINGS_KEYS, config_problem, differing_settings, record_checksum, record_problem,
                       seal_config, settings_hash, stamp)
from .locks import FileLock

__all__ = [
    "CONFIG",
    "COMPARED_KEYS",
    "RecordError",
    "RUN_KINDS",
    "run_kind",
    "check_kind",
    "comparable",
    "read_results",
    "results_name",
    "results_files",
    "finished_units",
    "read_config",
    "RunRecords",
    "read_run",
    "RunDirectory",
    "FAILURES",
    "read_failures",
    "prepare_run_dir",
]

CONFIG = "config.json"
MULTI_PAIR = "multi_pair.json"
#: Config keys that change results (see :mod:`brec_runner.records.identity`).
COMPARED_KEYS = SETTINGS_KEYS
#: Config keys a resume may extend or correct (they do not change any record).
_GROWING = ("seeds", "pairs")
#: Config keys a resume may set, with a message and an entry in ``config.json``'s ``changes``: the
#: evaluation batch size (it changes only the float summation order of the eval-mode forward
#: passes, see :mod:`brec_runner.runs.rpc`), and the bound where the directory predates its recording
#: (otherwise the bound is a setting: :data:`~brec_runner.records.identity.SETTINGS_KEYS`).
_DECLARED = ("bound", "eval_batch_size")


class RecordError(RunDirectoryError):
    """A results line that cannot be trusted (its file and line are in the message)."""


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


def _parse(raw: bytes) -> tuple[Any, str | None]:
    return load_json(raw)


def _whole_record(tail: bytes) -> bool:
    """Whether a last line without its newline was written whole: it parses as a JSON object (an
    object cut off anywhere before its closing brace never does). It is then read like any line:
    checked, kept when it holds, an error when it does not; never deleted."""
    rec, why = _parse(tail)
    return why is None and isinstance(rec, dict)


def read_results(path, repair: bool = False, *, config: dict[str, Any] | None = None,
                 skip_bad: bool = False, bad: list | None = None) -> list[dict]:
    """Records of a results file.

    A last line without its newline is read like the others when it is a whole JSON object (the
    write stopped just before the newline), and given its newline when ``repair``; otherwise (an
    interrupted write) it is ignored, and cut off the file when ``repair``. Either is said in one
    line on stderr. Any other line that is not a JSON object is a :class:`RecordError` naming
    file and line; a FIFO, device or directory in place of the file is an error, never read. With
    ``config`` every line is also checked against the run
    (:func:`brec_runner.records.identity.record_problem`). With ``skip_bad`` bad lines are skipped instead,
    and ``"FILE, line N: why"`` appended to ``bad``. A file whose every line passed is remembered
    by its bytes, config and the checking code, and the same bytes are not checked again
    (:mod:`brec_runner.records.verified`).
    """
    path = Path(path)
    data = read_regular(path)
    if data is None:
        return []
    protocol = key = None
    if config is not None:
        from .identity import protocol_of

        key = verified.entry_key(data, config)
        known = verified.known_records(data, key)
        if known is not None:  # these very bytes passed every check below under this config and code
            return known
        protocol = protocol_of(config)
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends in a newline, else a last line without it
    whole = bool(tail) and _whole_record(tail)
    if whole:
        lines.append(tail)
        print(f"wltools: {path}: the last line lacks its newline; it is a whole record and is kept"
              + (" (newline added)" if repair else ""), file=sys.stderr)
    elif tail:
        print(f"wltools: {path}: the last line is unfinished (an interrupted write) and is "
              + ("cut off" if repair else "ignored") + "; its unit runs again on resume", file=sys.stderr)
    records: list[dict] = []
    for i, raw in enumerate(lines, start=1):
        rec, why = _parse(raw)
        if why is None and not isinstance(rec, dict):
            why = f"a JSON {type(rec).__name__}, not a record"
        if why is None and config is not None:
            why = record_problem(rec, config, protocol=protocol)
        if why is not None:
            where = f"{path}, line {i}: {why}"
            if not skip_bad:
                raise RecordError(where + " (brec report --skip-bad skips and counts such lines)")
            if bad is not None:
                bad.append(where)
            continue
        records.append(rec)
    if key is not None and not tail and len(records) == len(lines):  # every line checked and trusted
        verified.remember(key)
    if tail and repair:
        try:
            with open(path, "r+b") as fh:
                if whole:
                    fh.seek(len(data))
                    fh.write(b"\n")
                else:
                    fh.truncate(len(data) - len(tail))
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise RunDirectoryError(f"cannot repair the last line of {path}: {exc.strerror}") from None
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
    """(pair id, seed) of every trusted record in any results file of a run directory."""
    return {(int(r["id"]), int(r["seed"])) for r in read_run(run_dir).records}


def read_config(run_dir) -> dict[str, Any]:
    """``config.json`` of a run directory; :class:`RunDirectoryError` when missing, unreadable, not
    JSON or not a JSON object."""
    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise RunDirectoryError(f"{run_dir} is a file, not a run directory")
    path = run_dir / CONFIG
    data = read_regular(path)  # a FIFO or device there: an error, never a read that blocks
    if data is None:
        hint = (" but holds results: restore its config.json, or move the results away to start afresh"
                if run_dir.is_dir() and results_files(run_dir) else "")
        raise RunDirectoryError(f"{run_dir} is not a run directory (no {CONFIG}){hint}")
    try:
        cfg = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise RunDirectoryError(f"{path} is nested too deeply to be a run configuration (not valid JSON "
                                "for this reader)") from None
    except UnicodeDecodeError:
        raise RunDirectoryError(f"{path} is not UTF-8 text (a binary or damaged file)") from None
    except json.JSONDecodeError as exc:
        raise RunDirectoryError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(cfg, dict):
        raise RunDirectoryError(f"{path} holds a JSON {type(cfg).__name__}, not a run configuration")
    for key, kind in (("model", str), ("protocol", dict)):
        if not isinstance(cfg.get(key), kind):
            raise RunDirectoryError(f"{path} has no valid '{key}' entry: not a run configuration")
    return cfg


#: The kinds of run directory: what each is called and the commands that read it.
RUN_KINDS = {"brec": ("a BREC run (wltools brec run)", "wltools brec report or wltools brec compare"),
             "suite": ("a suite run (wltools suite run)", "wltools suite compare or wltools brec report"),
             "count": ("a count run (wltools count run)", "wltools count report")}


def run_kind(config: dict[str, Any]) -> str:
    """The kind of run a ``config.json`` describes: ``count`` (its ``kind``), ``suite`` (it names a
    suite) or ``brec`` (:data:`RUN_KINDS`).

    Examples
    --------
    >>> run_kind({"kind": "count"}), run_kind({"suite": "csl"}), run_kind({"model": "gin"})
    ('count', 'suite', 'brec')
    """
    if config.get("kind") == "count":
        return "count"
    return "suite" if config.get("suite") else "brec"


def check_kind(run_dir, config: dict[str, Any], accepted: tuple[str, ...]) -> None:
    """Refuse (:class:`RunDirectoryError`, one line) a run directory whose kind (:func:`run_kind`) a
    reader does not read (``accepted``), naming its kind and the command that reads it.

    Examples
    --------
    >>> check_kind("runs/x", {"kind": "count"}, ("brec", "suite"))
    Traceback (most recent call last):
    ...
    wltools.errors.RunDirectoryError: runs/x is a count run (wltools count run), not a BREC or suite run: read it with wltools count report
    """
    kind = run_kind(config)
    if kind in accepted:
        return
    what, reader = RUN_KINDS[kind]
    if kind == "suite":
        what = f"a run of suite {config['suite']} (wltools suite run)"
    wanted = " or ".join({"brec": "BREC", "suite": "suite", "count": "count"}[k] for k in accepted)
    raise RunDirectoryError(f"{run_dir} is {what}, not a {wanted} run: read it with {reader}")


def _check_format(run_dir, cfg: dict[str, Any]) -> None:
    fmt = cfg.get("format", 1)
    if fmt in READ_FORMATS:
        if not isinstance(cfg.get("settings_hash"), str) or not isinstance(cfg.get("code_versions"), list):
            raise RunDirectoryError(f"{run_dir}/{CONFIG} lacks its settings hash or code versions (edited?)")
        why = config_problem(cfg)  # first: it covers every entry, the settings too
        if why:
            raise RunDirectoryError(f"{run_dir}/{CONFIG}: {why}; restore it from a backup")
        if cfg["settings_hash"] != settings_hash(cfg):
            raise RunDirectoryError(f"{run_dir}/{CONFIG}: its settings do not match its settings hash "
                                    "(the file was edited); restore it from a backup")
        return
    if fmt == 1:
        raise RunDirectoryError(f"{run_dir} was written by an older wltools (records without checksums); "
                                f"run `wltools brec upgrade {run_dir}` once to stamp them")
    raise RunDirectoryError(f"{run_dir}/{CONFIG} has format {fmt!r}; this wltools reads formats "
                            f"{', '.join(map(str, READ_FORMATS))} (a newer wltools wrote it: update wltools)")


@dataclass
class RunRecords:
    """A run directory read back: its config, its trusted records, and the lines skipped as bad."""

    config: dict[str, Any]
    records: list[dict] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)
    #: (pair, seed) units recorded more than once (overlapping shards), counted once.
    duplicates: int = 0


def read_run(run_dir, *, skip_bad: bool = False) -> RunRecords:
    """Read and check a whole run directory (config and every results file, module docstring).

    A (pair, seed) recorded twice (two shards that overlapped) must agree; the first is kept and
    the others counted (``duplicates``).
    """
    cfg = read_config(run_dir)
    check_kind(run_dir, cfg, ("brec", "suite"))  # a count run: named, never "run brec upgrade"
    _check_format(run_dir, cfg)
    out = RunRecords(cfg)
    seen: dict[tuple[int, int], dict] = {}
    for f in results_files(run_dir):
        for rec in read_results(f, config=cfg, skip_bad=skip_bad, bad=out.bad):
            key = (int(rec["id"]), int(rec["seed"]))
            if key in seen:
                if (seen[key]["distinguished"], seen[key]["reliable"]) != (rec["distinguished"], rec["reliable"]):
                    raise RecordError(f"{f}: pair {key[0]} seed {key[1]} is recorded twice with different verdicts")
                out.duplicates += 1
                continue
            seen[key] = rec
            out.records.append(rec)
    return out


FAILURES = "failures.jsonl"


def read_failures(run_dir, config: dict[str, Any], *, bad: list | None = None) -> list[dict]:
    """The entries of a run directory's ``failures.jsonl`` (:meth:`RunDirectory.append_failure`),
    oldest first; none when there is no such file.

    An entry must be a JSON object with integer ``id`` and ``seed``, its checksum must hold and
    its settings hash must be ``config``'s; other lines (and an unfinished last line) are left out
    and ``"FILE, line N: why"`` appended to ``bad``. The log is history: a unit may have failed
    and been recorded since (compare with the results).
    """
    from .identity import record_checksum

    path = Path(run_dir) / FAILURES
    data = read_regular(path)  # a FIFO or device there: an error, never a read that blocks
    if data is None:
        return []
    lines = data.split(b"\n")
    tail = lines.pop()
    out = []
    for i, raw in enumerate(lines + ([tail] if tail else []), start=1):
        entry, why = _parse(raw)
        if why is None and not (isinstance(entry, dict) and all(
                isinstance(entry.get(k), int) and not isinstance(entry.get(k), bool) for k in ("id", "seed"))):
            why = "not a failure entry (a JSON object with integer id and seed)"
        if why is None and entry.get("check") != record_checksum(entry):
            why = "checksum mismatch (damaged or edited)" if "check" in entry else "no checksum"
        if why is None and entry.get("settings") != config.get("settings_hash"):
            why = "belongs to other settings"
        if why is not None:
            if bad is not None:
                bad.append(f"{path}, line {i}: {why}")
            continue
        out.append(entry)
    return out


def write_json_atomic(path: Path, obj: Any) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=path.suffix + ".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(obj, fh, indent=2, sort_keys=True)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def prepare_run_dir(path: Path) -> None:
    """Create the run directory ``path`` if needed and check it is a writable directory outside what
    the project ships (:func:`wltools.runtime.shipped.refuse_shipped`; one :class:`RunDirectoryError`
    line otherwise); shared by BREC and count run directories."""
    from wltools.runtime.shipped import refuse_shipped

    refuse_shipped("the run directory", path, error=RunDirectoryError)
    if path.exists() and not path.is_dir():
        raise RunDirectoryError(f"{path} exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunDirectoryError(f"cannot create the run directory {path}: {exc.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise RunDirectoryError(f"the run directory {path} is not writable")


class RunDirectory:
    """A run directory being written (module docstring): config check and write, resume set,
    appending records, one writer per results file.

    Parameters
    ----------
    path : path-like
    config : dict
        The run's config; its :data:`COMPARED_KEYS` must match an existing ``config.json``.
    shard : (K, N) or None
        Selects the results file this process appends to.
    code : str
        The code version stamped on new records (:func:`brec_runner.records.identity.code_version`).
    allow_code_change : bool
        Resume a run started under another code version (new records carry the new one).

    Use as a context manager, or call :meth:`close`, to release the lock.
    """

    def __init__(self, path, config: dict[str, Any], shard: tuple[int, int] | None = None, *,
                 code: str = "unversioned", allow_code_change: bool = False):
        self.path = Path(path)
        self.code = code
        self.results_path = self.path / results_name(shard)
        self._prepare_dir()
        self._lock = FileLock(self.path / f".lock-{self.results_path.name}", f"{self.results_path}").acquire()
        try:
            with FileLock(self.path / ".lock", f"run directory {self.path}", wait=10.0):
                self.config = self._open(json.loads(json.dumps(config)), allow_code_change)
            read_results(self.results_path, repair=True)  # cut an interrupted last line (this file only)
            run = read_run(self.path)
        except BaseException:
            self.close()
            raise
        self._records = list(run.records)
        self.done = {(int(r["id"]), int(r["seed"])) for r in run.records}

    def _prepare_dir(self) -> None:
        prepare_run_dir(self.path)

    def _open(self, new: dict[str, Any], allow_code_change: bool) -> dict[str, Any]:
        new.update(format=FORMAT)
        new["settings_hash"] = settings_hash(new)
        new["code_versions"] = [self.code]
        if not (self.path / CONFIG).exists():
            if results_files(self.path):
                raise RunDirectoryError(
                    f"{self.path} holds results but no {CONFIG}: their settings are unknown, so they cannot be "
                    "resumed or mixed with a new run; restore config.json, or move the results away to start afresh")
            self._write_config(new)
            return new
        old = read_config(self.path)
        _check_format(self.path, old)
        diff = [k for k in differing_settings(old, new) if k != "bound" or "bound" in old]  # first recorded now
        if diff:
            a, b = _show(old, diff[0]), _show(new, diff[0])
            if diff[0] == "transform" and isinstance(old.get("transform"), str) and " [state " not in old["transform"]:
                a += " (recorded when a transform was keyed by its repr alone, which can hide its settings)"
            raise RunDirectoryError(
                f"{self.path} holds a run with other settings ({', '.join(diff)}; {diff[0]}: {a} here, {b} now); "
                "use another --out or the same settings")
        versions = list(old["code_versions"])
        if self.code not in versions:
            if not allow_code_change:
                raise RunDirectoryError(
                    f"{self.path} was run by code version {', '.join(versions)}, this code is {self.code} (the runner "
                    "or the model's source changed); use another --out, or --allow-code-change to continue "
                    "(each record keeps its own version)")
            versions.append(self.code)
        merged = {**old, **{k: sorted(set(old.get(k) or []) | set(new.get(k) or [])) for k in _GROWING},
                  **{k: new[k] for k in _DECLARED if k in new}, "code_versions": versions}
        changes = self._declared_changes(old, new)
        if changes:
            merged["changes"] = list(old.get("changes") or []) + changes
        if merged != old:
            self._write_config(merged)
        return merged

    def _declared_changes(self, old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
        """The :data:`_DECLARED` entries this resume changes, each said in one line on stderr and
        returned for ``config.json``'s ``changes`` (a value recorded for the first time in a directory
        written before it was recorded is no change, except the bound, which the report reads)."""
        import time

        why = {"bound": "a declaration, not a training setting: the records stay, the report and the claims "
                        "use the new bound",
               "eval_batch_size": "it changes only the float summation order of the eval-mode forward passes: "
                                  "the records stay, new ones use the new size"}

        def show(cfg: dict[str, Any], k: str) -> str:
            value = cfg.get(k)
            if k not in cfg:
                return "not recorded"
            if k == "bound" and isinstance(value, dict):
                return " .. ".join(str(value.get(e)) for e in ("lower", "upper") if value.get(e)) or "none"
            return "none" if value is None else _show(cfg, k)

        out = []
        for k in _DECLARED:
            if k not in new or (k not in old and k != "bound") or old.get(k) == new[k]:
                continue
            print(f"wltools: {self.path}: {k} changes from {show(old, k)} to {show(new, k)} on this resume "
                  f"({why[k]}); recorded in {CONFIG} 'changes'", file=sys.stderr)
            out.append({"key": k, "from": old.get(k), "to": new[k],
                        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
        return out

    def _write_config(self, config: dict[str, Any]) -> None:
        """Write config.json atomically (temporary file, then rename), sealed with its
        ``config_check`` (:func:`brec_runner.records.identity.seal_config`)."""
        try:
            write_json_atomic(self.path / CONFIG, seal_config(config))
        except OSError as exc:
            raise RunDirectoryError(f"cannot write {self.path / CONFIG}: {exc.strerror}") from None

    @property
    def records(self) -> list[dict]:
        """The trusted records of the whole directory (all results files)."""
        return list(self._records)

    def append(self, record: dict[str, Any]) -> None:
        """Append one record, stamped with the run's identity, as a JSON line, flushed and fsynced."""
        if self._lock is None:
            raise RunDirectoryError(f"{self.path} was closed")
        rec = stamp(record, self.config, self.code)
        line = json.dumps(rec, sort_keys=True) + "\n"
        try:
            with open(self.results_path, "a", encoding="utf-8") as fh:
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise RunDirectoryError(f"cannot append to {self.results_path}: {exc.strerror}") from None
        self._records.append(json.loads(line))
        self.done.add((int(record["id"]), int(record["seed"])))

    def append_failure(self, failure: dict[str, Any]) -> None:
        """Append a failed unit to ``failures.jsonl`` (fsynced), stamped with the run's settings
        hash, the code version, the time and a checksum (:func:`read_failures` checks them). It is
        no result: a resume runs the unit again, and the file keeps what happened (a unit recorded
        in a results file since is no longer failed)."""
        import time

        from .identity import record_checksum

        entry = {**failure, "settings": self.config["settings_hash"], "code": self.code,
                 "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        entry.pop("check", None)
        entry["check"] = record_checksum(entry)
        line = json.dumps(entry, sort_keys=True) + "\n"
        check_regular(self.path / FAILURES)  # a FIFO there would block the append: one line instead
        try:
            with open(self.path / FAILURES, "a", encoding="utf-8") as fh:
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise RunDirectoryError(f"cannot append to {self.path / 'failures.jsonl'}: {exc.strerror}") from None

    def multi_pair_choice(self, *, quiet: bool = False) -> dict | None:
        """The ``--multi-pair auto`` decision recorded by an earlier invocation into this directory
        (``multi_pair.json``: ``{"group": G or None, "probe": {...}}``), or None when there is none.
        A damaged file (not JSON, another run's, or failing its ``check``, a sha256 of its other
        fields as on results lines) is reported in one line on stderr and ignored (the probe runs
        again and rewrites it); a file written before the check has none and is read as before. A
        FIFO, device or directory in its place is a :class:`RunDirectoryError`, never read."""
        path = self.path / MULTI_PAIR
        data = read_regular(path)
        if data is None:
            return None
        try:
            doc, why = load_json(data)
            if why:
                raise ValueError(why)
            group = doc["group"]
            if "check" in doc and doc["check"] != record_checksum(doc):
                raise ValueError("checksum mismatch: the file was edited or damaged")
            if doc.get("settings") != self.config["settings_hash"] or not (
                    group is None or (isinstance(group, int) and not isinstance(group, bool) and group >= 2)):
                raise ValueError("not this run's decision")
        except (ValueError, KeyError, TypeError) as exc:
            if not quiet:
                why = str(exc) if isinstance(exc, ValueError) else type(exc).__name__
                print(f"wltools: {path} is damaged ({why}); probing again", file=sys.stderr)
            return None
        return doc

    def record_multi_pair_choice(self, group: int | None, probe: dict) -> dict:
        """Record the ``--multi-pair auto`` decision (atomically, under the directory lock) unless
        another invocation recorded a sound one first; return the decision that holds."""
        with FileLock(self.path / ".lock", f"run directory {self.path}", wait=10.0):
            held = self.multi_pair_choice(quiet=True)  # a damaged file was reported by the caller
            if held is not None:
                return held
            doc = {"group": group, "probe": probe, "settings": self.config["settings_hash"]}
            doc["check"] = record_checksum(doc)
            try:
                write_json_atomic(self.path / MULTI_PAIR, doc)
            except OSError as exc:
                raise RunDirectoryError(f"cannot write {self.path / MULTI_PAIR}: {exc.strerror}") from None
            return doc

    def close(self) -> None:
        """Release the results file's lock."""
        lock, self._lock = getattr(self, "_lock", None), None
        if lock is not None:
            lock.release()

    def __enter__(self) -> "RunDirectory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


def _show(cfg: dict[str, Any], key: str) -> str:
    if key.startswith("protocol."):
        value = (cfg.get("protocol") or {}).get(key.split(".", 1)[1])
    elif key == "bound":
        from .identity import settings_of

        value = settings_of(cfg, ("bound",))["bound"]
    else:
        value = cfg.get(key)
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:40] + "..." + text[-37:]  # both ends: a key's digest is last
