"""The settings of one BREC run, in one object: :class:`RunSettings`.

:func:`brec_runner.runs.evaluate.run` (the run directory) and :func:`brec_runner.runs.evaluate.evaluate`
(the run and its report) take the same settings; they are declared here once, with their
defaults, and ``wltools brec run`` / ``wltools suite run`` build one :class:`RunSettings` from their
options. Which settings enter a run's identity (its settings hash) is decided by
:mod:`brec_runner.records.identity`, not here: some fields (``progress``, ``workers``, ``threads``,
``eval_batch_size``, the executor) change how a run is carried out, not what it computes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .protocol import Protocol

__all__ = ["RunSettings", "DEFAULT_CATEGORIES", "MAX_FAILURES"]

#: Failed units one invocation tolerates (``--max-failures``); one more stops the run.
MAX_FAILURES = 10


class _Default(str):
    """The default of ``categories``: Basic unless ``pairs`` is given
    (:func:`brec_runner.runs.evaluate.default_selection`)."""


#: ``categories`` left out: the Basic pairs, unless ``pairs`` names pairs of its own.
DEFAULT_CATEGORIES = _Default("basic")


@dataclass(frozen=True)
class RunSettings:
    """Everything a BREC run is told besides its model (BREC, Wang & Zhang, Sec. 4: the RPC protocol).

    Parameters
    ----------
    bound : str, (str, str) or None
        The WL test bounding the model from above (``1wl``, ``spd``, ``rd``, ``rrwp``, ``3wl``;
        ``rrwp:K`` with K channels) or a (lower, upper) pair. Default: the factory's ``wl_bound``
        attribute, a built-in model's own bound, else unknown (the report compares with 3-WL only).
    transform : callable, str or None
        A PyG transform applied once per graph, cached on disk under its identity, not its
        ``repr`` (which hides settings such as ``AddRandomWalkPE``'s ``walk_length``): the code of
        its class and its whole state (:func:`brec_runner.models.transform_identity.transform_digest`;
        ``docs/your-model.md``); the run's ``config.json`` records it as ``REPR [state DIGEST]``
        and a resume with another state is refused. Default: the factory's ``transform`` attribute.
    categories, pairs
        BREC selection: category names and / or id ranges such as ``"0-59,160-169"`` (both given:
        their intersection). ``pairs`` alone selects those pairs, as ``--pairs`` does; neither
        given: the Basic pairs; ``categories=None`` with no ``pairs``: all 400.
    seeds : sequence of int
        Training seeds; one unit per (pair, seed).
    protocol : Protocol, dict or None
        The RPC protocol (default BREC's published one, with a built-in model's cited changes);
        a dict overrides single fields. ``out_dim`` always follows the model's real output width.
    out : path-like
        The run directory; running again into it resumes (finished units are skipped).
    device : str
        ``"cpu"`` or ``"cuda"``.
    workers : int
        Local processes sharing the run (same verdicts as one).
    progress : bool
        Show a progress bar.
    options : dict
        Keyword arguments of the factory (a built-in model's config overrides).
    preset : str
        A built-in model's preset (default ``"brec"``).
    executor : {"local", "ray"} or an executor object
        ``"ray"``: every unit (or ``multi_pair`` window) is a Ray task, with the same records
        (:mod:`brec_runner.runs.execute_ray`; ``pip install -e ".[ray]"``). ``address`` names a running
        cluster (default ``$RAY_ADDRESS``, else a local instance for this run); each task requests
        ``cpus_per_unit`` CPUs (default ``threads``) and ``gpus_per_unit`` GPUs (a fraction shares one).
    shard : (K, N)
        Run only the K-th of N round-robin slices of the selected pairs.
    multi_pair : int or "auto" (default)
        Train up to G units of equal graph sizes at once (``torch.func.vmap``); ``"auto"``: group
        the seeds of one pair when a short timed probe finds it faster (:mod:`brec_runner.runs.probe`;
        the decision is recorded in the run directory and kept by every resume); ``1`` or None:
        the one-pair loop.
    threads : int or None
        torch CPU threads per process (one is fastest for BREC's small graphs).
    eval_batch_size : int
        Graphs per test batch (default: all of them at once).
    allow_code_change : bool
        Resume a run directory started under another code version
        (:class:`brec_runner.records.record.RunDirectory`).
    suite : str or None
        Run on a classic suite instead of BREC (``csl``, ``exp``, ``sr25``, ``graph8c``, ...;
        ``wltools suite list``); ``pairs`` then selects its ids and ``categories`` is ignored.
    max_failures : int or None
        Units whose model raises are recorded (``failures.jsonl``) and the run goes on; more than
        this many in one call raise :class:`~brec_runner.runs.evaluate.TooManyFailures` (default
        :data:`MAX_FAILURES`; None: no limit; 0: stop at the first).

    Examples
    --------
    >>> s = RunSettings(pairs="0-1", seeds=(0, 1))
    >>> s.with_fields(device="cuda").device, s.device
    ('cuda', 'cpu')
    >>> RunSettings.of(s, workers=2) == RunSettings(pairs="0-1", seeds=(0, 1), workers=2)
    True
    """

    bound: Any = None
    transform: Any = None
    categories: str | Iterable[str] | None = DEFAULT_CATEGORIES
    pairs: str | Iterable[int] | None = None
    seeds: Sequence[int] = (0,)
    protocol: Protocol | dict | None = None
    out: Any = None
    device: str = "cpu"
    workers: int = 1
    progress: bool = True
    options: dict[str, Any] | None = None
    preset: str | None = None
    executor: Any = "local"
    address: str | None = None
    gpus_per_unit: float = 0.0
    cpus_per_unit: float | None = None
    shard: tuple[int, int] | None = None
    multi_pair: int | str | None = "auto"
    threads: int | None = 1
    eval_batch_size: int | None = None
    allow_code_change: bool = False
    suite: str | None = None
    max_failures: int | None = MAX_FAILURES

    def with_fields(self, **fields: Any) -> RunSettings:
        """A copy with ``fields`` changed (an unknown name: ``TypeError``, as for a bad keyword)."""
        return dataclasses.replace(self, **fields) if fields else self

    @classmethod
    def of(cls, settings: RunSettings | None = None, **fields: Any) -> RunSettings:
        """``settings`` (default: all defaults) with ``fields`` changed: how :func:`run` and
        :func:`evaluate` accept either one object or keywords."""
        if settings is not None and not isinstance(settings, cls):
            raise TypeError(f"settings must be a RunSettings, got {type(settings).__name__}")
        return (settings or cls()).with_fields(**fields)
