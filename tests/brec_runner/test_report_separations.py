"""A certified-suite report says, per ordered test pair (A, B), how many of the pairs run that B
separates and A does not the model realised (brec_runner.reports.separations).

The made-up model realises exactly the pairs SWL(VS) distinguishes, decided here by refining each
pair with :func:`wltools.refine.refine_pair`, not read from the suite's tags: then every pair tagged
(A, swl-vs) must count as realised and none tagged (swl-vs, B), whatever the tags say."""

import json

import pytest
from fake_runs import unit_record, write_run

from brec_runner.reports.report import build_report, format_report
from brec_runner.reports.separations import separation_rows
from brec_runner.runs.protocol import Protocol
from wltools.refine import refine_pair
from wltools.suites import suite_pairs

PAIRS = list(range(2, 17))  # pairs 0 and 1 have too few distinct relabellings to be run


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def swl_vs():
    return {p.id: refine_pair(p.g, p.h, "swl-vs").distinguished for p in suite_pairs("certified", PAIRS)}


def _records(verdicts, seed=0, unreliable=()):
    return [unit_record(pid, seed, dist, rel=pid not in unreliable, category="certified")
            for pid, dist in verdicts.items()]


def test_a_model_that_realises_exactly_its_class(swl_vs):
    rows = separation_rows("certified", _records(swl_vs))
    assert rows
    inside = [r for r in rows if r["b"] == "swl-vs"]
    beyond = [r for r in rows if r["a"] == "swl-vs"]
    assert inside and beyond
    for r in inside:
        assert r["realised"] == [len(r["pairs"])], r
    for r in beyond:
        assert r["realised"] == [0], r
    tagged = {pid: p.meta["separates"] for pid, p in ((p.id, p) for p in suite_pairs("certified", PAIRS))}
    for r in rows:  # every pair listed under (a, b) carries that tag, and every tag is listed
        assert all([r["a"], r["b"]] in tagged[pid] for pid in r["pairs"])
    assert sum(len(r["pairs"]) for r in rows) == sum(len(t) for t in tagged.values())


def test_a_reliability_failure_is_not_realised_and_seeds_are_counted_apart(swl_vs):
    realised = sorted(pid for pid, d in swl_vs.items() if d)
    bad = realised[0]
    rows = separation_rows("certified", _records(swl_vs) + _records(swl_vs, seed=1, unreliable={bad}))
    hit = [r for r in rows if bad in r["pairs"] and r["b"] == "swl-vs"]
    assert hit
    for r in hit:
        assert r["realised"] == [len(r["pairs"]), len(r["pairs"]) - 1]


def test_other_suites_and_brec_have_no_rows():
    assert separation_rows(None, [unit_record(0, 0, True)]) == []
    assert separation_rows("csl", [unit_record(0, 0, True, category="csl")]) == []


def test_the_report_shows_the_rows_of_its_declared_class(tmp_path, swl_vs):
    config = {"model": "mine.py:model", "model_kind": "external", "preset": None, "model_overrides": {},
              "protocol": Protocol().to_dict(), "device_type": "cpu", "device": "cpu", "pairs": PAIRS,
              "seeds": [0], "suite": "certified",
              "bound": {"lower": None, "upper": "swl-vs", "class": "SWL(VS)", "note": "", "rrwp_steps": None}}
    d = write_run(tmp_path / "run", config, _records(swl_vs))
    rep = build_report([d], theory=False)
    assert rep["separations"] == json.loads(json.dumps(separation_rows("certified", _records(swl_vs))))
    text = format_report(rep)
    assert "## Pairs by the tests they separate" in text
    inside = [r for r in rep["separations"] if r["b"] == "swl-vs"]
    r = inside[0]
    assert f"- {r['a']} from swl-vs (inside its class): {len(r['pairs'])} of {len(r['pairs'])}" in text
