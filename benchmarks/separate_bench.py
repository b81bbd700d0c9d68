"""Time ``separate(A, B)`` for every ordered pair of tests the committed hierarchy certifies with a
pair of at most ``--max-n`` vertices (issue 42: at most 60 s on 2 cores when a pair of at most 40
vertices exists), and write the figures to ``benchmarks/results/separate.json``.

    python benchmarks/separate_bench.py [--max-n 40] [--workers 2] [--reverse 6]

Each call is ``separate(a, b)`` as ``wltools separate A B`` runs it (BREC's pairs among the
candidates, a 60 s budget), in a fresh worker process per call group; the figures hold its wall and
CPU seconds, the size it found beside the committed certificate's (it must not be larger: both
searches take candidates smallest first), and every certificate it returns re-checked by
:func:`wltools.hierarchy.verify_certificate`. ``--reverse K`` also times K ordered pairs the
hierarchy finds no pair for (the search runs to its budget or its last candidate: "not found"
is a coverage statement, and its cost is what a user waits for).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _one(job: tuple[str, str, int | None]) -> dict:
    from cli.separate import _brec_candidates
    from wltools.hierarchy import separate, verify_certificate

    a, b, committed_n = job
    wall0, cpu0 = time.perf_counter(), time.process_time()
    r = separate(a, b, pairs=_brec_candidates(), max_seconds=60.0)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    found = getattr(r, "G", None) is not None
    row = {"a": a, "b": b, "committed_n": committed_n, "found": found, "wall_s": round(wall, 2),
           "cpu_s": round(cpu, 2), "candidates_tried": r.tried}
    if found:
        record = json.loads(json.dumps(r.to_dict()))
        row.update(n=record["n"], construction=record["construction"],
                   rechecks=verify_certificate(record) == [])
    else:
        row.update(out_of_time=r.out_of_time)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-n", type=int, default=40, help="ordered pairs whose committed pair has at most this many vertices")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reverse", type=int, default=6, help="also time this many ordered pairs with no certified pair")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "separate.json"))
    args = ap.parse_args()
    record = json.loads((ROOT / "reports" / "hierarchy.json").read_text())
    jobs, none = [], []
    for row in record["pairs"]:
        for key, (a, b) in (("b_over_a", (row["a"], row["b"])), ("a_over_b", (row["b"], row["a"]))):
            cert = row[key]
            if cert is not None and cert["n"] <= args.max_n:
                jobs.append((a, b, cert["n"]))
            elif cert is None:
                none.append((a, b, None))
    jobs += none[:: max(1, len(none) // args.reverse)][: args.reverse] if args.reverse else []
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(_one, jobs, chunksize=4))
    wall = time.perf_counter() - started
    certified = [r for r in rows if r["committed_n"] is not None]
    slow = [r for r in certified if r["wall_s"] > 60 or not r["found"]]
    larger = [r for r in certified if r["found"] and r["n"] > r["committed_n"]]
    doc = {
        "what": f"separate(A, B) for the {len(certified)} ordered pairs of the committed hierarchy certified with "
                f"at most {args.max_n} vertices, plus {len(rows) - len(certified)} without a certified pair",
        "workers": args.workers, "cpu_count": os.cpu_count(), "load_before": os.getloadavg(),
        "total_wall_s": round(wall, 1),
        "certified": {"calls": len(certified), "found": sum(r["found"] for r in certified),
                      "max_wall_s": max(r["wall_s"] for r in certified),
                      "max_cpu_s": max(r["cpu_s"] for r in certified),
                      "median_wall_s": sorted(r["wall_s"] for r in certified)[len(certified) // 2],
                      "over_60_s_or_not_found": [f"{r['a']} {r['b']}" for r in slow],
                      "larger_than_committed": [f"{r['a']} {r['b']}" for r in larger],
                      "all_recheck": all(r.get("rechecks") for r in certified if r["found"])},
        "without_certified_pair": [r for r in rows if r["committed_n"] is None],
        "rows": rows,
    }
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps({k: v for k, v in doc.items() if k not in ("rows",)}, indent=1))


if __name__ == "__main__":
    main()
