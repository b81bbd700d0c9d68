"""The driver of ``wltools count run``: resolve and check the model, plan the remaining units,
train each (:func:`brec_runner.counting.train.train_unit`) and record it (:class:`brec_runner.counting.run.CountRun`).

A unit whose model raises (:func:`brec_runner.runs.rpc.is_model_failure`) is recorded in
``failures.jsonl``, said in one line on stderr, and the run goes on; more than ``max_failures`` in
one invocation stop it (one error). A resume runs failed units again.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from wltools.errors import WLToolsError

from ..models.source import ModelContractError, ModelSource, resolve_model
from .predictions import FORMAT, FORMAT_KEY, normalised_targets, used_indices
from .run import MAX_FAILURES, CountRun, count_code_version, count_protocol, dataset_digest
from .train import GRAPH_WIDE, CountProtocol, level_outputs, train_unit

__all__ = ["run_count", "unit_data", "check_levels"]


def _encoded(source: ModelSource, limit: int = 0) -> list:
    """The benchmark graphs a run uses as PyG ``Data`` (BREC's :func:`~brec_runner.runs.dataset.to_pyg`),
    the model's transform applied (:func:`brec_runner.models.encoding_cache.encoded_graphs`), at their
    indices; None elsewhere."""
    from wltools.counting.data import load_graphs

    from ..models.encoding_cache import encoded_graphs

    graphs = load_graphs()
    ids = sorted(i for idx in used_indices(limit).values() for i in idx)
    out: list = [None] * len(graphs)
    for i, g in zip(ids, encoded_graphs([graphs[i] for i in ids], source.transform, source.transform_key)):
        out[i] = g
    return out


def unit_data(task: str, level: str, graphs: Sequence, limit: int = 0) -> tuple[dict[str, tuple], float]:
    """Per split ``(graphs, normalised targets, edge ends, indices)`` of ``task`` at ``level``, and
    the normalising standard deviation (unbiased, over every item of the dataset at that level)."""
    import torch

    from wltools.counting.data import edge_list, load_graphs

    normalised, std = normalised_targets(task, level)
    ys = [torch.tensor(v) for v in normalised]  # float32, as scored on read (count_predictions)
    pairs = None
    if level == "edge":
        pairs = [torch.tensor(edge_list(G), dtype=torch.long).reshape(-1, 2).t().contiguous()
                 if g is not None else None for G, g in zip(load_graphs(), graphs)]
    return {s: (graphs, ys, pairs, idx) for s, idx in used_indices(limit).items()}, std


def check_levels(source: ModelSource, levels: Sequence[str], graphs: Sequence, device: str) -> int:
    """The BREC contract (:func:`brec_runner.models.contract.check_model`, no T² width limit) and, for node
    and edge levels, ``[num_nodes, d]`` node outputs; at every level the batch-independence check
    (:func:`brec_runner.models.contract.check_graphs_kept_apart`: each graph's outputs, per node or per
    graph, unchanged when the other graphs of its batch are reordered or removed); refusals are
    one line. Returns ``d``."""
    import torch
    from torch_geometric.data import Batch

    from ..models.contract import check_graphs_kept_apart, check_model

    sample = [g for g in graphs if g is not None][:2]
    d = check_model(source, sample, num_relabelings=2 ** 31, device=device, where=" of the counting benchmark")
    if any(level != "graph" for level in levels):
        model = source.build().to(device)
        batch = Batch.from_data_list(sample).to(device)
        model.eval()
        try:
            with torch.no_grad():
                out = level_outputs(model, batch, "node")
        except Exception as exc:  # noqa: BLE001 - a user's model: one line
            raise ModelContractError(f"model {source.name}: node-level outputs failed: {type(exc).__name__}: "
                                     f"{(str(exc).splitlines() or [''])[0][:200]}") from None
        if not isinstance(out, torch.Tensor) or out.dim() != 2 or out.shape[0] != batch.num_nodes:
            raise ModelContractError(f"model {source.name}: node and edge levels need [num_nodes, d] = "
                                     f"[{batch.num_nodes}, d] node outputs, got "
                                     f"{list(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__}")
        check_graphs_kept_apart(source, [g for g in graphs if g is not None][:4],
                                lambda m, b: level_outputs(m, b, "node"), device)
    if "graph" in levels:  # a graph-level count is as wrong when a graph's output depends on its batch
        check_graphs_kept_apart(source, [g for g in graphs if g is not None][:4],
                                lambda m, b: level_outputs(m, b, "graph"), device, what="graph")
    return d


def _refuse_repeats(tasks: Sequence[str], levels: Sequence[str], seeds: Sequence[int]) -> None:
    """One line when a task (after its name is read: ``cycle:03`` is ``cycle:3``), a level or a
    seed is given twice: each unit is trained once, so a repeat has no meaning to give it."""
    for what, values in (("task", tasks), ("level", levels), ("seed", seeds)):
        twice = sorted({str(v) for v in values if list(values).count(v) > 1})
        if twice:
            raise WLToolsError(f"{what} {', '.join(twice)} given twice; give each {what} once")


def _refuse_missing_device(device: str) -> None:
    """One line, before any work, when ``device`` is a CUDA device this torch cannot use (a CPU
    build, no GPU, or an index beyond the GPUs present)."""
    import torch

    if not str(device).startswith("cuda"):
        return
    if not torch.cuda.is_available():
        raise WLToolsError(f"device {device} requested but this torch ({torch.__version__}) sees no CUDA device; "
                           "use --device cpu, or a CUDA build of torch on a machine with a GPU")
    index = torch.device(device).index
    if index is not None and index >= torch.cuda.device_count():
        raise WLToolsError(f"device {device} requested but torch sees {torch.cuda.device_count()} CUDA device(s)")


def _probe_invariance(source: ModelSource, seed: int, device: str, out, quiet: bool) -> dict[str, Any]:
    """:func:`brec_runner.models.contract.probe_invariance` on benchmark graph 0 and three seeded random
    relabellings of it (the model's transform applied), as a BREC run probes; one warning line on
    stderr when the outputs depend on the node order (recorded in ``config.json``; every report
    marks the run's rows)."""
    import networkx as nx

    from wltools.counting.data import load_graphs

    from ..models.contract import probe_invariance
    from ..models.encoding_cache import encoded_graphs

    G = load_graphs()[0]
    rng = np.random.default_rng(0)
    copies = [G] + [nx.relabel_nodes(G, dict(zip(G, rng.permutation(G.number_of_nodes()).tolist())))
                    for _ in range(3)]
    copies = [nx.convert_node_labels_to_integers(H, ordering="sorted") for H in copies]
    try:
        probe = probe_invariance(source, encoded_graphs(copies, source.transform, source.transform_key), seed, 0,
                                 device)
    except Exception as exc:  # noqa: BLE001 - a user's model: one line
        raise ModelContractError(f"model {source.name}: forward(batch) failed on relabelled copies of benchmark "
                                 f"graph 0 (the invariance probe): {type(exc).__name__}: "
                                 f"{(str(exc).splitlines() or [''])[0][:200]}") from None
    result = {**probe, "graph": 0}
    if not result["invariant"] and not quiet:
        print(f"wltools: warning: model {source.name} is not permutation invariant: its outputs on "
              f"{result['copies']} relabelled copies of benchmark graph 0 differ by up to {result['max_abs_diff']:.3g} "
              f"(eval mode, before training); its errors are no evidence of what its class counts "
              f"(recorded in {Path(out) / 'config.json'}, marked in every report)", file=sys.stderr, flush=True)
    return result


def _refuse_graph_wide(source: ModelSource, levels: Sequence[str]) -> None:
    """Refuse node and edge levels of a :data:`~brec_runner.counting.train.GRAPH_WIDE` built-in without
    ``node_embeddings`` (one line), before any graph is encoded."""
    if source.kind != "built-in" or source.name not in GRAPH_WIDE or all(lv == "graph" for lv in levels):
        return
    from wltools.models import registry

    if not callable(getattr(registry.create_model(source.name, source.preset or "brec", **source.options),
                            "node_embeddings", None)):
        raise ModelContractError(f"model {source.name}: its layers attend within each graph through the batch "
                                 "vector, so it has no per-node readout; node and edge levels need "
                                 "node_embeddings(batch) -> [num_nodes, d]")


def _config(source: ModelSource, protocol: CountProtocol, tasks, levels, seeds, device: str) -> dict[str, Any]:
    import dataclasses

    import torch

    from wltools.runtime.provenance import environment

    cfg = source.config_entries()
    if source.kind == "built-in":
        from wltools.models import registry

        mcfg = registry.model_config(source.name, source.preset, **source.options)
        cfg["model_config"] = dataclasses.asdict(mcfg) if dataclasses.is_dataclass(mcfg) else repr(mcfg)
    return {**cfg, "protocol": protocol.to_dict(), "device_type": torch.device(device).type, "device": device,
            "dataset": dataset_digest(), FORMAT_KEY: FORMAT, "tasks": list(tasks), "levels": list(levels), "seeds": list(seeds),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "environment": environment(device)}


def _one(source, data, level, protocol, seed, device, bar, checkpoint=None) -> dict[str, Any]:
    from ..runs.rpc import fresh_model, fresh_parameters

    model = fresh_model(source.factory, source.options, seed, 0, device)
    fresh_parameters(model, seed, 0)
    on_epoch = None
    if bar is not None:
        def on_epoch(epoch: int, val: float) -> None:
            bar.set_postfix(epoch=epoch, val=f"{val:.4f}")
    return train_unit(model, data, level, protocol, seed, device, on_epoch, checkpoint=checkpoint)


def _failure(task, level, seed, exc) -> dict[str, Any]:
    import traceback

    tb = traceback.extract_tb(exc.__traceback__)
    where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
    first = (str(exc).splitlines() or [""])[0][:300]
    return {"task": task, "level": level, "seed": seed, "error": f"{type(exc).__name__}: {first}", "where": where}


def run_count(model, tasks: Sequence[str], levels: Sequence[str], seeds: Sequence[int], out, *,
              preset=None, bound=None, transform=None, options=None, protocol=None, device="cpu",
              progress=True, quiet=False, threads: int | None = 1, max_failures: int = MAX_FAILURES,
              allow_code_change=False) -> Path:
    """Train ``model`` on every (task, level, seed) not yet in the run directory ``out``; return it."""
    from wltools.counting.tasks import LEVELS, parse_task

    from ..runs.evaluate import torch_threads

    tasks = [parse_task(t).name for t in tasks]
    bad = [lv for lv in levels if lv not in LEVELS]
    if bad or not levels or not tasks or not seeds:
        raise WLToolsError(f"need tasks, seeds and levels among {', '.join(LEVELS)} (got levels {list(levels)})")
    _refuse_repeats(tasks, levels, seeds)
    _refuse_missing_device(device)
    for t in tasks:  # refuse an unavailable task before any work (the pattern's check before its targets)
        from wltools.counting.data import targets

        if "edge" in levels and parse_task(t).edge_targets_ordered():
            raise WLToolsError(f"{t} at edge level has ordered targets (roots 0 -> u, 1 -> v differ from 0 -> v, "
                               "1 -> u), which the symmetric edge head cannot learn; train it at graph or node level")
        targets(t, "graph", [0])
    protocol = protocol if isinstance(protocol, CountProtocol) else count_protocol(protocol)
    source = resolve_model(model, preset=preset, options=options, bound=bound, transform=transform)
    _refuse_graph_wide(source, levels)
    with torch_threads(threads):
        graphs = _encoded(source, protocol.limit)
        check_levels(source, levels, graphs, device)
        invariance = _probe_invariance(source, seeds[0], device, out, quiet)
        units = [(t, lv, s) for t in tasks for lv in levels for s in seeds]
        config = {**_config(source, protocol, tasks, levels, seeds, device), "invariance": invariance}
        with CountRun(out, config, count_code_version(source),
                      allow_code_change) as run:
            _train_all(run, source, [u for u in units if u not in run.done], graphs, protocol, device,
                       progress and sys.stderr.isatty(), quiet, max_failures)
    return Path(out)


def _train_all(run, source, todo, graphs, protocol, device, bar_on, quiet, max_failures) -> None:
    from wltools.runtime.progress import progress_bar

    from ..runs.rpc import is_model_failure
    from .checkpoint import UnitCheckpoint

    bar = progress_bar(total=len(todo), unit="unit", desc=f"count {source.name}") if bar_on and todo else None
    failures, cache = [], {}
    try:
        for task, level, seed in todo:
            if (task, level) not in cache:
                cache = {(task, level): unit_data(task, level, graphs, protocol.limit)}
            data, std = cache[(task, level)]
            checkpoint = UnitCheckpoint(run.path, task, level, seed, f"{run.code}|{run.config['settings_hash']}")
            try:
                body = _one(source, data, level, protocol, seed, device, bar, checkpoint)
            except Exception as exc:  # noqa: BLE001 - classified below
                if not is_model_failure(exc):
                    raise
                entry = run.append_failure(_failure(task, level, seed, exc))
                checkpoint.clear()  # a retry starts the unit afresh
                failures.append(entry)
                print(f"wltools: {task} {level} seed {seed} failed: {entry['error']}", file=sys.stderr)
                if len(failures) > max_failures:
                    raise WLToolsError(f"stopped after {len(failures)} failed units (more than --max-failures "
                                       f"{max_failures}); see {run.path / 'failures.jsonl'}") from None
                continue
            pred = body.pop("test_pred")
            rec = run.append({"task": task, "level": level, "seed": seed, "std": std,
                              "test_mae": body["test_nmae"] * std, **body}, pred)
            checkpoint.clear()  # the record holds the unit now
            if bar is not None:
                bar.update(1)
            elif not quiet:
                print(f"wltools: {task} {level} seed {seed}: test normalised MAE {rec['test_nmae']:.4f} "
                      f"(epoch {rec['best_epoch']} of {rec['epochs_run']}, {rec['wall_s']:.0f} s)", file=sys.stderr)
    finally:
        if bar is not None:
            bar.close()
