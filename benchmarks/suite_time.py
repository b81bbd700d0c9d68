"""The README's test command's own time (issue 41 item 6: at most 8 minutes on a fresh 2-core clone;
the brief: about 10), with the slowest tests, written to ``benchmarks/results/suite_time.json``.

    python benchmarks/suite_time.py                    # runs `python -m pytest -q --durations=40`
    python benchmarks/suite_time.py --from-log FILE    # reads the output of such a run instead

The figures: the wall time pytest reports, the counts it reports (passed, skipped, failed, errors),
and the slowest test phases with their seconds (pytest's ``--durations``), grouped by test file too.
When the log is that of ``time bash .ci/run`` (a new virtual environment, pip installing torch and
the test extra, Chromium, then the test command), the shell's ``real`` line is recorded too, as
``ci_run_wall_s``: the whole README test command's time and CI's set-up around it.
The machine is shared, so a run's wall time is an upper bound; compare files within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_DURATION = re.compile(r"^(\d+\.\d+)s (call|setup|teardown)\s+(\S+)$")
_SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|errors?|warnings?|deselected)")
_WALL = re.compile(r" in (\d+\.\d+)s")
_REAL = re.compile(r"^real\s+(\d+)m(\d+\.\d+)s$", re.M)


def parse(text: str, slowest: int) -> dict:
    """The figures of a ``pytest -q --durations=N`` output."""
    durations = []
    for line in text.splitlines():
        m = _DURATION.match(line.strip())
        if m:
            durations.append({"seconds": float(m.group(1)), "phase": m.group(2), "test": m.group(3)})
    last = [line for line in text.splitlines() if _WALL.search(line) and _SUMMARY.search(line)]
    if not last:
        raise SystemExit("no pytest summary line found")
    counts = {kind.rstrip("s") if kind.startswith("error") else kind: int(n) for n, kind in _SUMMARY.findall(last[-1])}
    by_file: dict[str, float] = defaultdict(float)
    for d in durations:
        by_file[d["test"].split("::")[0]] += d["seconds"]
    real = _REAL.findall(text)
    whole = {"ci_run_wall_s": round(int(real[-1][0]) * 60 + float(real[-1][1]), 1)} if real else {}
    return {"wall_s": float(_WALL.search(last[-1]).group(1)), **whole, "counts": counts,
            "slowest": durations[:slowest],
            "slowest_files_among_listed": [{"file": f, "seconds": round(s, 1)}
                                           for f, s in sorted(by_file.items(), key=lambda kv: -kv[1])[:10]]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--from-log", default=None, help="a saved output of `pytest -q --durations=N`")
    ap.add_argument("--revision", default=None, help="the git revision the log was made at (with --from-log)")
    ap.add_argument("--slowest", type=int, default=20)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "suite_time.json"))
    args = ap.parse_args()
    if args.from_log:
        text = Path(args.from_log).read_text()
        revision = args.revision
    else:
        res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              f"--durations={max(args.slowest, 40)}"], cwd=ROOT, capture_output=True, text=True)
        text = res.stdout + res.stderr
        revision = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                  text=True).stdout.strip()
    doc = {"command": "python -m pytest -q (README's test command, after its install steps)",
           "revision": revision, "cpu_count": os.cpu_count(), "goal_s": 480, **parse(text, args.slowest)}
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps({k: doc[k] for k in ("wall_s", "ci_run_wall_s", "counts", "revision") if k in doc}))


if __name__ == "__main__":
    main()
