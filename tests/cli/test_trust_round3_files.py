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

import cli
from cli_run import one_error_line as _one_error_line  # tests/ is on sys.path (conftest)
from cli_run import run as _run
from wltools.runtime.shipped import PROJECT_ROOT, REGENERATE_REPORTS_ENV, shipped_problem

GIN_RUN = "reports/brec-runs/gin-example-cpu"
COUNT_RUN = "reports/count-runs/gin-graph"


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


#: Every output-path option of every command: (command, option) -> (arguments before the option,
#: the path tried, what the refusal names). The issue's three reproductions are the first three.
FILE_OUTPUTS = {
    ("count report", "--out"): (("count", "report", COUNT_RUN), "data/counting/targets.npz", "data folder"),
    ("brec compare", "--out"): (("brec", "compare", GIN_RUN), "data/brec/basic.npy", "data folder"),
    ("dataset", "--out"): (("dataset", "{g6}"), "data/tu/README.md", "data folder"),
    ("count report", "--plot"): (("count", "report", COUNT_RUN), "reports/count-runs/report.png", "committed reports"),
    ("brec compare", "--plot"): (("brec", "compare", GIN_RUN), "reports/brec-runs/gin-example-cpu/report.png",
                                 "committed reports"),
    ("brec report", "--out"): (("brec", "report", GIN_RUN), "docs/reliability.md", "documentation"),
    ("brec report", "--plot"): (("brec", "report", GIN_RUN), "data/brec/plot.png", "data folder"),
    ("brec report", "--html"): (("brec", "report", GIN_RUN), "docs/index.md", "documentation"),
    ("dataset", "--plot"): (("dataset", "{g6}"), "examples/plot.png", "examples"),
    ("suite compare", "--out"): (("suite", "compare", "reports/suite-runs/grit-brec-csl-cpu"), "reports/leaderboard.md",
                                 "committed reports"),
    ("suite compare", "--plot"): (("suite", "compare", "reports/suite-runs/grit-brec-csl-cpu"), "wltools/x.png", "source"),
    ("suite theory", "--out"): (("suite", "theory", "sr16", "--tests", "1wl"), "README.md", "own README.md"),
    ("claims verify", "--out"): (("claims", "verify", "brec-run", "--run-dir", GIN_RUN), "reports/claims.md",
                                 "committed reports"),
    ("check", "--draw"): (("check", "petersen", "petersen", "--test", "1wl"), "docs/pair.png", "documentation"),
    ("separate", "--draw"): (("separate", "1wl", "3wl", "--no-brec"), "docs/separate.png", "documentation"),
}
#: The options naming an output folder (a run directory, a table folder, a figures folder).
FOLDER_OUTPUTS = {
    ("brec run", "--out"): ("brec", "run", "--model", "examples/gin.py:gin", "--pairs", "0", "--out", "data/brec/run"),
    ("suite run", "--out"): ("suite", "run", "csl", "--model", "examples/gin.py:gin", "--out",
                             "reports/suite-runs/new-run"),
    ("count run", "--out"): ("count", "run", "--model", "examples/gin.py:gin", "--task", "cycle:3", "--out",
                             "reports/count-runs/gin-graph"),
    ("brec theory", "--out"): ("brec", "theory", "--pairs", "0", "--tests", "1wl", "--out", "reports/brec-theory",
                               "--quiet"),
    ("brec report", "--figures"): ("brec", "report", GIN_RUN, "--figures", "docs/figures"),
    ("separate", "--out"): ("separate", "1wl", "3wl", "--no-brec", "--out", "data/separate"),
    ("hierarchy", "--out"): ("hierarchy", "--tests", "1wl,3wl", "--out", "docs/hierarchy"),
}
#: Parameter names of options that name an output file or folder (as tests/test_default_outputs.py).
OUTPUT_PARAMS = {"out", "out_dir", "out_path", "plot_path", "html_path", "draw_path", "figures_dir"}


def test_every_output_option_of_every_command_is_tried_here():
    """A new output option fails this test until it is in the tables above (and so guarded)."""
    import click

    def commands(group, prefix=""):
        for name, cmd in sorted(group.commands.items()):
            if isinstance(cmd, click.Group):
                yield from commands(cmd, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}", cmd

    found = {(name, p.opts[0]) for name, cmd in commands(cli.cli) for p in cmd.params
             if isinstance(p, click.Option) and p.name in OUTPUT_PARAMS}
    assert found == set(FILE_OUTPUTS) | set(FOLDER_OUTPUTS)


@pytest.mark.parametrize("command", sorted(FILE_OUTPUTS), ids=" ".join)
def test_file_outputs_refuse_what_the_project_ships(at_root, two_g6, command):
    args, target, needle = FILE_OUTPUTS[command]
    before = _digest(target)
    args = tuple(str(two_g6) if a == "{g6}" else a for a in args)
    line = _one_error_line(_run(*args, command[1], target), needle)
    assert target in line and "elsewhere" in line
    assert _digest(target) == before  # unchanged (or still absent)


@pytest.mark.parametrize("command", sorted(FOLDER_OUTPUTS), ids=" ".join)
def test_folder_outputs_refuse_what_the_project_ships(at_root, command):
    """A run directory or table folder inside the project is refused before the model is even
    loaded: a committed run is not resumed (its files would change), the committed tables are not
    rewritten, and no folder is created."""
    args = FOLDER_OUTPUTS[command]
    target = PROJECT_ROOT / args[args.index(command[1]) + 1]
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
    from brec_runner.records.record import prepare_run_dir
    from wltools.errors import RunDirectoryError

    monkeypatch.delenv(REGENERATE_REPORTS_ENV, raising=False)
    target = PROJECT_ROOT / "data" / "brec" / "a-run"
    with pytest.raises(RunDirectoryError, match="data folder"):
        prepare_run_dir(target)
    assert not target.exists()
