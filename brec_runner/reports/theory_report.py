"""Rendering the theoretical verdicts of :mod:`brec_runner.reports.theory`: tables, JSON, CSV, report files.

:func:`run_theory` computes (or reads from the cache) the verdicts of a selection and
:func:`write_report` writes ``verdicts.json``, ``verdicts.csv`` and a Markdown ``README.md`` with the
counts per category, the published counts beside them and the settings with their provenance.
"""

from __future__ import annotations

import csv
import io
import json
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from wltools.errors import WLToolsError
from wltools.suites.theory import PairVerdicts

from ..records.fileio import write_atomic
from ..runs.dataset import CATEGORY_IDS, NUM_PAIRS, load_pairs, select_ids
from .theory import (
    DEFAULT_RRWP_STEPS,
    DEFAULT_TESTS,
    PUBLISHED,
    TABLE_ROWS,
    category_counts,
    code_version,
    containment_violations,
    distinguished_ids,
    parse_tests,
    theory_verdicts,
)

__all__ = ["TheoryReport", "run_theory", "markdown_summary", "terminal_summary", "write_report"]


@dataclass(kw_only=True)
class TheoryReport(PairVerdicts):
    """What :func:`run_theory` computed on the BREC pairs ``ids``, ready for :func:`write_report`."""

    ids: list[int]
    code_version: str = ""
    computed: int | None = None
    cached: int | None = None

    def settings(self) -> dict:
        from wltools.runtime.provenance import package_versions

        versions = package_versions()
        return {
            "tests": list(self.tests),
            "rrwp_steps": self.rrwp_steps,
            "fast": self.fast,
            "pairs": len(self.ids),
            "code_version": self.code_version or code_version(),
            "python": platform.python_version(),
            **{pkg: versions[pkg] for pkg in ("wltools", "numpy", "networkx", "pynauty", "torch")},
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} logical CPUs",
            "wall_seconds": round(self.seconds, 2),
            "refinements_computed": self.computed,
            "refinements_from_cache": self.cached,
            "generated": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        }

    def _repr_markdown_(self) -> str:
        """The counts per category and test, and the published counts beside them, as Markdown
        (:func:`markdown_summary` up to its runtime table)."""
        return markdown_summary(self).split("\n## Runtime per category")[0]

    def _repr_html_(self) -> str:
        from .html_page import markdown_to_html

        return markdown_to_html(self._repr_markdown_())

    def to_dataframe(self):
        """One row per (pair, test), the columns of ``verdicts.csv``, as a pandas DataFrame; needs
        pandas (:class:`~wltools.draw.display.OptionalDependencyError` otherwise)."""
        from wltools.draw.display import require_pandas

        pandas = require_pandas("TheoryReport.to_dataframe()")
        return pandas.read_csv(io.StringIO(_csv_text(self)), keep_default_na=False, na_values=[""])


def run_theory(
    tests=None,
    rrwp_steps: int | None = None,
    *,
    categories=None,
    ids=None,
    fast: bool = True,
    progress: bool = False,
    use_cache: bool = True,
) -> TheoryReport:
    """Compute (or read from cache) the verdicts and wrap them for :func:`write_report`."""
    tests = parse_tests(tests)
    K = DEFAULT_RRWP_STEPS if rrwp_steps is None else int(rrwp_steps)
    pair_ids = select_ids(categories, ids)
    version = code_version()
    t0 = time.perf_counter()
    stats: dict = {}
    verdicts = theory_verdicts(
        tests, K, pair_ids, fast=fast, progress=progress, use_cache=use_cache, stats=stats
    )
    return TheoryReport(tests, K, verdicts, time.perf_counter() - t0, fast, ids=pair_ids, code_version=version,
                        computed=stats.get("computed"), cached=stats.get("cached"))


def _md_table(header: Sequence[str], rows: Sequence[Sequence]) -> str:
    lines = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    return "\n".join(lines)


#: The notes under the per-category table: why ``regular`` and ``regular140`` both appear
#: (brec_runner/runs/dataset.py, data/brec/README.md), and what RRWP's K is.
_ROW_NOTES = (
    "Rows: `simple_regular` (ids 60-109) and `strongly_regular` (110-159) together are `regular` "
    "(100 pairs), BREC's \"Regular\" category as its data files and code report it; `regular140` "
    "(140 pairs: 60-159 with `4vertex` 360-379 and `distance_regular` 380-399) is the \"Regular\" "
    "column of the BREC paper's tables, which counts the four kinds of regular graphs together. The two "
    "rows overlap; `all` counts each of the 400 pairs once."
)
_RRWP_NOTE = (
    " `rrwp (K={K})`: RRWP-WL with K = {K} channels I, M, ..., M^(K-1) (GRIT Eq. 1, random walks of 0 to "
    "K-1 steps; `--rrwp-steps K`). A model's bound `rrwp:K` (`wltools models list`) and \"RRWP K=...\" in "
    "its report use the same K, the channel count of the model's own encoding: PPGT's brec preset has 32 "
    "walk steps plus the identity, K = 33 (small preset: K = 17); GRIT's brec preset K = 21 (small: K = 8)."
)


def markdown_summary(report: TheoryReport, out_dir: str | Path | None = None) -> str:
    """The Markdown tables: distinguished counts per category and test, published counts beside
    them, runtime per category and test, and the containment check. ``out_dir``: the folder the
    tables are written to, stated in the command line that opens them (``--out DIR``)."""
    v = report.verdicts
    counts = {t: category_counts(v, t) for t in report.tests}
    rows_present = [r for r in TABLE_ROWS if any(r in counts[t] for t in report.tests)]
    label = {t: (f"rrwp (K={report.rrwp_steps})" if t == "rrwp" else t) for t in report.tests}
    s = report.settings()
    out = [
        "# BREC: theoretical distinguishing power of the WL-family tests",
        "",
        "Generated by `wltools brec theory"
        + (f" --tests {','.join(report.tests)}" if report.tests != DEFAULT_TESTS else "")
        + (f" --rrwp-steps {report.rrwp_steps}" if report.rrwp_steps != DEFAULT_RRWP_STEPS else "")
        + (f" --out {Path(out_dir).as_posix()}" if out_dir is not None else "")
        + "`"
        + ("" if len(report.ids) == NUM_PAIRS else f" on {len(report.ids)} pairs")
        + f". Verdicts from `wltools.refine.refine_pair` ({'fast' if report.fast else 'exact'} path),"
        " each pair as given in data/brec. Cells: distinguished / pairs.",
        "",
        "## Distinguished pairs per category",
        "",
    ]
    header = ["category"] + [label[t] for t in report.tests]
    rows = []
    for r in rows_present:
        rows.append([r] + [("%d / %d" % counts[t][r]) if r in counts[t] else "-" for t in report.tests])
    out.append(_md_table(header, rows))
    out += ["", _ROW_NOTES + (_RRWP_NOTE.format(K=report.rrwp_steps) if "rrwp" in report.tests else "")]
    published = [t for t in report.tests if t in PUBLISHED]
    if published:
        out += ["", "## Published counts (BREC paper, Table 2) and agreement", ""]
        prow = []
        for t in published:
            for r in rows_present:
                if r in ("regular", "regular140", "all") or r not in counts[t]:
                    continue
                ids = set(CATEGORY_IDS[r])
                if not ids <= set(report.ids):
                    continue
                got = counts[t][r][0]
                prow.append([t, r, PUBLISHED[t][r], got, "yes" if got == PUBLISHED[t][r] else "**NO**"])
        out.append(_md_table(["test", "category", "published", "here", "agree"], prow))
    out += [
        "", "## Runtime per category and test (seconds, sum over pairs)", "",
        f"Wall time of each refinement as recorded when it was computed ({report.computed} computed "
        f"in this run, {report.cached} read from the cache; `--no-cache` recomputes all).",
        "",
    ]
    trows = []
    for r in rows_present:
        ids = (set(range(NUM_PAIRS)) if r == "all" else set(CATEGORY_IDS[r])) & set(v)
        trows.append([r] + [f"{sum(v[i][t]['seconds'] for i in ids if t in v[i]):.2f}" for t in report.tests])
    out.append(_md_table(["category"] + [label[t] for t in report.tests], trows))
    viol = containment_violations(v) if "3wl" in report.tests else None
    out += ["", "## Containment in 3-WL", ""]
    if viol is None:
        out.append("3-WL not computed.")
    elif not viol:
        out.append("Every pair distinguished by a test 3-WL bounds is distinguished by 3-WL.")
    else:
        out.append("**Violations** (distinguished by the test, not by 3-WL): " + json.dumps(viol))
    beyond = containment_violations(v, beyond=True) if "3wl" in report.tests else {}
    if beyond:
        out += ["", "Tests 3-WL does not bound (4-WL, S4, ego networks, M2) separate pairs it does not, as "
                "expected: " + ", ".join(f"{label[t]} {len(ids)} (e.g. {', '.join(map(str, ids[:5]))})"
                                         for t, ids in beyond.items()) + "."]
    out += _hierarchy_section(report)
    out += ["", "## Settings", "", "```json", json.dumps(s, indent=2), "```", ""]
    out.append("Per-pair verdicts with iterations and witnesses: `verdicts.json`, `verdicts.csv`.")
    return "\n".join(out) + "\n"


def terminal_summary(report: TheoryReport, out_dir: str | Path | None = None) -> str:
    """What ``brec theory`` prints: :func:`markdown_summary` without its runtime table and settings,
    and with the published counts' table folded into one line (how many agree, and any that do not);
    the whole of it is in the written ``README.md``."""
    parts = markdown_summary(report, out_dir).split("\n## ")
    keep = [parts[0]]
    for part in parts[1:]:
        head = part.split("\n", 1)[0]
        if head.startswith(("Runtime", "Settings")):
            continue
        if head.startswith("Published"):
            rows = [ln for ln in part.splitlines() if ln.startswith("| ") and not ln.startswith("| test |")]
            bad = [ln.strip("| ").replace(" | ", " ") for ln in rows if "**NO**" in ln]
            part = f"{head}\n\n" + ("None to compare: no category is selected whole" if not rows else
                                     f"{len(rows) - len(bad)} of {len(rows)} agree") + (
                f"; disagreeing (test category published here): {'; '.join(bad)}" if bad else "") + ".\n"
        keep.append(part)
    return "\n## ".join(keep).rstrip()


def _hierarchy_section(report: TheoryReport) -> list[str]:
    """The inclusions of the subgraph WL hierarchy (:data:`wltools.refine.swl.HIERARCHY`) between
    the computed tests: pairs the weaker test separates and the stronger does not (violations,
    expected none) and the converse (strictness shown by the data). Empty when no SWL test ran."""
    from wltools.refine.swl import HIERARCHY, SWL_CLASSES

    if not any(t in SWL_CLASSES for t in report.tests):
        return []
    rows = []
    for a, b in HIERARCHY:
        if a in report.tests and b in report.tests:
            da, db = distinguished_ids(report.verdicts, a), distinguished_ids(report.verdicts, b)
            viol, strict = sorted(da - db), sorted(db - da)
            rows.append([a, b, json.dumps(viol) if viol else "none",
                         f"{len(strict)}" + (f" (e.g. {', '.join(map(str, strict[:5]))})" if strict else "")])
    if not rows:
        return []
    return ["", "## Subgraph WL hierarchy (Zhang et al. ICML 2023)", "",
            "Each row: an inclusion the paper proves; violations are pairs the weaker test separates "
            "and the stronger does not (a bug if any), strict pairs the converse.", "",
            _md_table(["weaker", "stronger", "violations", "strict pairs"], rows)]


#: Witness sentences longer than this are shortened in the written reports (the cache keeps them).
WITNESS_CHARS = 300


def _short(rec: dict) -> dict:
    """A record for the written report: witness shortened, class sizes replaced by class counts."""
    out = {k: v for k, v in rec.items() if k not in ("id", "class_sizes")}
    w = out.get("witness") or ""
    if len(w) > WITNESS_CHARS:
        out["witness"] = w[: WITNESS_CHARS - 1] + "…"
    sizes = rec.get("class_sizes")
    if sizes is not None:
        out["classes"] = [len(s) for s in sizes]
    return out


def _csv_text(report: TheoryReport) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "category", "subcategory", "n_g", "n_h", "m_g", "m_h", "test", "distinguished",
                "reason", "iteration", "iterations", "seconds", "witness"])
    for pair in load_pairs(ids=report.ids):
        for t in report.tests:
            rec = _short(report.verdicts[pair.id][t])
            w.writerow([pair.id, pair.category, pair.subcategory, *pair.meta["n"], *pair.meta["m"], t,
                        int(bool(rec["distinguished"])), rec["reason"], rec["iteration"],
                        rec["iterations"], rec["seconds"], rec["witness"]])
    return buf.getvalue()


def write_report(report: TheoryReport, out_dir: str | Path) -> dict[str, Path]:
    """Write ``verdicts.json``, ``verdicts.csv`` and ``README.md`` (the tables) into ``out_dir``
    (``wltools brec theory``'s default is ``runs/brec-theory``: never the committed
    ``reports/brec-theory``, which is regenerated with ``--out reports/brec-theory``).

    Each file is written atomically (:func:`brec_runner.records.fileio.write_atomic`: a temporary file in the
    same folder, fsynced, renamed), so an interruption or a full disk never leaves half a table; an
    unwritable folder is one :class:`~wltools.errors.WLToolsError` line.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WLToolsError(f"cannot create the output folder {out}: {exc.strerror}") from None
    pairs = load_pairs(ids=report.ids)
    doc = {
        "settings": report.settings(),
        "counts": {t: {r: list(c) for r, c in category_counts(report.verdicts, t).items()}
                   for t in report.tests},
        "pairs": [
            {
                "id": p.id, "category": p.category, "subcategory": p.subcategory,
                "n": p.meta["n"], "m": p.meta["m"], "regularity": p.meta["regularity"],
                "tests": {t: _short(report.verdicts[p.id][t]) for t in report.tests},
            }
            for p in pairs
        ],
    }
    paths = {"json": out / "verdicts.json", "csv": out / "verdicts.csv", "markdown": out / "README.md"}
    write_atomic(paths["json"], json.dumps(doc, indent=1) + "\n", error=WLToolsError)
    write_atomic(paths["csv"], _csv_text(report), error=WLToolsError)
    write_atomic(paths["markdown"], markdown_summary(report, out_dir), error=WLToolsError)
    return paths
