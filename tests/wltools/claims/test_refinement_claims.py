"""Refinement-based claims (GRIT Prop. 3.1 (a) and 3.2, the GD-WL hierarchy, PPGT Prop. E.1) on
small inputs: each PASSes with the project's definitions and FAILs with a broken ingredient."""

import networkx as nx
import numpy as np

from wltools.claims.grit import (
    check_rrwp_refines_spd,
    check_truncated_spd,
    first_nonzero_spd,
    gdwl_first_histogram,
    proof_mlp,
)
from wltools.claims.ppgt import check_attention_gdwl, gdwl_attention_colours
from wltools.claims.zhang_gdwl import check_hierarchy
from wltools.distances import spd_matrix
from wltools.refine import refine_pair


def _brec_verdicts(refine=refine_pair):
    """Verdicts straight from refine (no disk cache), in theory_verdicts' shape."""
    from brec_runner.dataset import load_pairs

    def table(tests, ids):
        return {p.id: {t: refine(p.g, p.h, t).distinguished for t in tests}
                for p in load_pairs(ids=ids)}

    return table


def _swap(test_from, test_to):
    """A broken refine that runs ``test_to`` whenever asked for ``test_from``."""
    def refine(G, H, test, **kw):
        return refine_pair(G, H, test_to if test == test_from else test, **kw)
    return refine


def _spd_off_by_one(G):
    S = spd_matrix(G)
    return np.where(S > 1, S + 1, S)


# ------------------------------------------------------------------ GRIT Prop. 3.2

def test_first_nonzero_rrwp_is_spd_exact_and_float_agree():
    G = nx.disjoint_union(nx.petersen_graph(), nx.path_graph(3))  # unreachable pairs too
    n = G.number_of_nodes()
    exact = first_nonzero_spd(G, n, exact=True)
    assert exact == spd_matrix(G).tolist()
    assert first_nonzero_spd(G, n, exact=False) == exact


def test_first_histogram_is_relabeling_invariant():
    G = nx.petersen_graph()
    perm = dict(zip(G, np.random.default_rng(0).permutation(10).tolist()))
    H = nx.relabel_nodes(G, perm)
    for test in ("spd", "rd", "rrwp", "3wl"):
        assert gdwl_first_histogram(G, test) == gdwl_first_histogram(H, test)


def test_grit_32_passes_on_small_inputs():
    r = check_rrwp_refines_spd(brec_ids=[0, 14, 60], max_nodes=5, brec_verdicts=_brec_verdicts())
    assert r.status == "PASS", r.summary
    assert r.evidence["strictness witness"]["rrwp distinguished"] is True
    assert r.evidence["inclusion on BREC"]["spd distinguished"] >= 1  # pair 14: not vacuous


def test_grit_32_fails_with_a_wrong_distance():
    r = check_rrwp_refines_spd(brec_ids=[0], max_nodes=4, spd_matrix=_spd_off_by_one,
                               brec_verdicts=_brec_verdicts())
    assert r.status == "FAIL" and "identity (6) fails" in r.summary and r.witness


def test_grit_32_fails_when_rrwp_wl_is_too_weak():
    weak = _swap("rrwp", "1wl")
    r = check_rrwp_refines_spd(brec_ids=[14], max_nodes=4, refine=weak,
                               brec_verdicts=_brec_verdicts(weak))
    assert r.status == "FAIL"
    assert "SPD-WL distinguishes but RRWP-WL not" in r.summary
    assert "strictness witness fails" in r.summary


# ------------------------------------------------------------------ GRIT Prop. 3.1 (a)

def test_grit_31a_passes_and_fails_with_a_wrong_spd():
    ok = check_truncated_spd(brec_ids=[0, 1, 60], train=False)
    assert ok.status == "PASS", ok.summary
    assert ok.evidence["constructed MLP max |error|"] <= 1e-6
    bad = check_truncated_spd(brec_ids=[0], train=False, spd_matrix=_spd_off_by_one)
    assert bad.status == "FAIL" and "SPD_3" in bad.witness


def test_grit_31a_trained_mlp_is_reported():
    r = check_truncated_spd(brec_ids=[0], train_ids="0-9", test_ids="10-12", steps=150,
                            max_train_mae=10.0)
    fit = r.evidence["trained mlp"]
    assert r.status == "PASS" and fit["seed"] == 0 and 0 <= fit["train MAE"] < 10


def test_proof_mlp_is_exact_on_a_graph_with_unreachable_pairs():
    import torch

    from wltools.claims.grit import _rrwp_rows_graph
    G = nx.disjoint_union(nx.cycle_graph(7), nx.star_graph(4))
    X, y = _rrwp_rows_graph(G, 4, spd_matrix, None, torch.float64)
    L = float(X[X > 0].min())
    assert torch.equal(proof_mlp(4, L)(X).squeeze(-1), y)
    # a threshold above the smallest entry breaks it: the check is not vacuous
    assert not torch.equal(proof_mlp(4, 100 * L)(X).squeeze(-1), y)


# ------------------------------------------------------------------ hierarchy

def test_hierarchy_passes_on_small_inputs():
    r = check_hierarchy(brec_ids=[0, 14], max_nodes=5, max_nodes_3wl=5,
                        brec_verdicts=_brec_verdicts())
    assert r.status == "PASS", r.summary
    assert "1wl ⊑ spd: strict" in r.witness


def test_hierarchy_fails_when_3wl_is_replaced_by_1wl():
    weak = _swap("3wl", "1wl")
    r = check_hierarchy(brec_ids=[14], chains=(("spd", "3wl"),), max_nodes=4, max_nodes_3wl=4,
                        refine=weak, brec_verdicts=_brec_verdicts(weak))
    assert r.status == "FAIL" and "BREC 14" in r.witness


# ------------------------------------------------------------------ PPGT Prop. E.1

C6_2C3 = ("C6 vs 2C3", nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
DOD_DES = ("Dodecahedron vs Desargues", nx.dodecahedral_graph(), nx.desargues_graph())


def test_attention_construction_matches_gdwl():
    r = check_attention_gdwl(examples=[C6_2C3, DOD_DES])
    assert r.status == "PASS", r.summary
    assert r.evidence["comparisons"] == 6


def test_attention_construction_with_adjacency_only_heads_fails():
    r = check_attention_gdwl(tests=("spd",), examples=[C6_2C3], distance_key=lambda d: d == 1)
    assert r.status == "FAIL" and "C6 vs 2C3" in r.witness


def test_attention_colours_are_relabeling_invariant():
    G = nx.petersen_graph()
    H = nx.relabel_nodes(G, dict(zip(G, np.random.default_rng(1).permutation(10).tolist())))
    hist = gdwl_attention_colours([G, H], "spd")
    assert sorted(hist[-1][0]) == sorted(hist[-1][1])
