"""CPU seconds from a training command's start to its first unit (issue 44, item 3: within 3 CPU-s;
not part of the test suite).

Each command runs as a fresh subprocess exactly as the ``wltools`` console script runs it
(``from cli import main; main()`` from the repository root), into a new run directory, with one
hook: the first call of the function that trains a unit (:func:`brec_runner.runs.rpc.train_pair`
for ``brec run`` / ``suite run``, :func:`brec_runner.counting.train.train_unit` for ``count run``)
prints the process's CPU time so far (``time.process_time()``: user + system since the process
started, imports, the model's contract check, data loading and encoding included) and ends the
process. One untimed warm-up run first (the encoding and count caches filled, as on a second run),
then ``--repeat`` runs; the best and the median are recorded. Threads: one (the commands' default).
The floor, in the same run: ``python -c "import torch, torch_geometric"`` (PyG imports
``torch._dynamo``), which every command here pays before its first unit (a PyG model, and
:func:`brec_runner.runs.dataset.to_pyg`).

Usage::

    python benchmarks/first_unit_bench.py              # -> benchmarks/results/first_unit.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: (name, module, function, command arguments after ``wltools``; OUT is the run directory)
COMMANDS = (
    ("brec_run_ppgt", "brec_runner.runs.rpc", "train_pair",
     ["brec", "run", "--model", "ppgt", "--preset", "small", "--pairs", "0", "--epochs", "1", "--out", "OUT"]),
    ("brec_run_your_model", "brec_runner.runs.rpc", "train_pair",
     ["brec", "run", "--model", "examples/gin.py:gin", "--pairs", "0", "--epochs", "1", "--out", "OUT"]),
    ("suite_run", "brec_runner.runs.rpc", "train_pair",
     ["suite", "run", "csl", "--model", "ppgt", "--preset", "small", "--pairs", "0", "--epochs", "1",
      "--out", "OUT"]),
    ("count_run", "brec_runner.counting.train", "train_unit",
     ["count", "run", "--model", "examples/gin.py:gin", "--task", "cycle:3", "--epochs", "1", "--out", "OUT"]),
    ("count_run_limit_64", "brec_runner.counting.train", "train_unit",
     ["count", "run", "--model", "examples/gin.py:gin", "--task", "cycle:3", "--epochs", "1", "--limit", "64", "--out", "OUT"]),
)

_HOOK = """
import importlib, os, sys, time
mod = importlib.import_module({module!r})
def _first(*a, **k):
    print(f"FIRST_UNIT {{time.process_time():.4f}}", flush=True)
    os._exit(0)
setattr(mod, {function!r}, _first)
sys.argv = ["wltools"] + {args!r}
from cli import main
main()
"""


def first_unit_seconds(module: str, function: str, args: list[str], cache: str) -> float:
    """CPU seconds of a fresh ``wltools ARGS`` process up to its first unit (RuntimeError if it never got there)."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [str(Path(tmp) / "run") if a == "OUT" else a for a in args]
        env = {**os.environ, "WLTOOLS_CACHE": cache, "OMP_NUM_THREADS": "1"}
        res = subprocess.run([sys.executable, "-c", _HOOK.format(module=module, function=function, args=args)],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    for line in res.stdout.splitlines():
        if line.startswith("FIRST_UNIT "):
            return float(line.split()[1])
    raise RuntimeError(f"wltools {' '.join(args)} reached no unit (exit {res.returncode}): {res.stderr.strip()[-300:]}")


def floor_seconds() -> float:
    """CPU seconds of a fresh ``python -c "import torch, torch_geometric"`` (user + system of the child)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import torch, torch_geometric"], cwd=ROOT, check=True,
                   env={**os.environ, "OMP_NUM_THREADS": "1"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "first_unit.json"))
    args = ap.parse_args()
    from wltools.runtime.provenance import environment

    rows = {}
    floor_seconds()
    floor = [floor_seconds() for _ in range(args.repeat)]
    print("floor", round(min(floor), 3), round(statistics.median(floor), 3), flush=True)
    with tempfile.TemporaryDirectory() as cache:
        for name, module, function, argv in COMMANDS:
            first_unit_seconds(module, function, argv, cache)  # warm-up: caches filled
            runs = [first_unit_seconds(module, function, argv, cache) for _ in range(args.repeat)]
            rows[name] = {"command": "wltools " + " ".join(argv).replace("OUT", "<tmp>"), "hook": f"{module}.{function}",
                          "best_cpu_s": round(min(runs), 3), "median_cpu_s": round(statistics.median(runs), 3),
                          "runs": [round(r, 3) for r in runs]}
            print(name, rows[name]["best_cpu_s"], rows[name]["median_cpu_s"], flush=True)
    doc = {"what": __doc__.split("\n\n")[0], "goal_cpu_s": 3.0,
           "floor_import_torch_and_pyg_cpu_s": {"best": round(min(floor), 3), "median": round(statistics.median(floor), 3)},
           "commands": rows,
           "goal_met": all(r["median_cpu_s"] <= 3.0 for r in rows.values()), "environment": environment()}
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
