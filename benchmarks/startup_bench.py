"""Start-up time of the CLI, and isomorphism at 2,000 nodes (issue 16, items 1 and 6; not part of
the test suite).

Start-up: each command runs as a fresh subprocess exactly as the ``wltools`` console script runs it
(``from cli import main; main()``, from the repository root), one warm-up run and then ``--repeat``
timed runs; the median wall time is recorded, with whether torch / torch-geometric got imported.
The commands: ``wltools --help``, ``wltools check petersen petersen``, ``wltools iso petersen
petersen`` and ``wltools brec theory --pairs 0-3 --out TMP`` (the verdict cache in a temporary
``WLTOOLS_CACHE``, filled by the warm-up run). The target is ``check`` within 3x of ``--help``.

Isomorphism (``--iso``): on two random 3-regular graphs of 2,000 nodes (the second a seeded
relabelling of the first, so the labeller has to finish its search) the old ``check`` did four
nauty runs (``is_isomorphic``: two certificates; then two ``certificate_digest``); the new one
does one canonical labelling per graph (:func:`wltools.iso.canonical_form`, bliss above 256 nodes).
The old module is read from git (``--old-rev``) and run in the same interpreter.

Commands that train nothing (``--cpu``; issue 44 item 3): ``models list``, ``brec report``,
``brec compare``, ``count report``, ``count tasks`` and ``claims list`` on committed run
directories, each in CPU seconds (user + system of the child, ``getrusage(RUSAGE_CHILDREN)``: the
machine is shared, so wall time is noise), interleaved with the floor ``python -c "import click,
numpy, networkx"`` in the same run, one untimed warm-up each (it fills the verdict cache), then
``--repeat`` rounds; the best (minimum) of each and its ratio to the floor's best are recorded
(goal: 1.5x), with whether torch got imported. ``--cpu-rev REV`` also runs the commands with the
code of git revision REV (the "before"), in the same rounds. Both trees are byte-compiled first,
as an installation is, so neither pays for compiling its modules.

Usage::

    python benchmarks/startup_bench.py              # start-up only
    python benchmarks/startup_bench.py --cpu --cpu-rev e77fe30   # commands that train nothing, CPU-s
    python benchmarks/startup_bench.py --iso        # also the 2,000-node isomorphism timings
    python benchmarks/startup_bench.py --compare-rev ea7f603   # and `check` at an older revision

Results go to ``benchmarks/results/startup.json`` (a run replaces the sections it measures, keeps
the others) with :func:`wltools.runtime.provenance.environment`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# what the console script does, plus a report of the heavy modules on exit
_SCRIPT = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nLOADED=' + ','.join(m for m in "
    "('torch', 'torch_geometric', 'scipy', 'igraph', 'pynauty') if m in sys.modules) + '\\n'))\n"
    "from cli import main\n"
    "sys.argv[0] = 'wltools'\n"
    "sys.exit(main())\n"
)


def _time_command(args: list[str], repeat: int, env: dict, cwd: Path = ROOT, script: str = _SCRIPT) -> dict:
    cmd = [sys.executable, "-c", script, *args]
    walls, loaded = [], ""
    for i in range(repeat + 1):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr[-500:]}")
        loaded = proc.stderr.rsplit("LOADED=", 1)[-1].strip()
        if i:  # the first run warms the disk cache (and the verdict cache)
            walls.append(wall)
    return {"command": "wltools " + " ".join(args), "median_s": round(statistics.median(walls), 4),
            "min_s": round(min(walls), 4), "runs": len(walls),
            "imports": [m for m in loaded.split(",") if m],
            "torch_imported": "torch" in loaded.split(",")}


#: The floor of every graph command: importing the two libraries its graphs and arrays live in.
_FLOOR = ("import atexit, sys\n"
          "atexit.register(lambda: sys.stderr.write('\\nLOADED=\\n'))\n"
          "import numpy, networkx\n")


def _old_checkout(rev: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="wltools-old-")) / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), rev], check=True)
    return path


def startup(repeat: int, compare_rev: str | None = None) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="wltools-startup-"))
    env = {**os.environ, "WLTOOLS_CACHE": str(tmp / "cache")}
    commands = {
        "help": ["--help"],
        "check": ["check", "petersen", "petersen"],
        "iso": ["iso", "petersen", "petersen"],
        "brec_theory": ["brec", "theory", "--pairs", "0-3", "--out", str(tmp / "theory")],
    }
    out = {name: _time_command(args, repeat, env) for name, args in commands.items()}
    for rec in out.values():  # the run's temporary folder, as <tmp>
        rec["command"] = rec["command"].replace(str(tmp), "<tmp>/" + tmp.name)
    out["floor_numpy_networkx"] = {**_time_command([], repeat, env, script=_FLOOR),
                                   "command": "python -c 'import numpy, networkx'"}
    if compare_rev:  # the same check, run by the code of another revision, in the same session
        old = _old_checkout(compare_rev)
        try:
            out["check_at_" + compare_rev] = _time_command(commands["check"], repeat, env, cwd=old)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], check=False)
    base = out["help"]["median_s"]
    out["ratios_to_help"] = {k: round(v["median_s"] / base, 2) for k, v in out.items() if k != "help"}
    out["check_over_floor_s"] = round(out["check"]["median_s"] - out["floor_numpy_networkx"]["median_s"], 4)
    out["target"] = "check within 3x of --help"
    out["target_met"] = out["ratios_to_help"]["check"] <= 3.0
    return out


#: Commands that train nothing (issue 44 item 3), on committed run directories.
NO_MODEL_COMMANDS = {
    "models_list": ["models", "list"],
    "brec_report": ["brec", "report", "reports/brec-runs/grit-brec-cpu"],
    "brec_report_no_theory": ["brec", "report", "reports/brec-runs/grit-brec-cpu", "--no-theory"],
    "brec_compare": ["brec", "compare", "reports/brec-runs"],
    "count_report": ["count", "report", "reports/count-runs/gin-graph"],
    "count_tasks": ["count", "tasks"],
    "claims_list": ["claims", "list"],
}
_REPORT_LOADED = ("import atexit, sys\n"
                  "atexit.register(lambda: sys.stderr.write('\\nLOADED=' + ','.join(m for m in "
                  "('torch', 'torch_geometric', 'scipy') if m in sys.modules) + '\\n'))\n")


def _exported(rev: str, tmp: Path) -> Path:
    """The tracked files of git revision ``rev``, exported under ``tmp`` (no worktree is registered)."""
    path = tmp / f"tree-{rev}"
    path.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(path)], input=archive, check=True)
    return path


def _compiled(tree: Path) -> None:
    """Byte-compile the packages of ``tree``, as an installation does: a timed run then loads
    bytecode in both trees (under ``PYTHONDONTWRITEBYTECODE`` an exported tree would otherwise
    compile every module on every run, and a working tree every module edited since its last
    bytecode)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(tree / p) for p in ("cli", "brec_runner", "wltools"))],
                   check=True, env=env, capture_output=True)


def _cpu_once(args: list[str], script: str, env: dict, cwd: Path) -> tuple[float, list[str]]:
    """CPU seconds (user + system) of one fresh interpreter running ``script`` with ``args``."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", script, *args], cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr[-500:]}")
    loaded = proc.stderr.rsplit("LOADED=", 1)[-1].strip()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, [m for m in loaded.split(",") if m]


def cpu_start(repeat: int, rev: str | None = None) -> dict:
    """Best-of-``repeat`` CPU seconds of the floor and of each command that trains nothing
    (and of each at revision ``rev``), interleaved round by round, and their ratios to the floor."""
    tmp = Path(tempfile.mkdtemp(prefix="wltools-cpu-start-"))
    env = {**os.environ, "WLTOOLS_CACHE": str(tmp / "cache"), "PYTHONPATH": str(ROOT)}
    floor = _REPORT_LOADED + "import click, numpy, networkx\n"
    command = _REPORT_LOADED + "from cli import main\nsys.argv[0] = 'wltools'\nsys.exit(main())\n"
    runs = {"floor": ([], floor, ROOT, env)}
    runs.update({name: (args, command, ROOT, env) for name, args in NO_MODEL_COMMANDS.items()})
    old = _exported(rev, tmp) if rev else None
    for tree in (ROOT, old) if old else (ROOT,):
        _compiled(tree)
    if old:
        old_env = {**env, "WLTOOLS_CACHE": str(tmp / "cache-old"), "PYTHONPATH": str(old)}
        runs.update({f"{name}@{rev}": (args, command, old, old_env) for name, args in NO_MODEL_COMMANDS.items()})
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    loaded: dict[str, list[str]] = {}
    for i in range(repeat + 1):
        for name, (args, script, cwd, run_env) in runs.items():
            seconds, loaded[name] = _cpu_once(args, script, run_env, cwd)
            if i:  # the first round warms the disk and the verdict caches
                cpu[name].append(seconds)
    best = {name: min(v) for name, v in cpu.items()}
    return {
        "floor": "python -c 'import click, numpy, networkx'", "unit": "CPU seconds (user + system), best of rounds",
        "repeat": repeat, "goal_ratio": 1.5, "revision_before": rev,
        "commands": {name: "wltools " + " ".join(args) for name, args in NO_MODEL_COMMANDS.items()},
        "best_cpu_s": {k: round(v, 3) for k, v in best.items()},
        "median_cpu_s": {k: round(statistics.median(v), 3) for k, v in cpu.items()},
        "ratio_to_floor": {k: round(v / best["floor"], 2) for k, v in best.items() if k != "floor"},
        "imports": loaded,
    }


def _old_iso(rev: str):
    """The wltools.iso module of git revision ``rev``, loaded under another name."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:wltools/iso/__init__.py"], check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp(prefix="wltools-old-iso-")) / "old_iso.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("old_iso", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def iso_2000(rev: str, n: int = 2000) -> dict:
    import networkx as nx

    from wltools.iso import canonical_form

    G = nx.random_regular_graph(3, n, seed=1)
    perm = list(range(n))
    random.Random(2).shuffle(perm)
    H = nx.relabel_nodes(G, dict(enumerate(perm)))
    old = _old_iso(rev)
    t0 = time.perf_counter()
    old_verdict = old.is_isomorphic(G, H)
    t1 = time.perf_counter()
    old_digests = (old.certificate_digest(G), old.certificate_digest(H))
    t2 = time.perf_counter()
    fg, fh = canonical_form(G), canonical_form(H)
    new_verdict = fg.isomorphic(fh)
    t3 = time.perf_counter()
    assert old_verdict and new_verdict and old_digests[0] == old_digests[1] and fg.digest() == fh.digest()
    return {"graphs": f"random 3-regular, n = {n} (seed 1) and a relabelling (seed 2)",
            "old_rev": rev, "old_is_isomorphic_s": round(t1 - t0, 3),
            "old_two_digests_s": round(t2 - t1, 3), "old_total_s": round(t2 - t0, 3),
            "new_method": fg.method, "new_two_forms_s": round(t3 - t2, 3),
            "speedup": round((t2 - t0) / max(t3 - t2, 1e-9), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per command (median)")
    ap.add_argument("--iso", action="store_true", help="also time isomorphism at 2,000 nodes")
    ap.add_argument("--old-rev", default="3dd6a62", help="git revision of the old wltools/iso/__init__.py")
    ap.add_argument("--compare-rev", default=None,
                    help="also time `check petersen petersen` with the code of this git revision")
    ap.add_argument("--cpu", action="store_true",
                    help="only the commands that train nothing, in CPU seconds against the floor")
    ap.add_argument("--cpu-rev", default=None, help="with --cpu: also the commands at this git revision")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "startup.json"))
    args = ap.parse_args()

    from wltools.runtime.provenance import environment

    out = Path(args.out)
    result = json.loads(out.read_text()) if out.is_file() else {}
    if args.cpu:
        result["no_model_commands"] = {"environment": environment(), **cpu_start(args.repeat, args.cpu_rev)}
        out.write_text(json.dumps(result, indent=2) + "\n")
        print(json.dumps({k: result["no_model_commands"][k] for k in ("best_cpu_s", "ratio_to_floor")}, indent=1))
        print(f"wrote {args.out}")
        return
    result.update({"environment": environment(), "startup": startup(args.repeat, args.compare_rev)})
    if args.iso:
        result["iso_2000"] = iso_2000(args.old_rev)
    out.write_text(json.dumps(result, indent=2) + "\n")
    s = result["startup"]
    for k in [k for k, v in s.items() if isinstance(v, dict) and "median_s" in v]:
        print(f"{s[k]['command'][:60]:<62} {s[k]['median_s']:7.3f} s  imports {','.join(s[k]['imports'])}")
    print(f"ratios to --help: {s['ratios_to_help']} (target met: {s['target_met']})")
    if args.iso:
        print(json.dumps(result["iso_2000"], indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
