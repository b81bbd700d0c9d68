"""Tests of the subgraph WL hierarchy (:mod:`wltools.refine.swl`): the fast path against the dict
reference, invariance under relabelling, isomorphic graphs never separated, the inclusions of the
hierarchy (Zhang et al. ICML 2023, Fig. 1) and strict ones on BREC pairs, the bounds 1-WL <= SWL
<= 3-WL, an independent check of SWL(VS) through individualised 1-WL, the registry wiring and the
memory estimate."""

import itertools
import math
import warnings
from collections import Counter

import networkx as nx
import numpy as np
import pytest

from wltools.errors import UnknownNameError
from wltools.graphs import named_graph
from wltools.iso import is_isomorphic
from wltools.refine import refine_pair
from wltools.refine.cost import peak_bytes
from wltools.refine.swl import (
    HIERARCHY,
    SWL_CLASSES,
    SWL_MODELS,
    refine_swl,
    refine_swl_reference,
    row_width,
)
from wltools.refine.names import ALL_TESTS, SUBGRAPH_WL_TESTS, TEST_LABELS

SWL = tuple(SWL_CLASSES)


def _key(r):
    return (r.distinguished, r.reason, r.iteration, r.iterations, r.class_sizes)


def _permuted(G, seed):
    perm = np.random.default_rng(seed).permutation(len(G))
    return nx.relabel_nodes(G, {v: int(perm[v]) for v in G})


def _atlas_pairs():
    """Pairs of graphs of the networkx atlas (up to 7 nodes) with equal 1-WL hashes."""
    groups: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # networkx's note on its changed hashes
        for G in nx.graph_atlas_g():
            if len(G) > 1:
                key = (len(G), G.number_of_edges(), nx.weisfeiler_lehman_graph_hash(G, iterations=len(G)))
                groups.setdefault(key, []).append(G)
    return [pair for gs in groups.values() for pair in itertools.combinations(gs, 2)]


def _random_pairs():
    """Equal order and size, mostly 1-WL-equivalent (regular), some not: the rounds of first
    difference and the stable partitions vary."""
    out = [(nx.random_regular_graph(3, 10, seed=s), nx.random_regular_graph(3, 10, seed=30 + s)) for s in range(3)]
    out += [(nx.random_regular_graph(4, 9, seed=s), nx.random_regular_graph(4, 9, seed=40 + s)) for s in range(2)]
    out += [(nx.gnm_random_graph(8, 11, seed=s), nx.gnm_random_graph(8, 11, seed=60 + s)) for s in range(3)]
    out.append((nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))))
    out.append((named_graph("decalin"), named_graph("bicyclopentyl")))
    out.append((nx.path_graph(7), _permuted(nx.path_graph(7), 3)))  # isomorphic: never separated
    return out


# ------------------------------------------------------------------------------- fast vs reference


@pytest.mark.parametrize("test", SWL)
def test_fast_equals_reference_on_atlas_and_random_pairs(test):
    pairs = _atlas_pairs() + _random_pairs()
    assert len(pairs) > 30
    for i, (G, H) in enumerate(pairs):
        assert _key(refine_pair(G, H, test)) == _key(refine_pair(G, H, test, fast=False)), (test, i)


@pytest.mark.parametrize("test", SWL)
def test_fast_equals_reference_on_brec_pairs(test):
    """Basic, regular, extension pairs and two CFI pairs that separate classes (262: GSWL < SSWL,
    273: SWL(VS) < SWL(SV)), with many rounds."""
    from brec_runner.runs.dataset import load_pairs

    for p in load_pairs(ids=[0, 60, 110, 160, 262, 273]):
        assert _key(refine_pair(p.g, p.h, test)) == _key(refine_pair(p.g, p.h, test, fast=False)), p.id


@pytest.mark.parametrize("test", SWL)
def test_blocked_rounds_with_recomputed_rows_same_result(test):
    """A budget of a few rows per block: many blocks, a row store that fills up, so most
    representatives are recomputed (:class:`~wltools.refine.grouping.RowGrouper`)."""
    for G, H in _random_pairs()[:2] + [(nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4)))]:
        assert _key(refine_swl(G, H, test, max_bytes=3000)) == _key(refine_swl(G, H, test))


@pytest.mark.parametrize("edge_labels", [False, True])
@pytest.mark.parametrize("test", SWL)
def test_rows_of_all_pairs_equal_the_pair_by_pair_gather(test, edge_labels):
    """The rows of all pairs (the kernel's grid) and of all pairs u <= v (the symmetric round's
    upper_pairs), built from whole rows and columns, equal the rows gathered pair by pair for the
    same coordinates in other arrays, on random colourings of graphs of mixed degrees (pads),
    with and without edge labels: so every row the fast path builds either way is the one the
    rest of these tests check against the reference."""
    from wltools.distances import adjacency_matrix
    from wltools.graphs.labels import EDGE_LABEL, pair_labels
    from wltools.refine import swl
    from wltools.refine.kernel import grid
    from wltools.refine.symmetric_pairs import upper_pairs

    rng = np.random.default_rng(len(test))
    G, H = nx.gnm_random_graph(9, 14, seed=1), nx.gnm_random_graph(9, 14, seed=2)
    if edge_labels:
        for X in (G, H):
            nx.set_edge_attributes(X, {e: int(rng.integers(3)) for e in X.edges}, EDGE_LABEL)
    labels = pair_labels(G, H) if edge_labels else None
    d = max(max(dict(X.degree()).values()) for X in (G, H))
    spec, n = SWL_CLASSES[test], 9
    for g, X in enumerate((G, H)):
        E = labels.edge_matrix(g, n) if edge_labels else None
        T = swl._Tables(adjacency_matrix(X), d, E, labels.edge_ids if edge_labels else 1)
        C = rng.integers(0, 5, size=(n, n))
        gid = rng.integers(0, 4, size=n)
        for u, v in (grid((n, n)), upper_pairs(n)):
            fast = swl._rows(spec, T, C, *swl._pad(C), gid, 5, u, v)
            slow = swl._rows(spec, T, C, *swl._pad(C), gid, 5, u.copy(), v.copy())
            assert fast.shape == (u.size, row_width(test, d)) and np.array_equal(fast, slow), (test, g)


# ------------------------------------------------------------------------------- invariance


@pytest.mark.parametrize("test", SWL)
def test_result_invariant_under_relabelling(test):
    from brec_runner.runs.dataset import load_pairs

    pairs = [(p.g, p.h) for p in load_pairs(ids=[0, 110, 273])] + _random_pairs()[:3]
    for i, (G, H) in enumerate(pairs):
        a = refine_pair(G, H, test)
        b = refine_pair(_permuted(G, 10 + i), _permuted(H, 20 + i), test)
        assert _key(a) == _key(b), (test, i)


@pytest.mark.parametrize("test", SWL)
def test_isomorphic_graphs_never_distinguished(test):
    from brec_runner.runs.dataset import load_pairs

    graphs = [nx.gnp_random_graph(11, 0.35, seed=s) for s in range(3)] + [named_graph("petersen")]
    graphs += [p.g for p in load_pairs(ids=[0, 120, 262])]
    for i, G in enumerate(graphs):
        H = _permuted(G, 100 + i)
        assert is_isomorphic(G, H)
        r = refine_pair(G, H, test)
        assert not r.distinguished, (test, i, r.witness)
        assert r.class_sizes[0] == r.class_sizes[1]


# ------------------------------------------------------------------------------- known verdicts


@pytest.mark.parametrize("test", SWL)
def test_cycle_vs_two_triangles_separated_with_a_witness(test):
    r = refine_pair(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), test)
    assert r.distinguished and r.reason == "histogram" and r.iteration >= 1
    assert r.witness.startswith(f"iteration {r.iteration}: ") and " in G, " in r.witness
    if SWL_CLASSES[test].pooling == "VS":
        assert "subgraphs G^u whose colour multiset" in r.witness
    if test == "lfwl2":  # separated at round 1: the classes named by the pair types
        assert r.iteration == 1 and "adjacent pairs (u, v) whose (type(u,w), type(w,v)) multiset" in r.witness


@pytest.mark.parametrize("test", SWL)
def test_strongly_regular_twins_not_separated(test):
    """Shrikhande and the 4x4 rook's graph, srg(16, 6, 2, 2): 3-WL-equivalent, so every test
    bounded by 3-WL fails on them."""
    r = refine_pair(named_graph("shrikhande"), named_graph("rook4x4"), test)
    assert not r.distinguished and r.witness.startswith("colour histograms agree")


def test_swl_vs_equals_individualised_1wl():
    """SWL(VS) with node marking is 1-WL on each graph with one node individualised, pooled over
    the node (paper Sec. 3): an independent check, through networkx's WL hash, of the reading of
    the definition that the fast path and the reference share."""
    from brec_runner.runs.dataset import load_pairs

    def invariant(G):
        out = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for u in G:
                X = nx.Graph(G)
                nx.set_node_attributes(X, {x: str(int(x == u)) for x in X}, "mark")
                out.append(nx.weisfeiler_lehman_graph_hash(X, node_attr="mark", iterations=len(G)))
        return Counter(out)

    pairs = _atlas_pairs()[:10] + _random_pairs() + [(p.g, p.h) for p in load_pairs(ids=[0, 60, 110, 273, 292])]
    seen = set()
    for G, H in pairs:
        want = invariant(G) != invariant(H)
        assert refine_swl(G, H, "swl-vs").distinguished == want
        seen.add(want)
    assert seen == {True, False}


_REFERENCE: dict = {}


def _reference(test, i, G, H):
    """refine_swl_reference with the class's own initial colour on pair ``i`` of
    ``_atlas_pairs()[:10] + _random_pairs()``: computed once for the two tests below."""
    if (test, i) not in _REFERENCE:
        _REFERENCE[test, i] = refine_swl_reference(G, H, test)
    return _REFERENCE[test, i]


@pytest.mark.parametrize("test", SWL)
def test_initial_colour_changes_no_verdict(test):
    """Node marking only, or marking and adjacency (the 2-FWL atomic type): one round of the
    local aggregation recovers adjacency, so the stable verdicts agree (module docstring)."""
    other = {"marking": "atomic", "atomic": "marking"}[SWL_CLASSES[test].init]
    for i, (G, H) in enumerate(_atlas_pairs()[:10] + _random_pairs()):
        a = _reference(test, i, G, H)
        b = refine_swl_reference(G, H, test, init=other)
        assert a.distinguished == b.distinguished


@pytest.mark.parametrize("test", SWL[:6])
def test_distance_encoding_changes_no_verdict(test):
    """The authors' code feeds the shortest-path distance in beside the mark; with agg^L_u present
    the mark recovers it (module docstring), so the stable verdicts agree. The cycle against two
    triangles is included: SWL(VS) separates it at round 2 from the mark, at round 0 from d."""
    cases = _atlas_pairs()[:10] + _random_pairs()
    cases.append((nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))))
    for i, (G, H) in enumerate(cases):
        a = _reference(test, i, G, H)
        b = refine_swl_reference(G, H, test, init="distance")
        assert a.distinguished == b.distinguished
    assert refine_swl_reference(*cases[-1], test, init="distance").witness.endswith("iteration 0")


# ------------------------------------------------------------------------------- the hierarchy

#: BREC pairs that show a strict inclusion (found by running every test on all 400 pairs):
#: ``{(weaker, stronger): pair id}`` with the stronger test separating, the weaker not.
STRICT = {
    ("1wl", "swl-vs"): 0,
    ("spd", "pswl-vs"): 0,
    ("swl-vs", "swl-sv"): 273,
    ("swl-vs", "pswl-vs"): 273,
    ("pswl-vs", "pswl-sv"): 282,
    ("gswl", "sswl"): 262,
    ("lfwl2", "slfwl2"): 262,
    ("slfwl2", "3wl"): 276,
}


def test_hierarchy_inclusions_and_strictness_on_brec_pairs(brec_verdicts):
    """On pairs of every BREC category and the strictness witnesses; the verdicts are refine_pair's
    (fast path) through the session's theory cache, which test_all_brec_pairs_counts_and_inclusions
    below and tests/brec_runner/test_committed_theory.py fill for all 400 pairs of these tests
    anyway (test_fast_equals_reference_on_brec_pairs and test_brec_sample_fast_equals_reference
    hold that path to the reference)."""
    tests = ("1wl", "spd", "3wl") + SWL
    ids = sorted(set(STRICT.values()) | {60, 110, 160, 264, 279, 292, 360, 380})
    every = {t: brec_verdicts(t) for t in tests}
    v = {pid: {t: every[t][pid] for t in tests} for pid in ids}
    for a, b in HIERARCHY:
        for pid, by in v.items():
            assert not (by[a] and not by[b]), f"{a} separates pair {pid}, {b} does not"
    for t in SWL:
        for pid, by in v.items():
            assert by["1wl"] <= by[t] <= by["3wl"], (t, pid)
    for (a, b), pid in STRICT.items():
        assert v[pid][b] and not v[pid][a], (a, b, pid)
    # SWL(SV) and PSWL(VS) are not ordered as SWL(SV) <= PSWL(VS): pair 282
    assert v[282]["swl-sv"] and not v[282]["pswl-vs"]


def test_hierarchy_inclusions_on_atlas_and_random_pairs():
    tests = ("1wl", "spd", "3wl") + SWL
    for G, H in _atlas_pairs() + _random_pairs():
        by = {t: refine_pair(G, H, t).distinguished for t in tests}
        for a, b in HIERARCHY:
            assert by[b] or not by[a], (a, b)


def test_all_brec_pairs_counts_and_inclusions(brec_verdicts):
    """All eight tests and 3-WL on the 400 BREC pairs (the session's theory cache: computed once for
    every test that reads BREC verdicts)."""
    from brec_sample import all_pairs

    tests = ("1wl", "spd", "3wl") + SWL
    pairs = all_pairs()
    v = {p.id: {t: brec_verdicts(t)[p.id] for t in tests} for p in pairs}
    for a, b in HIERARCHY:
        bad = [pid for pid, by in v.items() if by[a] and not by[b]]
        assert not bad, (a, b, bad[:5])
    counts = {t: Counter(p.category for p in pairs if v[p.id][t]) for t in SWL}
    cfi = {t: counts[t]["cfi"] for t in SWL}
    assert cfi == {"swl-vs": 41, "swl-sv": 50, "pswl-vs": 49, "pswl-sv": 50, "gswl": 50, "sswl": 57,
                   "lfwl2": 49, "slfwl2": 57}
    for t in SWL:  # 3-WL's 60 / 50 / 100 and nothing on 4-vertex and distance-regular pairs
        assert (counts[t]["basic"], counts[t]["regular"], counts[t]["extension"]) == (60, 50, 100)
        assert counts[t]["4vertex"] == counts[t]["distance_regular"] == 0


@pytest.mark.parametrize("test", SWL)
def test_brec_sample_fast_equals_reference(test):
    """The representative part of BREC (tests/brec_sample.py, up to 40 nodes: the dict reference
    grows as n^4); every pair up to 70 nodes: benchmarks/exact_crosscheck.py --tests ..."""
    from brec_sample import sample_pairs

    for p in sample_pairs(max_nodes=40):
        assert _key(refine_pair(p.g, p.h, test)) == _key(refine_pair(p.g, p.h, test, fast=False)), p.id


# ------------------------------------------------------------------------------- wiring


def test_registered_names_labels_and_models():
    assert SUBGRAPH_WL_TESTS == SWL
    assert set(SWL) <= set(ALL_TESTS)
    assert [TEST_LABELS[t] for t in SWL] == [SWL_CLASSES[t].label for t in SWL] == [
        "SWL(VS)", "SWL(SV)", "PSWL(VS)", "PSWL(SV)", "GSWL", "SSWL", "LFWL(2)", "SLFWL(2)"]
    assert all(SWL_MODELS[t] for t in SWL)
    assert any("DS-GNN" in m for m in SWL_MODELS["swl-vs"])
    assert any("SUN" in m for m in SWL_MODELS["gswl"])
    assert {t for pair in HIERARCHY for t in pair} >= set(SWL)


def test_names_accepted_by_theory_and_bounds():
    from brec_runner.models.source import parse_bound
    from brec_runner.reports.theory import parse_tests as brec_tests
    from wltools.suites.theory import DEFAULT_SUITE_TESTS, parse_tests

    assert parse_tests("sswl, lfwl2") == ("sswl", "lfwl2")
    assert brec_tests("gswl,3wl") == ("gswl", "3wl")
    assert not set(SWL) & set(DEFAULT_SUITE_TESTS)  # run when named
    assert parse_bound("sswl")["upper"] == "sswl"
    assert parse_bound(("1wl", "gswl"))["class"] == "between 1-WL and GSWL, as declared"


def test_unknown_name_and_order_mismatch():
    with pytest.raises(UnknownNameError):
        refine_swl(nx.path_graph(3), nx.path_graph(3), "swl")
    with pytest.raises(UnknownNameError):
        row_width("3wl", 3)
    r = refine_pair(nx.path_graph(3), nx.path_graph(4), "sswl")
    assert (r.distinguished, r.reason) == (True, "order")


@pytest.mark.parametrize("fast", [True, False])
def test_directed_and_looped_graphs_refused(fast):
    from wltools.errors import UnsupportedGraphError

    looped = nx.path_graph(3)
    looped.add_edge(1, 1)
    for G in (nx.DiGraph([(0, 1), (1, 2)]), looped):
        with pytest.raises(UnsupportedGraphError):
            refine_pair(G, G.copy(), "slfwl2", fast=fast)


@pytest.mark.parametrize("test, n, degree", [("swl-vs", 80, 3), ("gswl", 80, 3), ("sswl", 120, 3),
                                             ("slfwl2", 80, 3), ("sswl", 60, 20), ("lfwl2", 60, 20)])
def test_peak_bytes_within_factor_two_of_measured(test, n, degree, refine_peak):
    G, H = nx.random_regular_graph(degree, n, seed=1), nx.random_regular_graph(degree, n, seed=2)
    peak = refine_peak(G, H, test, (nx.cycle_graph(20), nx.cycle_graph(20)))
    est = peak_bytes(test, n, G.number_of_edges(), max_degree=degree)
    assert peak / 2 <= est <= 2 * peak, (test, n, peak, est)
    assert est < peak_bytes(test, 2 * n, 2 * G.number_of_edges(), max_degree=degree)
    assert math.isfinite(est)


def test_cli_check_runs_and_refuses_by_the_estimate():
    """`wltools check --test sswl` answers, and over ``--max-memory`` refuses in one line, exit 2."""
    from click.testing import CliRunner

    import cli

    ok = CliRunner().invoke(cli.cli, ["check", "cycle:6", "cycle:3+cycle:3", "--test", "gswl"])
    assert ok.exit_code == 0 and "gswl  distinguished" in ok.output
    r = CliRunner().invoke(cli.cli, ["check", "cycle:3000", "cycle:3000", "--test", "sswl", "--max-memory", "1G"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [r.stderr.strip()] and r.stderr.startswith("error: SSWL on 3,000 nodes needs about")


def test_brec_theory_report_shows_the_hierarchy_section():
    from brec_runner.reports.theory_report import markdown_summary, run_theory

    report = run_theory("swl-vs,swl-sv,pswl-vs,pswl-sv", ids=[0, 282], use_cache=False)
    text = markdown_summary(report)
    assert "## Subgraph WL hierarchy" in text
    assert "| pswl-vs | pswl-sv | none | 1 (e.g. 282) |" in text
    assert "| swl-vs | swl-sv | none | 1 (e.g. 282) |" in text
