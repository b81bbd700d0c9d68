"""grit-3.2's fast paths against the slow exact ones: the first nonzero RRWP channel from the
integer powers (no Fractions) equals the one read from ``rrwp_exact``'s Fractions, and the BREC
inclusion's RRWP verdict without witness text equals refine_pair's."""

import networkx as nx
import pytest

from wltools.claims.grit import first_nonzero_spd
from wltools.claims.zhang_gdwl import claim_verdict
from wltools.distances import rrwp_exact, spd_matrix
from wltools.refine import refine_pair

GRAPHS = [nx.petersen_graph(), nx.path_graph(5), nx.star_graph(4), nx.empty_graph(3), nx.empty_graph(1),
          nx.disjoint_union(nx.cycle_graph(4), nx.complete_graph(3)), nx.gnp_random_graph(14, 0.25, seed=3),
          nx.convert_node_labels_to_integers(nx.barbell_graph(4, 2))]


@pytest.mark.parametrize("G", GRAPHS, ids=range(len(GRAPHS)))
def test_integer_zero_pattern_equals_the_fraction_one_and_spd(G):
    n = G.number_of_nodes()
    for K in (1, 2, n):
        fast = first_nonzero_spd(G, K, exact=True)
        slow = first_nonzero_spd(G, K, exact=True, rrwp_exact=rrwp_exact)
        assert fast == slow
    want = [[-1 if x < 0 else x for x in row] for row in spd_matrix(G).tolist()]
    assert first_nonzero_spd(G, n, exact=True) == want  # identity (6), independently


def test_the_bare_rrwp_verdict_equals_refine_pair_on_brec_pairs(brec):
    verdict = claim_verdict()
    picked = [p for p in brec if p.g.number_of_nodes() <= 32][::21]
    seen = set()
    for p in picked:
        want = refine_pair(p.g, p.h, "rrwp").distinguished
        assert verdict(p.g, p.h, "rrwp").distinguished == want
        seen.add(want)
    assert len(picked) >= 8 and seen == {True, False}
