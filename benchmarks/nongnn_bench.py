"""Speed of BREC's non-GNN baselines S3, S4, N1, N2, M1 against BREC's own code, on all 400 pairs
(not part of the test suite).

For each test it times, in one process and on the same pairs:

* the reference ``WL_1_hash(G, 1, mode) != WL_1_hash(H, 1, mode)`` of BREC's ``Non-GNNs/utils.py``
  (github.com/GraphPKU/BREC), called the way ``Non-GNNs/test.py`` calls it, pair by pair;
* wltools pair by pair, ``wltools.refine.refine_pair(G, H, test)``, alternating with the reference
  pair by pair;
* what the product uses (``wltools brec theory`` computes these verdicts this way):
  ``wltools.refine.batch.refine_pairs(pairs, test)`` over all selected pairs at once (s3, s4, nK
  and m1 batched). A batch cannot alternate with the
  reference pair by pair, so each repetition brackets the pair-by-pair loop with one batch run
  before and one after it (A B A) and the batch figure is their mean.

The reference file is taken at run time from a local copy of that repository (a clone or bare git
directory: ``--mirror PATH`` or the environment variable ``BREC_REPO``; without either the script
stops with one line, exit 2) with ``git show HEAD:Non-GNNs/utils.py`` into a temporary directory outside
this repository and imported from there; nothing of it is copied into wltools. CPU time
(``time.process_time``, as ``test.py`` measures) is summed over the pairs; BLAS runs single-threaded
(so process time is the work done). Each path runs once untimed first (imports, first-call costs).
Repetitions: ``--repeats`` (default 3), fewer when one reference pass takes more than
``--max-reference-seconds`` (default 20 s: s4, n2 and m1 run once). The JSON records every
repetition's figures, the machine's load average at the start and the end (the machine may be
shared), the verdicts of all three paths per category and the pairs where they differ.

If the snapshot or ``git`` is missing the reference cannot run: the script says so and times our
exact path (``fast=False``, a straightforward implementation of the same definitions) instead,
labelled as such.

Usage::

    git clone https://github.com/GraphPKU/BREC ../BREC
    python benchmarks/nongnn_bench.py --mirror ../BREC     # s3,s4,n1,n2,m1 on all 400 pairs
    BREC_REPO=../BREC python benchmarks/nongnn_bench.py --tests s3,n1 --pairs 0-59 --repeats 5

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
#: Environment variable naming the local copy of github.com/GraphPKU/BREC when --mirror is not given.
MIRROR_ENV = "BREC_REPO"
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


def _time_pairs(pairs, test, refine_pair, reference) -> dict:
    """One pass pair by pair, ours and the reference alternating: CPU seconds and verdicts."""
    out = {"ours_t": defaultdict(float), "ref_t": defaultdict(float), "ours": [], "ref": []}
    for pair in pairs:
        cat = pair.subcategory
        s = time.process_time()
        out["ours"].append(refine_pair(pair.g, pair.h, test).distinguished)
        out["ours_t"][cat] += time.process_time() - s
        s = time.process_time()
        out["ref"].append(bool(reference(pair.g, pair.h, test)))
        out["ref_t"][cat] += time.process_time() - s
    return out


def _time_batch(graph_pairs, test, refine_pairs) -> tuple[float, list]:
    s = time.process_time()
    verdicts = [r.distinguished for r in refine_pairs(graph_pairs, test)]
    return time.process_time() - s, verdicts


def _by_category(pairs, verdicts) -> dict:
    c = Counter()
    for pair, v in zip(pairs, verdicts):
        c[pair.subcategory] += bool(v)
    return dict(c)


def bench_test(test, pairs, refine_pair, refine_pairs, reference, repeats, max_ref_seconds) -> dict:
    """All figures of one test (see the module docstring)."""
    from wltools.refine.batch import batchable

    graph_pairs = [(p.g, p.h) for p in pairs]
    _time_batch(graph_pairs, test, refine_pairs)  # untimed first runs
    for pair in pairs[:3]:
        refine_pair(pair.g, pair.h, test)
        reference(pair.g, pair.h, test)
    reps = []
    for r in range(repeats):
        before, batch_verdicts = _time_batch(graph_pairs, test, refine_pairs)
        loop = _time_pairs(pairs, test, refine_pair, reference)
        after, _ = _time_batch(graph_pairs, test, refine_pairs)
        reps.append({"batch": (before + after) / 2, "batch_runs": [before, after], "loop": loop,
                     "ours_per_pair": sum(loop["ours_t"].values()), "reference": sum(loop["ref_t"].values())})
        if reps[-1]["reference"] > max_ref_seconds:
            break
    mean = {k: sum(x[k] for x in reps) / len(reps) for k in ("batch", "ours_per_pair", "reference")}
    loop = reps[0]["loop"]
    differ = {"per_pair_vs_reference": [p.id for p, a, b in zip(pairs, loop["ours"], loop["ref"]) if a != b],
              "batch_vs_reference": [p.id for p, a, b in zip(pairs, batch_verdicts, loop["ref"]) if a != b]}
    cats = list(dict.fromkeys(p.subcategory for p in pairs))
    return {
        "batched": batchable(test),
        "repetitions": len(reps),
        "reference_seconds": round(mean["reference"], 4),
        "ours_batch_seconds": round(mean["batch"], 4),
        "ours_per_pair_seconds": round(mean["ours_per_pair"], 4),
        "reference_over_batch": round(mean["reference"] / mean["batch"], 2),
        "reference_over_per_pair": round(mean["reference"] / mean["ours_per_pair"], 2),
        "each_repetition": [{"reference": round(x["reference"], 4), "ours_per_pair": round(x["ours_per_pair"], 4),
                             "ours_batch_before_after": [round(b, 4) for b in x["batch_runs"]],
                             "reference_over_batch": round(x["reference"] / x["batch"], 2)} for x in reps],
        "ours_per_pair_seconds_by_category": {c: round(sum(x["loop"]["ours_t"][c] for x in reps) / len(reps), 4)
                                              for c in cats},
        "reference_seconds_by_category": {c: round(sum(x["loop"]["ref_t"][c] for x in reps) / len(reps), 4)
                                          for c in cats},
        "distinguished_batch": _by_category(pairs, batch_verdicts),
        "distinguished_per_pair": _by_category(pairs, loop["ours"]),
        "distinguished_reference": _by_category(pairs, loop["ref"]),
        "pairs_where_verdicts_differ": differ,
    }


def _reference_fn(mirror: Path, tmp: Path, refine_pair):
    """``(reference(G, H, test) -> distinguished, its description)``."""
    loaded, why = load_reference(mirror, tmp)
    if loaded is None:
        print(f"reference not run: {why}; timing wltools' exact path (fast=False) instead", file=sys.stderr)

        def reference(G, H, test):
            return refine_pair(G, H, test, fast=False).distinguished
        return reference, "wltools exact path (fast=False), the reference could not run: " + why
    module, commit = loaded

    def reference(G, H, test):
        return not module.WL_1_hash(G, 1, test) == module.WL_1_hash(H, 1, test)
    return reference, f"GraphPKU/BREC Non-GNNs/utils.py WL_1_hash at {commit}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tests", default=",".join(TESTS))
    ap.add_argument("--pairs", default=None, help="pair id ranges, e.g. 0-59,260-269 (default: all 400)")
    ap.add_argument("--mirror", type=Path, default=os.environ.get(MIRROR_ENV) or None,
                    help=f"a clone or bare git directory of github.com/GraphPKU/BREC (default: ${MIRROR_ENV})")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--max-reference-seconds", type=float, default=20.0)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    if args.mirror is None:
        print(f"error: no copy of BREC's repository given: pass --mirror PATH (a clone or bare git directory of "
              f"github.com/GraphPKU/BREC) or set {MIRROR_ENV}=PATH", file=sys.stderr)
        return 2

    from brec_runner.runs.dataset import load_pairs, parse_id_ranges
    from wltools.runtime.provenance import package_versions
    from wltools.refine import refine_pair
    from wltools.refine.batch import refine_pairs

    tests = [t.strip() for t in args.tests.split(",") if t.strip()]
    pairs = load_pairs(ids=parse_id_ranges(args.pairs) if args.pairs else None)
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="brec-nongnn-") as tmp:
        reference, ref_name = _reference_fn(args.mirror, Path(tmp), refine_pair)
        results = {}
        for test in tests:
            r = results[test] = bench_test(test, pairs, refine_pair, refine_pairs, reference, args.repeats,
                                           args.max_reference_seconds)
            print(f"{test}: reference {r['reference_seconds']:.3f} s, ours batched {r['ours_batch_seconds']:.3f} s "
                  f"({r['reference_over_batch']}x), ours pair by pair {r['ours_per_pair_seconds']:.3f} s "
                  f"({r['reference_over_per_pair']}x), {r['repetitions']} repetition(s); differing pairs "
                  f"{r['pairs_where_verdicts_differ']}", flush=True)
    versions = package_versions()
    doc = {
        "what": "CPU seconds (process_time) over the selected BREC pairs, mean over repetitions: the "
                "reference and ours pair by pair (refine_pair) alternating pair by pair, and ours as the "
                "product computes them (wltools.refine.batch.refine_pairs over all pairs at once), one run "
                "before and one after each pair-by-pair pass, in one process",
        "reference": ref_name,
        "pairs": len(pairs),
        "tests": results,
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} logical CPUs (shared)",
        "load_average_start_end": [round(load_start[0], 2), round(os.getloadavg()[0], 2)],
        "python": platform.python_version(),
        **{pkg: versions.get(pkg) for pkg in ("wltools", "numpy", "networkx", "pynauty", "scipy")},
        "generated": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
