"""Tests from outside (issue 41 item 4): the example of docs/adding-a-test.md, installed as a
package exactly as the page prints it (into a temporary target, not the environment), works in
every command and passes the conformance suite; a broken variant fails it, naming the check."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "wltools-example-test"
PAGE = ROOT / "docs" / "adding-a-test.md"

_spec = importlib.util.spec_from_file_location("doc_blocks", ROOT / "tests" / "docs" / "doc_blocks.py")
doc_blocks = sys.modules.setdefault("doc_blocks", importlib.util.module_from_spec(_spec))
if not hasattr(doc_blocks, "blocks"):
    _spec.loader.exec_module(doc_blocks)


def _page_blocks():
    return doc_blocks.blocks(PAGE)


def test_the_page_prints_the_example_package_as_it_is():
    texts = [b.text for b in _page_blocks()]
    assert (EXAMPLE / "wltools_example_test.py").read_text() in texts
    assert (EXAMPLE / "pyproject.toml").read_text() in texts
    assert 30 <= len((EXAMPLE / "wltools_example_test.py").read_text().splitlines()) <= 60  # about 40 lines


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The example installed by the page's own pip line, run in a folder holding a copy of it."""
    work = tmp_path_factory.mktemp("example")
    shutil.copytree(EXAMPLE, work / "examples" / EXAMPLE.name, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    line = next(x for b in _page_blocks() for x in b.text.splitlines() if x.startswith("pip install"))
    argv = shlex.split(line)
    proc = subprocess.run([sys.executable, "-m", *argv], cwd=work, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    target = work / argv[argv.index("--target") + 1]
    assert (target / "wltools_example_test.py").exists()
    return target


@pytest.fixture
def installed(site, monkeypatch):
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "wltools_example_test", raising=False)
    yield
    from wltools.wltests.registry import unregister_test

    unregister_test("triwl")


def _cli(*args):
    import cli

    return CliRunner().invoke(cli.cli, list(args))


def test_check_explain_and_draw(installed, tmp_path):
    res = _cli("check", "cycle:6", "cycle:3+cycle:3", "--test", "triwl,1wl", "--explain", "--no-iso",
               "--format", "json")
    assert res.exit_code == 0, res.output
    rows = {r["test"]: r for r in json.loads(res.stdout)["results"]}
    assert rows["triwl"]["distinguished"] and rows["triwl"]["iteration"] == 0  # 2 vs 0 triangles per node
    assert not rows["1wl"]["distinguished"]
    res = _cli("check", "cycle:6", "cycle:3+cycle:3", "--test", "triwl", "--draw", str(tmp_path / "t.png"), "--no-iso")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "t.png").stat().st_size > 1000


def test_brec_theory_suite_theory_and_dataset(installed, tmp_path):
    res = _cli("brec", "theory", "--tests", "triwl", "--pairs", "0-3", "--out", str(tmp_path / "bt"), "--quiet")
    assert res.exit_code == 0, res.output
    rows = (tmp_path / "bt" / "verdicts.csv").read_text().splitlines()[1:]
    assert len(rows) == 4 and all(",triwl," in r for r in rows)
    res = _cli("suite", "theory", "csl", "--tests", "triwl", "--format", "json", "--quiet")
    assert res.exit_code == 0, res.output
    assert "triwl" in res.stdout
    (tmp_path / "six.g6").write_text("ElEG\nE{CW\nEhEG\nEJaG\n")  # 1-WL-equivalent in pairs
    res = _cli("dataset", str(tmp_path / "six.g6"), "--tests", "triwl,1wl", "--format", "json")
    assert res.exit_code == 0, res.output
    tests = {t["test"]: t for t in json.loads(res.stdout)["tests"]}
    assert tests["triwl"]["rounds"][-1]["classes"] == 4 and tests["1wl"]["rounds"][-1]["classes"] == 2


def test_cost_refusal_is_one_line(installed):
    res = _cli("check", "cycle:6", "cycle:3+cycle:3", "--test", "triwl", "--no-iso", "--max-memory", "300K")
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.splitlines() == ["error: Tri-WL on 6 nodes needs about 333 KiB; --max-memory is 300 KiB"]


def test_conformance_suite_and_a_broken_variant(installed):
    from wltools.testing import CHECKS, check_test
    from wltools.wltests import get_test

    test = get_test("triwl")
    assert check_test("triwl", atlas_limit=100, max_pairs=60) == CHECKS

    def by_index(G, H, *, labels=None):
        n = G.number_of_nodes()
        return dataclasses.replace(test.declaration(G, H), init=(np.arange(n), np.arange(n)))

    broken = dataclasses.replace(test, name="triwl-by-index", declaration=by_index)
    with pytest.raises(AssertionError, match=r"^check_test\(triwl-by-index\): relabelling: "):
        check_test(broken, atlas_limit=100, max_pairs=60)
