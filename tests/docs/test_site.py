"""The documentation site builds with ``mkdocs build --strict`` (every page in the nav, every link
and anchor resolved, every API page rendered from the docstrings), into a temporary directory."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mkdocs_build_strict(tmp_path):
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    # mkdocs and its plugins come with the test extra (pip install -e ".[test]", README's test command)
    assert proc.returncode == 0, proc.stderr[-5000:]
    # the API reference is rendered from the docstrings, not left as ':::' directives
    api = (site / "api" / "refine" / "index.html").read_text()
    assert 'id="wltools.refine.refine_pair"' in api and ":::" not in api
    assert 'id="brec_runner.runs.evaluate.evaluate"' in (site / "api" / "brec_runner" / "index.html").read_text()
    for page in ("getting-started", "tests", "your-model", "suites", "datasets", "protocol", "cluster",
                 "results", "reliability", "architecture"):
        assert (site / page / "index.html").is_file(), page
    # Sphinx roles in docstrings are shown as code, not as raw markup (docs/griffe_sphinx_roles.py)
    for page in (site / "api").glob("*/index.html"):
        assert not re.search(r":(func|mod|class|data|meth|attr|exc):`", page.read_text()), page
    assert not (ROOT / "site").exists(), "the build must not write into the repository"


def test_sphinx_roles_become_inline_code():
    spec = importlib.util.spec_from_file_location("griffe_sphinx_roles", ROOT / "docs" / "griffe_sphinx_roles.py")
    roles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(roles)
    text = "see :func:`~wltools.refine.refine_pair`, :mod:`wltools.refine.swl` and :class:`Report <brec_runner.Report>`"
    assert roles.plain(text) == "see `refine_pair`, `wltools.refine.swl` and `Report`"
    assert roles.plain("no roles, `code` and :math:`x`") == "no roles, `code` and :math:`x`"
