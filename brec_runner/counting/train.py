r"""Training a model to count: the protocol, the level heads and the loop of one (task, level, seed).

**Protocol** (:class:`CountProtocol`; every constant is written into the run's config.json):

* Targets are divided by the standard deviation of the task's targets at that level over the
  whole dataset (graphs, nodes or edges; ``torch.std``, unbiased), as GNN-AK
  (Zhao et al., ICLR 2022, code ``y / y.std(0)``), I²-GNN (Huang et al., ICLR 2023) and Zhang et
  al. (ICLR 2024, code ``src/dataset.py``) do; the L1 loss on them is the *normalised MAE*
  (MAE / std), the metric of their counting tables.
* L1 loss, Adam, learning rate 1e-3, batch size 512, at most 1200 epochs, ReduceLROnPlateau on the
  validation MAE with factor 0.9 and patience 10: Zhang et al.'s ``main.count.py`` defaults.
* Model selection: the test error reported is the one at the epoch of the lowest validation error
  (Chen et al., NeurIPS 2020, Sec. 6; GNN-AK and I²-GNN select the same way). Early stopping
  (``early_stop`` epochs without a better validation error; 0: off, as in Zhang et al.) is ours,
  for short CPU runs.
* MAE is the mean over the evaluated items (graphs, nodes or edges). Zhang et al. instead sum node
  and edge errors per graph and divide by the pattern's size (``critn``): their node- and edge-level
  numbers are not on our scale; their graph-level numbers are.

**Heads.** Graph level: ``Linear(d, 1)`` on the model's ``[num_graphs, d]`` output. Node level: a
model's own ``node_embeddings(batch) -> [num_nodes, d]`` when it defines one; otherwise the model's
``forward`` on the batch with every node made a graph of its own (the batch vector
``0..num_nodes-1``): for a model whose only use of the batch vector is its readout (message
passing, e.g. ``examples/gin.py``; attention over edges) this is the readout of each node's
embedding; a model that attends within a graph through the batch vector is refused
(:data:`GRAPH_WIDE`). Edge level: ``MLP([h_u * h_v, h_u + h_v])`` on the node embeddings of the
edge's ends (symmetric in u, v).
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any, Callable, Sequence

import torch
from torch import nn

from wltools.errors import WLToolsError

__all__ = ["CountProtocol", "CountHead", "node_outputs", "train_unit", "GRAPH_WIDE", "level_outputs"]

#: Built-in models whose layers mix nodes of one graph through the batch vector (dense or global
#: attention): the per-node readout would cut every node off its graph, so their node and edge
#: levels are refused unless they define ``node_embeddings``.
GRAPH_WIDE = ("graphormer", "grit", "ppgt", "sgformer")


@dataclasses.dataclass(frozen=True)
class CountProtocol:
    """The counting protocol (module docstring); ``sources`` cites each constant."""

    lr: float = 1e-3
    batch_size: int = 512
    epochs: int = 1200
    plateau_factor: float = 0.9
    plateau_patience: int = 10
    early_stop: int = 0
    weight_decay: float = 0.0
    limit: int = 0
    loss: str = "l1"
    optimizer: str = "adam"
    normalisation: str = "std of the level's targets over the dataset (unbiased)"
    selection: str = "test error at the epoch of lowest validation error"

    SOURCES = {
        "lr": "Zhang et al. ICLR 2024, main.count.py (--lr 1e-3)",
        "batch_size": "Zhang et al. ICLR 2024, main.count.py (--bs 512)",
        "epochs": "Zhang et al. ICLR 2024, main.count.py (--epochs 1200)",
        "plateau_factor": "Zhang et al. ICLR 2024, main.count.py (ReduceLROnPlateau factor 0.9)",
        "plateau_patience": "Zhang et al. ICLR 2024, main.count.py (ReduceLROnPlateau patience 10)",
        "early_stop": "ours (0: off, as Zhang et al.)",
        "limit": "ours: the first N graphs of each split only (0: all), for smoke tests",
        "loss": "L1 on normalised targets: GNN-AK (Zhao et al. ICLR 2022), I2-GNN (Huang et al. ICLR 2023), Zhang et al.",
        "optimizer": "Adam: Zhang et al. main.count.py; GNN-AK; I2-GNN",
        "normalisation": "y / y.std(0): GNN-AK and I2-GNN code; Zhang et al. src/dataset.py",
        "selection": "best validation epoch: Chen et al. NeurIPS 2020 Sec. 6",
    }

    def __post_init__(self) -> None:
        if not (self.lr > 0 and self.batch_size >= 1 and self.epochs >= 1 and 0 < self.plateau_factor <= 1
                and self.plateau_patience >= 0 and self.early_stop >= 0 and self.weight_decay >= 0 and self.limit >= 0):
            raise WLToolsError(f"bad counting protocol: {self}")

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "sources": dict(self.SOURCES)}

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]


class CountHead(nn.Module):
    """The trained head on top of a model: graph and node level ``Linear(d, 1)``; edge level
    ``Linear(2d, d) -> ReLU -> Linear(d, 1)`` on ``[h_u * h_v, h_u + h_v]``."""

    def __init__(self, level: str, d: int) -> None:
        super().__init__()
        self.level = level
        if level == "edge":
            self.net = nn.Sequential(nn.Linear(2 * d, d), nn.ReLU(), nn.Linear(d, 1))
        else:
            self.net = nn.Sequential(nn.Linear(d, 1))

    def forward(self, h: torch.Tensor, pairs: torch.Tensor | None = None) -> torch.Tensor:
        if self.level == "edge":
            hu, hv = h[pairs[0]], h[pairs[1]]  # [m, d] each
            h = torch.cat([hu * hv, hu + hv], dim=-1)  # [m, 2d]
        return self.net(h).squeeze(-1)  # [items]


def node_outputs(model: nn.Module, batch) -> torch.Tensor:
    """``[num_nodes, d]``: ``model.node_embeddings(batch)``, or the per-node readout (module
    docstring)."""
    own = getattr(model, "node_embeddings", None)
    if callable(own):
        return own(batch)
    n = int(batch.num_nodes)
    each = batch.clone()
    each.batch = torch.arange(n, device=batch.edge_index.device)
    each.ptr = torch.arange(n + 1, device=batch.edge_index.device)
    each._num_graphs = n
    return model(each)


def level_outputs(model: nn.Module, batch, level: str) -> torch.Tensor:
    """The model's representation at ``level`` (``[B, d]`` graphs, ``[n, d]`` nodes and edges)."""
    return model(batch) if level == "graph" else node_outputs(model, batch)


def _batches(order: Sequence[int], size: int) -> list[list[int]]:
    return [list(order[i:i + size]) for i in range(0, len(order), size)]


def _plain_store(graphs, idx: Sequence[int]) -> dict | None:
    """Per-graph tensors of ``graphs[idx]`` for :func:`_fast_batch` when every one is a plain
    ``Data(x, edge_index, num_nodes)`` (the benchmark's graphs without a transform); None otherwise."""
    from torch_geometric.data import Data

    store = {}
    for i in idx:
        g = graphs[i]
        if type(g) is not Data or set(g.keys()) != {"x", "edge_index", "num_nodes"}:
            return None
        store[i] = (g.x, g.edge_index, int(g.num_nodes))
    return store


def _fast_batch(store: dict, idx: Sequence[int]):
    """``Batch.from_data_list`` of plain graphs by one concatenation per field: ``x``, ``edge_index``
    shifted by each graph's first node, ``batch``, ``ptr`` (tested equal to it). Its ``to_data_list``
    is not available: a model reads the fields."""
    from torch_geometric.data import Batch

    xs, eis, ns = zip(*(store[i] for i in idx))
    sizes = torch.tensor(ns)
    ptr = torch.cat([torch.zeros(1, dtype=torch.long), torch.cumsum(sizes, 0)])
    shift = torch.repeat_interleave(ptr[:-1], torch.tensor([e.shape[1] for e in eis]))
    return Batch(x=torch.cat(xs), edge_index=torch.cat(eis, dim=1) + shift,
                 batch=torch.repeat_interleave(torch.arange(len(idx)), sizes), ptr=ptr, num_nodes=int(ptr[-1]))


def _collate(graphs, targets, pairs, idx: list[int], device, store: dict | None = None):
    """A PyG batch of graphs ``idx`` (:func:`_fast_batch` from ``store`` when given), their
    concatenated targets and (edge level) the edge ends offset into the batch."""
    from torch_geometric.data import Batch

    batch = (_fast_batch(store, idx) if store is not None else Batch.from_data_list([graphs[i] for i in idx]))
    batch = batch.to(device)
    y = torch.cat([targets[i].reshape(-1) for i in idx]).to(device)
    if pairs is None:
        return batch, y, None
    offsets = torch.cumsum(torch.tensor([0] + [int(graphs[i].num_nodes) for i in idx[:-1]]), 0)
    p = torch.cat([pairs[i] + offsets[k] for k, i in enumerate(idx)], dim=1).to(device)
    return batch, y, p


def _fixed_batches(data, device, size: int = 500) -> list:
    """The collated batches of an evaluation split (fixed order), built once per unit."""
    graphs, targets, pairs, idx = data
    return [_collate(graphs, targets, pairs, chunk, device) for chunk in _batches(idx, size)]


def _mae(model, head, batches: list, level: str, keep: list | None = None) -> float:
    """Mean absolute error over every item of the collated ``batches`` (eval mode); the
    predictions are appended to ``keep`` (float32, CPU) when given."""
    model.eval()
    head.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for batch, y, p in batches:
            pred = head(level_outputs(model, batch, level), p)
            total += float((pred.double() - y.double()).abs().sum())
            count += int(y.numel())
            if keep is not None:
                keep.append(pred.detach().float().cpu())
    return total / max(count, 1)


def train_unit(model: nn.Module, data: dict[str, tuple], level: str, protocol: CountProtocol, seed: int,
               device="cpu", on_epoch: Callable[[int, float], None] | None = None, checkpoint=None,
               checkpoint_every_s: float = 60.0) -> dict[str, Any]:
    """Train ``model`` (fresh, seeded by the caller) with a new head on ``data["train"]``; select
    on ``data["val"]``; return the record body (normalised MAEs, best epoch, curve, wall time) and
    ``test_pred``, the test predictions of the selected epoch (float32, in item order).

    ``data[split] = (graphs, targets, pairs, indices)``: PyG graphs, normalised target tensors and
    (edge level) ``[2, m]`` edge ends per graph, all indexed by graph index, and the split's indices.
    With ``checkpoint`` (a :class:`brec_runner.counting.checkpoint.UnitCheckpoint`) the state is saved
    at the end of an epoch at most every ``checkpoint_every_s`` seconds, and a saved state is
    resumed from: the same record as one uninterrupted run, ``wall_s`` summing every attempt.
    """
    from .checkpoint import capture, restore

    t0 = time.time()
    graphs, targets, pairs, train_idx = data["train"]
    with torch.no_grad():
        model.eval()
        batch, _, _ = _collate(graphs, targets, pairs, list(train_idx[:2]), device)
        d = int(level_outputs(model, batch, level).shape[-1])
    torch.manual_seed(seed)
    head = CountHead(level, d).to(device)
    params = list(model.parameters()) + list(head.parameters())
    opt = torch.optim.Adam(params, lr=protocol.lr, weight_decay=protocol.weight_decay)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=protocol.plateau_factor,
                                                       patience=protocol.plateau_patience)
    gen = torch.Generator().manual_seed(seed)
    store = _plain_store(graphs, train_idx)
    val_batches, test_batches = _fixed_batches(data["val"], device), _fixed_batches(data["test"], device)
    best = {"val": math.inf, "test": math.inf, "epoch": -1, "pred": None}
    curve, epoch, spent, saved_at = [], 0, 0.0, time.time()
    modules = {"model": model, "head": head, "opt": opt, "sched": sched}
    state = checkpoint.load() if checkpoint is not None else None
    if state is not None:
        restore(state, modules, gen)
        best, curve, epoch, spent = state["best"], state["curve"], state["epoch"], state["wall_s"]
    for epoch in range(epoch + 1, protocol.epochs + 1):
        model.train()
        head.train()
        losses = []
        order = [train_idx[i] for i in torch.randperm(len(train_idx), generator=gen).tolist()]
        for chunk in _batches(order, protocol.batch_size):
            batch, y, p = _collate(graphs, targets, pairs, chunk, device, store)
            loss = (head(level_outputs(model, batch, level), p) - y).abs().mean()  # L1
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        val = _mae(model, head, val_batches, level)
        sched.step(val)
        if val < best["val"]:
            kept: list = []
            best = {"val": val, "test": _mae(model, head, test_batches, level, kept), "epoch": epoch,
                    "pred": torch.cat(kept)}
        train_loss = sum(losses) / max(len(losses), 1)
        curve.append([epoch, round(train_loss, 6), round(val, 6)])
        if on_epoch is not None:
            on_epoch(epoch, val)
        if not math.isfinite(train_loss):
            raise FloatingPointError(f"training loss is {train_loss} at epoch {epoch}")
        if protocol.early_stop and epoch - best["epoch"] >= protocol.early_stop:
            break
        if checkpoint is not None and time.time() - saved_at >= checkpoint_every_s and epoch < protocol.epochs:
            checkpoint.save(capture(modules, gen, best=best, curve=curve, epoch=epoch, wall_s=spent + time.time() - t0))
            saved_at = time.time()
    if best["pred"] is None:
        raise FloatingPointError(f"no finite validation error in {epoch} epochs")
    return {"test_nmae": best["test"], "val_nmae": best["val"], "best_epoch": best["epoch"], "epochs_run": epoch,
            "curve": curve, "wall_s": round(spent + time.time() - t0, 2), "test_pred": best["pred"].numpy()}
