"""``wltools brec upgrade``: stamp a run directory written before record identity (format 1) with
the current format (:data:`brec_runner.records.identity.FORMAT`), in place (the layout and identity rules are in :mod:`brec_runner.records.record`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from wltools.errors import RunDirectoryError

from .identity import FORMAT, seal_config, settings_hash, stamp
from .locks import FileLock
from .record import CONFIG, RecordError, check_kind, read_config, read_results, results_files, write_json_atomic

__all__ = ["upgrade_legacy"]


def upgrade_legacy(run_dir) -> dict[str, Any]:
    """Stamp a format-1 BREC run directory (written before record identity) with the current format
    (its settings hash covers the declared bound), in place; another kind of run (a count run has
    no format either) is refused, never rewritten.

    The records keep every value they had; they get the identity of the settings they were made
    under: the protocol's ``threshold_rule`` ``"exact"`` (the computed critical value, which format-1
    runs used), the dataset digest of the relabelling rule ``plain-v1`` (copies not re-drawn when
    repeated) and the code version ``legacy-<git revision in the config>``. Such a run cannot be
    resumed by this code (its relabelling rule is gone); it can be reported and verified. The
    originals are kept as ``*.v1`` files. Lines that are not complete JSON records are an error;
    nothing is written then.
    """
    from ..runs.dataset import dataset_digest

    run_dir = Path(run_dir)
    cfg = read_config(run_dir)
    check_kind(run_dir, cfg, ("brec",))  # a count run has no format either: never rewritten as a BREC run
    if cfg.get("format", 1) != 1:
        raise RunDirectoryError(f"{run_dir} is already format {cfg.get('format')}; nothing to upgrade")
    with FileLock(run_dir / ".lock", f"run directory {run_dir}"):
        files = {f: read_results(f) for f in results_files(run_dir)}
        thr = (cfg.get("protocol") or {}).get("threshold")
        for f, recs in files.items():
            for i, r in enumerate(recs, start=1):
                if r.get("threshold") != thr:
                    raise RecordError(f"{f}:{i}: threshold {r.get('threshold')} is not the config's {thr}")
        rev = (cfg.get("environment") or {}).get("git_revision") or "unknown"
        new = {**cfg, "format": FORMAT, "dataset": dataset_digest("plain-v1"), "relabel_rule": "plain-v1",
               "protocol": {**cfg["protocol"], "threshold_rule": "exact"},
               "upgraded": "format 1 -> 2: identity stamped on the records as they were (threshold rule exact, "
                           "relabel rule plain-v1)"}
        new.setdefault("model_config", None)
        new.setdefault("model_overrides", {})
        new.setdefault("transform", None)
        new["settings_hash"] = settings_hash(new)
        code = f"legacy-{str(rev)[:12]}"
        new["code_versions"] = [code]
        for f, recs in files.items():
            lines = "".join(json.dumps(stamp({**r, "threshold_rule": "exact"}, new, code), sort_keys=True) + "\n"
                            for r in recs)
            os.replace(f, f.with_name(f.name + ".v1"))
            f.write_text(lines, encoding="utf-8")
        os.replace(run_dir / CONFIG, run_dir / (CONFIG + ".v1"))
        write_json_atomic(run_dir / CONFIG, seal_config(new))
    return {"records": sum(len(r) for r in files.values()), "files": len(files), "code": code}
