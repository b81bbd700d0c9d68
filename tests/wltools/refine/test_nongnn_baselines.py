"""BREC's non-GNN baselines S3, S4, N_K, M1, M2 (wltools.refine.substructure / ego / marking):
fast paths against straightforward ones, invariance, the reference's definitions, registration."""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx
import pytest

import wltools.refine.seeded as seeded
import wltools.refine.substructure as substructure
from wltools.errors import UnknownNameError, UnsupportedGraphError
from wltools.graphs import permute_graph
from wltools.iso import certificate
from wltools.refine import refine_pair
from wltools.refine.cost import peak_bytes
from wltools.refine.ego import ego_keys, ego_keys_reference
from wltools.refine.marking import marked_classes, marked_classes_reference
from wltools.refine.names import SUBGRAPH_BASELINE_TESTS, ego_radius, is_test_name, label_of

TESTS = ("s3", "s4", "n1", "n2", "n3", "m1", "m2")


def _random_graph(seed: int, n_max: int = 12) -> nx.Graph:
    rng = random.Random(seed)
    n = rng.randint(1, n_max)
    return nx.gnp_random_graph(n, rng.uniform(0.1, 0.7), seed=seed)


def _shuffled(G: nx.Graph, seed: int) -> nx.Graph:
    perm = list(range(G.number_of_nodes()))
    random.Random(seed).shuffle(perm)
    return permute_graph(G, perm)


def _same_partition(a: list, b: list) -> bool:
    """Whether two colourings (of the same elements) induce the same partition."""
    fwd, back = {}, {}
    return all(fwd.setdefault(x, y) == y and back.setdefault(y, x) == x for x, y in zip(a, b))


def _summary(r):
    return (r.distinguished, r.reason, r.iteration, r.iterations, r.class_sizes)


# --- the initial colours, fast against straightforward -------------------------------------


@pytest.mark.parametrize("dense_max, row_and_max", [(substructure.DENSE_MAX, substructure._ROW_AND_MAX),
                                                     (substructure.DENSE_MAX, 0), (0, 0)])
def test_substructure_counts_match_enumeration(dense_max, row_and_max, monkeypatch):
    # every path: row ANDs, the dense product, the sparse look-ups and product
    monkeypatch.setattr(substructure, "DENSE_MAX", dense_max)
    monkeypatch.setattr(substructure, "_ROW_AND_MAX", row_and_max)
    for seed in range(60):
        G = _random_graph(seed)
        for k in (3, 4):
            assert substructure.substructure_counts(G, k) == substructure.substructure_counts_reference(G, k), (seed, k)


@pytest.mark.parametrize("paths_per_n2", [0, 10**9])
def test_s4_matrix_products_match_enumeration(paths_per_n2, monkeypatch):
    # 0: every graph through the non-induced counts and their inversion; 10^9: never
    monkeypatch.setattr(substructure, "_ALGEBRAIC_PATHS_PER_N2", paths_per_n2)
    for seed in range(80):
        G = _random_graph(seed, 14)
        assert substructure.substructure_counts(G, 4) == substructure.substructure_counts_reference(G, 4), seed


def test_substructure_counts_by_hand():
    # K4: every node in 3 triangles and 1 K4; C4: every node in 3 induced 3-paths, one 4-cycle
    assert substructure.substructure_counts(nx.complete_graph(4), 3) == [(3, 0)] * 4
    assert substructure.substructure_counts(nx.complete_graph(4), 4) == [(0, 0, 0, 1, 0, 0)] * 4
    assert substructure.substructure_counts(nx.cycle_graph(4), 3) == [(0, 3)] * 4
    assert substructure.substructure_counts(nx.cycle_graph(4), 4) == [(0, 0, 0, 0, 1, 0)] * 4
    # paw: triangle 0-1-2 and pendant 3 on 2; induced 3-paths 0-2-3 and 1-2-3
    paw = nx.Graph([(0, 1), (1, 2), (0, 2), (2, 3)])
    assert substructure.substructure_counts(paw, 3) == [(1, 1), (1, 1), (1, 2), (0, 2)]
    assert substructure.substructure_counts(paw, 4) == [(0, 0, 0, 0, 0, 1)] * 4
    # the claw is counted once, not per ordered path (it has no Hamiltonian path)
    assert substructure.substructure_counts(nx.star_graph(3), 4) == [(0, 1, 0, 0, 0, 0)] * 4


def test_substructure_counts_scale_to_the_reference():
    """The BREC reference adds, per node, ``h(T)`` per subgraph of type ``T`` (its ordered
    Hamiltonian paths: S3 (6, 2), S4 (2, 1, 12, 24, 8, 4)); our counts times those factors are
    the reference's numbers, re-derived here by enumerating ordered paths."""
    from itertools import permutations

    factors = {3: (6, 2), 4: (2, 1, 12, 24, 8, 4)}
    for seed in range(15):
        G = _random_graph(seed, 9)
        for k in (3, 4):
            ref = {v: [0] * len(factors[k]) for v in G}
            for S in _connected_sets(G, k):
                H = G.subgraph(S)
                t = substructure.TYPES[k].index(
                    substructure._type_of(k, H.number_of_edges(), tuple(sorted(d for _, d in H.degree()))))
                paths = sum(all(H.has_edge(p[i], p[i + 1]) for i in range(k - 1)) for p in permutations(S))
                weight = paths if k == 3 or t != 1 else 1  # claws: counted once
                for v in S:
                    ref[v][t] += weight
            ours = substructure.substructure_counts(G, k)
            assert [tuple(c * f for c, f in zip(row, factors[k])) for row in ours] == [tuple(ref[v]) for v in sorted(G)]


def _connected_sets(G, k):
    from itertools import combinations

    return [S for S in combinations(sorted(G), k) if nx.is_connected(G.subgraph(S))]


@pytest.mark.parametrize("dense_max", [substructure.DENSE_MAX, 0])
@pytest.mark.parametrize("radius", [1, 2, 3])
def test_ego_keys_match_networkx_ego_graph(radius, dense_max, monkeypatch):
    import wltools.refine.ego as ego

    monkeypatch.setattr(ego, "DENSE_MAX", dense_max)  # 0: breadth-first balls, networkx subgraphs
    for seed in range(40):
        G = _random_graph(seed)
        assert ego_keys(G, radius) == ego_keys_reference(G, radius), seed


def test_ego_certificate_is_wltools_iso_certificate():
    for seed in range(20):
        G = _random_graph(seed)
        for v, key in enumerate(ego_keys(G, 1)):
            ball = nx.convert_node_labels_to_integers(nx.ego_graph(G, v, 1))
            assert key[2] == certificate(ball)


def test_unchecked_nauty_graph_is_the_public_one():
    """wltools.refine.ego.nauty_graph skips pynauty's constructor: certificates and orbits (with
    and without a colouring) equal those of pynauty's public Graph on the same arguments, on
    random graphs of 1 to 40 nodes; its many-graph form gives the same certificates."""
    import pynauty

    from wltools.refine.ego import nauty_certificates, nauty_graph
    from wltools.refine.marking import automorphism_orbits

    for seed in range(60):
        G = _random_graph(seed, 40)
        n = G.number_of_nodes()
        adjacency = {v: list(G[v]) for v in range(n)}
        public = pynauty.Graph(n, adjacency_dict=adjacency)
        assert pynauty.certificate(nauty_graph(n, adjacency)) == pynauty.certificate(public), seed
        assert automorphism_orbits(G).tolist() == list(pynauty.autgrp(public)[3]), seed
        fixed = seed % n
        coloured = pynauty.Graph(n, adjacency_dict=adjacency, vertex_coloring=[{fixed}])
        assert automorphism_orbits(G, fixed=fixed).tolist() == list(pynauty.autgrp(coloured)[3]), seed
        assert nauty_certificates(n, [adjacency, adjacency]) == [pynauty.certificate(public)] * 2


def test_ego_centre_is_not_marked():
    # the star K_{1,3} within radius 2 of its hub and of a leaf is the whole star: one class, as
    # in the reference (pynauty without a colouring); marking the centre would split it
    assert len(set(ego_keys(nx.star_graph(3), 2))) == 1
    # and the ego network is induced: the triangle closes in radius 1
    assert ego_keys(nx.cycle_graph(3), 1)[0][:2] == (3, 3)


@pytest.mark.parametrize("marks", [1, 2])
def test_marked_classes_match_copy_by_copy_reference(marks):
    for seed in range(40):
        G = _random_graph(seed, 8)
        H = _shuffled(G, seed) if seed % 2 else nx.gnm_random_graph(G.number_of_nodes(), G.number_of_edges(), seed=seed + 99)
        fast_g, fast_h, _ = marked_classes(G, H, marks)
        ref_g, ref_h = marked_classes_reference(G, H, marks)
        assert _same_partition(fast_g + fast_h, ref_g + ref_h), seed


def test_marking_refines_1wl():
    # the marked copies start from the mark alone (WL_marking: no degrees), yet their stable
    # colourings refine 1-WL's, so M1 separates what 1-WL separates
    for seed in range(20):
        G = _random_graph(seed)
        H = nx.gnm_random_graph(G.number_of_nodes(), G.number_of_edges(), seed=seed + 5)
        if refine_pair(G, H, "1wl").distinguished:
            assert refine_pair(G, H, "m1").distinguished, seed


# --- verdicts: fast against exact, invariance -----------------------------------------------


@pytest.mark.parametrize("small_pair", [seeded.SMALL_PAIR, 0])
@pytest.mark.parametrize("test", TESTS)
def test_fast_matches_exact_on_random_pairs(test, small_pair, monkeypatch):
    monkeypatch.setattr(seeded, "SMALL_PAIR", small_pair)  # 0: the numpy rounds on every pair
    for seed in range(25):
        G = _random_graph(seed, 9 if test == "m2" else 12)
        H = nx.gnm_random_graph(G.number_of_nodes(), G.number_of_edges(), seed=seed + 1000)
        fast, exact = refine_pair(G, H, test), refine_pair(G, H, test, fast=False)
        assert _summary(fast) == _summary(exact), (test, seed)


@pytest.mark.parametrize("small_pair", [seeded.SMALL_PAIR, 0])
@pytest.mark.parametrize("test", TESTS)
def test_isomorphic_graphs_never_distinguished_and_verdict_invariant(test, small_pair, monkeypatch):
    monkeypatch.setattr(seeded, "SMALL_PAIR", small_pair)
    for seed in range(20):
        G = _random_graph(seed, 9 if test == "m2" else 12)
        H = nx.gnm_random_graph(G.number_of_nodes(), G.number_of_edges(), seed=seed + 7)
        r = refine_pair(G, _shuffled(G, seed), test)
        assert not r.distinguished, (test, seed, r.witness)
        a, b = refine_pair(G, H, test), refine_pair(_shuffled(G, seed + 1), _shuffled(H, seed + 2), test)
        assert _summary(a) == _summary(b), (test, seed)


def test_known_pairs():
    two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    r = refine_pair(nx.cycle_graph(6), two_triangles, "s3")
    assert (r.distinguished, r.iteration) == (True, 0)
    assert "nodes in 1 triangle and 0 induced 3-paths: 0 in G, 6 in H" in r.witness
    # the 4x4 rook's graph and the Shrikhande graph, both SRG(16, 6, 2, 2): 1-WL, S3 and M1 see
    # nothing, S4 sees the rook's K4s, N1 the ego networks (two triangles vs a 6-cycle)
    from wltools.graphs import load_graph

    rook, shrikhande = load_graph("rook4x4"), load_graph("shrikhande")
    verdicts = {t: refine_pair(rook, shrikhande, t).distinguished for t in ("1wl", "s3", "s4", "n1", "m1")}
    assert verdicts == {"1wl": False, "s3": False, "s4": True, "n1": True, "m1": False}
    # C8 and two C4: N1 sees paths only, N2 the closed 4-cycles
    two_squares = nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))
    assert not refine_pair(nx.cycle_graph(8), two_squares, "n1").distinguished
    assert refine_pair(nx.cycle_graph(8), two_squares, "n2").distinguished


def test_m2_counts_ordered_pairs():
    # the reference's m2 marks pairs i < j of its node order (first mark 2, second 3), which depends
    # on the numbering; ours takes both orders: every relabelling gives the same colouring sizes
    G = nx.Graph([(0, 1), (1, 2), (2, 3), (1, 4)])
    sizes = {refine_pair(G, G, "m2").class_sizes}
    for seed in range(6):
        H = _shuffled(G, seed)
        sizes.add(refine_pair(H, H, "m2").class_sizes)
    assert len(sizes) == 1


def test_bad_graphs_are_refused():
    loop = nx.Graph([(0, 0), (1, 2)])  # as many nodes and edges as the path, so refinement starts
    for test in ("s3", "s4", "n2", "m1", "m2"):
        for fast in (True, False):
            with pytest.raises(UnsupportedGraphError, match="self-loop"):
                refine_pair(loop, nx.path_graph(3), test, fast=fast)


# --- registration ----------------------------------------------------------------------------


def test_names_labels_and_parsing():
    assert SUBGRAPH_BASELINE_TESTS == ("s3", "s4", "n1", "n2", "m1", "m2")
    assert [label_of(t) for t in SUBGRAPH_BASELINE_TESTS] == ["S3", "S4", "N1", "N2", "M1", "M2"]
    assert (ego_radius("n3"), label_of("n3"), is_test_name("n3"), is_test_name("n0"), is_test_name("m3")) == (
        3, "N3", True, False, False)
    with pytest.raises(UnknownNameError):
        refine_pair(nx.path_graph(2), nx.path_graph(2), "n0")


def test_theory_and_bounds_accept_the_names():
    from brec_runner.models.source import parse_bound
    from brec_runner.reports.theory import parse_tests
    from wltools.suites.theory import DEFAULT_SUITE_TESTS
    from wltools.suites.theory import parse_tests as suite_parse

    assert parse_tests("s3,n3,m1") == ("s3", "n3", "m1")
    assert suite_parse("s4, n2") == ("s4", "n2")
    assert not set(SUBGRAPH_BASELINE_TESTS) & set(DEFAULT_SUITE_TESTS)  # run when named
    assert parse_bound(("1wl", "n3"))["class"] == "between 1-WL and N3, as declared"
    assert parse_bound("m1")["upper"] == "m1"
    from brec_runner.models.source import ModelContractError

    with pytest.raises(ModelContractError, match="nK for ego networks"):
        parse_bound("n0")
    with pytest.raises(UnknownNameError):
        parse_tests("s5")


def test_cost_estimates_grow_and_refuse_large_inputs():
    for test in TESTS:
        assert 0 < peak_bytes(test, 50, 100, max_degree=4) < peak_bytes(test, 500, 1000, max_degree=4)
    assert peak_bytes("m2", 2000, 3000, max_degree=3) > 64 * 2**30  # n^2 marked copies of n nodes
    assert peak_bytes("s4", 5000, 500_000, max_degree=400) > 64 * 2**30  # m d^2 ordered paths
    assert peak_bytes("s4", 1000, 100_000, max_degree=400) < 2**30  # dense: the matrix products


def test_cli_check_accepts_nk():
    from click.testing import CliRunner

    from cli import cli

    out = CliRunner().invoke(cli, ["check", "cycle:8", "cycle:4+cycle:4", "--test", "n2"])
    assert out.exit_code == 0, out.output
    assert "n2    distinguished" in out.output
    bad = CliRunner().invoke(cli, ["check", "cycle:8", "cycle:4+cycle:4", "--test", "n0"])
    assert bad.exit_code == 2 and "nK" in bad.output


# --- BREC: counts on all 400 pairs, fast = exact on the representative part ------------------

#: Distinguished pairs per subcategory, as BREC's reference code (Non-GNNs/utils.py, WL_1_hash,
#: run on data/brec by benchmarks/nongnn_bench.py) finds them; Table 2 groups them as Basic /
#: Regular (simple + strongly regular + 4-vertex + distance regular) / Extension / CFI.
REFERENCE_COUNTS = {
    "s3": {"basic": 52, "simple_regular": 48, "strongly_regular": 0, "extension": 5, "cfi": 0, "4vertex": 0, "distance_regular": 0},
    "s4": {"basic": 60, "simple_regular": 49, "strongly_regular": 50, "extension": 84, "cfi": 0, "4vertex": 0, "distance_regular": 0},
    "n1": {"basic": 59, "simple_regular": 49, "strongly_regular": 50, "extension": 67, "cfi": 0, "4vertex": 20, "distance_regular": 0},
    "n2": {"basic": 60, "simple_regular": 50, "strongly_regular": 50, "extension": 100, "cfi": 0, "4vertex": 20, "distance_regular": 18},
    "m1": {"basic": 60, "simple_regular": 50, "strongly_regular": 0, "extension": 100, "cfi": 41, "4vertex": 0, "distance_regular": 0},
}


@pytest.mark.parametrize("test", ["s3", "s4", "n1", "n2", "m1"])
def test_brec_counts_equal_the_reference_code(test, brec_verdicts):
    """All 400 pairs, through the batched path `brec theory` uses (the session's theory cache)."""
    from brec_sample import all_pairs

    v = brec_verdicts(test)
    counts = Counter(p.subcategory for p in all_pairs() if v[p.id])
    assert {c: counts[c] for c in REFERENCE_COUNTS[test]} == REFERENCE_COUNTS[test]


@pytest.mark.parametrize("test", ["s3", "s4", "n1", "n2", "m1", "m2"])
def test_brec_sample_fast_agrees_with_exact_pair_by_pair(test):
    """The representative part of BREC (tests/brec_sample.py; up to 40 nodes for s4 and m2, whose
    straightforward paths grow fastest); all pairs: benchmarks/exact_crosscheck.py."""
    from brec_sample import sample_pairs

    pairs = sample_pairs(max_nodes=40 if test in ("s4", "m2") else 63)
    disagree = [p.id for p in pairs
                if _summary(refine_pair(p.g, p.h, test)) != _summary(refine_pair(p.g, p.h, test, fast=False))]
    assert not disagree
