"""Run directories written the way runs write them (:class:`brec_runner.records.record.RunDirectory`), with
records made up for the report tests: a distinguished unit has T² far above the threshold, a
reliable one far below it."""

from __future__ import annotations

from brec_runner.records.record import RunDirectory


def unit_record(pid: int, seed: int, dist: bool, rel: bool = True, category: str = "basic") -> dict:
    """The ``results.jsonl`` record of unit (``pid``, ``seed``) with the given verdicts."""
    return {"id": pid, "seed": seed, "category": category, "subcategory": category,
            "t2_pair": 1e3 if dist else 1.0, "t2_reliability": 1.0 if rel else 500.0, "threshold": 72.34,
            "distinguished": dist, "reliable": rel, "epochs": 1, "final_loss": 0.5, "wall_s": 0.1, "cuda_s": None}


def write_run(d, config: dict, records, shard=None):
    """Append ``records`` to the run directory ``d`` (created with ``config``; ``shard``: (K, N)); returns ``d``."""
    with RunDirectory(d, config, shard, code="test") as rd:
        for r in records:
            rd.append(r)
    return d
