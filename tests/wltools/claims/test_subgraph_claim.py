"""The ``subgraph-hierarchy`` claim (wltools.claims.subgraph): the subgraph WL hierarchy and BREC's
baselines on BREC, the suites and the atlas; its failure when a test or a relation is swapped; and
the small facts its proofs rest on."""

import networkx as nx
import pytest
from click.testing import CliRunner

from wltools.claims import get_claim, list_claims, run_claim
from wltools.claims._common import atlas_graphs
from wltools.claims.subgraph import INCOMPARABLE, PLACEMENT, check_subgraph_hierarchy, wl1_key
from wltools.graphs import permute_graph
from wltools.refine import refine_pair

# basic 0 and 59, regular 71 and 110 (strongly regular), CFI 260, 262, 273, 276, 282: the pairs
# behind the strictness and incomparability witnesses
WITNESS_IDS = [0, 59, 71, 110, 260, 262, 273, 276, 282]
SMALL = dict(brec_ids=WITNESS_IDS, suites=("sr16", "csl"), suite_ids={"csl": [0, 1, 2]}, max_nodes=6,
             atlas_sample=50)


def _swap(test_from, test_to):
    def refine(G, H, test, **kw):
        return refine_pair(G, H, test_to if test == test_from else test, **kw)
    return refine


def test_registered_and_listed():
    import cli

    assert "subgraph-hierarchy" in [c.id for c in list_claims()]
    res = CliRunner().invoke(cli.cli, ["claims", "list"])
    assert res.exit_code == 0 and "subgraph-hierarchy" in res.output
    r = run_claim(get_claim("subgraph-hierarchy"))  # no inputs: an ERROR naming them, never a PASS
    assert r.status == "ERROR" and "pairs" in r.summary


def _check_pass(r):
    assert r.status == "PASS", r.summary
    w = r.witness
    assert "swl-vs ⊑ swl-sv: strict, e.g. BREC 273 (cfi)" in w
    assert "swl-vs ⊑ pswl-vs: strict, e.g. BREC 273 (cfi)" in w
    assert "pswl-vs ⊑ pswl-sv: strict, e.g. BREC 282 (cfi)" in w
    assert "gswl ⊑ sswl: strict, e.g. BREC 262 (cfi)" in w and "lfwl2 ⊑ slfwl2: strict, e.g. BREC 262" in w
    assert "slfwl2 ⊑ 3wl: strict, e.g. BREC 276 (cfi)" in w
    assert "m1 ⊑ swl-vs: no strictness witness" in w and "swl-vs ⊑ m1: no strictness witness" in w
    assert "s4 ⋈ 3wl: BREC 110 (regular): s4 distinguishes, 3wl does not" in w
    ev = r.evidence
    for a, b in INCOMPARABLE:
        assert ev["incomparable"][f"{a} vs {b}"]["witness one way"]
        assert ev["incomparable"][f"{a} vs {b}"]["witness other way"]
    obs = ev["observed (no claim)"]
    assert obs["swl-sv vs pswl-vs"]["first such pair"].startswith("BREC 282 (cfi)")
    assert obs["n1 vs n2"]["n1 separates, n2 does not"] == 0  # not claimed (see the module docstring)
    return ev


def test_passes_on_the_witness_pairs(brec, brec_verdicts):
    """The witness pairs, two suites (CSL in part) and the atlas up to 6 vertices, with the model
    bounds; the BREC verdicts from the session's theory cache (computed there for all 400 pairs by the
    test below and the SWL and baseline count checks; the witness pairs' CFI graphs, refined here
    again by every test, were most of this test's time)."""
    bounds = {"graphormer": "spd", "gin": "1wl", "gt": "3wl", "ngnn": "swl-vs", "mine": None}
    r = check_subgraph_hierarchy(pairs=brec, theory_verdicts=lambda t, ids, rrwp_steps=None: brec_verdicts(t, ids),
                                 model_bounds=bounds, **SMALL)
    ev = _check_pass(r)
    assert ev["1wl ⊑ swl-vs"]["csl"]["pairs"] == 3 and ev["1wl ⊑ swl-vs"]["sr16"]["pairs"] == 1
    assert ev["1wl ⊑ swl-vs"]["BREC"]["pairs"] == len(WITNESS_IDS)
    mb = ev["model bounds"]
    assert mb["ngnn"]["chain to 3wl"] == "swl-vs ⊑ 3wl" and "m1" in mb["ngnn"]["bounded by"]
    assert mb["graphormer"]["chain to 3wl"] == "spd ⊑ pswl-vs ⊑ 3wl"
    assert "swl-vs" not in mb["graphormer"]["bounded by"]  # SPD-WL is not below SWL(VS) here
    assert set(mb) == {"graphormer", "gin", "ngnn"}  # 3-WL and no bound: nothing to derive


def test_passes_on_all_of_brec_suites_and_atlas(brec, brec_verdicts):
    """All 400 BREC pairs (verdicts from the session's theory cache), four suites and the atlas."""
    r = check_subgraph_hierarchy(pairs=brec, theory_verdicts=lambda t, ids, rrwp_steps=None: brec_verdicts(t, ids),
                                 suites=("sr16", "sr25", "csl", "graph8c"))
    ev = _check_pass(r)
    assert ev["1wl ⊑ swl-vs"]["BREC"]["pairs"] == 400 and ev["1wl ⊑ swl-vs"]["BREC"]["swl-vs distinguished"] == 251
    assert ev["sswl ⊑ 3wl"]["BREC"]["sswl distinguished"] == 267


@pytest.mark.parametrize("chain", [("3wl", "swl-vs"), ("pswl-sv", "swl-vs"), ("n2", "n1")])
def test_fails_when_a_chain_is_reversed(brec, refine_theory, chain):
    r = check_subgraph_hierarchy(pairs=brec, theory_verdicts=refine_theory(), chains=(chain,),
                                 incomparable=(), observed=(), **SMALL)
    assert r.status == "FAIL" and f"{chain[0]} ⊑ {chain[1]} violated" in r.summary
    assert f"{chain[0]} distinguishes, {chain[1]} does not" in r.witness


@pytest.mark.parametrize("broken, chain", [(("slfwl2", "1wl"), ("lfwl2", "slfwl2")),
                                           (("3wl", "swl-vs"), ("sswl", "3wl")),
                                           (("m1", "1wl"), ("swl-vs", "m1"))])
def test_fails_when_the_stronger_test_is_swapped(brec, refine_theory, broken, chain):
    weak = _swap(*broken)
    r = check_subgraph_hierarchy(pairs=brec, theory_verdicts=refine_theory(weak), refine=weak,
                                 chains=(chain,), incomparable=(), observed=(), **SMALL)
    assert r.status == "FAIL" and f"{chain[0]} ⊑ {chain[1]} violated" in r.summary
    assert "distinguishes" in r.witness


def test_fails_when_an_inclusion_is_claimed_incomparable(brec, refine_theory):
    r = check_subgraph_hierarchy(pairs=brec, theory_verdicts=refine_theory(), chains=(),
                                 incomparable=(("swl-vs", "pswl-vs"),), observed=(), **SMALL)
    assert r.status == "FAIL" and "no witness that swl-vs separates a pair pswl-vs does not" in r.summary
    assert r.witness.startswith("BREC 273 (cfi): pswl-vs distinguishes")


def test_atlas_grouping_soundness_is_checked(brec, refine_theory):
    """With the stronger test swapped for one below 1-WL (SPD-WL is not, but the 'order'-only
    test is), cross-group atlas pairs come out undistinguished and the grouping is unsound."""
    def blind(G, H, test, **kw):
        r = refine_pair(G, H, "1wl", **kw)
        if test == "swl-sv":
            r.distinguished = G.number_of_nodes() != H.number_of_nodes()
        return r
    r = check_subgraph_hierarchy(pairs=brec, brec_ids=[], theory_verdicts=refine_theory(), refine=blind,
                                 chains=(("1wl", "swl-sv"),), incomparable=(), observed=(), suites=(),
                                 max_nodes=5, atlas_sample=30)
    assert r.status == "FAIL" and "atlas grouping unsound" in r.summary


def test_every_placement_test_is_at_least_1wl():
    """The atlas grouping by the 1-WL key rests on 1-WL ⊑ X for every upper test X."""
    from wltools.claims.epwl import bounded_by

    for _, upper in PLACEMENT:
        assert upper == "3wl" or bounded_by("1wl", upper, PLACEMENT), upper


def test_wl1_key_is_invariant_and_sound():
    G = nx.petersen_graph()
    assert wl1_key(G) == wl1_key(permute_graph(G, [9, 3, 0, 7, 1, 8, 2, 6, 4, 5]))
    graphs = atlas_graphs(5, min_nodes=5)
    differ = [(G, H) for i, (_, G) in enumerate(graphs) for _, H in graphs[i + 1:] if wl1_key(G) != wl1_key(H)]
    assert len(differ) > 100
    assert all(refine_pair(G, H, "1wl").distinguished for G, H in differ)


def _pairs_for_m1():
    import random

    rng = random.Random(0)
    out = [(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
           (nx.circular_ladder_graph(4), nx.complete_bipartite_graph(4, 4)),  # 3-regular on 8 nodes
           (nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4)))]
    for i in range(6):
        G = nx.random_regular_graph(3, 10, seed=rng.randrange(10**6))
        H = nx.random_regular_graph(3, 10, seed=rng.randrange(10**6))
        out.append((G, H))
    return out


def test_m1_equals_swl_vs_on_small_pairs():
    """M1 = SWL(VS) (proof in the module docstring): equal verdicts, with both outcomes seen."""
    verdicts = []
    for G, H in _pairs_for_m1():
        a, b = refine_pair(G, H, "m1").distinguished, refine_pair(G, H, "swl-vs").distinguished
        assert a == b
        verdicts.append(a)
    G = nx.circular_ladder_graph(5)
    verdicts.append(refine_pair(G, permute_graph(G, [3, 1, 4, 0, 2, 9, 8, 7, 6, 5]), "m1").distinguished)
    assert True in verdicts and False in verdicts


def test_radius_two_ball_does_not_fix_the_radius_one_ball():
    """Why ``n1 ⊑ n2`` is not claimed: N_K does not mark the centre, and in the path P3 the end and
    the middle have isomorphic radius-2 balls but different radius-1 balls."""
    P3 = nx.path_graph(3)
    assert nx.is_isomorphic(nx.ego_graph(P3, 0, 2), nx.ego_graph(P3, 1, 2))
    assert not nx.is_isomorphic(nx.ego_graph(P3, 0, 1), nx.ego_graph(P3, 1, 1))
