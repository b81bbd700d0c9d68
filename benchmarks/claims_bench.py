"""Time ``wltools claims verify --all`` on the whole of BREC, each claim apart (issue 31: at most
3 minutes on 2 cores is the target), with a cold theory cache, and write the figures to
``benchmarks/results/claims.json``. The test command runs every claim on the representative part
of BREC (``tests/brec_sample.py``); this runs them on all 400 pairs.

    python benchmarks/claims_bench.py [--run-dir reports/brec-runs/ppgt-small-e20-cpu] [--md reports/claims.md]
                                      [--workers N]

``--md`` also writes the Markdown report of the same run (the committed ``reports/claims.md``).
``--workers`` is passed to the command (default: its own, the CPU count up to 2). Besides the wall
time the figures hold the CPU seconds of the command and its worker processes (user + system):
on a shared machine the wall time grows with the load, the CPU seconds much less.
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-dir", default="reports/brec-runs/ppgt-small-e20-cpu",
                    help="run directory for the brec-run claim (relative to the repository)")
    ap.add_argument("--md", default=None, help="also write the Markdown report here")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "claims.json"))
    ap.add_argument("--workers", type=int, default=None, help="worker processes (default: the command's)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "WLTOOLS_CACHE": cache}
        cmd = [sys.executable, "-m", "cli", "claims", "verify", "--all", "--run-dir", args.run_dir, "--format", "json"]
        if args.workers:
            cmd[5:5] = ["--workers", str(args.workers)]
        load_before = os.getloadavg()
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        res = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if res.returncode not in (0, 1):
            sys.exit(res.stderr)
        load_after = os.getloadavg()
        doc = json.loads(res.stdout)
    if args.md:  # a second run, cold too (its own empty cache): the report's seconds are a cold run's
        with tempfile.TemporaryDirectory() as cache:
            md = subprocess.run(cmd[:-1] + ["md", "--out", args.md], cwd=ROOT, env={**os.environ, "WLTOOLS_CACHE": cache},
                                capture_output=True, text=True)
            if md.returncode != 0:
                sys.exit(md.stderr)
    claims = {c["id"]: {"status": c["status"], "seconds": c["seconds"]} for c in doc["claims"]}
    out = {"command": "wltools claims verify --all --run-dir " + args.run_dir + " (cold theory cache)",
           "wall_seconds": round(wall, 1), "target_seconds": 180, "claims": claims,
           "workers": doc["meta"].get("workers"),
           "cpu_seconds": round(cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime, 1),
           # the machine's load (1, 5, 15 minutes) before and after: a shared machine inflates the time
           "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
           "environment": {k: v for k, v in environment().items() if k != "hostname"}}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({k: out[k] for k in ("wall_seconds", "cpu_seconds", "workers", "claims")}, indent=1))


if __name__ == "__main__":
    main()
