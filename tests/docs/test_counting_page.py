"""docs/counting-power.md is what docs/gen_counting_page.py writes from the code now (the families
of wltools.hom.families and the counting answers of wltools.hom.spasm), and its table agrees with
Example 4.6 of Zhang et al. (ICLR 2024) where the paper states it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("docs_gen_counting_page", ROOT / "docs" / "gen_counting_page.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_page_equals_the_generators_output():
    page = (ROOT / "docs" / "counting-power.md").read_text()
    assert page == _script().render(ROOT), "docs/counting-power.md is out of date: run python docs/gen_counting_page.py"
    # Example 4.6, read from the page: Subgraph GNN counts C3, C4 but not C5 at node level
    assert "| `swl-vs` | node | yes | yes | no | no | no | no |" in page
    assert "| `sswl` | edge | yes | yes | yes | yes | yes | no |" in page


def test_page_is_in_the_site_navigation():
    assert "counting-power.md" in (ROOT / "mkdocs.yml").read_text()
