"""Reading run files and cache entries without hanging, writing outputs without losing data.

Three small guards that every reader and writer of :mod:`brec_runner` uses:

- :func:`read_regular` opens a file with ``O_NONBLOCK`` and checks with ``fstat`` that it is a
  regular file before reading a byte. Opening a FIFO for reading blocks until some process opens it
  for writing, and reading a device may never end; so a FIFO, a device or a directory where
  ``config.json``, a results file, ``multi_pair.json`` or a cache entry should be is one error line
  (``error: RUN/config.json is a FIFO (named pipe), not a regular file; move it away``), never a
  hang. Checking the descriptor after opening, not the path before it, leaves no window for the
  file to be swapped in between.
- :func:`load_json` parses JSON read from disk with every way a damaged file fails to parse as a
  reason: not UTF-8, not JSON, or nested too deeply for the parser (``[[[[...]]]]`` 100,000 levels
  deep raises :class:`RecursionError` inside :mod:`json`).
- :func:`atomic_path` / :func:`write_atomic` write an output through a temporary file in the same
  directory, flushed and fsynced, then renamed over the target (POSIX ``rename`` is atomic), so an
  interruption or a full disk leaves the old file or the new one, never half of one; they are
  :mod:`wltools.runtime.atomic`'s (one writer for both layers) with the run-directory error type.

:func:`run_file_name` tells whether a file name is one a run directory keeps its records in
(:data:`RUN_FILE_PATTERNS`); ``brec report --out/--plot`` refuses such targets.
"""

from __future__ import annotations

import fnmatch
import json
import os
import stat
from pathlib import Path
from typing import Any

from wltools.errors import RunDirectoryError
from wltools.runtime import atomic as _atomic
from wltools.runtime.atomic import kind_of

__all__ = [
    "RUN_FILE_PATTERNS",
    "run_file_name",
    "kind_of",
    "read_regular",
    "check_regular",
    "load_json",
    "atomic_path",
    "write_atomic",
    "run_file_target",
]

#: Names of the files a run directory keeps (brec_runner.records.record), its locks and upgrade backups.
RUN_FILE_PATTERNS = ("results*.jsonl", "config.json", "failures.jsonl", "multi_pair.json", "*.lock",
                     ".lock*", "*.v1")


def run_file_name(name: str) -> bool:
    """Whether ``name`` is the name of a run-directory file (:data:`RUN_FILE_PATTERNS`).

    Examples
    --------
    >>> [run_file_name(n) for n in ("results-shard-1-of-2.jsonl", "config.json", ".lock", "report.md")]
    [True, True, True, False]
    """
    return any(fnmatch.fnmatchcase(name, p) for p in RUN_FILE_PATTERNS)


def _not_regular(path, mode: int, error) -> Exception:
    return error(f"{path} is {kind_of(mode)}, not a regular file; move it away")


def check_regular(path, *, error=RunDirectoryError) -> bool:
    """``True`` when ``path`` is a regular file (symbolic links followed), ``False`` when nothing is
    there; ``error`` (a :class:`~wltools.errors.WLToolsError` type) when something else is."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(path, st.st_mode, error)
    return True


def read_regular(path, *, error=RunDirectoryError) -> bytes | None:
    """The bytes of the regular file ``path``, or ``None`` when it does not exist.

    Anything else there (FIFO, device, directory, socket) or an unreadable file raises ``error``
    with one line naming the path; nothing is read from a non-regular file, and nothing blocks.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except IsADirectoryError:
        raise error(f"{path} is a directory, not a regular file; move it away") from None
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode, error)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from None
    finally:
        os.close(fd)


def load_json(raw: bytes | str) -> tuple[Any, str | None]:
    """``(value, None)`` for JSON text read from disk, or ``(None, why)`` when it is not.

    Examples
    --------
    >>> load_json(b'{"a": 1}')
    ({'a': 1}, None)
    >>> load_json(b"[" * 100000 + b"]" * 100000)[1]
    'nested too deeply to read (over the recursion limit of the JSON parser)'
    >>> load_json(b"\\xff")[1]
    'not UTF-8 text (a binary or damaged file)'
    """
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None, "not UTF-8 text (a binary or damaged file)"
    try:
        return json.loads(raw), None
    except json.JSONDecodeError as exc:
        return None, f"not JSON ({exc.msg})"
    except RecursionError:
        return None, "nested too deeply to read (over the recursion limit of the JSON parser)"


def atomic_path(path, *, error=RunDirectoryError):
    """:func:`wltools.runtime.atomic.atomic_path` with the run-directory error type: a temporary
    path beside ``path`` that replaces it when the block succeeds (links written through, devices
    and FIFOs refused)."""
    return _atomic.atomic_path(path, error=error)


def write_atomic(path, data: bytes | str, *, error=RunDirectoryError) -> Path:
    """:func:`wltools.runtime.atomic.write_atomic` with the run-directory error type."""
    return _atomic.write_atomic(path, data, error=error)


def run_file_target(target, run_dirs=()) -> str | None:
    """Why writing a report or plot to ``target`` would overwrite a run's records (None when it
    would not): its name, or the name of the file it resolves to (symbolic links followed, so
    ``./DIR/x`` and a link into a run directory are the same file), is a run file's
    (:func:`run_file_name`), or it resolves to a run directory of ``run_dirs`` itself.

    A report beside the records (``DIR/report.md``, ``DIR/report.png``) is allowed: the committed
    runs under ``reports/brec-runs`` keep theirs there.

    Examples
    --------
    >>> run_file_target("runs/x/results.jsonl")
    'it is named like a run file (results.jsonl)'
    >>> run_file_target("runs/x/report.md") is None
    True
    """
    given = Path(target)
    real = given.resolve()
    for name in dict.fromkeys((given.name, real.name)):
        if run_file_name(name):
            return f"it is named like a run file ({name})"
    for d in run_dirs:
        if real == Path(d).resolve():
            return f"it is the run directory {d}"
    return None
