"""How far 4-WL as 3-FWL (``3fwl``, :mod:`wltools.refine.fwl3`) gets on BREC's 100 CFI pairs (not
part of the test suite).

Each pair is refined in its own subprocess (the pair loaded before the clock starts), killed past
``--limit`` seconds or ``--max-rss`` bytes resident; the subprocess reports wall and CPU seconds,
rounds, the number of stable colour classes and the growth of its peak resident set over the
baseline (``VmHWM`` after a reset of ``/proc/self/clear_refs``). The parent adds the 3-WL (2-FWL)
verdict, the estimate :func:`wltools.refine.cost.peak_bytes` and stops starting new pairs once
``--budget`` seconds have passed. Pairs run in order of size, first the 40 pairs 3-WL does not
separate (ids 320-359; BREC says 20 of them need 4-WL, 20 are 4-WL-indistinguishable), then the
others (``--ids`` to choose). The result file says which pairs 3fwl separates and 3wl does not,
the CPU time per item (``seconds / (2 n^4 (rounds + 1))``: every round, the last one that finds the
colouring stable included, sorts the ``n^4`` items of both graphs) and an extrapolation for the
pairs not finished: that time per item (median of the finished pairs of the largest sizes) times
the items, at the median number of rounds, and :func:`~wltools.refine.cost.peak_bytes`.

Usage::

    python benchmarks/fwl3_bench.py --budget 3300 --limit 900    # writes benchmarks/results/fwl3.json
    python benchmarks/fwl3_bench.py --resume --ids 260-319       # add pairs not finished there
    python benchmarks/fwl3_bench.py --ids 341,345,352,356 --before 5f3a69e --out benchmarks/results/fwl3_largest.json
                                       # each pair also with the code of 5f3a69e, just before: the same-run ratio

The machine is recorded in the file; on a shared machine (other work running) the times are upper
bounds of what an idle machine takes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from bench_proc import reset_peak_rss, status_kib, watch  # noqa: E402 (the script's own folder)

THREAD_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
OUT = ROOT / "benchmarks" / "results" / "fwl3.json"


def _worker(pid: int) -> None:
    """Subprocess side: load pair ``pid``, print READY, refine with 3fwl, print one JSON line."""
    import gc

    from brec_runner.runs.dataset import load_pairs
    from wltools.refine import refine_pair

    pair = load_pairs(ids=[pid])[0]
    gc.collect()
    reset = reset_peak_rss()
    base = status_kib("self", "VmRSS") or 0
    print("READY", flush=True)
    w0, c0 = time.perf_counter(), time.process_time()
    r = refine_pair(pair.g, pair.h, "3fwl")
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    hwm = status_kib("self", "VmHWM") if reset else None
    print(json.dumps({"seconds_wall": round(wall, 3), "seconds_cpu": round(cpu, 3),
                      "rss_growth_bytes": None if hwm is None else max(0, hwm - base) * 1024,
                      "distinguished": bool(r.distinguished), "iteration": r.iteration,
                      "iterations": r.iterations, "classes_g": len(r.class_sizes[0]),
                      "witness": r.witness[:300]}), flush=True)


def run_pair(pid: int, limit: float, max_rss: int, tree: Path = ROOT) -> dict:
    """One pair in a subprocess, with the code of ``tree`` (this one, or an exported older
    revision: its own copy of this script puts it first on the path); ``status`` ok, timeout,
    memory or error."""
    env = dict(os.environ, **THREAD_ENV)
    proc = subprocess.Popen([sys.executable, str(tree / "benchmarks" / "fwl3_bench.py"), "--worker", str(pid)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tree)
    out, err, ready, status, rss_max = watch(proc, limit=limit, max_rss=max_rss, poll=0.1)
    lines = [x for x in out if x.startswith("{")]
    if status is None and proc.returncode == 0 and lines:
        return {**json.loads(lines[-1]), "status": "ok"}
    rec = {"status": status or "error", "rss_max_bytes": rss_max}
    if ready is not None and status:
        rec["seconds_wall_at_kill"] = round(time.monotonic() - ready, 1)
    if rec["status"] == "error":
        rec["stderr_tail"] = "".join(err)[-600:]
    return rec


def _exported(rev: str, tmp: Path) -> Path:
    """The tracked files of git revision ``rev`` under ``tmp`` (``git archive``; no worktree)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    return tmp


def _speedup(before: dict, after: dict) -> dict:
    """CPU and wall ratios before / after, and whether both runs gave the same verdict, round
    and stable class count."""
    if before.get("status") != "ok" or after.get("status") != "ok":
        return {"status": f"before {before.get('status')}, after {after.get('status')}"}
    same = all(before[k] == after[k] for k in ("distinguished", "iteration", "iterations", "classes_g", "witness"))
    return {"cpu": round(before["seconds_cpu"] / after["seconds_cpu"], 2),
            "wall": round(before["seconds_wall"] / after["seconds_wall"], 2), "same_result": same}


def _extrapolate(records: list[dict]) -> dict:
    """Time per item of the finished pairs, and predictions for the others."""
    done = [r for r in records if r.get("status") == "ok"]
    if not done:
        return {}
    for r in done:
        items = 2 * r["n"] ** 4 * (r["iterations"] + 1)
        r["ns_per_item"] = round(1e9 * r["seconds_wall"] / items, 2)
        r["ns_per_item_cpu"] = round(1e9 * r["seconds_cpu"] / items, 2)
    big = sorted(done, key=lambda r: r["n"])[-max(3, len(done) // 4):]
    ns = statistics.median(r["ns_per_item_cpu"] for r in big)
    rounds = statistics.median(r["iterations"] for r in done)
    mem_ratio = [r["rss_growth_bytes"] / r["estimate_bytes"] for r in done if r.get("rss_growth_bytes")]
    pred = {}
    for r in records:
        if r.get("status") != "ok":
            n = r["n"]
            pred[str(r["id"])] = {"n": n, "cpu_seconds": round(ns * 1e-9 * 2 * n**4 * (rounds + 1)),
                                  "estimate_bytes": r["estimate_bytes"]}
    from wltools.refine.cost import peak_bytes

    r1 = int(round(rounds)) + 1
    larger = {str(n): {"cpu_seconds_per_round": round(ns * 1e-9 * 2 * n**4),
                       f"cpu_seconds_{r1}_rounds": round(ns * 1e-9 * 2 * n**4 * r1),
                       "estimate_bytes": peak_bytes("3fwl", n, 2 * n)} for n in (250, 300, 400, 500)}
    return {"basis": "CPU seconds (the machine is shared: wall time includes waiting for a core)",
            "ns_per_item_cpu_median_largest": ns, "from_pairs": [r["id"] for r in big], "rounds_median": rounds,
            "rss_growth_over_estimate": [round(min(mem_ratio), 2), round(max(mem_ratio), 2)] if mem_ratio else None,
            "predicted": pred,
            "predicted_total_cpu_seconds": sum(p["cpu_seconds"] for p in pred.values()),
            "larger_graphs": larger}


def _finish(result: dict, path: Path) -> None:
    """Summary and extrapolation of the records so far, written atomically to ``path``."""
    result["extrapolation"] = _extrapolate(result["pairs"])
    ok = [r for r in result["pairs"] if r.get("status") == "ok"]
    result["summary"] = {
        "finished": len(ok),
        "separated": sorted(r["id"] for r in ok if r["distinguished"]),
        "separated_not_by_3wl": sorted(r["id"] for r in ok if r["distinguished"] and not r["3wl_distinguished"]),
        "separated_by_3wl_not_3fwl": sorted(r["id"] for r in ok if r["3wl_distinguished"] and not r["distinguished"]),
        "not_separated": sorted(r["id"] for r in ok if not r["distinguished"]),
        "unfinished": sorted(r["id"] for r in result["pairs"] if r.get("status") != "ok"),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(result, indent=1) + "\n")
    tmp.replace(path)  # after every pair: an interrupted run keeps what it measured


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--ids", default=None, help="Pair ids, e.g. 320-359 (default: the 100 CFI pairs, 320-359 first).")
    ap.add_argument("--limit", type=float, default=900, help="Seconds per pair before it is killed.")
    ap.add_argument("--budget", type=float, default=3300, help="Seconds after which no new pair starts.")
    ap.add_argument("--max-n", type=int, default=10**9, help="Skip pairs with more nodes.")
    ap.add_argument("--max-rss", type=float, default=8.0, help="GiB resident at which a pair is killed.")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--before", default=None, metavar="REV",
                    help="Also run each pair with the code of git revision REV, just before it (same run): "
                         "the record gets 'before' and the CPU-time ratio.")
    ap.add_argument("--resume", action="store_true",
                    help="Keep the finished pairs of --out and run only the selected pairs not finished there.")
    args = ap.parse_args(argv)
    if args.worker is not None:
        _worker(args.worker)
        return {}

    from brec_runner.runs.dataset import load_pairs, parse_id_ranges
    from wltools.runtime import provenance
    from wltools.refine import refine_pair
    from wltools.refine.cost import peak_bytes

    if args.ids:
        ids = list(parse_id_ranges(args.ids))
        pairs = sorted(load_pairs(ids=ids), key=lambda p: (len(p.g), p.id))
    else:
        pairs = load_pairs(ids=range(260, 360))
        pairs = sorted(pairs, key=lambda p: (not 320 <= p.id < 360, len(p.g), p.id))
    result = {
        "what": "3fwl (4-WL as 3-FWL) on BREC CFI pairs, each pair in its own subprocess",
        "settings": {"limit_s": args.limit, "budget_s": args.budget, "max_n": args.max_n,
                     "max_rss_gib": args.max_rss, "threads": THREAD_ENV},
        "environment": provenance.environment(),
        "note": "2-core machine shared with other work while this ran: times are upper bounds",
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "pairs": [],
    }
    before_tree = None
    if args.before:
        import tempfile

        before_tree = _exported(args.before, Path(tempfile.mkdtemp(prefix="fwl3-before-")))
        result["before"] = {"revision": args.before, "how": "git archive REV, each pair's worker run from it"}
    t0 = time.monotonic()
    path = Path(args.out)
    kept: dict[int, dict] = {}
    if args.resume and path.exists():
        old = json.loads(path.read_text())
        kept = {r["id"]: r for r in old["pairs"]}
        result["runs"] = old.get("runs", [{"started": old.get("started"), "settings": old.get("settings")}])
        result["pairs"] = [r for r in old["pairs"]]
    result.setdefault("runs", []).append({"started": result["started"], "settings": result["settings"],
                                          "ids": args.ids or "260-359"})
    for p in pairs:
        if kept.get(p.id, {}).get("status") == "ok":
            continue
        result["pairs"] = [r for r in result["pairs"] if r["id"] != p.id]
        n, m = len(p.g), p.g.number_of_edges()
        rec = {"id": p.id, "n": n, "m": m, "estimate_bytes": peak_bytes("3fwl", n, m)}
        w = refine_pair(p.g, p.h, "3wl")
        rec["3wl_distinguished"] = bool(w.distinguished)
        if n > args.max_n:
            rec["status"] = "skipped (--max-n)"
        elif time.monotonic() - t0 > args.budget:
            rec["status"] = "not run (budget)"
        else:
            if before_tree is not None:
                rec["before"] = run_pair(p.id, args.limit, int(args.max_rss * 2**30), before_tree)
            rec.update(run_pair(p.id, args.limit, int(args.max_rss * 2**30)))
            if before_tree is not None:
                rec["speedup"] = _speedup(rec["before"], rec)
        result["pairs"].append(rec)
        print(json.dumps({k: v for k, v in rec.items() if k != "witness"}), flush=True)
        result["runs"][-1]["elapsed_s"] = round(time.monotonic() - t0, 1)
        _finish(result, path)
    _finish(result, path)
    return result


if __name__ == "__main__":
    main()
