"""Results files already checked: a memo of :func:`brec_runner.records.record.read_results`'
line checks, addressed by content.

Checking every line of a results file against its run (checksum, settings, code version, the
verdict recomputed from its T², :func:`brec_runner.records.identity.record_problem`) is most of
the time a report or ``brec compare`` spends on committed runs, and it gives the same answer for
the same bytes. So a file whose every line passed is remembered: one empty file in
``$WLTOOLS_CACHE/verified-results`` (:func:`wltools.runtime.cache_root.cache_root`), named by the
sha256 of all that decided the answer (:func:`entry_key`): the file's bytes, the run's whole
config, and the source of the checking code (every ``brec_runner`` module
:mod:`brec_runner.records.record` imports, :func:`brec_runner.records.source_closure.import_closure`)
with the Python version. A later read of the very same bytes, under the same config and code, parses
its lines without checking them again (:func:`known_records`).

Nothing that could change the answer can reach a remembered entry: an edited, damaged, appended or
truncated file, an edit of ``config.json`` or of the checking code each name another entry, so the
file is checked line by line as before, with the same errors. Only a file that ends in a newline
and holds no bad line is remembered (:func:`remember`). The memo is a cache, never a reason to fail:
a folder that cannot be named, created or written costs the checks, silently.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
from pathlib import Path
from typing import Any

__all__ = ["entry_key", "known_records", "remember"]

#: The cache subfolder holding one empty file per remembered (bytes, config, code).
FOLDER = "verified-results"


@functools.lru_cache(maxsize=1)
def _code_digest() -> bytes:
    """sha256 of the Python version and of every ``brec_runner`` source file the results reader imports."""
    from .source_closure import import_closure

    h = hashlib.sha256(f"python {platform.python_implementation()} {platform.python_version()}\0".encode())
    for name, path in import_closure(["brec_runner.records.record", __name__], "brec_runner").items():
        data = path.read_bytes()
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    return h.digest()


def entry_key(data: bytes, config: dict[str, Any]) -> str | None:
    """The name of the entry remembering that ``data`` passed every check under ``config`` (None
    when ``config`` is not JSON, so never remembered).

    Examples
    --------
    >>> a = entry_key(b'{"id": 0}\\n', {"model": "m"})
    >>> a == entry_key(b'{"id": 0}\\n', {"model": "m"}) != entry_key(b'{"id": 1}\\n', {"model": "m"})
    True
    >>> a != entry_key(b'{"id": 0}\\n', {"model": "n"})
    True
    """
    try:
        body = json.dumps(config, sort_keys=True, separators=(",", ":"), allow_nan=True)
    except (TypeError, ValueError):
        return None
    h = hashlib.sha256(_code_digest())
    h.update(f"\0{len(body)}\0{body}\0".encode())
    h.update(data)
    return h.hexdigest()


def _entry(key: str | None) -> Path | None:
    from wltools.runtime.cache_root import CacheUnavailableError, cache_root

    if key is None:
        return None
    try:
        return cache_root() / FOLDER / key
    except CacheUnavailableError:
        return None


def known_records(data: bytes, key: str | None) -> list[dict] | None:
    """The records of ``data`` when its entry ``key`` is remembered, else None (check it then).

    The bytes were checked to be lines of one JSON object each, so they parse as one JSON array
    of those objects; the count is checked all the same."""
    path = _entry(key)
    if path is None or not data.endswith(b"\n") or not os.path.isfile(path):
        return None
    try:
        lines = data[:-1].decode("utf-8").split("\n")
        records = json.loads("[" + ",".join(lines) + "]")
    except (ValueError, RecursionError):  # never for checked bytes: then checked as any file
        return None
    return records if len(records) == len(lines) and all(isinstance(r, dict) for r in records) else None


def remember(key: str | None) -> None:
    """Remember that the bytes and config of ``key`` passed every check (quietly nothing when the
    cache folder cannot be used)."""
    path = _entry(key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "xb"):
            pass
    except OSError:
        pass  # there already, or an unusable cache: checked again next time, nothing else changes
