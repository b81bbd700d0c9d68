"""Checkpoints inside a counting unit (brec_runner/counting/checkpoint.py): a unit stopped after any
epoch and resumed gives the record of one uninterrupted run, bit for bit on this machine; a
damaged checkpoint or one of other code or settings is set aside; a finished unit leaves none."""

import networkx as nx
import pytest
import torch
from torch import nn

from brec_runner.counting import train as T
from brec_runner.counting.checkpoint import UnitCheckpoint
from brec_runner.runs.dataset import to_pyg
from examples.gin import gin


class _DropGIN(nn.Module):
    """The example GIN with dropout on its output: the global generator matters after a resume."""

    def __init__(self):
        super().__init__()
        self.gin, self.drop = gin(hidden=8, layers=2), nn.Dropout(0.3)

    def forward(self, batch):
        return self.drop(self.gin(batch))


@pytest.fixture(scope="module")
def data():
    graphs = [to_pyg(nx.gnp_random_graph(6 + i % 5, 0.4, seed=i)) for i in range(40)]
    ys = [torch.tensor([sum(nx.triangles(nx.Graph(g.edge_index.t().tolist())).values()) / 3.0])
          if g.edge_index.numel() else torch.zeros(1) for g in graphs]
    return {"train": (graphs, ys, None, list(range(24))), "val": (graphs, ys, None, list(range(24, 32))),
            "test": (graphs, ys, None, list(range(32, 40)))}


PROTOCOL = T.CountProtocol(epochs=6, batch_size=8, plateau_patience=1)  # the schedule moves within 6 epochs


class _Stop(Exception):
    pass


def _train(data, checkpoint=None, stop_after=None):
    torch.manual_seed(0)
    model = _DropGIN()

    def on_epoch(epoch, val):
        if epoch == stop_after:
            raise _Stop  # killed during epoch stop_after's end: the file holds epoch stop_after - 1

    out = T.train_unit(model, data, "graph", PROTOCOL, seed=5, on_epoch=on_epoch, checkpoint=checkpoint,
                       checkpoint_every_s=0.0)
    return {k: v.tolist() if k == "test_pred" else v for k, v in out.items() if k != "wall_s"}  # predictions too


@pytest.mark.parametrize("stop_after", [2, 4])
def test_a_resumed_unit_equals_an_uninterrupted_one(data, tmp_path, stop_after):
    whole = _train(data)
    ck = UnitCheckpoint(tmp_path, "cycle:3", "graph", 5, "code|settings")
    with pytest.raises(_Stop):
        _train(data, ck, stop_after)
    assert ck.path.is_file() and torch.load(ck.path, weights_only=True)["epoch"] == stop_after - 1
    assert _train(data, ck) == whole  # a fresh model and process state: everything comes from the file


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")  # the damaged file below
def test_other_settings_or_damage_start_afresh(data, tmp_path, capsys):
    whole = _train(data)
    other = UnitCheckpoint(tmp_path, "cycle:3", "graph", 5, "other-code|settings")
    with pytest.raises(_Stop):
        _train(data, other, 3)
    mine = UnitCheckpoint(tmp_path, "cycle:3", "graph", 5, "code|settings")
    assert mine.path == other.path
    assert _train(data, mine) == whole and "saved by other code or settings" in capsys.readouterr().err
    mine.path.write_bytes(b"\x80 not a checkpoint")
    assert _train(data, mine) == whole and "unreadable" in capsys.readouterr().err
    assert mine.path.with_suffix(".pt.set-aside").is_file()


def test_a_finished_run_leaves_no_checkpoint(tmp_path, monkeypatch):
    from tiny_gnn import tiny_model_file

    from brec_runner.counting import evaluate as count_evaluate

    saves = []
    monkeypatch.setattr(UnitCheckpoint, "save", lambda self, state, _save=UnitCheckpoint.save: (
        saves.append(state["epoch"]), _save(self, state)))
    monkeypatch.setattr(count_evaluate, "train_unit", lambda *a, **k: T.train_unit(*a, **k, checkpoint_every_s=0.0))
    path = tmp_path / "mymodel.py"
    tiny_model_file(path)
    out = tmp_path / "run"
    count_evaluate.run_count(f"{path}:tiny", ["cycle:3"], ["graph"], [0], out,
                             protocol={"epochs": 3, "limit": 20, "batch_size": 16}, progress=False, quiet=True)
    assert saves == [1, 2]  # saved after each epoch but the last
    assert not list((out / ".checkpoints").glob("*.pt"))  # removed once the record is appended
