"""The command line and the result file shared by the benchmarks that time BREC runs of the GIN of
``examples/gin.py`` (``ray_bench.py``, ``your_model_bench.py``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["ROOT", "parse_brec_bench_args", "append_record"]


def parse_brec_bench_args(doc: str, argv, *, pairs: str, repeats: int, name: str):
    """``(args, seeds)``: ``--pairs`` (default ``pairs``), ``--seeds`` (comma-separated, default
    0,1), ``--repeats`` and ``--out`` (default ``benchmarks/results/NAME.json``) parsed from ``argv``;
    the description is the first line of ``doc``."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--pairs", default=pairs)
    ap.add_argument("--seeds", default="0,1")
    ap.add_argument("--repeats", type=int, default=repeats)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / f"{name}.json"))
    args = ap.parse_args(argv)
    return args, [int(s) for s in args.seeds.split(",")]


def append_record(path, result: dict) -> None:
    """Append ``result`` to the JSON list in ``path`` (created with its folder when missing)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    existing = json.loads(path.read_text()) if path.exists() else []
    path.write_text(json.dumps(existing + [result], indent=2) + "\n")
