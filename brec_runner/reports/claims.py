"""The BREC side of ``wltools claims``: the inputs the claims take, and the claim about a run.

:func:`claim_inputs` builds what :mod:`wltools.claims.inputs` describes (the BREC pairs, their
cached theory verdicts, the models' input graphs) from this package, for ``wltools claims
verify``. Importing this module registers ``brec-run`` with the :mod:`wltools.claims` registry.

``brec-run``: a model is never *reliably* beyond its theoretical class: every BREC pair the model
distinguishes with a passing reliability check is distinguished by the WL-family test that bounds
the model (its ``upper`` bound from :func:`brec_runner.configs.theory_bound`, the definition the
BREC report uses too). A violation means the model (or the run) is not what the theory says: a
non-invariant component, a leak of node identities, or a bug.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Iterable, Sequence

from wltools.claims import ClaimResult, register_claim
from wltools.claims.inputs import ids_text
from wltools.errors import RunDirectoryError, UnknownNameError

from ..configs import theory_bound
from ..records.record import read_run as read_checked, results_files

__all__ = ["claim_inputs", "theory_distinguished", "model_bounds", "read_run", "check_brec_run"]

#: The example models shipped in the repository's ``examples/`` (absent from an installed package).
EXAMPLES = ("gin.py:gin", "gin_rrwp.py:gin_rrwp", "gin_heat.py:gin_heat")


def theory_distinguished(test: str, ids: Sequence[int], rrwp_steps: int | None = None
                         ) -> dict[int, bool]:
    """``{id: distinguished}``: the cached theory verdicts of ``test`` on the BREC pairs ``ids``
    (:func:`brec_runner.reports.theory.theory_verdicts`, verdict-only: the claims read nothing else;
    ``rrwp_steps`` None: its default K). The ``theory_verdicts`` input of
    :mod:`wltools.claims.inputs`."""
    from .theory import theory_verdicts

    ids = [int(i) for i in ids]
    raw = theory_verdicts([test], rrwp_steps=rrwp_steps, ids=ids, verdict_only=True)
    return {pid: bool(raw[pid][test]["distinguished"]) for pid in ids}


def model_bounds() -> dict[str, str | None]:
    """``{model: declared upper bound}`` for the ``model_bounds`` claim input: every built-in model
    with a config (:mod:`brec_runner.configs`, ``theory.upper``) and the repository's example
    models (``examples/NAME.py:FACTORY``, their ``wl_bound``; skipped where the directory is
    absent, as in an installed package)."""
    from ..configs import config_names, model_info

    out: dict[str, str | None] = {name: model_info(name)["theory"].get("upper") for name in config_names()}
    root = Path(__file__).resolve().parents[2] / "examples"
    for spec in EXAMPLES:
        path, _, attr = spec.partition(":")
        if (root / path).is_file():
            from ..models.source import load_object

            factory = load_object(f"{root / path}:{attr}")
            out[f"examples/{spec}"] = getattr(factory, "wl_bound", None)
    return out


def claim_inputs(names: Iterable[str]) -> dict:
    """The inputs ``names`` (of :data:`wltools.claims.inputs.INPUTS`) built from BREC: ``pairs``
    (every pair, :func:`brec_runner.runs.dataset.load_pairs`), ``theory_verdicts``
    (:func:`theory_distinguished`), ``to_data`` (:func:`brec_runner.runs.dataset.to_pyg`)."""
    names = set(names)
    out: dict = {}
    if "pairs" in names or "to_data" in names:
        from ..runs.dataset import load_pairs, to_pyg

        if "pairs" in names:
            out["pairs"] = load_pairs()
        if "to_data" in names:
            out["to_data"] = to_pyg
    if "theory_verdicts" in names:
        out["theory_verdicts"] = theory_distinguished
    if "model_bounds" in names:
        out["model_bounds"] = model_bounds()
    unknown = names - {"pairs", "theory_verdicts", "to_data", "model_bounds"}
    if unknown:
        raise ValueError(f"no BREC input named {', '.join(sorted(unknown))}")
    return out


def read_run(run_dir) -> tuple[dict, list[dict]]:
    """``(config, records)`` of a run directory, every line checked
    (:func:`brec_runner.records.record.read_run`). Raises :class:`RunDirectoryError` when unusable."""
    run = read_checked(run_dir)
    if not results_files(run_dir):
        raise RunDirectoryError(f"{run_dir} has no results*.jsonl")
    for key in ("pairs", "seeds"):
        if not isinstance(run.config.get(key), list):
            raise RunDirectoryError(f"{Path(run_dir) / 'config.json'} lists no {key} (not written by a BREC run)")
    return run.config, run.records


def _unfinished(config: dict, records: list[dict]) -> tuple[int, list[tuple[int, int]]]:
    """``(number of planned (pair, seed) units, those without a record)``."""
    planned = {(int(p), int(s)) for p in config["pairs"] for s in config["seeds"]}
    done = {(int(r["id"]), int(r["seed"])) for r in records}
    return len(planned), sorted(planned - done)


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
                   theory_verdicts: Callable | None = None) -> ClaimResult:
    """Compare a run's results with theory.

    Parameters
    ----------
    run_dir : path, optional
        A ``wltools brec run`` output directory. Without one the claim is SKIPped (the only SKIP:
        the claim is about a run the user chose not to name). An unusable directory raises
        :class:`RunDirectoryError`.
    test : str, optional
        The bounding test; default: the model's upper bound from
        :func:`brec_runner.configs.theory_bound` (with the RRWP step count of the model's own
        encoding).
    theory_verdicts : callable, optional
        ``theory_verdicts(test, ids, rrwp_steps) -> {id: bool}``; default
        :func:`theory_distinguished`.

    ERROR (no verdict) when the model failed the permutation-invariance probe recorded in the
    run's config (its separations are no evidence about its class, beyond or within), the model
    has no known bound, the bound needs an RRWP step count the model does not have, the run is unfinished (a planned (pair, seed) unit of ``config.json``'s
    ``pairs`` x ``seeds`` has no record), or a theory verdict is missing.
    """
    if run_dir is None:
        return ClaimResult("SKIP", "no run directory given (use --run-dir DIR)")
    config, records = read_run(run_dir)
    model = config.get("model")
    try:
        bound = theory_bound(config)
    except UnknownNameError as exc:
        return ClaimResult("ERROR", f"no theoretical bound for model {model!r}: {exc}",
                           {"model": model})
    reason = "given"
    if test is None:
        if not bound or not bound.get("upper"):
            return ClaimResult("ERROR", f"no theoretical class known for model {model!r}, so the "
                               "run cannot be compared with theory", {"model": model})
        test = bound["upper"]
        reason = bound.get("class") or bound.get("source") or f"brec_runner/configs/{model}.json"
    rrwp_steps = (bound or {}).get("rrwp_steps") if test == "rrwp" else None
    if test == "rrwp" and rrwp_steps is None:
        return ClaimResult("ERROR", f"model {model!r} has no RRWP encoding to take K from",
                           {"model": model})
    inv = config.get("invariance")
    if isinstance(inv, dict) and inv.get("invariant") is False:
        return ClaimResult(
            "ERROR", f"{model} failed the permutation-invariance probe (outputs of {inv.get('copies')} relabelled "
            f"copies of pair {inv.get('pair')}'s G differ by up to {inv.get('max_abs_diff', float('nan')):.3g}): all "
            f"{len(records)} (pair, seed) units of the run are outside the theory the claim compares with, so "
            "neither PASS nor FAIL",
            {"run_dir": str(run_dir), "model": model, "invariance probe": inv,
             "units of a model that failed the invariance probe": len(records)})
    planned, unfinished = _unfinished(config, records)
    if unfinished:
        return ClaimResult(
            "ERROR", f"the run is unfinished: {len(unfinished)} of {planned} planned (pair, seed) "
            f"units have no result, so a PASS would rest on part of the run",
            {"run_dir": str(run_dir), "model": model,
             "unfinished units (first 10)": [list(u) for u in unfinished[:10]]})
    ids = sorted({int(r["id"]) for r in records})
    verdicts = (theory_verdicts or theory_distinguished)(test, ids, rrwp_steps)
    lacking = [i for i in ids if i not in verdicts]
    if lacking:
        return ClaimResult("ERROR", f"no {test} verdict for BREC pairs {ids_text(lacking)}",
                           {"run_dir": str(run_dir), "model": model, "bounding test": test})
    verdicts = {i: bool(verdicts[i]) for i in ids}
    reliable_hits = [r for r in records if r["distinguished"] and r["reliable"]]
    beyond = sorted({int(r["id"]) for r in reliable_hits if not verdicts[int(r["id"])]})
    unreliable = sum(1 for r in records if not r["reliable"])
    ev = {"run_dir": str(run_dir), "model": model, "bounding test": test, "why": reason,
          "rrwp steps K of the bound": rrwp_steps,
          "records": len(records), "pairs": len(ids),
          "planned (pair, seed) units": planned,
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
