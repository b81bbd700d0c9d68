"""CLI tests of `wltools check` and `wltools iso` (CliRunner on cli.cli, real refine_pair)."""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest
from click.testing import CliRunner

import cli
from wltools.wl_tests import TESTS


def _run(*args: str):
    return CliRunner().invoke(cli.cli, list(args))


def _rows(output: str) -> dict[str, list[str]]:
    """Table rows of `check` text output: test name -> [verdict, reason, iteration, iterations]."""
    rows = {}
    for line in output.splitlines():
        cells = [c for c in line.split("  ") if c.strip()]
        cells = [c.strip() for c in cells]
        if cells and cells[0] in TESTS and len(cells) == 5:
            rows[cells[0]] = cells[1:]
    return rows


@pytest.fixture
def relabelled_petersen(tmp_path):
    """Petersen under a seeded random permutation, as a one-line graph6 file."""
    rng = random.Random(17)
    perm = list(range(10))
    rng.shuffle(perm)
    G = nx.relabel_nodes(nx.petersen_graph(), dict(enumerate(perm)))
    path = tmp_path / "petersen_relabelled.g6"
    path.write_bytes(nx.to_graph6_bytes(G, nodes=range(10)))
    return str(path)


@pytest.mark.parametrize("g, h", [("decalin", "bicyclopentyl"), ("cycle:6", "cycle:3+cycle:3")])
def test_check_1wl_fails_spd_succeeds(g, h):
    result = _run("check", g, h, "--test", "1wl")
    assert result.exit_code == 0, result.output
    assert _rows(result.stdout)["1wl"][0] == "not distinguished"
    assert "isomorphic: no" in result.stdout
    assert "no test run here tells" in result.stdout

    result = _run("check", g, h, "--test", "spd")
    assert result.exit_code == 0, result.output
    row = _rows(result.stdout)["spd"]
    assert row[0] == "distinguished" and row[1] == "histogram"
    assert "witnesses:" in result.stdout and "  spd: " in result.stdout
    assert "isomorphic: no" in result.stdout

    result = _run("check", g, h, "--test", "1wl", "--format", "json")
    obj = json.loads(result.stdout)
    assert obj["isomorphic"] is False
    assert obj["graphs"]["G"]["n"] == obj["graphs"]["H"]["n"]
    assert obj["graphs"]["G"]["m"] == obj["graphs"]["H"]["m"]
    assert [r["distinguished"] for r in obj["results"]] == [False]


def test_check_all_on_isomorphic_graphs(relabelled_petersen):
    result = _run("check", "petersen", relabelled_petersen)
    assert result.exit_code == 0, result.output
    rows = _rows(result.stdout)
    assert set(rows) == set(TESTS)
    assert all(row[0] == "not distinguished" for row in rows.values())
    assert "isomorphic: yes" in result.stdout
    assert "witnesses:" not in result.stdout
    assert result.stderr == ""

    obj = json.loads(_run("check", "petersen", relabelled_petersen, "--format", "json").stdout)
    assert obj["isomorphic"] is True
    assert obj["certificates"]["G"] == obj["certificates"]["H"]
    assert [r["test"] for r in obj["results"]] == list(TESTS)
    assert not any(r["distinguished"] for r in obj["results"])


def test_check_shrikhande_rook_3wl_not_distinguished_not_isomorphic():
    result = _run("check", "shrikhande", "rook4x4", "--test", "3wl")
    assert result.exit_code == 0, result.output
    assert _rows(result.stdout)["3wl"][0] == "not distinguished"
    assert "isomorphic: no" in result.stdout


def test_check_dodecahedral_desargues_json():
    """GRIT Prop. 3.2: SPD-WL does not distinguish them, RRWP-WL with K = n does."""
    out = _run("check", "dodecahedral", "desargues", "--test", "spd", "--format", "json").stdout
    assert json.loads(out)["results"][0]["distinguished"] is False
    out = _run("check", "dodecahedral", "desargues", "--test", "rrwp", "--format", "json").stdout
    obj = json.loads(out)
    assert obj["results"][0]["distinguished"] is True
    assert obj["isomorphic"] is False


@pytest.mark.parametrize(
    "args",
    [
        ("--rrwp-steps", "0"),
        ("--test", "4wl"),
        ("--format", "yaml"),
    ],
)
def test_check_bad_options(args):
    result = _run("check", "petersen", "petersen", *args)
    assert result.exit_code == 2
    assert "Invalid value" in result.stderr


# ----------------------------------------------------------------------------- bad graph input

DIRECTED_GRAPHML = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <graph id="G" edgedefault="directed">
    <node id="a"/><node id="b"/><edge source="a" target="b"/>
  </graph>
</graphml>
"""

# id, file name (None: the spec is given literally), content or spec
BAD_INPUTS = [
    ("malformed-graph6", None, "ICZJvZsN"),
    ("malformed-graph6-file", "bad.g6", "ICZJvZsN\n"),
    ("zero-node-graph6", None, "?"),
    ("digraph6", None, "&B?"),
    ("directed-graphml", "d.graphml", DIRECTED_GRAPHML),
    ("directed-json", "d.json", json.dumps({"directed": True, "nodes": [{"id": 0}], "edges": []})),
    ("zero-node-json", "z.json", json.dumps({"nodes": [], "edges": []})),
    ("self-loop", "loop.edgelist", "0 1\n1 1\n"),
    ("multi-edge", "multi.edgelist", "0 1\n1 2\n1 0\n"),
    ("empty-file", "empty.g6", ""),
    ("several-graphs", "two.g6", "A_\nBw\n"),
    ("index-out-of-range", "two.g6", "A_\nBw\n", ":5"),
    ("unknown-name", None, "tesseract"),
    ("bad-size", None, "cycle:2"),
    ("missing-file", None, "no/such/file.g6"),
]


def _spec(tmp_path, case) -> str:
    _, filename, content, *suffix = case
    if filename is None:
        return content
    path = tmp_path / filename
    path.write_text(content)
    return str(path) + (suffix[0] if suffix else "")


@pytest.mark.parametrize("case", BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
@pytest.mark.parametrize("command", ["check-G", "check-H", "iso"])
def test_bad_graph_input_one_error_line(tmp_path, case, command):
    spec = _spec(tmp_path, case)
    if command == "check-G":
        args = ("check", spec, "petersen", "--test", "1wl")
    elif command == "check-H":
        args = ("check", "petersen", spec, "--test", "1wl", "--format", "json")
    else:
        args = ("iso", "petersen", spec)
    result = _run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr


# ----------------------------------------------------------------------------- iso


def test_iso_text_and_json(relabelled_petersen):
    result = _run("iso", "petersen", relabelled_petersen)
    assert result.exit_code == 0
    assert result.stdout.startswith("isomorphic (certificates ")
    digests = result.stdout.split("certificates ")[1].rstrip(")\n").split(" = ")
    assert len(digests) == 2 and digests[0] == digests[1]

    result = _run("iso", "shrikhande", "rook4x4")
    assert result.exit_code == 0  # exit 0 either way
    assert result.stdout.startswith("not isomorphic (certificates ")

    obj = json.loads(_run("iso", "cycle:6", "cycle:3+cycle:3", "--format", "json").stdout)
    assert obj["isomorphic"] is False
    assert obj["graphs"]["H"] == {"spec": "cycle:3+cycle:3", "n": 6, "m": 6}
    assert obj["canonical_graph6"]["G"] != obj["canonical_graph6"]["H"]
    obj = json.loads(_run("iso", "petersen", relabelled_petersen, "--format", "json").stdout)
    assert obj["isomorphic"] is True
    assert obj["canonical_graph6"]["G"] == obj["canonical_graph6"]["H"]


def test_iso_different_orders():
    result = _run("iso", "cycle:5", "cycle:6")
    assert result.exit_code == 0
    assert result.stdout.startswith("not isomorphic")


# ----------------------------------------------------------------------------- fast start


def test_check_iso_and_brec_theory_import_no_torch(tmp_path):
    """Issue 16 item 1: `check`, `iso` and `brec theory` run without importing torch or
    torch-geometric (run in a fresh interpreter, then sys.modules is inspected)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "import cli\n"
        "def run(*args):\n"
        "    r = CliRunner().invoke(cli.cli, list(args))\n"
        "    assert r.exit_code == 0, r.output\n"
        "run('check', 'petersen', 'petersen')\n"
        "run('iso', 'cycle:300', 'cycle:300', '--format', 'json')\n"
        f"run('brec', 'theory', '--pairs', '0-1', '--tests', '1wl', '--out', {str(tmp_path / 'theory')!r})\n"
        "bad = sorted(m for m in ('torch', 'torch_geometric') if m in sys.modules)\n"
        "assert not bad, bad\n"
    )
    env = {**os.environ, "WLTOOLS_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
