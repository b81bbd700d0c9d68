"""Multi-pair mode: train the independent models of several (pair, seed) units at once.

Each unit of the RPC protocol (:mod:`brec_runner.rpc`) trains its own fresh model. On small graphs
the one-pair loop is dominated by per-operation overhead, so here G units whose batches have equal
tensor shapes (same node and edge counts, e.g. one pair under several seeds, or pairs of one
BREC family) are trained together: their parameters are stacked (one leading axis per unit), the
model runs under ``torch.func.vmap`` over ``torch.func.functional_call``, and a vectorised
Adam/AdamW (the single-tensor arithmetic of ``torch.optim``) updates every unit with its own
learning rate (per-unit ``ReduceLROnPlateau`` / cosine schedule), its own gradient-norm clipping and
its own early stop (a stopped unit's parameters and buffers are frozen at that epoch). The test is
the same T² computation on the vmapped eval outputs.

Every unit sees exactly the batches, initial parameters (``reset_parameters`` under the seed of
(seed, pair id)), schedule and stopping rule of the one-pair loop, so verdicts are the same; T²
values agree up to floating-point reassociation (tested). Dropout under vmap draws different
random numbers than the loop (``randomness="different"``): with dropout > 0 only the statistics,
not the draws, match.

The registered models pad nodes with :func:`wltools.models.layers.dense_batch`, PyG's
``to_dense_batch`` written out of place so that it runs under vmap (PyG's in-place write does not).
If a model's operations cannot run under vmap (data-dependent shapes, ``.item()`` on a batched
tensor, in-place writes of batched values into unbatched tensors, kernels without the needed gradient such as CPU
flash attention w.r.t. a learnable ``attn_mask``), the group falls back to the one-pair loop with a
warning, and results carry ``mode = "single-fallback"``.
"""

from __future__ import annotations

import copy
import time
import warnings
from collections import defaultdict
from typing import Iterator, Sequence

import torch
from torch import nn

from .rpc import (
    PairOutcome,
    PlateauState,
    Protocol,
    _batches,
    couple_loss,
    decide,
    evaluate_pair,
    fresh_parameters,
    lr_at_epoch,
    t2_statistic,
)

__all__ = ["evaluate_units", "shape_signature", "train_and_test_group"]

_BETA1, _BETA2, _EPS = 0.9, 0.999, 1e-8  # torch.optim.Adam/AdamW defaults
_VMAP_FAILED: dict[str, dict[str, str]] = {}  # model class -> {"data" | "all": first error}


def _batch_signature(batch) -> tuple:
    return tuple(sorted((k, tuple(v.shape), str(v.dtype)) for k, v in batch.items() if torch.is_tensor(v)))


def shape_signature(graphs: Sequence, reliability: Sequence, protocol: Protocol, eval_batch_size=None) -> tuple:
    """Tensor shapes of every training and test batch of a unit: units group iff these are equal."""
    train = _batches(graphs, protocol.batch_size, "cpu")
    ev = _batches(graphs, eval_batch_size or len(graphs), "cpu") + _batches(
        reliability, eval_batch_size or len(reliability), "cpu")
    return tuple(_batch_signature(b) for b in train + ev)


def _split(batches: list):
    """(template, stacked): tensors equal in every unit stay in the template; the others are stacked."""
    template = batches[0]
    stacked = {}
    if all(b is template for b in batches):  # units of one pair share one collated batch
        return template, stacked
    for key, val in template.items():
        if not torch.is_tensor(val):
            continue
        vals = [b[key] for b in batches]
        if not all(v is val or torch.equal(v, val) for v in vals[1:]):
            stacked[key] = torch.stack(vals)
    return template, stacked


def _collated(lists: list, size: int | None, device) -> list[list]:
    """``_batches`` of every list, collating each distinct list object once."""
    done: dict[int, list] = {}
    for graphs in lists:
        if id(graphs) not in done:
            done[id(graphs)] = _batches(graphs, size or len(graphs), device)
    return [done[id(g)] for g in lists]


class _Vmapped:
    """``model`` applied to P stacked parameter sets and P stacked batches."""

    def __init__(self, model: nn.Module):
        self.model = model

    def __call__(self, params, buffers, template, stacked):
        from torch.func import functional_call, vmap

        def one(p, b, data):
            batch = copy.copy(template)
            for key, val in data.items():
                batch[key] = val
            return functional_call(self.model, (p, b), (batch,))

        from torch.nn.attention import SDPBackend, sdpa_kernel

        # the math backend: the CPU flash kernel has no gradient for a learnable attn_mask under vmap
        with sdpa_kernel([SDPBackend.MATH]):
            return vmap(one, in_dims=(0, 0, 0), randomness="different")(params, buffers, stacked)


def train_and_test_group(model: nn.Module, units: Sequence[tuple], protocol: Protocol, device="cpu",
                         eval_batch_size=None) -> list[PairOutcome]:
    """Train and test units ``(pair_id, seed, graphs, reliability)`` of equal shapes together."""
    from torch.func import vmap

    device = torch.device(device)
    cuda = device.type == "cuda"
    if cuda:
        ev0, ev1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        ev0.record()
    t0 = time.perf_counter()
    P = len(units)
    model.to(device)
    plist, blist = [], []
    for pid, seed, _, _ in units:
        fresh_parameters(model, seed, pid)
        plist.append({k: v.detach().clone() for k, v in model.named_parameters()})
        blist.append({k: v.detach().clone() for k, v in model.named_buffers()})
    params = {k: torch.stack([p[k] for p in plist]).requires_grad_(True) for k in plist[0]}
    buffers = {k: torch.stack([b[k] for b in blist]) for k in blist[0]}
    fwd = _Vmapped(model)

    per_unit = _collated([u[2] for u in units], protocol.batch_size, device)
    train = [_split([per_unit[u][j] for u in range(P)]) for j in range(len(per_unit[0]))]
    couples = [b.num_graphs // 2 for b in per_unit[0]]

    exp_avg = {k: torch.zeros_like(v) for k, v in params.items()}
    exp_sq = {k: torch.zeros_like(v) for k, v in params.items()}
    steps = torch.zeros(P, dtype=torch.float64)
    active = [True] * P
    epochs_run = [0] * P
    final_loss = [float("nan")] * P
    frozen: dict[int, tuple[dict, dict]] = {}
    plateaus = [PlateauState(protocol.lr, protocol.plateau_factor, protocol.plateau_patience) for _ in range(P)]

    def shaped(vec: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
        return vec.to(like.dtype).view(-1, *([1] * (like.dim() - 1)))

    model.train()
    for epoch in range(protocol.epochs):
        if not any(active):
            break
        if protocol.scheduler == "plateau":
            lrs = [pl.lr for pl in plateaus]
        else:
            lrs = [lr_at_epoch(protocol, epoch)] * P
        lr_vec = torch.tensor(lrs, dtype=torch.float64, device=device)
        mask = torch.tensor(active, device=device)
        loss_all = [0.0] * P
        for (template, stacked), c in zip(train, couples):
            for v in params.values():
                v.grad = None
            out = fwd(params, buffers, template, stacked)  # [P, graphs in batch, d]
            losses = vmap(couple_loss, in_dims=(0, None))(out, protocol.margin)  # [P]
            losses.sum().backward()
            with torch.no_grad():
                grads = {k: v.grad for k, v in params.items()}
                if protocol.grad_clip is not None:
                    # torch.nn.utils.clip_grad_norm_ per unit: one global L2 norm over its grads
                    sq = sum(g.pow(2).reshape(P, -1).sum(1).to(torch.float64) for g in grads.values() if g is not None)
                    coef = (protocol.grad_clip / (sq.sqrt() + 1e-6)).clamp(max=1.0)
                    for k in grads:
                        if grads[k] is not None:
                            grads[k] = grads[k] * shaped(coef, grads[k])
                steps += mask.cpu().to(torch.float64)
                _adam_step(params, grads, exp_avg, exp_sq, steps.to(device), lr_vec, mask, protocol, shaped)
            lv = losses.detach().cpu().tolist()
            for u in range(P):
                if active[u]:
                    loss_all[u] += c * lv[u]
        for u in range(P):
            if not active[u]:
                continue
            final_loss[u] = loss_all[u] / protocol.num_relabelings
            epochs_run[u] = epoch + 1
            if final_loss[u] < protocol.loss_threshold:
                active[u] = False
                frozen[u] = ({k: v[u].detach().clone() for k, v in params.items()},
                             {k: v[u].clone() for k, v in buffers.items()})
            elif protocol.scheduler == "plateau":
                plateaus[u].step(final_loss[u])
        # a stopped unit's buffers (e.g. BatchNorm running stats) must not move with the others
        with torch.no_grad():
            for u, (_, fb) in frozen.items():
                for k in buffers:
                    buffers[k][u].copy_(fb[k])

    with torch.no_grad():
        for u, (fp, fb) in frozen.items():
            for k in params:
                params[k][u].copy_(fp[k])
            for k in buffers:
                buffers[k][u].copy_(fb[k])
        model.eval()
        dtype = getattr(torch, protocol.t2_dtype)
        t2 = []
        for which in (2, 3):
            lists = _collated([unit[which] for unit in units], eval_batch_size, device)
            outs = []
            for j in range(len(lists[0])):
                template, stacked = _split([lists[u][j] for u in range(P)])
                outs.append(fwd(params, buffers, template, stacked))
            out = torch.cat(outs, dim=1)  # [P, graphs, d]
            t2.append([t2_statistic(out[u, 0::2], out[u, 1::2], dtype=dtype) for u in range(P)])
    cuda_s = None
    if cuda:
        ev1.record()
        torch.cuda.synchronize(device)
        cuda_s = ev0.elapsed_time(ev1) / 1000.0 / P
    wall = (time.perf_counter() - t0) / P
    outcomes = []
    for u, (pid, seed, _, _) in enumerate(units):
        dist, rel = decide(t2[0][u], t2[1][u], protocol)
        outcomes.append(PairOutcome(
            id=int(pid), seed=int(seed), t2_pair=t2[0][u], t2_reliability=t2[1][u], threshold=protocol.threshold,
            distinguished=dist, reliable=rel, epochs=epochs_run[u], final_loss=float(final_loss[u]),
            wall_s=wall, cuda_s=cuda_s, mode=f"multipair:{P}"))
    return outcomes


def _adam_step(params, grads, exp_avg, exp_sq, steps, lr_vec, mask, protocol: Protocol, shaped) -> None:
    """One Adam / AdamW step per unit, mirroring ``torch.optim`` single-tensor arithmetic.

    Units not in ``mask`` (stopped early) are left unchanged (parameters and moments).
    """
    wd = protocol.weight_decay
    bias1 = 1 - _BETA1 ** steps.clamp(min=1)  # [P] float64
    bias2_sqrt = (1 - _BETA2 ** steps.clamp(min=1)).sqrt()
    step_size = lr_vec / bias1
    for k, p in params.items():
        g = grads[k]
        if g is None:
            continue
        m = mask.view(-1, *([1] * (p.dim() - 1)))
        if protocol.optimizer == "adam" and wd != 0:
            g = g + wd * p
        new_p = p
        if protocol.optimizer == "adamw" and wd != 0:
            new_p = p * (1 - shaped(lr_vec, p) * wd)
        new_avg = exp_avg[k].lerp(g, 1 - _BETA1)
        new_sq = exp_sq[k] * _BETA2 + (1 - _BETA2) * g * g
        denom = new_sq.sqrt() / shaped(bias2_sqrt, p) + _EPS
        new_p = new_p - shaped(step_size, p) * new_avg / denom
        p.copy_(torch.where(m, new_p, p))
        exp_avg[k].copy_(torch.where(m, new_avg, exp_avg[k]))
        exp_sq[k].copy_(torch.where(m, new_sq, exp_sq[k]))


def _shares_data(chunk) -> bool:
    return len({id(u[2]) for u in chunk}) == 1 and len({id(u[3]) for u in chunk}) == 1


def evaluate_units(model: nn.Module, units: Sequence[tuple], protocol: Protocol, device="cpu",
                   group_size: int = 8, eval_batch_size=None) -> Iterator[PairOutcome]:
    """Outcomes of every unit ``(pair_id, seed, graphs, reliability)``, G = ``group_size`` at a time.

    Units are grouped by :func:`shape_signature` (order of first appearance, then chunks of G).
    Units of one pair (several seeds) share their data, so only parameters are vmapped; units of
    different pairs also vmap over the graphs, which more models refuse (data-dependent shapes
    such as boolean-mask edge filtering in GCN normalisation). When that fails once, later groups
    are formed from units of the same pair only; when even that fails, the model uses the one-pair
    loop. A group of one runs the one-pair loop.
    """
    groups: dict[tuple, list] = defaultdict(list)
    for unit in units:
        groups[shape_signature(unit[2], unit[3], protocol, eval_batch_size)].append(unit)
    name = type(model).__name__
    failed = _VMAP_FAILED.setdefault(name, {})

    def chunks():
        for members in groups.values():
            if "data" in failed:  # only units of one pair together
                by_pair: dict[int, list] = defaultdict(list)
                for u in members:
                    by_pair[id(u[2])].append(u)
                parts = list(by_pair.values())
            else:
                parts = [members]
            for part in parts:
                for i in range(0, len(part), group_size):
                    yield part[i : i + group_size]

    pending = list(chunks())
    while pending:
        chunk = pending.pop(0)
        outcomes = None
        if len(chunk) > 1 and "all" not in failed:
            shared = _shares_data(chunk)
            try:
                outcomes = train_and_test_group(model, chunk, protocol, device, eval_batch_size)
            except (RuntimeError, NotImplementedError, TypeError, ValueError, IndexError) as exc:
                msg = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
                failed["all" if shared else "data"] = msg
                warnings.warn(f"multi-pair mode: {name} cannot run under vmap "
                              f"{'at all' if shared else 'over different graphs'} ({msg}); "
                              + ("falling back to the one-pair loop" if shared else "grouping seeds of one pair only"),
                              RuntimeWarning, stacklevel=2)
                if not shared:  # retry these units grouped by pair
                    by_pair: dict[int, list] = defaultdict(list)
                    for u in chunk:
                        by_pair[id(u[2])].append(u)
                    pending = list(by_pair.values()) + pending
                    continue
        if outcomes is None:
            outcomes = []
            for pid, seed, graphs, rel in chunk:
                o = evaluate_pair(model, pid, graphs, rel, protocol, seed, device, eval_batch_size)
                o.mode = "single-fallback" if "all" in failed else "single"
                outcomes.append(o)
        yield from outcomes
