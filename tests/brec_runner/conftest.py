"""A tiny model and a cheap beyond-1-WL feature shared by the BREC runner tests.

:class:`Tiny` is one sum-aggregation layer and sum pooling (options: a second linear layer,
BatchNorm, a buffer that moves in training); :class:`TriangleFeature` appends the number of
triangles at each node to ``x``, so some Basic pairs separate. Tests get them through fixtures
(pytest runs with ``--import-mode=importlib``, so this file is not importable by name):
``tiny`` (the class), ``triangle_feature`` (an instance) and ``tiny_model`` (the name of a
registered model built from them).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch
from torch import nn
from torch_geometric.transforms import BaseTransform

from tiny_gnn import tiny_gnn_source
from wltools.models import registry


class TriangleFeature(BaseTransform):
    """x <- [x, triangles at the node]: a feature beyond 1-WL, so some Basic pairs separate."""

    def forward(self, data):
        n = data.num_nodes
        A = torch.zeros(n, n)
        A[data.edge_index[0], data.edge_index[1]] = 1.0
        data.x = torch.cat([data.x, (torch.diagonal(A @ A @ A) / 2)[:, None]], dim=1)
        return data


@dataclass
class TinyConfig:
    in_dim: int = 2
    hidden: int = 16
    out_dim: int = 16
    second_linear: bool = True  # lin2 after the aggregation (else tanh of the sum directly)
    batchnorm: bool = False  # BatchNorm after lin1


class Tiny(nn.Module):
    """``relu(lin1 x)`` [BatchNorm before the relu], one sum aggregation over in-edges, ``tanh``
    [of ``lin2``], sum pooling, ``out``. Takes a :class:`TinyConfig` or its fields as keywords."""

    def __init__(self, config: TinyConfig | None = None, **fields):
        super().__init__()
        self.config = c = config or TinyConfig(**fields)
        self.lin1 = nn.Linear(c.in_dim, c.hidden)
        self.lin2 = nn.Linear(c.hidden, c.hidden) if c.second_linear else None
        self.out = nn.Linear(c.hidden, c.out_dim)
        self.norm = nn.BatchNorm1d(c.hidden) if c.batchnorm else None

    def reset_parameters(self):
        for m in (self.lin1, self.lin2, self.out, self.norm):
            if m is not None:
                m.reset_parameters()

    def forward(self, batch):
        ei = batch.edge_index
        h = self.lin1(batch.x)
        h = torch.relu(self.norm(h) if self.norm is not None else h)
        h = h + torch.zeros_like(h).index_add(0, ei[1], h[ei[0]])
        h = torch.tanh(self.lin2(h) if self.lin2 is not None else h)
        g = torch.zeros(batch.num_graphs, h.shape[-1], dtype=h.dtype).index_add(0, batch.batch, h)
        return self.out(g)


@pytest.fixture(autouse=True)
def _torch_threads_as_found():
    """Every test leaves torch's intra-op thread count as it found it. The count changes the low
    bits of trained values, so a test that changed it (``torch.set_num_threads``) would change
    another test's floats by the order the tests happen to run in."""
    before = torch.get_num_threads()
    yield
    if torch.get_num_threads() != before:
        torch.set_num_threads(before)


@pytest.fixture
def tiny():
    """The :class:`Tiny` class: ``tiny()``, ``tiny(batchnorm=True)``, ..."""
    return Tiny


@pytest.fixture
def triangle_feature():
    return TriangleFeature()


@pytest.fixture
def tiny_model(tmp_path, monkeypatch):
    """A tiny model registered for the duration of one test (encoding cache in tmp_path): one
    linear layer, hidden width 8 (preset ``brec``) or 4 (``small``)."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    name = "_tiny_rundir_test"
    base = {"hidden": 8, "second_linear": False}
    registry.register_model(name, config_cls=TinyConfig, presets={"brec": base, "small": {**base, "hidden": 4}},
                            make_transform=lambda c: TriangleFeature())(Tiny)
    yield name
    registry._MODELS.pop(name, None)


USER_MODEL_SOURCE = '''
"""A researcher's own models, as a user would write them: plain torch, no wltools import."""
import torch
from torch import nn

''' + tiny_gnn_source() + '''

def tiny(hidden=8, out_dim=16):
    return TinyGNN(hidden, out_dim)


tiny.wl_bound = "1wl"


class NoReset(TinyGNN):
    """The same model without reset_parameters: the runner builds one per unit."""

    reset_parameters = None


class NodeIndex(nn.Module):
    """Not permutation invariant: the node's index within its graph is an input feature."""

    wl_bound = "1wl"

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 32)
        self.mid = nn.Linear(32, 32)
        self.out = nn.Linear(32, 16)

    def forward(self, batch):
        ei = batch.edge_index
        local = (torch.arange(batch.num_nodes) - batch.ptr[batch.batch]).float()
        h = torch.tanh(self.lin(torch.stack([torch.ones(batch.num_nodes), local / 10], dim=1)))
        for _ in range(2):
            h = torch.tanh(self.mid(h + torch.zeros_like(h).index_add(0, ei[1], h[ei[0]])))
        g = torch.zeros(batch.num_graphs, 32).index_add(0, batch.batch, h)
        return self.out(g)


class Fragile(TinyGNN):
    """Fails on graphs of more than 20 nodes (BREC pair 150 has 35), fine on Basic ones."""

    def forward(self, batch):
        if int((batch.ptr[1:] - batch.ptr[:-1]).max()) > 20:
            raise ValueError("graph too large for this model")
        return super().forward(batch)


def wrong_shape():
    class M(TinyGNN):
        def forward(self, batch):
            return super().forward(batch).sum(dim=1)
    return M()


def returns_int():
    class M(TinyGNN):
        def forward(self, batch):
            return super().forward(batch).long()
    return M()


def nan_out():
    class M(TinyGNN):
        def forward(self, batch):
            return super().forward(batch) * float("nan")
    return M()


def too_wide():
    return TinyGNN(out_dim=40)


def no_params():
    class M(nn.Module):
        def forward(self, batch):
            return torch.zeros(batch.num_graphs, 4)
    return M()


def not_module():
    return "a string"


def raises_in_init():
    raise RuntimeError("cannot build")


not_callable = 3
'''


@pytest.fixture
def user_model_file(tmp_path, monkeypatch):
    """Path of a Python file with a researcher's own models (see ``USER_MODEL_SOURCE``), encoding
    cache in tmp_path."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "user_models.py"
    path.write_text(USER_MODEL_SOURCE)
    return path


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run of examples/gin.py on pairs 0-3 (one epoch, bound 1-WL), copied by tests that
    damage it (test_file_faults, test_trust)."""
    from pathlib import Path

    from brec_runner.runs.evaluate import run

    gin = f"{Path(__file__).resolve().parents[2] / 'examples' / 'gin.py'}:gin"
    out = tmp_path_factory.mktemp("finished") / "run"
    run(gin, pairs=[0, 1, 2, 3], categories=None, protocol={"epochs": 1}, out=out, progress=False)
    return out


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """The test's own encoding cache (``WLTOOLS_CACHE`` in tmp_path)."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
