"""``wltools count run`` as a library: a model written outside the project, resume, refusals,
failures, locks, the per-node readout and the report's theory column."""

import json
import sys
import types

import numpy as np
import pytest
import torch
from torch_geometric.data import Batch

from brec_runner.counting import report as count_report
from brec_runner.counting.evaluate import run_count
from brec_runner.counting.run import CountRun, read_count_run
from brec_runner.counting.train import node_outputs
from brec_runner.models.source import ModelContractError, resolve_model
from tiny_gnn import tiny_gnn_source
from wltools.counting import data as D
from wltools.errors import RunDirectoryError, WLToolsError

SMALL = {"epochs": 1, "limit": 30, "batch_size": 16}


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("models") / "mymodel.py"
    path.write_text("import torch\nfrom torch import nn\n" + tiny_gnn_source() + '''

def tiny():
    return TinyGNN()


tiny.wl_bound = "1wl"


class Boom(TinyGNN):
    def forward(self, batch):
        if self.training:
            raise ValueError("boom in training")
        return super().forward(batch)


def boom():
    return Boom()
''')
    return path


@pytest.fixture(scope="module")
def finished(model_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "tiny"
    run_count(f"{model_file}:tiny", ["cycle:3"], ["graph", "node"], [0], out, protocol=SMALL, progress=False,
              quiet=True)
    return out


def test_run_records_each_unit(finished):
    cfg, records, bad = read_count_run(finished)
    assert not bad and cfg["bound"]["upper"] == "1wl" and cfg["protocol"]["limit"] == 30
    assert sorted((r["task"], r["level"]) for r in records) == [("cycle:3", "graph"), ("cycle:3", "node")]
    for r in records:
        assert np.isfinite(r["test_nmae"]) and r["test_nmae"] > 0
        assert r["test_mae"] == pytest.approx(r["test_nmae"] * r["std"])
    graph_std = next(r["std"] for r in records if r["level"] == "graph")
    assert graph_std == pytest.approx(np.std(D.targets("cycle:3", "graph"), ddof=1))  # over the whole dataset


def test_resume_adds_nothing_and_other_settings_are_refused(finished, model_file):
    before = (finished / "results.jsonl").read_bytes()
    run_count(f"{model_file}:tiny", ["cycle:3"], ["graph"], [0], finished, protocol=SMALL, progress=False, quiet=True)
    assert (finished / "results.jsonl").read_bytes() == before
    with pytest.raises(RunDirectoryError, match="protocol"):
        run_count(f"{model_file}:tiny", ["cycle:3"], ["graph"], [0], finished, protocol={**SMALL, "epochs": 2},
                  progress=False, quiet=True)


def test_one_writer_per_run_directory(finished):
    cfg, _, _ = read_count_run(finished)
    keep = {k: v for k, v in cfg.items() if k not in ("settings_hash", "code_versions", "config_check", "kind")}
    with CountRun(finished, keep, cfg["code_versions"][0]):
        with pytest.raises(RunDirectoryError, match="lock|running|held|another"):
            CountRun(finished, keep, cfg["code_versions"][0])


def test_an_edited_record_is_refused(finished, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(finished, copy)
    lines = (copy / "results.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    rec["test_nmae"] = 0.0
    (copy / "results.jsonl").write_text("\n".join([json.dumps(rec)] + lines[1:]) + "\n")
    with pytest.raises(RunDirectoryError, match="checksum"):
        read_count_run(copy)
    assert len(read_count_run(copy, skip_bad=True)[1]) == 1


def test_failing_units_are_recorded_and_stop_after_max_failures(model_file, tmp_path):
    out = tmp_path / "boom"
    run_count(f"{model_file}:boom", ["cycle:3"], ["graph"], [0, 1], out, protocol=SMALL, progress=False, quiet=True)
    fails = [json.loads(x) for x in (out / "failures.jsonl").read_text().splitlines()]
    assert [f["seed"] for f in fails] == [0, 1] and "boom in training" in fails[0]["error"]
    assert read_count_run(out)[1] == []
    with pytest.raises(WLToolsError, match="stopped after 1 failed"):
        run_count(f"{model_file}:boom", ["cycle:3"], ["graph"], [0, 1], out, protocol=SMALL, progress=False,
                  quiet=True, max_failures=0)


def test_bad_requests_are_refused_before_any_work(model_file, tmp_path):
    with pytest.raises(WLToolsError, match="levels"):
        run_count(f"{model_file}:tiny", ["cycle:3"], ["vertex"], [0], tmp_path / "x", protocol=SMALL)
    with pytest.raises(WLToolsError, match="unknown counting task"):
        run_count(f"{model_file}:tiny", ["triangle"], ["graph"], [0], tmp_path / "x", protocol=SMALL)
    with pytest.raises(WLToolsError, match="unknown protocol field"):
        run_count(f"{model_file}:tiny", ["cycle:3"], ["graph"], [0], tmp_path / "x", protocol={"epoch": 1})
    with pytest.raises(ModelContractError, match="no per-node readout"):
        run_count("sgformer", ["cycle:3"], ["node"], [0], tmp_path / "x", preset="small", protocol=SMALL)
    with pytest.raises(WLToolsError, match="ordered targets"):
        run_count(f"{model_file}:tiny", ["hom:chordal5_31"], ["edge"], [0], tmp_path / "x", protocol=SMALL)
    assert not (tmp_path / "x").exists()


def test_edge_targets_ordered_iff_some_edge_differs_by_direction():
    """A task is refused at edge level exactly when its per-edge targets differ between the two
    directions of an edge on some benchmark graph (the symmetric head cannot learn those)."""
    from wltools.counting import STANDARD_TASKS
    from wltools.counting.tasks import parse_task
    from wltools.hom import count

    graphs = D.load_graphs()[:4]
    for name in ["hom:boat", "hom:chordal6", "hom:chordal4_1", "hom:chordal4_4", "hom:chordal5_13",
                 "hom:chordal5_31", "hom:chordal5_24", "cycle:3", "chordal:4"]:
        task = parse_task(name)
        if task.kind == "hom":
            mats = [np.asarray(count.hom_counts_at(task.pattern, G, (0, 1)), dtype=object) for G in graphs]
            differs = any((m[i, j] != m[j, i]) for m, G in zip(mats, graphs) for i, j in G.edges)
        else:
            differs = False  # a subgraph count per edge is a count of copies containing the edge
        assert task.edge_targets_ordered() == differs, name
    assert not any(parse_task(t).edge_targets_ordered() for t in STANDARD_TASKS)


def test_per_node_readout_sums_to_the_graph_output(model_file):
    """TinyGNN's graph output is out(sum_v h_v); the per-node readout gives out(h_v) per node, so
    the node outputs minus the bias sum to the graph output minus the bias."""
    model = resolve_model(f"{model_file}:tiny").build().eval()
    from brec_runner.runs.dataset import to_pyg

    G = D.load_graphs()[0]
    batch = Batch.from_data_list([to_pyg(G)])
    with torch.no_grad():
        nodes = node_outputs(model, batch)
        whole = model(batch)
    bias = model.out.bias
    assert nodes.shape == (G.number_of_nodes(), whole.shape[1])
    assert torch.allclose((nodes - bias).sum(0), (whole - bias)[0], atol=1e-4)


def test_report_theory_column_reads_the_families(finished, monkeypatch):
    """1-WL (the tiny model's bound) cannot count triangles: the triangle itself, its own
    homomorphic image, is not a forest (Zhang et al. 2024, Theorem 4.5); the witness is its graph6.
    A fake can_count shows the column follows the theory module, flags included."""
    report = count_report.build_count_report([finished])
    assert {(r["theory"], r["witness"]) for r in report["rows"]} == {("cannot count", "Bw (triangle)")}
    assert not any(r["flag"] for r in report["rows"])  # one epoch: far from zero
    fake = types.ModuleType("wltools.hom.spasm")
    fake.can_count = lambda F, test, level, roots=None: (test == "1wl" and F.number_of_nodes() == 3, "C3")
    monkeypatch.setitem(sys.modules, "wltools.hom.spasm", fake)
    report = count_report.build_count_report([finished])
    assert {r["theory"] for r in report["rows"]} == {"can count"}
    assert all(r["flag"] == "can count, unrealised" for r in report["rows"])  # one epoch: far from zero
    text = count_report.format_count_report(report, "md")
    assert "| can count |" in text and "| examples" not in text
    csv_lines = count_report.format_count_report(report, "csv").splitlines()
    assert csv_lines[0].startswith("model,setting,bound,task,level") and len(csv_lines) == 3
    assert all("1 ep, batch 16" in r["setting"] for r in report["rows"])
    assert json.loads(count_report.format_count_report(report, "json"))["rows"][0]["task"] == "cycle:3"
