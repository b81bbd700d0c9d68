"""Cross-check the fast refinement path against the exact reference path on BREC pairs.

For each selected pair and test, run ``refine_pair(..., fast=True)`` and ``fast=False`` (the
straightforward exact implementations: dicts of sorted tuples, exact rationals), compare verdicts,
first differing iteration and stable class sizes, and record both wall times. One JSON line per
(pair, test) is appended and flushed to ``--out``, so an interrupted run keeps what it finished and
a re-run skips it.

    python benchmarks/exact_crosscheck.py --category cfi --tests rrwp,3wl --rrwp-steps 32
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from brec_runner.runs.dataset import load_pairs
from wltools.refine import refine_pair
from wltools.refine.names import DEFAULT_RRWP_STEPS

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "exact_crosscheck.jsonl"


def _done(path: Path) -> set[tuple[int, str, int | None]]:
    done = set()
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:  # a torn last line: redo that item
                continue
            done.add((r["id"], r["test"], r["rrwp_steps"]))
    return done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--category", default="cfi", help="BREC categories, comma-separated")
    ap.add_argument("--tests", default="rrwp,3wl")
    ap.add_argument("--rrwp-steps", type=int, default=DEFAULT_RRWP_STEPS)
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    args = ap.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = _done(out)
    pairs = sorted(load_pairs(categories=args.category.split(",")), key=lambda p: p.meta["n"][0])  # small first
    for pair in pairs:
        for test in args.tests.split(","):
            k = args.rrwp_steps if test == "rrwp" else None
            if (pair.id, test, k) in done:
                continue
            t0 = time.perf_counter()
            fast = refine_pair(pair.g, pair.h, test, rrwp_steps=k, fast=True)
            t1 = time.perf_counter()
            exact = refine_pair(pair.g, pair.h, test, rrwp_steps=k, fast=False)
            t2 = time.perf_counter()
            agree = (fast.distinguished, fast.iteration, fast.class_sizes) == (
                exact.distinguished, exact.iteration, exact.class_sizes)
            rec = {"id": pair.id, "category": pair.category, "n": pair.meta["n"], "test": test,
                   "rrwp_steps": k, "distinguished": exact.distinguished, "agree": agree,
                   "fast_s": round(t1 - t0, 4), "exact_s": round(t2 - t1, 4)}
            with out.open("a") as fh:
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
            print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
