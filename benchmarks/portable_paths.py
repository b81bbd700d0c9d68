"""Paths as the benchmarks record them: nothing specific to the machine that ran them.

A result file is committed and read on other machines, so a path in it is written relative to the
repository (``benchmarks/results/x.json``), with ``<tmp>`` for the temporary folder and ``~`` for
the home folder; ``tests/test_no_machine_paths.py`` checks every tracked file for absolute ones.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["portable"]


def portable(text) -> str:
    """``text`` (a path or a command line) with the repository, temporary and home folders written
    as ``""`` (relative), ``<tmp>`` and ``~``."""
    out = str(text)
    for folder, shown in ((ROOT, ""), (Path(tempfile.gettempdir()).resolve(), "<tmp>/"),
                          (Path(tempfile.gettempdir()), "<tmp>/"), (Path.home(), "~/")):
        out = out.replace(str(folder) + os.sep, shown)
    return out
