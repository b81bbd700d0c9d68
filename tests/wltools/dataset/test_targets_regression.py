"""Targets of ``wltools dataset``: read by value through the one label encoder (``1`` and ``1.0``
are one class; issue 34, item 10), and the regression floor (issue 33, item 5): the lowest mean
absolute error of predictions constant on each class, against brute force."""

import itertools
import json
import random

import networkx as nx
import numpy as np
import pytest
from click.testing import CliRunner

from cli import cli
from wltools.dataset.bounds import mae_floor


def _g6(path, graphs):
    path.write_text("".join(nx.to_graph6_bytes(G, header=False).decode() for G in graphs))
    return str(path)


def _brute_floor(classes, values):
    """min over every prediction table that is constant on classes: the optimum of a sum of
    absolute deviations lies at one of the class's values, so try them all."""
    total = 0.0
    for c in set(classes):
        ys = [y for k, y in zip(classes, values) if k == c]
        total += min(sum(abs(y - p) for y in ys) for p in ys)
    return total / len(values)


def test_mae_floor_equals_brute_force():
    rng = random.Random(0)
    for _ in range(200):
        n = rng.randint(1, 9)
        classes = [rng.randint(0, 3) for _ in range(n)]
        values = [rng.choice([rng.randint(-5, 5), rng.random() * 10 - 5]) for _ in range(n)]
        assert mae_floor(np.array(classes), np.array(values)) == pytest.approx(_brute_floor(classes, values), abs=1e-12)
    assert mae_floor(np.zeros(4, dtype=int), np.full(4, 2.5)) == 0.0  # one value: no error


def test_targets_written_1_and_1_0_are_one_class(tmp_path):
    """Five isomorphic graphs (one class for every test) with targets 1, 1.0, 1e0, 2, 3: the
    majority is the number one, three of five (0.6); read as text it would be 0.2 or 0.4."""
    graphs = [nx.relabel_nodes(nx.path_graph(4), dict(zip(range(4), p)))
              for p in itertools.islice(itertools.permutations(range(4)), 5)]
    g6 = _g6(tmp_path / "five.g6", graphs)
    (tmp_path / "y.txt").write_text("1\n1.0\n1e0\n2\n3\n")
    r = CliRunner().invoke(cli, ["dataset", g6, "--targets", str(tmp_path / "y.txt"), "--format", "json",
                                 "--quiet", "--tests", "1wl,rd"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    assert rep["dataset"]["graph_classes"] == 3
    for t in rep["tests"]:
        assert [row["accuracy_bound"] for row in t["rounds"]] == [0.6] * len(t["rounds"])


def test_regression_floor_per_round_and_refusal(tmp_path):
    graphs = [nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), nx.path_graph(6),
              nx.cycle_graph(6)]
    g6 = _g6(tmp_path / "g.g6", graphs)
    (tmp_path / "y.txt").write_text("0.5\n1.5\n-2\n4\n")
    r = CliRunner().invoke(cli, ["dataset", g6, "--targets", str(tmp_path / "y.txt"), "--task", "regression",
                                 "--format", "json", "--quiet", "--tests", "1wl,spd"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    y = [0.5, 1.5, -2.0, 4.0]
    from wltools.dataset import from_networkx
    from wltools.dataset.refine import refine_collection

    coll = from_networkx(graphs)
    for t in rep["tests"]:
        ref = refine_collection(coll, t["test"])
        for row, cls in zip(t["rounds"], ref.graph_classes):
            assert row["mae_floor"] == pytest.approx(_brute_floor(cls.tolist(), y))
            assert row["accuracy_bound"] is None
    assert rep["tests"][0]["rounds"][-1]["mae_floor"] == pytest.approx((1.0 + 0.0 + 2.5) / 4)  # 1wl: C6 = 2C3, median 1.5
    assert rep["isomorphism"]["mae_floor"] == pytest.approx(3.5 / 4)  # the two C6: |4 - 0.5|
    (tmp_path / "bad.txt").write_text("0.5\nactive\n1\n2\n")
    bad = CliRunner().invoke(cli, ["dataset", g6, "--targets", str(tmp_path / "bad.txt"), "--task", "regression"])
    assert bad.exit_code == 2 and bad.output.startswith("error: ") and "'active'" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def _brute_count(G, P):
    """Subgraphs of G isomorphic to P (no isolated nodes): every set of |E(P)| edges of G."""
    return sum(1 for es in itertools.combinations(G.edges, P.number_of_edges()) if nx.is_isomorphic(nx.Graph(es), P))


def test_subgraph_counts_equal_brute_force():
    from wltools.dataset.counts import subgraph_count
    from wltools.graphs import load_graph

    rng = random.Random(3)
    graphs = [nx.gnm_random_graph(7, rng.randint(5, 11), seed=rng.randint(0, 10**6)) for _ in range(8)]
    for spec in ("cycle:3", "cycle:4", "path:4", "complete:4"):
        P = load_graph(spec)
        for G in graphs:
            assert subgraph_count(G, P) == _brute_count(G, P), (spec, nx.to_graph6_bytes(G))


def test_count_targets_on_the_cli(tmp_path):
    """C6 and two triangles: 1-WL cannot tell 0 triangles from 2 (floor 1 / 3 per graph), SPD can."""
    g6 = _g6(tmp_path / "g.g6", [nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)),
                                 nx.path_graph(6)])
    ok = CliRunner().invoke(cli, ["dataset", g6, "--targets", "count:cycle:3", "--task", "regression",
                                  "--tests", "1wl,spd", "--format", "json", "--quiet"])
    assert ok.exit_code == 0, ok.output
    rep = json.loads(ok.stdout)
    assert [t["rounds"][-1]["mae_floor"] for t in rep["tests"]] == [pytest.approx(2 / 3), 0.0]
    for spec in ("count:petersen", "count:", "count:nonsense"):
        bad = CliRunner().invoke(cli, ["dataset", g6, "--targets", spec, "--quiet"])
        assert bad.exit_code == 2 and bad.output.startswith("error: ") and len(bad.output.strip().splitlines()) == 1
