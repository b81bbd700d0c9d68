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
