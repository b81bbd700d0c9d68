"""Tests of wltools.check, the library side of `wltools check` / `wltools iso`: verdicts equal
refine_pair's, the isomorphism decision and its evidence, refusals before work, the time budget."""

from __future__ import annotations

import random
import time

import networkx as nx
import pytest

import wltools.iso
from wltools.check import LabellingFailed, check_pair, check_text, iso_text
from wltools.errors import ResourceLimitError
from wltools.refine import refine_pair


def _shuffled(G: nx.Graph, seed: int) -> nx.Graph:
    perm = list(range(G.number_of_nodes()))
    random.Random(seed).shuffle(perm)
    return nx.relabel_nodes(G, dict(enumerate(perm)))


@pytest.mark.parametrize("G, H", [
    (nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
    (nx.complete_bipartite_graph(3, 3), nx.circular_ladder_graph(3)),
    (nx.petersen_graph(), _shuffled(nx.petersen_graph(), 1)),
    (nx.path_graph(5), nx.star_graph(4)),
])
def test_verdicts_are_refine_pairs(G, H):
    tests = ("1wl", "spd", "3wl")
    c = check_pair(G, H, tests)
    assert [r.to_dict() for r in c.results] == [refine_pair(G, H, t).to_dict() for t in tests]
    assert c.isomorphic == nx.is_isomorphic(G, H)
    assert c.iso_status == "decided"
    assert not c.inconsistent


def test_invariant_witness_skips_labelling(monkeypatch):
    monkeypatch.setattr(wltools.iso, "canonical_form", lambda *a, **k: pytest.fail("labelled"))
    c = check_pair(nx.complete_bipartite_graph(3, 3), nx.circular_ladder_graph(3), ("1wl",))
    assert (c.isomorphic, c.iso_witness, c.forms) == (False, "triangles: 0 in G, 2 in H", None)
    assert "isomorphic: no (triangles: 0 in G, 2 in H); the graphs differ" in check_text(
        c, ("a", "b"), (nx.complete_bipartite_graph(3, 3), nx.circular_ladder_graph(3)))


def test_iso_always_labels_small_graphs():
    c = check_pair(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), (),
                   always_label_small=True)
    assert c.forms is not None and c.isomorphic is False
    assert iso_text(c).startswith("not isomorphic (certificates ")


def test_no_iso_and_proof_by_a_test(monkeypatch):
    monkeypatch.setattr(wltools.iso, "canonical_form", lambda *a, **k: pytest.fail("labelled"))
    P = nx.petersen_graph()
    c = check_pair(P, _shuffled(P, 2), ("1wl",), iso=False)
    assert (c.isomorphic, c.iso_status) == (None, "not checked")
    # with the invariants silenced (no BREC pair 0-259 separated by 1-WL or SPD-WL agrees in all
    # of them), a test that separates the graphs is the proof
    from wltools.iso import invariants as iso_invariants
    from wltools.graphs import load_graph

    monkeypatch.setattr(iso_invariants, "first_difference", lambda G, H: None)
    G, H = load_graph("decalin"), load_graph("bicyclopentyl")
    c = check_pair(G, H, ("spd",), iso=False)
    assert (c.isomorphic, c.iso_witness) == (False, "distinguished by spd")


def test_time_budget_kills_the_labelling(monkeypatch):
    def slow(*args, **kwargs):
        time.sleep(60)

    monkeypatch.setattr(wltools.iso, "canonical_form", slow)
    G = nx.cycle_graph(300)
    start = time.monotonic()
    c = check_pair(G, _shuffled(G, 3), ("1wl",), iso_timeout=0.3)
    assert time.monotonic() - start < 15
    assert (c.isomorphic, c.iso_status, c.forms) == (None, "undecided", None)
    assert c.results[0].distinguished is False
    assert "isomorphism undecided after 0.3 s" in check_text(c, ("a", "b"), (G, G))


def test_large_pair_labelled_in_child():
    G = nx.cycle_graph(300)
    c = check_pair(G, _shuffled(G, 4), (), iso_timeout=60)
    assert c.isomorphic is True and c.forms[0].method == "bliss"


def test_child_errors_are_one_line(monkeypatch):
    def refuse(*args, **kwargs):
        raise ResourceLimitError("labeller refused")

    monkeypatch.setattr(wltools.iso, "canonical_form", refuse)
    G = nx.cycle_graph(300)
    with pytest.raises(LabellingFailed, match="^labeller refused$"):
        check_pair(G, _shuffled(G, 5), ())


def test_refused_before_any_work(monkeypatch):
    import wltools.refine

    monkeypatch.setattr(wltools.refine, "refine_pair", lambda *a, **k: pytest.fail("refined"))
    G = nx.cycle_graph(2000)
    with pytest.raises(ResourceLimitError):
        check_pair(G, G, ("3wl",), max_memory=10**6)


def test_rrwp_steps_lowered_with_a_note():
    c = check_pair(nx.cycle_graph(5), nx.cycle_graph(5), ("rrwp",), rrwp_steps=50)
    assert c.rrwp_steps == 6 and "lowered to n + 1 = 6" in c.notes[0]


def test_notebook_display():
    """In Jupyter a CheckResult shows as a table of verdicts and its isomorphism line."""
    c = check_pair(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), ("1wl", "spd"))
    md, html = c._repr_markdown_(), c._repr_html_()
    assert "spd" in md and "1wl" in md and md.endswith("isomorphic: no (component sizes: 0 components of 3 "
                                                       "nodes in G, 2 in H)")
    assert "<table" in html and "isomorphic: no" in html
