"""Realised vs theoretical BREC counts of a model run: tables (md / json / csv) and a bar chart.

Input: one or more run directories (:mod:`brec_runner.records.record`) of the same model, preset, model
overrides and protocol: typically several seeds, or the shards of one run. Their
``results*.jsonl`` are merged; a (pair, seed) present twice must agree on its verdict.

Per pair and seed the model *realises* a separation when the pair is distinguished and reliable
(BREC, Sec. 4: RPC). Per category the report gives, across seeds, the mean and spread (population
standard deviation, min and max) of: distinguished pairs, reliability failures, and BREC's
"real correct" (= distinguished - reliability failures, the published counting), next to the
number of pairs the model's declared bound separates (``brec_runner.reports.theory.theory_verdicts``; the
bound recorded in the run's config: for the built-in models PPGT and GRIT GD-WL with RRWP at the
model's K, Graphormer SPD-WL, SGFormer 1-WL, Graph Transformer between 1-WL and 3-WL, see
``brec_runner/configs``; for other models their ``wl_bound`` or ``--bound``, or none) and next to
3-WL; and the published counts of the PPGT paper's Table 1 where the model has them. Per pair it
lists the classes:

- *realised-and-allowed*: realised in at least one seed, and the class's upper bound separates it;
- *unrealised*: the upper bound separates it, the model realises it in no seed;
- *beyond the declared bound*: realised in some seed although the upper bound cannot separate it:
  either the model is not permutation invariant (as LapPE) or its declared bound is wrong; always
  listed by id;
- *reliability failures*: (pair, seed) whose reliability check failed.

**What a report stands on.** The selection, pair ids times seeds, comes from each run's
``config.json`` (the union over the directories given). Every report states per category how many
selected (pair, seed) units have results, lists the *failed* units (their model raised:
``failures.jsonl``, :func:`brec_runner.records.record.read_failures`; a unit with a result since is no
longer failed) and the *missing* ones (not run yet, or interrupted), and marks the run
*unfinished* when any selected unit has no result. When the seeds cover different pairs, each
category's mean ± std over seeds stands only on the pairs every seed ran (the row's ``pairs``,
theory and 3-WL counts too), and a line gives each seed's own counts; a category where no pair was
run by every seed is shown per seed only. A pair is "realised in some seeds only" only when every
seed ran it.
"""

from __future__ import annotations

import io
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from wltools.errors import RunDirectoryError, WLToolsError

from ..records.record import read_failures, read_run
from .formatting import (  # noqa: F401 - format_report, plot_report and the headings: this module's API too
                         BEYOND_BOUND_HEADING,
                         REGULAR_PUBLISHED_NOTE,
                         published_note,
                         format_report,
                         plot_report,
                         )
from .html_page import report_fragment, report_html
from .separations import separation_rows

__all__ = ["Report", "load_runs", "group_runs", "run_groups", "run_key", "with_declared_bound", "RunGroup", "build_report", "build_reports", "format_report", "plot_report", "REGULAR_PUBLISHED_NOTE",
           "BEYOND_BOUND_HEADING"]


_CAT_ORDER = ("basic", "regular", "extension", "cfi", "4vertex", "distance_regular")
_PUBLISHED_KEYS = {"basic": "Basic", "regular": "Regular", "extension": "Extension", "cfi": "CFI"}


def load_runs(run_dirs: Sequence, *, skip_bad: bool = False, bad: list | None = None) -> tuple[dict[str, Any], list[dict]]:
    """(config, merged records) of run directories that share the run settings
    (:func:`brec_runner.records.record.read_run` checks every line; ``skip_bad`` skips untrustworthy lines
    and lists them in ``bad``)."""
    groups = group_runs(run_dirs, skip_bad=skip_bad, bad=bad)
    if len(groups) > 1:
        from ..records.identity import differing_settings

        first = with_declared_bound(groups[0][0])
        names = "; ".join(f"{_describe(cfg)}: {', '.join(str(d) for d in dirs)}" for cfg, _, dirs in groups)
        diff = sorted({k for cfg, _, _ in groups[1:] for k in differing_settings(first, with_declared_bound(cfg))})
        raise RunDirectoryError(f"the run directories hold runs of different settings ({', '.join(diff)} differ: "
                                f"{names}); report them separately, or pass --allow-mixed to get one report per "
                                "setting")
    config, records, _ = groups[0]
    return config, records


def _describe(cfg: dict[str, Any]) -> str:
    bound = with_declared_bound(cfg).get("bound") or {}
    declared = " .. ".join(str(bound[e]) for e in ("lower", "upper") if bound.get(e)) or "no bound"
    return (cfg["model"] + (f"/{cfg['preset']}" if cfg.get("preset") else "")
            + f" [{cfg.get('settings_hash')}, bound {declared}]")


def with_declared_bound(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with the bound its report reads (:func:`brec_runner.configs.theory_bound`: a run
    written before bounds were recorded gets its built-in model's), for its identity."""
    from ..configs import theory_bound

    if "bound" in config:
        return config
    try:
        return {**config, "bound": theory_bound(config)}
    except WLToolsError:  # not a built-in model: no bound known
        return {**config, "bound": None}


def run_key(config: dict[str, Any]) -> str:
    """The identity readers merge runs by (:func:`brec_runner.records.identity.run_identity` with the bound
    the report reads): runs of one model declared 3-WL and 1-WL never share it."""
    from ..records.identity import run_identity

    return run_identity(with_declared_bound(config))


@dataclass
class RunGroup:
    """Run directories of one settings hash, read back and merged (:func:`run_groups`).

    ``records``: merged, sorted by (pair, seed); ``dirs``: as given (the first spelling of each
    directory); ``bad``: results lines skipped with ``skip_bad``; ``selected``: the (pair, seed)
    units their configs select (their ``pairs`` x ``seeds``, united; the recorded units where a
    config names none); ``failures``: entries of their failure logs; ``failure_log_bad``: failure
    log lines left out (:func:`brec_runner.records.record.read_failures`).
    """

    config: dict[str, Any]
    records: list[dict] = field(default_factory=list)
    dirs: list[str] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)
    selected: set = field(default_factory=set)
    failures: list[dict] = field(default_factory=list)
    failure_log_bad: list[str] = field(default_factory=list)
    #: (pair, seed) units recorded more than once (overlapping shards, a copy of a directory, two
    #: directories of one seed), counted once.
    duplicates: int = 0
    #: Units from directories whose model failed the permutation-invariance probe (their config's
    #: ``invariance``, :func:`brec_runner.models.contract.probe_invariance`), and the largest such probe.
    not_invariant_units: int = 0
    not_invariant: dict | None = None


def _same_dir_key(d) -> str:
    """A run directory's identity for comparisons: its resolved path (``./DIR``, ``DIR`` and a
    symbolic link to it are one directory)."""
    return str(Path(d).resolve())


def run_groups(run_dirs: Sequence, *, skip_bad: bool = False) -> list[RunGroup]:
    """Run directories grouped by identity (:func:`run_key`: the settings and the declared bound),
    in the order first met (:class:`RunGroup`).

    A directory given twice (under any spelling) is read once. A (pair, seed) present twice within
    a group must agree on its verdict; it is counted once, and the copies dropped are counted
    (``duplicates``)."""
    if not run_dirs:
        raise RunDirectoryError("no run directory given")
    groups: dict[str, RunGroup] = {}
    merged: dict[str, dict] = {}
    seen: set[str] = set()
    for d in run_dirs:
        key = _same_dir_key(d)
        if key in seen:
            continue
        seen.add(key)
        run = read_run(d, skip_bad=skip_bad)
        h = run_key(run.config)
        group = groups.setdefault(h, RunGroup(run.config))
        recs = merged.setdefault(h, {})
        group.dirs.append(str(d))
        group.bad.extend(run.bad)
        group.duplicates += run.duplicates
        _count_not_invariant(group, run.config, len(run.records))
        for rec in run.records:
            unit = (int(rec["id"]), int(rec["seed"]))
            if unit in recs:
                if (recs[unit]["distinguished"], recs[unit]["reliable"]) != (rec["distinguished"], rec["reliable"]):
                    raise RunDirectoryError(f"pair {unit[0]} seed {unit[1]} has conflicting verdicts in {d}")
                group.duplicates += 1
            recs.setdefault(unit, rec)
        pairs, seeds = run.config.get("pairs") or [], run.config.get("seeds") or []
        if pairs and seeds:
            group.selected |= {(int(p), int(s)) for p in pairs for s in seeds}
        else:  # a config that names no selection: what it recorded
            group.selected |= {(int(r["id"]), int(r["seed"])) for r in run.records}
        group.failures.extend(read_failures(d, run.config, bad=group.failure_log_bad))
    for h, group in groups.items():
        group.records = sorted(merged[h].values(), key=lambda r: (r["id"], r["seed"]))
    return list(groups.values())


def _count_not_invariant(group: RunGroup, config: dict[str, Any], units: int) -> None:
    """Add a directory's units to ``group``'s non-invariant count when its model failed the
    permutation-invariance probe, keeping the probe with the largest difference."""
    inv = config.get("invariance")
    if not (isinstance(inv, dict) and inv.get("invariant") is False):
        return
    group.not_invariant_units += units
    if group.not_invariant is None or inv.get("max_abs_diff", 0) > group.not_invariant.get("max_abs_diff", 0):
        group.not_invariant = inv


def group_runs(run_dirs: Sequence, *, skip_bad: bool = False, bad: list | None = None
               ) -> list[tuple[dict[str, Any], list[dict], list[str]]]:
    """Run directories grouped by settings hash: ``[(config, merged records, dirs), ...]`` in the
    order first met (:func:`run_groups`, without the selection and failures). A (pair, seed)
    present twice within a group must agree on its verdict."""
    groups = run_groups(run_dirs, skip_bad=skip_bad)
    if bad is not None:
        for g in groups:
            bad.extend(g.bad)
    return [(g.config, g.records, g.dirs) for g in groups]


def _spread(values: list[int]) -> dict[str, float]:
    """mean, population std, min and max of per-seed counts."""
    if not values:
        return {"mean": 0.0, "std": 0.0, "min": 0, "max": 0}
    return {"mean": statistics.fmean(values), "std": statistics.pstdev(values) if len(values) > 1 else 0.0,
            "min": min(values), "max": max(values)}


def build_reports(run_dirs: Sequence, *, theory: bool = True, skip_bad: bool = False,
                  allow_mixed: bool = False, verdicts=None) -> list[dict[str, Any]]:
    """One report per settings among ``run_dirs`` (several only with ``allow_mixed``).

    ``verdicts``: where the theoretical verdicts come from instead of computing them, a callable
    ``(suite or None, tests, rrwp_steps, ids) -> {pair id: {test: {"distinguished": bool}}}``
    (e.g. the committed tables, :class:`brec_runner.reports.compare.CommittedTheory`)."""
    groups = run_groups(run_dirs, skip_bad=skip_bad)
    if len(groups) > 1 and not allow_mixed:
        load_runs(run_dirs, skip_bad=skip_bad)  # raises the refusal naming each setting
    return [_report_of(g, theory=theory, verdicts=verdicts) for g in groups]


def build_report(run_dirs: Sequence, *, theory: bool = True, skip_bad: bool = False) -> dict[str, Any]:
    """The report as a JSON-able dict (see the module docstring); ``skip_bad`` skips untrustworthy
    lines and lists them under ``skipped_lines``."""
    groups = run_groups(run_dirs, skip_bad=skip_bad)
    if len(groups) > 1:
        load_runs(run_dirs, skip_bad=skip_bad)  # raises the refusal naming each setting
    return _report_of(groups[0], theory=theory)


def _report_of(group: RunGroup, *, theory: bool, verdicts=None) -> dict[str, Any]:
    rep = _report(group.config, group.records, group.dirs, theory=theory, skipped=group.bad,
                  selected=group.selected, failures=group.failures, failure_log_bad=group.failure_log_bad,
                  verdicts=verdicts)
    rep["duplicate_units"] = group.duplicates
    rep["not_invariant_units"] = group.not_invariant_units
    if group.not_invariant is not None:  # any directory of the group: the report says so
        rep["invariance"] = group.not_invariant
    return rep


def _category_of(pid: int, config: dict[str, Any], known: dict[int, Any]) -> str | None:
    """A selected pair's category: from its records, else the suite's name or BREC's ranges."""
    if known.get(pid):
        return known[pid]
    if config.get("suite"):
        return config["suite"]
    from ..runs.dataset import CATEGORY_IDS

    return next((c for c, ids in CATEGORY_IDS.items() if pid in ids), None)


def _failed_and_missing(selected: set, recorded: set, failures: list[dict] | None,
                        category: dict) -> tuple[list[dict], list[tuple[int, int]]]:
    """``(failed, missing)``: the latest failure-log entry of each selected unit without a result
    (type, message, stage, frame), and the units with neither a result nor a failure."""
    last_failure: dict[tuple[int, int], dict] = {}
    for f in failures or []:
        last_failure[(int(f["id"]), int(f["seed"]))] = f
    failed = [{"id": u[0], "seed": u[1], "category": category.get(u[0]) or f.get("category"),
               "error": f.get("error") or f"{f.get('type')}: {f.get('message')}", "stage": f.get("stage"),
               "where": f.get("where")}
              for u, f in sorted(last_failure.items()) if u not in recorded]
    failed_units = {(f["id"], f["seed"]) for f in failed}
    return failed, sorted(selected - recorded - failed_units)


def _theory_of(config: dict[str, Any], th: dict[str, Any], ids: list[int], source=None) -> tuple[dict, int | None]:
    """``(verdicts, K)``: the theoretical verdicts of the bound's tests and 3-WL on ``ids`` (BREC's
    cached table, or the run's suite; or ``source``, see :func:`build_reports`), and the RRWP
    steps they use."""
    tests = [t for t in dict.fromkeys([th.get("lower"), th.get("upper"), "3wl"]) if t]
    if not (ids and tests):
        return {}, None
    k = th["rrwp_steps"]
    if source is not None:
        return source(config.get("suite"), tests, k, ids), k
    if config.get("suite"):
        from wltools.suites.theory import suite_theory

        return suite_theory(config["suite"], tests, rrwp_steps=k or 32, ids=ids).verdicts, k
    from .theory import theory_verdicts

    return theory_verdicts(tests, rrwp_steps=k, ids=ids), k


def _pairs_by_class(records, ids, seeds, by_seed, common, category, upper_separates) -> dict[str, list]:
    """Each pair's place beside the declared upper bound: realised and allowed, realised by some
    seeds only (among the pairs every seed ran), unrealised, beyond the bound; and the reliability
    failures."""
    realised_allowed, unrealised, beyond, partial = [], [], [], []
    for i in ids:
        realised_in = [s for s in seeds if i in by_seed[s] and by_seed[s][i]["distinguished"] and by_seed[s][i]["reliable"]]
        up = upper_separates(i)
        if realised_in and up is False:
            beyond.append({"id": i, "category": category[i], "seeds": realised_in})
        elif realised_in and up:
            realised_allowed.append(i)
            if len(realised_in) < len(seeds) and i in common:  # not run by some seed: no evidence either way
                partial.append({"id": i, "seeds": realised_in})
        elif up and not realised_in:
            unrealised.append(i)
    relfail = [{"id": r["id"], "seed": r["seed"], "category": r.get("category"),
                "t2_reliability": r["t2_reliability"]} for r in records if not r["reliable"]]
    return {"realised_and_allowed": realised_allowed, "realised_in_some_seeds_only": partial,
            "unrealised": unrealised, "beyond_theory": beyond, "reliability_failures": relfail}


def _category_rows(categories, ids, common, selected, recorded, failed_units, missing, by_seed, seeds, category,
                   sep, lower, upper, have_theory: bool, published) -> tuple[list[dict], list[dict]]:
    """``(rows, coverage)``: one row per category and the total (pairs, mean ± std over seeds of
    the pairs every seed ran, theory counts, units selected / recorded / failed / missing), and the
    categories whose seeds cover different pairs, with each seed's own counts."""
    missing_set = set(missing)
    rows, coverage = [], []
    for cat in categories + ["total"]:
        in_cat = (lambda i: True) if cat == "total" else (lambda i, c=cat: category.get(i) == c)
        rec_ids = [i for i in ids if in_cat(i)]
        cat_ids = [i for i in rec_ids if i in common]
        cat_sel = [u for u in selected if in_cat(u[0])]

        def counts(s: int, pids) -> dict[str, int]:
            rs = [by_seed[s][i] for i in pids if i in by_seed[s]]
            dist, relf = sum(r["distinguished"] for r in rs), sum(not r["reliable"] for r in rs)
            return {"distinguished": dist, "reliability_failures": relf, "real_correct": dist - relf,
                    "distinguished_and_reliable": sum(r["distinguished"] and r["reliable"] for r in rs)}

        per_seed = None
        if len(cat_ids) == len(rec_ids):
            spread_over = "all"
        else:
            spread_over = "common" if cat_ids else "per_seed"
            per_seed = [{"seed": s, "pairs": sum(i in by_seed[s] for i in rec_ids), **counts(s, rec_ids)}
                        for s in seeds]
            coverage.append({"category": cat, "common_pairs": len(cat_ids), "recorded_pairs": len(rec_ids),
                             "per_seed": per_seed})
        if spread_over == "per_seed":
            cat_ids = rec_ids  # no pair in common: the row names all of them, its counts are per seed
        per = [counts(s, cat_ids) for s in seeds]
        spreads = {key: (_spread([c[key] for c in per]) if spread_over != "per_seed" else None)
                   for key in ("distinguished", "reliability_failures", "real_correct", "distinguished_and_reliable")}
        row = {
            "category": cat,
            "pairs": len(cat_ids),
            **spreads,
            "theory_lower": sum(bool(sep(i, lower)) for i in cat_ids) if have_theory and lower else None,
            "theory_upper": sum(bool(sep(i, upper)) for i in cat_ids) if have_theory and upper else None,
            "3wl": sum(bool(sep(i, "3wl")) for i in cat_ids) if have_theory else None,
            "published": None,
            "selected_pairs": len({p for p, _ in cat_sel}),
            "recorded_pairs": len(rec_ids),
            "units": {"selected": len(cat_sel), "recorded": sum(u in recorded for u in cat_sel),
                      "failed": sum(u in failed_units for u in cat_sel),
                      "missing": sum(u in missing_set for u in cat_sel)},
            "failed_units": [list(u) for u in sorted(failed_units) if in_cat(u[0])],
            "missing_units": [list(u) for u in missing if in_cat(u[0])],
            "spread_over": spread_over,
            "per_seed": per_seed,
        }
        if published and cat != "total":
            key = _PUBLISHED_KEYS.get(cat)
            row["published"] = published.get(key) if key else None
        elif published:
            # the sum over the categories of this run only: the paper's total covers all of BREC
            parts = [r["published"] for r in rows]
            row["published"] = sum(parts) if parts and None not in parts else None
        rows.append(row)
    return rows, coverage


def _report(config: dict[str, Any], records: list[dict], run_dirs: Sequence, *, theory: bool,
            skipped: list[str], selected: set | None = None, failures: list[dict] | None = None,
            failure_log_bad: list[str] | None = None, verdicts=None) -> dict[str, Any]:
    from ..configs import theory_bound

    published = None if config.get("suite") else (config.get("theory") or {}).get("published")
    th = theory_bound(config) or {"lower": None, "upper": None, "class": "unknown (no bound declared)",
                                  "note": "", "rrwp_steps": None}
    seeds = sorted({r["seed"] for r in records})
    ids = sorted({r["id"] for r in records})
    recorded = {(int(r["id"]), int(r["seed"])) for r in records}
    selected = set(selected) if selected else set(recorded)
    selected |= recorded  # a record outside the config's selection still counts (and is shown)
    known = {r["id"]: r.get("category") for r in records}
    category = {pid: _category_of(pid, config, known) for pid in sorted({p for p, _ in selected})}

    failed, missing = _failed_and_missing(selected, recorded, failures, category)
    failed_units = {(f["id"], f["seed"]) for f in failed}

    lower, upper = th.get("lower"), th.get("upper")
    verdicts, k = _theory_of(config, th, ids, verdicts) if theory else ({}, None)

    def sep(pid: int, test: str | None) -> bool | None:
        if not test or pid not in verdicts or test not in verdicts[pid]:
            return None
        return bool(verdicts[pid][test]["distinguished"])

    by_seed: dict[int, dict[int, dict]] = defaultdict(dict)
    for r in records:
        by_seed[r["seed"]][r["id"]] = r
    # the pairs every seed ran: spreads over seeds compare like with like only on these
    common = {i for i in ids if all(i in by_seed[s] for s in seeds)}

    present = set(category.values())
    categories = [c for c in _CAT_ORDER if c in present] + sorted(c for c in present if c not in _CAT_ORDER and c)
    rows, coverage = _category_rows(categories, ids, common, selected, recorded, failed_units, missing, by_seed,
                                    seeds, category, sep, lower, upper, bool(verdicts), published)

    return {
        "model": config["model"], "preset": config.get("preset"), "model_overrides": config.get("model_overrides", {}),
        "protocol": config["protocol"], "seeds": seeds, "pairs": len(ids), "records": len(records),
        "run_dirs": [str(d) for d in run_dirs], "device": config.get("device"),
        "settings_hash": config.get("settings_hash"), "code_versions": config.get("code_versions"),
        "relabel_rule": config.get("relabel_rule"), "skipped_lines": list(skipped), "suite": config.get("suite"),
        "invariance": config.get("invariance"),
        "theory": {"lower": lower, "upper": upper, "rrwp_steps": k, "class": th.get("class"),
                   "note": th.get("note"), "computed": bool(verdicts), "source": th.get("source")},
        "published_source": published.get("source") if published else None,
        "published_note": published_note(config, published),
        "categories": rows,
        "pairs_by_class": _pairs_by_class(records, ids, seeds, by_seed, common, category,
                                          lambda i: sep(i, upper)),
        "selection": {"pairs": len({p for p, _ in selected}), "seeds": sorted({s for _, s in selected}),
                      "units": len(selected)},
        "unfinished": bool(failed or missing),
        "failed_units": failed,
        "missing_units": [list(u) for u in missing],
        "seed_coverage": coverage,
        "failure_log_skipped": list(failure_log_bad or []),
        "training": _training(config, records),
        "separations": separation_rows(config.get("suite"), records),
    }


def _training(config: dict[str, Any], records: list[dict]) -> dict[str, Any] | None:
    """Epochs actually trained per unit (early stopping: an epoch loss below the protocol's
    ``loss_threshold`` ends a unit's training): the protocol's epochs, the least, median and most
    trained, how many units stopped early and the threshold itself (0: early stopping off, as the
    training loss is never negative). None without records or epochs."""
    epochs = sorted(int(r["epochs"]) for r in records if r.get("epochs") is not None)
    if not epochs:
        return None
    protocol = config.get("protocol") or {}
    limit = protocol.get("epochs")
    return {"protocol_epochs": limit, "min": epochs[0], "median": epochs[len(epochs) // 2],
            "max": epochs[-1], "units": len(epochs),
            "stopped_early": sum(e < limit for e in epochs) if isinstance(limit, int) else None,
            "loss_threshold": protocol.get("loss_threshold")}


class Report:
    """A BREC report: realised vs theoretical counts per category, and pairs by class.

    Built from run directories (:meth:`from_run_dirs`); ``data`` is the JSON-able dict of
    :func:`build_report`.

    Examples
    --------
    >>> rep = Report({"model": "m", "categories": [{"category": "total", "pairs": 2,
    ...     "distinguished_and_reliable": {"mean": 1.0}, "reliability_failures": {"mean": 0.0}}]})
    >>> rep.realised("total"), rep.reliability_failures("total")
    (1, 0)
    """

    def __init__(self, data: dict[str, Any]):
        self.data = data

    @classmethod
    def from_run_dirs(cls, run_dirs: Sequence, *, theory: bool = True, skip_bad: bool = False) -> "Report":
        """The report of one or more run directories of the same settings (seeds, shards)."""
        return cls(build_report(list(run_dirs), theory=theory, skip_bad=skip_bad))

    def _row(self, category: str) -> dict[str, Any]:
        for row in self.data["categories"]:
            if row["category"] == category:
                return row
        names = ", ".join(r["category"] for r in self.data["categories"])
        raise KeyError(f"no category {category!r} in this report (it has {names})")

    @staticmethod
    def _number(spread: dict | None) -> float | int | None:
        if spread is None:
            return None
        value = spread["mean"]
        return int(value) if float(value).is_integer() else value

    def realised(self, category: str = "total") -> float | int | None:
        """Pairs distinguished and reliable (mean over seeds) in ``category``; over the pairs every
        seed ran, and None when there is none (module docstring)."""
        return self._number(self._row(category)["distinguished_and_reliable"])

    def reliability_failures(self, category: str = "total") -> float | int | None:
        """(pair, seed) reliability failures (mean over seeds) in ``category`` (as :meth:`realised`)."""
        return self._number(self._row(category)["reliability_failures"])

    @property
    def unfinished(self) -> bool:
        """Whether some selected (pair, seed) unit has no result (failed or missing)."""
        return bool(self.data.get("unfinished"))

    @property
    def failed_units(self) -> list[dict[str, Any]]:
        """Units whose model raised and that have no result since: ``{"id", "seed", "category",
        "error", "stage", "where"}`` each (from the run's ``failures.jsonl``)."""
        return list(self.data.get("failed_units") or [])

    @property
    def missing_units(self) -> list[tuple[int, int]]:
        """Selected (pair, seed) units with neither a result nor a failure (not run yet, interrupted)."""
        return [tuple(u) for u in self.data.get("missing_units") or []]

    def theory(self, category: str = "total") -> int | None:
        """Pairs the declared upper bound separates in ``category`` (None: no bound or not computed)."""
        return self._row(category).get("theory_upper")

    @property
    def categories(self) -> list[dict[str, Any]]:
        """Per-category rows (``total`` last)."""
        return list(self.data["categories"])

    @property
    def pairs_by_class(self) -> dict[str, list]:
        """Per-pair outcomes: realised and allowed, unrealised, beyond the bound, reliability failures."""
        return dict(self.data["pairs_by_class"])

    def to_markdown(self) -> str:
        return format_report(self.data, "md")

    def to_json(self) -> str:
        return format_report(self.data, "json")

    def to_csv(self) -> str:
        return format_report(self.data, "csv")

    def plot(self, path) -> Path:
        """A bar chart per category (PNG)."""
        return plot_report(self.data, path)

    def _repr_markdown_(self) -> str:
        """The Markdown report (Jupyter shows it as a table)."""
        return self.to_markdown()

    def _repr_html_(self) -> str:
        """Summary, table and pairs by class as HTML (:func:`brec_runner.reports.html_page.report_fragment`)."""

        return report_fragment(self.data, sections=("summary", "table", "pairs"))

    def to_dataframe(self):
        """One row per category (the CSV report's columns) as a pandas DataFrame; needs pandas
        (:class:`~wltools.draw.display.OptionalDependencyError` otherwise)."""
        from wltools.draw.display import require_pandas

        pandas = require_pandas("Report.to_dataframe()")
        return pandas.read_csv(io.StringIO(self.to_csv()), na_values=["—"], keep_default_na=False)

    def figures(self, *, limit: int | None = None) -> list:
        """Drawings of the pairs missed although the bound separates them and of those separated
        beyond it (:func:`brec_runner.reports.figures.render_pair_figures`)."""
        from .figures import render_pair_figures

        return render_pair_figures(self.data, limit=limit)

    def to_html(self, path=None, *, figures: bool = True) -> str:
        """The self-contained HTML page (:func:`brec_runner.reports.html_page.report_html`), also
        written to ``path`` if given."""
        from wltools.errors import WLToolsError

        from ..records.fileio import write_atomic

        text = report_html(self.data, figures=figures)
        if path is not None:
            write_atomic(path, text, error=WLToolsError)
        return text

    def __repr__(self) -> str:
        total = self._row("total") if self.data.get("categories") else None
        if total is None:
            return f"Report({self.data.get('model')!r})"
        unfinished = (f", unfinished: {len(self.failed_units)} failed, {len(self.missing_units)} missing units"
                      if self.unfinished else "")
        return (f"Report({self.data.get('model')!r}: realised {self.realised()} of {total['pairs']} pairs, "
                f"{self.reliability_failures()} reliability failures{unfinished})")
