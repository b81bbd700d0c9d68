"""Models that mix the graphs of a batch are refused before training (issue 45, fault 4; at graph
level too): the batch-independence check batches a few benchmark graphs together, in reverse order
and one by one, and demands each graph's outputs (per node, or per graph) unchanged."""

import pytest
import torch
from click.testing import CliRunner
from torch_geometric.data import Batch

from brec_runner.counting.evaluate import run_count
from brec_runner.counting.train import level_outputs
from brec_runner.models.contract import check_graphs_kept_apart
from brec_runner.models.source import ModelContractError, resolve_model
from brec_runner.runs.dataset import to_pyg
from cli import cli
from tiny_gnn import tiny_model_file
from wltools.counting import data as D

SMALL = {"epochs": 1, "limit": 20, "batch_size": 10}

MIXERS = '''

class Mixer(TinyGNN):
    """TinyGNN plus attention over every node of the batch (the batch vector ignored): graphs mix."""

    def forward(self, batch):
        ei = batch.edge_index
        h = torch.relu(self.lin1(torch.ones(batch.num_nodes, 1)))
        h = torch.tanh(h + torch.zeros_like(h).index_add(0, ei[1], h[ei[0]]))
        h = h + torch.softmax(h @ h.t(), dim=-1) @ h
        return self.out(torch.zeros(batch.num_graphs, h.shape[-1]).index_add(0, batch.batch, h))


class Centred(TinyGNN):
    """Node outputs centred on the mean over the whole batch: a batch statistic, graphs mix."""

    def node_embeddings(self, batch):
        ei = batch.edge_index
        h = torch.relu(self.lin1(torch.ones(batch.num_nodes, 1)))
        h = torch.tanh(h + torch.zeros_like(h).index_add(0, ei[1], h[ei[0]]))
        return h - h.mean(0)


def mixer():
    return Mixer()


def centred():
    return Centred()

'''


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    return tiny_model_file(tmp_path_factory.mktemp("m") / "mixers.py", MIXERS)


@pytest.mark.parametrize("factory, level", [("mixer", "node"), ("mixer", "edge"), ("mixer", "graph"),
                                            ("centred", "node"), ("centred", "edge")])
def test_a_model_that_mixes_graphs_is_refused_before_training(model_file, tmp_path, factory, level):
    out = tmp_path / "r"
    res = CliRunner().invoke(cli, ["count", "run", "--model", f"{model_file}:{factory}", "--task", "cycle:3",
                                   "--level", level, "--limit", "20", "--epochs", "1", "--out", str(out)])
    assert res.exit_code == 2 and "batch-independence check" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output
    assert not out.exists()


def test_the_mixing_is_real_and_the_check_sees_it(model_file):
    """Independent of the check: the mixer's per-node outputs of graph 0 differ between a batch of
    graph 0 alone and one with graph 1 beside it; the per-graph model's do not, and pass."""
    graphs = [to_pyg(G) for G in D.load_graphs()[:4]]
    n0 = graphs[0].num_nodes
    for name, mixes in (("mixer", True), ("tiny", False)):
        model = resolve_model(f"{model_file}:{name}").build().eval()
        with torch.no_grad():
            alone = level_outputs(model, Batch.from_data_list(graphs[:1]), "node")
            beside = level_outputs(model, Batch.from_data_list(graphs[:2]), "node")[:n0]
        assert (not torch.allclose(alone, beside, atol=1e-4)) == mixes, name
        source = resolve_model(f"{model_file}:{name}")
        check = lambda: check_graphs_kept_apart(source, graphs, lambda m, b: level_outputs(m, b, "node"))  # noqa: E731
        if mixes:
            with pytest.raises(ModelContractError, match="batch-independence check"):
                check()
        else:
            check()


def test_per_graph_models_still_train_at_node_and_edge_level(model_file, tmp_path):
    run_count(f"{model_file}:tiny", ["star:3"], ["node", "edge"], [0], tmp_path / "ok", protocol=SMALL,
              progress=False, quiet=True)
    assert len((tmp_path / "ok" / "results.jsonl").read_text().splitlines()) == 2
