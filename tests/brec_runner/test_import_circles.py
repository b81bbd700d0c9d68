"""brec_runner's modules import one another one way only: no circle, counting function-local
imports (a lazy import that only dodges a circle is still one)."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _edges(package: str) -> dict[str, set[str]]:
    """``{module: brec_runner modules it imports anywhere in its source}``; ``from . import m``
    is an import of ``m``, not of the package's ``__init__``."""
    base_dir = ROOT / package
    files = {}
    for f in base_dir.rglob("*.py"):
        parts = list(f.relative_to(ROOT).with_suffix("").parts)
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    edges = {}
    for mod, f in files.items():
        pkg = mod if f.name == "__init__.py" else mod.rpartition(".")[0]
        out = set()
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), pkg) if node.level \
                    else node.module
                subs = {f"{base}.{a.name}" for a in node.names} & set(files)
                out |= subs if subs and len(subs) == len(node.names) else subs | {base}
            elif isinstance(node, ast.Import):
                out |= {a.name for a in node.names}
        edges[mod] = (out & set(files)) - {mod}
    return edges


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_circle_finder_finds_one():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_brec_runner_has_no_import_circle():
    assert _circles(_edges("brec_runner")) == []
