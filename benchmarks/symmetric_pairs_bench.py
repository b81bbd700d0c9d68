"""The tests over ordered pairs whose colouring is equivariant under swapping a pair's ends (3-WL as
2-FWL, SSWL, SLFWL(2)) on BREC's pairs: the symmetric round (:mod:`wltools.refine.symmetric_pairs`)
against the full round over all ``n^2`` pairs, in one process, alternating pair by pair (not part
of the test suite).

For each pair and test: the refinement with every round over all pairs (``refine_fwl2(...,
symmetric=False)``; for SSWL and SLFWL(2) their declaration with
:func:`~wltools.refine.symmetric_pairs.equivariant` answering False) and the product's choice (the
symmetric round while :func:`~wltools.refine.symmetric_pairs.worth_it`), in alternating order, CPU
seconds (``time.process_time``) summed per BREC category, the results compared field by field
(witness included). One BLAS thread; on a shared machine the times are upper bounds, the ratio is
from one run.

Usage::

    python benchmarks/symmetric_pairs_bench.py --test 3wl --out benchmarks/results/symmetric_pairs_fwl2.json
    python benchmarks/symmetric_pairs_bench.py --test sswl --ids 260-359 --out sswl-cfi.json
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
OUT = ROOT / "benchmarks" / "results" / "symmetric_pairs_fwl2.json"
FIELDS = ("distinguished", "iteration", "iterations", "class_sizes", "witness")


def _timed(fn):
    t = time.process_time()
    out = fn()
    return out, time.process_time() - t


def _refiner(test: str):
    """``refine(G, H, symmetric) -> RefinementResult`` of ``test``, the symmetric round allowed or not."""
    from wltools.refine import swl
    from wltools.refine.fwl import refine_fwl2
    from wltools.refine.kernel import refine

    if test == "3wl":
        return lambda G, H, sym: refine_fwl2(G, H, symmetric=None if sym else False)
    equivariant = swl.equivariant

    def run(G, H, sym):
        swl.equivariant = equivariant if sym else (lambda *a: False)
        try:
            return refine(swl.swl_declaration(test, swl.adjacency_matrix(G), swl.adjacency_matrix(H)))
        finally:
            swl.equivariant = equivariant

    return run


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ids", default="0-399", help="BREC pair ids, e.g. 0-59,320-359")
    ap.add_argument("--test", default="3wl", choices=("3wl", "sswl", "slfwl2"))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from brec_runner.runs.dataset import load_pairs, parse_id_ranges
    from wltools.runtime.provenance import environment

    pairs = load_pairs(ids=parse_id_ranges(args.ids))
    refine = _refiner(args.test)
    refine(pairs[0].g, pairs[0].h, True)  # first-call costs
    secs = {"full": defaultdict(float), "symmetric": defaultdict(float)}
    differ = []
    for i, p in enumerate(pairs):
        order = ("full", "symmetric") if i % 2 == 0 else ("symmetric", "full")
        res = {}
        for mode in order:
            res[mode], s = _timed(lambda: refine(p.g, p.h, mode != "full"))
            secs[mode][p.category] += s
        if any(getattr(res["full"], f) != getattr(res["symmetric"], f) for f in FIELDS):
            differ.append(p.id)
    total = {m: round(sum(v.values()), 3) for m, v in secs.items()}
    doc = {
        "what": f"CPU seconds of {args.test} per BREC category: every round over all n^2 pairs (full) "
                "against the product's round choice (symmetric while worth_it), alternating pair by pair, one process",
        "command": "python benchmarks/symmetric_pairs_bench.py " + " ".join(argv if argv is not None else sys.argv[1:]),
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
    print(json.dumps({k: doc[k] for k in ("what", "pairs", "seconds_total", "full_over_symmetric", "pairs_where_results_differ")}))
    return 0 if not differ else 1


if __name__ == "__main__":
    raise SystemExit(main())
