"""Helpers shared by the model tests: graph -> PyG data -> model batch, seeded relabelling, and
the RPC-style train-to-separate loop; plus one intra-op thread for every test in this folder.

Tests get them through the ``helpers`` fixture (pytest runs with ``--import-mode=importlib``, so a
helper module beside the tests would not be importable by name)::

    def test_x(helpers):
        b = helpers.batch("grit", [G, helpers.relabel(G, 1)])
"""

from __future__ import annotations

from types import SimpleNamespace

import networkx as nx
import pytest
import torch
import torch.nn.functional as F
from torch_geometric.data import Batch, Data

from wltools.models import create_transform


@pytest.fixture(autouse=True)
def _one_thread():
    """The CI box has 2 shared cores: for tiny tensors one intra-op thread is faster and
    reproducible (more threads only add contention)."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def graph_data(G: nx.Graph, sort_edges: bool = False) -> Data:
    """``Data`` with ``x = 1`` per node and both directions of every edge of ``G`` (nodes ``0..n-1``),
    edges in ``G.edges()`` order (``sorted`` with ``sort_edges``)."""
    n = G.number_of_nodes()
    edges = sorted(G.edges()) if sort_edges else list(G.edges())
    e = torch.tensor(edges, dtype=torch.long).reshape(-1, 2).T
    return Data(x=torch.ones(n, 1), edge_index=torch.cat([e, e.flip(0)], 1), num_nodes=n)


def permutation(n: int, seed: int | torch.Generator) -> list[int]:
    """A random permutation of ``range(n)`` from a seed or (advancing) a given generator."""
    gen = seed if isinstance(seed, torch.Generator) else torch.Generator().manual_seed(seed)
    return torch.randperm(n, generator=gen).tolist()


def relabel(G: nx.Graph, seed: int | torch.Generator) -> nx.Graph:
    """``G`` with node ``v`` renamed ``permutation(n, seed)[v]``."""
    return nx.relabel_nodes(G, dict(enumerate(permutation(G.number_of_nodes(), seed))))


def model_batch(name: str, graphs, preset: str = "small", *, dtype: torch.dtype | None = None,
                device=None, sort_edges: bool = False, **overrides) -> Batch:
    """The batch of ``graphs`` with the encodings model ``name`` needs (its transform for ``preset``
    and config ``overrides``); floating tensors cast to ``dtype`` and moved to ``device`` if given."""
    tf = create_transform(name, preset, **overrides)
    b = Batch.from_data_list([tf(graph_data(G, sort_edges)) for G in graphs])
    if dtype is not None:
        for key in b.keys():
            if torch.is_tensor(b[key]) and b[key].is_floating_point():
                b[key] = b[key].to(dtype)
    return b if device is None else b.to(device)


def eval_cosine(model, batch) -> float:
    """Eval-mode cosine similarity of the embeddings of the first two graphs of ``batch``."""
    model.eval()
    with torch.no_grad():
        out = model(batch)
    return F.cosine_similarity(out[0:1], out[1:2]).item()


def separation_training(model, batch, steps: int, lr: float, seed: int) -> tuple[float, float]:
    """RPC-style training: Adam on the cosine embedding loss (target -1) between the two graphs
    of ``batch``; every 10 steps the eval-mode cosine is checked and training stops once it is
    below 0.5. Returns (eval cosine before, eval cosine after)."""
    torch.manual_seed(seed)
    model.reset_parameters()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = torch.nn.CosineEmbeddingLoss(margin=0.0)
    before = after = eval_cosine(model, batch)
    for step in range(1, steps + 1):
        model.train()
        out = model(batch)
        loss = loss_fn(out[0:1], out[1:2], torch.tensor([-1.0]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            after = eval_cosine(model, batch)
            if after < 0.5:
                break
    return before, after


@pytest.fixture
def helpers() -> SimpleNamespace:
    """The helpers above: ``data``, ``permutation``, ``relabel``, ``batch``, ``eval_cosine``,
    ``separation_training``."""
    return SimpleNamespace(data=graph_data, permutation=permutation, relabel=relabel, batch=model_batch,
                           eval_cosine=eval_cosine, separation_training=separation_training)
