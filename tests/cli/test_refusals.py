"""Refusals before allocation (issue 16, item 7): every one is exit code 2 and one line
``error: ...`` on stderr, never a traceback, never a hang."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import cli
import wltools.iso
import wltools.refine.cost
import wltools.runtime.memory


def _run(*args: str):
    return CliRunner().invoke(cli.cli, list(args))


def _one_error_line(result, needle: str = "") -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in result.stderr
    assert needle in lines[0], lines[0]
    return lines[0]


def _sparse6(n: int) -> str:
    head = "~~" + "".join(chr(((n >> s) & 63) + 63) for s in (30, 24, 18, 12, 6, 0))
    return ":" + head + "A"


@pytest.fixture
def machine_with_23_gib(monkeypatch):
    """A machine that says it has 23 GiB free, whatever this one has."""
    monkeypatch.setattr(wltools.runtime.memory, "available_bytes", lambda: 23 * 2**30)


@pytest.mark.parametrize("command", ["check", "iso"])
def test_sparse6_header_claiming_2_30_nodes(command, tmp_path):
    _one_error_line(_run(command, _sparse6(2**30), "petersen"), "1,073,741,824 nodes")
    path = tmp_path / "huge.s6"
    path.write_text(_sparse6(2**30) + "\n")
    _one_error_line(_run(command, "petersen", str(path)), "1,073,741,824 nodes")


def test_malformed_graph6_header():
    _one_error_line(_run("iso", "~??~", "petersen"), "header says 63 nodes")


def test_the_issue_message_for_a_test_over_the_free_memory(monkeypatch, machine_with_23_gib):
    monkeypatch.setattr(wltools.refine.cost, "peak_bytes", lambda test, n, m, rrwp_steps=None, **kw: 24 * 2**30)
    line = _one_error_line(_run("check", "petersen", "petersen", "--test", "3wl"))
    assert line.startswith("error: 3-WL on 10 nodes needs about 24 GiB; this machine has 23 GiB free")
    assert line.endswith("--max-memory to change")


def test_tests_are_refused_by_their_estimate(machine_with_23_gib):
    # SPD-WL on a 100,000-node cycle: two n x n distance matrices, about 75 GiB
    _one_error_line(_run("check", "cycle:100000", "cycle:100000"), "SPD-WL on 100,000 nodes needs about")
    # 3-WL on 5,000 nodes is over an explicit budget
    _one_error_line(_run("check", "cycle:5000", "cycle:5000", "--test", "3wl", "--max-memory", "1G"),
                    "3-WL on 5,000 nodes needs about")
    # EPWL has its own estimate (before it, a large EPWL check was not refused at all)
    _one_error_line(_run("check", "cycle:3000", "cycle:3000", "--test", "epwl-lap", "--max-memory", "1G"),
                    "EPWL-L on 3,000 nodes needs about")


def test_max_memory_lets_a_test_through(monkeypatch):
    seen = []
    monkeypatch.setattr(wltools.refine.cost, "peak_bytes",
                        lambda test, n, m, rrwp_steps=None, **kw: seen.append((test, n, m)) or 3 * 2**30)
    _one_error_line(_run("check", "petersen", "cycle:10", "--test", "1wl", "--max-memory", "2G"),
                    "--max-memory is 2 GiB")
    result = _run("check", "petersen", "cycle:10", "--test", "1wl", "--max-memory", "4G")
    assert result.exit_code == 0, result.output
    assert seen[-1] == ("1wl", 10, 15)  # the larger order and size of the two graphs


def test_named_graphs_with_huge_sizes():
    _one_error_line(_run("check", "cycle:1000000", "petersen"), "size must be in 3..100000")
    _one_error_line(_run("iso", "complete:1000", "complete:1000", "--max-memory", "100M"), "complete:1000")


@pytest.mark.parametrize("value", ["lots", "-1G", "0", "4X"])
def test_bad_max_memory(value):
    result = _run("check", "petersen", "petersen", "--max-memory", value)
    assert result.exit_code == 2 and "Invalid value for '--max-memory'" in result.stderr


def test_iso_above_the_tested_limit(monkeypatch):
    monkeypatch.setattr(wltools.iso, "MAX_NODES", 50)
    _one_error_line(_run("iso", "cycle:60", "cycle:60"), "tested limit of 50 nodes")
    _one_error_line(_run("check", "cycle:60", "cycle:60", "--test", "1wl"), "tested limit of 50 nodes")


def test_an_allocation_failure_is_one_line(monkeypatch):
    import wltools.refine

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(wltools.refine, "refine_pair", no_memory)
    _one_error_line(_run("check", "petersen", "petersen", "--test", "1wl"), "out of memory")


def test_rrwp_steps_beyond_n_are_lowered_with_a_note():
    """K > n + 1 gives the verdict and iteration of K = n + 1 (Cayley-Hamilton), on a pair RRWP-WL
    separates and on one it does not."""
    for g, h in (("dodecahedral", "desargues"), ("shrikhande", "rook4x4")):
        big = _run("check", g, h, "--test", "rrwp", "--rrwp-steps", "1000000", "--format", "json")
        assert big.exit_code == 0, big.output
        assert big.stderr.startswith("note: --rrwp-steps 1000000 lowered to n + 1 = ")
        obj = json.loads(big.stdout)
        n = max(obj["graphs"]["G"]["n"], obj["graphs"]["H"]["n"])
        assert obj["rrwp_steps"] == n + 1
        for k in (n + 1, n + 3):
            ref = json.loads(_run("check", g, h, "--test", "rrwp", "--rrwp-steps", str(k),
                                  "--format", "json").stdout)
            for key in ("distinguished", "iteration", "iterations"):
                assert ref["results"][0][key] == obj["results"][0][key]


NODE_LINK = [
    ({"nodes": [{"id": 0}, {"id": 1}], "edges": [{"source": 0, "target": 9}]}, "not in 'nodes'"),
    ({"directed": "false", "nodes": [{"id": 0}], "edges": []}, "'directed' must be true or false"),
    ({"multigraph": "no", "nodes": [{"id": 0}], "edges": []}, "'multigraph' must be true or false"),
    ({"nodes": [{"id": 0}]}, "no 'edges' list"),
    ({"nodes": [{"key": 0}], "edges": []}, "no 'id'"),
    ({"nodes": [{"id": 0}], "edges": [{"target": 0}]}, "needs a 'source' and a 'target'"),
]


@pytest.mark.parametrize("obj, needle", NODE_LINK, ids=[n for _, n in NODE_LINK])
@pytest.mark.parametrize("command", ["check", "iso"])
def test_node_link_json(tmp_path, command, obj, needle):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(obj))
    _one_error_line(_run(command, str(path), "petersen"), needle)
