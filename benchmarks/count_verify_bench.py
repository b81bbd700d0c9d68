"""Every counting-benchmark target (graph, node and edge level x 5,000 graphs) against an independent
brute force (:mod:`wltools.counting.verify`), timed: the 15 shipped subgraph tasks against igraph's list
of all monomorphisms, the 7 homomorphism tasks against the sum of their quotients' monomorphisms.

Usage (from the repository root)::

    PYTHONPATH=$PWD nice -n 19 python benchmarks/count_verify_bench.py --jobs 1                 # subgraph
    PYTHONPATH=$PWD nice -n 19 python benchmarks/count_verify_bench.py --tasks hom --jobs 2     # hom

Writes ``benchmarks/results/count_verify.json`` (``--tasks subgraph``), ``count_verify_hom.json``
(``hom``) or ``count_verify_all.json`` (``all``): the command, wall and CPU time, what was checked,
the mismatches (the script exits 1 on any) and the machine. On a shared machine the time is an upper bound.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


_SUB = {"reference": "igraph.Graph.get_subisomorphisms_lad(induced=False): every monomorphism listed, "
                     "tallied per graph, node and edge, divided by |Aut(F)|",
        "checked_against": "data/counting/targets.npz (computed by wltools.counting.subgraph.subgraph_counts)"}
_HOM = {"reference_hom": "hom(F, G) = sum over the partitions of V(F) into independent sets of inj(F/partition, G), "
                         "every injective map listed by igraph.Graph.get_subisomorphisms_lad(induced=False), tallied "
                         "per graph, node (root 0) and edge (roots 0, 1 onto u < v)",
        "checked_against_hom": "wltools.counting.data.exact_targets per graph (wltools.hom.count: dynamic programming "
                               "over a tree decomposition), the values wltools.counting.data.targets serves"}
#: --tasks: (output file suffix, what the record says was checked)
KINDS = {"subgraph": ("", _SUB), "hom": ("_hom", _HOM), "all": ("_all", {**_SUB, **_HOM})}


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (the worker pool)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--tasks", choices=sorted(KINDS), default="subgraph")
    ap.add_argument("--out", default=None, help="default: benchmarks/results/count_verify[_hom|_all].json")
    args = ap.parse_args()
    out = args.out or str(ROOT / "benchmarks" / "results" / f"count_verify{KINDS[args.tasks][0]}.json")
    import igraph
    import sympy

    from wltools.counting import STANDARD_TASKS
    from wltools.counting.verify import HOM_TASKS, VERIFIED_TASKS, verify_all
    from wltools.errors import DataIntegrityError
    from wltools.runtime.provenance import environment

    tasks = {"subgraph": STANDARD_TASKS, "hom": HOM_TASKS, "all": VERIFIED_TASKS}[args.tasks]
    t0, cpu0 = time.time(), _cpu_s()
    try:
        summary, mismatch = verify_all(tasks, jobs=args.jobs), None
    except DataIntegrityError as exc:
        summary, mismatch = {"mismatches": None}, str(exc)
    env = environment("cpu")
    env["versions"].update(igraph=igraph.__version__, sympy=sympy.__version__)
    flag = "" if args.tasks == "subgraph" else f" --tasks {args.tasks}"
    record = {"command": f"PYTHONPATH=$PWD nice -n 19 python benchmarks/count_verify_bench.py{flag} --jobs {args.jobs}",
              **KINDS[args.tasks][1], **summary, "error": mismatch, "wall_s_total": round(time.time() - t0, 1),
              "cpu_s": round(_cpu_s() - cpu0, 1), "jobs": args.jobs, "load_average_at_end": os.getloadavg(),
              "environment": env}
    Path(out).write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps({k: v for k, v in record.items() if k != "environment"}))
    return 1 if mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
