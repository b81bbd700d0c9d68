"""Issue 45, round three: nothing the project ships is overwritten. Every output-path option (a
file's ``--out`` / ``--plot`` / ``--html`` / ``--draw``, a folder's ``--figures``, a run
directory's ``--out``) refuses a path inside the project's data, committed reports, docs or
source in one line, exit 2, before any work, and the file is left unchanged
(:mod:`wltools.runtime.shipped`; docs/reliability.md, "Round three")."""

from __future__ import annotations

import hashlib
import os

import networkx as nx
import pytest
from click.testing import CliRunner

import cli
from wltools.runtime.shipped import PROJECT_ROOT, REGENERATE_REPORTS_ENV, shipped_problem

GIN_RUN = "reports/brec-runs/gin-example-cpu"
COUNT_RUN = "reports/count-runs/gin-graph"


def _run(*args):
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def _one_error_line(result, needle: str = "") -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output, result.output
    assert needle in lines[0], lines[0]
    return lines[0]


def _digest(path) -> str | None:
    p = PROJECT_ROOT / path
    return hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None


@pytest.fixture
def at_root(monkeypatch):
    """The commands run from the project folder, with relative paths, as the issue's user did."""
    monkeypatch.chdir(PROJECT_ROOT)
    monkeypatch.delenv(REGENERATE_REPORTS_ENV, raising=False)


@pytest.fixture
def two_g6(tmp_path):
    g6 = tmp_path / "two.g6"
    g6.write_bytes(nx.to_graph6_bytes(nx.petersen_graph(), header=False) + nx.to_graph6_bytes(nx.cycle_graph(5), header=False))
    return g6


# the three reproductions of the issue, and the other file options of the commands
@pytest.mark.parametrize("args, target, needle", [
    (("count", "report", COUNT_RUN, "--out"), "data/counting/targets.npz", "data folder"),
    (("brec", "compare", GIN_RUN, "--out"), "data/brec/basic.npy", "data folder"),
    (("dataset", "{g6}", "--out"), "data/tu/README.md", "data folder"),
    (("count", "report", COUNT_RUN, "--plot"), "reports/count-runs/report.png", "committed reports"),
    (("brec", "report", GIN_RUN, "--out"), "docs/reliability.md", "documentation"),
    (("brec", "report", GIN_RUN, "--html"), "docs/index.md", "documentation"),
    (("suite", "compare", "reports/suite-runs/grit-brec-csl-cpu", "--plot"), "wltools/__init__.py", "source"),
    (("suite", "theory", "sr16", "--tests", "1wl", "--out"), "README.md", "own README.md"),
    (("claims", "verify", "brec-run", "--run-dir", GIN_RUN, "--out"), "reports/claims.md", "committed reports"),
    (("check", "petersen", "petersen", "--test", "1wl", "--draw"), "docs/pair.png", "documentation"),
])
def test_file_outputs_refuse_what_the_project_ships(at_root, two_g6, args, target, needle):
    before = _digest(target)
    args = tuple(str(two_g6) if a == "{g6}" else a for a in args)
    line = _one_error_line(_run(*args, target), needle)
    assert target in line and "elsewhere" in line
    assert _digest(target) == before  # unchanged (or still absent)


@pytest.mark.parametrize("args", [
    ("brec", "run", "--model", "examples/gin.py:gin", "--pairs", "0", "--out", "data/brec/run"),
    ("suite", "run", "csl", "--model", "examples/gin.py:gin", "--out", "reports/suite-runs/new-run"),
    ("count", "run", "--model", "examples/gin.py:gin", "--task", "cycle:3", "--out", "reports/count-runs/gin-graph"),
    ("brec", "theory", "--pairs", "0", "--tests", "1wl", "--out", "reports/brec-theory", "--quiet"),
    ("brec", "report", GIN_RUN, "--figures", "docs/figures"),
])
def test_folder_outputs_refuse_what_the_project_ships(at_root, args):
    """A run directory or table folder inside the project is refused before the model is even
    loaded: a committed run is not resumed (its files would change), the committed tables are not
    rewritten, and no folder is created."""
    target = PROJECT_ROOT / args[args.index("--out" if "--out" in args else "--figures") + 1]
    existed = target.exists()
    files = sorted(p.name for p in target.iterdir()) if existed else None
    _one_error_line(_run(*args), "write it elsewhere")
    assert target.exists() == existed
    assert (sorted(p.name for p in target.iterdir()) if existed else None) == files


def test_spellings_and_links_into_the_data_are_refused(at_root, tmp_path):
    """``./data/../data/brec/x``, an absolute path, and a link elsewhere pointing into data/: one folder."""
    link = tmp_path / "innocent"
    os.symlink(PROJECT_ROOT / "data" / "brec", link)
    for target in ("./data/../data/brec/x.md", str(PROJECT_ROOT / "data" / "x.md"), str(link / "README.md")):
        _one_error_line(_run("brec", "compare", GIN_RUN, "--out", target), "data folder")


def test_outputs_outside_the_shipped_folders_are_written(at_root, tmp_path):
    """Not a blanket refusal: a report elsewhere is written, and a new folder at the project's top
    (runs/, the default run directories) is not what the project ships."""
    out = tmp_path / "cmp.md"
    result = _run("brec", "compare", GIN_RUN, "--out", out, "--no-theory")
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("|") or "gin" in out.read_text()
    assert shipped_problem(PROJECT_ROOT / "runs" / "brec-gin" / "config.json") is None


def test_regenerating_a_committed_report_is_an_explicit_choice(tmp_path, monkeypatch):
    """reports/ is accepted only with WLTOOLS_REGENERATE_REPORTS=1 (the maintainers' commands in
    reports/*/README.md); data/, docs and source never."""
    root = tmp_path / "project"
    for d in ("reports", "data", "docs", "wltools"):
        (root / d).mkdir(parents=True)
    monkeypatch.delenv(REGENERATE_REPORTS_ENV, raising=False)
    assert "WLTOOLS_REGENERATE_REPORTS=1" in shipped_problem(root / "reports" / "x.md", root=root)
    monkeypatch.setenv(REGENERATE_REPORTS_ENV, "1")
    assert shipped_problem(root / "reports" / "x.md", root=root) is None
    for d in ("data", "docs", "wltools"):
        assert shipped_problem(root / d / "x.md", root=root) is not None
    assert "README.md" in shipped_problem(root / "README.md", root=root)  # a top-level file it ships
    assert shipped_problem(root / "my-report.md", root=root) is None  # a new file at the top: the user's


def test_the_library_refuses_a_run_directory_in_the_data(monkeypatch):
    """The library's run directories (BREC and count) go through the same guard."""
    from brec_runner.record import prepare_run_dir
    from wltools.errors import RunDirectoryError

    monkeypatch.delenv(REGENERATE_REPORTS_ENV, raising=False)
    target = PROJECT_ROOT / "data" / "brec" / "a-run"
    with pytest.raises(RunDirectoryError, match="data folder"):
        prepare_run_dir(target)
    assert not target.exists()
