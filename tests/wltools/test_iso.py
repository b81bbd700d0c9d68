"""Tests of wltools.iso: nauty certificates against relabelings, networkx, and BREC facts."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from random_relabel import random_relabel

from wltools.errors import UnsupportedGraphError
from wltools.graphs import load_graph, parse_graph6, permute_graph
from wltools.iso import (
    canonical_graph6,
    canonical_labeling,
    canonical_order,
    certificate,
    certificate_digest,
    is_isomorphic,
)

BREC_DIR = Path(__file__).resolve().parents[2] / "data" / "brec"
BREC_FILES = ("basic", "regular", "str", "extension", "cfi", "4vtx", "dr")


@functools.lru_cache(maxsize=1)
def _brec_pairs() -> list[tuple[nx.Graph, nx.Graph]]:
    """The 400 BREC pairs, parsed once per module (no test changes them)."""
    pairs = []
    for name in BREC_FILES:
        raw = np.load(BREC_DIR / f"{name}.npy", allow_pickle=True).reshape(-1, 2)
        pairs += [(parse_graph6(g), parse_graph6(h)) for g, h in raw]
    return pairs


def test_random_graphs_vs_random_relabelings():
    rng = random.Random(12345)
    for _ in range(80):
        n = rng.randint(1, 16)
        G = nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(2**32))
        H = random_relabel(G, rng)
        assert is_isomorphic(G, H)
        assert certificate(G) == certificate(H)
        assert canonical_graph6(G) == canonical_graph6(H)
        assert certificate_digest(G) == certificate_digest(H)


def test_agrees_with_networkx_on_random_pairs():
    # Same n and m, so the cheap pre-checks rarely decide; both answers occur for small n.
    rng = random.Random(99)
    answers = []
    for _ in range(150):
        n = rng.randint(4, 7)
        m = rng.randint(0, n * (n - 1) // 2)
        G = nx.gnm_random_graph(n, m, seed=rng.randrange(2**32))
        H = nx.gnm_random_graph(n, m, seed=rng.randrange(2**32))
        expected = nx.is_isomorphic(G, H)
        assert is_isomorphic(G, H) == expected
        assert (certificate(G) == certificate(H)) == expected
        assert (canonical_graph6(G) == canonical_graph6(H)) == expected
        answers.append(expected)
    assert any(answers) and not all(answers)


def test_canonical_form_is_a_relabeling_of_the_graph():
    rng = random.Random(5)
    for _ in range(20):
        G = nx.gnp_random_graph(rng.randint(2, 12), 0.5, seed=rng.randrange(2**32))
        C = parse_graph6(canonical_graph6(G))
        assert nx.is_isomorphic(C, G)
        order = canonical_labeling(G)
        assert sorted(order) == list(range(G.number_of_nodes()))
        position = {v: i for i, v in enumerate(order)}
        assert {frozenset((position[u], position[v])) for u, v in G.edges()} == {
            frozenset(e) for e in C.edges()
        }


def test_named_pairs():
    assert not is_isomorphic(load_graph("shrikhande"), load_graph("rook4x4"))
    assert not is_isomorphic(load_graph("decalin"), load_graph("bicyclopentyl"))
    assert not is_isomorphic(load_graph("dodecahedral"), load_graph("desargues"))
    assert not is_isomorphic(load_graph("cycle:6"), load_graph("cycle:3+cycle:3"))
    assert is_isomorphic(load_graph("cubical"), nx.hypercube_graph(3))
    assert is_isomorphic(load_graph("petersen"), nx.kneser_graph(5, 2))


def test_different_orders_and_tiny_graphs():
    K1, K2bar = nx.empty_graph(1), nx.empty_graph(2)
    assert is_isomorphic(K1, nx.path_graph(1))
    assert not is_isomorphic(K1, K2bar)
    assert certificate(K1) != certificate(K2bar)
    # edgeless graphs of orders 1..70: nauty pads rows to words, the order prefix keeps them apart
    certs = {certificate(nx.empty_graph(n)) for n in range(1, 70)}
    assert len(certs) == 69
    assert not is_isomorphic(nx.path_graph(4), nx.star_graph(3))  # same n, m; degrees differ


def test_bad_input():
    with pytest.raises(UnsupportedGraphError):
        certificate(nx.Graph())
    with pytest.raises(UnsupportedGraphError):
        is_isomorphic(nx.DiGraph([(0, 1)]), nx.path_graph(2))
    with pytest.raises(UnsupportedGraphError):
        is_isomorphic(nx.path_graph(2), nx.Graph([(0, 0)]))


def test_brec_pairs_are_non_isomorphic_and_relabelings_are():
    """BREC (Wang & Zhang) README: every one of the 400 pairs is non-isomorphic."""
    pairs = _brec_pairs()
    assert len(pairs) == 400
    assert not any(is_isomorphic(g, h) for g, h in pairs)
    rng = random.Random(2024)
    for g, h in rng.sample(pairs, 40):
        assert is_isomorphic(g, random_relabel(g, rng))
        assert is_isomorphic(h, random_relabel(h, rng))


def test_docstring_examples_run():
    import doctest

    import wltools.iso

    result = doctest.testmod(wltools.iso)
    assert result.attempted > 0 and result.failed == 0


def test_canonical_order_inverts_canonical_labeling_and_gives_the_canonical_form():
    rng = random.Random(7)
    for _ in range(30):
        G = nx.gnp_random_graph(rng.randint(1, 12), rng.random(), seed=rng.randrange(2**32))
        inv = canonical_order(G)
        lab = canonical_labeling(G)
        assert inv.dtype == np.int64 and inv.shape == (G.number_of_nodes(),)
        assert [int(inv[v]) for v in lab] == list(range(G.number_of_nodes()))
        C = permute_graph(G, inv)
        n = C.number_of_nodes()
        assert nx.to_graph6_bytes(C, nodes=range(n), header=False).decode().strip() == canonical_graph6(G)
        H = random_relabel(G, rng)
        assert list(permute_graph(H, canonical_order(H)).edges) == list(C.edges)


# ----------------------------------------------------------------------------- one labelling, two labellers

import pynauty  # noqa: E402

from wltools import iso as iso_module  # noqa: E402
from wltools.errors import ResourceLimitError, UnknownNameError  # noqa: E402
from wltools.iso import CanonicalForm, canonical_form, choose_method  # noqa: E402

SUITES_DIR = Path(__file__).resolve().parents[2] / "data" / "suites"


def _pynauty_graph(G: nx.Graph) -> pynauty.Graph:
    n = G.number_of_nodes()
    return pynauty.Graph(n, directed=False, adjacency_dict={v: sorted(G.adj[v]) for v in range(n)})


def test_nauty_certificate_is_byte_identical_to_pynauty_certificate():
    """One nauty call per graph: the certificate is packed from canon_label's labelling, and equals
    what pynauty.certificate (a second nauty call) returns, for orders across word boundaries."""
    rng = random.Random(3)
    for n in list(range(1, 70)) + [127, 128, 129, 200, 256]:
        G = nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(2**32))
        assert certificate(G) == n.to_bytes(8, "big") + pynauty.certificate(_pynauty_graph(G))


def test_brec_canonical_orders_are_nautys():
    """The BREC runner's canonical orders are unchanged: every BREC graph is labelled by nauty
    and canonical_order is the inverse of pynauty.canon_label."""
    for i, G in enumerate(_brec_graphs()):
        assert choose_method(G.number_of_nodes()) == "nauty"
        expected = np.argsort(np.asarray(pynauty.canon_label(_pynauty_graph(G)), dtype=np.int64))
        order = canonical_order(G) if i % 20 == 0 else np.asarray(_brec_forms()[i].order, dtype=np.int64)
        assert _brec_forms()[i].method == "nauty" and order.tolist() == expected.tolist()


def _brec_graphs() -> list[nx.Graph]:
    return [G for pair in _brec_pairs() for G in pair]


@functools.lru_cache(maxsize=1)
def _brec_forms() -> list[CanonicalForm]:
    """canonical_form (nauty) of every BREC graph, computed once for the tests that compare with it;
    canonical_order / certificate are canonical_form's order / certificate (checked on every 20th)."""
    return [canonical_form(G) for G in _brec_graphs()]


def _classes(graphs, method):
    """Partition of graph indices by certificate under ``method``."""
    by: dict[bytes, list[int]] = {}
    for i, G in enumerate(graphs):
        by.setdefault(canonical_form(G, method).certificate, []).append(i)
    return sorted(by.values())


def test_bliss_agrees_with_nauty_on_every_brec_graph():
    """bliss (igraph) against pynauty on all 800 BREC graphs: the same verdict on every pair, the
    same certificate for a random relabelling, and a canonical form isomorphic to the graph."""
    rng = random.Random(11)
    nauty = iter(_brec_forms())
    for k, (g, h) in enumerate(_brec_pairs()):
        fg, fh = canonical_form(g, "bliss"), canonical_form(h, "bliss")
        assert fg.isomorphic(fh) is False  # nauty: every BREC pair is non-isomorphic
        for G, f in ((g, fg), (h, fh)):
            assert canonical_form(random_relabel(G, rng), "bliss").certificate == f.certificate
            want = next(nauty).certificate  # certificate(G), shared with the test above
            if k % 20 == 0:
                assert certificate(G) == want
            assert certificate(f.graph()) == want  # nauty: the form is G relabelled


@pytest.mark.parametrize("suite", ["sr", "exp"])
def test_bliss_agrees_with_nauty_on_suite_graphs(suite):
    """The held-out suites (data/suites): bliss and nauty split the graphs into the same
    isomorphism classes."""
    graphs = [parse_graph6(line) for path in sorted((SUITES_DIR / suite).glob("*.g6"))
              for line in path.read_bytes().split() if line]
    assert len(graphs) > 50
    assert _classes(graphs, "bliss") == _classes(graphs, "nauty")


def test_bliss_agrees_with_nauty_on_graph8c():
    """Every fourth of the 11,117 connected graphs of order 8: pairwise non-isomorphic under both
    labellers."""
    lines = (SUITES_DIR / "graph8c" / "graph8c.g6").read_bytes().split()
    graphs = [parse_graph6(line) for line in lines[::4]]
    for method in ("nauty", "bliss"):
        assert len({canonical_form(G, method).certificate for G in graphs}) == len(graphs)


@pytest.mark.parametrize("p", [0.05, 0.5, 0.9])
def test_bliss_on_random_graphs_including_dense_ones(p):
    """Sparse graphs, and dense ones (labelled through their complement), above the nauty size."""
    rng = random.Random(int(p * 100))
    n = 300
    G = nx.gnp_random_graph(n, p, seed=1)
    H = nx.gnp_random_graph(n, p, seed=2)
    H.add_edges_from(list(nx.non_edges(H))[: max(0, G.number_of_edges() - H.number_of_edges())])
    H.remove_edges_from(list(H.edges())[: max(0, H.number_of_edges() - G.number_of_edges())])
    fg = canonical_form(G)
    assert fg.method == "bliss" and fg.n == n
    assert canonical_form(random_relabel(G, rng)).certificate == fg.certificate
    assert is_isomorphic(G, random_relabel(G, rng))
    assert is_isomorphic(G, H) == (
        canonical_form(G, "nauty").certificate == canonical_form(H, "nauty").certificate)
    nauty = canonical_form(G, "nauty").certificate
    assert canonical_form(fg.graph(), "nauty").certificate == nauty  # the form is G relabelled


def test_large_sparse_graphs_by_bliss():
    G = load_graph("cycle:5000")
    H = random_relabel(G, random.Random(1))
    assert is_isomorphic(G, H)
    assert not is_isomorphic(G, load_graph("cycle:2500+cycle:2500"))
    assert canonical_form(G, "bliss").isomorphic(canonical_form(H, "bliss"))
    assert not canonical_form(G, "bliss").isomorphic(canonical_form(load_graph("cycle:2500+cycle:2500"), "bliss"))
    R = nx.random_regular_graph(3, 2000, seed=1)
    f = canonical_form(R, "bliss")
    assert f.method == "bliss"
    assert canonical_form(random_relabel(R, random.Random(2)), "bliss").certificate == f.certificate
    assert not f.isomorphic(canonical_form(nx.random_regular_graph(3, 2000, seed=2), "bliss"))


def test_canonical_form_fields_and_comparisons():
    f = canonical_form(nx.path_graph(4))
    assert isinstance(f, CanonicalForm) and (f.method, f.n, f.m) == ("nauty", 4, 3)
    assert f.digest() == certificate_digest(nx.path_graph(4))
    assert f.graph6() == canonical_graph6(nx.path_graph(4))
    assert list(canonical_labeling(nx.path_graph(4))) == [int(v) for v in np.argsort(f.order)]
    assert not f.isomorphic(canonical_form(nx.path_graph(400)))  # other order: no comparison
    with pytest.raises(ValueError):
        f.isomorphic(canonical_form(nx.path_graph(4), "bliss"))
    with pytest.raises(UnknownNameError):
        canonical_form(nx.path_graph(4), "saucy")


def test_size_limits_refuse_before_labelling(monkeypatch):
    monkeypatch.setattr(iso_module, "MAX_NODES", 50)
    with pytest.raises(ResourceLimitError, match="tested limit of 50 nodes"):
        canonical_form(nx.cycle_graph(51))
    monkeypatch.setattr(iso_module, "MAX_NODES", 100_000)
    monkeypatch.setattr(iso_module, "PYNAUTY_MAX_NODES", 20)

    def boom(*args, **kwargs):  # pragma: no cover - must not be reached
        raise AssertionError("pynauty called above its limit")

    monkeypatch.setattr(pynauty, "canon_label", boom)
    with pytest.raises(ResourceLimitError, match="pynauty overflows"):
        canonical_form(nx.cycle_graph(21), "nauty")


def test_peak_bytes_grows_with_size():
    assert iso_module.peak_bytes(100, 150) < iso_module.peak_bytes(100_000, 150_000) < 2**30
    assert iso_module.peak_bytes(1000, 499_500) > iso_module.peak_bytes(1000, 1000)


# ----------------------------------------------------------------------------- no copy of a plain graph

def _fields(f: CanonicalForm) -> tuple:
    return (f.method, f.n, f.m, f.order, f.edges, f.certificate, f.degrees, f.node_labels, f.edge_labels)


def test_plain_graphs_are_labelled_as_their_validated_copy():
    """The fast path (an unlabelled graph on the int nodes 0..n-1 is labelled as it is, not copied
    by validate_graph) against the copy, labelled as before: every field of the form the same, by
    nauty and bliss, for graphs whose nodes and edges were inserted in random order (so that the
    labellers get the edges in another order than the copy's), with other attributes, and four BREC graphs
    of each file; and the graphs the fast path must leave to validate_graph are left to it."""
    from wltools.graphs import validate_graph

    rng = random.Random(17)
    graphs = [parse_graph6(g) for name in BREC_FILES for g in np.load(BREC_DIR / f"{name}.npy", allow_pickle=True)
              .reshape(-1)[::41][:4]]
    for _ in range(60):
        G = nx.gnp_random_graph(rng.randint(1, 30), rng.random(), seed=rng.randrange(2**32))
        graphs.append(random_relabel(G, rng))
    nx.set_edge_attributes(graphs[-1], 2.5, "weight")
    nx.set_node_attributes(graphs[-1], "x", "colour")
    for G in graphs:
        copy = validate_graph(G)
        assert iso_module._plain(G) and iso_module._validated(G) is G
        for method in ("nauty", "bliss"):
            assert _fields(canonical_form(G, method)) == _fields(iso_module._form(copy, method))
    for other in (nx.Graph([(1, 2)]), nx.Graph([("a", "b")]), nx.Graph([(0, 1.0)]), nx.Graph([(0, True)]),
                  nx.Graph([(0, 1), (1, 1)]), nx.MultiGraph([(0, 1)]), nx.DiGraph([(0, 1)]), nx.Graph()):
        assert not iso_module._plain(other)
    labelled = nx.path_graph(3)
    nx.set_node_attributes(labelled, "x", "label")
    assert iso_module._plain(labelled) and iso_module._validated(labelled) is not labelled


def test_the_command_line_labels_with_bliss_without_importing_matplotlib(tmp_path):
    """`wltools iso` on two 300-node graphs (bliss, through python-igraph, whose import loads
    matplotlib.pyplot when it can: 1.5 CPU-s) imports igraph and not matplotlib (cli.quiet_imports).
    --iso-timeout inf: the labelling runs in the command's own process, whose imports are reported
    at its exit (forked children inherit the same import hook, and exit without reporting). That
    matplotlib still draws after igraph is loaded so: docs/datasets.md's `wltools dataset NCI1K ...
    --plot nci.png` (tests/docs/test_examples.py), which computes isomorphism classes first."""
    import os
    import subprocess
    import sys

    G = nx.random_regular_graph(3, 300, seed=4)
    a, b = tmp_path / "a.g6", tmp_path / "b.g6"
    a.write_bytes(nx.to_graph6_bytes(G, header=False))
    b.write_bytes(nx.to_graph6_bytes(random_relabel(G, random.Random(5)), header=False))
    script = ("import atexit, sys\natexit.register(lambda: sys.stderr.write('\\nLOADED=' + ','.join(m for m in "
              "('igraph', 'matplotlib') if m in sys.modules)))\nfrom cli import main\nsys.argv[0] = 'wltools'\nmain()\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run([sys.executable, "-c", script, "iso", str(a), str(b), "--iso-timeout", "inf"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("isomorphic (certificates")  # 300 nodes: bliss (choose_method)
    assert proc.stderr.rsplit("LOADED=", 1)[-1].strip() == "igraph"
