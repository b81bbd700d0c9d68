"""``evaluate``: a model on BREC pairs with the RPC protocol, into a resumable run directory.

The driver of a run: it resolves the model (:mod:`brec_runner.models.source`), checks the model
contract (:mod:`brec_runner.models.contract`) before anything is written, plans the remaining units
(:mod:`brec_runner.runs.plan`), hands them to an executor (:mod:`brec_runner.runs.execute`) and records every
outcome as it arrives (:mod:`brec_runner.records.record`, the only writer of run files). ``wltools brec run``
is a thin layer over it; the five built-in models and a researcher's own model take the same path.

**A failing model is an outcome, not a crash.** A unit whose model (factory, transform, forward or
backward) raises is caught by the executor (:func:`brec_runner.runs.rpc.is_model_failure`), appended to
the run directory's ``failures.jsonl`` (pair, seed, exception type and message, stage, last
traceback frame), shown as one line on stderr, and the run goes on. More than ``max_failures``
(default :data:`MAX_FAILURES`) failed units in one invocation stop it with :class:`TooManyFailures`
(the CLI: one line, exit 2). Finished units are kept either way, and a resume runs the failed
units again. Interrupts and memory errors are not model failures: they stop the run as before.
The report (:mod:`brec_runner.reports.report`) lists the failed units and marks the run unfinished.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import time
from pathlib import Path
from typing import Any, Callable

from wltools.errors import RunDirectoryError, WLToolsError

from ..models.source import ModelSource, resolve_model
from ..records.identity import code_version
from .protocol import Protocol
from .settings import DEFAULT_CATEGORIES, MAX_FAILURES, RunSettings, _Default

__all__ = ["evaluate", "run", "RunSettings", "TooManyFailures", "MAX_FAILURES"]



class TooManyFailures(WLToolsError):
    """More than ``max_failures`` units of one invocation failed (their model raised); the run
    stopped. ``failures`` holds the :class:`~brec_runner.runs.rpc.UnitFailure` s (recorded in the run
    directory's ``failures.jsonl``)."""

    def __init__(self, failures: list, max_failures: int, run_dir) -> None:
        self.failures = list(failures)
        last = failures[-1]
        super().__init__(f"stopped after {len(failures)} failed units (more than --max-failures {max_failures}); "
                         f"last: {last.line()}; finished units are kept and the failures are listed in "
                         f"{Path(run_dir) / 'failures.jsonl'}; fix the model and run the same command again "
                         "to retry them")


@contextlib.contextmanager
def torch_threads(threads: int | None):
    """Run a block with torch's intra-op thread count set to ``threads`` (None: as it is), then put
    the caller's count back. The count decides how float sums are split between threads, so it
    changes the low bits of every trained value (docs/reliability.md, "What reproduces where"); a
    run in this process must not leave it changed for whatever the caller computes next.
    """
    import torch

    before = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(int(threads))
    try:
        yield
    finally:
        if torch.get_num_threads() != before:
            torch.set_num_threads(before)


def _protocol(base: Protocol, protocol) -> Protocol:
    """``protocol`` (a Protocol, used as given) or ``base`` with a dict of overrides applied."""
    if protocol is None:
        return base
    if isinstance(protocol, Protocol):
        return protocol
    if isinstance(protocol, dict):
        unknown = sorted(set(protocol) - set(Protocol.field_names()))
        if unknown:
            raise WLToolsError(f"unknown protocol field(s) {', '.join(unknown)}; "
                               f"the fields are {', '.join(Protocol.field_names())}")
        try:
            return base.replace(**protocol)
        except ValueError as exc:
            raise WLToolsError(f"bad protocol: {exc}") from None
    raise WLToolsError(f"protocol must be a brec_runner.runs.protocol.Protocol or a dict, got {type(protocol).__name__}")


def _size(pair) -> tuple[int, int]:
    """(nodes, edges) of a pair's larger graph: the order in which pairs are "large"."""
    return (max(pair.g.number_of_nodes(), pair.h.number_of_nodes()),
            max(pair.g.number_of_edges(), pair.h.number_of_edges()))


def _largest_batch(pair, protocol: Protocol, source: ModelSource, eval_batch_size: int | None) -> list:
    """Encoded relabelled copies of ``pair`` (the run's own, in its order), as many as the run's
    largest batch holds (all 2q in the test unless ``eval_batch_size``; training: ``batch_size``)."""
    from ..models.encoding_cache import encoded_graphs
    from . import dataset

    copies = dataset.relabelings(pair, protocol.relabel_seed, protocol.num_relabelings)
    n = min(len(copies), max(protocol.batch_size, eval_batch_size or len(copies)))
    return encoded_graphs(copies[:n], source.transform, source.transform_key)


def _sample_graphs(pair, protocol: Protocol, source: ModelSource) -> tuple[list, list]:
    """Encoded graphs of ``pair`` for the contract check: G and H as given, and four copies of G
    (as given, then three of the protocol's relabelings) for the invariance probe."""
    from ..models.encoding_cache import encoded_graphs
    from . import dataset

    copies = dataset.relabelings(pair, protocol.relabel_seed, protocol.num_relabelings)[0:8:2]
    return (encoded_graphs([pair.g, pair.h], source.transform, source.transform_key),
            encoded_graphs(copies, source.transform, source.transform_key))


def _config(source: ModelSource, protocol: Protocol, seeds, ids, device: str, invariance: dict,
            suite: str | None = None) -> dict[str, Any]:
    from wltools.runtime.provenance import environment

    from ..configs import model_info

    import torch

    built_in = source.kind == "built-in"
    cfg = source.config_entries()
    if built_in:
        from wltools.models import registry

        mcfg = registry.model_config(source.name, source.preset, **source.options)
        cfg["model_config"] = dataclasses.asdict(mcfg) if dataclasses.is_dataclass(mcfg) else repr(mcfg)
    from .dataset import RELABEL_RULE, dataset_digest, suite_digest

    data = {"dataset": dataset_digest()} if suite is None else {"dataset": suite_digest(suite), "suite": suite}
    return {**cfg, "protocol": protocol.to_dict(), "device_type": torch.device(device).type, "device": device,
            **data, "relabel_rule": RELABEL_RULE,
            "seeds": list(seeds), "pairs": sorted(ids), "invariance": invariance,
            "theory": model_info(source.name) if built_in else {"theory": {}, "published": None},
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "environment": environment(device)}


def default_selection(categories, pairs):
    """The categories a selection filters by: ``categories`` as given, except that the default
    (left out) filters nothing once ``pairs`` is given, so ``pairs="60-61"`` alone selects pairs 60
    and 61, as ``wltools brec run --pairs 60-61`` does.

    Examples
    --------
    >>> default_selection(DEFAULT_CATEGORIES, None), default_selection(DEFAULT_CATEGORIES, "60-61")
    ('basic', None)
    >>> default_selection(("basic",), "60-61"), default_selection(None, None)
    (('basic',), None)
    """
    if categories is DEFAULT_CATEGORIES and pairs is not None:
        return None
    return str(categories) if isinstance(categories, _Default) else categories


def _check_limits(workers: int, stop_after, max_failures) -> None:
    """Refuse option combinations :func:`run` cannot honour, before any work."""
    if workers > 1 and stop_after is not None:
        raise ValueError("stop_after works in one process only (workers=1)")
    if max_failures is not None and (isinstance(max_failures, bool) or not isinstance(max_failures, int)
                                     or max_failures < 0):
        raise WLToolsError(f"max_failures must be an integer >= 0 or None, got {max_failures!r}")


def _select(suite: str | None, categories, pairs) -> tuple[str | None, list]:
    """``(suite name, selected pairs)``: BREC's by categories and ids, or a suite's by ids."""
    from . import dataset

    if suite is None:
        selected = dataset.load_pairs(categories=default_selection(categories, pairs), ids=pairs)
    else:
        from wltools.suites import get_suite, parse_pair_ids

        suite = get_suite(suite).name
        selected = dataset.pairs_of(suite, parse_pair_ids(suite, pairs) if isinstance(pairs, str) else pairs)
    if not selected:
        raise WLToolsError("no pair selected")
    return suite, selected


def _check_contract(source: ModelSource, selected: list, protocol: Protocol, seed: int, device: str,
                    eval_batch_size) -> tuple[Protocol, dict]:
    """The model contract on the first and on the largest selected pair, and the invariance probe;
    returns the protocol with ``out_dim`` set to the model's real output width (the T² threshold
    follows the real (q, d, alpha)) and the probe's record."""
    from ..models.contract import check_model, probe_invariance

    pair_graphs, copies = _sample_graphs(selected[0], protocol, source)
    d = check_model(source, pair_graphs, protocol.num_relabelings, device)
    largest = max(selected, key=_size)  # a model that fails on large graphs: refused here, naming the pair
    check_model(source, _largest_batch(largest, protocol, source, eval_batch_size), protocol.num_relabelings, device,
                where=f" of pair {largest.id} (the largest selected pair, {_size(largest)[0]} nodes)")
    if d != protocol.out_dim:
        protocol = protocol.replace(out_dim=d)
    invariance = {**probe_invariance(source, copies, seed, selected[0].id, device), "pair": selected[0].id}
    return protocol, invariance


def _warn_not_invariant(source: ModelSource, invariance: dict, out: Path) -> None:
    """One warning line on stderr, before any training, when the invariance probe found the model's
    outputs depending on the node order (the probe is recorded in ``config.json`` and the report
    says it again; a warning, not a refusal: positional models such as LapPE are legitimate)."""
    if invariance.get("invariant", True):
        return
    print(f"wltools: warning: model {source.name} is not permutation invariant: its outputs on "
          f"{invariance['copies']} relabelled copies of pair {invariance.get('pair')}'s G differ by up to "
          f"{invariance['max_abs_diff']:.3g} (eval mode, before training); separations beyond its bound are no "
          f"evidence of expressive power (recorded in {out / 'config.json'})", file=sys.stderr, flush=True)


def run(model, settings: RunSettings | None = None, /, *, stop_after: int | None = None,
        on_outcome: Callable[[dict], None] | None = None, **fields: Any) -> Path:
    """Run the units of :func:`evaluate` and return the run directory (no report).

    ``settings``: a :class:`~brec_runner.runs.settings.RunSettings` (default: its defaults), with any
    of its fields overridden by keyword (``run(model, pairs="0-1", out="runs/x")``). ``max_failures``:
    failed units (the model raised) this call tolerates, recorded in ``failures.jsonl``; one more
    raises :class:`TooManyFailures`. ``stop_after`` stops after that many new units (an
    interruption, for tests and probes); ``on_outcome`` is called with each record after it is
    written.
    """
    import torch

    from ..records.record import RunDirectory
    from .execute import RunSpec
    from .plan import shard_ids

    rs = RunSettings.of(settings, **fields)
    _check_limits(rs.workers, stop_after, rs.max_failures)
    runner = _executor(rs.executor, rs.workers, rs.address, rs.gpus_per_unit, rs.cpus_per_unit)  # a bad choice or no ray: before any work
    source = model if isinstance(model, ModelSource) else resolve_model(
        model, preset=rs.preset, options=rs.options, bound=rs.bound, transform=rs.transform)
    protocol = _protocol(source.protocol, rs.protocol)
    if str(rs.device).startswith("cuda") and not torch.cuda.is_available():
        raise RunDirectoryError("device cuda requested but torch sees no CUDA device")
    seeds = [int(s) for s in rs.seeds]
    if not seeds or len(set(seeds)) != len(seeds):
        raise WLToolsError(f"seeds must be distinct integers, got {seeds}")
    suite, selected = _select(rs.suite, rs.categories, rs.pairs)
    with torch_threads(rs.threads):  # restored on return: a later computation's summation order depends on it
        protocol, invariance = _check_contract(source, selected, protocol, seeds[0], rs.device, rs.eval_batch_size)

        ids = [p.id for p in selected]
        out = Path(rs.out) if rs.out is not None else Path("runs") / f"{suite or 'brec'}-{_slug(source.name)}-{source.preset or 'run'}"
        _warn_not_invariant(source, invariance, out)
        config = {**_config(source, protocol, seeds, ids, rs.device, invariance, suite),
                  "eval_batch_size": rs.eval_batch_size}  # recorded, not compared: float summation order only
        with RunDirectory(out, config, rs.shard,
                          code=code_version(source)["version"], allow_code_change=rs.allow_code_change) as rd:
            spec = RunSpec(source=source, protocol=protocol, device=rs.device, eval_batch_size=rs.eval_batch_size,
                           multi_pair=rs.multi_pair, threads=rs.threads, suite=suite)
            label = " ray" if rs.executor == "ray" else f" x{rs.workers}" if rs.workers > 1 else ""
            executor_name = rs.executor if isinstance(rs.executor, str) else "custom"
            try:
                _execute(rd, runner, spec, shard_ids(ids, rs.shard), seeds, rs.progress, label, stop_after, on_outcome,
                         rs.max_failures, executor_name)
            except WLToolsError as exc:
                if not isinstance(exc, TooManyFailures):  # those are recorded already
                    for failure in getattr(exc, "failures", None) or []:  # execute_ray.UnitsFailed: never dropped
                        rd.append_failure({**failure, "executor": executor_name})
                raise
    return out


def _execute(rd, runner, spec, ids, seeds, progress: bool, label: str, stop_after, on_outcome,
             max_failures: int | None = MAX_FAILURES, executor_name: str = "local") -> None:
    """Plan the units left in ``rd``, run them on ``runner`` and record each outcome as it arrives:
    a result in the results file, a failed unit in ``failures.jsonl`` and as one line on stderr."""
    from wltools.runtime.progress import progress_bar

    from .plan import plan_units
    from .rpc import UnitFailure, is_model_failure

    todo = plan_units(ids, seeds, rd.done, limit=stop_after)
    if not todo:
        return
    if spec.multi_pair == "auto":
        import dataclasses

        from .probe import choose_multi_pair

        held = rd.multi_pair_choice()
        if held is None:
            try:
                group, info = choose_multi_pair(spec, todo, quiet=not progress)
            except Exception as exc:  # noqa: BLE001 - the model failed on the probe's pair: no decision
                if not is_model_failure(exc):
                    raise
                print(f"wltools: --multi-pair auto: the probe's model failed on pair {todo[0][0]} "
                      f"({type(exc).__name__}); using the loop, which records each unit's failure", file=sys.stderr)
                group, info = None, {}
            if "loop_s" in info:  # a timed decision: recorded, so every resume trains the same way
                held = rd.record_multi_pair_choice(group, info)
            else:
                held = {"group": group}
        elif progress:
            print(f"wltools: --multi-pair auto: keeping this run's recorded choice "
                  f"({'multipair:' + str(held['group']) if held['group'] else 'loop'})", file=sys.stderr)
        spec = dataclasses.replace(spec, multi_pair=held["group"], one_pair_groups=True)
    source = spec.source
    counts = {"distinguished": sum(r["distinguished"] for r in rd.records),
              "reliability_failures": sum(not r["reliable"] for r in rd.records)}
    desc = (source.name if source.preset is None else f"{source.name}/{source.preset}") + label
    bar = progress_bar(total=len(todo), enabled=progress, unit="unit", desc=desc)
    failures: list = []
    outcomes = runner.run(spec, todo)
    try:
        for outcome in outcomes:
            if isinstance(outcome, UnitFailure):
                rd.append_failure({**outcome.record(), "executor": executor_name})
                failures.append(outcome)
                counts["failed"] = len(failures)
                bar.set_postfix(counts)
                bar.update(1)
                bar.write(f"wltools: {outcome.line()}")
                if max_failures is not None and len(failures) > max_failures:
                    raise TooManyFailures(failures, max_failures, rd.path)
                continue
            record = outcome.to_dict()
            rd.append(record)
            counts["distinguished"] += record["distinguished"]
            counts["reliability_failures"] += not record["reliable"]
            bar.set_postfix(counts)
            bar.update(1)
            if on_outcome is not None:
                on_outcome(record)
    finally:
        bar.close()
        close = getattr(outcomes, "close", None)
        if close is not None:  # stops workers / cancels Ray tasks when the loop ends early
            close()
    if failures:
        print(f"wltools: {len(failures)} unit(s) failed, listed in {rd.path / 'failures.jsonl'} and in the "
              "report; run the same command again to retry them", file=sys.stderr)


def _executor(executor, workers: int, address, gpus_per_unit, cpus_per_unit):
    """The executor of a run: ``"local"`` (in process, or ``workers`` local processes), ``"ray"``
    (:class:`~brec_runner.runs.execute_ray.RayExecutor`; needs the ``ray`` extra), or an object with
    the executor method ``run(spec, units)``."""
    from .execute import InProcess, LocalWorkers

    if executor == "ray":
        from .execute_ray import RayExecutor, import_ray

        import_ray()
        if workers > 1:
            raise WLToolsError("workers is for the local executor; with executor='ray' give cpus_per_unit "
                               "(--cpus-per-unit) and the cluster's size")
        return RayExecutor(address=address, gpus_per_unit=gpus_per_unit, cpus_per_unit=cpus_per_unit)
    if address is not None or gpus_per_unit or cpus_per_unit is not None:
        raise WLToolsError("address, gpus_per_unit and cpus_per_unit need executor='ray' (--executor ray)")
    if executor == "local":
        return LocalWorkers(workers) if workers > 1 else InProcess()
    if callable(getattr(executor, "run", None)):
        return executor
    raise WLToolsError(f"executor must be 'local' or 'ray', got {executor!r}")


def _slug(name: str) -> str:
    import re

    return re.sub(r"[^0-9A-Za-z_.-]+", "-", name).strip("-") or "model"


def evaluate(model, settings: RunSettings | None = None, /, *, theory: bool = True, **fields: Any):
    """Evaluate ``model`` on BREC pairs with the RPC protocol; return its :class:`~brec_runner.reports.report.Report`.

    Parameters
    ----------
    model : str, callable or nn.Module subclass
        A registered name (``"ppgt"``; a plugin's name), ``"MODULE:ATTR"``, ``"PATH.py:ATTR"``, or
        a factory: ``factory(**options)`` returns a ``torch.nn.Module`` whose ``forward(batch)``
        maps a PyG ``Batch`` to a float tensor ``[batch.num_graphs, d]`` (``docs/your-model.md``).
        Each (pair, seed) unit gets a fresh model from the factory under the unit's seed.
    settings : RunSettings or None
        The run's settings (:class:`~brec_runner.runs.settings.RunSettings`: bound, transform,
        selection, seeds, protocol, run directory, device, workers, executor, ...); default: its
        defaults (the Basic pairs, seed 0, BREC's protocol).
    theory : bool
        Compute the theoretical verdicts for the report (cached).
    **fields
        Any field of :class:`~brec_runner.runs.settings.RunSettings`, overriding ``settings``
        (``evaluate(gin, bound="1wl", out="runs/gin")``).

    Returns
    -------
    brec_runner.reports.report.Report

    Examples
    --------
    A GIN with constant inputs is bounded by 1-WL, and BREC's pairs are 1-WL-equivalent:

    >>> import torch
    >>> from torch_geometric.nn import GINConv, global_add_pool
    >>> class GIN(torch.nn.Module):
    ...     wl_bound = "1wl"
    ...     def __init__(self, hidden=16, out_dim=4):
    ...         super().__init__()
    ...         self.conv = GINConv(torch.nn.Linear(1, hidden))
    ...         self.head = torch.nn.Linear(hidden, out_dim)
    ...     def forward(self, batch):
    ...         x = torch.ones(batch.num_nodes, 1)
    ...         return self.head(global_add_pool(self.conv(x, batch.edge_index), batch.batch))
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     report = evaluate(GIN, pairs="0-1", protocol={"epochs": 2}, out=tmp + "/gin", progress=False,
    ...                       theory=False)
    >>> report.realised("total"), report.reliability_failures("total")
    (0, 0)
    """
    from ..reports.report import Report

    out = run(model, RunSettings.of(settings, **fields))
    return Report.from_run_dirs([out], theory=theory)
