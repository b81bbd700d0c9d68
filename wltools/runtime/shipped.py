"""What the installed project ships, and the one refusal to write an output over it.

Every output-path option of every command (``--out``, ``--plot``, ``--html``, ``--draw``,
``--figures``, a run directory's ``--out``) passes its path through :func:`refuse_shipped` before
any work: a path inside the project's own data (``data/``), its committed reports (``reports/``),
its documentation (``docs/``), its source (``wltools/``, ``brec_runner/``, ``cli/``,
``examples/``, ``benchmarks/``, ``tests/``, ``.ci/``, ``.git/``) or one of its top-level files
(``README.md``, ``pyproject.toml``, ...) is refused in one line. A later ``brec run`` or ``count
data`` would otherwise read a report where BREC's pairs or the counting targets were.

The committed reports are regenerated on purpose by their maintainers (the commands in
``reports/*/README.md``): with ``WLTOOLS_REGENERATE_REPORTS=1`` in the environment a path inside
``reports/`` is accepted; nothing else is.

Paths are compared after resolving symbolic links and ``..`` (``./data/../data/brec``, a link to
``data/``: the same folder).
"""

from __future__ import annotations

import os
from pathlib import Path

from wltools.errors import WLToolsError

__all__ = ["PROJECT_ROOT", "SHIPPED_FOLDERS", "SHIPPED_FILES", "REGENERATE_REPORTS_ENV", "shipped_problem",
           "refuse_shipped"]

#: The folder holding the installed project (``wltools/``'s parent).
PROJECT_ROOT = Path(__file__).resolve().parents[2]
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
    >>> refuse_shipped("--out", "/tmp/elsewhere/report.md")
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
