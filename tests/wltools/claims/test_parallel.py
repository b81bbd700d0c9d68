"""wltools.claims.parallel: claims verified in worker processes give the results, in the order, of
running them one after the other, and a verdict several claims read is computed once."""

import os

import pytest

from wltools.claims.inputs import select_pairs
from wltools.claims.parallel import VerdictTable, needed_units, verify_claims
from wltools.claims.registry import Claim, ClaimResult
from wltools.claims.grit import brec_table, verdict_units
from wltools.claims.epwl import suite_tally

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forked")


def _reading(name, tests, suites=()):
    """A claim reading ``tests`` on the BREC pairs 0-5 (through theory_verdicts) and on ``suites``."""

    def check(*, pairs=None, theory_verdicts=None, brec_ids=(0, 1, 2, 3, 4, 5), suites=suites):
        table = brec_table(tests, select_pairs(pairs, brec_ids), theory_verdicts)
        rows = suite_tally(suites, tests, None, None)
        return ClaimResult("PASS", f"{name}: {sum(v for r in table.values() for v in r.values())} yes",
                           {"brec": table, "suites": rows, "pid": os.getpid()})

    def needs(*, pairs=None, theory_verdicts=None, brec_ids=None, suites=(), **_):
        return verdict_units(pairs, brec_ids, tests, theory_verdicts, suites)

    return Claim(name, "s", "src", "brec", check, inputs=("pairs",), needs=needs)


def _free(name):
    """A claim that reads no verdicts."""
    return Claim(name, "s", "src", "exhaustive", lambda: ClaimResult("PASS", f"{name}: nothing read", {"pid": os.getpid()}))


@pytest.fixture
def counted(tmp_path, brec):
    """theory_verdicts by refine_pair on the BREC pairs, each call logged to a file (the calls
    happen in worker processes)."""
    from wltools.refine import refine_pair

    log = tmp_path / "calls"

    def theory_verdicts(test, ids, rrwp_steps=None):
        with open(log, "a") as f:
            f.write(f"{test}\n")
        return {i: refine_pair(brec[i].g, brec[i].h, test).distinguished for i in ids}

    return theory_verdicts, log


def test_two_workers_give_the_results_of_one_in_order_and_compute_each_verdict_once(brec, counted):
    theory_verdicts, log = counted
    claims = [_reading("a", ["1wl", "spd"], ("sr16",)), _free("f"),
              _reading("b", ["spd", "rd"], ("sr16", "sr28")), _reading("c", ["1wl"])]
    params = {"pairs": brec, "theory_verdicts": theory_verdicts}
    seen = []
    one = verify_claims(claims, params, workers=1)
    log.unlink()
    two = verify_claims(claims, params, workers=2, done=lambda c, r: seen.append(c.id))
    assert [c.id for c, _ in two] == ["a", "f", "b", "c"] and sorted(seen) == ["a", "b", "c", "f"]
    for (_, r1), (_, r2) in zip(one, two):
        e1, e2 = dict(r1.evidence), dict(r2.evidence)
        e1.pop("pid", None), e2.pop("pid", None)
        assert (r1.status, r1.summary, e1, r1.witness) == (r2.status, r2.summary, e2, r2.witness)
    assert sorted(log.read_text().split()) == ["1wl", "rd", "spd"]  # once each, though read 5 times
    assert two[0][1].evidence["pid"] != os.getpid()  # it did run elsewhere


def test_needed_units_are_distinct_and_skip_claims_missing_an_input(brec, counted):
    theory_verdicts, _ = counted
    claims = [_reading("a", ["1wl", "spd"], ("csl",)), _reading("b", ["spd"], ("csl",))]
    units = needed_units(claims, {"pairs": brec, "theory_verdicts": theory_verdicts, "brec_ids": [3, 4]})
    assert units == [("brec", "1wl", None, (3, 4)), ("brec", "spd", None, (3, 4)),
                     ("suite", "csl", "1wl", None), ("suite", "csl", "spd", None)]
    assert needed_units(claims, {"theory_verdicts": theory_verdicts}) == []  # no pairs: ERROR, not work


def test_a_failing_unit_leaves_the_claim_to_report_it():
    def broken(test, ids, rrwp_steps=None):
        raise RuntimeError("no cache today")

    claims = [_reading("a", ["1wl"]), _reading("b", ["1wl"])]
    pairs = [type("P", (), {"id": i, "g": None, "h": None, "category": "x"})() for i in range(6)]
    out = verify_claims(claims, {"pairs": pairs, "theory_verdicts": broken}, workers=2)
    assert [r.status for _, r in out] == ["ERROR", "ERROR"]
    assert all("no cache today" in r.summary for _, r in out)


def test_verdict_table_answers_from_the_table_and_asks_the_source_for_the_rest():
    asked = []

    def source(test, ids, rrwp_steps=None):
        asked.append((test, list(ids), rrwp_steps))
        return {i: i % 2 == 0 for i in ids}

    t = VerdictTable(source)
    t.add("spd", None, {1: True, 2: False})
    assert t("spd", [2, 1]) == {2: False, 1: True} and asked == []
    assert t("spd", [1, 3]) == {1: False, 3: False} and asked == [("spd", [1, 3], None)]
    assert t("rrwp", [1], 32) == {1: False} and t("rrwp", [1], 32) == {1: False} and len(asked) == 2
