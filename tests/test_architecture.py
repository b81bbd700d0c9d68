"""The house's shape (issue 31 item 6): wltools, brec_runner and cli import one another one way
only, with no circle among their modules, function-local imports counted (a lazy import that only
dodges a circle is still one); wltools imports nothing of brec_runner; wltools' top level holds
packages by concern and only the few modules a user meets first."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
#: The modules allowed at wltools' top level besides packages.
TOP_LEVEL = {"__init__.py", "check.py", "errors.py"}


def _files(root: Path = ROOT) -> dict[str, Path]:
    files = {}
    for package in ("wltools", "brec_runner", "cli"):
        for f in (root / package).rglob("*.py"):
            parts = list(f.relative_to(root).with_suffix("").parts)
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return files


def import_graph(root: Path = ROOT) -> nx.DiGraph:
    """Module -> module it imports anywhere in its source (``from . import m`` imports ``m``)."""
    files = _files(root)
    G = nx.DiGraph()
    G.add_nodes_from(files)
    for mod, f in files.items():
        pkg = mod if f.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = (importlib.util.resolve_name("." * node.level + (node.module or ""), pkg)
                        if node.level else node.module)
                subs = {f"{base}.{a.name}" for a in node.names} & set(files)
                targets = subs if subs and len(subs) == len(node.names) else subs | {base}
            elif isinstance(node, ast.Import):
                targets = {a.name for a in node.names}
            else:
                continue
            G.add_edges_from((mod, t) for t in targets if t in files and t != mod)
    return G


def circles(G: nx.DiGraph) -> list[list[str]]:
    return sorted(sorted(c) for c in nx.strongly_connected_components(G) if len(c) > 1)


def test_no_import_circle():
    assert circles(import_graph()) == []


def test_the_checker_finds_a_circle_made_of_function_local_imports(tmp_path):
    (tmp_path / "wltools").mkdir()
    (tmp_path / "brec_runner").mkdir()
    (tmp_path / "wltools" / "__init__.py").write_text("")
    (tmp_path / "brec_runner" / "__init__.py").write_text("")
    (tmp_path / "wltools" / "a.py").write_text("from .b import x\n")
    (tmp_path / "wltools" / "b.py").write_text("def x():\n    from . import a\n")
    assert circles(import_graph(tmp_path)) == [["wltools.a", "wltools.b"]]


def test_wltools_imports_nothing_of_brec_runner_or_cli():
    G = import_graph()
    up = [(a, b) for a, b in G.edges if a.startswith("wltools") and not b.startswith("wltools")]
    assert up == []


def test_wltools_top_level_is_packages_and_the_first_modules():
    loose = sorted(f.name for f in (ROOT / "wltools").glob("*.py"))
    assert set(loose) == TOP_LEVEL, loose
