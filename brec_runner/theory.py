"""Theoretical verdicts of the WL-family tests on the BREC pairs, cached on disk, and their tables.

For each pair and each test of :data:`wltools.refine.TESTS` (1-WL; GD-WL with shortest-path
distance "spd", resistance distance "rd" or RRWP "rrwp", Zhang et al. 2023 "Rethinking the
expressive power of GNNs via graph biconnectivity" Sec. 4 and the GRIT/PPGT papers' RRWP-WL; 3-WL
as the 2-FWL upper bound) the verdict comes from :func:`wltools.refine.refine_pair` on the pair as
given. BREC paper Table 2 (and data/brec/README.md) publishes 1-WL 0, SPD-WL 83 and 3-WL 270;
:data:`PUBLISHED` holds those counts per subcategory and the tests check they are reproduced.

Cache: one JSON-lines file per (test, RRWP steps for "rrwp", refine code version, fast flag) under
``$WLTOOLS_CACHE/theory`` (default ``~/.cache/wltools/theory``); each line is one pair's result,
appended and flushed, so an interrupted computation resumes and adding a test recomputes only that
test. The code version is a hash of the sources of ``wltools/refine`` and ``wltools/distances.py``,
so any change there recomputes.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from wltools.errors import UnknownNameError

from .dataset import CATEGORY_IDS, NUM_PAIRS, load_pairs, select_ids
from .encoding_cache import cache_root

__all__ = [
    "DEFAULT_TESTS",
    "DEFAULT_RRWP_STEPS",
    "TABLE_ROWS",
    "PUBLISHED",
    "parse_tests",
    "code_version",
    "theory_verdicts",
    "distinguished_ids",
    "category_counts",
    "containment_violations",
    "TheoryReport",
    "run_theory",
    "markdown_summary",
    "write_report",
]

#: Tests computed by default (``wltools.refine.TESTS``).
DEFAULT_TESTS: tuple[str, ...] = ("1wl", "spd", "rd", "rrwp", "3wl")
#: RRWP steps K used by ``wltools brec theory`` and by :func:`theory_verdicts` when not given.
DEFAULT_RRWP_STEPS = 32

#: Rows of the per-category table: the seven subcategories, the BREC groups and the total.
TABLE_ROWS: tuple[str, ...] = (
    "basic", "simple_regular", "strongly_regular", "regular", "extension", "cfi", "4vertex",
    "distance_regular", "regular140", "all",
)

#: Published counts of distinguished pairs (BREC paper, Table 2; data/brec/README.md) by subcategory.
PUBLISHED: dict[str, dict[str, int]] = {
    "1wl": {"basic": 0, "simple_regular": 0, "strongly_regular": 0, "extension": 0, "cfi": 0,
            "4vertex": 0, "distance_regular": 0},
    "spd": {"basic": 16, "simple_regular": 14, "strongly_regular": 0, "extension": 41, "cfi": 12,
            "4vertex": 0, "distance_regular": 0},
    "3wl": {"basic": 60, "simple_regular": 50, "strongly_regular": 0, "extension": 100, "cfi": 60,
            "4vertex": 0, "distance_regular": 0},
}

_RESULT_FIELDS = ("distinguished", "reason", "iteration", "iterations", "witness")


def _known_tests() -> tuple[str, ...]:
    try:
        from wltools.refine import TESTS
    except ImportError:  # the contract's fixed list, while wltools.refine is not importable
        return DEFAULT_TESTS
    return tuple(TESTS)


def parse_tests(tests: str | Iterable[str] | None) -> tuple[str, ...]:
    """Normalise a test list (``"1wl,spd"`` or names); unknown names raise UnknownNameError."""
    if tests is None:
        return DEFAULT_TESTS
    names = [tests] if isinstance(tests, str) else list(tests)
    names = [n.strip().lower() for name in names for n in str(name).split(",") if n.strip()]
    if not names:
        raise UnknownNameError("empty list of tests; choose from " + ", ".join(_known_tests()))
    known = _known_tests()
    for n in names:
        if n not in known:
            raise UnknownNameError(f"unknown test {n!r}; choose from {', '.join(known)}")
    return tuple(dict.fromkeys(names))


def code_version() -> str:
    """Hash of the refinement sources (``wltools/refine/*.py`` and ``wltools/distances.py``)."""
    import wltools

    root = Path(wltools.__file__).resolve().parent
    h = hashlib.sha256()
    files = sorted((root / "refine").glob("*.py")) + [root / "distances.py"]
    for f in files:
        if f.exists():
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _refine_fn():
    """``wltools.refine.refine_pair`` (a seam for tests of the cache logic)."""
    from wltools.refine import refine_pair

    return refine_pair


def _cache_file(test: str, rrwp_steps: int, fast: bool, version: str) -> Path:
    k = f"-k{rrwp_steps}" if test == "rrwp" else ""
    return cache_root() / "theory" / f"{test}{k}-{'fast' if fast else 'exact'}-{version}.jsonl"


def _read_cache(path: Path) -> dict[int, dict]:
    out: dict[int, dict] = {}
    if not path.exists():
        return out
    with path.open() as fh:
        for line in fh:
            try:
                rec = json.loads(line)
                out[int(rec["id"])] = rec
            except (ValueError, KeyError, TypeError):
                continue  # a torn last line of an interrupted run: recompute that pair
    return out


def _record(pid: int, result, seconds: float) -> dict:
    d = result.to_dict()
    rec = {"id": pid}
    for f in _RESULT_FIELDS:
        rec[f] = d.get(f)
    rec["class_sizes"] = d.get("class_sizes")
    rec["seconds"] = round(seconds, 6)
    return rec


def theory_verdicts(
    tests: str | Iterable[str] | None = None,
    rrwp_steps: int | None = None,
    ids: str | Iterable[int] | None = None,
    *,
    categories: str | Iterable[str] | None = None,
    fast: bool = True,
    progress: bool = False,
    use_cache: bool = True,
    stats: dict | None = None,
) -> dict[int, dict[str, dict]]:
    """Verdict of each test on each selected pair: ``{pair id: {test: record}}``.

    A record holds ``distinguished`` (bool), ``reason``, ``iteration`` (first iteration where the
    colour histograms differ, or None), ``iterations`` (to a stable colouring), ``witness``,
    ``class_sizes`` and ``seconds`` (wall time of that refinement), from
    :func:`wltools.refine.refine_pair` (``rrwp_steps`` defaults to :data:`DEFAULT_RRWP_STEPS`).
    Results are read from / appended to the disk cache described in the module docstring;
    ``stats``, if given, receives the counts ``computed`` and ``cached`` (refinements).
    """
    from tqdm import tqdm

    refine_pair = _refine_fn()
    tests = parse_tests(tests)
    K = DEFAULT_RRWP_STEPS if rrwp_steps is None else int(rrwp_steps)
    if K < 1:
        raise UnknownNameError(f"rrwp steps must be >= 1, got {K}")
    pair_ids = select_ids(categories, ids)
    pairs = load_pairs(ids=pair_ids)
    version = code_version()
    out: dict[int, dict[str, dict]] = {pid: {} for pid in pair_ids}
    todo: list[tuple[str, object]] = []
    files = {}
    for test in tests:
        path = _cache_file(test, K, fast, version)
        files[test] = path
        cached = _read_cache(path) if use_cache else {}
        for pair in pairs:
            if pair.id in cached:
                out[pair.id][test] = cached[pair.id]
            else:
                todo.append((test, pair))
    if stats is not None:
        stats.update(computed=len(todo), cached=len(tests) * len(pairs) - len(todo))
    if todo:
        # cheap tests first, so the bar's ETA is honest about the slow tail (3-WL on CFI)
        order = {t: i for i, t in enumerate(("1wl", "spd", "rd", "rrwp", "3wl"))}
        todo.sort(key=lambda tp: (order.get(tp[0], 9), tp[1].meta["n"][0], tp[1].id))
        handles = {}
        try:
            bar = tqdm(todo, desc="refine", unit="run", disable=not progress, file=sys.stderr)
            done = {"distinguished": 0}
            for test, pair in bar:
                bar.set_description(f"{test} pair {pair.id}")
                t0 = time.perf_counter()
                res = refine_pair(pair.g, pair.h, test, rrwp_steps=K, fast=fast)
                rec = _record(pair.id, res, time.perf_counter() - t0)
                out[pair.id][test] = rec
                done["distinguished"] += bool(rec["distinguished"])
                bar.set_postfix(distinguished=done["distinguished"])
                if use_cache:
                    if test not in handles:
                        files[test].parent.mkdir(parents=True, exist_ok=True)
                        handles[test] = files[test].open("a")
                    handles[test].write(json.dumps(rec) + "\n")
                    handles[test].flush()
        finally:
            for fh in handles.values():
                fh.close()
    return out


def distinguished_ids(verdicts: dict[int, dict[str, dict]], test: str) -> set[int]:
    """Ids of the pairs that ``test`` distinguishes."""
    return {pid for pid, by in verdicts.items() if test in by and by[test]["distinguished"]}


def category_counts(verdicts: dict[int, dict[str, dict]], test: str) -> dict[str, tuple[int, int]]:
    """``{row: (distinguished, pairs present)}`` over :data:`TABLE_ROWS` (rows with pairs only)."""
    hit = distinguished_ids(verdicts, test)
    present = {pid for pid, by in verdicts.items() if test in by}
    out = {}
    for row in TABLE_ROWS:
        ids = set(range(NUM_PAIRS)) if row == "all" else set(CATEGORY_IDS[row])
        ids &= present
        if ids:
            out[row] = (len(ids & hit), len(ids))
    return out


def containment_violations(verdicts: dict[int, dict[str, dict]], upper: str = "3wl") -> dict[str, list[int]]:
    """Pairs a test distinguishes that ``upper`` (3-WL) does not: ``{test: [ids]}`` (empty if sound)."""
    top = distinguished_ids(verdicts, upper)
    tests = {t for by in verdicts.values() for t in by}
    out = {}
    for t in sorted(tests - {upper}):
        extra = sorted(distinguished_ids(verdicts, t) - top)
        if extra:
            out[t] = extra
    return out


# ----------------------------------------------------------------------------- report


@dataclass
class TheoryReport:
    """What :func:`run_theory` computed, ready for :func:`write_report`."""

    tests: tuple[str, ...]
    rrwp_steps: int
    ids: list[int]
    verdicts: dict[int, dict[str, dict]]
    seconds: float
    fast: bool = True
    code_version: str = ""
    computed: int | None = None
    cached: int | None = None

    def settings(self) -> dict:
        import networkx
        import numpy
        import pynauty
        import torch

        import wltools

        return {
            "tests": list(self.tests),
            "rrwp_steps": self.rrwp_steps,
            "fast": self.fast,
            "pairs": len(self.ids),
            "code_version": self.code_version or code_version(),
            "wltools": wltools.__version__,
            "python": platform.python_version(),
            "numpy": numpy.__version__,
            "networkx": networkx.__version__,
            "pynauty": getattr(pynauty, "__version__", "?"),
            "torch": torch.__version__,
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} logical CPUs",
            "wall_seconds": round(self.seconds, 2),
            "refinements_computed": self.computed,
            "refinements_from_cache": self.cached,
            "generated": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        }


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
    return TheoryReport(tests, K, pair_ids, verdicts, time.perf_counter() - t0, fast, version,
                        stats.get("computed"), stats.get("cached"))


def _md_table(header: Sequence[str], rows: Sequence[Sequence]) -> str:
    lines = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    return "\n".join(lines)


def markdown_summary(report: TheoryReport) -> str:
    """The Markdown tables: distinguished counts per category and test, published counts beside
    them, runtime per category and test, and the containment check."""
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
        out.append("Every pair distinguished by any test is distinguished by 3-WL.")
    else:
        out.append("**Violations** (distinguished by the test, not by 3-WL): " + json.dumps(viol))
    out += ["", "## Settings", "", "```json", json.dumps(s, indent=2), "```", ""]
    out.append("Per-pair verdicts with iterations and witnesses: `verdicts.json`, `verdicts.csv`.")
    return "\n".join(out) + "\n"


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
    from .dataset import load_pairs as _lp

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "category", "subcategory", "n_g", "n_h", "m_g", "m_h", "test", "distinguished",
                "reason", "iteration", "iterations", "seconds", "witness"])
    for pair in _lp(ids=report.ids):
        for t in report.tests:
            rec = _short(report.verdicts[pair.id][t])
            w.writerow([pair.id, pair.category, pair.subcategory, *pair.meta["n"], *pair.meta["m"], t,
                        int(bool(rec["distinguished"])), rec["reason"], rec["iteration"],
                        rec["iterations"], rec["seconds"], rec["witness"]])
    return buf.getvalue()


def write_report(report: TheoryReport, out_dir: str | Path) -> dict[str, Path]:
    """Write ``verdicts.json``, ``verdicts.csv`` and ``README.md`` (the tables) into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
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
    paths["json"].write_text(json.dumps(doc, indent=1) + "\n")
    paths["csv"].write_text(_csv_text(report))
    paths["markdown"].write_text(markdown_summary(report))
    return paths
