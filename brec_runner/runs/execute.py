"""Executing units: turning (pair, seed) units into :class:`~brec_runner.runs.rpc.PairOutcome` s.

An executor has one method, ``run(spec, units)``, an iterator of outcomes in completion order. It
never writes files: the driver (:func:`brec_runner.evaluate`) records each outcome as it arrives
(:mod:`brec_runner.records.record`), so an executor that dies loses no finished unit.

An outcome is a :class:`~brec_runner.runs.rpc.PairOutcome` (a result) or a
:class:`~brec_runner.runs.rpc.UnitFailure`: a unit whose model, factory or transform raised
(:func:`brec_runner.runs.rpc.is_model_failure`) is caught here, on the unit, and handed back like a
result, so one unit's failure never stops the others; the driver records it in ``failures.jsonl``
and decides when there are too many (``max_failures``). Interrupts, ``MemoryError`` and wltools'
own errors are not caught.

- :class:`InProcess` runs the units in this process (the one-pair loop, or ``--multi-pair G``
  windows of :func:`brec_runner.runs.plan.multi_pair_windows` trained at once by
  :mod:`brec_runner.runs.multipair`);
- :class:`LocalWorkers` runs slices of them (:func:`brec_runner.runs.plan.split_units`) in W fresh
  processes, each an :class:`InProcess`, which send their outcomes back through a queue. On Linux
  they are forked from multiprocessing's fork server, which imports torch and PyG once for all the
  runs of this Python process (:func:`worker_context`); elsewhere they are ``spawn``-ed.

Each unit builds its model from the factory under the unit's seed (:func:`brec_runner.runs.rpc.fresh_model`),
so outcomes do not depend on the executor, the split or the order (tested).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import queue as queue_mod
import sys
import traceback
import warnings
from dataclasses import dataclass
from typing import Iterator, Sequence

from wltools.errors import WLToolsError

from ..models.source import ModelSource
from .plan import Unit, multi_pair_windows, split_units
from .protocol import Protocol

__all__ = ["RunSpec", "InProcess", "LocalWorkers", "prepare_pair", "worker_context"]

_POLL_S = 0.5

#: What the fork server imports before it forks any worker: the imports that cost a worker's start
#: (about 6 s of CPU: torch, and PyG, which imports torch._dynamo). Third-party only: brec_runner's
#: and the model's own code is imported in each worker, as a spawned worker would.
_PRELOAD = ("torch", "torch_geometric")


@dataclass
class RunSpec:
    """Everything a process needs to execute units of a run (picklable, sent to workers)."""

    source: ModelSource
    protocol: Protocol
    device: str = "cpu"
    eval_batch_size: int | None = None
    multi_pair: int | None = None
    threads: int | None = 1
    suite: str | None = None  # pairs of a wltools.suites suite instead of BREC's
    one_pair_groups: bool = False  # multi-pair windows hold seeds of one pair only (--multi-pair auto)


def prepare_pair(pair, protocol: Protocol, transform, transform_key) -> tuple[list, list]:
    """Encoded interleaved relabelings and reliability set of one pair.

    Encodings come from :func:`brec_runner.models.encoding_cache.encoded_graphs`, cached on disk per
    graph under the setting ``transform_key``, so each graph and setting is encoded once across
    pairs, seeds and runs.
    """
    from ..models.encoding_cache import encoded_graphs
    from . import dataset

    graphs = dataset.relabelings(pair, protocol.relabel_seed, protocol.num_relabelings)
    rel = dataset.reliability_set(pair, protocol.relabel_seed, protocol.reliability_size)
    return (encoded_graphs(graphs, transform, transform_key),
            encoded_graphs(rel, transform, transform_key))


class InProcess:
    """Run units in this process (module docstring).

    Holds what it learned about the model across calls: whether it runs under ``torch.func.vmap``
    (the multi-pair mode), so a model that cannot is tried once only.
    """

    def __init__(self) -> None:
        self.vmap_failures: dict[str, str] = {}

    def run(self, spec: RunSpec, units: Sequence[Unit]) -> Iterator:
        import torch

        from . import dataset

        if spec.threads is not None:
            torch.set_num_threads(int(spec.threads))
        if not units:
            return
        by_id = {p.id: p for p in dataset.pairs_of(spec.suite, sorted({int(pid) for pid, _ in units}))}
        cache: dict[int, tuple] = {}

        def data_of(pid: int) -> tuple:
            # encodings of the pairs in hand only: a CFI pair with dense pair encodings is large
            if pid not in cache:
                cache[pid] = prepare_pair(by_id[pid], spec.protocol, spec.source.transform,
                                          spec.source.transform_key)
            return cache[pid]

        def labelled(outcome):
            pair = by_id[outcome.id]
            outcome.category, outcome.subcategory = pair.category, pair.subcategory
            return outcome

        if spec.multi_pair and spec.multi_pair > 1:
            groups = self._multi_pair(spec, units, by_id, data_of, cache)
        else:
            groups = self._one_pair(spec, units, data_of, cache)
        for outcome in groups:
            yield labelled(outcome)

    @staticmethod
    def _one_pair(spec: RunSpec, units, data_of, cache) -> Iterator:
        """Each unit in turn: its outcome, or its :class:`~brec_runner.runs.rpc.UnitFailure`."""
        from .rpc import UnitFailure, evaluate_pair, fresh_model, is_model_failure

        src = spec.source
        for pid, seed in units:
            stage = "encode"
            try:
                graphs, rel = data_of(pid)
                stage = "build"
                net = fresh_model(src.factory, src.options, seed, pid, spec.device)
                stage = "train"
                outcome = evaluate_pair(net, pid, graphs, rel, spec.protocol, seed, spec.device,
                                        spec.eval_batch_size)
            except Exception as exc:  # noqa: BLE001 - a model failure is this unit's outcome
                if not is_model_failure(exc):
                    raise
                outcome = UnitFailure.of(pid, seed, exc, stage)
            yield outcome
            while len(cache) > 1:
                cache.pop(next(iter(cache)))

    def _multi_pair(self, spec: RunSpec, units, by_id, data_of, cache) -> Iterator:
        from .multipair import evaluate_units
        from .rpc import UnitFailure, fresh_model, is_model_failure

        first_pid, first_seed = units[0]
        try:
            template = fresh_model(spec.source.factory, spec.source.options, first_seed, first_pid, spec.device)
        except Exception as exc:  # noqa: BLE001 - the loop builds a model per unit and records failures
            if not is_model_failure(exc):
                raise
            yield from self._one_pair(spec, units, data_of, cache)
            return
        if not callable(getattr(template, "reset_parameters", None)):
            warnings.warn(f"multi-pair mode: model {spec.source.name} has no reset_parameters(); "
                          "using the one-pair loop", RuntimeWarning, stacklevel=2)
            yield from self._one_pair(spec, units, data_of, cache)
            return

        def size(pid: int):
            if spec.one_pair_groups:
                return (pid,)
            return tuple(by_id[pid].meta.get("n", ())), tuple(by_id[pid].meta.get("m", ()))

        windows = multi_pair_windows(units, spec.multi_pair, size)
        for w, window in enumerate(windows):
            batch = []
            for pid, s in window:
                try:
                    batch.append((pid, s, *data_of(pid)))
                except Exception as exc:  # noqa: BLE001 - the model's transform failed on this pair
                    if not is_model_failure(exc):
                        raise
                    yield UnitFailure.of(pid, s, exc, "encode")
            yield from evaluate_units(template, batch, spec.protocol, spec.device, group_size=spec.multi_pair,
                                      eval_batch_size=spec.eval_batch_size, failures=self.vmap_failures)
            keep = {pid for pid, _ in windows[w + 1]} if w + 1 < len(windows) else set()
            for pid in [p for p in cache if p not in keep]:
                del cache[pid]


def worker_context(device: str = "cpu"):
    """The multiprocessing context of :class:`LocalWorkers`: on Linux the fork server with
    ``_PRELOAD`` imported once, so W workers, and every later run of this process, start without
    importing torch again (a ``spawn``-ed worker pays it each time: W x 6 s of CPU per run); ``spawn``
    elsewhere (no fork server on Windows, and forking is unsafe on macOS), and for a CUDA ``device``:
    CUDA cannot be used in a process forked from one where it was initialised, and importing PyG
    on a CUDA build initialises it (seen on an H200: every forked worker's first CUDA call failed
    with "CUDA error: initialization error").

    A forked worker starts from the fork server's state, not the driver's: it gets the driver's
    ``sys.path``, working directory and main module as a spawned one does, and its environment from
    :func:`_worker_main`; the fork server has only imported modules, computed nothing (no torch
    thread pool, no random draw). The preload is multiprocessing's setting for this process's one
    fork server, and takes effect when it starts (the first run with workers).
    """
    if (sys.platform.startswith("linux") and "forkserver" in mp.get_all_start_methods()
            and not str(device).startswith("cuda")):
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(list(_PRELOAD))
        return ctx
    return mp.get_context("spawn")


def _worker_main(spec_bytes: bytes, units: Sequence[Unit], out_queue, index: int, environ: dict) -> None:
    """One worker process: send ``("outcome", dict)`` or ``("failure", dict)`` (a unit whose model
    raised) per unit, then ``("done", index)``; on any other error ``("error", index, one line)``.
    Runs under ``environ``, the driver's environment when it started the worker (a forked worker
    inherits the fork server's, which may be older), set before the pickled :class:`RunSpec` is
    loaded (which imports the model's code); stops when the driver is gone."""
    from .rpc import UnitFailure

    if os.environ != environ:
        os.environ.clear()
        os.environ.update(environ)
    driver = mp.parent_process()  # the driver, for a forked worker too (not the fork server)
    try:
        spec = pickle.loads(spec_bytes)
        for outcome in InProcess().run(spec, units):
            if driver is not None and not driver.is_alive():
                raise SystemExit(0)  # orphaned: the driver that would record this is gone
            out_queue.put(("failure" if isinstance(outcome, UnitFailure) else "outcome", outcome.to_dict()))
        out_queue.put(("done", index))
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group: the driver reports it
        raise SystemExit(130) from None
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - reported to the driver, which raises
        if not isinstance(exc, WLToolsError):  # a person's error is one line; a bug keeps its trace
            traceback.print_exc()
        out_queue.put(("error", index, f"{type(exc).__name__}: {exc}".splitlines()[0][:500]))
        raise SystemExit(1) from None


class LocalWorkers:
    """Run units in ``workers`` local processes (module docstring, :func:`worker_context`).

    A unit whose model raises comes back as a :class:`~brec_runner.runs.rpc.UnitFailure` and the worker
    goes on. A worker that fails otherwise makes :meth:`run` stop the others and raise :class:`WLToolsError` naming the
    worker and its one-line error; outcomes received before that have been yielded (and recorded).
    """

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers

    def run(self, spec: RunSpec, units: Sequence[Unit]) -> Iterator:
        from .rpc import PairOutcome, UnitFailure

        slices = split_units(units, self.workers, spec.multi_pair or 1)
        if not slices:
            return
        try:
            spec_bytes = pickle.dumps(spec)
        except Exception as exc:  # noqa: BLE001 - any pickling failure: the factory is not importable
            raise WLToolsError(f"model {spec.source.name}: --workers needs a factory and transform that worker "
                               f"processes can import by name ({type(exc).__name__}: "
                               f"{(str(exc).splitlines() or [''])[0][:200]}); use workers=1 or a module attribute") from None
        ctx = worker_context(spec.device)
        out_queue = ctx.Queue()
        procs = [ctx.Process(target=_worker_main, name=f"brec-worker-{j + 1}-of-{len(slices)}",
                             args=(spec_bytes, part, out_queue, j + 1, dict(os.environ)), daemon=True)
                 for j, part in enumerate(slices)]
        finished: set[int] = set()
        try:
            for proc in procs:
                proc.start()
            while len(finished) < len(procs):
                try:
                    msg = out_queue.get(timeout=_POLL_S)
                except queue_mod.Empty:
                    for j, proc in enumerate(procs, start=1):
                        if j not in finished and proc.exitcode not in (None, 0):
                            raise WLToolsError(self._failed(j, len(procs), f"exited with code {proc.exitcode}"))
                    continue
                if msg[0] == "outcome":
                    yield PairOutcome(**msg[1])
                elif msg[0] == "failure":
                    yield UnitFailure(**msg[1])
                elif msg[0] == "done":
                    finished.add(msg[1])
                else:
                    raise WLToolsError(self._failed(msg[1], len(procs), msg[2]))
        finally:
            for proc in procs:
                if proc.is_alive():
                    proc.terminate()
            for proc in procs:
                proc.join()
            out_queue.close()

    @staticmethod
    def _failed(j: int, w: int, why: str) -> str:
        return (f"brec worker {j}/{w} failed: {why} "
                "(finished units are kept; run the same command again to resume)")
