"""A realised-expressivity claim checked from a BREC run directory (``brec_runner``).

``brec-run``: a model is never *reliably* beyond its theoretical class: every BREC pair the model
distinguishes with a passing reliability check is distinguished by the WL-family test that bounds
the model (its ``upper`` bound in ``brec_runner/configs/<model>.json``, read through
:func:`brec_runner.configs.theory_bound`, the definition the BREC report uses too). A violation means the model (or the run) is not what the
theory says: a non-invariant component, a leak of node identities, or a bug.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from ..errors import RunDirectoryError
from ._common import as_bool
from .registry import ClaimResult, register_claim, require

__all__ = ["check_brec_run", "read_run"]

def read_run(run_dir) -> tuple[dict, list[dict]]:
    """``(config, records)`` of a run directory: ``config.json`` and every ``results*.jsonl``
    (``brec_runner.rundir.read_results``). Raises :class:`RunDirectoryError` when unusable."""
    path = Path(run_dir)
    if not path.is_dir():
        raise RunDirectoryError(f"{path} is not a directory")
    cfg_path = path / "config.json"
    if not cfg_path.is_file():
        raise RunDirectoryError(f"{path} has no config.json (not a BREC run directory)")
    try:
        config = json.loads(cfg_path.read_text())
    except json.JSONDecodeError as exc:
        raise RunDirectoryError(f"{cfg_path} is not valid JSON ({exc})") from None
    read_results = require("brec_runner.rundir", "read_results")
    files = sorted(path.glob("results*.jsonl"))
    if not files:
        raise RunDirectoryError(f"{path} has no results*.jsonl")
    records = [r for f in files for r in read_results(f)]
    for i, r in enumerate(records):
        missing = [k for k in ("id", "distinguished", "reliable") if k not in r]
        if missing:
            raise RunDirectoryError(f"{path}: result record {i + 1} lacks {', '.join(missing)}")
    return config, records


@register_claim(
    "brec-run",
    statement=("A model run on BREC is never reliably beyond its theoretical class: every pair it "
               "distinguishes with a passing reliability check, its bounding WL test distinguishes."),
    source="BREC RPC protocol (data/brec/README.md) with the bounds of PPGT App. E.1, GRIT Sec. 3.2, "
           "Zhang et al. 2023b Sec. 4",
    method="run",
    params=("run_dir",),
)
def check_brec_run(*, run_dir=None, test: str | None = None,
                   theory: Callable | None = None) -> ClaimResult:
    """Compare a run's results with theory.

    Parameters
    ----------
    run_dir : path, optional
        A ``wltools brec run`` output directory; without one the claim is SKIPped.
    test : str, optional
        The bounding test; default: the model's upper bound from
        :func:`brec_runner.configs.theory_bound` (with the RRWP step count of the model's own
        encoding).
    theory : callable, optional
        ``theory(test, ids) -> {id: bool}``; default ``brec_runner.theory.theory_verdicts``.
    """
    if run_dir is None:
        return ClaimResult("SKIP", "no run directory given (use --run-dir DIR)")
    config, records = read_run(run_dir)
    model = config.get("model")
    reason = "given"
    theory_bound = require("brec_runner.configs", "theory_bound")
    bound = theory_bound(config)
    reason = "given"
    if test is None:
        if not bound["upper"]:
            return ClaimResult("SKIP", f"no theoretical class known for model {model!r}",
                               {"model": model})
        test, reason = bound["upper"], bound["class"] or f"brec_runner/configs/{model}.json"
    ids = sorted({int(r["id"]) for r in records})
    rrwp_steps = bound["rrwp_steps"] if test == "rrwp" else None
    if test == "rrwp" and rrwp_steps is None:
        return ClaimResult("SKIP", f"model {model!r} has no RRWP encoding to take K from",
                           {"model": model})
    if theory is None:
        theory_verdicts = require("brec_runner.theory", "theory_verdicts")
        raw = theory_verdicts([test], rrwp_steps=rrwp_steps, ids=ids)
        verdicts = {pid: as_bool(raw[pid][test]) for pid in ids}
    else:
        verdicts = theory(test, ids)
    reliable_hits = [r for r in records if r["distinguished"] and r["reliable"]]
    beyond = sorted({int(r["id"]) for r in reliable_hits if not verdicts[int(r["id"])]})
    unreliable = sum(1 for r in records if not r["reliable"])
    ev = {"run_dir": str(run_dir), "model": model, "bounding test": test, "why": reason,
          "rrwp steps K of the bound": rrwp_steps,
          "records": len(records), "pairs": len(ids),
          "reliably distinguished records": len(reliable_hits),
          "reliability failures": unreliable,
          f"pairs {test} distinguishes": sum(verdicts[i] for i in ids),
          "pairs reliably beyond the class": beyond}
    if beyond:
        rec = next(r for r in reliable_hits if int(r["id"]) == beyond[0])
        return ClaimResult(
            "FAIL", f"{model} reliably distinguishes {len(beyond)} pairs that {test} does not",
            ev, witness=f"BREC pair {beyond[0]}: run record {json.dumps(rec, sort_keys=True)}; "
                        f"{test} verdict: not distinguished")
    return ClaimResult(
        "PASS",
        f"{model}: {len({int(r['id']) for r in reliable_hits})} pairs reliably distinguished, all "
        f"within {test} ({sum(verdicts[i] for i in ids)} of {len(ids)} run pairs); "
        f"{unreliable} records failed the reliability check.",
        ev)
