"""The project's shipped data files (``data/``), checked before they are read: one place that
says what is wrong with a missing or damaged file and how to get it back.

Every reader of committed data (BREC's ``.npy`` files, the suites, the counting benchmark) keeps
the SHA-256 of each file it reads and calls :func:`check_shipped` first, so a truncated, edited
or replaced file is one line naming the file and the fix, e.g.::

    BREC file data/brec/basic.npy is damaged (sha256 3f1c0a..., expected adef7f...); restore the
    committed file: git checkout -- data/brec/basic.npy (or reinstall wltools)

instead of an unpickling traceback or a wrong number read from it. A file that passes its
checksum is the committed one, so a pickled array in it is the project's own (``allow_pickle``).

Examples
--------
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "x.npy"
...     _ = path.write_bytes(b"not numpy")
...     check_shipped(path, "0" * 64, "BREC file")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
wltools.errors.DataIntegrityError: BREC file ...x.npy is damaged (sha256 4699f7896b36..., expected 000000000000...); restore the committed file: git checkout -- ...x.npy (or reinstall wltools)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import DataIntegrityError

__all__ = ["PROJECT_ROOT", "check_shipped", "shipped_name"]

#: The folder holding ``data/`` (the repository root of a checkout).
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def shipped_name(path: Path) -> str:
    """``path`` relative to the project root when it lies inside it (``data/brec/basic.npy``), as
    ``git checkout --`` takes it; else as given."""
    try:
        return str(Path(path).resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)


def _fix(path: Path) -> str:
    return f"restore the committed file: git checkout -- {shipped_name(path)} (or reinstall wltools)"


def check_shipped(path: Path, sha256: str, what: str) -> Path:
    """``path`` after checking that it is a file with the SHA-256 ``sha256``.

    Raises
    ------
    DataIntegrityError
        One line: ``what``, the file, what is wrong (missing, unreadable, another checksum) and
        how to restore it.
    """
    path = Path(path)
    name = shipped_name(path)
    if not path.is_file():
        raise DataIntegrityError(f"{what} {name} is missing; {_fix(path)}")
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise DataIntegrityError(f"{what} {name} cannot be read ({exc.strerror or exc}); {_fix(path)}") from None
    if digest != sha256:
        raise DataIntegrityError(f"{what} {name} is damaged (sha256 {digest[:12]}..., expected {sha256[:12]}...); "
                                 f"{_fix(path)}")
    return path
