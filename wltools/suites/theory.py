"""Refinement verdicts on a suite's pairs, and their tables (Markdown, JSON, CSV).

Every verdict comes from :func:`wltools.refine.refine_pair` on the pair as given (the graphs
plain, without node types), one record per pair and test as in ``brec theory``: ``distinguished``,
``reason``, ``iteration``, ``iterations``, ``witness``, ``seconds``. The default tests are
:data:`DEFAULT_SUITE_TESTS`: all of :data:`wltools.refine.names.ALL_TESTS` (the BREC columns and EPWL
over ``A`` and ``L``) but the ones run only when named (``3fwl``, 4-WL, and the subgraph WL tests
``swl-vs`` ... ``slfwl2``); RRWP uses
``K = DEFAULT_RRWP_STEPS`` channels, as the BREC tables do. Nothing is cached: the largest suites
take minutes with 3-WL.
"""

from __future__ import annotations

import csv
import io
import json
import platform
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from ..errors import UnknownNameError
from ..refine.names import ALL_TESTS, DEFAULT_RRWP_STEPS, ON_REQUEST_TESTS, SUBGRAPH_WL_TESTS, TEST_LABELS
from ..refine.names import SUBGRAPH_BASELINE_TESTS, label_of
from ..refine.names import parse_tests as parse_names
from . import SuitePair, get_suite, suite_pairs

__all__ = ["PairVerdicts", "SuiteTheory", "DEFAULT_SUITE_TESTS", "parse_tests", "suite_theory", "theory_pairs", "memo_records", "remember", "counts",
           "render", "FORMATS"]

#: Output formats of :func:`render`.
FORMATS = ("md", "json", "csv")

_FIELDS = ("distinguished", "reason", "iteration", "iterations", "witness")

#: Tests of :func:`parse_tests` ``(None)``: every test but :data:`~wltools.refine.names.ON_REQUEST_TESTS`
#: and the subgraph WL hierarchy (:data:`~wltools.refine.names.SUBGRAPH_WL_TESTS`, run when named).
DEFAULT_SUITE_TESTS = tuple(t for t in ALL_TESTS if t not in ON_REQUEST_TESTS + SUBGRAPH_WL_TESTS
                            + SUBGRAPH_BASELINE_TESTS)  # BREC's non-GNN baselines: when named


def parse_tests(tests: str | Iterable[str] | None) -> tuple[str, ...]:
    """``"1wl,spd"``, ``"all"`` or names -> a tuple of test names
    (:func:`wltools.refine.names.parse_tests`, the one reader of test lists); ``None`` gives
    :data:`DEFAULT_SUITE_TESTS`.

    Examples
    --------
    >>> parse_tests("3wl, spd"), parse_tests(None) == DEFAULT_SUITE_TESTS
    (('3wl', 'spd'), True)
    >>> parse_tests("4wl")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wltools.errors.UnknownNameError: suite theory --tests: unknown test '4wl'; choose from 1wl, spd, rd, rrwp, 3wl, ...
    """
    return parse_names(tests, command="suite theory --tests", default=DEFAULT_SUITE_TESTS)


@dataclass
class PairVerdicts:
    """Refinement verdicts on a set of pairs: ``verdicts[pair id][test]`` is a record (module
    docstring), computed with ``rrwp_steps`` RRWP channels by the fast (``fast``) or the reference
    engine in ``seconds``. The base of :class:`SuiteTheory` and of BREC's
    :class:`brec_runner.reports.theory_report.TheoryReport`, which add what was refined."""

    tests: tuple[str, ...]
    rrwp_steps: int
    verdicts: dict[int, dict[str, dict]]
    seconds: float
    fast: bool = True


@dataclass(kw_only=True)
class SuiteTheory(PairVerdicts):
    """The verdicts of :func:`suite_theory` on the ``pairs`` of ``suite``."""

    suite: str
    pairs: list[SuitePair]

    def settings(self) -> dict:
        """Settings and provenance written with every table."""
        from ..runtime.provenance import package_versions

        versions = package_versions()
        return {
            "suite": self.suite,
            "tests": list(self.tests),
            "rrwp_steps": self.rrwp_steps,
            "fast": self.fast,
            "pairs": len(self.pairs),
            "python": platform.python_version(),
            **{pkg: versions.get(pkg) for pkg in ("wltools", "numpy", "networkx", "pynauty")},
            "wall_seconds": round(self.seconds, 2),
            "generated": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        }


#: ``{(suite, test, rrwp_steps, fast, pair id): record}``: every refinement :func:`suite_theory` made
#: in this process (its ``seconds`` are those of the refinement itself).
_MEMO: dict[tuple, dict] = {}


#: ``{(suite, ids or None): pairs}``: :func:`theory_pairs`' memo.
_PAIRS: dict[tuple, tuple[SuitePair, ...]] = {}


def theory_pairs(name: str, ids: Iterable[int] | None = None) -> list[SuitePair]:
    """``suite_pairs(name, ids)``, built once per process (and inherited by forked workers): each
    call of :func:`suite_theory` rebuilt every pair's metadata (graph6 of both graphs: about 2 s
    for EXP's 600 pairs), though a test's verdicts are memoised. The pairs are shared, not copied:
    do not change them."""
    key = (name, None if ids is None else tuple(sorted(set(int(i) for i in ids))))
    if key not in _PAIRS:
        _PAIRS[key] = tuple(suite_pairs(name, ids))
    return list(_PAIRS[key])


def suite_theory(
    name: str,
    tests: str | Iterable[str] | None = None,
    *,
    rrwp_steps: int = DEFAULT_RRWP_STEPS,
    ids: Iterable[int] | None = None,
    fast: bool = True,
    progress: bool = False,
    verdict_only: bool = False,
) -> SuiteTheory:
    """Verdict of each test on each pair of suite ``name`` (optionally only pairs ``ids``).

    Each (suite, test, settings, pair) is refined once per process (:data:`_MEMO`): the claims and
    the tables that read the same suites share the work; the suites' files are checksummed when
    read, so a record can only come from the same graphs. ``verdict_only`` (what the claims ask):
    refinements stop at the first difference (:func:`wltools.refine.kernel.verdict_only`), so
    the records hold ``distinguished`` and ``iteration`` only; such a record never answers a full
    run, which refines that pair again.

    Examples
    --------
    >>> th = suite_theory("sr16", "1wl,spd")
    >>> counts(th)
    {'1wl': (0, 1), 'spd': (0, 1)}
    """
    from ..refine import refine_pair
    from ..refine.kernel import verdict_only as only_verdicts
    from ..runtime.progress import progress_bar

    suite = get_suite(name)
    tests = parse_tests(tests)
    if int(rrwp_steps) < 1:
        raise UnknownNameError(f"rrwp steps must be >= 1, got {rrwp_steps}")
    pairs = theory_pairs(suite.name, ids)
    out: dict[int, dict[str, dict]] = {p.id: {} for p in pairs}
    t0 = time.perf_counter()
    todo = [(t, p) for t in tests for p in pairs]
    bar = progress_bar(todo, desc=f"{suite.name}", unit="run", enabled=progress)
    hits = dict.fromkeys(tests, 0)
    current = None
    for test, pair in bar:
        if test != current:
            current = test
            bar.set_description(f"{suite.name} {test}")
        key = (suite.name, test, int(rrwp_steps), bool(fast), pair.id)
        if key not in _MEMO or (_MEMO[key].get("verdict_only") and not verdict_only):
            s = time.perf_counter()
            with only_verdicts(verdict_only):
                r = refine_pair(pair.g, pair.h, test, rrwp_steps=int(rrwp_steps), fast=fast)
            # the fields themselves (scalars and text), not RefinementResult.to_dict(): its deep
            # copy of the class sizes cost more than many a refinement
            _MEMO[key] = ({f: getattr(r, f) for f in _FIELDS} | {"seconds": round(time.perf_counter() - s, 6)}
                          | ({"verdict_only": True} if verdict_only else {}))
        rec = out[pair.id][test] = dict(_MEMO[key])
        hits[test] += bool(rec["distinguished"])
        bar.set_postfix(distinguished=hits[test])
    return SuiteTheory(tests, int(rrwp_steps), out, time.perf_counter() - t0, fast, suite=suite.name, pairs=pairs)


def memo_records(name: str, tests: Iterable[str] | None = None) -> dict[tuple, dict]:
    """The records :func:`suite_theory` holds in this process for suite ``name`` (and only
    ``tests``, when given): what a worker process computed, to hand to :func:`remember` in another
    (:mod:`wltools.claims.parallel`)."""
    keep = None if tests is None else set(tests)
    return {k: dict(v) for k, v in _MEMO.items() if k[0] == name and (keep is None or k[1] in keep)}


def remember(records: dict[tuple, dict]) -> None:
    """Add records of :func:`memo_records`, computed by this code in another process, to this
    process's memo: :func:`suite_theory` then serves them instead of refining again."""
    for key, rec in records.items():
        if key not in _MEMO or (_MEMO[key].get("verdict_only") and not rec.get("verdict_only")):
            _MEMO[key] = dict(rec)


def counts(th: SuiteTheory) -> dict[str, tuple[int, int]]:
    """``{test: (pairs distinguished, pairs)}``."""
    return {t: (sum(bool(th.verdicts[p.id][t]["distinguished"]) for p in th.pairs), len(th.pairs))
            for t in th.tests}


def _label(th: SuiteTheory, t: str) -> str:
    return label_of(t) + (f" (K={th.rrwp_steps})" if t == "rrwp" else "")


def _markdown(th: SuiteTheory) -> str:
    suite = get_suite(th.suite)
    c = counts(th)
    subs = list(dict.fromkeys(p.subcategory for p in th.pairs))
    lines = [
        f"# Suite {suite.name}: {suite.title}",
        "",
        f"Pairs: {suite.pairs_rule}. Source: {suite.source}. Licence: {suite.licence}.",
        "",
        f"Verdicts from `wltools.refine.refine_pair` ({'fast' if th.fast else 'exact'} path) on each pair as "
        "given; cells: pairs distinguished / pairs.",
        "",
        "| group | " + " | ".join(_label(th, t) for t in th.tests) + " |",
        "|---|" + "---|" * len(th.tests),
    ]
    groups = ([(s, [p for p in th.pairs if p.subcategory == s]) for s in subs] if len(subs) > 1 else [])
    groups.append(("all", th.pairs))
    for gname, ps in groups:
        cells = [f"{sum(bool(th.verdicts[p.id][t]['distinguished']) for p in ps)} / {len(ps)}" for t in th.tests]
        lines.append(f"| {gname} | " + " | ".join(cells) + " |")
    full = len(th.pairs) == len(suite_pairs(suite.name))
    known = [t for t in th.tests if t in suite.expected]
    if known and full:
        lines += ["", "Expected counts (published, or forced by the construction), and agreement:", "",
                  "| test | expected | here | agree | source |", "|---|---|---|---|---|"]
        for t in known:
            exp_n, why = suite.expected[t]
            lines.append(f"| {_label(th, t)} | {exp_n} | {c[t][0]} | {'yes' if c[t][0] == exp_n else '**NO**'} | {why} |")
    secs = {t: sum(th.verdicts[p.id][t]["seconds"] for p in th.pairs) for t in th.tests}
    lines += ["", "Seconds per test (sum over pairs): "
              + ", ".join(f"{_label(th, t)} {secs[t]:.2f}" for t in th.tests) + ".", "",
              "Settings: `" + json.dumps(th.settings()) + "`", ""]
    return "\n".join(lines)


def _json(th: SuiteTheory) -> str:
    suite = get_suite(th.suite)
    doc = {
        "settings": th.settings(),
        "suite": {"name": suite.name, "title": suite.title, "pairs_rule": suite.pairs_rule,
                  "source": suite.source, "licence": suite.licence,
                  "expected": {t: {"count": n, "source": why} for t, (n, why) in suite.expected.items()}},
        "counts": {t: list(v) for t, v in counts(th).items()},
        "pairs": [
            {"id": p.id, "subcategory": p.subcategory, "graphs": p.meta["graphs"], "source": p.meta["source"],
             "n": p.meta["n"], "m": p.meta["m"], "tests": th.verdicts[p.id]}
            for p in th.pairs
        ],
    }
    return json.dumps(doc, indent=1) + "\n"


def _csv(th: SuiteTheory) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["suite", "id", "subcategory", "graph_g", "graph_h", "n_g", "n_h", "m_g", "m_h", "test",
                "distinguished", "reason", "iteration", "iterations", "seconds", "witness"])
    for p in th.pairs:
        for t in th.tests:
            r = th.verdicts[p.id][t]
            w.writerow([th.suite, p.id, p.subcategory, *p.meta["graphs"], *p.meta["n"], *p.meta["m"], t,
                        int(bool(r["distinguished"])), r["reason"], r["iteration"], r["iterations"],
                        r["seconds"], r["witness"]])
    return buf.getvalue()


def render(th: SuiteTheory, fmt: str = "md") -> str:
    """The verdicts as a Markdown table (``md``), a JSON document with per-pair verdicts per test
    (``json``) or one CSV row per pair and test (``csv``)."""
    table: dict[str, Callable[[SuiteTheory], str]] = {"md": _markdown, "json": _json, "csv": _csv}
    if fmt not in table:
        raise UnknownNameError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    return table[fmt](th)
