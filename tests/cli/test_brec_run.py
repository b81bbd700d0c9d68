"""`wltools brec run` / `brec report` through click's CliRunner."""

import json
from dataclasses import dataclass

import pytest
import torch
from click.testing import CliRunner
from torch import nn

import cli
from wltools.models import registry


@dataclass
class _Cfg:
    hidden: int = 4
    out_dim: int = 16


class _Tiny(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.lin, self.out = nn.Linear(1, config.hidden), nn.Linear(config.hidden, config.out_dim)

    def reset_parameters(self):
        self.lin.reset_parameters()
        self.out.reset_parameters()

    def forward(self, batch):
        h = torch.tanh(self.lin(batch.x))
        h = h + torch.zeros_like(h).index_add(0, batch.edge_index[1], h[batch.edge_index[0]])
        return self.out(torch.zeros(batch.num_graphs, h.shape[-1]).index_add(0, batch.batch, h))


class _Identity:
    def __call__(self, data):
        return data

    def __repr__(self):
        return "Identity()"


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    registry.register_model("_tiny_cli", config_cls=_Cfg, presets={"brec": {}, "small": {}},
                            make_transform=lambda c: _Identity())(_Tiny)
    yield "_tiny_cli"
    registry._MODELS.pop("_tiny_cli", None)


def _run(*args):
    return CliRunner().invoke(cli.cli, ["brec", *args])


@pytest.mark.parametrize("args,needle", [
    (["run", "--model", "no-such-model", "--pairs", "0"], "unknown model 'no-such-model'"),
    (["run", "--model", "_tiny_cli", "--pairs", "0-x"], "--pairs"),
    (["run", "--model", "_tiny_cli", "--pairs", "0-400"], "--pairs"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--shard", "3/2"], "--shard"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--shard", "x"], "--shard"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--set", "nope=3"], "unknown option(s) nope"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--set", "hidden"], "key=value"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--seed", "1", "--seeds", "2,3"], "--seed"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--seeds", "1,x"], "--seeds"),
    (["run", "--model", "_tiny_cli", "--category", "nonsense"], "--category"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--batch-size", "15"], "batch_size"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--preset", "huge"], "unknown preset 'huge'"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--set", "out_dim=40"], "largest allowed d is 31"),
    (["run", "--model", "_tiny_cli", "--pairs", "0", "--workers", "0"], "--workers"),
])
def test_bad_arguments_one_line_exit_2(tiny, tmp_path, args, needle):
    res = _run(*args, "--out", str(tmp_path / "run"))
    assert res.exit_code == 2, res.output
    assert needle in res.output
    assert "Traceback" not in res.output
    error_lines = [line for line in res.output.splitlines() if line.lower().startswith("error")]
    assert len(error_lines) == 1


def test_run_resume_and_report(tiny, tmp_path):
    out = tmp_path / "run"
    res = _run("run", "--model", tiny, "--pairs", "0-1", "--seeds", "4,5", "--epochs", "1", "--out", str(out), "--quiet")
    assert res.exit_code == 0, res.output
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 4 and {(json.loads(x)["id"], json.loads(x)["seed"]) for x in lines} == {
        (0, 4), (0, 5), (1, 4), (1, 5)}
    assert json.loads((out / "config.json").read_text())["protocol"]["epochs"] == 1
    res = _run("run", "--model", tiny, "--pairs", "0-1", "--seeds", "4,5", "--epochs", "1", "--out", str(out), "--quiet")
    assert res.exit_code == 0 and len((out / "results.jsonl").read_text().splitlines()) == 4
    res = _run("run", "--model", tiny, "--pairs", "0-1", "--epochs", "2", "--out", str(out), "--quiet")
    assert res.exit_code == 2 and "other settings (protocol.epochs; protocol.epochs: 1 here, 2 now)" in res.output
    res = _run("report", str(out), "--format", "csv", "--plot", str(tmp_path / "p.png"), "--no-theory")
    assert res.exit_code == 0, res.output
    assert res.output.startswith("category,pairs,") and (tmp_path / "p.png").exists()
    res = _run("report", str(tmp_path))
    assert res.exit_code == 2 and "not a run directory" in res.output


def test_threshold_follows_model_output_dimension(tiny, tmp_path):
    from brec_runner.runs.protocol import t2_threshold

    out = tmp_path / "d8"
    res = _run("run", "--model", tiny, "--pairs", "3", "--epochs", "1", "--set", "out_dim=8", "--out", str(out), "--quiet")
    assert res.exit_code == 0, res.output
    proto = json.loads((out / "config.json").read_text())["protocol"]
    assert proto["out_dim"] == 8 and proto["threshold"] == round(t2_threshold(32, 8, 0.95), 2)
    assert json.loads((out / "results.jsonl").read_text())["threshold"] == proto["threshold"]
