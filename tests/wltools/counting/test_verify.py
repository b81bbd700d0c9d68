"""The full-data verifier (wltools.counting.verify): its brute force agrees with networkx's
monomorphisms, it passes on a fixed sample of the shipped targets, catches a changed target at
every level, and refuses bad requests."""

import networkx as nx
import numpy as np
import pytest

from wltools.counting import data as D
from wltools.counting import parse_task
from wltools.counting import verify as V
from wltools.errors import DataIntegrityError, WLToolsError


@pytest.mark.parametrize("name", ["cycle:3", "cycle:5", "chordal:4", "tailed-triangle", "path:4", "star:3",
                                  "complete:4"])
def test_lad_counts_equal_networkx_monomorphisms(name, brute):
    """Two independent enumerations (igraph's LAD in C, networkx's VF2 in Python) on random graphs,
    a graph with isolated nodes and non-integer labels, and the pattern itself."""
    F = parse_task(name).pattern
    graphs = [nx.gnp_random_graph(n, p, seed=s) for s, (n, p) in enumerate([(8, 0.5), (9, 0.35), (7, 0.8)])]
    odd = nx.relabel_nodes(nx.gnp_random_graph(8, 0.5, seed=9), {i: f"v{7 - i}" for i in range(8)})
    odd.add_node("lonely")
    for G in graphs + [odd, nx.convert_node_labels_to_integers(F)]:
        got, want = V.lad_counts(F, G), brute(F, G)
        assert got[0] == want[0] and np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])


def test_a_fixed_sample_of_every_task_and_level_passes():
    graphs = D.load_graphs()
    sample = [next(i for i in range(5000) if graphs[i].number_of_nodes() == n) for n in (10, 15, 20, 30)]
    got = V.verify_all(indices=sample)
    items = sum(1 + G.number_of_nodes() + G.number_of_edges() for G in (graphs[i] for i in sample))
    assert got["mismatches"] == 0 and got["graphs"] == 4 and got["levels"] == 3
    assert got["items"] == items * got["tasks"] == items * (15 + 7) and got["hom_tasks"] == 7


@pytest.mark.parametrize("level", ["graph", "node", "edge"])
def test_a_changed_target_is_caught(monkeypatch, level):
    real = D.targets

    def off_by_one(task, lv, indices=None):
        out = real(task, lv, indices)
        if task == "cycle:4" and lv == level:
            out[0] = out[0] + 1  # the first requested graph (and its first node / edge) gets one more
        return out

    monkeypatch.setattr(D, "targets", off_by_one)
    with pytest.raises(DataIntegrityError, match=f"task cycle:4, graph 7, level {level}"):
        V.verify_all(["cycle:3", "cycle:4"], indices=[7, 8])


def test_bad_requests():
    for tasks, kw, what in [(["path:6"], {}, "only the shipped"), (["cycle:3", "star:5"], {}, "got star:5"),
                            ([], {}, "only the shipped"), (["hom:nonsense"], {}, "unknown homomorphism task"), (["cycle:3"], {"jobs": 0}, "jobs"),
                            (["cycle:3"], {"indices": [5000]}, "0..4999"), (["cycle:3"], {"indices": [-1]}, "0..4999")]:
        with pytest.raises(WLToolsError, match=what):
            V.verify_all(tasks, **kw)
    with pytest.raises(WLToolsError):
        V.verify_all(["nonsense"])
