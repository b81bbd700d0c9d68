"""Executing units on a Ray cluster (``--executor ray``): the interface of :mod:`brec_runner.runs.execute`.

:class:`RayExecutor` has the one method of every executor, ``run(spec, units)``, an iterator of
:class:`~brec_runner.runs.rpc.PairOutcome` in completion order. Like the local executors it never writes
files: outcomes come back to the driver as task return values, and the driver
(:func:`brec_runner.runs.evaluate.run`) is the only writer of the run directory, so a driver that is
interrupted (Ctrl-C) or killed leaves a directory that resumes exactly like a local run.

- **Tasks.** Each (pair, seed) unit is one Ray task; with ``--multi-pair G`` each window of
  :func:`brec_runner.runs.plan.multi_pair_windows` (the windows the in-process executor forms) is one
  task. A task requests ``cpus_per_unit`` CPUs (default: ``--threads``) and ``gpus_per_unit`` GPUs;
  a fraction such as 0.25 lets four units share one GPU.
- **Data once per node.** The driver reads the pairs; one Ray task per pair encodes its
  relabelings and reliability set (:func:`brec_runner.runs.execute.prepare_pair`), and its result stays
  in the Ray object store. The unit tasks of that pair take it as an argument, so it is computed
  once and reaches each node once (workers of a node share the node's copy), not once per task.
  It is released when the pair's last unit is done; at most ``max_in_flight`` tasks are submitted
  at a time, so only the encodings of the pairs in flight are held.
- **Same results.** A task runs the same code as :class:`~brec_runner.runs.execute.InProcess` (the
  one-pair loop or :mod:`brec_runner.runs.multipair`) with ``--threads`` torch threads, and every
  unit's model depends on (seed, pair id) alone, so records equal the local executor's but for
  the timing fields (tested).
- **Failures.** A unit whose model raises (:func:`brec_runner.runs.rpc.is_model_failure`) is caught in
  its task, as in :class:`~brec_runner.runs.execute.InProcess`, and comes back as a
  :class:`~brec_runner.runs.rpc.UnitFailure`: the driver records it and counts it against
  ``max_failures``, like a local run's. A task whose worker dies (crash, killed, out of memory,
  lost node) is retried by Ray up to ``max_retries`` times; a task that raises a memory error is
  retried too. Other task errors are deterministic and not retried. A unit whose task still fails
  is never dropped: the other units go on, and at the end :meth:`RayExecutor.run` raises
  :class:`UnitsFailed` listing every such unit with its one-line error (``.failures``, in the
  format of ``failures.jsonl``); finished units have been recorded, and running the same command
  again retries the failed ones. When the first few tasks all fail and none succeeds (a model the
  workers cannot import, say) the run stops early.
- **The cluster.** ``address`` connects to a running cluster (``"auto"``: the one
  ``ray start`` made on this machine, or ``$RAY_ADDRESS``); with no address, ``$RAY_ADDRESS`` is
  honoured, else a local Ray instance is started for the run and shut down after it. A Ray
  already initialised in this process (``ray.init`` called by the caller) is used as it is.

Ray is an optional dependency: ``pip install -e ".[ray]"``.
"""

from __future__ import annotations

import os
import types
import warnings
from collections import Counter
from typing import Any, Iterator, Sequence

from wltools.errors import WLToolsError

from .execute import InProcess, RunSpec, prepare_pair
from .plan import Unit, multi_pair_windows

__all__ = ["RayExecutor", "UnitsFailed", "import_ray"]

#: Failed tasks before the first success that stop the run (a setup error, not bad luck).
_EARLY_STOP = 3


class UnitsFailed(WLToolsError):
    """Units that failed on the cluster after their retries.

    ``failures`` holds one dict per failed unit, the line of ``failures.jsonl``
    (:meth:`brec_runner.runs.rpc.UnitFailure.record`: ``id``, ``seed``, ``type``, ``message``,
    ``error`` = "type: message", ``stage`` = ``"task"``, ``attempts`` = how many times its task
    was tried); the message is one line naming how many failed and the first error.
    """

    def __init__(self, failures: list[dict[str, Any]], stopped_early: bool = False, remaining: int = 0):
        self.failures = failures
        self.stopped_early = stopped_early
        first = failures[0]
        units = ", ".join(f"({f['id']}, {f['seed']})" for f in failures[:5]) + (" ..." if len(failures) > 5 else "")
        why = (f"stopped after the first {len(failures)} unit(s) failed, {remaining} not run; "
               if stopped_early else "")
        super().__init__(f"{len(failures)} BREC unit(s) failed on Ray [{units}]: {first['error']} "
                         f"({why}finished units are kept; run the same command again to retry the failed ones)")


def import_ray():
    """The ``ray`` module, or :class:`WLToolsError` naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise WLToolsError('--executor ray needs Ray, which is not installed: pip install -e ".[ray]"') from None
    return ray


# ------------------------------------------------------------------------------------------------
# what runs on the workers (plain functions, wrapped by ray.remote in _remote())


def _encode_pair(spec: RunSpec, pair) -> tuple[list, list]:
    """Encoded relabelings and reliability set of one pair (a task; its result stays in the store)."""
    return prepare_pair(pair, spec.protocol, spec.source.transform, spec.source.transform_key)


def _run_units(spec: RunSpec, units: list[Unit], sizes: dict[int, Any], *data) -> list[tuple[str, dict]]:
    """Outcomes of ``units`` (one unit, or one multi-pair window), as InProcess computes them, as
    ``("outcome" | "failure", dict)`` (a failure: the unit's model raised); ``data`` holds the
    encodings of the units' distinct pairs in the order of first appearance."""
    import torch

    from .rpc import UnitFailure

    if spec.threads is not None:
        torch.set_num_threads(int(spec.threads))
    pids = list(dict.fromkeys(pid for pid, _ in units))
    prepared = dict(zip(pids, data))
    by_id = {pid: types.SimpleNamespace(meta=sizes[pid]) for pid in pids}
    cache: dict = {}  # the encodings live in the object store: nothing to evict here
    executor = InProcess()
    if spec.multi_pair and spec.multi_pair > 1:
        outcomes = executor._multi_pair(spec, units, by_id, prepared.__getitem__, cache)
    else:
        outcomes = executor._one_pair(spec, units, prepared.__getitem__, cache)
    return [("failure" if isinstance(o, UnitFailure) else "outcome", o.to_dict()) for o in outcomes]


_REMOTE: dict[str, Any] = {}


def _remote(ray):
    if not _REMOTE:
        _REMOTE["encode"] = ray.remote(_encode_pair)
        _REMOTE["units"] = ray.remote(_run_units)
    return _REMOTE["encode"], _REMOTE["units"]


# ------------------------------------------------------------------------------------------------
# the driver side


def _cause(exc: BaseException) -> BaseException:
    """The cause of a RayTaskError, else the Ray error itself."""
    cause = getattr(exc, "cause", None)
    return cause if isinstance(cause, BaseException) else exc


def _one_line(exc: BaseException) -> str:
    """``Type: first line`` of a task's error (the cause of a RayTaskError, else the Ray error)."""
    err = _cause(exc)
    text = next((line.strip() for line in str(err).splitlines() if line.strip()), "")
    return f"{type(err).__name__}: {text}"[:500]


def _groups(spec: RunSpec, units: list, sizes: dict) -> list[list]:
    """The tasks' units: ``multi_pair`` windows of units of equal graph sizes (or of one pair),
    else one unit per task."""
    if spec.multi_pair and spec.multi_pair > 1:
        return multi_pair_windows(units, spec.multi_pair,
                                  lambda pid: (pid,) if spec.one_pair_groups else
                                  (tuple(sizes[pid]["n"]), tuple(sizes[pid]["m"])))
    return [[u] for u in units]


def _task_failures(ray, exc, group: list, pairs: dict, max_retries: int) -> list[dict]:
    """One failure record per unit of a task that failed with ``exc``: the underlying exception's
    type and message, and the attempts made (retries only for lost workers and out-of-memory)."""
    import torch

    from .rpc import UnitFailure

    cause = getattr(exc, "cause", None)
    retried = not isinstance(exc, ray.exceptions.RayTaskError) or isinstance(
        cause, (MemoryError, torch.OutOfMemoryError))
    err = _cause(exc)
    message = _one_line(exc)[len(type(err).__name__) + 2:]
    return [UnitFailure(id=pid, seed=seed, type=type(err).__name__, message=message, stage="task",
                        attempts=1 + max_retries if retried else 1,
                        category=pairs[pid].category, subcategory=pairs[pid].subcategory).record()
            for pid, seed in group]


class RayExecutor:
    """Run units as Ray tasks (module docstring).

    Parameters
    ----------
    address : str or None
        A running cluster (``"auto"``, ``"HOST:PORT"``, ``"ray://HOST:PORT"``); None: the Ray
        already initialised in this process, else ``$RAY_ADDRESS``, else a local instance
        started for this run and shut down after it.
    gpus_per_unit : float
        GPUs each task requests (fractions share a GPU between units); needs ``device="cuda"``.
    cpus_per_unit : float or None
        CPUs each task requests (default: the run's ``threads``, at least 1).
    max_retries : int
        Retries of a task whose worker died or ran out of memory.
    max_in_flight : int or None
        Tasks submitted at a time (default: four times the units the cluster can run at once, at
        least 8).
    num_cpus : int or None
        CPUs of a local instance this executor starts (default: all of this machine's).
    """

    def __init__(self, address: str | None = None, gpus_per_unit: float = 0.0, cpus_per_unit: float | None = None,
                 max_retries: int = 2, max_in_flight: int | None = None, num_cpus: int | None = None) -> None:
        if gpus_per_unit < 0 or (cpus_per_unit is not None and cpus_per_unit <= 0):
            raise ValueError(f"need gpus_per_unit >= 0 and cpus_per_unit > 0, got {gpus_per_unit}, {cpus_per_unit}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        self.address = address
        self.gpus_per_unit = float(gpus_per_unit)
        self.cpus_per_unit = cpus_per_unit
        self.max_retries = int(max_retries)
        self.max_in_flight = max_in_flight
        self.num_cpus = num_cpus

    def __repr__(self) -> str:
        return (f"RayExecutor(address={self.address!r}, gpus_per_unit={self.gpus_per_unit}, "
                f"cpus_per_unit={self.cpus_per_unit}, max_retries={self.max_retries})")

    def _connect(self, ray) -> bool:
        """Connect (or start a local instance); True when this call started Ray and must stop it."""
        if ray.is_initialized():
            return False
        kw = dict(include_dashboard=False, log_to_driver=True)
        try:
            if self.address is not None:
                ray.init(address=self.address, **kw)
            elif os.environ.get("RAY_ADDRESS"):
                ray.init(**kw)
            else:
                ray.init(address="local", num_cpus=self.num_cpus, **kw)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            where = self.address or os.environ.get("RAY_ADDRESS") or "a local instance"
            raise WLToolsError(f"cannot start or reach Ray at {where}: {_one_line(exc)}") from None
        return True

    def _check_fits(self, ray, cpus: float) -> None:
        """Warn when no node of the cluster has the CPUs or GPUs one task requests (its tasks would
        wait for a node that an autoscaler may or may not add)."""
        nodes = [n.get("Resources", {}) for n in ray.nodes() if n.get("Alive")]
        if nodes and not any(r.get("CPU", 0) >= cpus and r.get("GPU", 0) >= self.gpus_per_unit for r in nodes):
            warnings.warn(f"no node of the Ray cluster has {cpus} CPU(s) and {self.gpus_per_unit} GPU(s) for one "
                          f"unit (nodes: {[(r.get('CPU', 0), r.get('GPU', 0)) for r in nodes]}); the tasks wait "
                          "until one joins", RuntimeWarning, stacklevel=3)

    def _slots(self, ray, cpus: float) -> int:
        total = ray.cluster_resources()
        slots = total.get("CPU", 1) / cpus
        if self.gpus_per_unit > 0:
            slots = min(slots, total.get("GPU", 0) / self.gpus_per_unit)
        return max(1, int(slots))

    def run(self, spec: RunSpec, units: Sequence[Unit]) -> Iterator:
        from . import dataset
        from .rpc import PairOutcome, UnitFailure

        units = [(int(p), int(s)) for p, s in units]
        if not units:
            return
        ray = import_ray()
        if self.gpus_per_unit > 0 and not str(spec.device).startswith("cuda"):
            raise WLToolsError(f"--gpus-per-unit {self.gpus_per_unit} needs --device cuda")
        pairs = {p.id: p for p in dataset.pairs_of(spec.suite, sorted({pid for pid, _ in units}))}
        sizes = {pid: {"n": p.meta.get("n", ()), "m": p.meta.get("m", ())} for pid, p in pairs.items()}
        groups = _groups(spec, units, sizes)
        started = self._connect(ray)
        pending: dict[Any, list[Unit]] = {}
        try:
            import torch

            cpus = self.cpus_per_unit if self.cpus_per_unit is not None else max(1, int(spec.threads or 1))
            encode, run_units = _remote(ray)
            options = dict(num_cpus=cpus, num_gpus=self.gpus_per_unit, max_retries=self.max_retries,
                           retry_exceptions=[MemoryError, torch.OutOfMemoryError])
            encode = encode.options(**{**options, "num_cpus": 1, "num_gpus": 0})  # encoding: CPU work
            run_units = run_units.options(**options)
            self._check_fits(ray, cpus)
            limit = self.max_in_flight or max(8, 4 * self._slots(ray, cpus))
            spec_ref = ray.put(spec)  # once, shared by every task
            encoded: dict[int, Any] = {}  # pair id -> object ref of its encodings, while needed
            left = Counter(pid for g in groups for pid in dict.fromkeys(p for p, _ in g))  # tasks per pair
            queue = list(reversed(groups))
            failures: list[dict[str, Any]] = []
            succeeded, failed_tasks = False, 0
            while queue or pending:
                while queue and len(pending) < limit:
                    group = queue.pop()
                    pids = list(dict.fromkeys(pid for pid, _ in group))
                    for pid in pids:
                        if pid not in encoded:
                            encoded[pid] = encode.remote(spec_ref, pairs[pid])
                    ref = run_units.remote(spec_ref, group, {p: sizes[p] for p in pids}, *(encoded[p] for p in pids))
                    pending[ref] = group
                (ref,), _ = ray.wait(list(pending), num_returns=1)
                group = pending.pop(ref)
                try:
                    records = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    failures += _task_failures(ray, exc, group, pairs, self.max_retries)
                    failed_tasks += 1
                    if not succeeded and failed_tasks >= _EARLY_STOP:
                        raise UnitsFailed(failures, stopped_early=True,
                                          remaining=sum(map(len, queue)) + sum(map(len, pending.values()))) from None
                else:
                    succeeded = True
                    for kind, rec in records:
                        outcome = UnitFailure(**rec) if kind == "failure" else PairOutcome(**rec)
                        outcome.category, outcome.subcategory = pairs[outcome.id].category, pairs[outcome.id].subcategory
                        yield outcome
                for pid in dict.fromkeys(p for p, _ in group):
                    left[pid] -= 1
                    if left[pid] == 0:
                        encoded.pop(pid, None)  # the last reference: Ray frees the encodings
            if failures:
                raise UnitsFailed(failures)
        finally:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # noqa: BLE001 - best effort: the task may have finished meanwhile
                    pass
            pending.clear()
            if started:
                ray.shutdown()
