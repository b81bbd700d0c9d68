"""``wltools patterns`` and ``wltools can-count``: output against the paper's numbers (Zhang et al.,
ICLR 2024, Table 4, Example 4.6), JSON, and bad input as one line with exit code 2."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from click.testing import CliRunner

import cli


def _run(*args: str):
    return CliRunner().invoke(cli.cli, list(args))


def _one_error_line(result, needle: str = "") -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output
    assert needle in lines[0], lines[0]
    return lines[0]


def test_patterns_text_and_json():
    res = _run("patterns", "--test", "swl-vs", "--max-nodes", "5")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert "2: 1, 3: 2, 4: 5, 5: 15" in lines[2]  # Table 4, Subgraph GNN, graph level
    g6 = [line.split(" (")[0] for line in lines if not line.startswith("#")]  # "C~ (K4)": graph6, then its name
    assert len(g6) == 1 + 1 + 2 + 5 + 15
    assert all(nx.is_connected(nx.from_graph6_bytes(s.encode())) for s in g6)
    assert "Bw (triangle)" in lines and "Cr (cycle:4)" in lines
    res = _run("patterns", "--test", "slfwl2", "--max-nodes", "4", "--level", "edge", "--format", "json")
    data = json.loads(res.stdout)
    assert data["counts"] == {"1": 0, "2": 1, "3": 4, "4": 21} and len(data["patterns"]) == 26
    assert "Theorem 3.7" in data["citation"]


def test_can_count_yes_no_and_witness():
    res = _run("can-count", "cycle:8", "--test", "3wl")
    assert res.exit_code == 0 and res.stdout.startswith("no: the homomorphic image C~ ")  # K4
    res = _run("can-count", "cycle:7", "--test", "sswl", "--level", "edge", "--format", "json")
    assert json.loads(res.stdout)["can_count"] is True  # Example 4.6: n <= 7 even at edge level
    res = _run("can-count", "cycle:5", "--test", "m1", "--level", "node", "--format", "json")
    data = json.loads(res.stdout)
    assert data["can_count"] is False and data["roots"] == [0]
    witness = nx.from_graph6_bytes(data["witness"].encode())
    assert not nx.is_forest(witness.subgraph(set(witness) - {0}))  # a cycle missing the root
    res = _run("can-count", "path:4", "--test", "sswl", "--level", "node", "--root", "1")
    assert res.exit_code == 0 and res.stdout.startswith("yes")


@pytest.mark.parametrize("args, needle", [
    (("patterns", "--test", "nosuch", "--max-nodes", "4"), "unknown test"),
    (("patterns", "--test", "rrwp", "--max-nodes", "4"), "no known pattern family"),
    (("patterns", "--test", "3fwl", "--max-nodes", "4", "--level", "node"), "graph level only"),
    (("patterns", "--test", "1wl", "--max-nodes", "9"), "--max-nodes"),
    (("patterns", "--test", "1wl", "--max-nodes", "0"), "--max-nodes"),
    (("patterns", "--test", "sswl", "--max-nodes", "7", "--level", "edge"), "at edge level"),
    (("patterns", "--test", "1wl", "--max-nodes", "3", "--level", "pairs"), "unknown level"),
    (("can-count", "cycle:4", "--test", "1wl", "--level", "edge"), "does not exist"),
    (("can-count", "cycle:4", "--test", "sswl", "--level", "edge", "--root", "0"), "--root"),
    (("can-count", "cycle:4", "--test", "sswl", "--level", "node", "--root", "9"), "--root"),
    (("can-count", "path:2+path:2", "--test", "sswl", "--level", "node"), "connected"),
    (("can-count", "path:2+path:2", "--test", "epwl"), "connected"),
    (("can-count", "cycle:11", "--test", "sswl"), "up to 10"),
    (("can-count", "no-such-graph", "--test", "sswl"), "not an existing file"),
    (("can-count", "smiles:CCO", "--test", "sswl"), "labelled patterns are refused"),
])
def test_bad_input_is_one_line(args, needle):
    _one_error_line(_run(*args), needle)
