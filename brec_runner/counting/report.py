r"""``wltools count report``: realised counting error beside what the model's class can count.

Per model, task and level: the test *normalised MAE* (MAE divided by the standard deviation of the
task's targets at that level over the dataset; GNN-AK, Zhao et al. ICLR 2022, Sec. 5 / code
``y / y.std(0)``; I²-GNN, Huang et al. ICLR 2023, Sec. 6.1; Zhang et al. ICLR 2024, Sec. 6),
mean ± std over seeds (sample std, ``ddof=1``; the mean alone for one seed), each unit identity
(settings, declared bound, task, level, seed) counted once however many runs hold it, beside the
theory's verdict for the model's declared bound (the ``upper`` test of its ``bound``): "can count" / "cannot count",
from ``wltools.hom.spasm.can_count(F, test, level)`` (a class counts F iff F's spasm lies in its
homomorphism-expressivity family; Zhang et al. 2024, Theorem 4.5); a homomorphism task hom(F, .)
is counted iff F itself lies in the family (Definition 3.1, Theorems 3.4-3.8). A test without a
known family says so, never a guess.

Flags (our thresholds, in the gap between the two groups of Zhang et al.'s Table 1):

* ``cannot count, near-zero error``: the class cannot count F yet the error is below
  :data:`NEAR_ZERO` (a model that is not permutation invariant, or a wrong bound).
* ``can count, unrealised``: the class can count F but the error is above :data:`UNREALISED`
  (training budget, optimisation or architecture falls short of the class).
* ``model not permutation invariant``: the run's invariance probe (recorded in its config) found
  the model's outputs depending on the node order; the runs table says it for every run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

import numpy as np

__all__ = ["build_count_report", "format_count_report", "plot_count_report", "theory_verdict",
           "NEAR_ZERO", "UNREALISED"]

NEAR_ZERO = 0.01
UNREALISED = 0.1
#: The runs table's words for a run's invariance probe (None: made before count runs were probed).
_INVARIANT_TEXT = {True: "yes", False: "**no**", None: "not probed"}


def theory_verdict(task: str, level: str, test: str | None) -> tuple[str, str | None]:
    """``(verdict, witness)`` for counting ``task`` at ``level`` under the test ``test``.

    The verdict covers every rooted pattern the target sums
    (:meth:`wltools.counting.tasks.Task.target_roots`: at node level every vertex orbit, at edge
    level every oriented edge orbit): "can count" only when the class counts each; otherwise the
    first root it cannot count is named with the witness."""
    from wltools.counting.tasks import parse_task

    t = parse_task(task)
    if test is None:
        return "no declared bound", None
    roots = t.target_roots(level)
    for root in roots:
        verdict, witness = _rooted_verdict(t, level, test, root)
        if verdict != "can count":
            where = f", root {', '.join(map(str, root))}" if level != "graph" and len(roots) > 1 else ""
            return verdict, (f"{witness}{where}" if witness else (where.lstrip(", ") or None))
    return "can count", None


def _rooted_verdict(t, level: str, test: str, root: tuple) -> tuple[str, str | None]:
    """The verdict for the pattern of ``t`` rooted at ``root`` (a subgraph task by its spasm,
    ``wltools.hom.spasm.can_count``; a homomorphism task by the family itself)."""
    no_family = _no_family_verdict(test, level)
    if no_family is not None:
        return no_family, None
    if t.kind == "hom":  # hom(F, .) is counted iff F itself is in the family (Definition 3.1)
        return _hom_verdict(t.pattern, level, test, root)
    from wltools.hom.spasm import can_count

    try:
        ok, witness = can_count(t.pattern, test, level, root if level != "graph" else None)
    except Exception as exc:  # noqa: BLE001 - another module's refusal is shown, not raised
        return f"theory unavailable ({type(exc).__name__}: {' '.join(str(exc).split())})", None
    if witness is not None:  # the homomorphic image outside the family, as graph6
        from wltools.hom.pattern_names import with_name
        from wltools.hom.patterns import graph6

        witness = with_name(graph6(witness), witness) if hasattr(witness, "edges") else str(witness)
    return ("can count" if bool(ok) else "cannot count"), witness


def _hom_verdict(F, level: str, test: str, roots: tuple) -> tuple[str, str | None]:
    """A class counts ``hom(F, .)`` at ``level`` (roots: pattern vertex 0, and 1 at edge level, as
    the targets are computed in :mod:`wltools.counting.data`) exactly when the rooted F lies in its
    homomorphism-expressivity family (Zhang et al. ICLR 2024, Definition 3.1 and Theorems
    3.4-3.8): :func:`wltools.hom.families.family_of`."""
    from wltools.hom.families import family_of

    return ("can count" if family_of(test, level).contains(F, tuple(roots)) else "cannot count"), None


def _no_family_verdict(test: str, level: str) -> str | None:
    """The whole cell for a test without a homomorphism family at ``level``, the reason in full
    (:func:`wltools.hom.families.no_family_reason`), e.g. "no known homomorphism family for spd at
    graph level: ..."; None when the test has one."""
    from wltools.hom.families import no_family_reason

    reason = no_family_reason(test, level)
    return None if reason is None else f"no known homomorphism family for {test} at {level} level: {reason}"


def _flag(verdict: str, mean: float, invariant: bool | None = None) -> str:
    flags = ["model not permutation invariant"] if invariant is False else []
    if verdict == "cannot count" and mean < NEAR_ZERO:
        flags.append("cannot count, near-zero error")
    if verdict == "can count" and mean > UNREALISED:
        flags.append("can count, unrealised")
    return "; ".join(flags)


def invariance_of(cfg: dict) -> bool | None:
    """The run's recorded invariance probe: True, False, or None (a run made before count runs
    were probed)."""
    probe = cfg.get("invariance")
    return bool(probe["invariant"]) if isinstance(probe, dict) and "invariant" in probe else None


def _setting(cfg: dict) -> str:
    """A run's training setting in a few words (epochs, batch, early stop, limit, a device other than
    the CPU) and its settings hash, so rows of different protocols or devices are never merged."""
    p = cfg.get("protocol") or {}
    words = [f"{p.get('epochs')} ep", f"batch {p.get('batch_size')}", f"lr {p.get('lr')}"]
    words += [f"early stop {p['early_stop']}"] if p.get("early_stop") else []
    words += [f"first {p['limit']} per split"] if p.get("limit") else []
    words += [f"on {cfg['device_type']}"] if cfg.get("device_type", "cpu") != "cpu" else []  # GPU seeds apart
    return f"{', '.join(words)} [{str(cfg.get('settings_hash'))[:8]}]"


def _run_summary(path, cfg: dict, records: list[dict]) -> dict[str, Any]:
    env = cfg.get("environment") or {}
    return {"dir": str(path), "model": cfg.get("model"), "bound": (cfg.get("bound") or {}).get("upper"),
            "protocol": {k: v for k, v in (cfg.get("protocol") or {}).items() if k != "sources"},
            "seeds": cfg.get("seeds"), "units": len(records), "invariant": invariance_of(cfg), "wall_s": round(sum(r["wall_s"] for r in records), 1),
            "hardware": env.get("hardware"), "versions": env.get("versions"), "git_revision": env.get("git_revision")}


def _distinct_dirs(run_dirs: Sequence, duplicates: list[str]) -> list:
    """``run_dirs`` with a directory given twice (the same path, or a link to it) kept once."""
    seen, out = set(), []
    for d in run_dirs:
        real = Path(d).resolve()
        if real in seen:
            duplicates.append(f"{d}: given twice, read once")
            continue
        seen.add(real)
        out.append(d)
    return out


def build_count_report(run_dirs: Sequence, *, skip_bad: bool = False) -> dict[str, Any]:
    """Read and check every run directory; one row per (model, settings, bound, task, level).

    Each unit identity (:func:`brec_runner.counting.run.unit_identity`: settings hash, declared
    bound, task, level, seed) is counted once across all the runs: a copy is dropped and listed
    in ``duplicates``, two different results for one identity are refused
    (:func:`brec_runner.counting.run.merge_units`)."""
    from .predictions import stores_predictions
    from .run import merge_units, read_count_run, unit_identity

    runs, bad, duplicates, entries, settings = [], [], [], [], {}
    for d in _distinct_dirs(run_dirs, duplicates):
        cfg, records, b = read_count_run(d, skip_bad=skip_bad, duplicates=duplicates)
        bad += b
        runs.append(_run_summary(d, cfg, records))
        settings[cfg["settings_hash"]] = (cfg["model"], _setting(cfg))
        marks = {"verified": stores_predictions(cfg), "invariant": invariance_of(cfg)}
        entries += [(unit_identity(cfg, r), {**r, **marks}, str(d)) for r in records]
    groups: dict[tuple, list[dict]] = {}
    for (hash_, bound, task, level, _), rec, _ in merge_units(entries, duplicates):
        groups.setdefault((hash_, bound, task, level), []).append(rec)
    rows = [_row(*settings[hash_], json.loads(bound), task, level, recs)
            for (hash_, bound, task, level), recs in groups.items()]
    rows.sort(key=lambda r: tuple(map(str, (r["model"], r["setting"], r["bound"], r["task"], r["level"]))))
    return {"rows": rows, "runs": runs, "bad": bad, "duplicates": duplicates,
            "thresholds": {"near_zero": NEAR_ZERO, "unrealised": UNREALISED}}


def _row(model: str, setting: str, bound_cfg, task: str, level: str, recs: list[dict]) -> dict[str, Any]:
    """One report row: mean over the seeds and the sample std (None for one seed, never a 0 that
    reads as a measured spread)."""
    bound = (bound_cfg or {}).get("upper")
    vals = np.array([r["test_nmae"] for r in recs], dtype=float)
    mean = float(vals.mean())
    verdict, witness = theory_verdict(task, level, bound)
    return {"model": model, "setting": setting, "bound": bound, "task": task, "level": level,
            "seeds": sorted(r["seed"] for r in recs), "test_nmae_mean": mean,
            "test_nmae_std": float(vals.std(ddof=1)) if len(vals) > 1 else None,
            "test_mae_mean": float(np.mean([r["test_mae"] for r in recs])),
            "theory": verdict, "witness": witness,
            "flag": _flag(verdict, mean, False if any(r["invariant"] is False for r in recs) else None),
            "recomputed": all(r["verified"] for r in recs)}


def _spread(row: dict[str, Any]) -> str:
    """``mean ± std``, or the mean alone for one seed; † where the errors are read as recorded."""
    std = row["test_nmae_std"]
    return (f"{row['test_nmae_mean']:.4f}" + ("" if std is None else f" ± {std:.4f}")
            + ("" if row["recomputed"] else " †"))


def _markdown(report: dict[str, Any]) -> str:
    lines = ["# Counting power realised", "",
             "Test normalised MAE (MAE / std of the targets at that level), mean ± std over seeds, beside the "
             "theory's verdict for the model's declared bound. Flags: near-zero error where the class cannot count "
             f"(< {NEAR_ZERO}), or error above {UNREALISED} where it can.", "",
             "| model | setting | bound | task | level | test nMAE | seeds | theory | flag |",
             "|---|---|---|---|---|---:|---|---|---|"]
    for r in report["rows"]:
        theory = r["theory"] + (f" (witness {r['witness']})" if r["witness"] else "")
        lines.append(f"| {r['model']} | {r['setting']} | {r['bound'] or '-'} | {r['task']} | {r['level']} | "
                     f"{_spread(r)} | {len(r['seeds'])} | {theory} | "
                     f"{r['flag'] or '-'} |")
    if not all(r["recomputed"] for r in report["rows"]):
        lines += ["", "† recorded before count records stored their test predictions: the error is read as "
                  "recorded, not recomputed from predictions and targets on this read."]
    lines += ["", "## Runs", "",
              "| run | model | epochs | early stop | units | permutation invariant | wall time (s) | hardware |",
              "|---|---|---:|---:|---:|---|---:|---|"]
    for run in report["runs"]:
        p, hw = run["protocol"], run.get("hardware") or {}
        hw_text = ", ".join(f"{k} {v}" for k, v in hw.items()) if isinstance(hw, dict) else str(hw)
        lines.append(f"| {run['dir']} | {run['model']} | {p.get('epochs')} | {p.get('early_stop')} | {run['units']} | "
                     f"{_INVARIANT_TEXT[run['invariant']]} | "
                     f"{run['wall_s']} | {hw_text} |")
    if report["bad"]:
        lines += ["", f"{len(report['bad'])} bad results line(s) skipped:"] + [f"- {b}" for b in report["bad"]]
    if report.get("duplicates"):
        lines += ["", f"{len(report['duplicates'])} duplicate(s) dropped (each seed is counted once):"]
        lines += [f"- {d}" for d in report["duplicates"]]
    return "\n".join(lines) + "\n"


def _html(report: dict[str, Any]) -> str:
    """One self-contained page: the Markdown report's text and tables and the chart, inlined
    (the BREC report's page machinery, :mod:`brec_runner.reports.html_page`)."""
    import tempfile

    from ..reports.html_page import html_page, markdown_to_html, png_tag

    body = markdown_to_html(_markdown(report))
    if report["rows"]:
        with tempfile.TemporaryDirectory() as d:
            png = plot_count_report(report, Path(d) / "chart.png").read_bytes()
        body += "\n<h2>Chart</h2>\n" + png_tag(png, "test normalised MAE per task and level")
    return html_page("Counting power realised", body)


def format_count_report(report: dict[str, Any], fmt: str = "md") -> str:
    """The report as Markdown (``md``), JSON, CSV (one line per row) or a self-contained HTML page."""
    if fmt == "html":
        return _html(report)
    if fmt == "json":
        return json.dumps(report, indent=2, sort_keys=True) + "\n"
    if fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        keys = ["model", "setting", "bound", "task", "level", "test_nmae_mean", "test_nmae_std", "test_mae_mean", "seeds",
                "theory", "witness", "flag", "recomputed"]
        w = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
        w.writeheader()
        for r in report["rows"]:
            w.writerow({**{k: r[k] for k in keys}, "seeds": " ".join(map(str, r["seeds"]))})
        return buf.getvalue()
    return _markdown(report)


def plot_count_report(report: dict[str, Any], path) -> Path:
    """A bar chart (log scale) of the test normalised MAE per (task, level), one bar per model,
    error bars one std, hatched where the theory says the class cannot count; written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..records.fileio import atomic_path

    rows = report["rows"]
    cols = sorted({(r["task"], r["level"]) for r in rows})
    series = sorted({(str(r["model"]), r["setting"]) for r in rows})  # one bar per model and setting
    fig, ax = plt.subplots(figsize=(max(6.0, 0.6 * len(cols) * max(1, len(series))), 4.5))
    width = 0.8 / max(1, len(series))
    for k, key in enumerate(series):
        mine = [r for r in rows if (str(r["model"]), r["setting"]) == key]
        for j, r in enumerate(mine):
            ax.bar(cols.index((r["task"], r["level"])) + k * width, max(r["test_nmae_mean"], 1e-4), width,
                   yerr=r["test_nmae_std"] or 0.0, color=f"C{k}", hatch="//" if r["theory"] == "cannot count" else None,
                   label=f"{key[0]} ({key[1].split(' [')[0]})" if j == 0 else None)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(cols))], [f"{t}\n{lv}" for t, lv in cols], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("test normalised MAE")
    ax.legend(fontsize=7)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=Path(path).suffix.lstrip(".") or "png")
    plt.close(fig)
    return Path(path)
