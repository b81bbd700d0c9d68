"""Tests of wltools.suites: data integrity, generation against published counts, pairs, verdicts."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path
from collections import Counter

import networkx as nx
import numpy as np
import pytest

import wltools.suites as suites
from wltools.errors import DataIntegrityError, UnknownNameError
from wltools.refine import refine_pair
from wltools.suites import csl, graph8c, sr
from wltools.suites.base import CHECKSUMS, DATA_DIR, check_file
from wltools.suites.theory import counts, parse_tests, render, suite_theory

PAIR_COUNTS = {"csl": 45, "exp": 600, "sr25": 105, "graph8c": 312, "exp-ppgn": 600, "cexp": 600,
               "certified": 17, "sr16": 1, "sr26": 45, "sr28": 6, "sr29": 820, "sr40": 378}


# ------------------------------------------------------------------ files and provenance


def test_every_committed_file_has_its_checksum():
    on_disk = {p.relative_to(DATA_DIR).as_posix() for p in DATA_DIR.rglob("*") if p.is_file()} - {"README.md"}
    assert on_disk == set(CHECKSUMS)
    for rel, digest in CHECKSUMS.items():
        assert hashlib.sha256((DATA_DIR / rel).read_bytes()).hexdigest() == digest, rel


def test_readme_states_the_same_checksums_and_licences():
    text = (DATA_DIR / "README.md").read_text()
    for rel, digest in CHECKSUMS.items():
        assert re.search(rf"`{re.escape(rel)}`\s*\|[^\n]*`{digest}`", text), rel
    assert "GPL" in text and "MIT" in text


def test_a_changed_file_is_refused(monkeypatch):
    monkeypatch.setitem(CHECKSUMS, "sr/sr16622.g6", "0" * 64)
    with pytest.raises(DataIntegrityError, match="sha256"):
        check_file("sr/sr16622.g6")


# ------------------------------------------------------------------ registry and pairs


def test_registry_names_and_pair_counts():
    assert [s.name for s in suites.list_suites()] == list(PAIR_COUNTS)
    assert [s.name for s in suites.list_suites() if s.core] == ["csl", "exp", "sr25", "graph8c"]
    for name, k in PAIR_COUNTS.items():
        assert len(suites.suite_data(name).pairs) == k, name
    with pytest.raises(UnknownNameError, match="unknown suite"):
        suites.get_suite("sr35")


def test_pair_has_the_runner_fields():
    from brec_runner.runs.dataset import BrecPair

    assert [f.name for f in dataclasses.fields(suites.SuitePair)] == [f.name for f in dataclasses.fields(BrecPair)]
    p = suites.suite_pairs("exp", ids=[3])[0]
    assert (p.id, p.category, p.subcategory) == (3, "exp", "exp")
    assert p.meta["graphs"] == [6, 7] and p.meta["source"] == ["exp/exp.g6 line 6", "exp/exp.g6 line 7"]
    assert nx.is_frozen(p.g) and nx.is_frozen(p.h)
    assert set(p.g.nodes) == set(range(p.g.number_of_nodes()))
    assert len(p.meta["node_types"][0]) == p.meta["n"][0]
    parsed = nx.from_graph6_bytes(p.meta["graph6"][0].encode())
    assert sorted(map(sorted, parsed.edges())) == sorted(map(sorted, p.g.edges()))
    with pytest.raises(UnknownNameError):
        suites.suite_pairs("exp", ids=[600])
    assert suites.parse_pair_ids("sr25", "0-2,104") == [0, 1, 2, 104]
    with pytest.raises(UnknownNameError):
        suites.parse_pair_ids("sr25", "3-1")


def test_graph6_text_is_networkx_graph6():
    """The pairs' graph6 (:func:`wltools.suites.base.graph6_text`, by numpy) is networkx's, across
    the header's one- and four-byte orders, for nodes in any order, and on suite pairs."""
    from wltools.suites.base import graph6_text

    def nx6(G):
        return nx.to_graph6_bytes(G, header=False).decode("ascii").strip()

    for n in [0, 1, 2, 5, 6, 7, 61, 62, 63, 64, 100]:
        for p in (0.0, 0.3, 1.0):
            G = nx.gnp_random_graph(n, p, seed=n)
            assert graph6_text(G) == nx6(G), (n, p)
    G = nx.Graph()
    G.add_nodes_from(np.random.default_rng(0).permutation(20).tolist())
    G.add_edges_from(nx.gnp_random_graph(20, 0.3, seed=1).edges())
    assert graph6_text(G) == nx6(G)
    for name in ("exp", "sr25"):  # irregular and regular, read by other tests of this file anyway
        for p in suites.suite_pairs(name, ids=[0, 1, PAIR_COUNTS[name] - 1]):
            assert p.meta["graph6"] == [nx6(p.g), nx6(p.h)], name


def test_runner_relabelings_work_on_suite_pairs():
    from brec_runner.runs.dataset import relabelings

    from wltools.iso import certificate

    p = suites.suite_pairs("sr25", ids=[7])[0]
    graphs = relabelings(p, seed=0, num=3)
    assert [certificate(G) for G in graphs[0::2]] == [certificate(p.g)] * 3
    assert [certificate(G) for G in graphs[1::2]] == [certificate(p.h)] * 3


#: The graph8c checks that generate every connected graph on 8 vertices (about 4 s of CPU):
#: together, so that graph8c.generated_certificates generates them once per run.
_GENERATION = pytest.mark.xdist_group("graph8c-generation")


@pytest.mark.parametrize("name", [pytest.param(n, marks=_GENERATION) if n == "graph8c" else n for n in PAIR_COUNTS])
def test_verify_data(name):
    summary = suites.verify_suite_data(name)
    assert summary["pairs"] == PAIR_COUNTS[name]


# ------------------------------------------------------------------ CSL


def test_csl_generated_as_published():
    data = csl.csl_graphs(seed=0)
    assert len(data) == 150 and Counter(y for _, y in data) == {k: 15 for k in range(10)}
    for k, s in enumerate(csl.SKIPS):
        G = data[15 * k][0]
        assert sorted(G.edges()) == sorted(csl.circulant_skip(41, s).edges())
        assert G.number_of_edges() == 82 and {d for _, d in G.degree()} == {4}
    # relabelled copies differ as labelled graphs but are isomorphic
    assert len({frozenset(map(frozenset, G.edges())) for G, y in data if y == 0}) == 15
    assert [p.meta["skips"] for p in suites.suite_pairs("csl")][:2] == [[2, 3], [2, 4]]
    # seeded: the same seed gives the same copies, another seed other ones
    assert nx.utils.graphs_equal(csl.csl_graphs(seed=0)[1][0], data[1][0])
    assert not nx.utils.graphs_equal(csl.csl_graphs(seed=1)[1][0], data[1][0])


# ------------------------------------------------------------------ graph8c


def test_canonical_augmentation_counts_for_small_n():
    for n in range(1, 8):
        graphs = graph8c.generate_connected(n)
        assert len(graphs) == graph8c.CONNECTED_COUNTS[n]
        assert len(set(graph8c.certificates(graphs))) == len(graphs)
        assert all(nx.is_connected(G) for G in graphs)
    # against networkx's atlas (all graphs up to 7 nodes)
    atlas7 = [G for G in nx.graph_atlas_g() if G.number_of_nodes() == 6 and nx.is_connected(G)]
    assert set(graph8c.certificates(atlas7)) == set(graph8c.certificates(graph8c.generate_connected(6)))


@_GENERATION
def test_graph8c_file_is_every_connected_graph_on_8_vertices():
    """The file against the canonical augmentation's graphs (their certificates in generation
    order, generated once per process: test_verify_data[graph8c] compares the same)."""
    data = suites.suite_data("graph8c")
    certs = graph8c.certificates(data.graphs)
    generated = graph8c.generated_certificates(8)
    assert len(generated) == 11117 == len(set(certs))
    assert set(generated) == set(certs)


def test_graph8c_pairs_are_the_312_1wl_equivalent_ones():
    data = suites.suite_data("graph8c")
    classes = graph8c.wl1_classes(data.graphs)
    assert Counter(len(c) for c in classes) == {2: 157, 3: 4, 4: 5, 5: 7, 6: 1, 8: 1}
    assert len(data.pairs) == sum(len(c) * (len(c) - 1) // 2 for c in classes) == 312
    for i, j, _, _ in data.pairs:
        assert not refine_pair(data.graphs[i], data.graphs[j], "1wl").distinguished
    # and 1-WL separates other pairs with equal edge counts (a sample)
    rng = np.random.default_rng(0)
    inside = {(i, j) for i, j, _, _ in data.pairs}
    tried = 0
    while tried < 200:
        i, j = sorted(rng.choice(len(data.graphs), 2, replace=False).tolist())
        if (i, j) in inside or data.graphs[i].number_of_edges() != data.graphs[j].number_of_edges():
            continue
        assert refine_pair(data.graphs[i], data.graphs[j], "1wl").distinguished
        tried += 1


# ------------------------------------------------------------------ EXP, CEXP, SR


def test_the_two_exp_instances_share_only_two_classes():
    a = graph8c.certificates(suites.suite_data("exp").graphs)
    b = graph8c.certificates(suites.suite_data("exp-ppgn").graphs)
    assert len(set(a)) == len(set(b)) == 1200
    shared = set(a) & set(b)
    assert len(shared) == 2
    assert sorted(b.index(c) for c in shared) == [606, 607] and sorted(a.index(c) for c in shared) == [594, 595]


def test_cexp_subcategories():
    subs = Counter(p[2] for p in suites.suite_data("cexp").pairs)
    assert subs == {"added_edges": 300, "equal_edges": 300}


def test_srg_parameters():
    assert sr.srg_parameters(nx.petersen_graph()) == (10, 3, 0, 1)
    assert sr.srg_parameters(nx.cycle_graph(6)) is None
    for name, (_, params) in sr.FAMILIES.items():
        assert {sr.srg_parameters(G) for G in suites.suite_data(name).graphs} == {params}


# ------------------------------------------------------------------ verdicts


def test_parse_tests():
    assert parse_tests("epwl,1wl,epwl") == ("epwl", "1wl")
    with pytest.raises(UnknownNameError):
        parse_tests("")


@pytest.mark.parametrize("name", ["sr16", "sr25", "sr28"])
def test_srg_families_are_not_separated_by_any_test(name):
    th = suite_theory(name)
    assert all(d == 0 for d, _ in counts(th).values())
    for t, (n, _why) in suites.get_suite(name).expected.items():
        assert counts(th)[t][0] == n


@pytest.mark.xdist_group("suite-verdicts")  # the 1-WL verdicts of test_expected_counts_of_every_suite
def test_1wl_counts_on_exp_and_cexp():
    for name, expected in (("exp", 0), ("exp-ppgn", 0), ("cexp", 300)):
        th = suite_theory(name, "1wl")
        assert counts(th)["1wl"] == (expected, 600), name
        assert suites.get_suite(name).expected["1wl"][0] == expected


def test_csl_counts():
    th = suite_theory("csl", "1wl,spd,3wl,epwl")
    assert counts(th) == {"1wl": (0, 45), "spd": (44, 45), "3wl": (45, 45), "epwl": (45, 45)}


_COMMITTED_SUITES = ("csl", "exp", "graph8c", "sr16", "sr25", "sr26", "sr28", "certified")


@pytest.mark.xdist_group("suite-verdicts")  # with the claims that read the suites: refined once
@pytest.mark.parametrize("name", list(PAIR_COUNTS))
def test_expected_counts_of_every_suite(name):
    """Every pair of every suite; the refinements are shared (suite_theory's per-process memo,
    settings as in the committed tables) with the tables' check below and the claims."""
    suite = suites.get_suite(name)
    th = suite_theory(name, tuple(suite.expected))
    assert {t: counts(th)[t][0] for t in suite.expected} == {t: n for t, (n, _) in suite.expected.items()}


def test_render_formats():
    import csv
    import io
    import json

    th = suite_theory("sr28", "1wl,epwl", ids=[0, 5])
    md = render(th, "md")
    assert "| all | 0 / 2 | 0 / 2 |" in md and "EPWL" in md
    doc = json.loads(render(th, "json"))
    assert [p["id"] for p in doc["pairs"]] == [0, 5]
    assert set(doc["pairs"][0]["tests"]) == {"1wl", "epwl"}
    assert doc["pairs"][0]["tests"]["epwl"]["distinguished"] is False
    rows = list(csv.DictReader(io.StringIO(render(th, "csv"))))
    assert len(rows) == 4 and rows[0]["suite"] == "sr28"
    with pytest.raises(UnknownNameError):
        render(th, "xml")


_COMMITTED = Path(__file__).resolve().parents[3] / "reports" / "suites-theory"


#: Tests of a committed table whose full runs are recomputed on a fixed part of its suite only
#: (name -> (tests, pair ids)); on every pair, a verdict-only run of them
#: (:func:`wltools.refine.kernel.verdict_only`) recomputes the verdict and the first differing
#: iteration, and the counts. EPWL over A and L on EXP: no EXP pair is cospectral, so a verdict-only
#: run certifies each at round 1 by its characteristic polynomial (:func:`wltools.refine.epwl.spectra_differ`,
#: about 7x faster), where a full run builds walk keys of length n + 1 (33 to 73 nodes; about 40 s
#: for both tests on all 600 pairs). Every tenth pair (60 pairs, across the whole file) still gets
#: the full run and all four fields.
_ON_PART: dict[str, tuple[tuple[str, ...], range]] = {"exp": (("epwl", "epwl-lap"), range(0, 600, 10))}

_KEYS = ("distinguished", "reason", "iteration", "iterations")


@pytest.mark.xdist_group("suite-verdicts")
@pytest.mark.parametrize("name", _COMMITTED_SUITES)
def test_committed_theory_tables_are_reproduced(name):
    """``reports/suites-theory/NAME.json`` (the README's table) comes out again, pair by pair: the
    same pairs, counts, and per test the same verdict, reason, iteration and iteration count (the
    tests of :data:`_ON_PART`: verdict and iteration on every pair, all four on their part)."""
    import json

    doc = json.loads((_COMMITTED / f"{name}.json").read_text())
    st = doc["settings"]
    settings = {"rrwp_steps": st["rrwp_steps"], "fast": st["fast"]}
    part_tests, part = _ON_PART.get(name, ((), range(0)))
    whole_tests = tuple(t for t in st["tests"] if t not in part_tests)
    assert set(suites.get_suite(name).expected) <= set(whole_tests)  # the published counts: full runs, every pair
    again = json.loads(render(suite_theory(name, whole_tests, **settings), "json"))
    assert again["counts"] == {t: doc["counts"][t] for t in whole_tests}
    assert [p["id"] for p in again["pairs"]] == [p["id"] for p in doc["pairs"]]
    checked = _compare_pairs(doc["pairs"], again["pairs"], whole_tests, _KEYS)
    if part_tests:
        quick = suite_theory(name, part_tests, verdict_only=True, **settings)
        assert {t: list(c) for t, c in counts(quick).items()} == {t: doc["counts"][t] for t in part_tests}
        pairs = [{"id": p.id, "tests": quick.verdicts[p.id]} for p in quick.pairs]
        checked += _compare_pairs(doc["pairs"], pairs, part_tests, ("distinguished", "iteration"))
        full = json.loads(render(suite_theory(name, part_tests, ids=part, **settings), "json"))["pairs"]
        old = {p["id"]: p for p in doc["pairs"]}
        assert _compare_pairs([old[p["id"]] for p in full], full, part_tests, _KEYS) == len(part) * len(part_tests)
    assert checked == len(doc["pairs"]) * len(st["tests"])


def _compare_pairs(old: list[dict], new: list[dict], tests: tuple[str, ...], keys: tuple[str, ...]) -> int:
    """Assert that the records of ``tests`` agree on ``keys``, pair by pair; the records checked."""
    assert [p["id"] for p in new] == [p["id"] for p in old]
    for o, n in zip(old, new):
        for t in tests:
            assert {k: n["tests"][t][k] for k in keys} == {k: o["tests"][t][k] for k in keys}, (o["id"], t)
    return len(old) * len(tests)


def test_strongly_regular_suites_expect_what_the_tests_declare():
    """Each strongly regular suite expects 0 separated pairs exactly from the tests that declare why
    equal-parameter SRGs are equivalent under them (WLTest.srg_equal): 1-WL and 3-WL (2-FWL), EPWL
    over A and over L (polynomials in A); the counts themselves are computed by
    test_expected_counts_of_every_suite."""
    for name in ("sr16", "sr25", "sr26", "sr28", "sr29", "sr40"):
        expected = suites.get_suite(name).expected
        assert list(expected) == ["1wl", "3wl", "epwl", "epwl-lap"], name
        assert all(n == 0 and why for n, why in expected.values()), name
