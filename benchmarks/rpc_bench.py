"""RPC throughput: the one-pair loop vs the multi-pair mode and local workers, same settings.

Picks, for each of Basic / Regular / Extension, the first ``--per-category`` pairs of the category's
most common (nodes, edges) size (so the multi-pair mode can group different pairs), and runs every
(pair, seed) unit through :func:`brec_runner.runs.evaluate.run` into a fresh run directory in each
mode:

- ``single``: the one-pair loop in one process (``brec run``);
- ``multipair``: ``--multi-pair G`` in one process (:mod:`brec_runner.runs.multipair`);
- ``workers``: the one-pair loop in ``W`` processes (``--workers W``, :mod:`brec_runner.workers`);
- ``multipair+workers``: both.

Every mode uses ``--threads`` torch threads per process and the same protocol; the encoding cache is
warmed first, so all modes pay the same (disk) encoding cost, plus process start-up for the worker
modes. Reports pairs per minute, the speed-up over ``single`` (overall, and per category for the
one-process modes, from the units' recorded wall times), whether every mode's verdicts
(distinguished, reliable) equal the one-pair loop's, and the machine's load average before and
after (the ratios are fair only when other work on the machine is steady). Appends one JSON record to
benchmarks/results/rpc_bench.json (default). Not a test.

    python benchmarks/rpc_bench.py --model ppgt --preset small --per-category 2 \
        --seeds 0,1,2,3,4,5,6,7 --group 8 --workers 2 --epochs 20
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

MODES = ("single", "multipair", "workers", "multipair+workers")


def _select_pairs(per_category: int):
    from brec_runner.runs import dataset

    pairs = []
    for cat in ("basic", "regular", "extension"):
        cat_pairs = dataset.load_pairs(categories=[cat])
        size = Counter((tuple(p.meta["n"]), tuple(p.meta["m"])) for p in cat_pairs).most_common(1)[0][0]
        pairs += [p for p in cat_pairs if (tuple(p.meta["n"]), tuple(p.meta["m"])) == size][:per_category]
    return pairs


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="ppgt")
    ap.add_argument("--preset", default="small")
    ap.add_argument("--per-category", type=int, default=1)
    ap.add_argument("--seeds", default="0,1,2,3,4,5,6,7")
    ap.add_argument("--group", type=int, default=8, help="G of --multi-pair")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="W of --workers (default: cores)")
    ap.add_argument("--modes", default=",".join(MODES), help=f"comma-separated subset of {','.join(MODES)}")
    ap.add_argument("--epochs", type=int, default=None, help="override the protocol's epochs")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads per process")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "rpc_bench.json"))
    args = ap.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    if "single" not in modes or any(m not in MODES for m in modes):
        ap.error(f"--modes must include single and be among {MODES}")

    import torch

    from brec_runner.configs import load_protocol
    from brec_runner.models.encoding_cache import encoded_graphs
    from brec_runner.records.record import read_results, results_files
    from brec_runner.runs import dataset
    from brec_runner.runs.evaluate import run
    from wltools.models import registry
    from portable_paths import portable
    from wltools.runtime.provenance import package_versions

    torch.set_num_threads(args.threads)
    protocol = load_protocol(args.model, **({"epochs": args.epochs} if args.epochs is not None else {}))
    seeds = [int(s) for s in args.seeds.split(",")]
    pairs = _select_pairs(args.per_category)
    ids = [p.id for p in pairs]

    # warm the encoding cache (what every mode then loads from disk)
    tf = registry.create_transform(args.model, args.preset)
    tkey = registry.transform_key(args.model, args.preset)
    for p in pairs:
        encoded_graphs(dataset.relabelings(p, protocol.relabel_seed, protocol.num_relabelings), tf, tkey)
        encoded_graphs(dataset.reliability_set(p, protocol.relabel_seed, protocol.reliability_size), tf, tkey)

    settings = {
        "single": {},
        "multipair": {"multi_pair": args.group},
        "workers": {"workers": args.workers},
        "multipair+workers": {"multi_pair": args.group, "workers": args.workers},
    }
    units = len(ids) * len(seeds)
    timings, verdicts = {}, {}
    per_category: dict[str, dict] = {}  # category -> mode -> summed unit wall times (one-process modes)
    load_before = os.getloadavg()  # other work on the machine: the ratios are only fair when it is steady
    with tempfile.TemporaryDirectory(prefix="rpc-bench-") as tmp:
        for mode in modes:
            out = Path(tmp) / mode.replace("+", "-")
            if args.device.startswith("cuda"):
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            run(args.model, preset=args.preset, protocol=protocol, pairs=ids, categories=None, seeds=seeds,
                device=args.device, out=out, progress=False, threads=args.threads, **settings[mode])
            if args.device.startswith("cuda"):
                torch.cuda.synchronize()
            seconds = time.perf_counter() - t0
            recs = [r for f in results_files(out) for r in read_results(f)]
            assert len(recs) == units and len({(r["id"], r["seed"]) for r in recs}) == units
            verdicts[mode] = {(r["id"], r["seed"]): (r["distinguished"], r["reliable"]) for r in recs}
            if "workers" not in mode:  # one process: its units' wall times add up to its time
                for r in recs:
                    cat = per_category.setdefault(r["category"], {}).setdefault(mode, {"units": 0, "unit_seconds": 0.0})
                    cat["units"] += 1
                    cat["unit_seconds"] += r["wall_s"]
            timings[mode] = {"seconds": seconds, "pairs_per_minute": 60 * units / seconds,
                             "distinguished": sum(v[0] for v in verdicts[mode].values()),
                             "reliable": sum(v[1] for v in verdicts[mode].values()),
                             "record_modes": dict(Counter(r.get("mode", "single") for r in recs)),
                             **settings[mode]}
            print(f"{mode:>18}: {seconds:7.1f} s  {timings[mode]['pairs_per_minute']:7.1f} pairs/min", flush=True)

    result = {
        "model": args.model, "preset": args.preset, "device": args.device, "threads_per_process": args.threads,
        "protocol": protocol.to_dict(), "seeds": seeds, "pairs": ids, "units": units,
        "group_size": args.group, "workers": args.workers,
        "timings": timings,
        "speedup_vs_single": {m: timings["single"]["seconds"] / timings[m]["seconds"] for m in modes},
        # per category, from the units' own wall times (a group's time is shared by its units)
        "per_category": {c: {**v, "speedup_multipair": (v["single"]["unit_seconds"] / v["multipair"]["unit_seconds"]
                                                        if "multipair" in v else None)}
                         for c, v in per_category.items()},
        "identical_verdicts": {m: verdicts[m] == verdicts["single"] for m in modes},
        "command": portable("python benchmarks/rpc_bench.py " + " ".join(argv if argv is not None else sys.argv[1:])),
        "machine": {"platform": platform.platform(), "cpu_count": os.cpu_count(),
                    "processor": platform.processor() or None,
                    "loadavg_1_5_15_before": load_before, "loadavg_1_5_15_after": os.getloadavg()},
        "environment": package_versions(),
        "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    existing = json.loads(out.read_text()) if out.exists() else []
    existing = existing if isinstance(existing, list) else [existing]
    existing.append(result)
    out.write_text(json.dumps(existing, indent=2) + "\n")
    print(json.dumps({"model": result["model"], "units": units, "speedup_vs_single": result["speedup_vs_single"],
                      "multipair_speedup_per_category": {c: v["speedup_multipair"]
                                                         for c, v in result["per_category"].items()},
                      "identical_verdicts": result["identical_verdicts"]}))
    return result


if __name__ == "__main__":
    main()
