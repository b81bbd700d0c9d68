"""A machine check of the maximality of the homomorphism families on every small pattern.

For each test with a family (:data:`wltools.hom.families.FAMILY_TESTS`) and each connected pattern
F up to 5 vertices, the Fürer pair over F is distinguished by the test exactly when F lies in the
test's family: outside it, the test cannot tell the Fürer graph from its twisted version (Zhang,
Gai, Du, Ye, He & Wang, ICLR 2024, arXiv 2401.08514, the proof of their maximality theorem; Gai et
al., ICLR 2025, for EPWL's parallel trees); inside it, hom(F, .) differs between the two graphs
(Roberson 2022), and the test sees every count of its family. Both directions are checked, so a
wrong family membership, a refinement that is too weak or too strong, or a Fürer pair that is not
twisted all fail here. The check is the claim ``fuerer-pairs`` (:mod:`wltools.claims.hierarchy`); this file runs it and
plants a wrong family to see it fail. (Measured: 0 mismatches over the 8 tests x 30 patterns.)

Node level (Sec. 3.3, Theorem 3.7): the node colours of the marked vertex (w, {}) of the Fürer pair
over F^w (:func:`wltools.hierarchy.furer.rooted_furer_pair`, :mod:`wltools.hierarchy.levels`) differ
exactly when F^w is in the node-level family; checked on known answers taken from the theorem's
families and through the claim, with a wrong root planted to see it fail.
"""

from __future__ import annotations

from wltools.claims.hierarchy import check_fuerer_pairs
from wltools.hom.families import FAMILY_TESTS


def test_fuerer_pairs_are_separated_exactly_inside_the_families():
    res = check_fuerer_pairs()
    assert res.status == "PASS", res.witness
    assert res.evidence["patterns"] == 30  # every connected graph on 2..5 vertices: 1 + 2 + 6 + 21
    assert res.evidence["checked"] == 30 * len(FAMILY_TESTS) and res.evidence["mismatches"] == 0
    assert 0 < res.evidence["pattern_inside_family"] < res.evidence["checked"]  # both directions occur


def test_a_wrong_family_fails_naming_the_test_and_pattern(monkeypatch):
    """SSWL's family taken as 1-WL's (forests): the Fürer pair over the triangle is distinguished by
    SSWL although the triangle is "outside", and the claim fails naming it."""
    import wltools.hom.families as families

    real = families.family_of

    def wrong(test, level="graph"):
        return real("1wl" if test == "sswl" else test, level)

    monkeypatch.setattr(families, "family_of", wrong)
    res = check_fuerer_pairs(max_nodes=4)
    assert res.status == "FAIL" and "sswl on the Fürer pair over" in res.witness


def test_equal_counts_fail(monkeypatch):
    """A Fürer pair whose two graphs are the same graph (no twist) has equal counts: the claim fails."""
    import wltools.hierarchy.furer as furer

    monkeypatch.setattr(furer, "furer_pair", lambda F: (lambda G: (G, G.copy()))(furer.furer_graph(F)))
    res = check_fuerer_pairs(max_nodes=3)
    assert res.status == "FAIL" and res.evidence["hom_counts_not_different"] == 3


# --- node level (Zhang et al. 2024, Sec. 3.3, Theorem 3.7) -------------------------------------

import networkx as nx  # noqa: E402
import pytest  # noqa: E402

from wltools.errors import UnsupportedGraphError  # noqa: E402
from wltools.hierarchy.furer import rooted_furer_pair  # noqa: E402
from wltools.hierarchy.levels import level_colours  # noqa: E402


def _roots_differ(F: nx.Graph, test: str) -> bool:
    """Whether ``test``'s node colours of the marked vertices (w = 0) of the Fürer pair over F differ."""
    G, H, at = rooted_furer_pair(F, (0,))
    cg, ch = level_colours(G, H, test, "node")
    return bool(cg[at] != ch[at])


#: Expected from Theorem 3.7's families, not from the code: MPNN sees exactly the rooted trees,
#: Subgraph GNN the F^w with F - w a forest, 2-FGNN those of treewidth <= 2.
KNOWN = [
    ("1wl", nx.path_graph(3), True),            # P3 rooted at an end: a tree
    ("1wl", nx.path_graph(4), True),            # P4 rooted at an end
    ("1wl", nx.cycle_graph(3), False),          # the triangle: not a tree
    ("1wl", nx.cycle_graph(4), False),
    ("swl-vs", nx.cycle_graph(4), True),        # C4 - w is a path
    ("m1", nx.cycle_graph(4), True),
    ("swl-vs", nx.complete_graph(4), False),    # K4 - w is a triangle
    ("m1", nx.complete_graph(4), False),
    ("3wl", nx.complete_graph(4), False),       # treewidth 3
    ("3wl", nx.cycle_graph(5), True),
]


@pytest.mark.parametrize("test,F,inside", KNOWN, ids=[f"{t}-{nx.to_graph6_bytes(F, header=False).decode().strip()}"
                                                      for t, F, _ in KNOWN])
def test_rooted_fuerer_pair_known_answers(test, F, inside):
    assert _roots_differ(F, test) == inside


def test_the_claim_checks_node_level_both_ways():
    res = check_fuerer_pairs(max_nodes=4)
    node = res.evidence["node"]
    assert res.status == "PASS", res.witness
    assert node["tests"] == ["1wl", "swl-vs", "m1", "sswl", "slfwl2", "3wl"] and node["mismatches"] == 0
    assert node["checked"] == 6 * node["patterns"] and 0 < node["pattern_inside_family"] < node["checked"]
    assert node["hom_counts_not_different"] == 0 and node["patterns_separated_by_the_root_not_checked"] > 0
    assert set(node["left_out"]) == {"3fwl", "epwl"}
    assert res.evidence["edge"]["checked"] == 0 and "not checked" in res.evidence["edge"]["left_out"]["sswl"]
    assert "is no fooling pair" in res.evidence["edge"]["why"]


def test_a_root_that_separates_the_pattern_is_refused():
    paw = nx.Graph([(0, 1), (0, 2), (0, 3), (2, 3)])  # 0 cuts the pendant 1 off the triangle
    with pytest.raises(UnsupportedGraphError, match="separate"):
        rooted_furer_pair(paw, (0,))


def test_a_root_from_another_gadget_in_H_fails(monkeypatch):
    """H marked at (a, {}), a the largest neighbour of w, instead of (w, {}) (H relabelled so that
    this vertex takes the root's number): a deliberately wrong construction, which the claim must
    catch. (Marking (w, U) with |U| = 2 instead is no break: when F - w is connected, flipping w's
    gadget by U is an isomorphism of the twisted graph up to moving the twist.)"""
    import wltools.hierarchy.furer as furer

    real = furer.rooted_furer_pair

    def moved(F, marks):
        G, H, at = real(F, marks)
        other = furer.furer_vertex(F, max(F[marks[0]]))
        return G, nx.relabel_nodes(H, {at[0]: other, other: at[0]}), at

    monkeypatch.setattr(furer, "rooted_furer_pair", moved)
    res = check_fuerer_pairs(max_nodes=4)
    assert res.status == "FAIL" and res.evidence["node"]["mismatches"] > 0
