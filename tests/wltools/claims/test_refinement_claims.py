"""Refinement-based claims (GRIT Prop. 3.1 (a) and 3.2, the GD-WL hierarchy, PPGT Prop. E.1) on
small inputs: each PASSes with the project's definitions and FAILs with a broken ingredient. The
BREC pairs and verdicts come from the fixtures ``brec`` and ``refine_theory`` (conftest.py)."""

import networkx as nx
import numpy as np
import pytest
import torch

from wltools.claims.grit import check_rrwp_refines_spd, first_nonzero_spd, gdwl_first_histogram
from wltools.claims.grit_numeric import check_truncated_spd, proof_mlp
from wltools.claims.ppgt import DEFAULT_BREC_IDS, check_attention_gdwl, gdwl_attention_colours
from wltools.claims.zhang_gdwl import check_hierarchy
from wltools.distances import rrwp_float, spd_matrix
from wltools.refine import refine_pair


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


def test_grit_32_passes_on_small_inputs(brec, refine_theory):
    theory = refine_theory()
    r = check_rrwp_refines_spd(pairs=brec, brec_ids=[0, 14, 60], max_nodes=5,
                               theory_verdicts=theory)
    assert r.status == "PASS", r.summary
    assert r.evidence["strictness witness"]["rrwp distinguished"] is True
    assert r.evidence["inclusion on BREC"]["spd distinguished"] >= 1  # pair 14: not vacuous
    # the verdicts were asked of the input, RRWP-WL with the theory tables' K = 32
    assert ("spd", [0, 14, 60], None) in theory.calls and ("rrwp", [0, 14, 60], 32) in theory.calls


def test_grit_32_without_theory_verdicts_refines_itself(brec):
    r = check_rrwp_refines_spd(pairs=brec, brec_ids=[0, 14], max_nodes=4)
    assert r.status == "PASS", r.summary
    how = r.evidence["inclusion on BREC"]["rrwp verdicts"]
    assert how == "K = n by refine_pair for all 2 pairs (no theory verdicts given)"


def test_grit_32_fails_with_a_wrong_distance(brec, refine_theory):
    r = check_rrwp_refines_spd(pairs=brec, brec_ids=[0], max_nodes=4, spd_matrix=_spd_off_by_one,
                               theory_verdicts=refine_theory())
    assert r.status == "FAIL" and "identity (6) fails" in r.summary and r.witness


def test_grit_32_fails_when_rrwp_wl_is_too_weak(brec, refine_theory):
    weak = _swap("rrwp", "1wl")
    r = check_rrwp_refines_spd(pairs=brec, brec_ids=[14], max_nodes=4, refine=weak,
                               theory_verdicts=refine_theory(weak))
    assert r.status == "FAIL"
    assert "SPD-WL distinguishes but RRWP-WL not" in r.summary
    assert "strictness witness fails" in r.summary


def test_brec_checks_refuse_to_run_on_fewer_pairs_than_asked(brec, refine_theory):
    """An id the input lacks, or a verdict the input does not give, is an error, not a smaller
    check."""
    with pytest.raises(ValueError, match="lacks BREC pairs 14"):
        check_rrwp_refines_spd(pairs=brec[:10], brec_ids=[0, 14], max_nodes=4)
    with pytest.raises(ValueError, match="needs `pairs`"):
        check_hierarchy(max_nodes=4, max_nodes_3wl=4)
    full = refine_theory()

    def partial(test, ids, rrwp_steps=None):
        return {i: v for i, v in full(test, ids, rrwp_steps).items() if i != 14}

    with pytest.raises(ValueError, match="gave no 1wl verdict for BREC pairs 14"):
        check_hierarchy(pairs=brec, brec_ids=[0, 14], max_nodes=4, max_nodes_3wl=4,
                        theory_verdicts=partial)


# ------------------------------------------------------------------ GRIT Prop. 3.1 (a)

def test_grit_31a_passes_and_fails_with_a_wrong_spd(brec):
    ok = check_truncated_spd(pairs=brec, brec_ids=[0, 1, 60], train=False)
    assert ok.status == "PASS", ok.summary
    assert ok.evidence["constructed MLP max |error|"] <= 1e-6
    bad = check_truncated_spd(pairs=brec, brec_ids=[0], train=False, spd_matrix=_spd_off_by_one)
    assert bad.status == "FAIL" and "SPD_3" in bad.witness


def test_grit_31a_trained_mlp_is_reported_seeded_and_its_bar_enforced(brec):
    kw = dict(pairs=brec, brec_ids=[0], train_ids=range(10), test_ids=range(10, 13), steps=150)
    r = check_truncated_spd(**kw, max_train_mae=10.0)
    fit = r.evidence["trained mlp"]
    assert (fit["train ids"], fit["test ids"], fit["seed"]) == ("0-9", "10-12", 0)
    # row counts computed here, independently: every node pair of the test graphs, and the
    # distinct (RRWP_4 vector, SPD_3) rows of the training graphs
    graphs = [G for p in brec[:10] for G in (p.g, p.h)]
    test_graphs = [G for p in brec[10:13] for G in (p.g, p.h)]
    assert fit["test rows"] == sum(G.number_of_nodes() ** 2 for G in test_graphs)
    rows = set()
    for G in graphs:
        n = G.number_of_nodes()
        ei = torch.tensor([[u, v] for u, v in G.edges()] + [[v, u] for u, v in G.edges()]).t()
        P = rrwp_float(ei, n, 4, dtype=torch.float32).reshape(n * n, 4).tolist()
        S = np.asarray(spd_matrix(G)).reshape(-1)
        rows |= {(*P[i], float(S[i] if 0 <= S[i] <= 3 else 4)) for i in range(n * n)}
    assert fit["train rows"] == len(rows)
    # seeded: the same fit again; and the bar is enforced (half the reached MAE fails)
    assert check_truncated_spd(**kw, max_train_mae=10.0).evidence["trained mlp"] == fit
    strict = check_truncated_spd(**kw, max_train_mae=fit["train MAE"] / 2)
    assert strict.status == "FAIL" and "trained MLP" in strict.summary


def test_proof_mlp_is_exact_on_a_graph_with_unreachable_pairs():
    import torch

    from wltools.claims.grit_numeric import _rrwp_rows_graph
    G = nx.disjoint_union(nx.cycle_graph(7), nx.star_graph(4))
    X, y = _rrwp_rows_graph(G, 4, spd_matrix, None, torch.float64)
    L = float(X[X > 0].min())
    assert torch.equal(proof_mlp(4, L)(X).squeeze(-1), y)
    # a threshold above the smallest entry breaks it: the check is not vacuous
    assert not torch.equal(proof_mlp(4, 100 * L)(X).squeeze(-1), y)


# ------------------------------------------------------------------ hierarchy

def test_hierarchy_passes_on_small_inputs(brec, refine_theory):
    r = check_hierarchy(pairs=brec, brec_ids=[0, 14], max_nodes=5, max_nodes_3wl=5,
                        theory_verdicts=refine_theory())
    assert r.status == "PASS", r.summary
    assert "1wl ⊑ spd: strict" in r.witness
    assert r.evidence["1wl ⊑ rrwp"]["BREC"]["rrwp K"] == "32 (theory verdicts)"


def test_hierarchy_fails_when_3wl_is_replaced_by_1wl(brec, refine_theory):
    weak = _swap("3wl", "1wl")
    r = check_hierarchy(pairs=brec, brec_ids=[14], chains=(("spd", "3wl"),), max_nodes=4,
                        max_nodes_3wl=4, refine=weak, theory_verdicts=refine_theory(weak))
    assert r.status == "FAIL" and "BREC 14" in r.witness


# ------------------------------------------------------------------ PPGT Prop. E.1

C6_2C3 = ("C6 vs 2C3", nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
DOD_DES = ("Dodecahedron vs Desargues", nx.dodecahedral_graph(), nx.desargues_graph())


def test_attention_construction_matches_gdwl():
    r = check_attention_gdwl(examples=[C6_2C3, DOD_DES])
    assert r.status == "PASS", r.summary
    assert r.evidence["comparisons"] == 6


def test_attention_default_examples_include_the_brec_pairs(brec):
    """Prop. E.1 on its default examples checks the four BREC pairs too; without them it does not
    run on the remaining half (it used to PASS on it)."""
    r = check_attention_gdwl(pairs=brec, tests=("spd",))
    assert r.status == "PASS", r.summary
    assert r.evidence["comparisons"] == 8
    assert sum(f"BREC {i} " in line for i in DEFAULT_BREC_IDS
               for line in r.evidence["per pair"]) == 4
    with pytest.raises(ValueError, match="needs `pairs`"):
        check_attention_gdwl(tests=("spd",))
    with pytest.raises(ValueError, match="lacks BREC pairs 60,110"):
        check_attention_gdwl(pairs=brec[:60], tests=("spd",))


def test_attention_construction_with_adjacency_only_heads_fails():
    r = check_attention_gdwl(tests=("spd",), examples=[C6_2C3], distance_key=lambda d: d == 1)
    assert r.status == "FAIL" and "C6 vs 2C3" in r.witness


def test_attention_colours_are_relabeling_invariant():
    G = nx.petersen_graph()
    H = nx.relabel_nodes(G, dict(zip(G, np.random.default_rng(1).permutation(10).tolist())))
    hist = gdwl_attention_colours([G, H], "spd")
    assert sorted(hist[-1][0]) == sorted(hist[-1][1])
