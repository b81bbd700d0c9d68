"""The refinement engine against the code before it: every BREC pair, per test, same run.

For each test, all 400 BREC pairs are refined with :func:`wltools.refine.refine_pair` (s3, s4,
nK through :func:`wltools.refine.batch.refine_pairs`, as the theory runner does) by this checkout
and by an older source tree (``--base``, e.g. ``git archive eda6849 | tar -x -C ../base``),
each in its own subprocess, alternating, best of ``--repeat``. Every record (distinguished,
reason, iteration, iterations, witness) is compared with the committed table
``reports/brec-theory/verdicts.csv``. Writes ``benchmarks/results/engine.json``: seconds per test
for both trees and their ratio (new / old; below 1 is faster).

Run: ``PYTHONPATH=$PWD python benchmarks/engine_bench.py --base ../base [--tests 1wl,spd]``
(``--check-only`` skips the old tree; ``--single`` refines s3, s4, nK pair by pair).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSV = ROOT / "reports" / "brec-theory" / "verdicts.csv"
OUT = ROOT / "benchmarks" / "results" / "engine.json"

_CHILD = r"""
import json, sys, time
from brec_runner.reports.theory import DEFAULT_RRWP_STEPS
from brec_runner.runs.dataset import load_pairs
from wltools.refine import refine_pair
from wltools.refine.batch import batchable, refine_pairs
pairs = load_pairs(ids=sys.argv[3] or None)
out = {}
for test in sys.argv[1].split(","):
    t0 = time.perf_counter()
    if batchable(test) and sys.argv[2] == "batch":
        res = refine_pairs([(p.g, p.h) for p in pairs], test)
    else:
        res = [refine_pair(p.g, p.h, test, rrwp_steps=DEFAULT_RRWP_STEPS) for p in pairs]
    sec = time.perf_counter() - t0
    out[test] = {"seconds": sec, "records": [[p.id, int(r.distinguished), r.reason, r.iteration, r.iterations,
                                               r.witness] for p, r in zip(pairs, res)]}
print(json.dumps(out))
"""


def _run(tree: Path, tests: list[str], batch: bool = True, ids: str = "") -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run([sys.executable, "-c", _CHILD, ",".join(tests), "batch" if batch else "single", ids], env=env,
                          cwd=tree,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def _committed() -> dict:
    rows = {}
    with open(CSV, newline="") as f:
        for r in csv.DictReader(f):
            it = int(r["iteration"]) if r["iteration"] else None
            rows[(r["test"], int(r["id"]))] = [int(r["distinguished"]), r["reason"], it, int(r["iterations"]),
                                               r["witness"]]
    return rows


def _same(got: list, want: list) -> bool:
    """Equal records; the table keeps a long witness cut, ending in "…", so that one is a prefix."""
    if got[:4] != want[:4]:
        return False
    w = want[4]
    return got[4] == w or (w.endswith("\u2026") and got[4].startswith(w[:-1]))


def _mismatches(test: str, records: list, committed: dict) -> list:
    return [(rec[0], rec[1:], committed[(test, rec[0])]) for rec in records
            if not _same(rec[1:], committed[(test, rec[0])])]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", type=Path, help="source tree of the old code")
    ap.add_argument("--tests", default="1wl,spd,rd,rrwp,3wl,epwl,epwl-lap,swl-vs,swl-sv,pswl-vs,pswl-sv,gswl,sswl,"
                                       "lfwl2,slfwl2,s3,s4,n1,n2,m1,m2")
    ap.add_argument("--base-rev", default="eda6849", help="the commit --base was extracted from (recorded)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--ids", default="", help="BREC pair ids for the tests of --slow-tests (e.g. 0-99)")
    ap.add_argument("--slow-tests", default="epwl,epwl-lap,m2", help="tests timed on --ids only")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--merge", action="store_true", help="update these tests in the existing results file")
    ap.add_argument("--single", action="store_true", help="s3, s4, nK pair by pair (refine_pair), not batched")
    args = ap.parse_args(argv)
    tests = args.tests.split(",")
    committed = _committed()
    result, bad = {}, 0
    args.slow_tests = args.slow_tests if args.ids else ""
    for test in tests:
        new_s, old_s = [], []
        for _ in range(args.repeat):
            ids = args.ids if test in args.slow_tests.split(",") else ""
            new = _run(ROOT, [test], not args.single, ids)[test]
            new_s.append(new["seconds"])
            if not args.check_only:
                old_s.append(_run(args.base, [test], not args.single, ids)[test]["seconds"])
        mism = _mismatches(test, new["records"], committed)
        bad += len(mism)
        for pid, got, want in mism[:3]:
            print(f"MISMATCH {test} pair {pid}: got {got} want {want}", file=sys.stderr)
        row = {"pairs": len(new["records"]), "repeat": args.repeat, "new_s": round(min(new_s), 3),
               "mismatches": len(mism), "base": args.base_rev}
        if old_s:
            row.update(old_s=round(min(old_s), 3), ratio=round(min(new_s) / min(old_s), 3))
        result[test] = row
        print(test, row, flush=True)
    if not args.check_only:
        if args.merge and OUT.exists():
            before = json.loads(OUT.read_text())
            kept = {t: {**r, "base": r.get("base", before["base"].split()[2])} for t, r in before["tests"].items()}
            result = {**kept, **result}
        OUT.write_text(json.dumps({"what": "seconds to refine the BREC pairs per test (all 400, or --ids for "
                                           "--slow-tests), new engine vs old tree, same machine, same run, "
                                           "alternating per test, best of repeat",
                                   "base": "git archive BASE, BASE per test (its base): the old tree it ran against",
                                   "single": args.single, "ids": args.ids, "slow_tests": args.slow_tests,
                                   "repeat": args.repeat, "machine": platform.machine(),
                                   "python": platform.python_version(), "tests": result}, indent=1) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
