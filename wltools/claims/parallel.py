"""Verifying several claims on several cores, each refinement verdict computed once.

The inclusion claims read the same verdicts: SPD-WL, 3-WL and 1-WL on the BREC pairs and on the
classic suites appear in ``gdwl-hierarchy``, ``epwl-placement``, ``subgraph-hierarchy`` and
``grit-3.2``. Each claim declares what it reads (:class:`~wltools.claims.registry.Claim`
``needs``: units ``("brec", test, rrwp_steps, ids)`` and ``("suite", suite, test, ids)``), and
:func:`verify_claims` runs in two phases:

1. every distinct unit once, in ``workers`` processes, the longest first (with the claims that
   declare no units, which need nothing of the others): a BREC unit asks the ``theory_verdicts``
   input (``brec_runner``'s disk cache, one file per test, so no two workers write one file), a
   suite unit :func:`wltools.suites.theory.suite_theory`, both verdict-only (the claims read the
   verdicts alone, so each refinement stops at the first difference:
   :func:`wltools.refine.kernel.verdict_only`); then the parts of the atlas verdicts
   (:mod:`wltools.claims.atlas_ahead`: units ``("atlas", chains, max_nodes, max_nodes_3wl)``,
   their pairs' union per test split into parts here while the workers run the others); their
   answers come back to this process (a table in front of ``theory_verdicts``;
   :func:`wltools.suites.theory.remember`; :func:`wltools.claims.atlas_ahead.remember`);
2. the other claims, in fresh worker processes that start from this process (``fork``), so they
   find every verdict computed.

The results are those of running the claims one after the other in one process: a check reads
the same verdicts (the same functions computed them; a unit only moves where they are computed)
and nothing else is shared; they are returned in the order of the claims given. With one worker,
or where processes cannot be forked, the claims run one after the other here.
"""

from __future__ import annotations

import inspect
import itertools
import multiprocessing
import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .atlas_ahead import PART, atlas_parts, compute, forget, remember
from .registry import Claim, ClaimResult, accepted, run_claim

__all__ = ["default_workers", "verify_claims", "needed_units", "VerdictTable", "UnitFailure", "report_failure"]

#: Relative cost of a unit or claim (CPU seconds in a worker, measured cold with verdict-only
#: refinements; only their order matters: the longest go first so that no long one starts last).
#: Unlisted: 1 (a claim or BREC unit), 0.5 (a suite unit).
COST: dict[tuple, float] = {
    ("brec", "epwl"): 16, ("brec", "epwl-lap"): 25, ("brec", "rrwp"): 6, ("brec", "rd"): 14,
    ("brec", "3wl"): 7, ("brec", "slfwl2"): 9, ("brec", "lfwl2"): 5, ("brec", "pswl-sv"): 5,
    ("brec", "pswl-vs"): 5, ("brec", "sswl"): 7, ("brec", "gswl"): 5, ("brec", "swl-vs"): 5,
    ("brec", "swl-sv"): 5, ("brec", "m1"): 2,
    ("suite", "exp", "rrwp"): 6, ("suite", "exp", "rd"): 5, ("suite", "exp", "m1"): 4, ("suite", "exp", "gswl"): 3,
    ("suite", "exp", "3wl"): 3, ("suite", "exp", "sswl"): 3, ("suite", "exp", "lfwl2"): 2.5,
    ("suite", "exp", "slfwl2"): 2.5, ("suite", "exp", "pswl-sv"): 2, ("suite", "exp", "pswl-vs"): 2,
    ("suite", "exp", "swl-sv"): 2, ("suite", "exp", "swl-vs"): 2,
    ("claim", "hom-expressivity"): 18, ("claim", "grit-3.1a"): 7, ("claim", "subgraph-counting"): 6,
    ("claim", "hom-consistency"): 8, ("claim", "epwl-placement"): 1, ("claim", "subgraph-hierarchy"): 1,
    ("claim", "gdwl-hierarchy"): 1, ("claim", "grit-3.2"): 8, ("claim", "brec-run"): 2,
}


def default_workers() -> int:
    """The CPU count, at most 2 (the claims' work splits into few long units)."""
    return max(1, min(2, os.cpu_count() or 1))


def _cost(unit: tuple) -> float:
    if unit[0] == "atlas":  # a part of PART pairs: about a second
        return len(unit[3]) / PART
    if unit[0] == "claim":
        return COST.get(unit, 1.0)
    if unit[0] == "brec":
        return COST.get(("brec", unit[1]), 1.0)
    return COST.get(unit[:3], 0.5)


def _check_params(claim: Claim, given: dict) -> dict:
    """The keyword arguments ``claim.check`` gets from ``given``, its own defaults filled in."""
    sig = inspect.signature(claim.check)
    defaults = {k: p.default for k, p in sig.parameters.items() if p.default is not inspect.Parameter.empty}
    return {**defaults, **accepted(claim.check, given)}


def needed_units(claims: Sequence[Claim], params: dict) -> list[tuple]:
    """The distinct verdict units the ``claims`` declare for ``params``, in first-asked order."""
    given = {k: v for k, v in params.items() if v is not None}
    units: dict[tuple, None] = {}
    for c in claims:
        if c.needs is None or any(name not in given for name in c.inputs):
            continue
        try:
            units.update(dict.fromkeys(c.needs(**_check_params(c, given))))
        except Exception:  # noqa: BLE001 - bad input: the check itself reports it as its result
            continue
    return list(units)


class VerdictTable:
    """``theory_verdicts`` with the verdicts computed ahead in front: a call whose ``ids`` are all
    in the table is answered from it, any other is passed to ``source`` (and remembered)."""

    def __init__(self, source: Callable) -> None:
        self.source = source
        self.table: dict[tuple, dict[int, bool]] = {}

    def add(self, test: str, rrwp_steps: int | None, verdicts: dict[int, bool]) -> None:
        self.table.setdefault((test, rrwp_steps), {}).update(verdicts)

    def __call__(self, test: str, ids, rrwp_steps: int | None = None) -> dict[int, bool]:
        ids = list(ids)
        have = self.table.get((test, rrwp_steps), {})
        if all(i in have for i in ids):
            return {i: have[i] for i in ids}
        got = self.source(test, ids, rrwp_steps)
        self.add(test, rrwp_steps, {i: got[i] for i in ids if i in got})
        return got


#: What the worker processes read (set before they are forked: nothing is pickled but indices).
_JOB: dict[str, Any] = {}


def _work(item):
    """Worker: unit or claim ``item`` of ``_JOB["todo"]`` (or ``item = (index, unit)`` for a unit
    made after the fork); returns ``(index, answer, CPU seconds)``."""
    t0 = time.process_time()
    index, unit = item if isinstance(item, tuple) else (item, _JOB["todo"][item])
    index, answer = _answer(index, unit)
    return index, answer, time.process_time() - t0


def _answer(index: int, unit: tuple):
    if unit[0] == "claim":
        return index, run_claim(_JOB["claims"][unit[2]], **_JOB["params"])
    try:
        if unit[0] == "atlas":
            return index, compute(unit[1], unit[3])
        if unit[0] == "brec":
            _, test, steps, ids = unit
            return index, _JOB["params"]["theory_verdicts"](test, list(ids), steps)
        from wltools.suites.theory import memo_records, suite_theory

        _, name, test, ids = unit
        suite_theory(name, [test], ids=ids, verdict_only=True)
        return index, memo_records(name, [test])
    except Exception as exc:  # noqa: BLE001 - reported (_run), and the claim asks again
        return index, UnitFailure.of(unit, exc)


@dataclass(frozen=True)
class UnitFailure:
    """A verdict unit whose worker raised: the unit, the exception (type and message), where it
    was raised and the worker's whole traceback, which a process pool would otherwise lose.
    :func:`verify_claims` reports it (``failed``); the claim that needs the unit computes it
    again itself, and any error there is its result."""

    unit: tuple
    exception: str
    message: str
    where: str
    traceback: str

    @classmethod
    def of(cls, unit: tuple, exc: BaseException) -> "UnitFailure":
        import traceback

        last = traceback.extract_tb(exc.__traceback__)[-1]
        return cls(unit[:3], type(exc).__name__, " ".join(str(exc).split()), f"{last.filename}:{last.lineno}",
                   "".join(traceback.format_exception(exc)))

    def __str__(self) -> str:
        return (f"unit {self.unit} failed in its worker: {self.exception}: {self.message} (at {self.where}); "
                "the claims that need it compute it again and report any error as their result")


def report_failure(failure: UnitFailure) -> None:
    """The default ``failed`` of :func:`verify_claims`: one line on stderr."""
    import sys

    print(f"wltools: warning: {failure}", file=sys.stderr, flush=True)


def _run(pool, todo: list, done: Callable, table: VerdictTable | None, timings: list | None,
         later: Callable[[], list] = list, failed: Callable = report_failure) -> dict[int, ClaimResult]:
    """Run ``todo`` in ``pool`` (longest first), then the units ``later()`` makes here meanwhile
    (after the fork: they are passed to the workers); fold unit answers in, pass a unit's
    :class:`UnitFailure` to ``failed``; returns the claims' results."""
    from wltools.suites.theory import remember as remember_suite

    order = sorted(range(len(todo)), key=lambda i: -_cost(todo[i]))
    first = pool.imap_unordered(_work, order, chunksize=1)
    more = later()
    todo = todo + more
    second = pool.imap_unordered(_work, [(len(todo) - len(more) + k, u) for k, u in enumerate(more)], chunksize=1)
    results: dict[int, ClaimResult] = {}
    for i, answer, cpu in itertools.chain(first, second):
        unit = todo[i]
        if timings is not None:
            timings.append((unit[:3], round(cpu, 2)))
        if unit[0] == "claim":
            results[unit[2]] = answer
            done(_JOB["claims"][unit[2]], answer)
        elif isinstance(answer, UnitFailure):
            failed(answer)
        elif unit[0] == "atlas":
            remember(unit[1], answer)
        elif unit[0] == "brec":
            table.add(unit[1], unit[2], {i: bool(answer[i]) for i in unit[3] if i in answer})
        else:
            remember_suite(answer)
    return results


def verify_claims(claims: Sequence[Claim], params: dict, *, workers: int = 1,
                  done: Callable[[Claim, ClaimResult], None] | None = None,
                  timings: list | None = None,
                  failed: Callable[[UnitFailure], None] = report_failure) -> list[tuple[Claim, ClaimResult]]:
    """``[(claim, result)]`` for ``claims`` in their order, as :func:`run_claim` ``(claim,
    **params)`` one after the other gives them, computed in ``workers`` processes (module
    docstring). ``done(claim, result)`` is called as each finishes (in finishing order);
    ``timings`` (a list) receives ``(unit, CPU seconds in its worker)`` for each unit and claim;
    ``failed(failure)`` gets each verdict unit whose worker raised (:class:`UnitFailure`, with the
    worker's traceback; default :func:`report_failure`, one line on stderr).
    Exceptions a claim lets through (:class:`~wltools.errors.RunDirectoryError`) propagate."""
    done = done or (lambda c, r: None)
    claims = list(claims)
    if workers <= 1 or len(claims) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        out = []
        for c in claims:
            out.append((c, run_claim(c, **params)))
            done(*out[-1])
        return out
    units = needed_units(claims, params)
    atlas = [u for u in units if u[0] == "atlas"]
    units = [u for u in units if u[0] != "atlas"]
    params = dict(params)
    table = None
    if params.get("theory_verdicts") is not None:
        table = params["theory_verdicts"] = VerdictTable(params["theory_verdicts"])
    _preload(claims, units)
    free = [("claim", c.id, i) for i, c in enumerate(claims) if c.needs is None]
    rest = [("claim", c.id, i) for i, c in enumerate(claims) if c.needs is not None]
    _JOB.update(claims=claims, params=params)
    ctx = multiprocessing.get_context("fork")
    try:
        results = {}
        for todo, reqs in ((units + free, atlas), (rest, [])):
            if todo or reqs:  # a fresh pool per phase: forked after the merge
                _JOB["todo"] = todo  # before the fork
                with ctx.Pool(workers if reqs else min(workers, len(todo))) as pool:
                    results.update(_run(pool, todo, done, table, timings, lambda: atlas_parts(reqs), failed))
    finally:
        _JOB.clear()
        forget()
    return [(c, results[i]) for i, c in enumerate(claims)]


def _preload(claims: Sequence[Claim], units: list[tuple]) -> None:
    """Read the suites and the atlas, and import torch and PyG where numeric claims or model
    inputs will (seconds each), here, once, before the workers are forked."""
    from wltools.suites import get_suite
    from wltools.suites.theory import theory_pairs

    try:  # run_claim imports torch; the claims that need a missing library report it
        import torch  # noqa: F401

        if any("numeric" in c.method.split("+") or "to_data" in c.inputs for c in claims):
            import torch_geometric  # noqa: F401
    except ImportError:
        pass

    from ._common import atlas_graphs

    for name in dict.fromkeys(u[1] for u in units if u[0] == "suite"):
        theory_pairs(get_suite(name).name)
    atlas_graphs(7)
