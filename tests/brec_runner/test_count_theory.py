"""The counting report's theory column checks every role the targets count (issue 45, fault 1).

A node-level target counts the copies of F containing v in any role, an edge-level target the
copies containing the edge uv in any role and direction (:mod:`wltools.counting.subgraph`), so the
report says "can count" exactly when ``wltools can-count --root`` says yes for *every* root: every
vertex of F (node level), every oriented edge of F (edge level). The reference here asks the CLI
for each root one by one (all vertices and edges, not the orbits the report uses).
"""

import json

import networkx as nx
import pytest
from click.testing import CliRunner

from brec_runner.counting.report import theory_verdict
from cli import cli
from wltools.counting.tasks import STANDARD_TASKS, parse_task
from wltools.hom.families import FAMILY_TESTS, family_of


def _cli_can_count(F, test: str, level: str, root: tuple) -> bool:
    g6 = nx.to_graph6_bytes(F, nodes=sorted(F), header=False).decode().strip()
    args = ["can-count", g6, "--test", test, "--level", level, "--format", "json"]
    for r in root:
        args += ["--root", str(r)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)["can_count"]


def _every_root(F, level: str) -> list[tuple]:
    if level == "node":
        return [(v,) for v in F]
    return [e for a, b in F.edges for e in ((a, b), (b, a))]


CASES = [(task, level, test) for task in STANDARD_TASKS for level in ("node", "edge") for test in FAMILY_TESTS
         if family_of(test, level) is not None]


@pytest.mark.parametrize("task, level, test", CASES)
def test_node_and_edge_verdicts_agree_with_can_count_on_every_root(task, level, test):
    F = parse_task(task).pattern
    expected = all(_cli_can_count(F, test, level, root) for root in _every_root(F, level))
    verdict, _ = theory_verdict(task, level, test)
    assert verdict == ("can count" if expected else "cannot count"), (task, level, test)


def test_the_issue_case_tailed_triangle_under_swl_vs():
    """Rooted at the tail's end (vertex 3), F - w is the triangle, not a forest: swl-vs cannot count
    the copies containing v in that role (the CLI says no), so the node target is not countable; the
    report names the failing root. Rooted at the triangle, it can."""
    F = parse_task("tailed-triangle").pattern
    assert not _cli_can_count(F, "swl-vs", "node", (3,)) and _cli_can_count(F, "swl-vs", "node", (0,))
    verdict, witness = theory_verdict("tailed-triangle", "node", "swl-vs")
    assert verdict == "cannot count" and witness.endswith("root 3")
    assert theory_verdict("cycle:3", "node", "swl-vs") == ("can count", None)


@pytest.mark.parametrize("test, level, reason_end", [
    ("spd", "graph", "no published homomorphism-expressivity characterisation of spd is known to wltools"),
    ("1wl", "edge", "state its edge-level expressivity does not exist"),
])
def test_a_bound_without_a_family_says_so_in_full(test, level, reason_end):
    """Issue 43: the cell read "theory unavailable (UnsupportedGraphError: ... is know" (cut at 120
    characters). It names the missing family and gives the whole reason, for subgraph and
    homomorphism tasks alike, with no witness."""
    for task in ("cycle:3", "hom:boat"):
        verdict, witness = theory_verdict(task, level, test)
        assert verdict.startswith(f"no known homomorphism family for {test} at {level} level: "), verdict
        assert verdict.endswith(reason_end) and "unavailable" not in verdict and witness is None
