"""The graph layer, its labels and isomorphism, and the dataset package import one way: no import
circle among their modules, function-local imports included (a local import that only dodges a
circle is still a circle; issue 31 item 6)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
LAYER = ["graphs", "graph_formats", "graph_validation", "named_graphs", "sparse6_fast", "labels", "label_inputs",
         "iso", "iso_invariants", "check"]


def _modules() -> dict[str, Path]:
    mods = {f"wltools.{m}": ROOT / "wltools" / f"{m}.py" for m in LAYER}
    for f in sorted((ROOT / "wltools" / "dataset").glob("*.py")):
        if f.stem != "__init__":
            mods[f"wltools.dataset.{f.stem}"] = f
    return mods


def _imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports (anywhere in the file), as absolute dotted names and their
    ``module.member`` forms."""
    package = name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def import_graph() -> nx.DiGraph:
    mods = _modules()
    G = nx.DiGraph()
    G.add_nodes_from(mods)
    for name, path in mods.items():
        G.add_edges_from((name, t) for t in _imports(name, path) if t in mods and t != name)
    return G


def test_no_import_circles_in_the_graph_and_dataset_layers():
    G = import_graph()
    circles = [sorted(c) for c in nx.strongly_connected_components(G) if len(c) > 1]
    assert circles == []


def test_the_checker_sees_function_local_imports(tmp_path):
    """The checker itself: a function-local import is an arrow (so it can find a dodged circle)."""
    path = tmp_path / "m.py"
    path.write_text("def f():\n    from .tu import read_tu\n")
    assert "wltools.dataset.tu" in _imports("wltools.dataset.collection", path)
    assert import_graph().has_edge("wltools.dataset.tu", "wltools.dataset.collection")
