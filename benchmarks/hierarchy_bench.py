"""Time ``wltools hierarchy --tests all`` as the committed report is regenerated (issue 42 item 5),
and write the figures to ``benchmarks/results/hierarchy.json``.

    python benchmarks/hierarchy_bench.py [--out-dir DIR]

It runs the command of ``docs/hierarchy.md`` (all 21 default tests, BREC's pairs among the
candidates, candidates up to 200 vertices, a 1,400 s budget, notes against the committed BREC
table) into ``--out-dir`` (default: a temporary folder; ``reports`` regenerates the committed
report, with ``WLTOOLS_REGENERATE_REPORTS=1``), in a fresh process, and records its wall and CPU
seconds, the candidates swept, and whether its relations and certificates equal the committed
``reports/hierarchy.json`` (every field but the seconds).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wltools.runtime.provenance import environment  # noqa: E402

COMMAND = ["hierarchy", "--tests", "all", "--brec", "--max-vertices", "200", "--max-seconds", "1400",
           "--against-brec", "reports/brec-theory/verdicts.csv", "--format", "json"]
#: Fields that a resumable record gained after the committed one was written (compared when both have them).
NEWER_FIELDS = ("candidates_swept", "fingerprint")


def _comparable(record: dict) -> dict:
    out = json.loads(json.dumps(record))
    out.pop("seconds", None)
    for key in NEWER_FIELDS:
        out.pop(key, None)
    for row in out["pairs"]:
        for key in ("b_over_a", "a_over_b"):
            if row[key]:
                row[key].pop("seconds")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out-dir", default=None, help="where the command writes hierarchy.{md,json,png}")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "hierarchy.json"))
    args = ap.parse_args()
    committed = json.loads((ROOT / "reports" / "hierarchy.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.out_dir or tmp
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        res = subprocess.run([sys.executable, "-m", "cli", *COMMAND, "--out", out_dir], cwd=ROOT,
                             capture_output=True, text=True, env={**os.environ, "WLTOOLS_CACHE": tmp + "/cache"})
        wall = time.perf_counter() - t0
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if res.returncode != 0:
            sys.exit(res.stderr[-2000:])
        record = json.loads(res.stdout)
    doc = {
        "command": "wltools " + " ".join(COMMAND) + " --out DIR",
        "wall_s": round(wall, 1),
        "cpu_s": round((cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime), 1),
        "seconds_reported": record["seconds"], "out_of_time": record["out_of_time"],
        "candidates_swept": record.get("candidates_swept"),
        "candidates_refined": record["candidates_refined"],
        "certificates": sum(bool(row[k]) for row in record["pairs"] for k in ("b_over_a", "a_over_b")),
        "relations": {rel: sum(row["relation"] == rel for row in record["pairs"])
                      for rel in ("weaker", "stronger", "incomparable", "equal")},
        "hasse_edges": len(record["hasse"]),
        "equals_committed": _comparable(record) == _comparable(committed),
        "load_before": os.getloadavg(),
        "environment": environment(),
    }
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps({k: v for k, v in doc.items() if k != "environment"}, indent=1))


if __name__ == "__main__":
    main()
