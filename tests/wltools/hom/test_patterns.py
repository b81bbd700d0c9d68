"""Connected patterns (wltools.hom.patterns): counts against OEIS and the paper's totals, the
augmentation path against the atlas, rooted patterns against networkx isomorphism, bad input."""

import networkx as nx
import pytest

from wltools.errors import ResourceLimitError, UnknownNameError
from wltools.hom import patterns
from wltools.hom.patterns import canonical_form, connected_graphs, rooted_patterns, sort_key


def test_counts_match_oeis_and_table4_totals():
    sizes = [len(connected_graphs(n, n)) for n in range(1, 8)]
    assert sizes == [1, 1, 2, 6, 21, 112, 853]  # OEIS A001349
    # Zhang et al. App. G.2, Table 4, row "All": rooted connected graphs, n = 2..5
    assert [len(rooted_patterns(n, "node", n)) for n in range(2, 6)] == [1, 3, 11, 58]
    assert [len(rooted_patterns(n, "edge", n)) for n in range(2, 6)] == [1, 4, 23, 162]


def test_augmentation_reaches_the_atlas():
    grown = patterns._augment(connected_graphs(5, 5))
    assert sorted(canonical_form(G)[0] for G in grown) == \
        sorted(canonical_form(G)[0] for G in connected_graphs(6, 6))


def test_sorted_canonical_and_copies():
    pats = connected_graphs(6)
    keys = [sort_key(G) for G in pats]
    assert keys == sorted(keys) and len(set(k[2] for k in keys)) == len(keys)
    assert all(list(G.nodes) == list(range(G.number_of_nodes())) and nx.is_connected(G) for G in pats)
    pats[3].add_edge(0, 99)
    assert 99 not in connected_graphs(6)[3]


def test_rooted_patterns_are_the_classes_of_marked_graphs():
    def marked(F, w, x):
        H = F.copy()
        nx.set_node_attributes(H, {v: (0 if v == w else 1 if v == x else -1) for v in H}, "m")
        return H

    same = nx.algorithms.isomorphism.categorical_node_match("m", None)
    reps = [marked(F, 0, 1) for F in rooted_patterns(4, "edge", 4)]
    for i, A in enumerate(reps):
        assert not any(nx.is_isomorphic(A, B, node_match=same) for B in reps[i + 1:])
    for G in connected_graphs(4, 4):
        for w in G:
            for x in G:
                if w != x:
                    H = marked(G, w, x)
                    assert sum(nx.is_isomorphic(H, B, node_match=same) for B in reps) == 1


def test_bad_requests():
    with pytest.raises(ResourceLimitError):
        connected_graphs(10)
    with pytest.raises(ResourceLimitError):
        rooted_patterns(10, "node")
    with pytest.raises(UnknownNameError):
        rooted_patterns(4, "pair")
    assert connected_graphs(0) == [] and rooted_patterns(1, "edge") == []
