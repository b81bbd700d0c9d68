"""Warn early (issue 34 item 6): the permutation-invariance probe runs before training, and a model
that is not invariant gets one warning line on stderr before its first unit is trained (still
recorded in config.json as before); an invariant model gets none."""

from __future__ import annotations

import json

from brec_runner.runs.evaluate import run

_MODELS = '''
import torch
from torch import nn


class Positional(nn.Module):
    """Not permutation invariant by construction: a node's index in its graph is a feature, paired
    with its degree (a sum over nodes of the index alone would be invariant)."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 8)

    def forward(self, batch):
        local = (torch.arange(batch.num_nodes) - batch.ptr[batch.batch]).float()
        deg = torch.zeros(batch.num_nodes).index_add(0, batch.edge_index[0], torch.ones(batch.edge_index.shape[1]))
        h = torch.tanh(self.lin(torch.stack([deg, local], dim=1)))
        return torch.zeros(batch.num_graphs, 8).index_add(0, batch.batch, h)


class Degrees(nn.Module):
    """Invariant: a sum over nodes of a function of the degree."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 8)

    def forward(self, batch):
        deg = torch.zeros(batch.num_nodes).index_add(0, batch.edge_index[0], torch.ones(batch.edge_index.shape[1]))
        h = torch.tanh(self.lin(deg[:, None]))
        return torch.zeros(batch.num_graphs, 8).index_add(0, batch.batch, h)
'''


def _run(tmp_path, monkeypatch, capsys, attr):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    (tmp_path / "models.py").write_text(_MODELS)
    before_training = []

    def first(record):
        if not before_training:
            before_training.append(capsys.readouterr().err)

    out = run(f"{tmp_path / 'models.py'}:{attr}", pairs=[0], categories=None, protocol={"epochs": 1},
              out=tmp_path / attr, progress=False, on_outcome=first)
    return before_training[0], json.loads((out / "config.json").read_text())["invariance"]


def test_a_non_invariant_model_is_warned_before_its_first_unit(tmp_path, monkeypatch, capsys):
    err, inv = _run(tmp_path, monkeypatch, capsys, "Positional")
    warnings = [line for line in err.splitlines() if "warning:" in line]
    assert len(warnings) == 1 and "not permutation invariant" in warnings[0] and "config.json" in warnings[0]
    assert inv["invariant"] is False and inv["max_abs_diff"] > 1e-3  # still recorded


def test_an_invariant_model_gets_no_warning(tmp_path, monkeypatch, capsys):
    err, inv = _run(tmp_path, monkeypatch, capsys, "Degrees")
    assert "warning" not in err and inv["invariant"] is True
