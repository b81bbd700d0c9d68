"""A transform's identity (brec_runner/models/transform_identity.py): settings a ``repr`` hides still
change the encoding cache's folder and a run's ``transform`` setting; equal transforms get equal
keys in every process; a transform whose state cannot be captured is refused in one line."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner
from torch_geometric.transforms import AddLaplacianEigenvectorPE, AddRandomWalkPE, BaseTransform, Compose

import cli
from brec_runner.models.encoding_cache import encoded_graphs, setting_dir
from brec_runner.models.source import ModelContractError, resolve_model
from brec_runner.models.transform_identity import describe_transform, transform_digest, transform_key
from brec_runner.runs import dataset as ds

ROOT = Path(__file__).resolve().parents[2]


class Scaled(BaseTransform):
    """A user's own transform whose ``repr`` names none of its settings."""

    def __init__(self, scale: float, table: dict, weights: torch.Tensor):
        self.scale, self.table, self.weights = scale, table, weights

    def forward(self, data):
        data.x = data.x * self.scale
        return data


class Counting(BaseTransform):
    """Counts its calls (no effect on the output) and says so with ``__wltools_state__``."""

    def __init__(self, k: int):
        self.k, self.calls = k, 0

    def forward(self, data):
        self.calls += 1
        return data

    def __wltools_state__(self):
        return {"k": self.k}


class HoldsFile(BaseTransform):
    def __init__(self, path):
        self.log = open(path, "a")  # noqa: SIM115 - the point of the test

    def forward(self, data):
        return data


class HoldsGenerator(BaseTransform):
    def __init__(self):
        self.options = {"rng": torch.Generator().manual_seed(0)}

    def forward(self, data):
        return data


def _closure(k):
    return lambda data: data if k else None


# pairs of transforms with one repr and different settings
HIDDEN = {
    "random-walk-pe": (lambda: AddRandomWalkPE(walk_length=8, attr_name="pe"),
                       lambda: AddRandomWalkPE(walk_length=16, attr_name="pe")),
    "laplacian-pe": (lambda: AddLaplacianEigenvectorPE(k=2), lambda: AddLaplacianEigenvectorPE(k=3)),
    "compose-inner": (lambda: Compose([AddRandomWalkPE(walk_length=8), AddLaplacianEigenvectorPE(k=2)]),
                      lambda: Compose([AddRandomWalkPE(walk_length=8), AddLaplacianEigenvectorPE(k=3)])),
    "user-float": (lambda: Scaled(0.1, {"a": 1}, torch.zeros(3)),
                   lambda: Scaled(math.nextafter(0.1, 1.0), {"a": 1}, torch.zeros(3))),
    "user-dict": (lambda: Scaled(1.0, {"a": 1}, torch.zeros(3)), lambda: Scaled(1.0, {"a": 2}, torch.zeros(3))),
    "user-tensor": (lambda: Scaled(1.0, {}, torch.zeros(3)), lambda: Scaled(1.0, {}, torch.tensor([0.0, 0.0, 1e-30]))),
    "user-dtype": (lambda: Scaled(1.0, {}, torch.zeros(3)),
                   lambda: Scaled(1.0, {}, torch.zeros(3, dtype=torch.float64))),
    "closure": (lambda: Scaled(1.0, {"f": _closure(1)}, torch.zeros(1)),
                lambda: Scaled(1.0, {"f": _closure(2)}, torch.zeros(1))),
}


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_settings_a_repr_hides_change_the_key(name):
    make_a, make_b = HIDDEN[name]
    a, b = make_a(), make_b()
    assert repr(a) == repr(b)  # the bug: the repr alone cannot tell them apart
    assert transform_key(a) != transform_key(b)
    assert setting_dir("k", a) != setting_dir("k", b)
    # the same settings built twice: the same key
    assert transform_key(a) == transform_key(make_a()) and transform_digest(b) == transform_digest(make_b())


def test_key_is_readable_and_json_able():
    t = Compose([AddRandomWalkPE(walk_length=8), AddLaplacianEigenvectorPE(k=2)])
    key = transform_key(t)
    assert key.startswith("Compose([ AddRandomWalkPE(), AddLaplacianEigenvectorPE() ]) [state ")
    assert "\n" not in key and " at 0x" not in key
    json.dumps(describe_transform(t))
    assert transform_key(None) is None


def test_key_is_the_same_in_another_process():
    code = ("from torch_geometric.transforms import AddRandomWalkPE, AddLaplacianEigenvectorPE, Compose\n"
            "from brec_runner.models.transform_identity import transform_key\n"
            "print(transform_key(Compose([AddRandomWalkPE(8, attr_name='pe'), AddLaplacianEigenvectorPE(k=2)])))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True).stdout.strip()
    assert out == transform_key(Compose([AddRandomWalkPE(8, attr_name="pe"), AddLaplacianEigenvectorPE(k=2)]))


def test_walk_length_8_and_16_get_their_own_encodings_in_one_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path))  # its own cache: other tests' entries are not its
    pair = ds.load_pairs(ids=[0])[0]
    widths = {}
    for steps in (8, 16, 8):
        t = AddRandomWalkPE(walk_length=steps, attr_name="pe")
        stats = {}
        (data,) = encoded_graphs([pair.g], t, transform_key(t), stats=stats)
        widths.setdefault(steps, []).append((data.pe.shape[1], stats["disk_hits"]))
    assert widths[16] == [(16, 0)]  # computed, not the 8-step entry
    assert widths[8] == [(8, 0), (8, 1)]  # and the 8-step entry is still there to be read


def test_state_method_replaces_the_attributes():
    t = Counting(3)
    before = transform_key(t)
    t(ds.to_pyg(ds.load_pairs(ids=[0])[0].g))
    assert t.calls == 1 and transform_key(t) == before != transform_key(Counting(4))


@pytest.mark.parametrize("make,where", [
    (lambda tmp: HoldsFile(tmp / "log.txt"), "transform.log: an open file"),
    (lambda tmp: HoldsGenerator(), "transform.options['rng']: a random number generator"),
    (lambda tmp: Scaled(1.0, {"lock": threading.Lock()}, torch.zeros(1)), "transform.table['lock']"),
])
def test_a_transform_whose_state_cannot_be_captured_is_refused_in_one_line(make, where, tmp_path):
    t = make(tmp_path)
    with pytest.raises(ModelContractError) as info:
        resolve_model(f"{ROOT / 'examples' / 'gin.py'}:gin", transform=t)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(f"transform {type(t).__name__}(): cannot capture its state at ")
    assert where in msg
    with pytest.raises(ModelContractError):
        setting_dir("k", t)  # and the cache never keys it either


def test_builtin_transform_reprs_name_every_setting():
    """Built-in models keep ``repr`` as their cache key (``registry.transform_key``) and their
    settings hash holds the full model config: that is sound only while every attribute of their
    transforms is in the ``repr``."""
    from wltools.models import create_transform, list_models, registry

    checked = 0
    for name in list_models():
        if name.startswith("_"):
            continue
        for preset in registry.list_presets(name):
            t = create_transform(name, preset)
            parts = list(t.transforms) if isinstance(t, Compose) else [t]
            for part in parts:
                for attr, value in vars(part).items():
                    assert f"{attr}={value!r}" in repr(part) or f"{attr}={value}" in repr(part), (name, attr)
                    checked += 1
    assert checked >= 5


# ------------------------------------------------------------------------------------ the CLI

USER_FILE = '''
import torch
from torch import nn
from torch_geometric.transforms import AddRandomWalkPE


class PEModel(nn.Module):
    def __init__(self, out_dim=16):
        super().__init__()
        self.lin = nn.Linear(1, out_dim)

    def forward(self, batch):
        h = torch.tanh(self.lin(batch.pe.sum(dim=1, keepdim=True)))  # [N, d]
        return torch.zeros(batch.num_graphs, h.shape[-1]).index_add(0, batch.batch, h)


def tiny(out_dim=16):
    return PEModel(out_dim)


rw8 = AddRandomWalkPE(walk_length=8, attr_name="pe")
rw16 = AddRandomWalkPE(walk_length=16, attr_name="pe")
tiny.transform = rw8
'''


def _brec_run(*args):
    return CliRunner().invoke(cli.cli, ["brec", "run", "--pairs", "0", "--epochs", "1", "--quiet", *args])


def test_resume_with_another_walk_length_is_refused_naming_transform(tmp_path):
    user = tmp_path / "user_pe.py"
    user.write_text(USER_FILE)
    out = tmp_path / "run"
    first = _brec_run("--model", f"{user}:tiny", "--out", str(out))
    assert first.exit_code == 0, first.output
    assert json.loads((out / "config.json").read_text())["transform"].startswith("AddRandomWalkPE() [state ")
    again = _brec_run("--model", f"{user}:tiny", "--transform", f"{user}:rw8", "--out", str(out))
    assert again.exit_code == 0, again.output  # the same transform, given explicitly: resumes
    changed = _brec_run("--model", f"{user}:tiny", "--transform", f"{user}:rw16", "--out", str(out))
    assert changed.exit_code == 2 and isinstance(changed.exception, (SystemExit, type(None)))
    lines = [line for line in changed.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "other settings (transform;" in lines[0]


def test_uncapturable_transform_on_the_cli_is_one_line(tmp_path):
    user = tmp_path / "user_bad.py"
    user.write_text(USER_FILE + "\nimport threading\nbad = AddRandomWalkPE(8, attr_name='pe')\n"
                                "bad.lock = threading.Lock()\n")
    res = _brec_run("--model", f"{user}:tiny", "--transform", f"{user}:bad", "--out", str(tmp_path / "run"))
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: transform AddRandomWalkPE()")
    assert "transform.lock" in lines[0]
    assert not (tmp_path / "run" / "config.json").exists()


def test_committed_runs_with_old_keys_still_report_and_refuse_resume_clearly(tmp_path, monkeypatch):
    base = ROOT / "reports" / "brec-runs" / "gin-rrwp-example-cpu"
    old = json.loads((base / "config.json").read_text())["transform"]
    assert " [state " not in old  # written with the old key
    rep = CliRunner().invoke(cli.cli, ["brec", "report", "--no-theory", str(base)])
    assert rep.exit_code == 0, rep.output
    copy = tmp_path / "copy"
    shutil.copytree(base, copy)
    monkeypatch.chdir(ROOT)  # the model's name as the run recorded it
    res = _brec_run("--model", "examples/gin_rrwp.py:gin_rrwp", "--out", str(copy))
    assert res.exit_code == 2
    assert "other settings (transform," in res.output and "keyed by its repr alone" in res.output
