"""Formatting a comparison of runs (:func:`brec_runner.reports.compare.compare_runs`): Markdown, CSV, JSON,
LaTeX (booktabs), HTML (:func:`format_comparison`) and a grouped bar figure (:func:`plot_comparison`).

A cell reads ``realised / bound / 3-WL``: the pairs the model distinguished with a passing
reliability check (BREC Sec. 4; mean ± population std over seeds where they differ), the pairs its
declared bound separates and the pairs 3-WL separates, on the pairs the run covers.
"""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path
from typing import Any

__all__ = ["FORMATS", "format_comparison", "plot_comparison", "bound_text", "realised_text", "cell_text",
           "device_words"]

#: The formats of :func:`format_comparison`.
FORMATS = ("md", "csv", "json", "latex", "html")

_CSV_FIELDS = ("pairs", "realised_mean", "realised_std", "reliability_failures", "theory_lower", "theory_upper", "3wl")


def bound_text(bound: dict[str, Any]) -> str:
    """The declared bound: ``spd``, ``1wl .. 3wl``, ``rrwp (K=21)``, or ``none declared``.

    Examples
    --------
    >>> bound_text({"lower": "1wl", "upper": "3wl", "rrwp_steps": None})
    '1wl .. 3wl'
    >>> bound_text({"lower": "rrwp", "upper": "rrwp", "rrwp_steps": 21})
    'rrwp (K=21)'
    """
    lower, upper = bound.get("lower"), bound.get("upper")
    if not upper:
        return "none declared"
    text = upper if lower in (None, upper) else f"{lower} .. {upper}"
    return text + (f" (K={bound['rrwp_steps']})" if bound.get("rrwp_steps") else "")


def _number(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.1f}"


def realised_text(cell: dict[str, Any], pm: str = "±") -> str:
    """The realised count: one number when every seed agrees, else ``mean ± std``; per seed where
    the seeds share no pair.

    Examples
    --------
    >>> realised_text({"realised": {"mean": 84.0, "std": 2.16, "min": 82, "max": 87}})
    '84.0 ± 2.2'
    >>> realised_text({"realised": None, "per_seed": [{"seed": 0, "realised": 3}, {"seed": 1, "realised": 4}]})
    '3 (seed 0), 4 (seed 1)'
    """
    s = cell.get("realised")
    if s is None:
        return ", ".join(f"{p['realised']} (seed {p['seed']})" for p in cell.get("per_seed") or []) or "—"
    if s["min"] == s["max"]:
        return _number(s["mean"])
    return f"{s['mean']:.1f} {pm} {s['std']:.1f}"


def _theory(cell: dict[str, Any]) -> str:
    lo, up = cell.get("theory_lower"), cell.get("theory_upper")
    if up is None:
        return "—"
    return str(up) if lo in (None, up) else f"{lo}..{up}"


def cell_text(cell: dict[str, Any] | None, size: int | None, pm: str = "±") -> str:
    """``realised / bound / 3-WL``, with ``(N pairs)`` where the run covers fewer pairs than the column
    holds (``size``; always where the size is not known); empty when the row has no such column or
    none of its units there has a result yet (an unfinished run: the row says so)."""
    if cell is None or cell["pairs"] == 0:
        return ""
    three = "—" if cell.get("3wl") is None else str(cell["3wl"])
    text = f"{realised_text(cell, pm)} / {_theory(cell)} / {three}"
    n = cell["pairs"]
    return text + (f" ({n} pair{'' if n == 1 else 's'})" if size is None or n != size else "")


def _seeds(seeds: list[int]) -> str:
    if len(seeds) > 2 and seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"{seeds[0]}-{seeds[-1]}"
    return ", ".join(map(str, seeds))


def _model(row: dict[str, Any], label: bool = True) -> str:
    """The model cell: name, [preset], then its settings label (``label``) or, for a leaderboard
    row, its epochs and device; flags last."""
    text = row["model"] + (f" [{row['preset']}]" if row.get("preset") else "")
    text += (f": {row['label']}" if row.get("label") else "") if label else f" ({_run_text(row)})"
    text += " (not permutation invariant)" if row.get("not_invariant_units") else ""
    return text + (" (unfinished)" if row.get("unfinished") else "")


def not_invariant_text(row: dict[str, Any]) -> str:
    """``; **not permutation invariant**: ...`` for a row with units of a model that failed the
    invariance probe (their separations beyond the bound are no evidence of expressive power)."""
    n = row.get("not_invariant_units")
    if not n:
        return ""
    return (f"; **not permutation invariant**: {n} of its {row['units']['recorded']} (pair, seed) units come from a "
            f"model whose outputs on relabelled copies of one graph differ (by up to {row['not_invariant_max_diff']:.3g}; "
            "separations beyond its bound are no evidence of expressive power)")


def _header(cmp: dict[str, Any]) -> list[str]:
    return [c if cmp["sizes"].get(c) is None else f"{c} ({cmp['sizes'][c]})" for c in cmp["columns"]]


def _headline(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows a paper prints (one per model, ``headline``); all rows for comparisons made before
    rows were marked."""
    return [r for r in rows if r.get("headline", True)]


def device_words(device: str | None) -> str | None:
    """``cpu`` -> "on CPU", ``cuda`` / ``cuda:1`` -> "on GPU" (other devices by name)."""
    if not device:
        return None
    kind = str(device).split(":")[0]
    return "on " + {"cpu": "CPU", "cuda": "GPU"}.get(kind, kind)


def _run_text(row: dict[str, Any]) -> str:
    """Epochs and device of a headline row in words: ``200 epochs, GPU``."""
    parts = [f"{row['epochs']} epochs" if row.get("epochs") else None,
             (device_words(row.get("device")) or "").replace("on ", "")]
    return ", ".join(p for p in parts if p)


_CELL_TEXT = ("Each cell: realised / declared bound / 3-WL, i.e. the pairs the model distinguished with a passing "
              "reliability check (BREC's RPC; mean ± std over seeds where they differ), the pairs its declared "
              "bound separates and the pairs 3-WL separates, on the pairs the run covers (\"N pairs\" where that "
              "is not the whole column).")
_HEADLINE_TEXT = ("One row per model at BREC's reference protocol (BREC's reliability threshold 72.34, distinct "
                  "relabelled copies); where a model has several such runs, the one with its published "
                  "configuration and preset, then the most pairs, then the most seeds.")


def _table(cmp: dict[str, Any], rows: list[dict[str, Any]], first: str, first_cell) -> list[str]:
    header = [first, "bound", "seeds", *_header(cmp)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        cells = [cell_text(r["cells"].get(c), cmp["sizes"].get(c)) for c in cmp["columns"]]
        lines.append("| " + " | ".join([first_cell(r), bound_text(r["bound"]), _seeds(r["seeds"]), *cells]) + " |")
    return lines


def _markdown(cmp: dict[str, Any]) -> str:
    rows = cmp["rows"]
    headline = _headline(rows)
    variants = [r for r in rows if r not in headline]
    runs = sum(len(r["run_dirs"]) for r in rows)
    what = "suites" if cmp["kind"] == "suite" else "BREC"
    lines = [f"# {what} leaderboard", "",
             f"{runs} run director{'y' if runs == 1 else 'ies'} (`wltools " + ("suite" if cmp["kind"] == "suite" else "brec")
             + f" compare`): {len(headline)} model(s), {len(variants)} variant(s). " + _HEADLINE_TEXT
             + (" Runs of other settings are under Variants. " if variants else " ") + _CELL_TEXT, ""]
    if not cmp.get("theory"):
        lines += ["(theoretical verdicts not computed: the bound and 3-WL are shown as —)", ""]
    lines += _table(cmp, headline, "model", lambda r: _model(r, label=False))
    if variants:
        lines += ["", "## Variants", "", "Other runs, one row per model and settings, named by what differs from "
                  "the model's other runs.", ""]
        lines += _table(cmp, variants, "model: settings", _model)
    lines += ["", "## Runs", ""]
    for r in rows:
        u = r["units"]
        extra = (f"; **unfinished**: {u['recorded']} of {u['selected']} selected (pair, seed) units have results "
                 f"({u['failed']} failed, {u['missing']} missing; `wltools brec report` lists them)"
                 if r.get("unfinished") else "")
        skipped = f"; {len(r['skipped_lines'])} results line(s) skipped as untrustworthy" if r["skipped_lines"] else ""
        twice = (f"; {r['duplicate_units']} (pair, seed) unit(s) recorded more than once, counted once"
                 if r.get("duplicate_units") else "")
        row = "; the leaderboard's row" if variants and r in headline else ""
        lines.append(f"- {_model(r)}: " + ", ".join(f"`{d}`" for d in r["run_dirs"]) + row + extra + skipped + twice
                     + not_invariant_text(r))
    return "\n".join(lines) + "\n"


def _csv(cmp: dict[str, Any]) -> str:
    """One header; a row per model and settings; numbers only in the count columns, empty where
    the row has no such column or no value."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["model", "preset", "label", "bound_lower", "bound_upper", "rrwp_steps", "seeds", "unfinished",
                "not_invariant_units", "leaderboard_row"]
               + [f"{c}_{f}" for c in cmp["columns"] for f in _CSV_FIELDS])
    for r in cmp["rows"]:
        b = r["bound"]
        out = [r["model"], r.get("preset") or "", r["label"], b.get("lower") or "", b.get("upper") or "",
               b.get("rrwp_steps") or "", " ".join(map(str, r["seeds"])), int(bool(r["unfinished"])),
               r.get("not_invariant_units") or 0, int(bool(r.get("headline", True)))]
        for c in cmp["columns"]:
            cell = r["cells"].get(c) or {}
            s = cell.get("realised") or {}
            values = [cell.get("pairs"), s.get("mean"), s.get("std"), cell.get("reliability_failures"),
                      cell.get("theory_lower"), cell.get("theory_upper"), cell.get("3wl")]
            out += ["" if v is None else v for v in values]
        w.writerow(out)
    return buf.getvalue()


_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _tex(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (and ² as a superscript)."""
    return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in str(text)).replace("²", r"\textsuperscript{2}")


def _latex(cmp: dict[str, Any]) -> str:
    """A booktabs ``tabular`` (``\\usepackage{booktabs}``), ready to paste into a paper."""
    cols = cmp["columns"]
    rows = _headline(cmp["rows"])
    left = len(cmp["rows"]) - len(rows)
    lines = ["% wltools " + ("suite" if cmp["kind"] == "suite" else "brec") + " compare; needs \\usepackage{booktabs}.",
             "% One row per model at BREC's reference protocol"
             + (f"; {left} variant(s) left out (--format md, csv or json lists them)." if left else "."),
             "% Each cell: realised (distinguished with a passing reliability check; mean $\\pm$ std over seeds) / "
             "declared bound / 3-WL, on the pairs the run covers.",
             f"\\begin{{tabular}}{{lll{'r' * len(cols)}}}", "\\toprule",
             " & ".join(["Model", "Bound", "Seeds", *(_tex(h) for h in _header(cmp))]) + " \\\\", "\\midrule"]
    for r in rows:
        cells = [_tex(cell_text(r["cells"].get(c), cmp["sizes"].get(c), "PLUSMINUS")).replace("PLUSMINUS", "$\\pm$")
                 .replace("—", "--") for c in cols]
        lines.append(" & ".join([_tex(_model(r, label=False)), _tex(bound_text(r["bound"])), _tex(_seeds(r["seeds"])).replace("-", "--"),
                                 *cells]) + " \\\\")
    return "\n".join(lines + ["\\bottomrule", "\\end{tabular}"]) + "\n"


def _html(cmp: dict[str, Any]) -> str:
    """One self-contained page: the Markdown table through :func:`brec_runner.reports.html_page.markdown_to_html`."""
    from .html_page import markdown_to_html

    title = "suites leaderboard" if cmp["kind"] == "suite" else "BREC leaderboard"
    style = ("body{font-family:system-ui,sans-serif;margin:2em auto;max-width:90em;padding:0 1em}"
             "table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
             "td:first-child,th:first-child{text-align:left}th{background:#f0f3f7}")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n"
            + markdown_to_html(_markdown(cmp)) + "\n</body>\n</html>\n")


def format_comparison(cmp: dict[str, Any], fmt: str = "md") -> str:
    """The comparison as ``md``, ``csv``, ``json``, ``latex`` or ``html`` (:data:`FORMATS`)."""
    if fmt == "json":
        return json.dumps(cmp, indent=2, sort_keys=True) + "\n"
    writers = {"md": _markdown, "csv": _csv, "latex": _latex, "html": _html}
    if fmt not in writers:
        raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    return writers[fmt](cmp)


def plot_comparison(cmp: dict[str, Any], path) -> Path:
    """A grouped bar figure: per column (the total left out) one bar per row, its realised count
    (error bar: std over seeds), the declared bound's count as a black marker and 3-WL's as a grey
    one on each bar; the legend beside the axes, off the bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = [c for c in cmp["columns"] if c != "total"] or list(cmp["columns"])
    rows = cmp["rows"]
    width = 0.8 / max(1, len(rows))
    fig_width = min(20.0, max(7.0, 3 + 0.22 * len(cols) * len(rows)))
    bar_points = 0.75 * fig_width * 72 / len(cols) * width  # a bar's width in points: the markers' length
    fig, ax = plt.subplots(figsize=(fig_width, 4.5))
    for j, r in enumerate(rows):
        xs, ys, errs, th, three = [], [], [], [], []
        for i, c in enumerate(cols):
            cell = r["cells"].get(c)
            if not cell:
                continue
            s = cell.get("realised") or {}
            xs.append(i + (j - (len(rows) - 1) / 2) * width)
            ys.append(s.get("mean", 0))
            errs.append(s.get("std", 0))
            th.append(cell.get("theory_upper"))
            three.append(cell.get("3wl"))
        ax.bar(xs, ys, width, yerr=errs, capsize=2, label=_model(r))
        pts = [(x, t) for x, t in zip(xs, th) if t is not None]
        ax.plot([x for x, _ in pts], [t for _, t in pts], "_", color="black", markersize=max(3.0, bar_points),
                markeredgewidth=2, label="declared bound" if j == 0 else None)
        pts = [(x, t) for x, t in zip(xs, three) if t is not None]
        ax.plot([x for x, _ in pts], [t for _, t in pts], ".", color="grey", label="3-WL" if j == 0 else None)
    ax.set_xticks(range(len(cols)), cols)
    ax.set_ylabel("pairs")
    ax.set_title(("suites" if cmp["kind"] == "suite" else "BREC") + ": realised vs the declared bound")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path
