"""Every shipped counting target (15 tasks x graph, node and edge level x 5,000 graphs) against an
independent brute force (igraph's list of all monomorphisms, :mod:`wltools.counting.verify`), timed.

Usage (from the repository root)::

    PYTHONPATH=$PWD nice -n 19 python benchmarks/count_verify_bench.py --jobs 1

Writes ``benchmarks/results/count_verify.json``: the command, wall time, what was checked, the
mismatches (the script exits 1 on any) and the machine. On a shared machine the time is an upper bound.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "count_verify.json"))
    args = ap.parse_args()
    import igraph

    from wltools.counting.verify import verify_all
    from wltools.errors import DataIntegrityError
    from wltools.runtime.provenance import environment

    t0 = time.time()
    try:
        summary, mismatch = verify_all(jobs=args.jobs), None
    except DataIntegrityError as exc:
        summary, mismatch = {"mismatches": None}, str(exc)
    env = environment("cpu")
    env["versions"]["igraph"] = igraph.__version__
    record = {"command": f"PYTHONPATH=$PWD nice -n 19 python benchmarks/count_verify_bench.py --jobs {args.jobs}",
              "reference": "igraph.Graph.get_subisomorphisms_lad(induced=False): every monomorphism listed, "
                           "tallied per graph, node and edge, divided by |Aut(F)|",
              "checked_against": "data/counting/targets.npz (computed by wltools.counting.subgraph.subgraph_counts)",
              **summary, "error": mismatch, "wall_s_total": round(time.time() - t0, 1), "jobs": args.jobs,
              "load_average_at_end": os.getloadavg(), "environment": env}
    Path(args.out).write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps({k: v for k, v in record.items() if k != "environment"}))
    return 1 if mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
