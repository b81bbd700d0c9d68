"""Theoretical verdicts of the WL-family tests on the BREC pairs, cached on disk.

For each pair and each test of :data:`wltools.wl_tests.TESTS` (1-WL; GD-WL with shortest-path
distance "spd", resistance distance "rd" or RRWP "rrwp", Zhang et al. 2023 "Rethinking the
expressive power of GNNs via graph biconnectivity" Sec. 4 and the GRIT/PPGT papers' RRWP-WL; 3-WL
as the 2-FWL upper bound) the verdict comes from :func:`wltools.refine.refine_pair` on the pair as
given. BREC paper Table 2 (and data/brec/README.md) publishes 1-WL 0, SPD-WL 83 and 3-WL 270;
:data:`PUBLISHED` holds those counts per subcategory and the tests check they are reproduced.

Cache: one JSON-lines file per (test, RRWP steps for "rrwp", refine code version, fast flag) under
``$WLTOOLS_CACHE/theory`` (default ``~/.cache/wltools/theory``); each line is one pair's result,
appended and flushed, so an interrupted computation resumes and adding a test recomputes only that
test. The code version is a hash of the sources of ``wltools/refine`` and ``wltools/distances``,
so any change there recomputes. Tables and report files: :mod:`brec_runner.theory_report`.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Iterable

from wltools.errors import UnknownNameError
from wltools.wl_tests import ALL_TESTS, DEFAULT_RRWP_STEPS, TESTS

from .dataset import CATEGORY_IDS, NUM_PAIRS, load_pairs, select_ids

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
]

#: Tests computed by default: all of them.
DEFAULT_TESTS: tuple[str, ...] = TESTS

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


def parse_tests(tests: str | Iterable[str] | None) -> tuple[str, ...]:
    """Normalise a test list (``"1wl,spd"`` or names; :func:`wltools.suites.theory.parse_tests`);
    ``None`` gives the BREC table's :data:`DEFAULT_TESTS`. Unknown names raise UnknownNameError."""
    from wltools.suites.theory import parse_tests as parse_names

    return DEFAULT_TESTS if tests is None else parse_names(tests)


def code_version() -> str:
    """Hash of the refinement sources (``wltools/refine/*.py``, ``wltools/distances/*.py``)."""
    import wltools

    root = Path(wltools.__file__).resolve().parent
    h = hashlib.sha256()
    files = sorted((root / "refine").glob("*.py")) + sorted((root / "distances").glob("*.py"))
    for f in files:
        h.update(f"{f.parent.name}/{f.name}".encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _refine_fn():
    """``wltools.refine.refine_pair`` (a seam for tests of the cache logic)."""
    from wltools.refine import refine_pair

    return refine_pair


def _cache_file(test: str, rrwp_steps: int, fast: bool, version: str) -> Path:
    from .encoding_cache import cache_root  # here, not at the top: a model-side module

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
        order = {t: i for i, t in enumerate(ALL_TESTS)}
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
