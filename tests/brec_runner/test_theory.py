"""Tests of brec_runner.reports.theory: cache logic (with a stand-in refinement) and the published counts
(with wltools.refine)."""

from __future__ import annotations

import csv
import json

import pytest

from brec_runner.reports import theory as th
from brec_runner.reports import theory_report as tr
from brec_runner.runs import dataset as ds
from wltools.errors import UnknownNameError


class _FakeResult:
    def __init__(self, test, distinguished):
        self.test, self.distinguished = test, distinguished

    def to_dict(self):
        return {"test": self.test, "distinguished": self.distinguished,
                "reason": "histogram" if self.distinguished else "none",
                "iteration": 1 if self.distinguished else None, "iterations": 2,
                "class_sizes": [[1], [1]], "witness": "fake"}


@pytest.fixture
def fake_refine(monkeypatch, tmp_path):
    """A stand-in refine_pair recording its calls, with verdicts fixed by the pair id."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path))
    calls = []

    def refine_pair(g, h, test, *, rrwp_steps=None, fast=True):
        pid = next(p.id for p in ds.load_pairs(ids=range(0, 12)) if p.g is g)
        calls.append((pid, test, rrwp_steps))
        hit = {"1wl": False, "spd": pid % 3 == 0, "rrwp": pid % 2 == 0, "3wl": pid % 2 == 0 or pid % 3 == 0}
        return _FakeResult(test, hit.get(test, False))

    monkeypatch.setattr(th, "_refine_fn", lambda: refine_pair)
    return calls


def test_verdicts_cached_and_recomputed_only_when_settings_change(fake_refine, monkeypatch):
    v = th.theory_verdicts(["1wl", "spd"], ids="0-5")
    assert sorted(v) == list(range(6)) and len(fake_refine) == 12
    assert v[3]["spd"]["distinguished"] is True and v[4]["spd"]["distinguished"] is False
    assert v[0]["1wl"]["seconds"] >= 0 and v[0]["1wl"]["witness"] == "fake"
    # same settings: nothing recomputed, same records
    stats = {}
    v2 = th.theory_verdicts(["spd", "1wl"], ids="0-5", stats=stats)
    assert len(fake_refine) == 12 and v2 == v and stats == {"computed": 0, "cached": 12}
    # a superset of pairs: only the new ones
    th.theory_verdicts(["spd"], ids="0-7")
    assert len(fake_refine) == 14
    # rrwp: recomputed per K
    th.theory_verdicts(["rrwp"], rrwp_steps=4, ids="0-1")
    th.theory_verdicts(["rrwp"], rrwp_steps=4, ids="0-1")
    th.theory_verdicts(["rrwp"], rrwp_steps=5, ids="0-1")
    assert [c for c in fake_refine if c[1] == "rrwp"] == [(0, "rrwp", 4), (1, "rrwp", 4), (0, "rrwp", 5), (1, "rrwp", 5)]
    # the default K is the CLI's
    th.theory_verdicts(["rrwp"], ids="0")
    assert fake_refine[-1] == (0, "rrwp", th.DEFAULT_RRWP_STEPS)
    # a new code version recomputes
    monkeypatch.setattr(th, "code_version", lambda: "other")
    th.theory_verdicts(["1wl"], ids="0-1")
    assert fake_refine[-2:] == [(0, "1wl", 32), (1, "1wl", 32)]
    # use_cache=False always recomputes
    n = len(fake_refine)
    th.theory_verdicts(["1wl"], ids="0-1", use_cache=False)
    assert len(fake_refine) == n + 2


def test_a_cache_file_copied_from_another_test_is_never_served(fake_refine, tmp_path, capsys):
    """The spd cache copied over the 1wl one: every line is spd's, so none answers 1-WL (a report
    would else show pairs 1-WL cannot separate as separated by theory)."""
    th.theory_verdicts(["1wl", "spd"], ids="0-5")
    (spd,) = (tmp_path / "theory").glob("spd-*.jsonl")
    (wl1,) = (tmp_path / "theory").glob("1wl-*.jsonl")
    wl1.write_bytes(spd.read_bytes())
    capsys.readouterr()
    n = len(fake_refine)
    v = th.theory_verdicts(["1wl"], ids="0-5")
    assert not any(v[i]["1wl"]["distinguished"] for i in range(6))
    assert len(fake_refine) == n + 6  # all recomputed
    err = capsys.readouterr().err
    assert "6 line(s) of another test, other settings or other graphs" in err and str(wl1) in err
    assert all(json.loads(line)["test"] == "1wl" for line in wl1.read_text().splitlines())  # rewritten


def test_a_single_cache_line_copied_from_another_test_or_pair_is_recomputed(fake_refine, tmp_path, capsys):
    th.theory_verdicts(["1wl", "spd"], ids="0-5")
    (spd,) = (tmp_path / "theory").glob("spd-*.jsonl")
    (wl1,) = (tmp_path / "theory").glob("1wl-*.jsonl")
    spd3 = next(line for line in spd.read_text().splitlines() if json.loads(line)["id"] == 3)
    assert json.loads(spd3)["distinguished"] is True  # spd separates pair 3, 1-WL does not
    lines = [spd3 if json.loads(line)["id"] == 3 else line for line in wl1.read_text().splitlines()]
    # and pair 4's line relabelled as pair 5's, its checksum made good again: another pair's graphs
    from brec_runner.records.identity import record_checksum

    rec4 = {k: v for k, v in json.loads(next(x for x in lines if json.loads(x)["id"] == 4)).items() if k != "check"}
    rec4 = {**rec4, "id": 5, "distinguished": True}
    lines = [json.dumps({**rec4, "check": record_checksum(rec4)}) if json.loads(x)["id"] == 5 else x for x in lines]
    wl1.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    n = len(fake_refine)
    v = th.theory_verdicts(["1wl"], ids="0-5")
    assert fake_refine[n:] == [(3, "1wl", 32), (5, "1wl", 32)]  # only those two recomputed
    assert not v[3]["1wl"]["distinguished"] and not v[5]["1wl"]["distinguished"]
    assert "2 line(s) of another test, other settings or other graphs" in capsys.readouterr().err


def test_cache_lines_carry_their_test_settings_and_graphs(fake_refine, tmp_path):
    th.theory_verdicts(["rrwp"], rrwp_steps=4, ids="0-1")
    (path,) = (tmp_path / "theory").glob("rrwp-k4-*.jsonl")
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    pairs = {p.id: p for p in ds.load_pairs(ids=[0, 1])}
    assert [(r["test"], r["settings"], r["graphs"]) for r in recs] == [
        ("rrwp", {"rrwp_steps": 4, "fast": True}, th.pair_fingerprint(pairs[r["id"]])) for r in recs]
    assert th.pair_fingerprint(pairs[0]) != th.pair_fingerprint(pairs[1])
    v = th.theory_verdicts(["rrwp"], rrwp_steps=4, ids="0-1")
    assert not {"test", "settings", "graphs", "check"} & set(v[0]["rrwp"])  # callers see the verdict only


def test_torn_cache_line_is_recomputed(fake_refine, tmp_path):
    th.theory_verdicts(["spd"], ids="0-2")
    (path,) = (tmp_path / "theory").glob("spd-*.jsonl")
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    th.theory_verdicts(["spd"], ids="0-2")
    assert len(fake_refine) == 4


def test_code_version_is_a_stable_hash():
    assert th.code_version() == th.code_version() and len(th.code_version()) == 16


def test_code_version_covers_every_source_the_verdicts_import():
    """The closure holds the layers the verdicts depend on beyond refine/ and distances/ (the
    isomorphism layer, labels, graph validation, the tests' registry) and the libraries that
    compute them."""
    from brec_runner.records import source_closure as sc

    closure = sc.import_closure(th.VERDICT_ENTRIES, "wltools")
    for module in ("wltools.iso", "wltools.graphs.labels", "wltools.graphs.validation", "wltools.refine.names",
                   "wltools.refine.engine", "wltools.refine.batch", "wltools.distances.spd"):
        assert module in closure, module
    assert not any(name.startswith(("wltools.models", "wltools.draw")) for name in closure)  # no training, no drawing
    assert {"numpy", "networkx", "pynauty", "igraph"} <= set(sc.imported_libraries(th.VERDICT_ENTRIES, "wltools"))


def test_an_edited_copy_of_an_imported_file_changes_the_code_version(tmp_path, monkeypatch):
    """``wltools/iso/__init__.py`` (not under refine/ or distances/) served from an edited copy: a new key."""
    from brec_runner.records import source_closure as sc

    before = th.code_version()
    copy = tmp_path / "iso.py"
    original = sc._origin("wltools.iso")
    copy.write_bytes(original.read_bytes())
    monkeypatch.setattr(sc, "_MEMO", {})
    monkeypatch.setattr(sc, "_origin", lambda name, real=sc._origin: copy if name == "wltools.iso" else real(name))
    assert th.code_version() == before  # the same bytes: the same key
    copy.write_bytes(original.read_bytes() + b"\n# an edit\n")
    assert th.code_version() != before


def test_a_library_upgrade_changes_the_code_version(monkeypatch):
    from brec_runner.records import source_closure as sc

    before = th.code_version()
    real = sc.metadata.version
    monkeypatch.setattr(sc.metadata, "version", lambda name: "9.9" if name == "pynauty" else real(name))
    assert th.code_version() != before


def test_the_closure_follows_moves_and_new_imports(tmp_path, monkeypatch):
    """A package tree of its own: function-local and relative imports are followed, a module nobody
    imports is not part of the key, and adding an import (or moving code into a new file) is."""
    from brec_runner.records import source_closure as sc

    pkg = tmp_path / "pkgx"
    (pkg / "deep").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "deep" / "__init__.py").write_text("")
    (pkg / "entry.py").write_text("def f():\n    from .helpers import g\n    return g()\n")
    (pkg / "helpers.py").write_text("import numpy\nfrom pkgx.deep import leaf\n\ndef g():\n    return leaf.x\n")
    (pkg / "deep" / "leaf.py").write_text("x = 1\n")
    (pkg / "unused.py").write_text("y = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sc, "_MEMO", {})
    key = lambda: sc.sources_digest(["pkgx.entry"], "pkgx")  # noqa: E731
    assert set(sc.import_closure(["pkgx.entry"], "pkgx")) == {
        "pkgx", "pkgx.entry", "pkgx.helpers", "pkgx.deep", "pkgx.deep.leaf"}
    assert sc.imported_libraries(["pkgx.entry"], "pkgx") == ["numpy"]
    k0 = key()
    (pkg / "unused.py").write_text("y = 3\n")
    assert key() == k0  # not imported: not part of the key
    (pkg / "deep" / "leaf.py").write_text("x = 2\n")
    k1 = key()
    assert k1 != k0  # an edit two imports away
    (pkg / "moved.py").write_text("z = 1\n")
    (pkg / "helpers.py").write_text((pkg / "helpers.py").read_text() + "from . import moved\n")
    assert "pkgx.moved" in sc.import_closure(["pkgx.entry"], "pkgx") and key() != k1


def test_parse_tests():
    assert th.parse_tests(None) == th.DEFAULT_TESTS
    assert th.parse_tests("SPD, 1wl,spd") == ("spd", "1wl")
    for bad in ("foo", "", ["1wl", "2wl"]):
        with pytest.raises(UnknownNameError):
            th.parse_tests(bad)


def test_counts_containment_and_report(fake_refine, tmp_path):
    rep = tr.run_theory(["1wl", "spd", "rrwp", "3wl"], 3, ids="0-11")
    v = rep.verdicts
    assert th.distinguished_ids(v, "spd") == {0, 3, 6, 9}
    assert th.category_counts(v, "rrwp") == {"basic": (6, 12), "all": (6, 12)}
    assert th.containment_violations(v) == {}
    # a violation is reported (pair 5 is not in the stand-in's 3-WL set)
    v[5]["1wl"] = dict(v[5]["1wl"], distinguished=True)
    assert th.containment_violations(v) == {"1wl": [5]}
    v[5]["1wl"] = dict(v[5]["1wl"], distinguished=False)
    paths = tr.write_report(rep, tmp_path / "out")
    doc = json.loads(paths["json"].read_text())
    assert doc["settings"]["rrwp_steps"] == 3 and doc["settings"]["pairs"] == 12
    assert doc["counts"]["spd"]["basic"] == [4, 12]
    rec = doc["pairs"][0]["tests"]["spd"]
    assert rec["classes"] == [1, 1] and "class_sizes" not in rec and rec["distinguished"] is True
    rows = list(csv.DictReader(paths["csv"].open()))
    assert len(rows) == 12 * 4 and rows[0]["category"] == "basic"
    md = paths["markdown"].read_text()
    assert "| basic | 0 / 12 | 4 / 12 | 6 / 12 | 8 / 12 |" in md
    assert "rrwp (K=3)" in md and "Every pair distinguished by a test 3-WL bounds" in md


# ----------------------------------------------------------------------------- real refinement


def _check_published(verdicts, rows):
    for test, by_cat in th.PUBLISHED.items():
        counts = th.category_counts(verdicts, test)
        for cat in rows:
            assert counts[cat] == (by_cat[cat], len(ds.CATEGORY_IDS[cat])), (test, cat)


def test_published_counts_on_small_categories(tmp_path, monkeypatch):
    """1-WL, SPD-WL and 3-WL on Basic and simple regular (BREC Table 2): 0/0, 16/14, 60/50."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path))
    v = th.theory_verdicts(["1wl", "spd", "3wl"], categories=["basic", "simple_regular"])
    _check_published(v, ["basic", "simple_regular"])
    assert th.containment_violations(v) == {}


def test_published_counts_all_pairs(brec_theory):
    """All 400 pairs, all tests: the published counts per category, and every test inside 3-WL
    (the session's theory cache, shared with the other checks that read BREC verdicts)."""
    per_test = {t: brec_theory(t) for t in th.DEFAULT_TESTS}
    v = {pid: {t: per_test[t][pid] for t in th.DEFAULT_TESTS} for pid in per_test["1wl"]}
    _check_published(v, [c for c in th.PUBLISHED["3wl"]])
    assert sum(th.category_counts(v, "spd")["all"][:1]) == 83
    assert th.category_counts(v, "3wl")["all"][0] == 270
    assert th.category_counts(v, "1wl")["all"][0] == 0
    assert th.containment_violations(v) == {}


def test_tests_3wl_does_not_bound_are_not_containment_violations():
    """S4, the ego-network tests, M2 and 4-WL separate pairs 3-WL does not (BREC's strongly
    regular pairs): listed apart, never as violations; a test 3-WL bounds still is one."""
    rec = lambda d: {"distinguished": d}  # noqa: E731
    v = {110: {"3wl": rec(False), "s4": rec(True), "n2": rec(True), "m2": rec(True), "3fwl": rec(True),
               "sswl": rec(False), "m1": rec(False)},
         0: {"3wl": rec(True), "s4": rec(True), "n2": rec(False), "m2": rec(True), "3fwl": rec(True),
             "sswl": rec(True), "m1": rec(True)}}
    assert th.containment_violations(v) == {}
    assert th.containment_violations(v, beyond=True) == {"3fwl": [110], "m2": [110], "n2": [110], "s4": [110]}
    v[110]["m1"] = rec(True)
    assert th.containment_violations(v) == {"m1": [110]}


def test_the_cache_key_from_shipped_text_is_the_parsed_pairs_key():
    """theory_verdicts keys its cache from the shipped graph6 text without parsing the graphs; the
    key must be the one of the parsed pair (every BREC pair)."""
    from brec_runner.runs.dataset import load_pairs, raw_graph6

    for pair in load_pairs():
        assert th.graph6_fingerprint(raw_graph6(pair.id)) == th.pair_fingerprint(pair), pair.id
