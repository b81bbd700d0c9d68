"""RPC throughput: the one-pair loop vs the multi-pair mode (brec_runner.multipair), same settings.

Picks, for each of Basic / Regular / Extension, the first ``--per-category`` pairs of the category's
most common (nodes, edges) size (so the multi-pair mode can group them), runs every (pair, seed)
unit once with the one-pair loop (``brec_runner.rpc.evaluate_pair``) and once in the multi-pair
mode (``brec_runner.multipair.evaluate_units``), and reports pairs per minute, the speed-up and
whether the verdicts agree. Encodings are computed before timing. Writes JSON (default
benchmarks/results/rpc_bench.json). Not a test.

    python benchmarks/rpc_bench.py --model sgformer --preset small --seeds 0,1 --group 8
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import Counter
from pathlib import Path

import torch


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="sgformer")
    ap.add_argument("--preset", default="small")
    ap.add_argument("--per-category", type=int, default=4)
    ap.add_argument("--seeds", default="0,1")
    ap.add_argument("--group", type=int, default=8)
    ap.add_argument("--epochs", type=int, default=None, help="override the protocol's epochs")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "rpc_bench.json"))
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)

    from brec_runner import dataset
    from brec_runner.configs import load_protocol
    from brec_runner.multipair import _VMAP_FAILED, evaluate_units
    from brec_runner.rpc import evaluate_pair
    from brec_runner.rundir import environment
    from wltools.models import registry

    protocol = load_protocol(args.model, **({"epochs": args.epochs} if args.epochs is not None else {}))
    seeds = [int(s) for s in args.seeds.split(",")]
    pairs = []
    for cat in ("basic", "regular", "extension"):
        cat_pairs = dataset.load_pairs(categories=[cat])
        size = Counter((tuple(p.meta["n"]), tuple(p.meta["m"])) for p in cat_pairs).most_common(1)[0][0]
        pairs += [p for p in cat_pairs if (tuple(p.meta["n"]), tuple(p.meta["m"])) == size][: args.per_category]
    tf = registry.create_transform(args.model, args.preset)
    model = registry.create_model(args.model, args.preset).to(args.device)
    data = {}
    for p in pairs:
        g = [tf(dataset.to_pyg(x)) for x in dataset.relabelings(p, protocol.relabel_seed, protocol.num_relabelings)]
        r = [tf(dataset.to_pyg(x)) for x in dataset.reliability_set(p, protocol.relabel_seed, protocol.reliability_size)]
        data[p.id] = (g, r)
    units = [(p.id, s, *data[p.id]) for p in pairs for s in seeds]

    def sync():
        if args.device.startswith("cuda"):
            torch.cuda.synchronize()

    sync()
    t0 = time.perf_counter()
    single = {(u[0], u[1]): evaluate_pair(model, u[0], u[2], u[3], protocol, u[1], args.device) for u in units}
    sync()
    t_single = time.perf_counter() - t0
    t0 = time.perf_counter()
    multi = {(o.id, o.seed): o for o in evaluate_units(model, units, protocol, args.device, group_size=args.group)}
    sync()
    t_multi = time.perf_counter() - t0

    same = all((single[k].distinguished, single[k].reliable) == (multi[k].distinguished, multi[k].reliable)
               for k in single)
    result = {
        "model": args.model, "preset": args.preset, "device": args.device, "threads": args.threads,
        "protocol": protocol.to_dict(), "seeds": seeds, "pairs": [p.id for p in pairs], "units": len(units),
        "group_size": args.group,
        "single": {"seconds": t_single, "pairs_per_minute": 60 * len(units) / t_single,
                   "distinguished": sum(o.distinguished for o in single.values()),
                   "reliable": sum(o.reliable for o in single.values())},
        "multipair": {"seconds": t_multi, "pairs_per_minute": 60 * len(units) / t_multi,
                      "distinguished": sum(o.distinguished for o in multi.values()),
                      "reliable": sum(o.reliable for o in multi.values()),
                      "modes": dict(Counter(o.mode for o in multi.values())),
                      "vmap_failures": _VMAP_FAILED.get(type(model).__name__)},
        "speedup": t_single / t_multi,
        "identical_verdicts": same,
        "epochs_single": sorted(Counter(o.epochs for o in single.values()).items()),
        "command": "python benchmarks/rpc_bench.py " + " ".join(argv if argv is not None else __import__("sys").argv[1:]),
        "machine": {"platform": platform.platform(), "cpu_count": __import__("os").cpu_count(),
                    "note": "shared CPU: other jobs ran at the same time, timings are noisy"},
        "environment": environment(args.device)["versions"],
        "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    existing = json.loads(out.read_text()) if out.exists() else []
    existing = existing if isinstance(existing, list) else [existing]
    existing.append(result)
    out.write_text(json.dumps(existing, indent=2) + "\n")
    print(json.dumps({k: result[k] for k in ("model", "units", "speedup", "identical_verdicts")}
                     | {"single_ppm": result["single"]["pairs_per_minute"],
                        "multi_ppm": result["multipair"]["pairs_per_minute"]}))
    return result


if __name__ == "__main__":
    main()
