"""The report of :func:`wltools.dataset.analysis.analyse` as JSON, Markdown or CSV, and a plot of
the accuracy bound against the number of rounds per test (matplotlib).

Examples
--------
>>> rep = {"dataset": {"name": "toy", "graphs": 2, "nodes": 6, "edges": 6, "node_labels": 0,
...        "edge_labels": 0, "graph_classes": 2, "node_target_classes": 0, "max_nodes": 3},
...        "settings": {"tests": ["1wl"]}, "isomorphism": {"classes": 2, "accuracy_bound": 1.0, "seconds": 0.0},
...        "tests": [{"test": "1wl", "stable_after": 0, "seconds": 0.0, "rounds": [{"round": 0, "colours": 1,
...        "classes": 1, "unseparated_noniso_pairs": 1, "conflicting_graphs": 2, "accuracy_bound": 0.5}]}]}
>>> print(to_csv(rep).strip())
test,round,colours,classes,unseparated_noniso_pairs,conflicting_graphs,accuracy_bound,node_accuracy_bound
1wl,0,1,1,1,2,0.5,
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

__all__ = ["to_json", "to_markdown", "to_csv", "render", "plot_bounds", "FORMATS"]

FORMATS = ("md", "json", "csv")

_COLUMNS = ("round", "colours", "classes", "unseparated_noniso_pairs", "conflicting_graphs", "accuracy_bound",
            "node_accuracy_bound", "mae_floor")
_HEAD = ("round", "colours", "classes", "non-iso pairs not separated", "graphs in mixed classes",
         "accuracy bound", "node accuracy bound", "MAE floor")


def to_json(report: dict) -> str:
    """The report as indented JSON."""
    return json.dumps(report, indent=2) + "\n"


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def to_markdown(report: dict) -> str:
    """A summary line of the dataset and one table per test (rounds as rows)."""
    d = report["dataset"]
    lines = [f"# {d['name']}: {d['graphs']:,} graphs, {d['nodes']:,} nodes, {d['edges']:,} edges", "",
             f"node label values in use: {d['node_labels']}, edge label values in use: {d['edge_labels']}, "
             f"target classes: {d['graph_classes']}, largest graph: {d['max_nodes']} nodes"]
    iso = report.get("isomorphism")
    if iso:
        bound = f", accuracy bound of isomorphism: {_cell(iso['accuracy_bound'])}" \
            if iso["accuracy_bound"] is not None else ""
        if iso.get("mae_floor") is not None:
            bound += f", MAE floor of isomorphism: {_cell(iso['mae_floor'])}"
        lines.append(f"isomorphism classes (with the labels in use): {iso['classes']:,}{bound}")
    for t in report["tests"]:
        cols = [c for c in _COLUMNS if any(r.get(c) is not None for r in t["rounds"])]
        stable = (f"stable after {t['stable_after']} round(s)" if t["stable_after"] is not None
                  else "not yet stable")
        notes = f"; {t['engine']}" if t.get("engine") else ""
        notes += f"; ignores the {t['labels_ignored']} (defined without them)" if t.get("labels_ignored") else ""
        lines += ["", f"## {t['test']} ({stable}; {t['seconds']:.2f} s{notes})", "",
                  "| " + " | ".join(_HEAD[_COLUMNS.index(c)] for c in cols) + " |",
                  "|" + "|".join("---:" for _ in cols) + "|"]
        lines += ["| " + " | ".join(_cell(r.get(c)) for c in cols) + " |" for r in t["rounds"]]
    return "\n".join(lines) + "\n"


def to_csv(report: dict) -> str:
    """One row per (test, round)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    regression = any("mae_floor" in r for t in report["tests"] for r in t["rounds"])
    cols = _COLUMNS if regression else _COLUMNS[:-1]
    w.writerow(("test",) + cols)
    for t in report["tests"]:
        for r in t["rounds"]:
            w.writerow((t["test"],) + tuple("" if r.get(c) is None else r.get(c) for c in cols))
    return buf.getvalue()


def render(report: dict, fmt: str) -> str:
    """The report in ``fmt`` (:data:`FORMATS`)."""
    return {"md": to_markdown, "json": to_json, "csv": to_csv}[fmt](report)


def plot_bounds(report: dict, path: str | Path) -> None:
    """A PNG of the accuracy bound (and the node bound, dashed, when present; with regression
    targets the MAE floor) against rounds, one line per test; the bound of isomorphism as a grey
    line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    key = "mae_floor" if report.get("settings", {}).get("task") == "regression" else "accuracy_bound"
    series = []
    for t in report["tests"]:
        xs = [r["round"] for r in t["rounds"]]
        if all(r.get(key) is not None for r in t["rounds"]):
            series.append((xs, [r[key] for r in t["rounds"]], f"{t['test']} (graphs)", False))
        if all(r.get("node_accuracy_bound") is not None for r in t["rounds"]):
            series.append((xs, [r["node_accuracy_bound"] for r in t["rounds"]], f"{t['test']} (nodes)", True))
    ncol = 1 if len(series) <= 14 else 2
    fig, ax = plt.subplots(figsize=(6 + 2.3 * ncol, 4.2))
    colours = plt.get_cmap("tab10").colors
    for i, (xs, ys, label, nodes) in enumerate(series):  # colour, line style and marker all vary: 21 tests apart
        ax.plot(xs, ys, color=colours[i % 10], ls="--" if nodes else ("-", "-.", ":")[(i // 10) % 3],
                marker="osD^vP*X<>"[i % 10], ms=4, lw=1.3, label=label)
    iso = report.get("isomorphism")
    if iso and iso.get(key) is not None:
        ax.axhline(iso[key], color="grey", lw=1, label="isomorphism")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("rounds (layers)")
    ax.set_ylabel("lowest MAE (MAE floor)" if key == "mae_floor" else "accuracy upper bound")
    ax.set_title(f"{report['dataset']['name']}: {'MAE floor' if key == 'mae_floor' else 'accuracy bound'} by rounds")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, ncol=ncol, frameon=False)  # outside the axes
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
