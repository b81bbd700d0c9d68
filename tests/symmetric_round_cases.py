"""The pairs the symmetric rounds (2-FWL's transposed pairs, 3-FWL's sorted triples) are checked
on against their full rounds, and the round-by-round comparison itself; shared by
tests/wltools/refine/test_symmetric_pairs.py and test_fwl3_symmetric.py."""

import networkx as nx
import numpy as np

from wltools.graphs import named_graph, permute_graph


def labelled(G, seed):
    """G with random 0/1 node labels and a/b edge labels."""
    rng = np.random.default_rng(seed)
    G = nx.convert_node_labels_to_integers(G)
    nx.set_node_attributes(G, {v: int(rng.integers(2)) for v in G}, "label")
    nx.set_edge_attributes(G, {e: "ab"[int(rng.integers(2))] for e in G.edges}, "label")
    return G


def case_pairs(extra=()):
    """Random, isomorphic, regular, strongly regular, CFI, tiny and labelled pairs, then ``extra``."""
    from brec_runner.runs.dataset import load_pairs

    cfi = load_pairs(ids=[265])[0]  # a small BREC CFI pair
    G = nx.gnm_random_graph(9, 14, seed=4)
    pairs = [
        (nx.gnm_random_graph(8, 12, seed=1), nx.gnm_random_graph(8, 12, seed=2)),
        (G, permute_graph(G, np.random.default_rng(0).permutation(9))),
        (nx.random_regular_graph(3, 10, seed=3), nx.random_regular_graph(3, 10, seed=5)),
        (named_graph("shrikhande"), named_graph("rook4x4")),
        (cfi.g, cfi.h),
        (nx.path_graph(3), nx.complete_graph(3)),
        *extra,
    ]
    return pairs + [(labelled(a, 10 + i), labelled(b, 10 + i)) for i, (a, b) in enumerate(pairs[:3])]


def assert_same_rounds(symmetric, full, where):
    """Two ``(result, History)`` runs agree on every round's colours, ids included, and on the
    verdict, rounds, class sizes and witness."""
    (a, ha), (b, hb) = symmetric, full
    assert ha.rounds == hb.rounds, where
    for (sg, sh), (fg, fh) in zip(ha.colours, hb.colours):
        assert np.array_equal(sg, fg) and np.array_equal(sh, fh), where
    assert (a.distinguished, a.iteration, a.iterations, a.class_sizes, a.witness) == (
        b.distinguished, b.iteration, b.iterations, b.class_sizes, b.witness)
