"""Start-up of ``wltools check petersen petersen --test 1wl`` against its floor (issue 34 item 8; not
part of the test suite).

The floor is what the interpreter needs to import the three libraries every graph command stands
on: ``python -c "import click, numpy, networkx"``. Both are run as fresh subprocesses from the
repository root (``check`` exactly as the console script runs it: ``from cli import main``),
interleaved (floor, check, floor, check, ...) so that a busy machine slows both alike, one untimed
warm-up each, then ``--repeat`` timed runs; the best (minimum) wall time of each is kept, and their
ratio is the figure (goal: within 1.5x). The modules of note the check imported are listed too
(scipy, torch, igraph, pynauty), from ``sys.modules`` at exit.

Usage::

    python benchmarks/start_bench.py              # best of 7
    python benchmarks/start_bench.py --repeat 15

Results go to ``benchmarks/results/start.json`` with :func:`wltools.runtime.provenance.environment`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_NOTED = ("scipy", "scipy.sparse", "torch", "torch_geometric", "igraph", "pynauty", "tqdm", "matplotlib")
_REPORT = ("import atexit, sys\n"
           f"atexit.register(lambda: sys.stderr.write('\\nLOADED=' + ','.join(m for m in {_NOTED!r} "
           "if m in sys.modules) + '\\n'))\n")
CHECK = ("check", "petersen", "petersen", "--test", "1wl")
_SCRIPTS = {
    "floor": _REPORT + "import click, numpy, networkx\n",
    "check": _REPORT + "from cli import main\nsys.argv[0] = 'wltools'\nsys.exit(main())\n",
}


def _once(name: str) -> tuple[float, list[str]]:
    args = [sys.executable, "-c", _SCRIPTS[name], *(CHECK if name == "check" else ())]
    t0 = time.perf_counter()
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{name} failed: {proc.stderr[-500:]}")
    loaded = proc.stderr.rsplit("LOADED=", 1)[-1].strip()
    return wall, [m for m in loaded.split(",") if m]


def measure(repeat: int = 7) -> dict:
    """Best-of-``repeat`` wall times of the floor and of the check, interleaved, and their ratio."""
    walls: dict[str, list[float]] = {"floor": [], "check": []}
    loaded: dict[str, list[str]] = {}
    for i in range(repeat + 1):
        for name in walls:
            wall, loaded[name] = _once(name)
            if i:  # the first round warms the disk cache
                walls[name].append(wall)
    best = {k: min(v) for k, v in walls.items()}
    return {"command": "wltools " + " ".join(CHECK), "floor": "python -c 'import click, numpy, networkx'",
            "repeat": repeat, "best_s": {k: round(v, 4) for k, v in best.items()},
            "all_s": {k: [round(x, 4) for x in v] for k, v in walls.items()},
            "ratio": round(best["check"] / best["floor"], 3), "goal": 1.5,
            "check_imports": loaded["check"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "start.json"))
    args = ap.parse_args()
    from wltools.runtime.provenance import environment

    result = {**measure(args.repeat), "environment": environment()}
    print(json.dumps({k: result[k] for k in ("best_s", "ratio", "check_imports")}))
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
