"""Registry of theoretical claims and the runner that verifies them.

A :class:`Claim` is one statement from a paper (its ``id``, the ``statement``, its ``source``: paper
and section / proposition, and the ``method`` of verification) with a ``check`` callable returning a
:class:`ClaimResult`. Checks take their ingredients (distance functions, refinement functions, norm
layers, model factories, ...) as keyword parameters with the project's real definitions as defaults,
so that tests can inject deliberately broken ingredients and see the check FAIL. Data that lives in
the layer above (BREC pairs and verdicts) comes in as declared ``inputs``
(:mod:`wltools.claims.inputs`).

Statuses
--------
``PASS``  the evidence supports the claim, and all of it was gathered.
``FAIL``  a finding: the evidence contradicts the claim; the result carries the counterexample.
``ERROR`` no verdict: the check could not gather its evidence (a dependency or declared input is
          missing, an import failed, the evidence is incomplete, or the check crashed); the summary
          says why.
``SKIP``  an optional user input the claim is about was not given (``brec-run`` without a run
          directory); nothing was checked, and it is never counted as a pass.

:func:`verify` runs claims; :func:`exit_code` maps results to a process exit status (0 when nothing
FAILed or ERRORed, else 1); :func:`status_counts` and :func:`tally` count them.

Examples
--------
>>> from wltools.claims import list_claims
>>> "grit-3.2" in [c.id for c in list_claims()]
True
"""

from __future__ import annotations

import inspect
import json
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..errors import RunDirectoryError, UnknownNameError
from .inputs import INPUTS

__all__ = [
    "METHODS",
    "STATUSES",
    "Claim",
    "ClaimResult",
    "register_claim",
    "get_claim",
    "list_claims",
    "verify",
    "exit_code",
    "run_claim",
    "status_counts",
    "tally",
    "format_results",
]

METHODS = ("exhaustive", "brec", "suites", "numeric", "run")
STATUSES = ("PASS", "FAIL", "ERROR", "SKIP")


@dataclass
class ClaimResult:
    """Outcome of one claim's check.

    Attributes
    ----------
    status : {"PASS", "FAIL", "ERROR", "SKIP"}
    summary : str
        One readable sentence: what was checked and what was found.
    evidence : dict
        JSON-able numbers behind the verdict (counts, tolerances, maximal errors, seeds, ...).
    witness : str or None
        A readable witness: the counterexample of a FAIL, or the strictness witness of a PASS.
    seconds : float
        Wall time of the check (filled in by :func:`verify`).
    """

    status: str
    summary: str
    evidence: dict = field(default_factory=dict)
    witness: str | None = None
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")

    def to_dict(self) -> dict:
        """JSON-able form."""
        return {
            "status": self.status,
            "summary": self.summary,
            "evidence": _jsonable(self.evidence),
            "witness": self.witness,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class Claim:
    """One theoretical claim.

    Attributes
    ----------
    id : str
        Short stable identifier, e.g. ``"grit-3.2"``.
    statement : str
        The claim in words.
    source : str
        Paper and section / proposition.
    method : str
        One or more of :data:`METHODS`, joined by ``"+"`` (e.g. ``"brec+exhaustive"``).
    check : callable
        ``check(**params) -> ClaimResult``.
    params : tuple of str
        Names of run-time parameters the check accepts from the command line (e.g. ``run_dir``).
    inputs : tuple of str
        Inputs the caller must supply (names of :data:`wltools.claims.inputs.INPUTS`, e.g.
        ``pairs``); without one the claim is an ERROR.
    needs : callable or None
        ``needs(**params) -> list of units``: the refinement verdicts the check will read, so that
        a run of several claims computes each once, ahead and in parallel
        (:mod:`wltools.claims.parallel`): ``("brec", test, rrwp_steps, ids)`` asks the
        ``theory_verdicts`` input, ``("suite", suite, test, ids)`` asks
        :func:`wltools.suites.theory.suite_theory`. Only a schedule: the check computes whatever
        was not fetched ahead, so a wrong list costs time, never a result.
    """

    id: str
    statement: str
    source: str
    method: str
    check: Callable[..., ClaimResult]
    params: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    needs: Callable[..., list] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for m in self.method.split("+"):
            if m not in METHODS:
                raise ValueError(f"unknown method {m!r} for claim {self.id!r}; choose from {METHODS}")
        for name in self.inputs:
            if name not in INPUTS:
                raise ValueError(f"unknown input {name!r} for claim {self.id!r}; choose from "
                                 f"{tuple(INPUTS)}")

    def to_dict(self) -> dict:
        return {"id": self.id, "statement": self.statement, "source": self.source,
                "method": self.method, "params": list(self.params), "inputs": list(self.inputs)}


# Filled by the claim modules' decorators: wltools.claims imports its own modules, and the layer
# above adds its claims by importing modules that register here (brec_runner.reports.claims).
_CLAIMS: dict[str, Claim] = {}


def register_claim(id: str, *, statement: str, source: str, method: str,
                   params: Iterable[str] = (), inputs: Iterable[str] = (),
                   needs: Callable[..., list] | None = None) -> Callable:
    """Decorator registering ``check`` as the check of a new claim ``id`` (``needs``: the
    verdicts it reads, see :class:`Claim`)."""

    def deco(check: Callable[..., ClaimResult]) -> Callable[..., ClaimResult]:
        if id in _CLAIMS and _CLAIMS[id].check is not check:
            raise ValueError(f"claim {id!r} registered twice")
        _CLAIMS[id] = Claim(id=id, statement=statement, source=source, method=method,
                            check=check, params=tuple(params), inputs=tuple(inputs), needs=needs)
        return check

    return deco


def list_claims() -> list[Claim]:
    """All registered claims, in registration order."""
    return list(_CLAIMS.values())


def get_claim(claim_id: str) -> Claim:
    """The claim ``claim_id``; :class:`~wltools.errors.UnknownNameError` when there is none."""
    try:
        return _CLAIMS[claim_id]
    except KeyError:
        raise UnknownNameError(
            f"unknown claim {claim_id!r}; known claims: {', '.join(_CLAIMS)}"
        ) from None


def accepted(check: Callable, params: dict[str, Any]) -> dict[str, Any]:
    sig = inspect.signature(check)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return dict(params)
    return {k: v for k, v in params.items() if k in sig.parameters}


def run_claim(claim: Claim, **params: Any) -> ClaimResult:
    """Run one claim's check, passing it the ``params`` it accepts (``None`` values dropped).

    A declared input missing from ``params``, and any exception of the check (an ImportError of
    a dependency included), give ERROR with the reason: never PASS, never SKIP.
    :class:`~wltools.errors.RunDirectoryError` (the user's run directory is unusable) is bad input,
    not a result: it propagates, and the CLI reports it in one line.
    """
    t0 = time.perf_counter()
    given = {k: v for k, v in params.items() if v is not None}
    missing = [name for name in claim.inputs if name not in given]
    if missing:
        result = ClaimResult(
            "ERROR", "not checked: the caller gave no " + "; no ".join(
                f"`{m}` ({INPUTS[m]})" for m in missing), {"missing inputs": missing})
        result.seconds = time.perf_counter() - t0
        return result
    threads = _torch_threads(1)  # checks use small matrices: extra threads only contend
    try:
        result = claim.check(**accepted(claim.check, given))
        if not isinstance(result, ClaimResult):
            raise TypeError(f"the check returned {type(result).__name__}, not a ClaimResult")
    except RunDirectoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - a check that cannot finish is reported, not hidden
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        result = ClaimResult(
            "ERROR", f"no verdict: {type(exc).__name__}: {exc}",
            {"exception": type(exc).__name__, "where": f"{tb.filename}:{tb.lineno}"})
    finally:
        _torch_threads(threads)
    result.seconds = time.perf_counter() - t0
    return result


def _torch_threads(n: int | None) -> int | None:
    """Set torch's intra-op threads to ``n``; return the old value."""
    if n is None:
        return None
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(n)
    return old


def verify(ids: Iterable[str] | None = None, **params: Any) -> list[tuple[Claim, ClaimResult]]:
    """Verify the claims ``ids`` (all when None), passing each the ``params`` it accepts.

    Unknown ids raise :class:`~wltools.errors.UnknownNameError` before anything runs.
    """
    claims = list_claims() if ids is None else [get_claim(i) for i in ids]
    return [(c, run_claim(c, **params)) for c in claims]


def exit_code(results: Iterable[tuple[Claim, ClaimResult]]) -> int:
    """0 when no claim FAILed or ERRORed (PASS and SKIP only), else 1."""
    return 1 if any(r.status in ("FAIL", "ERROR") for _, r in results) else 0


def status_counts(results: Iterable[tuple[Claim, ClaimResult]]) -> dict[str, int]:
    """``{status: number of results}`` for every status of :data:`STATUSES`, in that order."""
    statuses = [r.status for _, r in results]
    return {s: statuses.count(s) for s in STATUSES}


def tally(results: Iterable[tuple[Claim, ClaimResult]]) -> str:
    """The one-line summary, every status counted.

    Examples
    --------
    >>> c = Claim("x", "s", "src", "numeric", lambda: None)
    >>> tally([(c, ClaimResult("PASS", "ok")), (c, ClaimResult("SKIP", "no input"))])
    '2 claims: 1 PASS, 0 FAIL, 0 ERROR, 1 SKIP'
    """
    counts = status_counts(results)
    return f"{sum(counts.values())} claims: " + ", ".join(f"{n} {s}" for s, n in counts.items())


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (str, int, bool)) or obj is None:
        return obj
    if isinstance(obj, float):
        return obj if obj == obj and abs(obj) != float("inf") else str(obj)
    try:  # numpy / torch scalars
        return _jsonable(obj.item())
    except Exception:  # noqa: BLE001
        return str(obj)


def _evidence_lines(evidence: dict) -> list[str]:
    out = []
    for k, v in evidence.items():
        out.append(f"{k}: {json.dumps(_jsonable(v), sort_keys=False)}")
    return out


def format_results(results: list[tuple[Claim, ClaimResult]], fmt: str = "text",
                   header: str | None = None, meta: dict | None = None) -> str:
    """Render results as ``text``, ``md`` (Markdown report) or ``json``; ``meta`` (command,
    date, versions, hardware) heads the Markdown report and is included in JSON."""
    if fmt == "json":
        body = [{**c.to_dict(), **r.to_dict()} for c, r in results]
        return json.dumps({"meta": meta, "claims": body} if meta else body, indent=2)
    if fmt == "text":
        lines = []
        for c, r in results:
            lines.append(f"[{r.status}] {c.id} ({c.source}; {c.method}; {r.seconds:.1f}s)")
            lines.append(f"    {c.statement}")
            lines.append(f"    -> {r.summary}")
            if r.witness:
                lines.append(f"    witness: {r.witness}")
            if r.status in ("FAIL", "ERROR"):
                lines.extend(f"    {line}" for line in _evidence_lines(r.evidence))
        lines.append(tally(results))
        return "\n".join(lines)
    if fmt == "md":
        lines = [f"# {header or 'Claims verified by wltools'}", ""]
        if meta:
            lines += [f"- {k}: `{v}`" for k, v in meta.items()] + [""]
        lines += ["| id | status | source | method | seconds |", "|---|---|---|---|---|"]
        for c, r in results:
            lines.append(f"| `{c.id}` | **{r.status}** | {c.source} | {c.method} | {r.seconds:.1f} |")
        lines += ["", f"{tally(results)}.", ""]
        for c, r in results:
            lines += [f"## `{c.id}`: {r.status}", "", f"**Statement.** {c.statement}", "",
                      f"**Source.** {c.source}. **Method.** {c.method}.", "",
                      f"**Result.** {r.summary}", ""]
            if r.witness:
                lines += [f"**Witness.** {r.witness}", ""]
            if r.evidence:
                lines += ["**Evidence.**", "", "```"] + _evidence_lines(r.evidence) + ["```", ""]
        return "\n".join(lines)
    raise ValueError(f"unknown format {fmt!r}; choose text, md or json")
