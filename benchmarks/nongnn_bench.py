"""Speed of BREC's non-GNN baselines S3, S4, N1, N2, M1 against BREC's own code, on all 400 pairs
(not part of the test suite).

For each test it runs, pair by pair and alternating, ``wltools.refine.refine_pair(G, H, test)``
and the reference ``WL_1_hash(G, 1, mode) != WL_1_hash(H, 1, mode)`` of BREC's
``Non-GNNs/utils.py`` (github.com/GraphPKU/BREC), called the way ``Non-GNNs/test.py`` calls it.
The reference file is taken at run time from the fetched snapshot of that repository (a bare git
directory, ``--mirror``) with ``git show HEAD:Non-GNNs/utils.py`` into a temporary directory outside
this repository and imported from there; nothing of it is copied into wltools. CPU time
(``time.process_time``, as ``test.py`` measures) is summed per category for both, so the ratio is
measured in the same run under the same load; BLAS runs single-threaded (so process time is the
work done). It also records the verdicts of both per pair and lists the pairs where they differ.

If the snapshot or ``git`` is missing the reference cannot run: the script says so and times our
exact path (``fast=False``, a straightforward implementation of the same definitions) instead,
labelled as such.

Usage::

    python benchmarks/nongnn_bench.py                      # s3,s4,n1,n2,m1 on all 400 pairs
    python benchmarks/nongnn_bench.py --tests s3,n1 --pairs 0-59

Results: ``benchmarks/results/nongnn.json`` (``--out``).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy: process time = work, not idle spinning threads

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MIRROR = Path("/work/.mirror/GraphPKU+BREC/repo")
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "nongnn.json"
TESTS = ("s3", "s4", "n1", "n2", "m1")


def load_reference(mirror: Path, workdir: Path):
    """BREC's ``Non-GNNs/utils.py`` imported from ``workdir`` (extracted there with ``git show``),
    and the commit it came from; ``(None, reason)`` if it cannot be had."""
    if not mirror.exists():
        return None, f"no snapshot of GraphPKU/BREC at {mirror}"
    try:
        commit = subprocess.run(["git", "-C", str(mirror), "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
        text = subprocess.run(["git", "-C", str(mirror), "show", "HEAD:Non-GNNs/utils.py"], check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        return None, f"git show HEAD:Non-GNNs/utils.py failed in {mirror}: {exc}"
    path = workdir / "brec_nongnn_utils.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("brec_nongnn_utils", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # e.g. pynauty missing
        return None, f"importing BREC's Non-GNNs/utils.py failed: {type(exc).__name__}: {exc}"
    return (module, commit), ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tests", default=",".join(TESTS))
    ap.add_argument("--pairs", default=None, help="pair id ranges, e.g. 0-59,260-269 (default: all 400)")
    ap.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR, help="bare git dir of GraphPKU/BREC")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)

    from brec_runner.dataset import load_pairs, parse_id_ranges
    from wltools.provenance import package_versions
    from wltools.refine import refine_pair

    tests = [t.strip() for t in args.tests.split(",") if t.strip()]
    ids = parse_id_ranges(args.pairs) if args.pairs else None
    pairs = load_pairs(ids=ids)
    with tempfile.TemporaryDirectory(prefix="brec-nongnn-") as tmp:
        loaded, why = load_reference(args.mirror, Path(tmp))
        if loaded is None:
            print(f"reference not run: {why}; timing wltools' exact path (fast=False) instead", file=sys.stderr)
            ref_name = "wltools exact path (fast=False), the reference could not run: " + why

            def reference(G, H, test):
                return refine_pair(G, H, test, fast=False).distinguished
            commit = None
        else:
            module, commit = loaded
            ref_name = f"GraphPKU/BREC Non-GNNs/utils.py WL_1_hash at {commit}"

            def reference(G, H, test):
                return not module.WL_1_hash(G, 1, test) == module.WL_1_hash(H, 1, test)

        results = {}
        for test in tests:
            ours_t, ref_t = defaultdict(float), defaultdict(float)
            ours_c, ref_c = Counter(), Counter()
            differ = []
            for pair in pairs:
                cat = pair.subcategory
                s = time.process_time()
                ours = refine_pair(pair.g, pair.h, test).distinguished
                ours_t[cat] += time.process_time() - s
                s = time.process_time()
                ref = reference(pair.g, pair.h, test)
                ref_t[cat] += time.process_time() - s
                ours_c[cat] += ours
                ref_c[cat] += ref
                if ours != ref:
                    differ.append(pair.id)
            total_o, total_r = sum(ours_t.values()), sum(ref_t.values())
            results[test] = {
                "ours_seconds": round(total_o, 4),
                "reference_seconds": round(total_r, 4),
                "reference_over_ours": round(total_r / total_o, 2) if total_o else None,
                "ours_seconds_by_category": {c: round(v, 4) for c, v in ours_t.items()},
                "reference_seconds_by_category": {c: round(v, 4) for c, v in ref_t.items()},
                "distinguished_ours": dict(ours_c),
                "distinguished_reference": dict(ref_c),
                "pairs_where_verdicts_differ": differ,
            }
            print(f"{test}: ours {total_o:.3f} s, reference {total_r:.3f} s, ratio "
                  f"{results[test]['reference_over_ours']}x; distinguished {sum(ours_c.values())} vs "
                  f"{sum(ref_c.values())}; differing pairs {differ}", flush=True)
    versions = package_versions()
    doc = {
        "what": "CPU seconds (process_time) over the selected BREC pairs, ours (refine_pair, fast path) "
                "and the reference, alternating pair by pair in one process",
        "reference": ref_name,
        "pairs": len(pairs),
        "tests": results,
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} logical CPUs (shared)",
        "python": platform.python_version(),
        **{pkg: versions.get(pkg) for pkg in ("wltools", "numpy", "networkx", "pynauty")},
        "generated": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
