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


#: The most modules (``__init__.py`` aside) one folder of the upper layer holds (issue 41 item 5).
MAX_MODULES_PER_FOLDER = 20


def test_no_folder_of_the_runner_or_the_cli_holds_more_than_20_modules():
    crowded = {}
    for package in ("brec_runner", "cli"):
        for folder in [ROOT / package, *(p.parent for p in (ROOT / package).rglob("*/__init__.py"))]:
            modules = [f for f in folder.glob("*.py") if f.name != "__init__.py"]
            if len(modules) > MAX_MODULES_PER_FOLDER:
                crowded[str(folder.relative_to(ROOT))] = len(modules)
    assert crowded == {}


def test_every_runner_subpackage_says_what_it_holds():
    for init in sorted((ROOT / "brec_runner").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc and len(doc.split()) >= 8, init.relative_to(ROOT)


def test_every_runner_module_imports_first_in_a_fresh_interpreter_in_any_order():
    """Each brec_runner and cli module imported in a shuffled order in one new interpreter (the
    seed is in the failure message): an import that only works after another module was imported
    first fails here, which the static graph above cannot see."""
    import random
    import subprocess
    import sys

    names = sorted(m for m in _files() if m.startswith(("brec_runner", "cli")) and not m.endswith("__main__"))
    seed = random.randrange(2**32)
    order = names[:]
    random.Random(seed).shuffle(order)
    script = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    done = subprocess.run([sys.executable, "-c", script, *order], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, f"seed {seed}: {done.stderr.strip().splitlines()[-1:]}"
