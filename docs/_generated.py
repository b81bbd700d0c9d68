"""The one write-or-check step of the page generators (``docs/gen_*.py``)."""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(output: Path, text: str, script: str, argv: list[str]) -> int:
    """Write ``text`` to ``output``; with ``--check`` in ``argv`` write nothing and return 1 (with
    a message naming ``script``) when ``output`` differs from ``text``."""
    if "--check" in argv:
        if output.read_text() != text:
            print(f"docs/{output.name} is out of date: run python docs/{script}", file=sys.stderr)
            return 1
        return 0
    output.write_text(text)
    return 0
