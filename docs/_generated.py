"""The one write-or-check step of the page generators (``docs/gen_*.py``)."""

from __future__ import annotations

import re
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


def fill_template(template: str, placeholders: dict, root: Path, what: str) -> str:
    """``template`` with every ``{{ name }}`` replaced by ``placeholders[name](root)``; an unknown
    placeholder is a :class:`KeyError` naming ``what`` (the page)."""
    unknown = set(re.findall(r"\{\{ (\w+) \}\}", template)) - set(placeholders)
    if unknown:
        raise KeyError(f"unknown placeholders in the {what} template: {sorted(unknown)}")
    return re.sub(r"\{\{ (\w+) \}\}", lambda m: placeholders[m.group(1)](root), template)


def render_template(root: Path, page: str, placeholders: dict) -> str:
    """The text of ``docs/PAGE.md``: ``docs/_templates/PAGE.md`` under ``root`` with every
    placeholder filled in (:func:`fill_template`)."""
    template = (root / "docs" / "_templates" / f"{page}.md").read_text()
    return fill_template(template, placeholders, root, page)
