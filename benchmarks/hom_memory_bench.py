"""Memory and time of homomorphism counts against the estimates made before them
(:func:`wltools.hom.count.peak_bytes`, :func:`wltools.hom.count.estimated_seconds`), which `wltools
hom` and `wltools check --explain` use to refuse or announce a count before G's dense matrix is
built (not part of the test suite; the tests check the memory bound on smaller sizes).

Each count runs under :mod:`tracemalloc` (numpy's allocations included) on random 4-regular
graphs (complete graphs for path:8, whose counts need object arithmetic) of 60 to 600 vertices:
plain, one- and two-rooted patterns, connected and not. The plan is built before the measurement
(it is cached across counts). Writes ``benchmarks/results/hom_memory.json``: per case the measured
peak, the estimate and their ratio (the estimate must not be below the peak), seconds against the
time estimate; and the smallest and largest ratios.

Usage::

    python benchmarks/hom_memory_bench.py
"""

from __future__ import annotations

import json
import os
import platform
import time
import tracemalloc
from pathlib import Path

import networkx as nx

from wltools.graphs import load_graph
from wltools.hom.count import estimated_seconds, hom_count, hom_counts_at, peak_bytes
from wltools.hom.dense import _plan

CASES = [("path:3", ()), ("cycle:4", ()), ("complete:4", ()), ("cycle:5", (0,)), ("path:3", (0, 1)),
         ("complete:4", (0, 1)), ("cycle:6", (0,)), ("path:2+cycle:3", (0, 3)), ("path:8", ()), ("cycle:5", (0, 1))]


def measure(spec: str, roots: tuple, n: int) -> dict:
    F = load_graph(spec)
    G = nx.complete_graph(n) if spec == "path:8" else nx.random_regular_graph(4, n, seed=n)
    _plan(F, roots)
    tracemalloc.start()
    t0 = time.perf_counter()
    hom_counts_at(F, G, roots) if roots else hom_count(F, G)
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    est = peak_bytes(F, n, roots, max(d for _, d in G.degree()))
    return {"pattern": spec, "roots": list(roots), "n": n, "peak_bytes": peak, "estimate_bytes": est,
            "ratio": round(est / peak, 2), "seconds": round(seconds, 3),
            "estimated_seconds": round(estimated_seconds(F, n, roots), 3)}


def main() -> None:
    rows = [measure(spec, roots, n) for spec, roots in CASES
            for n in ((60, 250) if spec.startswith("complete") else (60, 300, 600))]
    out = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
           "python": platform.python_version(), "rows": rows,
           "smallest_ratio": min(r["ratio"] for r in rows), "largest_ratio": max(r["ratio"] for r in rows)}
    path = Path(__file__).parent / "results" / "hom_memory.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"{path}: ratios {out['smallest_ratio']}..{out['largest_ratio']} over {len(rows)} counts")


if __name__ == "__main__":
    main()
