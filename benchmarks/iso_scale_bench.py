"""``wltools check A B --test 1wl`` on random 3-regular graphs of 100,000 nodes (issue 27, item 4;
not part of the test suite).

Each command runs as a fresh subprocess exactly as the console script runs it
(``python -c "from cli import main; main()" check A B --test 1wl --format json``), on sparse6
files written to a temporary directory; the wall time includes the start-up, reading both files,
the invariants, 1-WL and (where the invariants agree) the canonical labelling.

Two kinds of pair:

* ``independent``: two random 3-regular graphs of different seeds (non-isomorphic with
  overwhelming probability): the cheap exact invariants should settle it, with their witness;
* ``relabelled``: a graph and a seeded relabelling of it (isomorphic): every invariant agrees and
  only the canonical labelling (bliss) can say "isomorphic". It runs once with ``--iso-timeout
  10`` (undecided after 10 s) and, with ``--full``, once without a practical limit to record how
  long bliss takes.

Usage::

    python benchmarks/iso_scale_bench.py                # 5 independent pairs + relabelled, 10 s budget
    python benchmarks/iso_scale_bench.py --pairs 10 --full

Results: ``benchmarks/results/iso_scale.json`` with :func:`wltools.runtime.provenance.environment`.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _write(G: nx.Graph, path: Path) -> str:
    path.write_bytes(nx.to_sparse6_bytes(G, nodes=range(G.number_of_nodes()), header=False))
    return str(path)


def _check(a: str, b: str, *extra: str) -> dict:
    cmd = [sys.executable, "-c", "from cli import main; main()", "check", a, b, "--test", "1wl",
           "--format", "json", *extra]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"check failed: {proc.stderr.strip()}")
    obj = json.loads(proc.stdout)
    return {"wall_seconds": round(wall, 2), "isomorphic": obj["isomorphic"],
            "iso_status": obj["iso_status"], "iso_witness": obj["iso_witness"],
            "1wl_distinguished": obj["results"][0]["distinguished"], "options": list(extra)}


def main() -> None:
    from wltools.runtime.provenance import environment

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--full", action="store_true", help="also let bliss finish on the relabelled pair")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "iso_scale.json")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for i in range(args.pairs):
            a = _write(nx.random_regular_graph(3, args.nodes, seed=2 * i), tmp / f"a{i}.s6")
            b = _write(nx.random_regular_graph(3, args.nodes, seed=2 * i + 1), tmp / f"b{i}.s6")
            rows.append({"kind": "independent", "seeds": [2 * i, 2 * i + 1], **_check(a, b)})
            print(rows[-1], flush=True)
        G = nx.random_regular_graph(3, args.nodes, seed=1000)
        perm = list(range(args.nodes))
        random.Random(1).shuffle(perm)
        a = _write(G, tmp / "g.s6")
        b = _write(nx.relabel_nodes(G, dict(enumerate(perm))), tmp / "g_relabelled.s6")
        rows.append({"kind": "relabelled", "seeds": [1000], **_check(a, b, "--iso-timeout", "10")})
        print(rows[-1], flush=True)
        if args.full:
            rows.append({"kind": "relabelled", "seeds": [1000], **_check(a, b, "--iso-timeout", "3600")})
            print(rows[-1], flush=True)
    out = {"what": "wall seconds of `wltools check A B --test 1wl --format json` as a subprocess, "
                   f"random 3-regular graphs of {args.nodes:,} nodes (sparse6 files)",
           "nodes": args.nodes, "rows": rows, "environment": environment()}
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
