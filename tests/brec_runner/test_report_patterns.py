"""brec report --explain: the pattern a run failed to see is a family pattern whose counts differ,
recounted by plain backtracking; smaller family patterns have equal counts; a bound without a
family names none."""

from __future__ import annotations

from click.testing import CliRunner

import cli
from brec_runner.reports.patterns import unseen_lines, unseen_patterns
from brec_runner.runs.dataset import load_pairs
from wltools.hom.brute import hom_count_brute
from wltools.hom.families import family_patterns
from wltools.hom.witness import graph6

RUN = "reports/brec-runs/ds-gin-example-cpu"


def test_the_named_pattern_differs_and_no_smaller_family_pattern_does():
    rep = {"theory": {"upper": "swl-vs"}, "pairs_by_class": {"unrealised": [4, 24]}, "suite": None}
    found = unseen_patterns(rep, max_nodes=4)
    assert found["family"] == "known" and [p["id"] for p in found["pairs"]] == [4, 24]
    for p, pair in zip(found["pairs"], load_pairs(ids=[4, 24])):
        family = family_patterns("swl-vs", 4)
        F = next(F for F in family if graph6(F) == p["pattern"])
        assert (hom_count_brute(F, pair.g), hom_count_brute(F, pair.h)) == (p["hom_g"], p["hom_h"])
        assert p["hom_g"] != p["hom_h"]
        for smaller in family[:family.index(F)]:
            assert hom_count_brute(smaller, pair.g) == hom_count_brute(smaller, pair.h)
    assert any(line.startswith("- pair 4: pattern") for line in unseen_lines(found))


def test_a_bound_without_a_family_names_no_pattern():
    rep = {"theory": {"upper": "rrwp:17"}, "pairs_by_class": {"unrealised": [4]}, "suite": None}
    found = unseen_patterns(rep)
    assert found["pairs"] == [] and found["family"].startswith("no known family")


def test_cli_explain_section_and_refusal():
    runner = CliRunner()
    ok = runner.invoke(cli.cli, ["brec", "report", RUN, "--explain"])
    assert ok.exit_code == 0, ok.output
    assert "## Patterns the model failed to see (bound swl-vs" in ok.output and "- pair 4: pattern Bw" in ok.output
    bad = runner.invoke(cli.cli, ["brec", "report", RUN, "--explain", "--no-theory"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "--explain needs" in bad.output
