"""Verdict-only runs of brec_runner.reports.theory (what the claims ask): their own cache file, bound to
its settings, never served as a full record; full records answer them too."""

from __future__ import annotations

import json

import pytest

from brec_runner.reports import theory as th
from brec_runner.runs import dataset as ds
from wltools.refine.kernel import verdict_only_active


class _Result:
    def __init__(self, test, distinguished, quick):
        self.test, self.distinguished, self.quick = test, distinguished, quick

    def to_dict(self):
        return {"test": self.test, "distinguished": self.distinguished,
                "reason": "histogram" if self.distinguished else "none",
                "iteration": 1 if self.distinguished else None,
                "iterations": None if self.quick and self.distinguished else 3,
                "class_sizes": [[], []] if self.quick else [[1], [1]], "witness": "" if self.quick else "full"}


@pytest.fixture
def calls(monkeypatch, tmp_path):
    """A stand-in refine_pair recording ``(pair id, whether it ran inside verdict_only)``."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path))
    seen = []
    pairs = ds.load_pairs(ids=range(0, 6))

    def refine_pair(g, h, test, *, rrwp_steps=None, fast=True):
        pid = next(p.id for p in pairs if p.g is g)
        seen.append((pid, verdict_only_active()))
        return _Result(test, pid % 2 == 0, verdict_only_active())

    monkeypatch.setattr(th, "_refine_fn", lambda: refine_pair)
    return seen


def test_verdict_only_runs_refine_inside_the_flag_and_cache_in_their_own_file(calls, tmp_path):
    v = th.theory_verdicts(["spd"], ids="0-3", verdict_only=True)
    assert calls == [(i, True) for i in range(4)]
    assert [v[i]["spd"]["distinguished"] for i in range(4)] == [True, False, True, False]
    (only,) = (tmp_path / "theory").glob("spd-*.jsonl")
    assert "-verdicts-" in only.name
    assert {json.dumps(json.loads(line)["settings"], sort_keys=True) for line in only.read_text().splitlines()} == {
        json.dumps({"rrwp_steps": None, "fast": True, "verdict_only": True}, sort_keys=True)}
    stats = {}
    th.theory_verdicts(["spd"], ids="0-3", verdict_only=True, stats=stats)
    assert stats == {"computed": 0, "cached": 4} and len(calls) == 4
    # a full run never reads them: it refines every pair again, outside the flag
    full = th.theory_verdicts(["spd"], ids="0-3")
    assert calls[4:] == [(i, False) for i in range(4)] and full[0]["spd"]["witness"] == "full"


def test_full_records_answer_a_verdict_only_run(calls):
    th.theory_verdicts(["spd"], ids="0-3")
    stats = {}
    v = th.theory_verdicts(["spd"], ids="0-5", verdict_only=True, stats=stats)
    assert stats == {"computed": 2, "cached": 4} and calls[4:] == [(4, True), (5, True)]
    assert v[0]["spd"]["witness"] == "full" and v[4]["spd"]["witness"] == ""


def test_a_verdict_only_file_copied_over_the_full_cache_is_never_served(calls, tmp_path, capsys):
    th.theory_verdicts(["spd"], ids="0-3", verdict_only=True)
    (only,) = (tmp_path / "theory").glob("spd-*-verdicts-*.jsonl")
    full = only.with_name(only.name.replace("-verdicts", ""))
    full.write_bytes(only.read_bytes())
    capsys.readouterr()
    v = th.theory_verdicts(["spd"], ids="0-3")
    assert calls[4:] == [(i, False) for i in range(4)] and all(v[i]["spd"]["witness"] == "full" for i in range(4))
    assert "4 line(s) of another test, other settings or other graphs" in capsys.readouterr().err
