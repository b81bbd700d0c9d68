"""Models side by side: one table of many BREC (or suite) runs, the leaderboard papers print.

BREC paper (Wang and Zhang, "Towards Better Evaluation of GNN Expressiveness with BREC Dataset"),
Table 2, and the PPGT paper's Table 1 set models as rows and BREC's categories as columns; this
module builds that table from run directories (:mod:`brec_runner.records.record`) through the report
machinery (:func:`brec_runner.reports.report.build_reports`, one report per settings hash, seeds and
shards merged): per row a model, its declared bound (:func:`brec_runner.configs.theory_bound`)
and seeds; per category and the total the realised count (pairs distinguished with a passing
reliability check, BREC Sec. 4; mean ± population std over seeds), the pairs the bound separates
and those 3-WL separates, on the pairs the run covers.

Rows: one per settings (:func:`brec_runner.records.identity.settings_of`); runs of one model under
different settings are labelled by what differs (:func:`brec_runner.records.identity.differing_settings`:
preset, epochs, device, relabelling rule, ..., in plain words). Per model one row is the
``headline``: at BREC's reference protocol (:func:`at_reference_protocol`), the published
configuration first, then the most pairs and seeds (:func:`_mark_headline`); the Markdown prints
those as the leaderboard and the others as its variants (:mod:`brec_runner.reports.compare_format`). Suite runs (``wltools suite run``) are compared
the same way with the suites as columns: the runs of one model and settings on several suites
make one row.

Theory comes from the committed tables where they hold it (:class:`CommittedTheory`:
``reports/brec-theory/verdicts.json``, ``reports/suites-theory/NAME.json`` and
``reports/leaderboard-theory.json`` for the RRWP steps those lack), else it is computed
(:func:`brec_runner.reports.theory.theory_verdicts`, cached). Formatting: :mod:`brec_runner.reports.compare_format`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from wltools.errors import RunDirectoryError, WLToolsError

__all__ = ["find_runs", "compare_runs", "CommittedTheory", "committed_verdicts", "leaderboards",
           "leaderboard_comparisons", "REPORTS", "BREC_SIZES", "SUPPLEMENT",
           "LEADERBOARDS", "at_reference_protocol"]

#: The committed reports folder of this checkout.
REPORTS = Path(__file__).resolve().parents[2] / "reports"
#: The committed verdicts for the (test, RRWP steps) the theory tables lack, per pair set.
SUPPLEMENT = "leaderboard-theory.json"

_BREC_ORDER = ("basic", "regular", "extension", "cfi", "4vertex", "distance_regular")


def _brec_sizes() -> dict[str, int]:
    from ..runs.dataset import CATEGORY_IDS, NUM_PAIRS

    return {**{c: len(CATEGORY_IDS[c]) for c in _BREC_ORDER}, "total": NUM_PAIRS}


#: Pairs per BREC category (the columns) and in all.
BREC_SIZES = _brec_sizes()


def _is_run(path: Path) -> bool:
    return (path / "config.json").is_file()


def find_runs(paths: Sequence, *, suite: bool = False) -> tuple[list[Path], list[str]]:
    """``(run directories, skipped files)`` among ``paths``: a run directory (it holds a
    ``config.json``) as itself, a folder as every run directory below it; a plain file (a
    README beside the runs, as ``reports/brec-runs/*`` gives) is skipped and named.

    Raises :class:`~wltools.errors.RunDirectoryError` (one line) for a path that does not exist,
    a folder holding no run, no run at all, or a run of the other kind (a suite run given to
    ``brec compare``, a BREC run to ``suite compare``)."""
    if not paths:
        raise RunDirectoryError("no run directory given")
    runs: list[Path] = []
    skipped: list[str] = []
    for p in map(Path, paths):
        if not p.exists():
            raise RunDirectoryError(f"{p} does not exist")
        if not p.is_dir():
            skipped.append(str(p))
            continue
        found = [p] if _is_run(p) else sorted(d.parent for d in p.rglob("config.json") if _inside_no_run(d.parent, p))
        if not found:
            raise RunDirectoryError(f"{p} is not a run directory and holds none (no config.json in it or below)")
        runs += [d for d in found if d not in runs]
    if not runs:
        raise RunDirectoryError(f"no run directory among {', '.join(map(str, paths))} (files are not runs)")
    for d in runs:
        _check_kind(d, suite)
    return runs, skipped


def _inside_no_run(d: Path, top: Path) -> bool:
    """Whether no folder between ``top`` and ``d`` (``d`` excluded) is itself a run directory."""
    return not any(_is_run(a) for a in d.parents if a != top and top in a.parents)


def _check_kind(d: Path, suite: bool) -> None:
    from ..records.record import check_kind, read_config

    check_kind(d, read_config(d), ("suite",) if suite else ("brec",))


def committed_verdicts(data: bytes) -> dict[str, dict[str, bool]]:
    """``{test or rrwp@K: {pair id: distinguished}}`` of a committed theory table's bytes
    (``wltools brec theory`` / ``wltools suite theory`` JSON), pair ids as strings.

    The verdicts alone of a 3.6 MB table are remembered in wltools' cache under the sha256 of its
    bytes (``theory-verdicts/``; a changed table has another digest, so it is read afresh), which
    spares every ``brec compare`` the whole table's parse. Without a usable cache it is parsed each time.

    Examples
    --------
    >>> table = {"settings": {"rrwp_steps": 8}, "pairs": [{"id": 3, "tests": {"1wl": {"distinguished": False},
    ...          "rrwp": {"distinguished": True}}}]}
    >>> committed_verdicts(json.dumps(table).encode())
    {'1wl': {'3': False}, 'rrwp@8': {'3': True}}
    """
    import hashlib

    from wltools.runtime.atomic import write_atomic
    from wltools.runtime.cache_root import CacheUnavailableError, cache_root

    try:
        memo = cache_root() / "theory-verdicts" / f"{hashlib.sha256(data).hexdigest()}.json"
    except CacheUnavailableError:
        memo = None
    if memo is not None and memo.is_file():
        try:
            known = json.loads(memo.read_bytes())
        except ValueError:
            known = None
        if isinstance(known, dict) and all(isinstance(v, dict) and all(type(d) is bool for d in v.values())
                                           for v in known.values()):
            return known  # else a damaged entry: the table itself is read and the entry written again
    parsed = json.loads(data)
    steps = parsed["settings"].get("rrwp_steps")
    table: dict[str, dict[str, bool]] = {}
    for p in parsed["pairs"]:
        for t, v in p["tests"].items():
            table.setdefault(CommittedTheory.key(t, steps), {})[str(int(p["id"]))] = bool(v["distinguished"])
    if memo is not None:
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(memo, json.dumps(table, separators=(",", ":")))
        except (OSError, WLToolsError):  # a read-only cache: parsed again next time
            pass
    return table


class CommittedTheory:
    """Theoretical verdicts from the committed tables, computed only where none holds them.

    A callable for :func:`brec_runner.reports.report.build_reports` (``verdicts=``). BREC: the pairs of
    ``reports/brec-theory/verdicts.json`` (``wltools brec theory``); a suite:
    ``reports/suites-theory/NAME.json`` (``wltools suite theory``); both at their recorded RRWP
    steps. Other steps: ``reports/leaderboard-theory.json`` (:attr:`used` writes it). Anything
    else is computed (:func:`brec_runner.reports.theory.theory_verdicts` /
    :func:`wltools.suites.theory.suite_theory`) unless ``compute`` is False, which raises
    :class:`~wltools.errors.WLToolsError` instead (the leaderboard test: nothing is recomputed).
    """

    def __init__(self, root=None, *, compute: bool = True):
        self.root = Path(root) if root is not None else REPORTS
        self.compute = compute
        self._tables: dict[str, dict[str, dict[int, bool]]] = {}
        #: ``{pair set: {"test@K": {pair id: distinguished}}}`` read from the supplement or computed.
        self.used: dict[str, dict[str, dict[int, bool]]] = {}

    @staticmethod
    def key(test: str, rrwp_steps: int | None) -> str:
        """``test`` or ``rrwp@K``: what a verdict depends on (the test registry is imported only
        for rrwp without its K, which needs the default)."""
        if test != "rrwp":
            return test
        if rrwp_steps is None:
            from wltools.refine.names import DEFAULT_RRWP_STEPS

            rrwp_steps = DEFAULT_RRWP_STEPS
        return f"rrwp@{rrwp_steps}"

    def _path(self, where: str) -> Path:
        return self.root / ("brec-theory/verdicts.json" if where == "brec" else f"suites-theory/{where}.json")

    def size(self, where: str) -> int | None:
        """Pairs in the committed theory table of ``where`` (a suite: all its pairs), None without one."""
        path = self._path(where)
        if not path.is_file():
            return None
        return json.loads(path.read_text())["settings"].get("pairs")

    def _base(self, where: str) -> dict[str, dict[int, bool]]:
        """The committed theory table of ``where`` (``brec`` or a suite), without the supplement."""
        path = self._path(where)
        if not path.is_file():
            return {}
        data = path.read_bytes()
        table = committed_verdicts(data)
        return {key: {int(i): d for i, d in verdicts.items()} for key, verdicts in table.items()}

    def _load(self, where: str) -> dict[str, dict[int, bool]]:
        if where not in self._tables:
            table = self._base(where)
            supplement = self.root / SUPPLEMENT
            if supplement.is_file():
                for key, v in (json.loads(supplement.read_text()).get(where) or {}).items():
                    hit = set(v["distinguished"])
                    table.setdefault(key, {}).update({int(i): i in hit for i in v["pairs"]})
            self._tables[where] = table
        return self._tables[where]

    def __call__(self, suite: str | None, tests: Sequence[str], rrwp_steps: int | None,
                 ids: Sequence[int]) -> dict[int, dict[str, dict]]:
        where = suite or "brec"
        table = self._load(where)
        out: dict[int, dict[str, dict]] = {int(i): {} for i in ids}
        for test in tests:
            key = self.key(test, rrwp_steps)
            have = table.get(key, {})
            missing = [i for i in out if i not in have]
            if missing:
                have = table.setdefault(key, {})
                have.update(self._compute(suite, test, rrwp_steps, missing, key))
            self.used.setdefault(where, {}).setdefault(key, {}).update({i: have[i] for i in out})
            for i in out:
                out[i][test] = {"distinguished": have[i]}
        return out

    def _compute(self, suite, test, rrwp_steps, ids, key) -> dict[int, bool]:
        if not self.compute:
            raise WLToolsError(f"no committed verdict of {key} on {len(ids)} pair(s) of {suite or 'BREC'} "
                               f"(e.g. pair {ids[0]}); regenerate with python reports/gen_leaderboard.py")
        if suite:
            from wltools.suites.theory import suite_theory

            got = suite_theory(suite, [test], rrwp_steps=rrwp_steps or 32, ids=ids).verdicts
        else:
            from .theory import theory_verdicts

            got = theory_verdicts([test], rrwp_steps=rrwp_steps, ids=ids)
        return {int(i): bool(got[i][test]["distinguished"]) for i in ids}

    def supplement(self) -> str:
        """What :attr:`used` holds beyond the theory tables, as ``reports/leaderboard-theory.json``
        stores it: per pair set (``brec`` or a suite) and ``test@K``, the pairs and those
        distinguished; one line per entry."""
        entries: dict[str, list[str]] = {}
        for where, keys in sorted(self.used.items()):
            base = self._base(where)
            for key, verdicts in sorted(keys.items()):
                extra = {i: d for i, d in verdicts.items() if i not in base.get(key, {})}
                if extra:
                    value = {"pairs": sorted(extra), "distinguished": sorted(i for i, d in extra.items() if d)}
                    entries.setdefault(where, []).append(f"  {json.dumps(key)}: {json.dumps(value)}")
        about = ("verdicts the leaderboards use that reports/brec-theory and reports/suites-theory lack "
                 "(other RRWP steps), from brec_runner.reports.theory.theory_verdicts / wltools.suites.theory.suite_theory; "
                 "written by python reports/gen_leaderboard.py")
        parts = [f' "_about": {json.dumps(about)}'] + [f" {json.dumps(w)}: {{\n" + ",\n".join(lines) + "\n }"
                                                        for w, lines in entries.items()]
        return "{\n" + ",\n".join(parts) + "\n}\n"


def _display(path, base: Path | None) -> str:
    """``path`` relative to ``base`` (default: the working directory) where it lies below it."""
    p = Path(path).resolve()
    try:
        return p.relative_to((base or Path.cwd()).resolve()).as_posix()
    except ValueError:
        return str(path)


def _row_key(rep: dict[str, Any], config: dict[str, Any], suite: bool) -> str:
    """Runs with the same key share a row: their identity, settings and declared bound
    (:func:`brec_runner.reports.report.run_key`; for suites the suite's data aside, with the relabelling
    rule kept)."""
    from ..records.identity import settings_of
    from .report import with_declared_bound

    settings = settings_of(with_declared_bound(config))
    if suite:
        settings["dataset"] = config.get("relabel_rule")
    return json.dumps(settings, sort_keys=True, default=str)


def _cell(r: dict[str, Any]) -> dict[str, Any]:
    """A report's category row as a table cell."""
    spread = r.get("distinguished_and_reliable")
    return {"pairs": r["pairs"], "realised": spread,
            "per_seed": None if spread is not None else [
                {"seed": p["seed"], "pairs": p["pairs"], "realised": p["distinguished_and_reliable"]}
                for p in r.get("per_seed") or []],
            "reliability_failures": (r.get("reliability_failures") or {}).get("mean"),
            "real_correct": r.get("real_correct"),
            "theory_lower": r.get("theory_lower"), "theory_upper": r.get("theory_upper"), "3wl": r.get("3wl"),
            "units": r.get("units")}


def _configs(rep: dict[str, Any]) -> dict[str, Any]:
    from ..records.record import read_config

    return read_config(rep["run_dirs"][0])


def _new_row(rep: dict[str, Any], key: str, config: dict[str, Any]) -> dict[str, Any]:
    from ..configs import theory_bound

    th = {**(theory_bound(config) or {}), **{k: v for k, v in rep["theory"].items() if v is not None}}
    return {"model": rep["model"], "preset": rep.get("preset"), "label": "", "key": key, "config": config,
            "bound": {k: th.get(k) for k in ("lower", "upper", "rrwp_steps", "class")},
            "theory_computed": bool(th.get("computed")), "seeds": [], "device": rep.get("device"),
            "epochs": (config.get("protocol") or {}).get("epochs"),
            "settings_hashes": [], "run_dirs": [], "cells": {}, "unfinished": False,
            "units": {"selected": 0, "recorded": 0, "failed": 0, "missing": 0}, "skipped_lines": [],
            "duplicate_units": 0, "not_invariant_units": 0, "not_invariant_max_diff": None}


def _add(row: dict[str, Any], rep: dict[str, Any], base: Path | None) -> None:
    row["seeds"] = sorted(set(row["seeds"]) | set(rep["seeds"] or rep["selection"]["seeds"]))  # none run: the selected
    row["settings_hashes"].append(rep.get("settings_hash"))
    row["run_dirs"] += [_display(d, base) for d in rep["run_dirs"]]
    row["unfinished"] |= bool(rep.get("unfinished"))
    row["skipped_lines"] += list(rep.get("skipped_lines") or [])
    row["duplicate_units"] += rep.get("duplicate_units") or 0
    if rep.get("not_invariant_units"):
        row["not_invariant_units"] += rep["not_invariant_units"]
        row["not_invariant_max_diff"] = max(row["not_invariant_max_diff"] or 0.0, rep["invariance"]["max_abs_diff"])
    total = next(r for r in rep["categories"] if r["category"] == "total")
    for k in row["units"]:
        row["units"][k] += (total.get("units") or {}).get(k, 0)
    for r in rep["categories"]:
        if r["category"] != "total" or not rep.get("suite"):
            row["cells"][r["category"]] = _cell(r)


def _rows(reports: list[dict[str, Any]], suite: bool, base: Path | None) -> list[dict[str, Any]]:
    """One row per key (:func:`_row_key`); a run whose columns a row already holds starts another."""
    rows: list[dict[str, Any]] = []
    for rep in reports:
        config = _configs(rep)
        key = _row_key(rep, config, suite)
        cats = {r["category"] for r in rep["categories"] if r["category"] != "total"}
        row = next((r for r in rows if r["key"] == key and not cats & set(r["cells"]) and suite), None)
        if row is None:
            row = _new_row(rep, key, config)
            rows.append(row)
        _add(row, rep, base)
    _label(rows)
    _mark_headline(rows)
    rows.sort(key=lambda r: (r["model"], r["preset"] or "", r["label"]))
    for r in rows:
        del r["key"], r["config"]
    return rows


def at_reference_protocol(config: dict[str, Any]) -> bool:
    """Whether a run used BREC's reference protocol: the reliability threshold rounded as the
    reference evaluator's (``threshold_rule`` "reference", :class:`brec_runner.runs.protocol.Protocol`)
    and relabelled copies drawn by the current rule (:data:`brec_runner.runs.dataset.RELABEL_RULE`).
    A config without a threshold rule predates it and used the exact critical value."""
    from ..runs.dataset import RELABEL_RULE
    from ..runs.protocol import Protocol

    rule = (config.get("protocol") or {}).get("threshold_rule", "exact")
    return rule == Protocol().threshold_rule and config.get("relabel_rule") == RELABEL_RULE


def _headline_rank(row: dict[str, Any]) -> tuple:
    """Higher is preferred among one model's reference-protocol rows: the model as published (no
    overrides of its configuration, its BREC preset or none), then the most pairs covered, then the
    most seeds."""
    config = row["config"]
    pairs = sum(c["pairs"] for name, c in row["cells"].items() if name != "total")
    return (not config.get("model_overrides"), (config.get("preset") or "brec") == "brec", pairs, len(row["seeds"]))


def _mark_headline(rows: list[dict[str, Any]]) -> None:
    """Set each row's ``reference`` (:func:`at_reference_protocol`) and ``headline``: per model,
    the one reference-protocol row of highest :func:`_headline_rank` (ties: the first by label).
    The headline rows are the leaderboard a paper prints; the others are its variants. Rows are
    never merged here: each stays one identity (settings and declared bound)."""
    best: dict[str, dict[str, Any]] = {}
    for r in sorted(rows, key=lambda r: (r["preset"] or "", r["label"])):
        r["reference"] = at_reference_protocol(r["config"])
        r["headline"] = False
        if r["reference"] and (r["model"] not in best or _headline_rank(r) > _headline_rank(best[r["model"]])):
            best[r["model"]] = r
    for r in best.values():
        r["headline"] = True


#: The order settings appear in a row label.
_LABEL_ORDER = ("bound", "preset", "protocol.epochs", "model_overrides", "model_config", "transform", "device_type",
                "protocol.threshold_rule", "dataset")


def _setting_text(key: str, config: dict[str, Any], others: list[dict[str, Any]]) -> str | None:
    """How one differing setting reads in a row label (None: said by another one, or the preset,
    which the model cell shows)."""
    protocol = config.get("protocol") or {}
    if key == "protocol.epochs":
        return f"{protocol.get('epochs')} epochs"
    if key == "protocol.loss_threshold":
        threshold = protocol.get("loss_threshold")
        return f"early stopping below loss {threshold:g}" if threshold else "no early stopping"
    if key == "protocol.threshold_rule":
        return _threshold_words(protocol)
    if key.startswith("protocol."):
        field = key.split(".", 1)[1]
        return None if field == "threshold" else f"{field.replace('_', ' ')} {protocol.get(field)}"
    if key == "device_type":
        from .compare_format import device_words

        return device_words(config.get("device_type") or config.get("device"))
    if key == "dataset":
        return _copies_words(config.get("relabel_rule"))
    if key == "transform":
        return f"transform {config.get('transform')}"
    if key == "preset":
        return None
    if key == "bound":
        from .report import with_declared_bound

        b = with_declared_bound(config).get("bound") or {}
        steps = f" (K={b['rrwp_steps']})" if b.get("rrwp_steps") else ""
        return "declared " + (" .. ".join(str(b[e]) for e in ("lower", "upper") if b.get(e)) + steps or "no bound")
    mine = config.get(key) or {}
    fields = sorted({f for o in others for f in set(mine) | set(o.get(key) or {})
                     if mine.get(f) != (o.get(key) or {}).get(f)})
    if key == "model_overrides":
        changed = ", ".join(f"{f.replace('_', ' ')} {mine[f]}" for f in fields if f in mine)
        return f"configuration changed: {changed}" if changed else "published configuration"
    return ", ".join(_option_words(f, mine.get(f)) for f in fields)  # model_config


def _threshold_words(protocol: dict[str, Any]) -> str:
    """The reliability threshold in words: BREC's evaluator's rounded 72.34, or the exact value."""
    value = protocol.get("threshold")
    if protocol.get("threshold_rule", "exact") == "reference":
        return "BREC's threshold" + ("" if value is None else f" {value:.2f}")
    return "exact threshold" + ("" if value is None else f" {value:.3f}")


def _copies_words(rule: str | None) -> str:
    """The relabelling rule in words (:data:`brec_runner.runs.dataset.RELABEL_RULE` is the reference)."""
    from ..runs.dataset import RELABEL_RULE

    return "distinct relabelled copies" if rule == RELABEL_RULE else f"relabelled copies may repeat ({rule} rule)"


def _option_words(field: str, value: Any) -> str:
    """A model-configuration option in words: ``dedup_stem=False`` -> "dedup stem off"; None (the
    option did not exist when the run was made) -> "before the dedup stem option"."""
    name = field.replace("_", " ")
    if value is None:
        return f"before the {name} option"
    if isinstance(value, bool):
        return f"{name} {'on' if value else 'off'}"
    return f"{name} {value}"


def _differing(configs: list[dict[str, Any]], *, whole: bool = False) -> list[str]:
    """The settings in which some of ``configs`` differ, in label order (unless ``whole``: the
    model config only when neither preset nor overrides explain it, the data only for the
    relabelling rule)."""
    from ..records.identity import differing_settings
    from .report import with_declared_bound

    configs = [with_declared_bound(c) for c in configs]
    keys = {k for a in configs for b in configs if a is not b for k in differing_settings(a, b)}
    if keys & {"preset", "model_overrides"} and not whole:
        keys.discard("model_config")
    if len(keys) > 1 and not whole:  # the bound column shows it; a label names it when nothing else differs
        keys.discard("bound")
    if len({c.get("relabel_rule") for c in configs}) == 1 and not whole:
        keys.discard("dataset")
    return sorted(keys, key=lambda k: (_LABEL_ORDER.index(k) if k in _LABEL_ORDER else len(_LABEL_ORDER), k))


def _label_by(same: list[dict[str, Any]], *, whole: bool = False) -> None:
    """Append to each row's label the settings in which the rows ``same`` differ."""
    keys = _differing([r["config"] for r in same], whole=whole)
    for r in same:
        others = [o["config"] for o in same if o is not r]
        parts = [t for t in (_setting_text(k, r["config"], others) for k in keys) if t]
        r["label"] = "; ".join(p for p in (r["label"], *parts) if p)


def _label(rows: list[dict[str, Any]]) -> None:
    """Label the rows of a model that has several by the settings in which they differ; rows
    still alike then by every differing setting, and at last by their run directories."""
    def alike(key) -> list[list[dict[str, Any]]]:
        groups: dict[Any, list[dict[str, Any]]] = {}
        for r in rows:
            groups.setdefault(key(r), []).append(r)
        return [g for g in groups.values() if len(g) > 1]

    for same in alike(lambda r: r["model"]):
        _label_by(same)
    for same in alike(lambda r: (r["model"], r["preset"], r["label"])):
        _label_by(same, whole=True)
    for same in alike(lambda r: (r["model"], r["preset"], r["label"])):
        for r in same:
            r["label"] = "; ".join(p for p in (r["label"], ", ".join(Path(d).name for d in r["run_dirs"])) if p)


def compare_runs(paths: Sequence, *, suite: bool = False, theory: bool = True, skip_bad: bool = False,
                 verdicts=None, base=None) -> dict[str, Any]:
    """The comparison of the runs under ``paths`` (:func:`find_runs`) as a JSON-able dict:
    ``kind`` (``brec`` / ``suite``), ``columns`` (categories and ``total``, or suites), ``sizes``
    (pairs per column, where known), ``rows`` (model, label, preset, bound, seeds, run_dirs,
    unfinished, units, cells: column -> pairs, realised spread, theory counts, 3-WL) and
    ``skipped_files``. ``verdicts``: the theory source (default :class:`CommittedTheory`);
    ``base``: run directories are shown relative to it (default the working directory)."""
    from .report import build_reports

    runs, skipped = find_runs(paths, suite=suite)
    if theory and verdicts is None:
        verdicts = CommittedTheory()
    reports = build_reports([str(d) for d in runs], theory=theory, skip_bad=skip_bad, allow_mixed=True,
                            verdicts=verdicts)
    rows = _rows(reports, suite, Path(base) if base is not None else None)
    present = {c for r in rows for c in r["cells"]}
    if suite:
        columns = sorted(present)
        sizer = (verdicts if isinstance(verdicts, CommittedTheory) else CommittedTheory()).size
        sizes: dict[str, int | None] = {c: sizer(c) for c in columns}
    else:
        columns = [c for c in _BREC_ORDER if c in present] + sorted(present - set(_BREC_ORDER) - {"total"})
        columns.append("total")
        sizes = {c: BREC_SIZES.get(c) for c in columns}
    return {"kind": "suite" if suite else "brec", "columns": columns, "sizes": sizes, "rows": rows,
            "theory": bool(theory), "skipped_files": skipped}


#: The committed leaderboards: file under ``reports/`` -> (runs folder under ``reports/``, suite runs?).
LEADERBOARDS = {"leaderboard.md": ("brec-runs", False), "suite-leaderboard.md": ("suite-runs", True)}


def leaderboard_comparisons(root=None, *, compute: bool = False) -> tuple[dict[str, dict], CommittedTheory]:
    """``({leaderboard file: comparison}, theory source)`` of :func:`leaderboards`."""
    root = Path(root) if root is not None else REPORTS.parent
    theory = CommittedTheory(root / "reports", compute=compute)
    out = {}
    for name, (folder, suite) in LEADERBOARDS.items():
        runs = root / "reports" / folder
        if any(runs.rglob("config.json")):
            out[name] = compare_runs([runs], suite=suite, verdicts=theory, base=root)
    return out, theory


def leaderboards(root=None, *, compute: bool = False) -> dict[str, str]:
    """The committed leaderboards as the code writes them now: ``{file under reports/: text}``,
    each the Markdown of :func:`compare_runs` over every run under ``reports/brec-runs`` (or
    ``reports/suite-runs``; a leaderboard only where that folder holds runs), run directories shown
    relative to the checkout ``root``; and ``leaderboard-theory.json``, the verdicts they use
    beyond the committed theory tables (computed only with ``compute``: otherwise a verdict no
    committed file holds raises :class:`~wltools.errors.WLToolsError`). ``python
    reports/gen_leaderboard.py`` writes them."""
    from .compare_format import format_comparison

    comparisons, theory = leaderboard_comparisons(root, compute=compute)
    out = {name: format_comparison(cmp, "md") for name, cmp in comparisons.items()}
    out[SUPPLEMENT] = theory.supplement()
    return out
