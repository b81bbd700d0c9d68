"""The fenced code blocks of the user-facing Markdown (README.md and docs/), as the docs tests see them.

A block is *runnable* when its language is a shell or Python; it is then either run by
``test_examples.py`` or preceded (on the line before its fence, blank lines allowed) by a marker
``<!-- not run: REASON -->`` that says why not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHELL = {"bash", "sh", "shell", "console"}
PYTHON = {"python", "py"}
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_NOT_RUN = re.compile(r"^\s*<!--\s*not run:\s*(?P<reason>.*?)\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int            # 1-based line of the opening fence
    lang: str            # first word of the info string ('' when none)
    text: str            # the body, with the fence's indentation removed
    not_run: str | None  # the marker's reason, None when unmarked

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"

    @property
    def runnable(self) -> bool:
        return self.lang in SHELL | PYTHON


def doc_files(root: Path = ROOT) -> list[Path]:
    """README.md and every page under docs/ (not the generators' templates)."""
    pages = sorted(p for p in (root / "docs").rglob("*.md") if "_templates" not in p.parts)
    return [root / "README.md", *pages]


def _marker_before(lines: list[str], i: int) -> str | None:
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    m = _NOT_RUN.match(lines[j]) if j >= 0 else None
    return m.group("reason") if m else None


def blocks(path: Path) -> list[Block]:
    """Every fenced block of ``path``, in order (a fence closes on the same fence and indentation)."""
    lines = path.read_text().splitlines()
    out, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m.group("indent"), m.group("fence")
        body, j = [], i + 1
        while j < len(lines) and lines[j].rstrip() != indent + fence:
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        if j == len(lines):
            raise ValueError(f"{path}:{i + 1}: fence never closed")
        info = m.group("info").strip()
        out.append(Block(path, i + 1, info.split()[0] if info else "", "\n".join(body) + "\n",
                         _marker_before(lines, i)))
        i = j + 1
    return out


def all_blocks(root: Path = ROOT) -> list[Block]:
    return [b for p in doc_files(root) for b in blocks(p)]
