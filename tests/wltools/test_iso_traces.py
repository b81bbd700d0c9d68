"""Traces (nauty's dreadnaut, wltools.iso.traces) against nauty and bliss: the same isomorphism
classes on every graph family the other labellers are tested on, certificates invariant under
relabelling, labels respected, runs stopped at their deadline, and a failing dreadnaut reported in
one line."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from random_relabel import random_relabel

from wltools.check import check_pair
from wltools.graphs import parse_graph6
from wltools.iso import TRACES_MIN_NODES, canonical_form, canonical_forms, certificate, choose_method, traces

if not traces.available():  # the test extra installs it (passagemath-nauty): a skip says why
    pytest.skip("nauty's dreadnaut is not installed (pip install -e \".[traces]\"): the Traces tests need it",
                allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
BREC_FILES = ("basic", "regular", "str", "extension", "cfi", "4vtx", "dr")


def _classes(graphs, method):
    """Partition of graph indices by certificate under ``method``."""
    by: dict[bytes, list[int]] = {}
    for i, f in enumerate(canonical_forms(graphs, method)):
        assert f.method == method
        by.setdefault(f.certificate, []).append(i)
    return sorted(by.values())


def test_traces_partitions_brec_and_the_suites_as_nauty_does():
    """All 800 BREC graphs with a relabelled copy of every tenth (so that isomorphic classes of
    size two occur), and the sr and exp suites: Traces's classes equal nauty's."""
    rng = random.Random(5)
    graphs = []
    for name in BREC_FILES:
        raw = np.load(ROOT / "data" / "brec" / f"{name}.npy", allow_pickle=True).reshape(-1)
        graphs += [parse_graph6(g) for g in raw]
    graphs += [random_relabel(G, rng) for G in graphs[::10]]
    for suite in ("sr", "exp"):
        graphs += [parse_graph6(line) for path in sorted((ROOT / "data" / "suites" / suite).glob("*.g6"))
                   for line in path.read_bytes().split() if line]
    classes = _classes(graphs, "traces")
    assert classes == _classes(graphs, "nauty")
    assert any(len(c) > 1 for c in classes)


def test_small_graphs_share_a_dreadnaut_process_and_get_their_own_labellings(monkeypatch):
    """canonical_forms puts consecutive small graphs (nodes and edges at most TRACES_MIN_NODES)
    into one dreadnaut process; each graph gets the form its own process gives (the same
    certificate, edges and labels), whatever came before it in the script: unlabelled graphs after
    labelled ones (``n=`` resets the partition), edge-labelled ones, single vertices, graphs without
    edges, a dense one (its complement), and a graph Traces would be chosen for between them (a
    process of its own)."""

    rng = random.Random(9)
    graphs = []
    for k in range(40):
        G = nx.gnp_random_graph(rng.randint(1, 30), 0.95 if k % 9 == 0 else rng.random() / 2, seed=k)
        if k % 3 == 1:
            nx.set_node_attributes(G, {v: "ab"[v % 2] for v in G}, "label")
        if k % 3 == 2 and G.number_of_edges():
            nx.set_edge_attributes(G, {e: rng.randint(0, 2) for e in G.edges}, "label")
        graphs.append(G)
    graphs.insert(20, nx.random_regular_graph(3, TRACES_MIN_NODES + 2, seed=1))
    batches = []
    start_batch = traces.start_batch
    monkeypatch.setattr(traces, "start_batch", lambda gs: batches.append(len(gs)) or start_batch(gs))
    batched = canonical_forms(graphs, "traces")
    assert batches == [20, 20]  # the 20 small graphs on each side of the large one: one process each
    alone = [canonical_form(G, "traces") for G in graphs]
    assert [(f.certificate, f.edges, f.node_labels, f.edge_labels) for f in batched] == \
        [(f.certificate, f.edges, f.node_labels, f.edge_labels) for f in alone]
    assert len({f.certificate for f in batched}) > 30


def _families():
    yield "cycle", nx.cycle_graph(3000)
    yield "two cycles", nx.disjoint_union(nx.cycle_graph(1500), nx.cycle_graph(1500))
    yield "cubic", nx.random_regular_graph(3, 3000, seed=1)
    yield "grid", nx.convert_node_labels_to_integers(nx.grid_2d_graph(40, 40))
    yield "tree", nx.random_labeled_tree(2000, seed=2)
    yield "hypercube", nx.convert_node_labels_to_integers(nx.hypercube_graph(11))
    yield "isolated", nx.empty_graph(1200)
    G = nx.gnp_random_graph(1100, 0.004, seed=3)  # isolated vertices and small components too
    yield "sparse gnp", G
    # dense graphs (labelled through their complement), at 300 nodes: above 1,000 they have
    # 250,000 edges or more and networkx takes seconds to copy them
    yield "dense gnp", nx.gnp_random_graph(300, 0.6, seed=4)
    yield "complete", nx.complete_graph(300)


@pytest.mark.parametrize("name,G", list(_families()), ids=[n for n, _ in _families()])
def test_traces_certificates_are_invariant_and_agree_with_bliss(name, G):
    """Above TRACES_MIN_NODES Traces is the default labeller; a relabelled copy has the same
    certificate, the canonical form is the graph relabelled (bliss says so), and a graph with one
    edge moved differs under both labellers."""
    if G.number_of_nodes() > TRACES_MIN_NODES:
        assert choose_method(G.number_of_nodes()) == "traces"
    rng = random.Random(len(name))
    f, g = canonical_forms([G, random_relabel(G, rng)], "traces")
    assert f.method == "traces" and f.certificate == g.certificate
    bliss = canonical_form(G, "bliss")  # once: the edge-moved check below compares with it too
    assert canonical_form(f.graph(), "bliss").certificate == bliss.certificate
    assert [G.number_of_edges(), G.number_of_nodes()] == [f.m, f.n]
    if 0 < G.number_of_edges() < G.number_of_nodes() * (G.number_of_nodes() - 1) // 2:
        H = nx.Graph(G)
        u, v = next(iter(H.edges()))
        w = next(x for x in H if x != u and not H.has_edge(u, x))
        H.remove_edge(u, v)
        H.add_edge(u, w)
        same_bliss = canonical_form(H, "bliss").isomorphic(bliss)
        assert canonical_form(H, "traces").isomorphic(f) == same_bliss


def test_labelled_graphs_by_traces():
    """Node and edge labels above the Traces size: equal under a relabelling with the labels
    carried along, different when one label changes, as bliss decides."""
    rng = np.random.default_rng(3)
    G = nx.random_regular_graph(3, 800, seed=1)  # 800 nodes + 1200 subdivision vertices
    nx.set_edge_attributes(G, {e: int(rng.integers(2)) for e in G.edges}, "label")
    nx.set_node_attributes(G, {v: "ab"[int(rng.integers(2))] for v in G}, "label")
    H = nx.relabel_nodes(G, dict(zip(G, rng.permutation(800).tolist())))
    f, h = canonical_form(G), canonical_form(H)
    assert f.method == "traces" and f.labelled and f.isomorphic(h)
    for change in ("edge", "node"):
        K = nx.Graph(H)
        if change == "edge":
            K.edges[next(iter(K.edges))]["label"] ^= 1
        else:
            K.nodes[0]["label"] = "b" if K.nodes[0]["label"] == "a" else "a"
        assert not canonical_form(K).isomorphic(f)
        assert not canonical_form(K, "bliss").isomorphic(canonical_form(G, "bliss"))


def test_labels_on_a_symmetric_graph_by_traces():
    """On a cycle, whose automorphisms move every node, only a labelling that respects the colour
    partition gives a relabelled copy the same certificate: labels at 0, 1 and 5 against the same
    labels carried by a reflection and rotation, and against labels at 0, 2 and 5."""
    n = 1500

    def labelled(marked, shift=0, sign=1):
        C = nx.relabel_nodes(nx.cycle_graph(n), {v: (sign * v + shift) % n for v in range(n)})
        nx.set_node_attributes(C, {(sign * v + shift) % n: "a" if v in marked else "b" for v in range(n)}, "label")
        return C

    G = labelled({0, 1, 5})
    same, other = labelled({0, 1, 5}, shift=700, sign=-1), labelled({0, 2, 5}, shift=3)
    f = canonical_form(G)
    assert f.method == "traces"
    assert f.isomorphic(canonical_form(same)) and canonical_form(G, "bliss").isomorphic(canonical_form(same, "bliss"))
    assert not f.isomorphic(canonical_form(other))
    assert not canonical_form(G, "bliss").isomorphic(canonical_form(other, "bliss"))


def test_isomorphic_large_pair_in_check_and_at_once():
    """check_pair on a relabelled random 3-regular pair of 5,000 nodes: decided by Traces."""
    G = nx.random_regular_graph(3, 5000, seed=7)
    c = check_pair(G, random_relabel(G, random.Random(8)), ("1wl",), iso_timeout=120)
    assert c.isomorphic is True and c.forms[0].method == "traces"
    assert c.forms[0].certificate == c.forms[1].certificate


def test_a_run_over_its_deadline_is_killed(tmp_path, monkeypatch):
    """A dreadnaut that never answers: no form at the deadline, the process killed, its files
    gone; check_pair reports the pair undecided."""
    slow = tmp_path / "dreadnaut"
    slow.write_text("#!/bin/sh\nexec sleep 60\n")
    slow.chmod(0o755)
    monkeypatch.setenv(traces.DREADNAUT_ENV, str(slow))
    G = nx.cycle_graph(1500)
    run = traces.start(G.number_of_nodes(), list(G.edges()))
    start = time.monotonic()
    assert run.result(start + 0.5) is None
    assert time.monotonic() - start < 10
    assert run._proc.poll() is not None and not Path(run._dir.name).exists()
    assert canonical_forms([G, G], timeout=0.5) is None
    c = check_pair(G, random_relabel(G, random.Random(1)), ("1wl",), iso_timeout=0.5)
    assert (c.isomorphic, c.iso_status) == (None, "undecided")


def test_failing_dreadnaut_is_one_line(monkeypatch):
    """A dreadnaut that fails, writes nothing or is missing: TracesFailed with one line; an empty
    WLTOOLS_DREADNAUT turns Traces off (bliss labels instead)."""
    G = nx.cycle_graph(1500)
    for exe, message in (("/bin/false", "exited with code 1"), ("/bin/true", "exited with code 0"),
                         ("/nonexistent/dreadnaut", "cannot run dreadnaut")):
        monkeypatch.setenv(traces.DREADNAUT_ENV, exe)
        with pytest.raises(traces.TracesFailed, match=message) as err:
            canonical_form(G)
        assert "\n" not in str(err.value)
        with pytest.raises(traces.TracesFailed, match=message) as err:  # small graphs: one process
            canonical_forms([nx.cycle_graph(5), nx.path_graph(4)], "traces")
        assert "\n" not in str(err.value)
    monkeypatch.setenv(traces.DREADNAUT_ENV, "")
    assert not traces.available() and canonical_form(G).method == "bliss"


def test_an_undecided_pair_names_traces_where_it_is_missing(monkeypatch):
    """Stopped at its budget without dreadnaut, the verdict line says how Traces would be had; with
    it, only the larger budget."""
    import wltools.iso
    from wltools.check import CheckResult, check_text

    def slow(*args, **kwargs):
        time.sleep(60)

    monkeypatch.setattr(wltools.iso, "canonical_form", slow)
    G = nx.cycle_graph(300)
    c = check_pair(G, random_relabel(G, random.Random(1)), ("1wl",), iso_timeout=0.3)
    assert isinstance(c, CheckResult) and c.iso_status == "undecided"
    assert "Traces" not in check_text(c, ("a", "b"), (G, G))
    monkeypatch.setenv(traces.DREADNAUT_ENV, "")
    assert 'pip install -e ".[traces]"' in check_text(c, ("a", "b"), (G, G))


def test_cli_check_with_a_failing_dreadnaut_exits_2(tmp_path):
    """The CLI: one line on stderr, exit 2, no traceback."""
    import os

    G = nx.random_regular_graph(3, 1500, seed=2)
    a, b = tmp_path / "a.s6", tmp_path / "b.s6"
    a.write_bytes(nx.to_sparse6_bytes(G, header=False))
    b.write_bytes(nx.to_sparse6_bytes(random_relabel(G, random.Random(3)), header=False))
    env = dict(os.environ, **{traces.DREADNAUT_ENV: "/bin/false"})
    proc = subprocess.run([sys.executable, "-m", "cli", "check", str(a), str(b), "--test", "1wl"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "dreadnaut" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    ok = subprocess.run([sys.executable, "-m", "cli", "check", str(a), str(b), "--test", "1wl"],
                        capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0 and "isomorphic: yes (traces certificates" in ok.stdout


def test_certificate_prefix_keeps_labellers_apart():
    """A Traces certificate never equals a bliss one for the same graph."""
    G = nx.cycle_graph(1200)
    assert certificate(G) != canonical_form(G, "bliss").certificate
    assert certificate(G).startswith((1200).to_bytes(8, "big") + b"traces")
