"""Graphs, pairs and patterns by name (issue 43): ``brec:ID`` / ``brec:ID:g`` and the suites' pairs in
every graph argument, one pair name where two graphs are taken, patterns by name (``K4``,
``triangle``, ``star:3``, ``chordal:4``, ``hom:boat``) and their names printed beside graph6. The
references are networkx's generators and BREC's shipped graph6, read by networkx alone."""

from __future__ import annotations

import json
import random

import networkx as nx
import numpy as np
import pytest
from click.testing import CliRunner

import cli
from cli_run import one_error_line, run
from wltools.graphs import load_graph
from wltools.hom.pattern_names import pattern_name


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


def _brec_graph6(pid: int) -> tuple[bytes, bytes]:
    """Pair ``pid`` from the shipped file, read with numpy and networkx only (BREC's basic pairs)."""
    from pathlib import Path

    arr = np.load(Path(__file__).resolve().parents[2] / "data" / "brec" / "basic.npy", allow_pickle=True)
    return tuple(str(x).strip().encode() for x in arr[2 * pid: 2 * pid + 2])


def test_a_brec_pair_by_name_is_the_shipped_pair(runner):
    g6g, g6h = _brec_graph6(7)
    res = runner.invoke(cli.cli, ["check", "brec:7", "--test", "1wl", "--format", "json"])
    assert res.exit_code == 0, res.output
    one = runner.invoke(cli.cli, ["check", "brec:7:g", "brec:7:h", "--test", "1wl", "--format", "json"])
    a, b = json.loads(res.stdout), json.loads(one.stdout)
    assert a["results"] == b["results"]
    from cli.graph_names import load_one

    for side, g6 in (("g", g6g), ("h", g6h)):
        assert nx.is_isomorphic(load_one(f"brec:7:{side}"), nx.from_graph6_bytes(g6))
    assert not nx.is_isomorphic(load_one("brec:7:g"), load_one("brec:7:h"))


def test_a_suite_pair_by_name(runner):
    from wltools.suites import suite_pairs

    from cli.graph_names import pair_by_name

    p = suite_pairs("csl", ids=[3])[0]
    G, H = pair_by_name("csl:3")
    assert nx.is_isomorphic(G, p.g) and nx.is_isomorphic(H, p.h)
    res = runner.invoke(cli.cli, ["iso", "exp:12"])
    assert res.exit_code == 0 and "not isomorphic" in res.output


@pytest.mark.parametrize("args, words", [
    (["check", "brec:400"], "ids are 0-399"),
    (["check", "brec:abc"], "not a number"),
    (["check", "brec:3:x", "petersen"], "neither g nor h"),
    (["check", "brec:270:g"], "names one graph"),
    (["check", "exp:99999"], "out of range"),
    (["check", "petersen"], "two graphs"),
    (["check", "brec:3", "petersen"], "names a pair"),
    (["hom", "brec:3", "petersen"], "names a pair"),
    (["can-count", "K0", "--test", "1wl"], "size must be"),
])
def test_bad_names_are_one_line_and_exit_2(args, words):
    one_error_line(run(*args), words)


@pytest.mark.parametrize("name, reference", [
    ("K4", nx.complete_graph(4)), ("clique:5", nx.complete_graph(5)), ("triangle", nx.cycle_graph(3)),
    ("star:3", nx.star_graph(3)), ("chordal:4", nx.complete_graph(4).edge_subgraph([(0, 1), (1, 2), (2, 3), (3, 0), (1, 3)])),
    ("tailed-triangle", nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("a", "t")])),
    ("cycle:5", nx.cycle_graph(5)), ("path:4", nx.path_graph(4)),
])
def test_patterns_by_name_are_the_graphs_they_name(name, reference):
    G = load_graph(name)
    assert nx.is_isomorphic(G, reference)
    assert pattern_name(reference) in (name, {"clique:5": "K5"}.get(name))


def test_a_pattern_gets_its_name_under_any_labelling_and_only_its_own():
    rng = random.Random(0)
    for F, name in ((nx.complete_graph(4), "K4"), (nx.cycle_graph(6), "cycle:6"), (nx.star_graph(4), "star:4"),
                    (nx.path_graph(5), "path:5"), (nx.complete_graph(3), "triangle")):
        for _ in range(5):
            perm = list(F)
            rng.shuffle(perm)
            assert pattern_name(nx.relabel_nodes(F, dict(zip(F, perm)))) == name
    assert pattern_name(nx.petersen_graph()) is None
    assert pattern_name(nx.empty_graph(2)) is None  # two isolated vertices: no name
    two_triangles = nx.disjoint_union(nx.complete_graph(3), nx.complete_graph(3))
    assert pattern_name(two_triangles) is None


def test_printed_patterns_carry_their_names(runner):
    res = runner.invoke(cli.cli, ["can-count", "K4", "--test", "sswl"])
    assert res.exit_code == 0 and "C~ (K4)" in res.output
    res = runner.invoke(cli.cli, ["patterns", "--test", "swl-vs", "--max-nodes", "4", "--format", "json"])
    doc = json.loads(res.stdout)
    assert len(doc["names"]) == len(doc["patterns"]) and doc["names"][doc["patterns"].index("Bw")] == "triangle"
    res = runner.invoke(cli.cli, ["check", "cycle:6", "cycle:3+cycle:3", "--test", "3wl", "--explain"])
    assert "pattern Bw (triangle)" in res.output


def test_the_python_api_takes_a_networkx_graph():
    import wltools as wl

    G = nx.relabel_nodes(nx.petersen_graph(), {i: f"v{i}" for i in range(10)})
    H = wl.load_graph(G)
    assert sorted(H) == list(range(10)) and nx.is_isomorphic(G, H)
    with pytest.raises(wl.errors.UnsupportedGraphError):
        wl.load_graph(nx.DiGraph([(0, 1)]))
