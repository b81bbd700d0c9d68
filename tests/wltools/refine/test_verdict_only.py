"""Verdict-only runs (wltools.refine.kernel.verdict_only): every test gives the verdict, reason and
first differing round of its full run, on BREC's representative part up to 30 nodes, on EXP, CSL
and on labelled pairs; a pair not distinguished gets the full record itself; and the runs do stop
early (else the mode would be a no-op)."""

from __future__ import annotations

import networkx as nx
import pytest

from brec_sample import all_pairs, sample_ids
from wltools.refine import refine_pair, verdict_only
from wltools.refine.names import ALL_TESTS
from wltools.suites.theory import theory_pairs


def _pairs(max_nodes: int) -> list[tuple]:
    ids = set(sample_ids())
    brec = [(p.g, p.h) for p in all_pairs() if p.id in ids and p.g.number_of_nodes() <= max_nodes]
    suites = [(p.g, p.h) for name, some in (("exp", range(0, 600, 60)), ("csl", (0, 20, 44)))
              for p in theory_pairs(name, some) if p.g.number_of_nodes() <= max(max_nodes, 41)]
    return brec + suites


@pytest.mark.parametrize("test", ALL_TESTS)
def test_a_verdict_only_run_keeps_the_verdict_and_its_round(test):
    pairs = _pairs(12 if test in ("3fwl", "m2") else 30)
    stopped = 0
    for G, H in pairs:
        full = refine_pair(G, H, test)
        with verdict_only():
            quick = refine_pair(G, H, test)
        assert (quick.distinguished, quick.reason, quick.iteration) == (full.distinguished, full.reason, full.iteration)
        if not full.distinguished:
            assert quick == full
        elif quick.iterations is None:
            stopped += 1
            assert quick.class_sizes == ((), ()) and str(quick.iteration) in quick.witness
    if test not in ("1wl", "s3", "s4", "m1", "m2") and not test.startswith("n"):
        assert stopped  # kernel tests that refine past the first difference stop there instead


def test_labelled_pairs_keep_their_verdicts():
    G, H = nx.cycle_graph(8), nx.cycle_graph(8)
    nx.set_node_attributes(G, {v: v % 2 for v in G}, "label")
    nx.set_node_attributes(H, {v: int(v in (0, 1, 4, 5)) for v in H}, "label")
    for test in ("1wl", "spd", "3wl", "epwl", "sswl", "lfwl2"):
        full = refine_pair(G, H, test)
        with verdict_only():
            quick = refine_pair(G, H, test)
        assert (quick.distinguished, quick.iteration) == (full.distinguished, full.iteration)


def test_the_flag_is_scoped():
    G, H = nx.path_graph(6), nx.star_graph(5)
    with verdict_only():
        with verdict_only(False):
            inner = refine_pair(G, H, "sswl")
        quick = refine_pair(G, H, "sswl")
    after = refine_pair(G, H, "sswl")
    assert inner == after and inner.iterations is not None and quick.iterations is None
