"""What the installed project ships, in one place: a shipped data file is checked before it is read
(:func:`check_shipped`), and no command writes an output over what the project ships
(:func:`refuse_shipped`).

**Reading.** Every reader of committed data (BREC's ``.npy`` files, the suites, the counting
benchmark) keeps the SHA-256 of each file it reads and calls :func:`check_shipped` first, so a
truncated, edited or replaced file is one line naming the file and the fix, e.g.::

    BREC file data/brec/basic.npy is damaged (sha256 3f1c0a..., expected adef7f...); restore the
    committed file: git checkout -- data/brec/basic.npy (or reinstall wltools)

instead of an unpickling traceback or a wrong number read from it. A file that passes its
checksum is the committed one, so a pickled array in it is the project's own (``allow_pickle``).

**Writing.** Every output-path option of every command (``--out``, ``--plot``, ``--html``,
``--draw``, ``--figures``, a run directory's ``--out``) passes its path through
:func:`refuse_shipped` before any work: a path inside the project's own data (``data/``), its
committed reports (``reports/``), its documentation (``docs/``), its source (``wltools/``,
``brec_runner/``, ``cli/``, ``examples/``, ``benchmarks/``, ``tests/``, ``.ci/``, ``.git/``) or one
of its top-level files (``README.md``, ``pyproject.toml``, ...) is refused in one line. A later
``brec run`` or ``count data`` would otherwise read a report where BREC's pairs or the counting
targets were. The committed reports are regenerated on purpose by their maintainers (the commands
in ``reports/*/README.md``): with ``WLTOOLS_REGENERATE_REPORTS=1`` in the environment a path inside
``reports/`` is accepted; nothing else is. Paths are compared after resolving symbolic links and
``..`` (``./data/../data/brec``, a link to ``data/``: the same folder).

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
import os
from pathlib import Path

from ..errors import DataIntegrityError, WLToolsError

__all__ = ["PROJECT_ROOT", "check_shipped", "shipped_name", "SHIPPED_FOLDERS", "SHIPPED_FILES",
           "REGENERATE_REPORTS_ENV", "shipped_problem", "refuse_shipped"]

#: The folder holding the installed project (``wltools/``'s parent: the repository root of a checkout).
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

#: Folders of the project no command output may go into, and what each holds (for the message).
SHIPPED_FOLDERS = {"data": "data folder", "reports": "committed reports", "docs": "documentation",
                   "wltools": "source", "brec_runner": "source", "cli": "source", "examples": "examples",
                   "benchmarks": "benchmarks", "tests": "tests", ".ci": "CI scripts", ".git": "git repository"}
#: Top-level files of the project no command output may replace.
SHIPPED_FILES = ("README.md", "pyproject.toml", "LICENSE", "mkdocs.yml", "setup.py", "setup.cfg", "MANIFEST.in")
#: Set to 1 to regenerate a committed report (a path inside ``reports/`` is then accepted).
REGENERATE_REPORTS_ENV = "WLTOOLS_REGENERATE_REPORTS"


def shipped_problem(path, *, root: Path | None = None) -> str | None:
    """Why writing ``path`` would damage what the project ships in one clause that says what to
    do (``"is inside the project's data folder /x/data; write it elsewhere"``), or None when it would not.

    ``root``: the project folder (default :data:`PROJECT_ROOT`).

    Examples
    --------
    >>> shipped_problem(PROJECT_ROOT / "data" / "brec" / "basic.npy").startswith("is inside the project's data folder")
    True
    >>> shipped_problem(PROJECT_ROOT / "runs" / "report.md") is None
    True
    """
    root = Path(os.path.realpath(root or PROJECT_ROOT))
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(root):
        return None
    parts = real.relative_to(root).parts
    if not parts:
        return f"is the project folder {root} itself; write it elsewhere"
    if len(parts) == 1 and parts[0] in SHIPPED_FILES:
        return f"would replace the project's own {parts[0]}; write it elsewhere"
    what = SHIPPED_FOLDERS.get(parts[0])
    if what is None or parts[0] == "reports" and os.environ.get(REGENERATE_REPORTS_ENV) == "1":
        return None
    hint = (f" (or set {REGENERATE_REPORTS_ENV}=1 to regenerate a committed report on purpose)"
            if parts[0] == "reports" else "")
    return f"is inside the project's {what} {root / parts[0]}; write it elsewhere{hint}"


def refuse_shipped(option: str, path, *, error=WLToolsError, root: Path | None = None) -> None:
    """Raise ``error`` (one line naming ``option`` and ``path``) when ``path`` lies in what the
    project ships (:func:`shipped_problem`); nothing otherwise.

    Examples
    --------
    >>> refuse_shipped("--out", PROJECT_ROOT.parent / "elsewhere" / "report.md")  # outside the project: fine
    >>> refuse_shipped("--out", PROJECT_ROOT / "data" / "brec")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wltools.errors.WLToolsError: --out ... is inside the project's data folder ...; write it elsewhere
    """
    if path is None or str(path) == "":
        return
    why = shipped_problem(path, root=root)
    if why:
        raise error(f"{option} {path} {why}")
