"""The ``epwl-placement`` claim (wltools.claims.epwl): EPWL between GD-WL and 3-WL on BREC, the
suites and the atlas, its failure when a test is swapped for a weaker one, and the model bounds
it derives."""

import networkx as nx
import pytest

from wltools.claims import get_claim, run_claim
from wltools.claims.epwl import PLACEMENT, bounded_by, check_epwl_placement
from wltools.claims.grit import gdwl_first_histogram
from wltools.graphs import named_graph, permute_graph
from wltools.refine import refine_pair

SMALL = dict(brec_ids=[0, 14, 60, 160, 260], suites=("sr16", "csl"), suite_ids={"csl": [0, 1, 2]},
             max_nodes=5, max_nodes_3wl=5)


def _swap(test_from, test_to):
    def refine(G, H, test, **kw):
        return refine_pair(G, H, test_to if test == test_from else test, **kw)
    return refine


def test_passes_with_witnesses_and_derives_model_bounds(brec, refine_theory):
    bounds = {"sgformer": "1wl", "graphormer": "spd", "grit": "rrwp", "gt": "3wl", "mine": None,
              "gin_heat": "epwl-lap", "rd-model": "rd"}
    r = check_epwl_placement(pairs=brec, theory_verdicts=refine_theory(), model_bounds=bounds, **SMALL)
    assert r.status == "PASS", r.summary
    assert "epwl ⊑ 3wl: strict, e.g. BREC 260 (cfi)" in r.witness  # a CFI pair only 3-WL separates
    assert "spd ⊑ epwl: strict, e.g. BREC 0 (basic)" in r.witness
    ev = r.evidence
    assert ev["spd ⊑ epwl"]["csl"]["pairs"] == 3 and ev["spd ⊑ epwl"]["sr16"]["pairs"] == 1
    mb = ev["model bounds"]
    assert mb["graphormer"]["epwl"] == "bounded: spd ⊑ epwl"
    assert mb["sgformer"]["epwl-lap"] == "bounded: 1wl ⊑ spd ⊑ epwl-lap"
    assert mb["rd-model"]["epwl-lap"].startswith("bounded") and mb["rd-model"]["epwl"].startswith("not implied")
    assert mb["grit"]["epwl"] == "not implied: no proved inclusion rrwp ⊑ epwl"
    assert mb["gt"]["epwl"].startswith("not implied: its declared bound is 3-WL")
    assert mb["mine"]["epwl"] == "no bound declared"
    assert mb["gin_heat"]["epwl-lap"] == "bounded: epwl-lap" and mb["gin_heat"]["epwl"].startswith("not implied")
    assert "graphormer" in r.summary and "grit" not in r.summary
    obs = ev["observed (no claim)"]["rrwp vs epwl"]
    assert obs["pairs"] == 5 + 4 and obs["rrwp separates, epwl does not"] == 0


@pytest.mark.parametrize("broken, chain", [(("epwl", "1wl"), ("spd", "epwl")),
                                           (("3wl", "1wl"), ("epwl-lap", "3wl"))])
def test_fails_when_the_stronger_test_is_replaced_by_1wl(brec, refine_theory, broken, chain):
    weak = _swap(*broken)
    r = check_epwl_placement(pairs=brec, theory_verdicts=refine_theory(weak), refine=weak,
                             chains=(chain,), observed=(), **SMALL)
    assert r.status == "FAIL" and f"{chain[0]} ⊑ {chain[1]} violated" in r.summary
    assert "distinguishes" in r.witness


def test_suite_verdicts_enter_the_tally(brec, refine_theory):
    """A suite where the weaker test separates and the broken stronger one does not: CSL, where
    SPD-WL separates every checked pair."""
    weak = _swap("epwl", "1wl")
    r = check_epwl_placement(pairs=brec, brec_ids=[], theory_verdicts=refine_theory(weak),
                             chains=(("spd", "epwl"),), observed=(), suites=("csl",),
                             suite_ids={"csl": [0, 1]}, max_nodes=3,
                             suite_theory=lambda name, tests, ids=None: _suite_theory_with(weak, name, tests, ids))
    assert r.status == "FAIL" and "csl" in r.summary


def _suite_theory_with(refine, name, tests, ids):
    from types import SimpleNamespace

    from wltools.suites import suite_pairs

    pairs = suite_pairs(name, ids)
    return SimpleNamespace(verdicts={p.id: {t: refine(p.g, p.h, t).distinguished for t in tests} for p in pairs})


def test_spectral_grouping_key_is_invariant_and_sound():
    G = named_graph("decalin")
    H = permute_graph(G, [9, 3, 0, 7, 1, 8, 2, 6, 4, 5])
    for test in ("epwl", "epwl-lap"):
        assert gdwl_first_histogram(G, test) == gdwl_first_histogram(H, test)
    star, c4k1 = nx.star_graph(4), nx.disjoint_union(nx.cycle_graph(4), nx.empty_graph(1))
    assert gdwl_first_histogram(star, "epwl") == gdwl_first_histogram(c4k1, "epwl")  # cospectral for A
    assert gdwl_first_histogram(star, "epwl-lap") != gdwl_first_histogram(c4k1, "epwl-lap")
    assert refine_pair(star, c4k1, "epwl-lap").iteration == 1  # a different key: separated at once


def test_bounded_by_follows_only_proved_inclusions():
    assert bounded_by("spd", "3wl") == ["spd", "epwl", "3wl"]
    assert bounded_by("epwl", "epwl-lap") is None and bounded_by(None, "epwl") is None
    assert bounded_by("rd", "epwl-lap", proved=PLACEMENT) == ["rd", "epwl-lap"]


def test_registered_with_its_inputs():
    r = run_claim(get_claim("epwl-placement"))  # no inputs given: an ERROR naming them, never a PASS
    assert r.status == "ERROR" and "model_bounds" in r.summary
