"""Defaults never write into the repository (issue 34 item 3): every output option of every command
defaults to nothing (stdout, or no file) or to a folder under ``runs/`` of the working directory,
never to ``reports/`` (the committed results) or into the package; and ``brec theory`` without
``--out`` writes ``runs/brec-theory``, whose README states the command with its ``--out``."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import click
from click.testing import CliRunner

from cli import cli

#: Parameter names of options that name an output file or folder.
OUTPUTS = {"out", "out_dir", "out_path", "plot_path", "html_path", "draw_path", "figures_dir"}


def _commands(group: click.Group, prefix: str = ""):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", cmd


def test_every_output_default_is_none_or_under_runs():
    seen, bad = 0, []
    for name, cmd in _commands(cli):
        for p in cmd.params:
            if isinstance(p, click.Option) and p.name in OUTPUTS:
                seen += 1
                d = p.default
                if d is not None and (PurePosixPath(str(d)).is_absolute() or PurePosixPath(str(d)).parts[0] != "runs"):
                    bad.append(f"{name} {p.opts[0]}={d}")
    assert seen >= 10  # the walk found the output options (check --draw, brec report --out/--plot/--html, ...)
    assert not bad, bad


def test_brec_theory_without_out_writes_under_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    r = CliRunner().invoke(cli, ["brec", "theory", "--tests", "1wl", "--pairs", "0-1"])
    assert r.exit_code == 0, r.output
    written = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "runs").rglob("*") if p.is_file())
    assert written == ["runs/brec-theory/README.md", "runs/brec-theory/verdicts.csv",
                       "runs/brec-theory/verdicts.json"]
    assert "`wltools brec theory --tests 1wl --out runs/brec-theory`" in Path("runs/brec-theory/README.md").read_text()
    assert not (tmp_path / "reports").exists()


def test_the_committed_theory_table_states_its_out():
    readme = Path(__file__).resolve().parents[1] / "reports" / "brec-theory" / "README.md"
    assert "--out reports/brec-theory`" in readme.read_text().splitlines()[2]
