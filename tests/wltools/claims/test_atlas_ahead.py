"""wltools.claims.atlas_ahead: the atlas pairs planned ahead are exactly those the inclusion
claims' atlas checks refine (a spy records them), the verdicts computed ahead equal refine_pair's,
and the claims read them with the results of computing them in the claim (one worker)."""

import itertools
import os
import random

import pytest

from wltools.claims._common import _atlas, as_bool
from wltools.claims.atlas_ahead import _bare_verdict, atlas_classes, atlas_keys, atlas_parts, atlas_units, chain_pairs, compute, forget, remember
from wltools.claims.epwl import PLACEMENT
from wltools.claims.grit import gdwl_first_histogram, tally_chains
from wltools.claims.zhang_gdwl import HIERARCHY
from wltools.refine import refine_pair

CHAINS = HIERARCHY + PLACEMENT + (("spd", "rrwp"),)


@pytest.fixture(autouse=True)
def _clean():
    forget()
    yield
    forget()


def test_the_planned_pairs_are_the_pairs_the_checks_ask_in_their_order():
    index = {id(G): i for i, G in enumerate(_atlas())}
    asked: dict[str, dict] = {}

    def spy(G, H, test):
        asked.setdefault(test, {})[(index[id(G)], index[id(H)])] = None
        return False

    for n, n3 in ((5, 5), (6, 4)):
        asked.clear()
        tally_chains(CHAINS, lambda lo, up: {}, spy, max_nodes=n, max_nodes_3wl=n3)
        planned = chain_pairs(CHAINS, n, n3)
        assert {t: list(p) for t, p in asked.items()} == planned
        assert sum(map(len, planned.values())) > 1000  # within-group and sampled cross-group pairs


def test_parts_cover_the_union_of_the_requests_once_each():
    reqs = atlas_units(HIERARCHY, 5, 5) + atlas_units(PLACEMENT, 5, 5)
    parts = atlas_parts(reqs)
    union = {}
    for chains in (HIERARCHY, PLACEMENT):
        for t, p in chain_pairs(chains, 5, 5).items():
            union.setdefault(t, {}).update(dict.fromkeys(p))
    got = {}
    for _, test, k, pairs in parts:
        got.setdefault(test, []).extend(pairs)
    assert got == {t: list(p) for t, p in union.items()}
    assert atlas_units(HIERARCHY, 5, 5, refine=refine_pair) == [] and atlas_units(HIERARCHY, 8, 5) == []


@pytest.mark.parametrize("test", ["rd", "rrwp", "3wl"])
def test_keys_are_equal_iff_the_first_iteration_histograms_are(test):
    hist = [gdwl_first_histogram(G, test) for G in _atlas()[1:53]]  # the graphs of 1 to 5 nodes
    keys = atlas_keys(test, 5)
    assert len(keys) == len(hist) and (test != "3wl" or len(set(keys)) < len(keys))
    assert all((keys[i] == keys[j]) == (hist[i] == hist[j]) for i in range(len(keys)) for j in range(len(keys)))


@pytest.mark.parametrize("test", ["1wl", "spd", "rd", "rrwp", "3wl", "epwl", "epwl-lap"])
def test_verdicts_computed_ahead_equal_refine_pair_and_are_read_first(test):
    graphs = _atlas()
    rng = random.Random(7)
    sevens = [i for i, G in enumerate(graphs) if G.number_of_nodes() == 7]
    plan = chain_pairs(CHAINS, 6, 6)[test]
    pairs = rng.sample(plan, 12) + [(rng.choice(sevens), rng.choice(sevens)) for _ in range(4)]
    got = compute(test, pairs)
    assert got == {(i, j): refine_pair(graphs[i], graphs[j], test).distinguished for i, j in pairs}
    assert set(got.values()) <= {True, False}
    remember(test, {(i, j): not v for (i, j), v in got.items()})  # flipped: visibly read from here
    # (the unmemoised verdict: the claims' shared memo must not keep the flipped answers)
    assert all(_bare_verdict(graphs[i], graphs[j], test) is (not v) for (i, j), v in got.items())
    forget()
    assert all(as_bool(_bare_verdict(graphs[i], graphs[j], test)) is v for (i, j), v in got.items())


@pytest.mark.parametrize("test", ["1wl", "spd", "rd", "rrwp", "3wl"])
def test_atlas_classes_are_refine_pairs_verdicts(test):
    """One colour table over the atlas (per order) puts two graphs in one class exactly when
    refine_pair does not distinguish them: on up to 40 seeded pairs it puts in one class and 40
    seeded pairs of equal order and size it separates (graphs of 6 and 7 nodes)."""
    graphs = _atlas()
    classes = atlas_classes(test)
    assert len(classes) == len(graphs) - 1  # every graph but the empty one
    rng = random.Random(3)
    by_class, by_size = {}, {}
    for i, G in enumerate(graphs):
        if G.number_of_nodes() >= 6:
            by_class.setdefault(classes[id(G)], []).append(i)
            by_size.setdefault((len(G), G.size()), []).append(i)
    together = sorted(p for group in by_class.values() for p in itertools.combinations(group, 2))
    sizes = sorted(group for group in by_size.values() if len(group) > 1)
    apart = set()
    for _ in range(10_000):  # bounded: a table that separates too few pairs fails below, never hangs
        i, j = sorted(rng.sample(rng.choice(sizes), 2))
        if classes[id(graphs[i])] != classes[id(graphs[j])]:
            apart.add((i, j))
        if len(apart) == 40:
            break
    assert len(apart) == 40, f"only {len(apart)} pairs of equal order and size in different classes"
    pairs = rng.sample(together, min(40, len(together))) + sorted(apart)
    got = [classes[id(graphs[i])] != classes[id(graphs[j])] for i, j in pairs]
    assert got == [refine_pair(graphs[i], graphs[j], test).distinguished for i, j in pairs]
    assert test not in ("1wl", "spd") or not all(got)  # they leave some atlas pairs together (RD, RRWP, 3-WL: none)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forked")
def test_two_workers_with_atlas_units_give_the_results_of_one(brec, refine_theory):
    from wltools.claims.parallel import needed_units, verify_claims
    from wltools.claims.registry import get_claim

    claims = [get_claim("gdwl-hierarchy"), get_claim("epwl-placement"), get_claim("grit-3.2")]
    params = {"pairs": brec, "theory_verdicts": refine_theory(), "brec_ids": [0, 1, 60], "suites": (), "model_bounds": {"gin": "1wl"},
              "max_nodes": 5, "max_nodes_3wl": 5, "exact_max_nodes": 12}
    assert sum(u[0] == "atlas" for u in needed_units(claims, params)) == 3
    one = verify_claims(claims, params, workers=1)
    two = verify_claims(claims, params, workers=2)
    for (_, r1), (_, r2) in zip(one, two):
        assert (r1.status, r1.summary, r1.evidence, r1.witness) == (r2.status, r2.summary, r2.evidence, r2.witness)
    assert [r.status for _, r in two] == ["PASS"] * 3
