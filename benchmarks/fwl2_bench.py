"""3-WL (2-FWL, :mod:`wltools.refine.fwl`) on all 400 BREC pairs: the symmetric round
(:mod:`wltools.refine.symmetric_pairs`) against the full round over all ``n^2`` pairs, in one
process, alternating pair by pair (not part of the test suite).

For each pair: ``refine_fwl2(G, H, symmetric=False)`` (every round over all pairs) and
``refine_fwl2(G, H)`` (the product's choice: the symmetric round while
:func:`~wltools.refine.symmetric_pairs.worth_it`), in alternating order, CPU seconds
(``time.process_time``) summed per BREC category, the results compared field by field (witness
included). One BLAS thread; on a shared machine the times are upper bounds, the ratio is from one
run.

Usage::

    python benchmarks/fwl2_bench.py                 # writes benchmarks/results/fwl2.json
    python benchmarks/fwl2_bench.py --ids 0-59 --out /tmp/fwl2.json
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "fwl2.json"
FIELDS = ("distinguished", "iteration", "iterations", "class_sizes", "witness")


def _timed(fn):
    t = time.process_time()
    out = fn()
    return out, time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ids", default="0-399", help="BREC pair ids, e.g. 0-59,320-359")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from brec_runner.runs.dataset import load_pairs, parse_id_ranges
    from wltools.refine.fwl import refine_fwl2
    from wltools.runtime.provenance import environment

    pairs = load_pairs(ids=parse_id_ranges(args.ids))
    refine_fwl2(pairs[0].g, pairs[0].h)  # first-call costs
    secs = {"full": defaultdict(float), "symmetric": defaultdict(float)}
    differ = []
    for i, p in enumerate(pairs):
        order = ("full", "symmetric") if i % 2 == 0 else ("symmetric", "full")
        res = {}
        for mode in order:
            res[mode], s = _timed(lambda: refine_fwl2(p.g, p.h, symmetric=False if mode == "full" else None))
            secs[mode][p.category] += s
        if any(getattr(res["full"], f) != getattr(res["symmetric"], f) for f in FIELDS):
            differ.append(p.id)
    total = {m: round(sum(v.values()), 3) for m, v in secs.items()}
    doc = {
        "what": "CPU seconds of 3-WL (2-FWL) per BREC category: every round over all n^2 pairs (full) "
                "against the product's round choice (symmetric while worth_it), alternating pair by pair, one process",
        "command": "python benchmarks/fwl2_bench.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "pairs": len(pairs),
        "seconds_total": total,
        "full_over_symmetric": round(total["full"] / max(total["symmetric"], 1e-9), 2),
        "seconds_by_category": {m: {c: round(s, 3) for c, s in v.items()} for m, v in secs.items()},
        "pairs_where_results_differ": differ,
        "load_average": list(os.getloadavg()),
        "environment": environment(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps({k: doc[k] for k in ("pairs", "seconds_total", "full_over_symmetric", "pairs_where_results_differ")}))
    return 0 if not differ else 1


if __name__ == "__main__":
    raise SystemExit(main())
