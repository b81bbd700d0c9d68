"""CLI tests of `wltools hom` (CliRunner on cli.cli), checked against independent references
(backtracking, traces of adjacency powers, clique counts), and its refusals: one line, exit 2."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from click.testing import CliRunner

import cli
from wltools.graphs import load_graph
from wltools.hom.brute import hom_count_brute


def _run(*args: str):
    return CliRunner().invoke(cli.cli, list(args))


def test_cycle_count_is_the_trace_of_a_power():
    r = _run("hom", "cycle:5", "petersen")
    A = nx.to_numpy_array(nx.petersen_graph(), weight=None).astype(int)
    assert r.exit_code == 0 and r.output.strip() == f"hom(cycle:5, petersen) = {np.trace(np.linalg.matrix_power(A, 5))}"


def test_k4_separates_rook_from_shrikhande_as_json():
    """The 4x4 rook graph has 8 K4s (its rows and columns), Shrikhande none: 4! * 8 = 192 and 0."""
    out = {}
    for g in ("rook4x4", "shrikhande"):
        r = _run("hom", "complete:4", g, "--format", "json")
        assert r.exit_code == 0, r.output
        d = json.loads(r.output)
        assert d["pattern_graph6"] == "C~" and d["root"] is None
        out[g] = d["hom"]
    assert out == {"rook4x4": 24 * 8, "shrikhande": 0}


def test_rooted_counts_send_pattern_vertices_0_and_1_to_the_given_vertices(tmp_path):
    F = nx.Graph([(0, 2), (2, 1), (1, 3), (3, 0), (0, 1)])  # a diamond with roots 0, 1 adjacent
    path = tmp_path / "f.edgelist"
    path.write_text("".join(f"{u} {v}\n" for u, v in F.edges))
    G = load_graph("heawood")
    for roots in ("3", "0,1", "2,9"):
        r = _run("hom", str(path), "heawood", "--root", roots, "--format", "json")
        assert r.exit_code == 0, r.output
        d = json.loads(r.output)
        vs = [int(x) for x in roots.split(",")]
        assert d["root"] == vs and d["pattern_roots"] == list(range(len(vs)))
        assert d["hom"] == hom_count_brute(F, G, fixed=dict(enumerate(vs)))
    text = _run("hom", "path:3", "petersen", "--root", "4").output.strip()
    assert text == "hom(path:3, petersen, 0 -> 4) = 9"  # pattern vertex 0 is an end: 2-step walks, 3 * 3


@pytest.mark.parametrize("args, message", [
    (("path:3", "petersen", "--root", "10"), "G has vertices 0..9, not 10"),
    (("path:3", "petersen", "--root", "0,1,2"), "one or two vertex numbers"),
    (("path:3", "petersen", "--root", "a"), "one or two vertex numbers"),
    (("path:1", "petersen", "--root", "0,1"), "pattern of at least 2 vertices"),
    (("nosuchgraph", "petersen"), "not an existing file"),
    (("complete:17", "petersen"), "at most 16 vertices"),
])
def test_bad_input_is_one_line_exit_2(args, message):
    r = _run("hom", *args)
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_check_explain_json_gives_checkable_witnesses():
    r = _run("check", "shrikhande", "rook4x4", "--test", "3fwl", "--explain", "--format", "json", "--no-iso")
    assert r.exit_code == 0, r.output
    (res,) = json.loads(r.output)["results"]
    assert res["distinguished"] and res["hom_searched_up_to"] == 5
    w = res["hom_witness"]
    F = nx.from_graph6_bytes(w["pattern"].encode())
    assert (w["hom_g"], w["hom_h"]) == (hom_count_brute(F, load_graph("shrikhande")),
                                        hom_count_brute(F, load_graph("rook4x4"))) and w["hom_g"] != w["hom_h"]


def test_check_explain_text_covers_every_test():
    r = _run("check", "cycle:6", "cycle:3+cycle:3", "--explain", "--explain-max-nodes", "4", "--no-iso")
    assert r.exit_code == 0, r.output
    lines = r.output.split("homomorphism witnesses")[1].splitlines()
    assert "  1wl: every family pattern up to 4 vertices has equal counts, as the theorem says" in lines
    assert "  spd: no known family" in lines
    assert "  3wl: pattern Bw (triangle) (3 vertices, 3 edges): hom = 0 into G, 12 into H" in lines
    plain = _run("check", "cycle:6", "cycle:3+cycle:3", "--format", "json", "--no-iso")
    assert "hom_witness" not in plain.output


def test_check_explain_raises_a_found_difference_as_a_bug(monkeypatch):
    import wltools.hom.witness as witness

    monkeypatch.setattr(witness, "graph_family_patterns", lambda test, k: (nx.cycle_graph(3),) if test == "1wl" else None)
    r = _run("check", "cycle:6", "cycle:3+cycle:3", "--test", "1wl", "--explain", "--no-iso")
    assert r.exit_code == 2 and r.output.startswith("error: internal error: 1wl does not distinguish")
    assert "hom =" in r.output and len(r.output.strip().splitlines()) == 1


def test_check_explain_refuses_labelled_graphs_and_large_k(tmp_path):
    G = nx.path_graph(3)
    nx.set_node_attributes(G, {0: "C", 1: "O", 2: "C"}, "element")
    path = tmp_path / "g.json"
    path.write_text(json.dumps(nx.node_link_data(G, edges="links")))
    r = _run("check", str(path), str(path), "--node-attr", "element", "--explain")
    assert r.exit_code == 2 and "unlabelled graphs only" in r.output and len(r.output.strip().splitlines()) == 1
    r = _run("check", "cycle:6", "cycle:3+cycle:3", "--explain", "--explain-max-nodes", "8")
    assert r.exit_code == 2 and "--explain-max-nodes" in r.output


def test_a_fifo_as_pattern_or_graph_is_one_line(tmp_path):
    """A FIFO would block its reader: hom and can-count refuse it in one line, exit 2."""
    import os

    from click.testing import CliRunner

    import cli

    fifo = tmp_path / "g.fifo"
    os.mkfifo(fifo)
    for args in (["hom", "cycle:3", str(fifo)], ["can-count", str(fifo), "--test", "3wl"]):
        r = CliRunner().invoke(cli.cli, args)
        assert r.exit_code == 2 and "FIFO" in r.output and r.output.count("\n") == 1, r.output
