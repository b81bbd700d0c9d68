"""The committed ``reports/hierarchy.{md,json,png}`` (``wltools hierarchy --tests all``): every
certificate in it re-checks from its graph6 strings alone with the exact tests, the two homomorphism
counters and canonical labelling; the relations, sources, Hasse edges and Markdown are what the code
derives from those certificates; no cited theorem is contradicted; and the BREC notes agree with the
committed BREC theory table.

What this does *not* re-run is the sweep itself (minutes): that no smaller candidate separates a pair,
and that "equal on everything searched" holds, rest on the regeneration command in
``docs/hierarchy.md``; :mod:`tests.wltools.hierarchy.test_hierarchy` checks the sweep on small test lists.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wltools.hierarchy import verify_certificate
from wltools.hierarchy.sources import brec_notes, theorem_edges, theorem_source
from wltools.hierarchy.table import Hierarchy
from wltools.refine.names import EVERY_TEST

ROOT = Path(__file__).resolve().parents[3]
REPORT = ROOT / "reports"


@pytest.fixture(scope="module")
def record():
    return json.loads((REPORT / "hierarchy.json").read_text())


def _certificates(record):
    for row in record["pairs"]:
        for key in ("b_over_a", "a_over_b"):
            if row[key] is not None:
                yield row[key]


def test_the_report_covers_every_default_test_and_finished(record):
    assert tuple(record["tests"]) == EVERY_TEST
    assert not record["out_of_time"]
    n = len(EVERY_TEST)
    assert len(record["pairs"]) == n * (n - 1) // 2
    assert (REPORT / "hierarchy.png").stat().st_size > 10_000


@pytest.mark.xdist_group("hierarchy-certificates")
def test_every_committed_certificate_rechecks(record):
    certs = list(_certificates(record))
    assert certs
    problems = {(c["a"], c["b"]): verify_certificate(c) for c in certs}
    assert {k: v for k, v in problems.items() if v} == {}


def test_relations_sources_hasse_and_markdown_follow_from_the_certificates(record):
    h = Hierarchy.from_dict(record)
    again = h.to_dict()
    for old, new in zip(record["pairs"], again["pairs"]):
        assert (old["a"], old["b"], old["relation"], old["source"]) == (new["a"], new["b"], new["relation"],
                                                                      new["source"])
        present = (old["b_over_a"] is not None, old["a_over_b"] is not None)
        assert old["relation"] == {(True, True): "incomparable", (True, False): "weaker",
                                   (False, True): "stronger", (False, False): "equal"}[present]
    assert again["hasse"] == record["hasse"]
    assert (REPORT / "hierarchy.md").read_text() == h.markdown()


def test_no_cited_theorem_is_contradicted_and_each_is_cited(record):
    assert record["contradicted_theorems"] == []
    rel = {(r["a"], r["b"]): r for r in record["pairs"]}
    uncertified = set()
    for a, b in theorem_edges():
        row = rel.get((a, b)) or rel.get((b, a))
        if row is None:
            continue  # 3fwl: not in the default list
        assert row["source"] and theorem_edges()[(a, b)] in row["source"], (a, b)
        # never the other way: A separating a pair B does not would contradict the theorem
        assert (row["a_over_b"] if row["a"] == a else row["b_over_a"]) is None, (a, b)
        if (row["b_over_a"] if row["a"] == a else row["a_over_b"]) is None:
            assert "no pair found here" in row["source"]
            uncertified.add((a, b))
    # with BREC's pairs swept (--brec) every cited edge has its certified pair (Local 2-FWL < 2-FWL: a
    # BREC pair; without them the report says "no pair found here", as hierarchy-certified's evidence does)
    assert uncertified == set()


def test_a_planted_contradiction_is_reported(record):
    h = Hierarchy.from_dict(record)
    (a, b) = ("1wl", "swl-vs")
    h.certificates[(b, a)] = h.certificates[(a, b)]  # pretend 1-WL separates a pair SWL(VS) does not
    assert theorem_source(a, b) and any("1wl separates" in line for line in h.contradictions())


def test_brec_notes_agree_with_the_committed_brec_table(record):
    h = Hierarchy.from_dict(record)
    notes = brec_notes(set(h.certificates), ROOT / "reports" / "brec-theory" / "verdicts.csv", h.tests)
    assert record["notes"] == notes
    # the measured groups: RD, RRWP and the EPWLs separate the same 236 BREC pairs
    assert any(line.startswith("rd, rrwp, epwl, epwl-lap separate exactly the same") for line in notes)


def test_the_certified_suite_is_the_committed_hierarchy_and_separates_what_it_is_tagged_with(record):
    """data/suites/certified holds the distinct certified pairs of the committed report (rebuilt here
    from its json), and the committed suite theory table (reports/suites-theory/certified.json, itself
    checked against the code in tests/wltools/suites) has, for every pair and every tag [A, B], B
    distinguishing the pair and A not."""
    from wltools.hierarchy.suite import suite_files
    from wltools.suites.base import DATA_DIR

    g6, listed = suite_files(record)
    assert (DATA_DIR / "certified" / "certified.g6").read_text() == g6
    assert (DATA_DIR / "certified" / "pairs.json").read_text(encoding="utf-8") == listed
    table = json.loads((ROOT / "reports" / "suites-theory" / "certified.json").read_text())
    tags = json.loads(listed)["pairs"]
    assert [p["id"] for p in table["pairs"]] == [p["id"] for p in tags]
    for pair, tagged in zip(table["pairs"], tags):
        for a, b in tagged["separates"]:
            assert pair["tests"][b]["distinguished"] and not pair["tests"][a]["distinguished"], (pair["id"], a, b)


def test_a_file_that_is_no_brec_table_is_one_line(tmp_path):
    """hierarchy --against-brec with a CSV of other columns: one line, exit 2, no traceback."""
    from cli_run import one_error_line, run

    bad = tmp_path / "other.csv"
    bad.write_text("a,b\n1,2\n")
    one_error_line(run("hierarchy", "--tests", "1wl,spd", "--max-seconds", "5", "--against-brec", bad),
                   "not a BREC theory table")


def test_cited_edges_are_the_published_chain():
    """The strict orders the tests declare (WLTest.strictly_above) are exactly the published chain:
    MPNN < Subgraph GNN < Local 2-GNN < Local 2-FGNN < 2-FGNN (Zhang et al., ICLR 2024, Theorem 3.4,
    Corollary 4.1) and 2-FWL < 3-FWL (Theorem 3.10), weakest first."""
    assert list(theorem_edges()) == [("1wl", "swl-vs"), ("swl-vs", "sswl"), ("sswl", "slfwl2"), ("slfwl2", "3wl"),
                                     ("3wl", "3fwl")]
    assert all("Theorem 3.4 and Corollary 4.1" in c for c in list(theorem_edges().values())[:4])
    assert "Theorem 3.10" in theorem_edges()[("3wl", "3fwl")]
    assert theorem_source("1wl", "3fwl").startswith("1wl < swl-vs < sswl < slfwl2 < 3wl < 3fwl")
