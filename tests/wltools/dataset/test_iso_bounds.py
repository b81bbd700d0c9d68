"""Labelled isomorphism classes against networkx's VF2 with node and edge matches; the bounds and
pair counts against brute force over pairs and classes."""

import itertools
import random
from collections import Counter

import networkx as nx
import numpy as np
import pytest

from wltools.dataset.analysis import analyse
from wltools.dataset.bounds import class_stats, majority_bound, pairs_within
from wltools.dataset.collection import from_networkx
from wltools.dataset.iso_labelled import isomorphism_classes, labelled_certificate
from wltools.dataset.refine import refine_collection

_MATCH = dict(node_match=lambda a, b: a.get("label") == b.get("label"),
              edge_match=lambda a, b: a.get("label") == b.get("label"))


def _random_labelled(rng, n, p, nl, el):
    G = nx.gnp_random_graph(n, p, seed=rng.randrange(10**9))
    for v in G:
        G.nodes[v]["label"] = rng.randrange(nl)
    for u, v in G.edges:
        G.edges[u, v]["label"] = rng.randrange(el)
    return G


def _permuted(rng, G):
    perm = list(G.nodes)
    rng.shuffle(perm)
    H = nx.relabel_nodes(G, dict(zip(G.nodes, perm)))
    K = nx.Graph()
    K.add_nodes_from(sorted(H.nodes(data=True)))
    K.add_edges_from(H.edges(data=True))
    return K


def test_certificates_agree_with_vf2_on_small_labelled_graphs():
    rng = random.Random(0)
    graphs = []
    for _ in range(40):
        G = _random_labelled(rng, rng.randrange(3, 7), 0.5, 2, 2)
        graphs += [G, _permuted(rng, G)]
        H = G.copy()  # the same graph and node labels, edge labels moved around
        labels = [d["label"] for _, _, d in H.edges(data=True)]
        rng.shuffle(labels)
        for (u, v), lab in zip(list(H.edges), labels):
            H.edges[u, v]["label"] = lab
        graphs.append(H)
    coll = from_networkx(graphs, node_label="label", edge_label="label")
    certs = [labelled_certificate(coll, i) for i in range(len(graphs))]
    same, differ = 0, 0
    for i, j in itertools.combinations(range(len(graphs)), 2):
        if graphs[i].number_of_nodes() != graphs[j].number_of_nodes():
            continue
        iso = nx.is_isomorphic(graphs[i], graphs[j], **_MATCH)
        assert (certs[i] == certs[j]) == iso, (i, j)
        same += iso
        differ += not iso
    assert same >= 40 and differ >= 100


def test_edge_labels_alone_can_make_graphs_non_isomorphic():
    a = nx.path_graph(3)
    b = nx.path_graph(3)
    for G, labs in ((a, (0, 0)), (b, (0, 1))):
        for (u, v), lab in zip(G.edges, labs):
            G.edges[u, v]["label"] = lab
    coll = from_networkx([a, b], edge_label="label")
    assert labelled_certificate(coll, 0) != labelled_certificate(coll, 1)
    assert from_networkx([a, b]).num_graphs == 2
    unl = from_networkx([a, b])
    assert labelled_certificate(unl, 0) == labelled_certificate(unl, 1)


def test_isomorphism_classes_with_candidates_equal_without():
    rng = random.Random(4)
    graphs = []
    for _ in range(30):
        G = _random_labelled(rng, 5, 0.4, 2, 1)
        graphs += [G, _permuted(rng, G)]
    coll = from_networkx(graphs, node_label="label", edge_label="label")
    full = isomorphism_classes(coll)
    degrees = np.array([sorted(d for _, d in G.degree()).__repr__().__hash__() for G in graphs])
    cand = np.unique(degrees, return_inverse=True)[1]
    assert np.array_equal(full, isomorphism_classes(coll, cand))
    assert all(full[2 * i] == full[2 * i + 1] for i in range(30))


def _brute_stats(classes, iso, targets):
    G = len(classes)
    pairs = sum(1 for i, j in itertools.combinations(range(G), 2) if classes[i] == classes[j] and iso[i] != iso[j])
    by_class = {}
    for c, y in zip(classes, targets):
        by_class.setdefault(c, Counter())[y] += 1
    bound = sum(max(cnt.values()) for cnt in by_class.values()) / G
    conflicting = sum(sum(cnt.values()) for cnt in by_class.values() if len(cnt) > 1)
    return pairs, bound, conflicting


@pytest.mark.parametrize("seed", range(5))
def test_stats_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    iso = rng.integers(0, 12, size=60)
    classes = (iso * 7919 % 5) * (rng.integers(0, 2) + 1)  # a coarsening of iso
    targets = rng.integers(0, 3, size=60)
    s = class_stats(classes, iso, targets)
    pairs, bound, conflicting = _brute_stats(classes.tolist(), iso.tolist(), targets.tolist())
    assert s["unseparated_noniso_pairs"] == pairs
    assert s["accuracy_bound"] == pytest.approx(bound)
    assert s["conflicting_graphs"] == conflicting
    assert s["classes"] == len(set(classes.tolist()))
    assert pairs_within(np.arange(10)) == 0 and pairs_within(np.zeros(10, dtype=int)) == 45
    assert majority_bound(np.zeros(4, dtype=int), np.array([1, 1, 1, 1])) == (1.0, 0)


def test_isomorphism_refines_every_class_and_its_bound_tops_the_tests():
    """On atlas graphs with random labels and targets: isomorphic graphs share every class,
    and the bounds grow with rounds up to the bound of isomorphism."""
    rng = random.Random(9)
    graphs = [G.copy() for G in nx.graph_atlas_g()[20:120]]
    for G in graphs:
        for v in G:
            G.nodes[v]["label"] = rng.randrange(2)
    graphs += [_permuted(rng, G) for G in graphs[:30]]  # labelled copies: isomorphic to the originals
    coll = from_networkx(graphs, node_label="label", targets=[rng.randrange(2) for _ in graphs])
    rep = analyse(coll, ["1wl", "spd", "3wl"])
    iso = isomorphism_classes(coll)
    assert rep["isomorphism"]["classes"] == int(iso.max()) + 1 <= 100
    assert all(iso[i] == iso[100 + i] for i in range(30))
    iso_bound = rep["isomorphism"]["accuracy_bound"]
    for test in ("1wl", "spd", "3wl"):
        last = refine_collection(coll, test).graph_classes[-1]
        assert all(last[i] == last[100 + i] for i in range(30))
    for t in rep["tests"]:
        bounds = [r["accuracy_bound"] for r in t["rounds"]]
        assert bounds == sorted(bounds) and bounds[-1] <= iso_bound + 1e-12
        pairs = [r["unseparated_noniso_pairs"] for r in t["rounds"]]
        assert pairs == sorted(pairs, reverse=True)


def test_memory_and_size_refusals_are_one_line():
    from wltools.errors import ResourceLimitError

    coll = from_networkx([nx.path_graph(1001), nx.path_graph(3)])
    with pytest.raises(ResourceLimitError, match="3wl on graphs: graph 0 has 1,001 nodes, above the limit of 1,000"):
        analyse(coll, ["3wl"])
    small = from_networkx([nx.path_graph(5)] * 3)
    with pytest.raises(ResourceLimitError, match=r"^spd on graphs \(3 graphs, 15 nodes\) needs about .*--max-memory"):
        analyse(small, ["spd"], max_memory=1000)
    assert analyse(small, ["1wl"])["tests"][0]["rounds"][-1]["classes"] == 1


@pytest.mark.parametrize("test", ["1wl", "spd", "3wl"])
def test_peak_estimate_is_above_the_measured_peak(test):
    import tracemalloc

    from wltools.dataset.analysis import peak_bytes
    from wltools.dataset.tu import read_tu

    coll = read_tu("NCI1K").select(range(0, 200, 2))
    tracemalloc.start()
    try:
        refine_collection(coll, test)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= peak_bytes(coll, test) <= 12 * peak
