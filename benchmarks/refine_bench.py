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
    python benchmarks/refine_bench.py --sweep              # scaling sweep (issue 16), see below

Scaling sweep (``--sweep``): for each test (1-WL, SPD-WL, RD-WL, RRWP-WL with K = 32 and with
K = n, 3-WL) and each graph family (random 3-regular; G(n, 3/n) from ``fast_gnp_random_graph``, the
second graph's edge count adjusted by seeded random edge removals/additions to match the first, so
``refine_pair`` does not answer from the edge counts alone; the path, the second one relabelled by
a seeded permutation) it times ``refine_pair(G, H, test)`` on two graphs of the family (seeds 1 and
2) at n = 100, 200, 400, ... doubling until a point takes more than ``--limit`` seconds (default
60; the series stops there) or ``--max-n``. Every point runs in its own subprocess (graphs built
before the clock starts), killed when it passes the time limit or ``--max-rss`` resident memory;
the subprocess reports wall and CPU seconds, the growth of its peak resident set over the baseline
(``ru_maxrss``) and, with ``--tracemalloc``, the tracemalloc peak; the parent adds the
:func:`wltools.refine.cost.peak_bytes` estimate. The target points of the issue (1-WL at 100,000
nodes, SPD-WL at 5,000, RD-WL, RRWP-WL and 3-WL at 500, on random 3-regular graphs; 3-WL also with
tracemalloc) and the old code (``--old-path``, the package before the rewrite, put first on
``PYTHONPATH``) at the sizes of ``--old-points`` are timed in the same run. Each series gets its
log-log exponent (least squares of log t on log n over the points above 0.05 s). Results go to
``benchmarks/results/refine_scaling.json`` (merged per series with an existing file when
``--tests``/``--families`` select a subset) and a log-log plot ``refine_scaling.png``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
from bench_proc import reset_peak_rss, status_kib, watch

# wltools, brec_runner, scipy and torch are imported where used: a sweep point runs in a
# subprocess that imports only ``wltools.refine``, possibly the old code (``--old-path``).


def _table():
    """(result key, test, RRWP steps): every test, RRWP at the theory tables' K."""
    from wltools.refine.names import DEFAULT_RRWP_STEPS, TESTS

    return [(f"rrwp{DEFAULT_RRWP_STEPS}", t, DEFAULT_RRWP_STEPS) if t == "rrwp" else (t, t, None) for t in TESTS]


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
    import scipy
    import torch

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
    from wltools.refine import refine_pair

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
    from brec_runner.runs.dataset import load_pairs, parse_id_ranges
    from wltools.refine import refine_pair

    pairs = load_pairs()
    cats = list(dict.fromkeys(p.subcategory for p in pairs))
    result = {"hardware": _hardware(), "load_average_start": os.getloadavg(), "tests": {}}
    table = _table() + ([("rrwp_n", "rrwp", None)] if args.rrwp_n else [])
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


# ---------------------------------------------------------------------------------------------
# Scaling sweep (issue 16): one subprocess per point, bounded in time and memory.

#: (series name, test, RRWP steps; None = K = n)
SWEEP_TESTS = [("1wl", "1wl", None), ("spd", "spd", None), ("rd", "rd", None), ("rrwp32", "rrwp", 32),
               ("rrwp_n", "rrwp", None), ("3wl", "3wl", None)]
FAMILIES = ("regular3", "gnp", "path")
#: The issue's targets: (series, family, n, what must hold, tracemalloc)
TARGETS = [("1wl", "regular3", 100_000, "seconds", False), ("spd", "regular3", 5000, "< 60 s", False),
           ("rd", "regular3", 500, "< 60 s", False), ("rrwp32", "regular3", 500, "< 60 s", False),
           ("rrwp_n", "regular3", 500, "< 60 s", False), ("rrwp_n", "gnp", 500, "< 60 s", False),
           ("3wl", "regular3", 500, "< 2 GB", True)]
OLD_POINTS = "1wl:regular3:1600,1wl:path:1600,spd:regular3:1600,3wl:regular3:200,3wl:regular3:400"
#: single-threaded BLAS in every point, for both codes (the machine is shared)
THREAD_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _match_edges(H: nx.Graph, m: int, seed: int) -> None:
    """Remove or add seeded random edges of ``H`` until it has ``m`` edges."""
    rng = np.random.default_rng(seed)
    n = H.number_of_nodes()
    while H.number_of_edges() > m:
        edges = list(H.edges)
        for i in rng.choice(len(edges), H.number_of_edges() - m, replace=False):
            H.remove_edge(*edges[i])
    while H.number_of_edges() < m:
        u, v = (int(x) for x in rng.integers(0, n, 2))
        if u != v:
            H.add_edge(u, v)


def family_pair(family: str, n: int) -> tuple[nx.Graph, nx.Graph]:
    """Two graphs of ``family`` on ``n`` nodes with equal edge counts (seeds 1 and 2)."""
    if family == "regular3":
        return nx.random_regular_graph(3, n, seed=1), nx.random_regular_graph(3, n, seed=2)
    if family == "gnp":
        G, H = nx.fast_gnp_random_graph(n, 3 / n, seed=1), nx.fast_gnp_random_graph(n, 3 / n, seed=2)
        _match_edges(H, G.number_of_edges(), seed=3)
        return G, H
    if family == "path":
        perm = np.random.default_rng(2).permutation(n)
        return nx.path_graph(n), nx.relabel_nodes(nx.path_graph(n), {i: int(perm[i]) for i in range(n)})
    raise ValueError(f"unknown family {family!r}")


def _point(spec: dict) -> None:
    """Subprocess side of one sweep point: build the graphs, print READY, refine, print JSON."""
    import gc
    import resource
    import tracemalloc

    import wltools
    from wltools.refine import refine_pair

    G, H = family_pair(spec["family"], spec["n"])
    gc.collect()
    hwm_reset = reset_peak_rss()  # so VmHWM is the refinement's own peak
    base_kib = status_kib("self", "VmRSS") or 0
    print("READY", flush=True)
    if spec.get("tracemalloc"):
        tracemalloc.start()
    w0, c0 = time.perf_counter(), time.process_time()
    r = refine_pair(G, H, spec["test"], rrwp_steps=spec.get("steps"))
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    traced = tracemalloc.get_traced_memory()[1] if spec.get("tracemalloc") else None
    hwm_kib = status_kib("self", "VmHWM") if hwm_reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds_wall": round(wall, 4), "seconds_cpu": round(cpu, 4),
                      "rss_growth_bytes": max(0, (hwm_kib or 0) - base_kib) * 1024,
                      "tracemalloc_peak_bytes": traced, "edges": G.number_of_edges(),
                      "distinguished": bool(r.distinguished), "iterations": r.iterations,
                      "wltools_file": wltools.__file__}), flush=True)


def run_point(spec: dict, *, limit: float, max_rss: int, old_path: str | None = None, build_limit: float = 600) -> dict:
    """Run one point in a subprocess; kill it past ``limit`` seconds of refinement or ``max_rss``
    bytes resident. Returns the point's record (``status``: ok, timeout, memory, error)."""
    env = dict(os.environ, **THREAD_ENV)
    if old_path:
        env["PYTHONPATH"] = old_path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--point", json.dumps(spec)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines, err, ready, status, rss_max = watch(proc, limit=limit, max_rss=max_rss, poll=0.05,
                                               build_limit=build_limit)
    rec = dict(spec)
    out = [x for x in lines if x.startswith("{")]
    if status is None and proc.returncode == 0 and out:
        rec.update(json.loads(out[-1]), status="ok")
    else:
        rec["status"] = status or "error"
        if status in ("timeout", "memory") and ready is not None:
            rec["seconds_wall"] = round(time.monotonic() - ready, 1)  # lower bound: killed
        if status == "memory":
            rec["rss_bytes_at_kill"] = rss_max
        if rec["status"] == "error":
            rec["stderr_tail"] = "".join(err)[-800:]
    return rec


def _estimate(test: str, fam: str, n: int, steps) -> int:
    """:func:`wltools.refine.cost.peak_bytes` with the pair's edges and degrees, as the CLI passes
    them (above 20,000 nodes the pair is not built: 1.5 n edges, degrees unknown)."""
    from wltools.refine.cost import peak_bytes

    if n > 20000:
        return int(peak_bytes(test, n, int(1.5 * n), rrwp_steps=steps))
    G, H = family_pair(fam, n)
    degs = [d for X in (G, H) for _, d in X.degree()]
    return int(peak_bytes(test, n, max(G.number_of_edges(), H.number_of_edges()), rrwp_steps=steps,
                          max_degree=max(degs), lcm_degrees=math.lcm(*[d for d in degs if d] or [1])))


def _fit(points: list[dict], min_seconds: float = 0.05) -> dict:
    ok = [p for p in points if p["status"] == "ok" and p["seconds_wall"] >= min_seconds]

    def slope(ps):
        if len(ps) < 2:
            return None
        x = np.log([p["n"] for p in ps])
        y = np.log([p["seconds_wall"] for p in ps])
        return round(float(np.polyfit(x, y, 1)[0]), 2)

    return {"exponent": slope(ok), "exponent_last3": slope(ok[-3:]), "fit_points": len(ok)}


def _print_point(label: str, rec: dict) -> None:
    t = rec.get("seconds_wall")
    mem = rec.get("rss_growth_bytes") or rec.get("rss_bytes_at_kill")
    print(f"  {label:28s} n={rec['n']:>7d} {rec['status']:8s} "
          f"{'' if t is None else f'{t:9.3f}s'} rss+ {0 if mem is None else mem / 2**20:8.1f} MiB "
          f"est {rec['peak_bytes_estimate'] / 2**20:8.1f} MiB", flush=True)


def sweep(args) -> dict:
    from wltools import provenance

    out = Path(args.out)
    result = json.loads(out.read_text()) if out.exists() and args.merge else {}
    result.update({
        "description": "refine_pair(G, H, test) on two graphs of a family per point, one subprocess each; "
                       "see benchmarks/refine_bench.py --sweep",
        "limit_seconds": args.limit, "max_rss_bytes": args.max_rss, "thread_env": THREAD_ENV,
        "rrwp_default_steps": 32,
        "environment": provenance.environment(),
        "load_average_start": os.getloadavg(),
        "note": "shared 2-core machine (other agents and a training run); ratios are within one run",
    })
    result.setdefault("commands", []).append("python benchmarks/refine_bench.py " + " ".join(args.argv))
    series = result.setdefault("series", {})
    names = [x for x in SWEEP_TESTS if x[0] in args.tests]
    for name, test, steps in names:
        for fam in args.families:
            pts = []
            n = args.start_n
            while n <= args.max_n:
                spec = {"test": test, "steps": steps, "family": fam, "n": n}
                est = _estimate(test, fam, n, steps)
                if est > args.max_rss:
                    pts.append(dict(spec, status="skipped-estimate", peak_bytes_estimate=est))
                    break
                rec = run_point(spec, limit=args.limit, max_rss=args.max_rss)
                rec["peak_bytes_estimate"] = est
                pts.append(rec)
                _print_point(f"{name}/{fam}", rec)
                if rec["status"] != "ok" or rec["seconds_wall"] > args.limit:
                    break
                n *= 2
            within = [p["n"] for p in pts if p["status"] == "ok" and p["seconds_wall"] <= args.limit]
            series[f"{name}/{fam}"] = {"test": test, "rrwp_steps": steps if steps else "n", "family": fam,
                                      "points": pts, "largest_n_within_limit": max(within, default=None),
                                      **_fit(pts)}
    targets = result.setdefault("targets", {})
    if args.targets:
        for name, fam, n, goal, tm in TARGETS:
            if name not in args.tests:
                continue
            test, steps = next((t, s) for nm, t, s in SWEEP_TESTS if nm == name)
            spec = {"test": test, "steps": steps, "family": fam, "n": n, "tracemalloc": tm}
            rec = run_point(spec, limit=args.limit, max_rss=args.max_rss)
            rec["peak_bytes_estimate"] = _estimate(test, fam, n, steps)
            rec["target"] = goal
            targets[f"{name}/{fam}/{n}"] = rec
            _print_point(f"target {name}/{fam}", rec)
    old = result.setdefault("old_code", {})
    if args.old_path and args.old_points:
        result["old_code_path"] = args.old_path
        for item in args.old_points.split(","):
            name, fam, n = item.split(":")
            if name not in args.tests:
                continue
            test, steps = next((t, s) for nm, t, s in SWEEP_TESTS if nm == name)
            spec = {"test": test, "steps": steps, "family": fam, "n": int(n)}
            rec = run_point(spec, limit=args.limit, max_rss=args.max_rss, old_path=args.old_path)
            rec["peak_bytes_estimate"] = _estimate(test, fam, int(n), steps)
            new = next((p for p in series.get(f"{name}/{fam}", {}).get("points", []) if p["n"] == int(n)), None)
            if new is not None and new["status"] == "ok" and rec.get("seconds_wall"):
                rec["new_seconds_wall"] = new["seconds_wall"]
                ratio = rec["seconds_wall"] / new["seconds_wall"]
                rec["speedup"] = round(ratio, 1) if rec["status"] == "ok" else f">= {ratio:.0f} (old killed)"
            old[f"{name}/{fam}/{n}"] = rec
            _print_point(f"old {name}/{fam}", rec)
            print(f"    speedup {rec.get('speedup')}", flush=True)
    result["load_average_end"] = os.getloadavg()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    plot_scaling(result, out.with_suffix(".png"))
    return result


def plot_scaling(result: dict, path: Path) -> None:
    """Log-log time and memory against n, one column per family."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fams = [f for f in FAMILIES if any(s["family"] == f for s in result["series"].values())]
    fig, axes = plt.subplots(2, len(fams), figsize=(5 * len(fams), 8), squeeze=False)
    colours = dict(zip([x[0] for x in SWEEP_TESTS], plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    for j, fam in enumerate(fams):
        at, am = axes[0, j], axes[1, j]
        for key, s in result["series"].items():
            name = key.split("/")[0]
            if s["family"] != fam:
                continue
            ok = [p for p in s["points"] if p["status"] == "ok"]
            if not ok:
                continue
            lab = f"{name} (slope {s['exponent']})"
            at.plot([p["n"] for p in ok], [p["seconds_wall"] for p in ok], "o-", color=colours[name], label=lab)
            killed = [p for p in s["points"] if p["status"] in ("timeout", "memory") and "seconds_wall" in p]
            at.plot([p["n"] for p in killed], [p["seconds_wall"] for p in killed], "^", color=colours[name])
            am.plot([p["n"] for p in ok], [max(p["rss_growth_bytes"], 1) / 2**20 for p in ok], "o-", color=colours[name], label=name)
            am.plot([p["n"] for p in s["points"]], [p["peak_bytes_estimate"] / 2**20 for p in s["points"]], ":",
                    color=colours[name])
        for key, rec in result.get("old_code", {}).items():
            if rec["family"] == fam and rec.get("seconds_wall"):
                at.plot([rec["n"]], [rec["seconds_wall"]], "x", ms=10, color=colours[key.split("/")[0]])
        at.axhline(result["limit_seconds"], color="grey", ls="--", lw=0.8)
        at.set(xscale="log", yscale="log", title=f"{fam}: refine_pair wall time", xlabel="n", ylabel="seconds")
        am.set(xscale="log", yscale="log", title=f"{fam}: peak RSS growth (dotted: peak_bytes)", xlabel="n", ylabel="MiB")
        at.legend(fontsize=7)
        am.legend(fontsize=7)
    fig.text(0.01, 0.005, "x: old code (before the rewrite); triangle: killed at the limit; "
             "shared 2-core machine, single-threaded BLAS", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def sweep_main(argv) -> dict:
    ap = argparse.ArgumentParser(description="scaling sweep of refine_pair (issue 16)")
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--tests", default=",".join(x[0] for x in SWEEP_TESTS), help="series names, comma-separated")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--start-n", type=int, default=100)
    ap.add_argument("--max-n", type=int, default=102_400)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per point; the series stops past it")
    ap.add_argument("--max-rss", type=int, default=4 * 2**30, help="bytes resident per point subprocess")
    ap.add_argument("--no-targets", dest="targets", action="store_false")
    ap.add_argument("--old-path", default=str(Path(tempfile.gettempdir()) / "wl_old"),
                    help="directory holding the old wltools package (default: wl_old in the temporary folder)")
    ap.add_argument("--old-points", default=OLD_POINTS, help="series:family:n, comma-separated ('' = none)")
    ap.add_argument("--merge", action="store_true", help="update an existing JSON file's series in place")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "refine_scaling.json"))
    args = ap.parse_args(argv)
    args.argv = argv
    args.tests = args.tests.split(",")
    args.families = args.families.split(",")
    if args.old_path and not (Path(args.old_path) / "wltools").is_dir():
        print(f"no old code at {args.old_path}: skipping old-code points", file=sys.stderr)
        args.old_path = None
    return sweep(args)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--point":
        _point(json.loads(sys.argv[2]))
    elif "--sweep" in sys.argv[1:]:
        sweep_main(sys.argv[1:])
    else:
        main()
