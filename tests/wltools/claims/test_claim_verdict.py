"""The claims' verdict without witness text (wltools.claims.zhang_gdwl.claim_verdict, verdict-only:
it stops at the first difference) against refine_pair: the same verdict and first differing round
on atlas pairs of equal order and size (where the inclusion claims' atlas checks spend their time),
the same rounds and class sizes where nothing differs, and refine_pair's verdict where the
shortcut does not apply (other tests, labels, unequal sizes)."""

import functools
import itertools

import networkx as nx
import pytest

from wltools.claims.zhang_gdwl import claim_verdict
from wltools.graphs import permute_graph
from wltools.refine import refine_pair


@functools.lru_cache(maxsize=None)
def _atlas_pairs(limit: int = 40) -> tuple:
    """Seeded: every ``k``-th pair of 6-node atlas graphs with the same number of edges, the
    7-node pairs 1-WL cannot separate, and 7-node graphs against a relabelled copy (not separated).
    Built once for the four tests (reading the atlas and hashing its 1,044 7-node graphs was half
    of each test's time); the graphs are only read."""
    import warnings

    six = [G for G in nx.graph_atlas_g() if G.number_of_nodes() == 6]
    same_m = [(G, H) for G, H in itertools.combinations(six, 2) if G.number_of_edges() == H.number_of_edges()]
    groups: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for G in nx.graph_atlas_g():
            if G.number_of_nodes() == 7:
                groups.setdefault(nx.weisfeiler_lehman_graph_hash(G, iterations=7), []).append(G)
    wl_equal = [pair for grp in groups.values() for pair in itertools.combinations(grp, 2)]
    copies = [(G, permute_graph(G, [6, 4, 2, 0, 1, 3, 5])) for G, _ in wl_equal[:10]]
    return tuple(same_m[:: max(1, len(same_m) // limit)] + wl_equal[:limit] + copies)


@pytest.mark.parametrize("test", ["spd", "rd", "rrwp", "3wl"])
def test_same_verdict_round_and_rounds_as_refine_pair(test):
    verdict = claim_verdict()
    seen = set()
    for G, H in _atlas_pairs():
        got, want = verdict(G, H, test), refine_pair(G, H, test)
        assert (got.distinguished, got.iteration) == (want.distinguished, want.iteration)
        if not want.distinguished:  # refined to stability all the same
            assert (got.iterations, got.class_sizes) == (want.iterations, want.class_sizes)
        seen.add(want.distinguished)
    assert seen == {True, False}  # both verdicts occur in the sample


def test_refine_pair_where_the_shortcut_does_not_apply():
    verdict = claim_verdict()
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    assert verdict(G, H, "1wl") == refine_pair(G, H, "1wl")  # not a _BARE test: refine_pair's witness
    assert verdict(nx.path_graph(3), nx.path_graph(4), "spd") == refine_pair(nx.path_graph(3), nx.path_graph(4), "spd")
    Gl, Hl = G.copy(), H.copy()
    nx.set_node_attributes(Gl, 1, "label")
    nx.set_node_attributes(Hl, 1, "label")
    got, want = verdict(Gl, Hl, "spd"), refine_pair(Gl, Hl, "spd")
    assert (got.distinguished, got.reason, got.iteration) == (want.distinguished, want.reason, want.iteration)
    assert got.distinguished and got.iterations is None  # verdict-only: stopped at the difference


def test_an_injected_refine_is_used_and_memoised():
    calls = []

    def refine(G, H, test):
        calls.append(test)
        return refine_pair(G, H, test)

    verdict = claim_verdict(refine)
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    assert verdict(G, H, "spd").witness == refine_pair(G, H, "spd").witness
    verdict(G, H, "spd")
    assert calls == ["spd"]
