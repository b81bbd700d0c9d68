"""Units per minute: the local executor with 2 worker processes vs Ray with 2 CPUs, same units.

The GIN of ``examples/gin.py`` runs the same (pair, seed) units with ``--workers 2`` and with
``--executor ray`` on a local Ray instance of 2 CPUs (started and shut down by the run, as
``wltools brec run --executor ray`` does without ``--address``). The two alternate ``--repeats``
times into fresh run directories, after one warm-up run that fills the encoding cache. Reported per
executor: the end-to-end seconds of ``brec_runner.runs.evaluate.run`` (with process spawn or Ray start),
units per minute end to end, and units per minute in the steady state (between the first and the
last record, so without start-up). A third variant runs the local workers with one OpenMP / BLAS
thread each (``OMP_NUM_THREADS=1``, as Ray sets for a one-CPU task), to separate the executor
from thread oversubscription. The records of the two executors are checked to be identical
but for the timing fields. Appends a record to ``benchmarks/results/ray_bench.json``.

    python benchmarks/ray_bench.py --pairs 0-59 --seeds 0,1 --repeats 2
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from brec_bench import ROOT, append_record, parse_brec_bench_args

_VOLATILE = ("wall_s", "cuda_s", "check")
#: Ray starts its workers with OMP_NUM_THREADS set to the task's CPUs; the local workers inherit this
#: process's environment. The third variant gives the local workers one OpenMP / BLAS thread too.
_ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def main(argv=None) -> dict:
    args, seeds = parse_brec_bench_args(__doc__, argv, pairs="0-59", repeats=2, name="ray_bench")

    import ray

    from brec_runner.records.record import read_results
    from brec_runner.runs.evaluate import run
    from brec_runner.runs.execute_ray import RayExecutor
    from wltools.runtime.provenance import environment

    model = f"{ROOT / 'examples' / 'gin.py'}:gin"
    kinds = {"local_workers_2": dict(workers=2), "ray_2_cpus": dict(executor=RayExecutor(num_cpus=2)),
             "local_workers_2_blas1": dict(workers=2, env=_ONE_THREAD)}
    runs: dict[str, list[dict]] = {k: [] for k in kinds}
    records: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="ray-bench-") as tmp:
        os.environ["WLTOOLS_CACHE"] = str(Path(tmp) / "cache")  # Ray's workers inherit both
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        run(model, pairs=args.pairs, categories=None, seeds=seeds, out=Path(tmp) / "warm", progress=False)
        for rep in range(args.repeats):
            for kind, how in kinds.items():
                out, stamps = Path(tmp) / f"{kind}-{rep}", []
                how = dict(how)
                env = how.pop("env", {})
                saved = {k: os.environ.get(k) for k in env}
                os.environ.update(env)  # read by the spawned workers only: this process's pools are set
                try:
                    t0 = time.perf_counter()
                    run(model, pairs=args.pairs, categories=None, seeds=seeds, out=out, progress=False,
                        on_outcome=lambda rec: stamps.append(time.perf_counter()), **how)
                    seconds = time.perf_counter() - t0
                finally:
                    for k, v in saved.items():
                        os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
                n = len(stamps)
                runs[kind].append({"seconds": seconds, "units": n, "units_per_min": 60 * n / seconds,
                                   "first_record_s": stamps[0] - t0,
                                   "steady_units_per_min": 60 * (n - 1) / (stamps[-1] - stamps[0])})
                records[kind] = {(r["id"], r["seed"]): {k: v for k, v in r.items() if k not in _VOLATILE}
                                 for r in read_results(out / "results.jsonl")}
                assert not ray.is_initialized()  # the Ray run shut its local instance down
    summary = {k: {m: statistics.median(r[m] for r in v) for m in ("seconds", "units_per_min",
                                                                   "steady_units_per_min", "first_record_s")}
               for k, v in runs.items()}
    result = {
        "command": "python benchmarks/ray_bench.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "model": "examples/gin.py:gin", "pairs": args.pairs, "seeds": seeds,
        "units": len(records["local_workers_2"]), "repeats": args.repeats, "runs": runs, "median": summary,
        "ray_over_local_units_per_min": summary["ray_2_cpus"]["units_per_min"]
        / summary["local_workers_2"]["units_per_min"],
        "ray_over_local_blas1_units_per_min": summary["ray_2_cpus"]["units_per_min"]
        / summary["local_workers_2_blas1"]["units_per_min"],
        "identical_records": records["local_workers_2"] == records["ray_2_cpus"] == records["local_workers_2_blas1"],
        "ray": ray.__version__, "environment": environment(), "cpu_count": os.cpu_count(),
        "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_average_end": list(os.getloadavg()),
        "note": "2 cores shared with other jobs: the load average says how busy the machine was",
    }
    append_record(args.out, result)
    print(json.dumps({k: result[k] for k in ("units", "median", "ray_over_local_units_per_min",
                                              "ray_over_local_blas1_units_per_min", "identical_records")},
                     indent=1))
    return result


if __name__ == "__main__":
    main()
