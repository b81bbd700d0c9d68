"""Tests of 4-WL as 3-FWL (``3fwl``, wltools.refine.fwl3): the fast path against the dict
reference (packed and two-word items, one-node blocks), relabelling invariance, isomorphic pairs,
3-FWL refining 2-FWL, the separations 3-WL misses (Shrikhande vs 4x4 rook, a BREC CFI pair), the
peak-memory estimate, and the refusals before work (check, brec theory) and the suite defaults."""

import itertools

import networkx as nx
import numpy as np
import pytest
from click.testing import CliRunner

from wltools.errors import ResourceLimitError
from wltools.graphs import named_graph, permute_graph
from wltools.refine import refine_pair
from wltools.refine.cost import peak_bytes
from wltools.refine.fwl3 import refine_fwl3, refine_fwl3_reference, triple_type_text, triple_types
from wltools.refine.names import ALL_TESTS, ON_REQUEST_TESTS, TEST_LABELS


def _key(r):
    return (r.distinguished, r.reason, r.iteration, r.iterations, r.class_sizes)


def _permuted(G, seed):
    return permute_graph(G, np.random.default_rng(seed).permutation(len(G)))


def _random_pairs():
    """Pairs of equal order and size (so the refinement runs): random, regular, and relabelled."""
    out = []
    for s in range(5):
        n = 6 + s % 3
        out.append((nx.gnm_random_graph(n, 9, seed=s), nx.gnm_random_graph(n, 9, seed=100 + s)))
    out.append((nx.random_regular_graph(3, 8, seed=1), nx.random_regular_graph(3, 8, seed=2)))
    out.append((nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))))
    G = nx.gnm_random_graph(8, 12, seed=7)
    out.append((G, _permuted(G, 3)))
    return out


def test_triple_types_are_the_atomic_types():
    A = nx.to_numpy_array(nx.path_graph(3), dtype=np.int64)  # 0 - 1 - 2
    T = triple_types(A)
    assert triple_type_text(T[0, 1, 2]) == "(u~v, u/x, v~x)"
    assert triple_type_text(T[1, 1, 0]) == "(u=v, u~x, v~x)"
    assert triple_type_text(T[2, 2, 2]) == "(u=v, u=x, v=x)"
    # all equal (1); two equal, the third adjacent or not, in 3 positions (6); all distinct, the
    # middle node first, second or third (3)
    assert len(np.unique(T)) == 10


@pytest.mark.parametrize("opts", [{}, {"max_bytes": 1}, {"pack_limit": 1}, {"max_bytes": 1, "pack_limit": 1}],
                         ids=["default", "one-node-blocks", "two-word-items", "both"])
def test_fast_equals_reference_on_random_pairs(opts):
    for G, H in _random_pairs():
        assert _key(refine_fwl3(G, H, **opts)) == _key(refine_fwl3_reference(G, H)), (G.edges, H.edges)


def test_fast_equals_reference_on_srg_pair_and_through_refine_pair():
    G, H = named_graph("shrikhande"), named_graph("rook4x4")
    ref = refine_pair(G, H, "3fwl", fast=False)
    assert _key(refine_pair(G, H, "3fwl")) == _key(ref)
    assert _key(refine_fwl3(G, H, pack_limit=1, max_bytes=1)) == _key(ref)


def test_invariant_under_relabelling():
    for i, (G, H) in enumerate(_random_pairs()[:5]):
        a = refine_fwl3(G, H)
        b = refine_fwl3(_permuted(G, i), _permuted(H, 50 + i))
        assert _key(a) == _key(b)


def test_isomorphic_graphs_never_distinguished():
    from brec_runner.runs.dataset import load_pairs

    graphs = [nx.gnm_random_graph(9, m, seed=m) for m in (8, 12, 18)] + [named_graph("petersen")]
    graphs.append(load_pairs(ids=[265])[0].g)  # a small CFI graph
    for i, G in enumerate(graphs):
        r = refine_fwl3(G, _permuted(G, i))
        assert not r.distinguished, r.witness
        assert r.class_sizes[0] == r.class_sizes[1]


def test_separates_everything_3wl_separates_and_no_later():
    """3-FWL refines 2-FWL (the triples (u, v, v) carry the 2-FWL colours round by round), so on
    every pair where 3wl differs at iteration t, 3fwl differs at iteration t or earlier."""
    graphs = [nx.gnm_random_graph(7, 10, seed=s) for s in range(8)]
    graphs += [nx.random_regular_graph(2, 7, seed=s) for s in range(3)]
    separated = 0
    for G, H in itertools.combinations(graphs, 2):
        if G.number_of_edges() != H.number_of_edges():
            continue
        r2, r3 = refine_pair(G, H, "3wl"), refine_pair(G, H, "3fwl")
        if r2.distinguished:
            separated += 1
            assert r3.distinguished and r3.iteration <= r2.iteration, (G.edges, H.edges)
    assert separated >= 20


def test_shrikhande_vs_rook_separated_by_3fwl_not_by_3wl():
    G, H = named_graph("shrikhande"), named_graph("rook4x4")  # srg(16, 6, 2, 2)
    assert not refine_pair(G, H, "3wl").distinguished
    r = refine_pair(G, H, "3fwl")
    assert (r.distinguished, r.reason, r.iteration) == (True, "histogram", 1)
    # the rook graph has 4-cliques (rows), Shrikhande none: triangles (u, v, x) differ at once
    assert r.witness.startswith("iteration 1: triples of type ")
    assert " in G, " in r.witness and "multiset (types as uv ux vx) is {" in r.witness


def test_brec_cfi_pair_3wl_misses_is_separated():
    from brec_runner.runs.dataset import load_pairs

    p = load_pairs(ids=[333])[0]  # 46 nodes; BREC: 3-WL fails, 4-WL succeeds
    assert not refine_pair(p.g, p.h, "3wl").distinguished
    r = refine_pair(p.g, p.h, "3fwl")
    assert r.distinguished and r.iteration == 3


# one pair each side of BREC's 4-WL line, the smallest but one (333, the smallest, is above) and the
# smallest (3-FWL's work grows as n^4); benchmarks/fwl3_bench.py runs all 100 CFI pairs
def test_brec_cfi_pairs_as_brec_says():
    """BREC: pairs 320-339 need 4-WL, pairs 340-359 are 4-WL-indistinguishable (3-WL: neither)."""
    from brec_runner.runs.dataset import load_pairs

    for p in load_pairs(ids=[336, 343]):  # 52 and 80 nodes
        r = refine_pair(p.g, p.h, "3fwl")
        assert r.distinguished is (p.id < 340), (p.id, r.witness)


def test_registered_everywhere():
    assert "3fwl" in ALL_TESTS and "3fwl" in ON_REQUEST_TESTS
    assert TEST_LABELS["3fwl"] == "4-WL (3-FWL)"
    from brec_runner.reports.theory import parse_tests as brec_parse
    from wltools.suites.theory import DEFAULT_SUITE_TESTS, parse_tests

    assert brec_parse("3wl,3fwl") == ("3wl", "3fwl")
    assert parse_tests("3fwl") == ("3fwl",)
    assert "3fwl" not in parse_tests(None) and parse_tests(None) == DEFAULT_SUITE_TESTS


def test_suite_theory_accepts_3fwl():
    from wltools.suites.theory import counts, suite_theory

    th = suite_theory("sr16", "3wl,3fwl")  # Shrikhande vs 4x4 rook
    assert counts(th) == {"3wl": (0, 1), "3fwl": (1, 1)}


def test_peak_estimate_on_a_cfi_pair_and_a_rigid_pair(refine_peak):
    """The estimate is an upper fit of the full round, which a rigid pair (random cubic graphs,
    many classes) takes: within 2.5x of its peak there; a CFI pair, with few classes, takes the
    symmetric round and needs far less than it says."""
    from brec_runner.runs.dataset import load_pairs

    p = load_pairs(ids=[333])[0]
    warm = (nx.cycle_graph(10), nx.cycle_graph(10))
    peak = refine_peak(p.g, p.h, "3fwl", warm)
    assert peak <= peak_bytes("3fwl", len(p.g), p.g.number_of_edges()), peak
    G, H = nx.random_regular_graph(3, 30, seed=1), nx.random_regular_graph(3, 30, seed=2)
    peak = refine_peak(G, H, "3fwl", warm)
    est = peak_bytes("3fwl", 30, 45)
    assert peak <= est <= 2.5 * peak, (peak, est)


def test_check_refuses_a_big_pair_in_one_line_before_work():
    from cli import cli

    res = CliRunner().invoke(cli, ["check", "cycle:300", "cycle:300", "--test", "3fwl", "--max-memory", "1G"])
    assert res.exit_code == 2
    lines = [x for x in res.output.splitlines() if x.strip()]
    assert lines == ["error: 4-WL (3-FWL) on 300 nodes needs about 6.1 GiB; --max-memory is 1 GiB"]


def test_brec_theory_refuses_a_selection_over_budget_before_work(monkeypatch):
    import brec_runner.reports.theory as th

    def never(*a, **k):
        raise AssertionError("refined despite the refusal")

    monkeypatch.setattr(th, "_refine_fn", lambda: never)
    with pytest.raises(ResourceLimitError, match=r"on BREC pair 345 \(198 nodes\) needs about 2.1 GiB; "
                                                 r"--max-memory is 1 GiB; 2 of the 3 pairs to compute fit"):
        th.theory_verdicts("3fwl", ids=[265, 333, 345], use_cache=False, max_memory=2**30)
