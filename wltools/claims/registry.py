"""Registry of theoretical claims and the runner that verifies them.

A :class:`Claim` is one statement from a paper (its ``id``, the ``statement``, its ``source``: paper
and section / proposition, and the ``method`` of verification) with a ``check`` callable returning a
:class:`ClaimResult`. Checks take their ingredients (distance functions, refinement functions, norm
layers, model factories, ...) as keyword parameters with the project's real definitions as defaults,
so that tests can inject deliberately broken ingredients and see the check FAIL.

Statuses
--------
``PASS``  the evidence supports the claim.
``FAIL``  a finding: the evidence contradicts the claim; the result carries the counterexample.
``SKIP``  the check could not run (a dependency of the project is missing, or a required input such
          as a BREC run directory was not given); never counted as a pass.
``ERROR`` the check itself crashed (a bug, not a finding about the paper); the message says where.

:func:`verify` runs claims; :func:`exit_code` maps results to a process exit status (0 when nothing
FAILed or ERRORed, else 1; SKIP does not fail the run).

Examples
--------
>>> from wltools.claims import list_claims
>>> "grit-3.2" in [c.id for c in list_claims()]
True
"""

from __future__ import annotations

import importlib
import inspect
import json
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..errors import UnknownNameError, WLToolsError

__all__ = [
    "METHODS",
    "STATUSES",
    "Claim",
    "ClaimResult",
    "MissingDependency",
    "register_claim",
    "get_claim",
    "list_claims",
    "verify",
    "exit_code",
    "require",
    "format_results",
]

METHODS = ("exhaustive", "brec", "numeric", "run")
STATUSES = ("PASS", "FAIL", "SKIP", "ERROR")


class MissingDependency(Exception):
    """Raised inside a check when a project module it builds on is not available (-> SKIP)."""


@dataclass
class ClaimResult:
    """Outcome of one claim's check.

    Attributes
    ----------
    status : {"PASS", "FAIL", "SKIP", "ERROR"}
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
    """

    id: str
    statement: str
    source: str
    method: str
    check: Callable[..., ClaimResult]
    params: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for m in self.method.split("+"):
            if m not in METHODS:
                raise ValueError(f"unknown method {m!r} for claim {self.id!r}; choose from {METHODS}")

    def to_dict(self) -> dict:
        return {"id": self.id, "statement": self.statement, "source": self.source,
                "method": self.method, "params": list(self.params)}


_CLAIMS: dict[str, Claim] = {}
# Modules defining claims, imported on first use (one per source paper).
_CLAIM_MODULES = ("grit", "zhang_gdwl", "ppgt", "sgformer", "brec_run")
_loaded = False


def register_claim(id: str, *, statement: str, source: str, method: str,
                   params: Iterable[str] = ()) -> Callable:
    """Decorator registering ``check`` as the check of a new claim ``id``."""

    def deco(check: Callable[..., ClaimResult]) -> Callable[..., ClaimResult]:
        if id in _CLAIMS and _CLAIMS[id].check is not check:
            raise ValueError(f"claim {id!r} registered twice")
        _CLAIMS[id] = Claim(id=id, statement=statement, source=source, method=method,
                            check=check, params=tuple(params))
        return check

    return deco


def _load() -> None:
    global _loaded
    if not _loaded:
        for name in _CLAIM_MODULES:
            importlib.import_module(f"{__package__}.{name}")
        _loaded = True


def list_claims() -> list[Claim]:
    """All registered claims, in registration order."""
    _load()
    return list(_CLAIMS.values())


def get_claim(claim_id: str) -> Claim:
    """The claim ``claim_id``; :class:`~wltools.errors.UnknownNameError` when there is none."""
    _load()
    try:
        return _CLAIMS[claim_id]
    except KeyError:
        raise UnknownNameError(
            f"unknown claim {claim_id!r}; known claims: {', '.join(_CLAIMS)}"
        ) from None


def require(module: str, *names: str):
    """Import ``module`` (and check it defines ``names``) or raise :class:`MissingDependency`.

    Returns the module, or a tuple ``(module attr, ...)`` when names are given.
    """
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependency(f"{module} is not available ({exc})") from exc
    missing = [n for n in names if not hasattr(mod, n)]
    if missing:
        raise MissingDependency(f"{module} does not define {', '.join(missing)} yet")
    if not names:
        return mod
    attrs = tuple(getattr(mod, n) for n in names)
    return attrs[0] if len(attrs) == 1 else attrs


def _accepted(check: Callable, params: dict[str, Any]) -> dict[str, Any]:
    sig = inspect.signature(check)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return dict(params)
    return {k: v for k, v in params.items() if k in sig.parameters}


def run_claim(claim: Claim, **params: Any) -> ClaimResult:
    """Run one claim's check; dependency gaps become SKIP and crashes ERROR (never PASS).

    Errors of our own types (:class:`~wltools.errors.WLToolsError`, e.g. an unusable run
    directory) are bad input, not results: they propagate.
    """
    t0 = time.perf_counter()
    threads = _torch_threads(1)  # checks use small matrices: extra threads only contend
    try:
        result = claim.check(**_accepted(claim.check, {k: v for k, v in params.items()
                                                        if v is not None}))
    except MissingDependency as exc:
        result = ClaimResult("SKIP", f"cannot run yet: {exc}", {"missing": str(exc)})
    except WLToolsError:
        raise  # bad input (an unusable run directory, ...): the CLI reports it in one line
    except Exception as exc:  # noqa: BLE001 - a crashing check is reported, not hidden
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        result = ClaimResult(
            "ERROR", f"the check crashed: {type(exc).__name__}: {exc}",
            {"exception": type(exc).__name__, "where": f"{tb.filename}:{tb.lineno}"})
    finally:
        _torch_threads(threads)
    result.seconds = time.perf_counter() - t0
    return result


def _torch_threads(n: int | None) -> int | None:
    """Set torch's intra-op threads to ``n`` (if torch is importable); return the old value."""
    if n is None:
        return None
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a dependency
        return None
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
    """0 when no claim FAILed or ERRORed (SKIPs allowed), else 1."""
    return 1 if any(r.status in ("FAIL", "ERROR") for _, r in results) else 0


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
    counts = {s: sum(r.status == s for _, r in results) for s in STATUSES}
    tally = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
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
        lines.append(f"{len(results)} claims: {tally}")
        return "\n".join(lines)
    if fmt == "md":
        lines = [f"# {header or 'Claims verified by wltools'}", ""]
        if meta:
            lines += [f"- {k}: `{v}`" for k, v in meta.items()] + [""]
        lines += ["| id | status | source | method | seconds |", "|---|---|---|---|---|"]
        for c, r in results:
            lines.append(f"| `{c.id}` | **{r.status}** | {c.source} | {c.method} | {r.seconds:.1f} |")
        lines += ["", f"{len(results)} claims: {tally}.", ""]
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
