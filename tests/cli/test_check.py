"""CLI tests of `wltools check` and `wltools iso` (CliRunner on cli.cli, real refine_pair)."""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest
from click.testing import CliRunner
from graphml_samples import DIRECTED_GRAPHML

import cli
from wltools.refine.names import TESTS


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
    "args, message",
    [
        (("--rrwp-steps", "0"), "Invalid value"),
        (("--test", "4wl"), "error: --test: unknown test '4wl'"),  # one line, every name (test_test_lists.py)
        (("--format", "yaml"), "Invalid value"),
    ],
)
def test_check_bad_options(args, message):
    result = _run("check", "petersen", "petersen", *args)
    assert result.exit_code == 2
    assert message in result.stderr


# ----------------------------------------------------------------------------- bad graph input

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


# ----------------------------------------------------------------------------- invariants first, iso budget


def _g6(G) -> str:
    return nx.to_graph6_bytes(G, nodes=sorted(G), header=False).decode().strip()


def _no_labeller(monkeypatch):
    """Make any canonical labelling fail loudly."""
    import wltools.iso

    def boom(*args, **kwargs):
        raise AssertionError("canonical labeller called")

    monkeypatch.setattr(wltools.iso, "canonical_form", boom)


def _slow_labeller(monkeypatch, seconds: float = 60.0):
    """A canonical labeller that sleeps (inherited by a forked child process)."""
    import time

    import wltools.iso

    def slow(*args, **kwargs):
        time.sleep(seconds)
        raise AssertionError("slow labeller not stopped")

    monkeypatch.setattr(wltools.iso, "canonical_form", slow)


def _relabelled_file(tmp_path, G, seed: int, name: str) -> str:
    rng = random.Random(seed)
    perm = list(range(G.number_of_nodes()))
    rng.shuffle(perm)
    path = tmp_path / name
    path.write_bytes(nx.to_sparse6_bytes(nx.relabel_nodes(G, dict(enumerate(perm))),
                                         nodes=range(G.number_of_nodes()), header=False))
    return str(path)


def test_check_triangle_witness_without_labeller(monkeypatch):
    """K_{3,3} and the prism: both 3-regular on 6 nodes, 1-WL cannot tell them apart, the
    triangle count does, and no canonical labelling is run."""
    _no_labeller(monkeypatch)
    g, h = _g6(nx.complete_bipartite_graph(3, 3)), _g6(nx.circular_ladder_graph(3))
    result = _run("check", g, h, "--test", "1wl")
    assert result.exit_code == 0, result.output
    assert _rows(result.stdout)["1wl"][0] == "not distinguished"
    assert ("isomorphic: no (triangles: 0 in G, 2 in H); the graphs differ, but no test run here "
            "tells") in result.stdout
    obj = json.loads(_run("check", g, h, "--test", "1wl", "--format", "json").stdout)
    assert obj["isomorphic"] is False
    assert obj["iso_witness"] == "triangles: 0 in G, 2 in H"
    assert obj["certificates"] is None and obj["iso_status"] == "decided"


def test_iso_large_component_witness_without_labeller(monkeypatch):
    _no_labeller(monkeypatch)
    result = _run("iso", "cycle:300", "cycle:150+cycle:150")
    assert result.exit_code == 0, result.output
    assert result.stdout == "not isomorphic (component sizes: 0 components of 150 nodes in G, 2 in H)\n"
    obj = json.loads(_run("iso", "cycle:300", "cycle:150+cycle:150", "--format", "json").stdout)
    assert obj["isomorphic"] is False and obj["certificates"] is None
    assert obj["iso_witness"].startswith("component sizes: ")


def test_iso_small_witness_keeps_certificates():
    result = _run("iso", "cycle:6", "cycle:3+cycle:3")
    assert result.stdout.startswith("not isomorphic (certificates ")
    assert "; component sizes: 0 components of 3 nodes in G, 2 in H)" in result.stdout


def test_check_no_iso(monkeypatch, relabelled_petersen):
    _no_labeller(monkeypatch)
    result = _run("check", "petersen", relabelled_petersen, "--test", "1wl", "--no-iso")
    assert result.exit_code == 0, result.output
    assert "isomorphism not checked (--no-iso)" in result.stdout
    assert "isomorphic: yes" not in result.stdout
    obj = json.loads(_run("check", "petersen", relabelled_petersen, "--test", "1wl", "--no-iso",
                          "--format", "json").stdout)
    assert obj["isomorphic"] is None and obj["iso_status"] == "not checked"
    # a test that distinguishes the graphs still proves them non-isomorphic (invariants silenced:
    # decalin and bicyclopentyl differ in closed walks)
    from wltools.iso import invariants as iso_invariants

    monkeypatch.setattr(iso_invariants, "first_difference", lambda G, H: None)
    result = _run("check", "decalin", "bicyclopentyl", "--test", "spd", "--no-iso")
    assert "isomorphic: no (distinguished by spd)" in result.stdout


def test_check_iso_timeout_undecided(monkeypatch, tmp_path):
    """Invariants agree (a relabelled 300-cycle), the labeller hangs: the child process is killed
    after the budget and the refinement verdict is still printed."""
    import time

    _slow_labeller(monkeypatch)
    h = _relabelled_file(tmp_path, nx.cycle_graph(300), 5, "c300.s6")
    start = time.monotonic()
    result = _run("check", "cycle:300", h, "--test", "1wl", "--iso-timeout", "0.5")
    assert time.monotonic() - start < 20
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert _rows(result.stdout)["1wl"][0] == "not distinguished"
    assert "isomorphism undecided after 0.5 s" in result.stdout
    obj = json.loads(_run("check", "cycle:300", h, "--test", "1wl", "--iso-timeout", "0.5",
                          "--format", "json").stdout)
    assert obj["isomorphic"] is None and obj["iso_status"] == "undecided"
    assert obj["certificates"] is None and obj["iso_timeout"] == 0.5

    result = _run("iso", "cycle:300", h, "--iso-timeout", "0.5")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("isomorphism undecided after 0.5 s")


def test_check_large_isomorphic_pair_through_child(tmp_path):
    """Above 256 nodes the labelling runs in a child process; isomorphic pairs are still found."""
    h = _relabelled_file(tmp_path, nx.cycle_graph(300), 7, "c300.s6")
    result = _run("check", "cycle:300", h, "--test", "1wl", "--iso-timeout", "60")
    assert result.exit_code == 0, result.output
    assert "isomorphic: yes (bliss certificates " in result.stdout
    result = _run("iso", "cycle:300", h)
    assert result.stdout.startswith("isomorphic (certificates ")


def test_check_child_labeller_error_one_line(monkeypatch, tmp_path):
    import wltools.iso
    from wltools.errors import ResourceLimitError

    def refuse(*args, **kwargs):
        raise ResourceLimitError("labeller refused")

    monkeypatch.setattr(wltools.iso, "canonical_form", refuse)
    h = _relabelled_file(tmp_path, nx.cycle_graph(300), 9, "c300.s6")
    result = _run("check", "cycle:300", h, "--test", "1wl")
    assert result.exit_code == 2
    assert result.stderr == "error: labeller refused\n"


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_check_bad_iso_timeout(value):
    result = _run("check", "petersen", "petersen", "--iso-timeout", value)
    assert result.exit_code == 2
    assert "Invalid value" in result.stderr


def test_check_json_records_the_rrwp_steps_it_used():
    """Issue 43: ``--format json`` gave ``rrwp_steps: null`` when K was left to its default. It is the
    K used: max(n_G, n_H) = 20 for these two 20-vertex graphs, the K asked for, or n + 1 = 21 when
    more was asked; null only when no rrwp test ran. The rrwp verdict is the one of rrwp:20."""
    def check_json(*args):
        return json.loads(_run("check", "dodecahedral", "desargues", *args, "--format", "json").stdout)

    default = check_json("--test", "rrwp")
    assert default["rrwp_steps"] == 20
    from wltools.refine import refine_pair

    at_20 = refine_pair(nx.dodecahedral_graph(), nx.desargues_graph(), "rrwp:20").distinguished
    assert default["results"][0]["distinguished"] is at_20
    assert check_json("--test", "rrwp", "--rrwp-steps", "5")["rrwp_steps"] == 5
    assert check_json("--test", "rrwp", "--rrwp-steps", "40")["rrwp_steps"] == 21
    assert check_json("--test", "spd")["rrwp_steps"] is None
