"""Theoretical verdicts of the WL-family tests on the BREC pairs, cached on disk.

For each pair and each test of :data:`wltools.refine.names.TESTS` (1-WL; GD-WL with shortest-path
distance "spd", resistance distance "rd" or RRWP "rrwp", Zhang et al. 2023 "Rethinking the
expressive power of GNNs via graph biconnectivity" Sec. 4 and the GRIT/PPGT papers' RRWP-WL; 3-WL
as the 2-FWL upper bound) the verdict comes from :func:`wltools.refine.refine_pair` on the pair as
given. BREC paper Table 2 (and data/brec/README.md) publishes 1-WL 0, SPD-WL 83 and 3-WL 270;
:data:`PUBLISHED` holds those counts per subcategory and the tests check they are reproduced.

Cache: one JSON-lines file per (test, RRWP steps for "rrwp", refine code version, fast flag) under
``$WLTOOLS_CACHE/theory`` (default ``~/.cache/wltools/theory``); each line is one pair's result,
appended and flushed, so an interrupted computation resumes and adding a test recomputes only that
test. The code version (:func:`code_version`) hashes every ``wltools`` source file the verdicts
import, found by following the imports from the refinement and the tests' registry (so it stays
right when a file moves or a new one is imported), this module (which shapes the cached records),
the Python version, and the versions of the libraries that compute them (numpy, scipy, networkx,
pynauty, igraph, sympy, and any other they import; not torch or RDKit, which only modules off the
verdicts' path import): a change to any of them recomputes. Tables and report files: :mod:`brec_runner.reports.theory_report`.

Batches: BREC's seeded 1-WL baselines s3, s4 and nK and node marking m1 are computed for all their pending pairs at
once by :func:`wltools.refine.batch.refine_pairs` (the same records as ``refine_pair`` pair by pair,
a fraction of the time); their lines are appended when the batch is done, and each pair's
``seconds`` is the batch's wall time shared out in proportion to the pair's nodes.

Every cache line carries ``check``, the sha256 of its other fields
(:func:`brec_runner.records.identity.record_checksum`, as on the runs' results lines). A line that does not
parse or fails its check (an edit, a torn write) is never used: its pair is recomputed, the file is
rewritten without it, and one line on stderr says how many lines of which file. Under the check
each line also carries what it answers: ``test``, ``settings`` (RRWP steps, fast flag) and
``graphs``, the fingerprint of the pair's two graphs (:func:`pair_fingerprint`); a line of another
test, other settings or other graphs (a cache file, or a line, copied from another test's cache)
is never served either: dropped, recomputed, said in one line. The shape of a line is this
module's (:data:`RECORD_MODULES`, part of the code version): a change of it names new files, and
files of earlier formats are not read.

Verdict-only runs (``theory_verdicts(..., verdict_only=True)``, what the claims ask): each
refinement stops at the first difference (:func:`wltools.refine.kernel.verdict_only`: the same
``distinguished`` and ``iteration``, no witness, ``iterations`` None where it stopped early). Their
lines go to a file of their own (``-verdicts`` in its name, ``"verdict_only": true`` in their
settings, so such a line is never served as a full record); a verdict-only run reads the full
file too, whose records answer it as well. A cache that cannot be read or written (no
permission, a full disk) costs time, not results: the verdicts are computed without it, with one
line on stderr. A FIFO, device or directory in place of a cache file is an error (one line), never
a read that blocks.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Iterable

from wltools.errors import UnknownNameError, WLToolsError
from wltools.refine.names import ALL_TESTS, DEFAULT_RRWP_STEPS, TESTS

from ..records.fileio import load_json, read_regular, write_atomic
from ..records.identity import record_checksum
from ..runs.dataset import CATEGORY_IDS, NUM_PAIRS, load_pairs, raw_graph6, select_ids

__all__ = [
    "DEFAULT_TESTS",
    "DEFAULT_RRWP_STEPS",
    "TABLE_ROWS",
    "PUBLISHED",
    "parse_tests",
    "code_version",
    "pair_fingerprint",
    "theory_verdicts",
    "distinguished_ids",
    "category_counts",
    "containment_violations",
    "TheoryCacheError",
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
    """Normalise a test list (``"1wl,spd"``, ``"all"`` or names;
    :func:`wltools.refine.names.parse_tests`, the one reader of test lists); ``None`` gives the BREC
    table's :data:`DEFAULT_TESTS`. Unknown names raise UnknownNameError."""
    from wltools.refine.names import parse_tests as parse_names

    return parse_names(tests, command="brec theory --tests", default=DEFAULT_TESTS)


#: The modules the verdicts are computed from: the refinement (``refine_pair`` and the batches)
#: and the tests' registry. :func:`code_version` follows their imports from there.
VERDICT_ENTRIES: tuple[str, ...] = ("wltools.refine", "wltools.refine.batch", "wltools.refine.names")

#: Libraries whose versions key the cache even where no module imports them by name today (the
#: imported ones are found by :func:`brec_runner.records.source_closure.imported_libraries`).
VERDICT_LIBRARIES: tuple[str, ...] = ("numpy", "scipy", "networkx", "pynauty", "igraph", "sympy")

#: The modules that shape a cached record (its fields, binding and check): this one. Hashed as
#: itself, so that a change of the record's shape recomputes (no hand-kept suffix in the name).
RECORD_MODULES: tuple[str, ...] = ("brec_runner.reports.theory",)

#: Libraries the closure imports that the verdicts never read, with the only modules importing them:
#: torch for the models' float encodings (``wltools.distances.encodings``, loaded only when one is
#: used), RDKit for reading SMILES (``wltools.graphs.inputs``; BREC pairs are graph6). Left out of
#: the key while no other module of the closure imports them.
NOT_READ_BY_VERDICTS: dict[str, tuple[str, ...]] = {"torch": ("wltools.distances.encodings",),
                                                    "rdkit": ("wltools.graphs.inputs",)}


def code_version() -> str:
    """Hash (16 hex) of every ``wltools`` source file the verdicts import, found by following the
    imports of :data:`VERDICT_ENTRIES` (:func:`brec_runner.records.source_closure.import_closure`: the
    refinement, distances, isomorphism layer, labels, graph validation, the tests' registry, ...),
    of the modules shaping the cached record (:data:`RECORD_MODULES`), of the Python version, and of
    the installed versions of :data:`VERDICT_LIBRARIES` and of every library they import but those
    of :data:`NOT_READ_BY_VERDICTS`."""
    from ..records.source_closure import sources_digest

    return sources_digest(VERDICT_ENTRIES, "wltools", VERDICT_LIBRARIES, shaping=RECORD_MODULES,
                          leave_out=NOT_READ_BY_VERDICTS)


def graph6_fingerprint(g6: Iterable[str]) -> str:
    """:func:`pair_fingerprint` of a pair given by the graph6 text of its two graphs (no parsing)."""
    return hashlib.sha256(("graph6\n" + "\n".join(g6)).encode()).hexdigest()[:16]


def pair_fingerprint(pair) -> str:
    """sha256 (16 hex) of the pair's two graphs as refined: their graph6 text (BREC pairs), else
    their sorted node and edge lists with attributes."""
    g6 = (getattr(pair, "meta", None) or {}).get("graph6")
    if g6:
        return graph6_fingerprint(g6)
    else:
        text = json.dumps([[sorted(map(repr, X.nodes(data=True))), sorted(map(repr, X.edges(data=True)))]
                           for X in (pair.g, pair.h)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _refine_fn():
    """``wltools.refine.refine_pair`` (a seam for tests of the cache logic)."""
    from wltools.refine import refine_pair

    return refine_pair


def _batch_fn(refine_pair, test: str, fast: bool):
    """:func:`wltools.refine.batch.refine_pairs` when it computes ``test`` for many pairs at once
    (s3, s4, nK, m1 on the fast path) and ``refine_pair`` is wltools' own (not a stand-in of the
    tests), else None."""
    import wltools.refine as refine
    from wltools.refine.batch import batchable, refine_pairs

    return refine_pairs if fast and batchable(test) and refine_pair is refine.refine_pair else None


def _refine_group(test: str, pairs: list, refine_pair, K: int, fast: bool) -> list[dict]:
    """Records of ``test`` on ``pairs``: one batch (:func:`_batch_fn`), whose wall time is shared
    out over the pairs in proportion to their nodes, or pair by pair, each timed."""
    batch = _batch_fn(refine_pair, test, fast) if len(pairs) > 1 else None
    if batch is None:
        recs = []
        for pair in pairs:
            t0 = time.perf_counter()
            res = refine_pair(pair.g, pair.h, test, rrwp_steps=K, fast=fast)
            recs.append(_record(pair.id, res, time.perf_counter() - t0))
        return recs
    t0 = time.perf_counter()
    results = batch([(pair.g, pair.h) for pair in pairs], test)
    seconds = time.perf_counter() - t0
    nodes = [pair.g.number_of_nodes() + pair.h.number_of_nodes() for pair in pairs]
    total = sum(nodes) or 1
    return [_record(pair.id, res, seconds * k / total) for pair, res, k in zip(pairs, results, nodes)]


def _compute(todo: list, out: dict, writers: dict | None, refine_pair, K: int, fast: bool, progress: bool,
             verdict_only: bool = False) -> None:
    """Refine the (test, pair) items ``todo`` (sorted by test), put the records in ``out`` and
    append them to the cache ``writers``. A test :func:`wltools.refine.batch.batchable` runs as one
    batch over its pairs (records appended when the batch is done); the others pair by pair.
    ``verdict_only``: inside :func:`wltools.refine.kernel.verdict_only`."""
    from wltools.refine.kernel import verdict_only as only_verdicts

    with only_verdicts(verdict_only):
        _compute_all(todo, out, writers, refine_pair, K, fast, progress)


def _compute_all(todo: list, out: dict, writers: dict | None, refine_pair, K: int, fast: bool,
                 progress: bool) -> None:
    from wltools.runtime.progress import progress_bar

    bar = progress_bar(total=len(todo), desc="refine", unit="run", enabled=progress)
    distinguished = 0
    i = 0
    while i < len(todo):
        test = todo[i][0]
        j = i + 1
        if _batch_fn(refine_pair, test, fast) is not None:
            while j < len(todo) and todo[j][0] == test:
                j += 1
        group = [pair for _, pair in todo[i:j]]
        bar.set_description(f"{test} pair {group[0].id}" if len(group) == 1 else f"{test} {len(group)} pairs")
        for pair, rec in zip(group, _refine_group(test, group, refine_pair, K, fast)):
            out[pair.id][test] = rec
            distinguished += bool(rec["distinguished"])
            if writers is not None:
                writers[test].append(rec)
        bar.update(len(group))
        bar.set_postfix(distinguished=distinguished)
        i = j
    bar.close()


def _cache_file(test: str, rrwp_steps: int, fast: bool, version: str, verdict_only: bool = False) -> Path:
    from ..models.encoding_cache import cache_root  # here, not at the top: a model-side module

    k = f"-k{rrwp_steps}" if test == "rrwp" else ""
    only = "-verdicts" if verdict_only else ""
    return cache_root() / "theory" / f"{test}{k}-{'fast' if fast else 'exact'}{only}-{version}.jsonl"


class TheoryCacheError(WLToolsError):
    """A theory cache file is unusable in a way computing cannot work around (a FIFO, device or
    directory where the file should be)."""


#: The fields binding a cache line to its test, settings and pair's graphs (under its ``check``).
_BINDING = ("test", "settings", "graphs")


def _cache_line(rec: dict) -> str:
    """``rec`` (binding fields included) as a cache line, with its ``check``."""
    body = {k: v for k, v in rec.items() if k != "check"}
    return json.dumps({**body, "check": record_checksum(body)}) + "\n"


def _plain(rec: dict) -> dict:
    """The record a caller sees: no ``check``, no binding fields."""
    return {k: v for k, v in rec.items() if k != "check" and k not in _BINDING}


def _bound(rec: dict, binding: dict, fingerprint: str) -> dict:
    return {**rec, **binding, "graphs": fingerprint}


def _belongs(rec: dict, binding: dict, fingerprint: str | None) -> bool:
    """Whether a cache line is this test's, under these settings, of this pair (``fingerprint``;
    None: the pair is not selected now, checked when it is)."""
    return (all(rec.get(k) == v for k, v in binding.items())
            and (fingerprint is None or rec.get("graphs") == fingerprint))


def _read_cache(path: Path) -> tuple[dict[int, dict], int]:
    """``({pair id: record}, number of bad lines)`` of a cache file. A bad line (not a JSON object
    with an integer ``id``, or failing its ``check``) is counted, never used. An unreadable file is
    said in one line and read as empty (bad lines: -1, so nothing is written to it either); a
    non-regular one raises :class:`TheoryCacheError`."""
    out: dict[int, dict] = {}
    try:
        data = read_regular(path, error=TheoryCacheError)
    except TheoryCacheError as exc:
        if "not a regular file" in str(exc):
            raise
        print(f"wltools: {exc}; computing without caching", file=sys.stderr)
        return out, -1
    if data is None:
        return out, 0
    bad = 0
    for raw in data.splitlines():
        rec, why = load_json(raw)
        if (why is not None or not isinstance(rec, dict) or not isinstance(rec.get("id"), int)
                or isinstance(rec.get("id"), bool) or rec.get("check") != record_checksum(rec)):
            bad += 1
            continue
        out[rec["id"]] = {k: v for k, v in rec.items() if k != "check"}
    return out, bad


class _CacheWriter:
    """Appends cache lines to one file; on the first :class:`OSError` (no permission, a full disk)
    says so in one line and stops caching, so the computation goes on without it."""

    def __init__(self, path: Path, binding: dict | None = None, prints: dict[int, str] | None = None):
        self.path, self.fh, self.failed = path, None, False
        self.binding, self.prints = binding or {}, prints or {}

    def _fail(self, exc: OSError) -> None:
        self.failed = True
        print(f"wltools: cannot write the theory cache {self.path} ({exc.strerror or exc}); computing without "
              "caching", file=sys.stderr)
        self.close()

    def rewrite(self, records: dict[int, dict]) -> None:
        """Replace the file by ``records`` (atomically), dropping its bad lines."""
        try:
            write_atomic(self.path, "".join(_cache_line(records[i]) for i in sorted(records)),
                         error=TheoryCacheError)
        except TheoryCacheError as exc:
            self.failed = True
            print(f"wltools: {exc}; computing without caching", file=sys.stderr)

    def append(self, rec: dict) -> None:
        if self.failed:
            return
        try:
            if self.fh is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.fh = open(self.path, "a", encoding="utf-8")
            self.fh.write(_cache_line(_bound(rec, self.binding, self.prints.get(rec["id"]))))
            self.fh.flush()
        except OSError as exc:
            self._fail(exc)

    def close(self) -> None:
        fh, self.fh = self.fh, None
        if fh is not None:
            try:
                fh.close()
            except OSError as exc:
                if not self.failed:
                    self._fail(exc)


def _record(pid: int, result, seconds: float) -> dict:
    d = result.to_dict()
    rec = {"id": pid}
    for f in _RESULT_FIELDS:
        rec[f] = d.get(f)
    rec["class_sizes"] = d.get("class_sizes")
    rec["seconds"] = round(seconds, 6)
    return rec


def _require_memory(todo, rrwp_steps: int, max_memory: int | None) -> None:
    """Refuse the (test, pair) refinements ``todo`` unless each one's estimated peak memory
    (:func:`wltools.refine.cost.peak_bytes`, as ``wltools check`` computes it) fits the budget
    (:func:`wltools.runtime.memory.require`): one :class:`~wltools.errors.ResourceLimitError` line naming
    the pair that needs most and how many of the selected pairs fit. Refusing the whole selection,
    not skipping pairs, keeps every table complete; ``--pairs`` selects the ones that fit."""
    import math

    from wltools.errors import ResourceLimitError
    from wltools.refine.cost import peak_bytes
    from wltools.runtime.memory import require
    from wltools.refine.names import TEST_LABELS

    needs = []
    for test, pair in todo:
        n = max(pair.g.number_of_nodes(), pair.h.number_of_nodes())
        m = max(pair.g.number_of_edges(), pair.h.number_of_edges())
        degrees = {d for X in (pair.g, pair.h) for _, d in X.degree() if d > 0}
        try:
            need = peak_bytes(test, n, m, rrwp_steps=rrwp_steps, max_degree=max(degrees, default=0),
                              lcm_degrees=math.lcm(*degrees) if test == "rrwp" and degrees else None)
        except UnknownNameError:  # a test without a cost model
            continue
        needs.append((need, test, pair.id, n))
    if not needs:
        return
    need, test, pid, n = max(needs)
    try:
        require(need, f"{TEST_LABELS.get(test, test)} on BREC pair {pid} ({n} nodes)", max_memory=max_memory)
    except ResourceLimitError as exc:
        over = set()
        for nd, _, i, _ in needs:
            try:
                require(nd, "", max_memory=max_memory)
            except ResourceLimitError:
                over.add(i)
        ids = {pair.id for _, pair in todo}
        said = str(exc).removesuffix("; --max-memory to change")  # brec theory has no such option yet
        raise ResourceLimitError(f"{said}; {len(ids - over)} of the {len(ids)} pairs to compute fit (--pairs to "
                                 "choose them); nothing computed") from None


def _settings(test: str, rrwp_steps: int, fast: bool, verdict_only: bool = False) -> dict:
    """The settings a verdict of ``test`` depends on, as its cache lines record them."""
    out = {"rrwp_steps": rrwp_steps if test == "rrwp" else None, "fast": bool(fast)}
    return {**out, "verdict_only": True} if verdict_only else out


def _open_caches(test: str, K: int, fast: bool, version: str, prints: dict[int, str],
                 verdict_only: bool) -> tuple[dict, _CacheWriter]:
    """``({pair id: cached line}, writer)`` for ``test``: its full cache file (:func:`_open_cache`),
    and for a verdict-only run also its verdict-only file, which the writer then appends to
    (a full record answers a verdict-only run too, never the other way round)."""
    full, writer = _open_cache(_cache_file(test, K, fast, version), test, K, fast, prints)
    if not verdict_only:
        return full, writer
    only, writer = _open_cache(_cache_file(test, K, fast, version, True), test, K, fast, prints, True)
    return {**only, **full}, writer


def _open_cache(path: Path, test: str, K: int, fast: bool, prints: dict[int, str],
                verdict_only: bool = False) -> tuple[dict, _CacheWriter]:
    """``({pair id: cached line}, writer)`` of ``test``'s cache file. Lines that fail their check or
    do not parse, and lines of another test, other settings or other graphs than the selected
    pair's (a file or line copied from another cache), are never used: each kind is said in one
    line on stderr, the file is rewritten without them and their pairs are recomputed."""
    binding = {"test": test, "settings": _settings(test, K, fast, verdict_only)}
    cached, bad = _read_cache(path)
    writer = _CacheWriter(path, binding, prints)
    writer.failed = bad < 0  # unreadable: said once, not written either
    foreign = [i for i, rec in cached.items() if not _belongs(rec, binding, prints.get(i))]
    for i in foreign:
        del cached[i]
    if bad > 0:
        print(f"wltools: {path}: {bad} line(s) failed their checksum or did not parse (edited or "
              "damaged); never used: those pairs are recomputed and the lines dropped", file=sys.stderr)
    if foreign:
        print(f"wltools: {path}: {len(foreign)} line(s) of another test, other settings or other graphs than "
              f"{test} {binding['settings']} on the pair they name (copied from another cache?); never used: "
              "those pairs are recomputed and the lines dropped", file=sys.stderr)
    if bad > 0 or foreign:
        writer.rewrite(cached)
    return cached, writer


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
    max_memory: int | None = None,
    verdict_only: bool = False,
) -> dict[int, dict[str, dict]]:
    """Verdict of each test on each selected pair: ``{pair id: {test: record}}``.

    Before any refinement, a selection holding a (test, pair) whose estimated peak memory is over
    the budget (``max_memory``, default 80% of the free memory) is refused with one line
    (:func:`_require_memory`): it never starts, swaps or crashes half-way.

    A record holds ``distinguished`` (bool), ``reason``, ``iteration`` (first iteration where the
    colour histograms differ, or None), ``iterations`` (to a stable colouring), ``witness``,
    ``class_sizes`` and ``seconds`` (wall time of that refinement), from
    :func:`wltools.refine.refine_pair` (``rrwp_steps`` defaults to :data:`DEFAULT_RRWP_STEPS`), or
    for the batched tests from :func:`wltools.refine.batch.refine_pairs` (the same records; see
    :func:`_compute`).
    Results are read from / appended to the disk cache described in the module docstring;
    ``stats``, if given, receives the counts ``computed`` and ``cached`` (refinements).
    ``verdict_only``: refinements stop at the first difference (module docstring); the records
    then answer ``distinguished`` and ``iteration`` only.
    """
    refine_pair = _refine_fn()
    tests = parse_tests(tests)
    K = DEFAULT_RRWP_STEPS if rrwp_steps is None else int(rrwp_steps)
    if K < 1:
        raise UnknownNameError(f"rrwp steps must be >= 1, got {K}")
    pair_ids = select_ids(categories, ids)
    version = code_version()
    out: dict[int, dict[str, dict]] = {pid: {} for pid in pair_ids}
    todo: list[tuple[str, object]] = []
    writers: dict[str, _CacheWriter] = {}
    if use_cache:
        try:
            for test in tests:
                _cache_file(test, K, fast, version)
        except (OSError, WLToolsError) as exc:
            print(f"wltools: no usable cache folder ({getattr(exc, 'strerror', None) or exc}); computing the "
                  "theory without caching", file=sys.stderr)
            use_cache = False
    # the cache is keyed by the graphs' graph6 text: the pairs are parsed only for what is computed
    prints = {pid: graph6_fingerprint(raw_graph6(pid)) for pid in pair_ids} if use_cache else {}
    for test in tests:
        cached: dict[int, dict] = {}
        if use_cache:
            cached, writers[test] = _open_caches(test, K, fast, version, prints, verdict_only)
        for pid in pair_ids:
            if pid in cached:
                out[pid][test] = _plain(cached[pid])
            else:
                todo.append((test, pid))
    if todo:
        pairs = {pair.id: pair for pair in load_pairs(ids=sorted({pid for _, pid in todo}))}
        todo = [(test, pairs[pid]) for test, pid in todo]
    if stats is not None:
        stats.update(computed=len(todo), cached=len(tests) * len(pair_ids) - len(todo))
    if todo:
        _require_memory(todo, K, max_memory)
        # cheap tests first, so the bar's ETA is honest about the slow tail (3-WL on CFI)
        order = {t: i for i, t in enumerate(ALL_TESTS)}
        todo.sort(key=lambda tp: (order.get(tp[0], 9), tp[1].meta["n"][0], tp[1].id))
        try:
            _compute(todo, out, writers if use_cache else None, refine_pair, K, fast, progress, verdict_only)
        finally:
            for w in writers.values():
                w.close()
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


def containment_violations(verdicts: dict[int, dict[str, dict]], upper: str = "3wl", *,
                           beyond: bool = False) -> dict[str, list[int]]:
    """Pairs a test distinguishes that ``upper`` (3-WL) does not: ``{test: [ids]}``.

    Only the tests 3-WL bounds are checked (empty if sound); ``beyond=True`` gives the same for
    the tests it does not bound (:func:`wltools.refine.names.may_exceed_3wl`: 4-WL, S4, ego networks,
    M2), where such pairs are expected."""
    from wltools.refine.names import may_exceed_3wl

    top = distinguished_ids(verdicts, upper)
    tests = {t for by in verdicts.values() for t in by if may_exceed_3wl(t) == beyond}
    out = {}
    for t in sorted(tests - {upper}):
        extra = sorted(distinguished_ids(verdicts, t) - top)
        if extra:
            out[t] = extra
    return out
