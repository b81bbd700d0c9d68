"""``wltools check A B --test 1wl`` on random 3-regular graphs of 100,000 nodes, and the canonical
labelling of an isomorphic pair by Traces and by bliss (issue 27, item 4; issue 44, item 2; not part
of the test suite).

Each command runs as a fresh subprocess exactly as the console script runs it
(``python -c "from cli import main; main()" check A B --test 1wl --format json``), on sparse6
files written to a temporary directory; the wall time includes the start-up, reading both files,
the invariants, 1-WL and (where the invariants agree) the canonical labelling.

Two kinds of pair:

* ``independent``: two random 3-regular graphs of different seeds (non-isomorphic with
  overwhelming probability): the cheap exact invariants should settle it, with their witness;
* ``relabelled``: a graph and a seeded relabelling of it (isomorphic): every invariant agrees and
  only the canonical labelling can say "isomorphic". It runs with the default labeller (Traces
  where dreadnaut is installed) and the default budget, and with Traces turned off
  (``WLTOOLS_DREADNAUT=""``: bliss) and ``--iso-timeout 10``; with ``--full``, bliss also
  without a practical limit.

Then the labelling alone, in a fresh process (``wltools.iso.canonical_forms`` of the relabelled
pair once validated as ``check`` reads it, the two Traces processes at once; the validation's
seconds beside it), at 10,000, 30,000 and 100,000 nodes: wall seconds and
the peak resident memory of a dreadnaut process (``VmHWM``), to show it linear in the size; bliss
beside it up to 30,000 nodes.

Usage::

    python benchmarks/iso_scale_bench.py                # 5 independent pairs + relabelled
    python benchmarks/iso_scale_bench.py --pairs 10 --full
    python benchmarks/iso_scale_bench.py --labelling-only   # rerun only the labelling rows

Results: ``benchmarks/results/iso_scale.json`` with :func:`wltools.runtime.provenance.environment`.
"""

from __future__ import annotations

import argparse
import json
import os
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


def _check(a: str, b: str, *extra: str, traces: bool = True) -> dict:
    cmd = [sys.executable, "-c", "from cli import main; main()", "check", a, b, "--test", "1wl",
           "--format", "json", *extra]
    env = dict(os.environ) if traces else dict(os.environ, WLTOOLS_DREADNAUT="")
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"check failed: {proc.stderr.strip()}")
    obj = json.loads(proc.stdout)
    return {"wall_seconds": round(wall, 2), "isomorphic": obj["isomorphic"],
            "iso_status": obj["iso_status"], "iso_witness": obj["iso_witness"],
            "1wl_distinguished": obj["results"][0]["distinguished"], "options": list(extra),
            "labeller": "default" if traces else "bliss (WLTOOLS_DREADNAUT=\"\")"}


def _labelling_in_child(n: int, method: str) -> dict:
    """:func:`_labelling` in a fresh process (no memory or caches of the runs before it)."""
    proc = subprocess.run([sys.executable, __file__, "--one", str(n), method], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _labelling(n: int, method: str) -> dict:
    """The canonical forms of a random 3-regular graph of ``n`` nodes and a relabelling of it,
    computed in this process by ``method``: wall seconds, the verdict, the largest dreadnaut."""
    from wltools.iso import canonical_forms

    from wltools.graphs import validate_graph

    G = nx.random_regular_graph(3, n, seed=n)
    perm = list(range(n))
    random.Random(n).shuffle(perm)
    H = nx.relabel_nodes(G, dict(enumerate(perm)))
    start = time.perf_counter()
    G, H = validate_graph(G), validate_graph(H)  # as `check` reads them: its labelling starts here
    validated = time.perf_counter()
    f, g = canonical_forms([G, H], method, validated=True)
    wall = time.perf_counter() - validated
    row = {"nodes": n, "edges": G.number_of_edges(), "method": method,
           "validate_seconds": round(validated - start, 2), "label_seconds": round(wall, 2),
           "isomorphic": f.isomorphic(g)}
    if method == "traces":
        row["dreadnaut_peak_rss_mib"] = _dreadnaut_peak(G)
    return row


def _dreadnaut_peak(G: nx.Graph) -> float | None:
    """The peak resident memory (MiB) of one dreadnaut labelling ``G``: its ``VmHWM`` in
    ``/proc``, read every 20 ms until it exits (``ru_maxrss`` would count the Python process it
    was forked from). None where there is no ``/proc``."""
    from wltools.iso import _edge_array, traces

    run = traces.start(G.number_of_nodes(), _edge_array(G))
    status, peak = Path(f"/proc/{run._proc.pid}/status"), None
    try:
        while run._proc.poll() is None:
            try:
                for line in status.read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak or 0, int(line.split()[1]))
            except OSError:
                break
            time.sleep(0.02)
        assert run.result() is not None
    finally:
        run.close()
    return None if peak is None else round(peak / 1024, 1)


def _labelling_rows(nodes: int) -> list[dict]:
    """Traces and bliss on relabelled pairs of 10,000, 30,000 and ``nodes`` nodes (bliss up to
    30,000: the check rows time it at 100,000)."""
    rows = []
    for n in (10_000, 30_000, nodes):
        for method in ("traces", "bliss"):
            if method == "bliss" and n > 30_000:
                continue
            rows.append(_labelling_in_child(n, method))
            print(rows[-1], flush=True)
    return rows


def main() -> None:
    from wltools.runtime.provenance import environment

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--full", action="store_true", help="also let bliss finish on the relabelled pair")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "iso_scale.json")
    ap.add_argument("--one", nargs=2, metavar=("NODES", "METHOD"), help=argparse.SUPPRESS)
    ap.add_argument("--labelling-only", action="store_true",
                    help="only the labelling rows; keep the check rows of --out as they are")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(_labelling(int(args.one[0]), args.one[1])))
        return
    if args.labelling_only:
        out = json.loads(args.out.read_text())
        out["labelling"] = _labelling_rows(args.nodes)
        out["labelling_environment"] = environment()
        args.out.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {args.out}")
        return
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
        rows.append({"kind": "relabelled", "seeds": [1000], **_check(a, b)})
        print(rows[-1], flush=True)
        rows.append({"kind": "relabelled", "seeds": [1000], **_check(a, b, "--iso-timeout", "10", traces=False)})
        print(rows[-1], flush=True)
        if args.full:
            rows.append({"kind": "relabelled", "seeds": [1000],
                         **_check(a, b, "--iso-timeout", "3600", traces=False)})
            print(rows[-1], flush=True)
    labelling = _labelling_rows(args.nodes)
    out = {"what": "wall seconds of `wltools check A B --test 1wl --format json` as a subprocess, "
                   f"random 3-regular graphs of {args.nodes:,} nodes (sparse6 files); then the canonical "
                   "labelling alone of a relabelled pair (wltools.iso.canonical_forms) by Traces and bliss",
           "nodes": args.nodes, "rows": rows, "labelling": labelling, "environment": environment()}
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
