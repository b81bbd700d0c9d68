"""Formatting a BREC report dict (:func:`brec_runner.reports.report.build_report`): Markdown, JSON and CSV
(:func:`format_report`) and the bar chart (:func:`plot_report`).

Apart from :mod:`brec_runner.reports.report`, which builds the dict, so that both the report and its HTML
page (:mod:`brec_runner.reports.html_page`) import the formatting and neither imports the other's
caller: the imports between these modules go one way (report -> report_html -> report_format).
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

from .separations import separation_lines

__all__ = ["format_report", "plot_report", "published_note", "units_text", "REGULAR_PUBLISHED_NOTE",
           "BEYOND_BOUND_HEADING"]

BEYOND_BOUND_HEADING = ("separated beyond the declared bound: either the model is not permutation invariant "
                        "or its declared bound is wrong")


REGULAR_PUBLISHED_NOTE = ("published counts are for the paper configuration on all pairs of a category; published "
                          "'Regular' is Regular(140) = ids 60-159 plus 4-vertex and distance-regular (360-399), so "
                          "compare it with the sum of those three rows")


_RELABEL_TEXT = {"distinct-redraw-v2": "pairwise distinct (re-drawn as the reference)",
                 "plain-v1": "not checked distinct (runs before the reference's re-draw)"}


def units_text(units: Sequence) -> str:
    """``(pair, seed)`` units compactly: pair ranges per seed, e.g. ``6-11 (seed 1)``."""
    by_seed: dict[int, list[int]] = defaultdict(list)
    for pid, seed in sorted(units, key=lambda u: (u[1], u[0])):
        by_seed[seed].append(pid)
    return "; ".join(f"{_ids(ids)} (seed {seed})" for seed, ids in by_seed.items()) or "none"


def _training_line(rep: dict[str, Any]) -> list[str]:
    """The Markdown line on early stopping (nothing for report dicts of older versions)."""
    t = rep.get("training")
    if not t:
        return []
    trained = f"Epochs trained per unit: {t['min']} to {t['max']} (median {t['median']})"
    if t["stopped_early"] is None:
        return [f"{trained}.", ""]
    threshold = t.get("loss_threshold")
    if isinstance(threshold, (int, float)) and threshold <= 0:  # the loss is never below 0
        return [f"{trained} of {t['protocol_epochs']}; early stopping off (the protocol's loss threshold "
                f"is {threshold:g}).", ""]
    return [f"{trained} of {t['protocol_epochs']}; {t['stopped_early']} of {t['units']} units stopped early "
            f"(epoch loss below the protocol's loss threshold{'' if threshold is None else f' {threshold:g}'}).",
            ""]


def published_note(config: dict, published: dict | None) -> str | None:
    """The caveat of the published counts: the model config's own note (e.g. the pairs the
    reference run evaluated), current for a built-in model, else the Regular(140) note."""
    if not published:
        return None
    from ..configs import published_counts

    current = published_counts(config.get("model")) if config.get("model_kind", "built-in") == "built-in" else None
    return (current or {}).get("note") or published.get("note") or REGULAR_PUBLISHED_NOTE


def _fmt_spread(s: dict | None, row: dict | None = None, key: str = "") -> str:
    if s is None:  # no pair run by every seed: each seed's own count
        return ", ".join(f"{p[key]} (seed {p['seed']})" for p in (row or {}).get("per_seed") or []) or "—"
    if s["min"] == s["max"]:
        return f"{s['mean']:g}"
    return f"{s['mean']:.1f} ± {s['std']:.1f} [{s['min']}-{s['max']}]"


def _na(v) -> str:
    return "—" if v is None else str(v)


def format_report(rep: dict[str, Any], fmt: str = "md") -> str:
    """The report as Markdown, JSON or CSV (one row per category)."""
    if fmt == "json":
        return json.dumps(rep, indent=2, sort_keys=True) + "\n"
    if fmt == "csv":
        return _format_csv(rep)
    if fmt != "md":
        raise ValueError(f"unknown format {fmt!r}")
    th = rep["theory"]
    if th["upper"] is None:
        bound = "no bound declared"
    elif th["lower"] in (None, th["upper"]):
        bound = th["upper"]
    else:
        bound = f"{th['lower']} .. {th['upper']}"
    if th.get("rrwp_steps"):
        bound += f" (RRWP K={th['rrwp_steps']})"
    lines = _md_head(rep, th, bound) + _md_table(rep, th, bound)
    if rep.get("published_note"):
        lines += ["", f"Note: {rep['published_note']}."]
    lines += _md_pairs(rep["pairs_by_class"])
    return "\n".join(lines + separation_lines(rep.get("separations") or [], th["upper"], rep["seeds"]))


def _format_csv(rep: dict[str, Any]) -> str:
    """One CSV row per category."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["category", "pairs", "distinguished_mean", "distinguished_std", "distinguished_min",
                "distinguished_max", "reliability_failures_mean", "real_correct_mean",
                "theory_lower", "theory_upper", "3wl", "published",
                "units_selected", "units_recorded", "units_failed", "units_missing", "unfinished",
                "spread_over", "failed_units", "missing_units"])
    for r in rep["categories"]:
        d = r["distinguished"] or {}
        units = r.get("units") or {}
        w.writerow([r["category"], r["pairs"], _na(d.get("mean")), _na(d.get("std")), _na(d.get("min")),
                    _na(d.get("max")), _na((r["reliability_failures"] or {}).get("mean")),
                    _na((r["real_correct"] or {}).get("mean")),
                    _na(r["theory_lower"]), _na(r["theory_upper"]), _na(r["3wl"]), _na(r["published"]),
                    _na(units.get("selected")), _na(units.get("recorded")), _na(units.get("failed")),
                    _na(units.get("missing")), str(bool(units.get("failed") or units.get("missing"))).lower(),
                    r.get("spread_over", "all"), units_text(r.get("failed_units") or []),
                    units_text(r.get("missing_units") or [])])
    return buf.getvalue()


def duplicates_line(count: int) -> str:
    """The one line that says ``count`` duplicate (pair, seed) units were counted once."""
    return (f"{count} (pair, seed) unit(s) recorded more than once (overlapping shards, a copied run directory, "
            "or two directories of one seed) were counted once")


def _md_head(rep: dict[str, Any], th: dict, bound: str) -> list[str]:
    """Title, settings, coverage, early stopping, skipped lines and the invariance probe."""
    title = rep["model"] + (f" (preset {rep['preset']})" if rep.get("preset") else "")
    lines = [f"# {'suite ' + rep['suite'] if rep.get('suite') else 'BREC'}: {title}", "",
             f"Seeds {', '.join(map(str, rep['seeds']))}; {rep['pairs']} pairs, {rep['records']} (pair, seed) "
             f"results; device {rep['device']}; T² threshold {rep['protocol']['threshold']:g}"
             f" ({rep['protocol'].get('threshold_rule', 'exact')}); relabelled copies: "
             f"{_RELABEL_TEXT.get(rep.get('relabel_rule'), rep.get('relabel_rule'))}; settings "
             f"{rep.get('settings_hash')}, code {', '.join(rep.get('code_versions') or [])}.",
             f"Theoretical class: {th.get('class') or bound}" + (f". Note: {th['note']}" if th.get("note") else "."),
             ""]
    lines += _coverage_lines(rep) + _training_line(rep)
    skipped = rep.get("skipped_lines") or []
    if skipped:
        lines += [f"**{len(skipped)} results line(s) skipped as untrustworthy** (--skip-bad); the counts below "
                  "leave them out:", ""] + [f"- {b}" for b in skipped[:20]] + (
                  [f"- ... and {len(skipped) - 20} more"] if len(skipped) > 20 else []) + [""]
    if rep.get("duplicate_units"):
        lines += [duplicates_line(rep["duplicate_units"]), ""]
    inv = rep.get("invariance")
    if inv and not inv["invariant"]:
        lines += [f"**Not permutation invariant**: on {inv['copies']} relabelled copies of pair {inv.get('pair')}'s G "
                  f"the outputs differ by up to {inv['max_abs_diff']:.3g} (eval mode, before training); separations "
                  "beyond the declared bound are then no evidence of expressive power.", ""]
    elif inv:
        lines += [f"Permutation invariance probe: outputs of {inv['copies']} relabelled copies agree "
                  f"(max difference {inv['max_abs_diff']:.2g}).", ""]
    if not th["computed"]:
        lines += ["(theoretical verdicts not computed)", ""]
    return lines


def _md_table(rep: dict[str, Any], th: dict, bound: str) -> list[str]:
    """The table of categories."""
    lines = []
    header = ["category", "pairs", "distinguished", "reliability failures", "real correct (BREC)",
              f"theory ({bound})", "3-WL"]
    if rep.get("published_source"):
        header.append(f"published ({rep['published_source']})")
    if rep.get("unfinished"):
        header.append("units with results / selected")
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rep["categories"]:
        theory_cell = _na(r["theory_upper"]) if th["lower"] in (None, th["upper"]) else \
            f"{_na(r['theory_lower'])} .. {_na(r['theory_upper'])}"
        cells = [r["category"], r["pairs"], _fmt_spread(r["distinguished"], r, "distinguished"),
                 _fmt_spread(r["reliability_failures"], r, "reliability_failures"),
                 _fmt_spread(r["real_correct"], r, "real_correct"), theory_cell, _na(r["3wl"])]
        if rep.get("published_source"):
            cells.append(_na(r["published"]))
        if rep.get("unfinished"):
            u = r.get("units") or {}
            extra = ", ".join(f"{u[k]} {k}" for k in ("failed", "missing") if u.get(k))
            cells.append(f"{u.get('recorded')} / {u.get('selected')}" + (f" ({extra})" if extra else ""))
        lines.append("| " + " | ".join(map(str, cells)) + " |")
    return lines


def _md_pairs(pc: dict[str, Any]) -> list[str]:
    """The pairs by class."""
    return ["", "## Pairs by class", "",
            f"- realised and allowed ({len(pc['realised_and_allowed'])}): {_ids(pc['realised_and_allowed'])}",
            f"- realised in some seeds only ({len(pc['realised_in_some_seeds_only'])}): "
            + (", ".join(f"{p['id']} (seeds {p['seeds']})" for p in pc["realised_in_some_seeds_only"]) or "none"),
            f"- unrealised, theory separates ({len(pc['unrealised'])}): {_ids(pc['unrealised'])}",
            f"- {BEYOND_BOUND_HEADING} ({len(pc['beyond_theory'])}): "
            + (", ".join(f"{p['id']} ({p['category']}, seeds {p['seeds']})" for p in pc["beyond_theory"]) or "none"),
            f"- reliability failures ({len(pc['reliability_failures'])}): "
            + (", ".join(f"{p['id']} (seed {p['seed']}, T² {p['t2_reliability']:.3g})"
                         for p in pc["reliability_failures"]) or "none"), ""]


def _coverage_lines(rep: dict[str, Any]) -> list[str]:
    """What the report stands on: selected units with results, failed and missing units (the run
    is unfinished), failure-log lines left out, and seeds that cover different pairs."""
    sel = rep.get("selection")
    if sel is None:  # a report dict of an older version
        return []
    lines: list[str] = []
    failed, missing = rep.get("failed_units") or [], rep.get("missing_units") or []
    if not rep.get("unfinished"):
        lines += [f"All {sel['units']} selected (pair, seed) units have results.", ""]
    else:
        lines += [f"**Unfinished run**: {rep['records']} of {sel['units']} selected (pair, seed) units have results; "
                  f"{len(failed)} failed (listed below, from failures.jsonl), {len(missing)} missing (not run yet or "
                  "interrupted). "
                  "The counts below stand on the units with results; run the same command again to retry and "
                  "complete it.", ""]
        if failed:
            lines += [f"- failed ({len(failed)}): " + "; ".join(
                f"pair {f['id']} seed {f['seed']}" + (f" ({f['stage']})" if f.get("stage") else "") + f": {f['error']}"
                for f in failed[:20]) + (f"; ... and {len(failed) - 20} more" if len(failed) > 20 else "")]
        if missing:
            lines += [f"- missing ({len(missing)}): {units_text(missing)}"]
        lines += [""]
    bad = rep.get("failure_log_skipped") or []
    if bad:
        lines += [f"{len(bad)} line(s) of a failure log left out: {bad[0]}" + (" ..." if len(bad) > 1 else ""), ""]
    coverage = rep.get("seed_coverage") or []
    if coverage:
        lines += ["**Seeds cover different pairs**: a category's mean ± std over seeds stands only on the pairs "
                  "every seed ran (its pairs, theory and 3-WL counts too); each seed's counts over its own pairs:", ""]
        for c in coverage:
            head = (f"{c['common_pairs']} of {c['recorded_pairs']} pairs run by every seed" if c["common_pairs"] else
                    f"no pair of the {c['recorded_pairs']} run by every seed, so its counts are shown per seed")
            lines.append(f"- {c['category']}: {head}; " + "; ".join(
                f"seed {p['seed']}: {p['pairs']} pairs, {p['distinguished']} distinguished, "
                f"{p['reliability_failures']} reliability failures" for p in c["per_seed"]))
        lines += [""]
    return lines


def _ids(ids: list[int]) -> str:
    if not ids:
        return "none"
    runs, start, prev = [], ids[0], ids[0]
    for i in ids[1:] + [None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return ", ".join(runs)


def plot_report(rep: dict[str, Any], path) -> Path:
    """Bar chart per category: realised (mean ± std over seeds), theory bound, 3-WL, published."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in rep["categories"] if r["category"] != "total"]
    cats = [r["category"] for r in rows]
    series = [("realised (distinguished & reliable)",
               [(r["distinguished_and_reliable"] or {}).get("mean", 0) for r in rows],
               [(r["distinguished_and_reliable"] or {}).get("std", 0) for r in rows])]
    if rep["theory"]["computed"]:
        if rep["theory"]["upper"]:
            series.append((f"theory ({rep['theory']['upper']})", [r["theory_upper"] or 0 for r in rows], None))
        series.append(("3-WL", [r["3wl"] or 0 for r in rows], None))
    if rep.get("published_source"):
        series.append(("published", [r["published"] if r["published"] is not None else 0 for r in rows], None))
    series.append(("pairs", [r["pairs"] for r in rows], None))
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(cats)), 4))
    for j, (label, vals, err) in enumerate(series):
        xs = [i + (j - (len(series) - 1) / 2) * width for i in range(len(cats))]
        ax.bar(xs, vals, width, label=label, yerr=err, capsize=3 if err else 0)
    ax.set_xticks(range(len(cats)), cats)
    ax.set_ylabel("pairs")
    ax.set_title(f"BREC {rep['model']}" + (f" ({rep['preset']})" if rep.get("preset") else "")
                 + f", seeds {rep['seeds']}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
