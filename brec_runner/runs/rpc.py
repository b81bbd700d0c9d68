"""Reliable Paired Comparison (RPC): the BREC training-and-test protocol for one pair.

Wang & Zhang, "Towards Better Evaluation of GNN Expressiveness with BREC Dataset" (2023/2024),
Section 4 (evaluation method) and the benchmark's reference evaluator; the facts used here are
summarised in ``docs/protocol.md``. Every constant of the protocol lives in
:class:`brec_runner.runs.protocol.Protocol` (one place); per-model overrides are in
``brec_runner/configs/``.

For a pair (G, H) the model, with fresh parameters, is trained contrastively on the 32 + 32
relabelings (interleaved G1, H1, G2, H2, ...) to push f(G_i) and f(H_i) apart, then tested in eval
mode with Hotelling's T² statistic on the differences of the outputs:

.. math::

    D = X - Y \\in \\mathbb{R}^{q \\times d}, \\quad
    T^2 = \\bar d^\\top \\, \\mathrm{pinv}(S_D) \\, \\bar d,

where :math:`\\bar d` is the mean difference and :math:`S_D` the sample covariance (no factor q,
exactly as the reference evaluator). The threshold is the critical value of Hotelling's T² for
``q`` paired observations in dimension ``d`` at level ``alpha``:

.. math::

    T^2_{\\mathrm{crit}} = \\frac{(q - 1) d}{q - d} \\, F_{\\alpha}(d, q - d),

which for q = 32, d = 16, alpha = 0.95 is 31 · F_0.95(16, 16) = 72.338 → the published 72.34
(:func:`t2_threshold`). The pair is *distinguished* iff T²(pair) > threshold and T²(pair) is not
close to T²(reliability set) (``torch.isclose`` with atol 1e-6 and its default rtol 1e-5, as the
reference code); the pair is *reliable* iff T²(reliability) < threshold.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import torch
from torch import nn

from .protocol import Protocol, decide

__all__ = [
    "PairOutcome",
    "UnitFailure",
    "is_model_failure",
    "t2_statistic",
    "decide",
    "pair_seed",
    "fresh_parameters",
    "fresh_model",
    "lr_at_epoch",
    "PlateauState",
    "train_pair",
    "t2_of_graphs",
    "UnitTimer",
    "evaluate_pair",
]

def t2_statistic(x: torch.Tensor, y: torch.Tensor, dtype: torch.dtype | None = None) -> float:
    """Hotelling's T² of the paired differences, as BREC's reference evaluator computes it.

    Parameters
    ----------
    x, y : Tensor [q, d]
        Outputs of the q relabelings of G and of H (row i of ``x`` is paired with row i of ``y``).
    dtype : torch.dtype, optional
        Computation dtype (default: that of ``x``).

    Returns
    -------
    float
        :math:`\\bar d^\\top \\mathrm{pinv}(\\mathrm{cov}(D))\\, \\bar d` with D = X - Y, the
        unbiased covariance (``torch.cov``) and the Moore-Penrose pseudo-inverse; no factor q.
    """
    if x.shape != y.shape or x.dim() != 2:
        raise ValueError(f"x and y must both be [q, d], got {tuple(x.shape)} and {tuple(y.shape)}")
    dtype = dtype or x.dtype
    diff = (x.detach().to(dtype) - y.detach().to(dtype)).T  # [d, q]
    mean = diff.mean(dim=1, keepdim=True)  # [d, 1]
    cov = torch.cov(diff)  # [d, d]
    if cov.dim() == 0:
        cov = cov.reshape(1, 1)
    inv = torch.linalg.pinv(cov)
    return float((mean.T @ inv @ mean).item())


def pair_seed(seed: int, pair_id: int) -> int:
    """The seed of a pair's fresh parameters, derived from (run seed, pair id) by SeedSequence."""
    return int(np.random.SeedSequence([int(seed), int(pair_id)]).generate_state(1, np.uint64)[0]) >> 1


def fresh_parameters(model: nn.Module, seed: int, pair_id: int) -> None:
    """Seed torch with :func:`pair_seed` and re-initialise ``model`` by its ``reset_parameters()``.

    A model without ``reset_parameters`` keeps the parameters it was built with: the runner builds
    one per (pair, seed) from its factory under the same seed (:func:`fresh_model`). The global
    torch generator is left seeded, so dropout during the pair's training is reproducible too.
    """
    torch.manual_seed(pair_seed(seed, pair_id))
    reset = getattr(model, "reset_parameters", None)
    if callable(reset):
        reset()


def fresh_model(factory, options: dict[str, Any], seed: int, pair_id: int, device="cpu") -> nn.Module:
    """A new model for one (pair, seed) unit: ``factory(**options)`` built under :func:`pair_seed`,
    on ``device``.

    Training then starts with :func:`fresh_parameters` under the same seed (:func:`evaluate_pair`),
    so a model's initial parameters depend on (seed, pair id) alone, never on the units run before
    it in the same process: verdicts do not depend on how units are ordered, grouped or split.
    """
    torch.manual_seed(pair_seed(seed, pair_id))
    return factory(**options).to(device)


def lr_at_epoch(protocol: Protocol, epoch: int) -> float:
    """Learning rate of the (epoch-stepped) schedules that do not depend on the loss.

    ``"cosine"``: linear warm-up ``lr * (epoch + 1) / warmup_epochs`` for the first
    ``warmup_epochs`` epochs, then ``min_lr + (lr - min_lr) (1 + cos(pi t / T)) / 2`` with
    t = epoch - warmup, T = epochs - warmup (PPGT paper, App. A.4: cosine annealing with linear
    warm-up). ``"constant"`` and ``"plateau"`` start from ``lr`` (plateau then reduces it, see
    :class:`PlateauState`).
    """
    if protocol.scheduler != "cosine":
        return protocol.lr
    w = protocol.warmup_epochs
    if epoch < w:
        return protocol.lr * (epoch + 1) / w
    span = max(protocol.epochs - w, 1)
    t = min(epoch - w, span)
    return protocol.min_lr + (protocol.lr - protocol.min_lr) * 0.5 * (1 + math.cos(math.pi * t / span))


@dataclass
class PlateauState:
    """``torch.optim.lr_scheduler.ReduceLROnPlateau(mode="min")`` as a small pure state machine.

    Used by the multi-pair mode, where each pair has its own learning rate; tested against torch's
    scheduler. Defaults threshold 1e-4 (relative), cooldown 0, min_lr 0, eps 1e-8 as torch.
    """

    lr: float
    factor: float = 0.1
    patience: int = 10
    threshold: float = 1e-4
    best: float = math.inf
    bad_epochs: int = 0

    def step(self, metric: float) -> float:
        if metric < self.best * (1.0 - self.threshold):
            self.best = metric
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        if self.bad_epochs > self.patience:
            new_lr = max(self.lr * self.factor, 0.0)
            if self.lr - new_lr > 1e-8:
                self.lr = new_lr
            self.bad_epochs = 0
        return self.lr


def _make_optimizer(params, protocol: Protocol) -> torch.optim.Optimizer:
    cls = torch.optim.Adam if protocol.optimizer == "adam" else torch.optim.AdamW
    # foreach=False: the plain per-tensor loop, the reference arithmetic the multi-pair mode mirrors
    return cls(params, lr=lr_at_epoch(protocol, 0), weight_decay=protocol.weight_decay, foreach=False)


def _batches(graphs: Sequence, size: int, device, prepare=None) -> list:
    """Collated batches of ``size`` graphs in order, on ``device``; ``prepare`` (a model's
    ``prepare_batch``, for batches fed once per epoch) is applied to each."""
    from torch_geometric.data import Batch

    out = [Batch.from_data_list(list(graphs[i : i + size])).to(device) for i in range(0, len(graphs), size)]
    return [prepare(b) for b in out] if prepare is not None else out


def couple_loss(out: torch.Tensor, margin: float) -> torch.Tensor:
    """``CosineEmbeddingLoss(margin)`` between rows 0, 2, 4, ... and 1, 3, 5, ..., target -1."""
    a, b = out[0::2], out[1::2]
    target = -torch.ones(a.shape[0], device=out.device, dtype=out.dtype)
    return nn.functional.cosine_embedding_loss(a, b, target, margin=margin)


def train_pair(model: nn.Module, graphs: Sequence, protocol: Protocol, device="cpu") -> tuple[int, float]:
    """Contrastive training of ``model`` on one pair's 2q interleaved graphs (the reference loop).

    Batches of ``protocol.batch_size`` graphs in the given order; per batch the couple loss,
    backward, optional gradient clipping, optimizer step; epoch loss = sum(batch loss * couples in
    batch) / q; stop when it falls below ``loss_threshold``; else step the scheduler.

    Returns
    -------
    (epochs_run, final_epoch_loss)
    """
    if len(graphs) != 2 * protocol.num_relabelings:
        raise ValueError(f"expected {2 * protocol.num_relabelings} graphs, got {len(graphs)}")
    batches = _batches(graphs, protocol.batch_size, device, getattr(model, "prepare_batch", None))
    opt = _make_optimizer(model.parameters(), protocol)
    plateau = PlateauState(protocol.lr, protocol.plateau_factor, protocol.plateau_patience)
    model.train()
    epochs_run, loss_all = 0, float("nan")
    for epoch in range(protocol.epochs):
        lr = lr_at_epoch(protocol, epoch) if protocol.scheduler != "plateau" else plateau.lr
        for group in opt.param_groups:
            group["lr"] = lr
        loss_all = 0.0
        for batch in batches:
            opt.zero_grad()
            out = model(batch)  # [graphs in batch, d]
            loss = couple_loss(out, protocol.margin)
            loss.backward()
            if protocol.grad_clip is not None:
                nn.utils.clip_grad_norm_(model.parameters(), protocol.grad_clip)
            opt.step()
            loss_all += out.shape[0] // 2 * loss.item()
        loss_all /= protocol.num_relabelings
        epochs_run = epoch + 1
        if loss_all < protocol.loss_threshold:
            break
        if protocol.scheduler == "plateau":
            plateau.step(loss_all)
    return epochs_run, float(loss_all)


@torch.no_grad()
def model_outputs(model: nn.Module, graphs: Sequence, device="cpu", batch_size: int | None = None) -> torch.Tensor:
    """Eval-mode outputs [len(graphs), d]; all graphs in one batch unless ``batch_size`` is set."""
    model.eval()
    size = batch_size or len(graphs)
    return torch.cat([model(b) for b in _batches(graphs, size, device)], dim=0)


def t2_of_graphs(model, graphs: Sequence, protocol: Protocol, device="cpu", batch_size=None) -> float:
    """T² of an interleaved list [G1, H1, G2, H2, ...] under ``model`` in eval mode."""
    out = model_outputs(model, graphs, device, batch_size)
    return t2_statistic(out[0::2], out[1::2], dtype=getattr(torch, protocol.t2_dtype))


@dataclass
class PairOutcome:
    """One (pair, seed) result, as written to a run's results.jsonl."""

    id: int
    seed: int
    t2_pair: float
    t2_reliability: float
    threshold: float
    distinguished: bool
    reliable: bool
    epochs: int
    final_loss: float
    wall_s: float
    cuda_s: float | None = None
    category: str | None = None
    subcategory: str | None = None
    mode: str = "single"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def is_model_failure(exc: BaseException) -> bool:
    """Whether ``exc``, raised while one unit built, encoded, trained or tested its model, is that
    unit's failure (recorded, and the run goes on) rather than a stop of the whole run.

    A model failure is an ordinary :class:`Exception` of the model, its factory or its transform
    (``ValueError``, ``RuntimeError`` from a shape mismatch, ``IndexError``, a failed assertion,
    ...). Not model failures, so they propagate and stop the run: ``KeyboardInterrupt``,
    ``SystemExit`` and other non-``Exception`` signals; ``MemoryError`` and
    ``torch.OutOfMemoryError`` (the machine, not the model: a smaller batch or another device may
    run the unit); and wltools' own errors (:class:`wltools.errors.WLToolsError`, e.g. an
    unwritable run directory), except :class:`~brec_runner.models.source.ModelContractError`.

    Examples
    --------
    >>> is_model_failure(ValueError("graphs above 20 nodes")), is_model_failure(MemoryError())
    (True, False)
    >>> is_model_failure(KeyboardInterrupt())
    False
    """
    from wltools.errors import WLToolsError

    from ..models.source import ModelContractError

    if not isinstance(exc, Exception) or isinstance(exc, MemoryError):
        return False
    oom = getattr(torch, "OutOfMemoryError", None) or getattr(torch.cuda, "OutOfMemoryError", None)
    if oom is not None and isinstance(exc, oom):
        return False
    return isinstance(exc, ModelContractError) or not isinstance(exc, WLToolsError)


@dataclass
class UnitFailure:
    """One (pair, seed) unit whose model raised (:func:`is_model_failure`): an outcome that is
    recorded in the run's ``failures.jsonl`` (never in ``results.jsonl``), not a result.

    ``stage`` is where it raised: ``"encode"`` (the model's transform on the pair's graphs),
    ``"build"`` (the factory) or ``"train"`` (training or testing); ``where`` is the last
    traceback frame (``file:line in function``). A resume runs the unit again.
    """

    id: int
    seed: int
    type: str
    message: str
    stage: str = "train"
    where: str | None = None
    attempts: int = 1
    category: str | None = None
    subcategory: str | None = None

    @classmethod
    def of(cls, pair_id: int, seed: int, exc: BaseException, stage: str) -> "UnitFailure":
        """The failure of unit (``pair_id``, ``seed``) raising ``exc``: its type, the first line of
        its message (at most 300 characters) and its last traceback frame."""
        import traceback

        frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ is not None else []
        where = f"{frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name}" if frames else None
        first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")[:300]
        return cls(id=int(pair_id), seed=int(seed), type=type(exc).__name__, message=first, stage=stage, where=where)

    @property
    def error(self) -> str:
        """``Type: message`` (one line)."""
        return f"{self.type}: {self.message}" if self.message else self.type

    def to_dict(self) -> dict[str, Any]:
        """The fields (``UnitFailure(**d)`` rebuilds it; sent back by workers and Ray tasks)."""
        return dataclasses.asdict(self)

    def record(self) -> dict[str, Any]:
        """The line of ``failures.jsonl`` (:meth:`brec_runner.records.record.RunDirectory.append_failure`):
        the fields and ``error``."""
        return {**self.to_dict(), "error": self.error}

    def line(self) -> str:
        """One line for a person: ``pair P seed S failed (stage): Type: message``."""
        return f"pair {self.id} seed {self.seed} failed ({self.stage}): {self.error}"


class UnitTimer:
    """The two times a :class:`PairOutcome` records, started at construction: wall-clock seconds
    (``wall_s``) and, on a CUDA ``device``, the GPU's own seconds between two CUDA events
    (``cuda_s``; None on other devices)."""

    def __init__(self, device) -> None:
        self.device = torch.device(device)
        self.events = None
        if self.device.type == "cuda":
            self.events = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
            self.events[0].record()
        self.t0 = time.perf_counter()

    def stop(self) -> tuple[float, float | None]:
        """``(wall_s, cuda_s)`` since construction; on CUDA after the device has finished its work."""
        cuda_s = None
        if self.events is not None:
            self.events[1].record()
            torch.cuda.synchronize(self.device)
            cuda_s = self.events[0].elapsed_time(self.events[1]) / 1000.0
        return time.perf_counter() - self.t0, cuda_s


def evaluate_pair(
    model: nn.Module,
    pair_id: int,
    graphs: Sequence,
    reliability: Sequence,
    protocol: Protocol,
    seed: int,
    device="cpu",
    eval_batch_size: int | None = None,
) -> PairOutcome:
    """The whole RPC for one pair and one seed: fresh parameters, training, T² and decision.

    ``graphs`` are the 2q interleaved relabelings (PyG ``Data`` with the model's encodings),
    ``reliability`` the interleaved reliability set.
    """
    device = torch.device(device)
    timer = UnitTimer(device)
    model.to(device)
    fresh_parameters(model, seed, pair_id)
    epochs, loss = train_pair(model, graphs, protocol, device)
    t2p = t2_of_graphs(model, graphs, protocol, device, eval_batch_size)
    t2r = t2_of_graphs(model, reliability, protocol, device, eval_batch_size)
    wall_s, cuda_s = timer.stop()
    dist, rel = decide(t2p, t2r, protocol)
    return PairOutcome(
        id=int(pair_id), seed=int(seed), t2_pair=t2p, t2_reliability=t2r, threshold=protocol.threshold,
        distinguished=dist, reliable=rel, epochs=epochs, final_loss=loss, wall_s=wall_s, cuda_s=cuda_s,
    )
