"""The generated pages (docs/results.md, docs/tests.md, docs/index.md) are what their scripts write
from the committed sources, so no figure or test name is typed twice."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GENERATED = {"gen_results": "results.md", "gen_tests_page": "tests.md", "gen_index": "index.md"}


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"docs_{name}", ROOT / "docs" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("script", sorted(GENERATED))
def test_committed_page_equals_the_scripts_output(script):
    page = ROOT / "docs" / GENERATED[script]
    assert page.read_text() == _script(script).render(ROOT), (
        f"docs/{GENERATED[script]} is out of date: run python docs/{script}.py")


def test_results_follow_the_committed_theory_verdicts(tmp_path):
    """Change one count in a copy of the sources: the rendered table changes with it (the numbers
    come from the file, not from the template)."""
    gen = _script("gen_results")
    for rel in ("docs/_templates", "reports", "benchmarks/results"):
        shutil.copytree(ROOT / rel, tmp_path / rel, ignore=shutil.ignore_patterns("*.jsonl", "*.png"))
    before = gen.render(tmp_path)
    path = tmp_path / "reports" / "brec-theory" / "verdicts.json"
    data = json.loads(path.read_text())
    data["counts"]["spd"]["basic"][0] = 17
    path.write_text(json.dumps(data))
    after = gen.render(tmp_path)
    assert "| SPD-WL | 16 | 14 |" in before and "| SPD-WL | 17 | 14 |" in after


def test_tests_page_lists_every_test_name():
    from wltools.refine.names import ALL_TESTS

    page = (ROOT / "docs" / "tests.md").read_text()
    assert all(f"| `{t}` |" in page for t in ALL_TESTS)


def test_results_page_covers_every_committed_brec_report():
    page = (ROOT / "docs" / "results.md").read_text()
    reports = sorted((ROOT / "reports" / "brec-runs").glob("*/report*.md"))
    assert reports and all(f"`{p.relative_to(ROOT / 'reports' / 'brec-runs').as_posix()}`" in page
                           for p in reports)
