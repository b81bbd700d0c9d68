"""Speed of exact colour refinement over all 400 BREC pairs (not part of the test suite).

For each test (1-WL, SPD-WL, RD-WL, RRWP-WL with K = 32, 3-WL) it refines every pair with
``wltools.refine.refine_pair`` and records wall-clock and CPU seconds per category and the number of
distinguished pairs. In the same run it times a straightforward per-tuple Python 3-WL (2-FWL with
dicts of sorted tuples, below) against the fast engine on the same CFI pairs, and checks that both
give the same verdicts. Results go to ``benchmarks/results/refine_bench.json``.

Usage::

    python benchmarks/refine_bench.py                      # table + naive 3-WL on 10 CFI pairs
    python benchmarks/refine_bench.py --naive-ids 260-359  # naive baseline on all CFI pairs (slow)
    python benchmarks/refine_bench.py --rrwp-n             # also RRWP-WL with K = n
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
import scipy
import torch

from brec_runner.dataset import load_pairs, parse_id_ranges
from wltools.refine import refine_pair
from wltools.wl_tests import DEFAULT_RRWP_STEPS, TESTS

#: (result key, test, RRWP steps): every test, RRWP at the theory tables' K.
TABLE = [
    (f"rrwp{DEFAULT_RRWP_STEPS}", t, DEFAULT_RRWP_STEPS) if t == "rrwp" else (t, t, None) for t in TESTS
]


def naive_3wl(G: nx.Graph, H: nx.Graph) -> bool:
    """Straightforward 2-FWL (= 3-WL): per ordered pair a sorted tuple of (colour(u,w), colour(w,v))
    over w, one shared dict table for both graphs; distinguished iff colour histograms differ."""
    graphs = (G, H)
    n = len(G)
    cols = []
    for X in graphs:
        cols.append({(u, v): (0 if u == v else (1 if X.has_edge(u, v) else 2)) for u in range(n) for v in range(n)})
    distinguished = Counter(cols[0].values()) != Counter(cols[1].values())
    while True:
        table: dict = {}
        new = []
        for c in cols:
            new.append(
                {
                    (u, v): table.setdefault(
                        (c[u, v], tuple(sorted((c[u, w], c[w, v]) for w in range(n)))), len(table)
                    )
                    for u in range(n)
                    for v in range(n)
                }
            )
        if len(table) == len(set(cols[0].values()) | set(cols[1].values())):
            return distinguished
        cols = new
        if Counter(cols[0].values()) != Counter(cols[1].values()):
            distinguished = True


def _hardware() -> dict:
    info = {
        "platform": platform.platform(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "torch": torch.__version__,
        "networkx": nx.__version__,
    }
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return info


def _run_test(pairs, test, steps):
    wall, cpu, counts = Counter(), Counter(), Counter()
    for p in pairs:
        w0, c0 = time.perf_counter(), time.process_time()
        r = refine_pair(p.g, p.h, test, rrwp_steps=steps)
        wall[p.subcategory] += time.perf_counter() - w0
        cpu[p.subcategory] += time.process_time() - c0
        counts[p.subcategory] += int(r.distinguished)
    return wall, cpu, counts


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--naive-ids", default="260,270,280,290,300,310,320,330,340,350", help="CFI ids for the naive baseline")
    ap.add_argument("--rrwp-n", action="store_true", help="also run RRWP-WL with K = n")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "refine_bench.json"))
    args = ap.parse_args(argv)

    pairs = load_pairs()
    cats = list(dict.fromkeys(p.subcategory for p in pairs))
    result = {"hardware": _hardware(), "load_average_start": os.getloadavg(), "tests": {}}
    table = list(TABLE) + ([("rrwp_n", "rrwp", None)] if args.rrwp_n else [])
    table_wall = table_cpu = 0.0
    for name, test, steps in table:
        wall, cpu, counts = _run_test(pairs, test, steps)
        entry = {
            "rrwp_steps": steps if test == "rrwp" else None,
            "seconds_wall": {c: round(wall[c], 3) for c in cats},
            "seconds_cpu": {c: round(cpu[c], 3) for c in cats},
            "total_seconds_wall": round(sum(wall.values()), 3),
            "total_seconds_cpu": round(sum(cpu.values()), 3),
            "distinguished": {c: counts[c] for c in cats},
            "distinguished_total": sum(counts.values()),
        }
        result["tests"][name] = entry
        if name != "rrwp_n":
            table_wall += entry["total_seconds_wall"]
            table_cpu += entry["total_seconds_cpu"]
        print(f"{name:7s} {entry['total_seconds_wall']:8.2f}s wall {entry['total_seconds_cpu']:8.2f}s cpu  "
              f"{entry['distinguished_total']:3d} {entry['distinguished']}", flush=True)
    result["table_seconds_wall"] = round(table_wall, 3)
    result["table_seconds_cpu"] = round(table_cpu, 3)

    ids = parse_id_ranges(args.naive_ids)
    sub = load_pairs(ids=ids)
    fast_w = fast_c = naive_w = naive_c = 0.0
    agree = True
    for p in sub:
        w0, c0 = time.perf_counter(), time.process_time()
        a = refine_pair(p.g, p.h, "3wl").distinguished
        fast_w += time.perf_counter() - w0
        fast_c += time.process_time() - c0
        w0, c0 = time.perf_counter(), time.process_time()
        b = naive_3wl(p.g, p.h)
        naive_w += time.perf_counter() - w0
        naive_c += time.process_time() - c0
        agree &= a == b
        print(f"  naive 3-WL pair {p.id} (n={len(p.g)}): fast {a} naive {b}", flush=True)
    result["naive_3wl_cfi"] = {
        "ids": ids,
        "nodes": [len(p.g) for p in sub],
        "fast_seconds_wall": round(fast_w, 3),
        "fast_seconds_cpu": round(fast_c, 3),
        "naive_seconds_wall": round(naive_w, 3),
        "naive_seconds_cpu": round(naive_c, 3),
        "speedup_wall": round(naive_w / fast_w, 2),
        "speedup_cpu": round(naive_c / fast_c, 2),
        "verdicts_agree": bool(agree),
    }
    result["load_average_end"] = os.getloadavg()
    print(json.dumps({k: v for k, v in result.items() if k != "tests"}, indent=1))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
