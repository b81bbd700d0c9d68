"""Non-invariant count runs are marked wherever shown (issue 45, fault 4): the invariance probe of
a count run (relabelled copies of benchmark graph 0), a warning line before training, the config,
and every format of the report."""

import csv
import io
import json

import pytest
from click.testing import CliRunner

from cli import cli
from tiny_gnn import tiny_gnn_source, tiny_model_file

POSITIONAL = '''

class Positional(TinyGNN):
    """TinyGNN whose input is the node's position in its graph: outputs depend on the node order
    (and on nothing outside the graph, so it passes the batch-independence check)."""

    def forward(self, batch):
        x = (torch.arange(batch.num_nodes) - batch.ptr[batch.batch]).to(torch.float32).unsqueeze(1) / 10.0
        h = torch.relu(self.lin1(x))
        h = torch.tanh(h + torch.zeros_like(h).index_add(0, batch.edge_index[1], h[batch.edge_index[0]]) * h)
        return self.out(torch.zeros(batch.num_graphs, h.shape[-1]).index_add(0, batch.batch, h))


def positional():
    return Positional()

'''


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    model = tiny_model_file(tmp_path_factory.mktemp("m") / "posmodel.py", POSITIONAL)
    root = tmp_path_factory.mktemp("runs")
    out = {}
    for name in ("positional", "tiny"):
        res = CliRunner().invoke(cli, ["count", "run", "--model", f"{model}:{name}", "--task", "star:3", "--limit", "20",
                                       "--epochs", "1", "--batch-size", "10", "--out", str(root / name)])
        assert res.exit_code == 0, res.output
        out[name] = (root / name, res.output)
    return out


def test_the_probe_is_recorded_and_warned(runs):
    (pos, said), (tiny, quiet) = runs["positional"], runs["tiny"]
    assert "is not permutation invariant" in said and "not permutation invariant" not in quiet
    assert json.loads((pos / "config.json").read_text())["invariance"]["invariant"] is False
    assert json.loads((tiny / "config.json").read_text())["invariance"]["invariant"] is True


def test_every_report_format_marks_the_run(runs):
    dirs = [str(runs["positional"][0]), str(runs["tiny"][0])]
    report = json.loads(CliRunner().invoke(cli, ["count", "report", *dirs, "--format", "json"]).output)
    flags = {r["model"].split(":")[-1]: r["flag"] for r in report["rows"]}
    assert "model not permutation invariant" in flags["positional"]
    assert "not permutation invariant" not in flags["tiny"]
    assert {r["model"].split(":")[-1]: r["invariant"] for r in report["runs"]} == {"positional": False, "tiny": True}
    rows = list(csv.DictReader(io.StringIO(CliRunner().invoke(cli, ["count", "report", *dirs, "--format", "csv"]).output)))
    assert [("positional" in r["model"], "not permutation invariant" in r["flag"]) for r in rows] == [
        (True, True), (False, False)]
    md = CliRunner().invoke(cli, ["count", "report", *dirs]).output
    assert sum("model not permutation invariant" in ln for ln in md.splitlines() if ln.startswith("| ")) == 1
    assert any("positional" in ln and "| **no** |" in ln for ln in md.splitlines())


def test_a_model_that_fails_on_the_probe_graphs_is_one_line(tmp_path):
    """A model that fails only on the probe's batch (four relabelled copies of benchmark graph 0,
    here: four graphs of one size; the contract's samples differ in size) is refused in one line,
    nothing written."""
    model = tmp_path / "picky.py"
    model.write_text("import torch\nfrom torch import nn\n" + tiny_gnn_source() + '''

class Picky(TinyGNN):
    def forward(self, batch):
        if batch.num_graphs == 4 and len(set(batch.ptr.diff().tolist())) == 1:
            raise RuntimeError("four graphs of one size")
        return super().forward(batch)


def picky():
    return Picky()
''')
    out = tmp_path / "r"
    res = CliRunner().invoke(cli, ["count", "run", "--model", f"{model}:picky", "--task", "star:3", "--limit", "20",
                                   "--epochs", "1", "--out", str(out)])
    assert res.exit_code == 2 and "invariance probe" in res.output and "Traceback" not in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1 and not out.exists()
