"""Tests of the scalable refinement paths: sparse 1-WL, blocked GD-WL and 2-FWL against the exact
references (random and BREC pairs, small block budgets that force many blocks and the
recomputed-representative path), and the stated peak memory against the measured one."""


import networkx as nx
import pytest

from wltools.refine import refine_pair
from wltools.refine.cost import peak_bytes
from wltools.refine.fwl import refine_fwl2, refine_fwl2_reference
from wltools.refine.gdwl import refine_gdwl, refine_gdwl_reference


def _key(r):
    return (r.distinguished, r.reason, r.iteration, r.iterations, r.class_sizes)


def _pairs():
    out = [(nx.path_graph(30), nx.path_graph(30)), (nx.cycle_graph(12), nx.disjoint_union(nx.cycle_graph(5), nx.cycle_graph(7)))]
    for s in range(4):
        out.append((nx.gnm_random_graph(14, 18, seed=s), nx.gnm_random_graph(14, 18, seed=40 + s)))
    return out


@pytest.mark.parametrize("test", ["1wl", "spd", "rd", "rrwp", "3wl"])
def test_fast_equals_reference_random(test):
    for G, H in _pairs():
        assert _key(refine_pair(G, H, test, rrwp_steps=5)) == _key(refine_pair(G, H, test, rrwp_steps=5, fast=False))


def test_tiny_block_budget_same_result():
    for G, H in _pairs():
        a = refine_fwl2(G, H, max_bytes=1)  # one node per block, no stored rows: every rep recomputed
        assert _key(a) == _key(refine_fwl2_reference(G, H))
        b = refine_gdwl(G, H, ["spd"], max_bytes=1, test="spd")
        assert _key(b) == _key(refine_gdwl_reference(G, H, ["spd"], test="spd"))


def test_wl1_long_paths_rounds():
    r = refine_pair(nx.path_graph(101), nx.path_graph(101), "1wl")
    assert (r.distinguished, r.iterations) == (False, 50)
    G = nx.path_graph(40)
    H = nx.path_graph(40)
    H.remove_edge(19, 20)
    H.add_edge(0, 39)  # a cycle: all degrees 2
    G2 = nx.disjoint_union(nx.path_graph(20), nx.cycle_graph(20))
    ref = refine_pair(G, G2, "1wl", fast=False)
    assert _key(refine_pair(G, G2, "1wl")) == _key(ref)


@pytest.mark.parametrize("test", ["1wl", "spd"])
def test_brec_subset_fast_equals_reference(test):
    from brec_runner.runs.dataset import load_pairs

    for p in load_pairs(ids=list(range(0, 400, 13))):
        assert _key(refine_pair(p.g, p.h, test)) == _key(refine_pair(p.g, p.h, test, fast=False)), p.id


@pytest.mark.parametrize("test, n, degree", [("1wl", 4000, 3), ("spd", 300, 3), ("rd", 80, 3), ("rrwp", 80, 3),
                                             ("3wl", 80, 3), ("epwl", 80, 3), ("epwl-lap", 80, 3),
                                             ("rrwp", 60, 20), ("epwl-lap", 60, 20), ("rrwp", 150, 3),
                                             ("3fwl", 40, 3)])
def test_peak_bytes_within_factor_two_of_measured(test, n, degree, refine_peak):
    """The estimate against tracemalloc's peak, on regular graphs of low and high degree (the
    degrees given as the CLI gives them: RRWP's and EPWL's prime counts grow with them)."""
    import math

    G, H = nx.random_regular_graph(degree, n, seed=1), nx.random_regular_graph(degree, n, seed=2)
    # the warm-up takes the imports (scipy) outside the trace; for 3-FWL (n^4 work a round) a
    # 70-node pair would take ten times the measured run, and 12 nodes import as much
    w = 12 if test == "3fwl" else 70
    peak = refine_peak(G, H, test, (nx.cycle_graph(w), nx.cycle_graph(w)))
    est = peak_bytes(test, n, G.number_of_edges(), max_degree=degree, lcm_degrees=math.lcm(degree))
    assert peak / 2.5 <= est <= 2.5 * peak, (test, n, peak, est)


def test_1wl_declaration_does_not_pad_to_the_largest_degree():
    """A 2,000-node star against a path: padded neighbour rows would be 2n x (n - 1) int64 (64 MB,
    32 MB as int32, both over the 16 MB bound); the declaration's rounds stay within about 1 MB
    (tracemalloc), with the reference's verdict."""
    import tracemalloc

    from wltools.refine.kernel import refine
    from wltools.refine.wl1 import wl1_declaration

    G, H = nx.star_graph(1999), nx.path_graph(2000)
    tracemalloc.start()
    try:
        r = refine(wl1_declaration(G, H))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (r.distinguished, r.iteration) == (True, 1) and r.iterations == 999  # a path of n: n/2 rounds
    assert peak < 16 * 2**20, peak


def test_drawings_refuse_with_one_line_beyond_their_memory_bound(monkeypatch):
    """colour_rounds keeps every round: past its budget it refuses with one line (ResourceLimitError),
    it does not grow without a bound; within the budget it works."""
    import wltools.runtime.memory as memory
    from wltools.draw import colour_rounds
    from wltools.errors import ResourceLimitError

    G, H = nx.star_graph(399), nx.path_graph(400)
    monkeypatch.setattr(memory, "default_budget", lambda: 2**20)  # 1 MiB: ~30 rounds of 800 nodes
    with pytest.raises(ResourceLimitError) as err:
        colour_rounds(G, H, "1wl")
    assert "\n" not in str(err.value) and "draw a smaller pair" in str(err.value)
    monkeypatch.setattr(memory, "default_budget", lambda: 64 * 2**20)
    assert colour_rounds(G, H, "1wl").rounds == 199
