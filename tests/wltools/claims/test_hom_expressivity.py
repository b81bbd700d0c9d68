"""The claims hom-expressivity and subgraph-counting (Zhang et al., ICLR 2024, Tables 4, 5 and
Example 4.6) on a representative part (patterns up to 5 vertices, cycles and paths up to 6), and
FAIL when a family is swapped."""

import pytest

from wltools.claims import get_claim
from wltools.claims.hom_expressivity import (check_hom_expressivity, check_subgraph_counting,
                                             cycle_path_table)
from wltools.hom import families
from wltools.hom.families import family_of

SMALL_HOM = dict(max_nodes=5, edge_max_nodes=5)
SMALL_SUB = dict(max_n=6, max_nodes=5, edge_max_nodes=4)


def test_registered():
    for cid in ("hom-expressivity", "subgraph-counting"):
        claim = get_claim(cid)
        assert "2401.08514" in claim.source and claim.method == "exhaustive"


def test_both_pass_on_the_published_numbers():
    res = check_hom_expressivity(**SMALL_HOM)
    assert res.status == "PASS", res.summary
    assert res.evidence["counts (n = 2..)"]["edge"]["Local 2-GNN"] == [1, 4, 21, 116]
    res = check_subgraph_counting(**SMALL_SUB)
    assert res.status == "PASS", res.summary


def _swapped(test, level="graph"):
    # Local 2-GNN given the Subgraph GNN family: a deliberately wrong family
    return family_of("swl-vs" if test == "sswl" else test, level)


def test_fail_when_a_family_is_swapped():
    res = check_hom_expressivity(family_of=_swapped, **SMALL_HOM)
    assert res.status == "FAIL" and "Local 2-GNN" in res.summary
    res = check_subgraph_counting(family_of=_swapped, **SMALL_SUB)
    assert res.status == "FAIL" and "Local 2-GNN" in res.summary


def test_fail_when_the_registered_family_is_monkeypatched(monkeypatch):
    monkeypatch.setitem(families._NODE, "Local 2-FGNN", families._NODE["MPNN"])
    res = check_hom_expressivity(**SMALL_HOM)
    assert res.status == "FAIL" and "node/Local 2-FGNN" in res.summary


def test_cycle_path_table_boundaries():
    table = cycle_path_table(5)
    assert table[("Subgraph GNN", "node")] == [(4, False), (4, False)]
    assert table[("MPNN", "graph")] == [(0, False), (3, False)]
    assert table[("2-FGNN", "edge")] == [(5, False), (5, False)]
