"""Homomorphism counts of every connected pattern with at most 6 vertices (143, networkx's atlas)
into all 800 BREC graphs (114,400 counts) by :class:`wltools.hom.batch.Counter` (per graph, the
dense tree-decomposition programme or elimination over sparse tables), against plain
backtracking (:mod:`wltools.hom.brute`, the method of the authors' code) and the authors' C++
counter (``--count-cpp``: subgraph23/homomorphism-expressivity, ``data/count.cpp``, built here
with g++), in the same run, and the witness search (:func:`wltools.hom.witness.smallest_witness`,
the default ``--explain`` size) on one BREC pair per category (not part of the test suite).

Backtracking is run on every ``--brute-every``-th graph (a subset: Python backtracking on all of
them takes hours) where its placement bound n * Δ^(k-1) is at most ``--brute-limit``; the
Counter is timed again on exactly those (pattern, graph) pairs, prepared afresh, for the ratio.
The authors' counter runs on the same pairs where the graph has at most 40 vertices (its
``MAX_N``) and the count fits its C ``int``. Every count two methods computed is compared; a
mismatch is reported and makes the script exit 1. A count refused (dense work above
``--max-work`` where elimination passed its row cap) is listed.

Usage::

    python benchmarks/hom_bench.py                   # writes benchmarks/results/hom.json
    python benchmarks/hom_bench.py --graphs 0-39     # the first 20 pairs only (a quick look)
    python benchmarks/hom_bench.py --count-cpp /path/to/homomorphism-expressivity/data/count.cpp

The machine is recorded in the file; on a shared machine the times are upper bounds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUT = ROOT / "benchmarks" / "results" / "hom.json"


def _patterns():
    import networkx as nx

    from wltools.hom.decompose import treewidth

    out = [nx.freeze(F) for F in nx.graph_atlas_g() if 1 <= F.number_of_nodes() <= 6 and nx.is_connected(F)]
    return out, [treewidth(F) for F in out]


def _graphs(select: str | None):
    from brec_runner.runs.dataset import load_pairs, parse_id_ranges

    graphs = [(f"{p.id}{side}", p.category, X) for p in load_pairs() for side, X in (("G", p.g), ("H", p.h))]
    if select:
        keep = set(parse_id_ranges(select, max_id=len(graphs) - 1))
        graphs = [g for i, g in enumerate(graphs) if i in keep]
    return graphs


def _bound(F, G) -> int:
    delta = max((d for _, d in G.degree()), default=0)
    return G.number_of_nodes() * max(delta, 1) ** (F.number_of_nodes() - 1)


def _counter_all(patterns, graphs, max_work):
    """Every pattern into every graph by :class:`wltools.hom.batch.Counter` (one per run, all
    800 graphs): counts per pattern (None where refused), seconds per pattern, methods taken."""
    from collections import Counter as Tally

    from wltools.errors import ResourceLimitError
    from wltools.hom.batch import Counter

    t = time.perf_counter()
    counter = Counter([G for _, _, G in graphs], max_work=max_work)
    build = time.perf_counter() - t
    counts, secs, methods = [], [], Tally()
    for j, F in enumerate(patterns):
        t = time.perf_counter()
        try:
            counts.append(counter.counts(F))
        except ResourceLimitError:  # the pattern one graph at a time, to name the refused ones
            counts.append([_one(counter, F, i) for i in range(len(graphs))])
        secs.append(time.perf_counter() - t)
        methods.update(counter.methods(F))
        if j % 20 == 0:
            print(f"pattern {j + 1}/{len(patterns)}, {sum(secs):.1f} s", flush=True)
    return counts, secs, build, dict(methods)


def _one(counter, F, i):
    from wltools.errors import ResourceLimitError

    try:
        return counter.counts(F, [i])[0]
    except ResourceLimitError:
        return None


def count_all(patterns, widths, graphs, args) -> dict:
    """The Counter on every (pattern, graph); backtracking on the subset; both again, timed on
    exactly the pairs both ran (the Counter built afresh for them); the authors' counter there
    too, where it takes the graph."""
    from wltools.hom.batch import Counter
    from wltools.hom.brute import hom_count_brute

    counts, secs, build, methods = _counter_all(patterns, graphs, args.max_work)
    by_width = defaultdict(float)
    for w, sec in zip(widths, secs):
        by_width[w] += sec
    refused = [f"{graphs[i][0]}: {nx_g6(F)}" for F, row in zip(patterns, counts) for i, c in enumerate(row)
               if c is None]
    subset = {j: [i for i in range(0, len(graphs), args.brute_every) if _bound(F, graphs[i][2]) <= args.brute_limit]
              for j, F in enumerate(patterns)}
    brute_s, compared, mismatches, first_mismatch, brute_counts = 0.0, 0, 0, None, {}
    for j, F in enumerate(patterns):
        for i in subset[j]:
            t = time.perf_counter()
            b = hom_count_brute(F, graphs[i][2])
            brute_s += time.perf_counter() - t
            brute_counts[j, i] = b
            if counts[j][i] is None:
                continue
            compared += 1
            if b != counts[j][i]:
                mismatches += 1
                first_mismatch = first_mismatch or f"{graphs[i][0]} pattern {nx_g6(F)}: {counts[j][i]} vs {b}"
    t = time.perf_counter()
    fresh = Counter([graphs[i][2] for i in sorted({i for v in subset.values() for i in v})])
    position = {i: k for k, i in enumerate(sorted({i for v in subset.values() for i in v}))}
    for j, F in enumerate(patterns):
        if subset[j]:
            again = fresh.counts(F, [position[i] for i in subset[j]])
            mismatches += sum(a != brute_counts[j, i] for a, i in zip(again, subset[j]))
    same = time.perf_counter() - t
    authors = _authors(patterns, graphs, subset, counts, args.count_cpp) if args.count_cpp else None
    return {
        "pairs (pattern, graph)": len(patterns) * len(graphs),
        "counter (wltools.hom.batch.Counter)": {
            "seconds": round(sum(secs), 2), "seconds to prepare the graphs": round(build, 3),
            "seconds by pattern treewidth": {str(k): round(v, 2) for k, v in sorted(by_width.items())},
            "method taken first (pattern, graph)": methods,
            "refused": len(refused), "refused examples": refused[:10]},
        "backtracking (wltools.hom.brute)": {"counts run": len(brute_counts), "seconds": round(brute_s, 2)},
        "compared": compared, "mismatches": mismatches, "first mismatch": first_mismatch,
        "on the compared counts": {"counter seconds (prepared afresh, included)": round(same, 2),
                                   "backtracking seconds": round(brute_s, 2),
                                   "ratio": round(brute_s / same, 1) if same else None},
        "the authors' counter (count.cpp)": authors,
    }


def _authors(patterns, graphs, subset, counts, source) -> dict:
    """The authors' backtracking counter (subgraph23/homomorphism-expressivity, data/count.cpp:
    graphs of at most 40 vertices, counts in a C int), built here with g++ -O3 and run once per
    (pattern, graph) of the compared subset that it takes; its totals compared with ours and
    timed (a process per count, as their data/count.py runs it)."""
    import subprocess
    import tempfile

    import networkx as nx

    import hashlib

    out = {"source": Path(source).name, "sha256": hashlib.sha256(Path(source).read_bytes()).hexdigest(),
           "origin": "github.com/subgraph23/homomorphism-expressivity, data/count.cpp (commit 41aaf09 when measured)",
           "built with": "g++ -O3"}
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "count.out"
        subprocess.run(["g++", "-O3", str(source), "-o", str(exe)], check=True)
        seconds, ran, equal, skipped, first = 0.0, 0, 0, 0, None
        for j, F in enumerate(patterns):
            B = nx.to_numpy_array(F, nodelist=list(F.nodes), weight=None).astype(int)
            for i in subset[j]:
                G = graphs[i][2]
                if G.number_of_nodes() > 40 or counts[j][i] is None or counts[j][i] >= 2 ** 31:
                    skipped += 1
                    continue
                A = nx.to_numpy_array(G, nodelist=list(G.nodes), weight=None).astype(int)
                text = (f"{len(A)}\n{' '.join(map(str, A.ravel()))}\n{len(B)}\n{' '.join(map(str, B.ravel()))}\nhom")
                t = time.perf_counter()
                res = subprocess.run([str(exe)], input=text, capture_output=True, text=True, check=True)
                seconds += time.perf_counter() - t
                ran += 1
                got = int(res.stdout.split()[0])
                equal += got == counts[j][i]
                if got != counts[j][i] and first is None:
                    first = f"{graphs[i][0]} pattern {nx_g6(F)}: count.cpp {got}, ours {counts[j][i]}"
    out.update({"counts run": ran, "equal to ours": equal, "first difference": first,
                "skipped (over 40 vertices, or a count past a C int)": skipped, "seconds": round(seconds, 2)})
    return out


def nx_g6(F) -> str:
    from wltools.hom.witness import graph6

    return graph6(F)


def witness_times(max_nodes: int) -> list[dict]:
    """The witness search of each family on the largest pair of each BREC category, each search
    alone (``check --explain`` shares one cache between the tests of a pair, so it is faster)."""
    from brec_runner.runs.dataset import load_pairs
    from wltools.hom.witness import CountCache, graph_family_patterns, smallest_witness

    best: dict = {}
    for p in load_pairs():
        if p.category not in best or p.g.number_of_nodes() > best[p.category].g.number_of_nodes():
            best[p.category] = p
    rows = []
    for category, p in best.items():
        for test in ("1wl", "3wl", "3fwl"):
            patterns = graph_family_patterns(test, max_nodes)
            t = time.perf_counter()
            w = smallest_witness(p.g, p.h, patterns, CountCache(p.g, p.h))  # a fresh cache: each search alone
            rows.append({"category": category, "pair": p.id, "n": p.g.number_of_nodes(), "test": test,
                         "max_nodes": max_nodes, "seconds": round(time.perf_counter() - t, 3),
                         "witness": None if w is None else w.to_dict()})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", default=None, help="BREC graph indices (0-799: pair id * 2, +1 for H), e.g. 0-39.")
    ap.add_argument("--brute-limit", type=float, default=1e5, help="Largest placement bound backtracking runs.")
    ap.add_argument("--brute-every", type=int, default=5, help="Backtracking on every N-th graph (a subset).")
    ap.add_argument("--max-work", type=float, default=2e11, help="Largest dense work the counter takes on.")
    ap.add_argument("--count-cpp", default=None,
                    help="The authors' data/count.cpp (subgraph23/homomorphism-expressivity), built and compared.")
    ap.add_argument("--witness-nodes", type=int, default=5, help="Pattern size of the witness search.")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)

    from wltools.runtime import provenance

    patterns, widths = _patterns()
    graphs = _graphs(args.graphs)
    t0 = time.perf_counter()
    counts = count_all(patterns, widths, graphs, args)
    result = {
        "what": "hom(F, G) for the 143 connected patterns up to 6 vertices into BREC graphs: wltools.hom.batch.Counter "
                "(dense programme or elimination over sparse tables, per graph) against backtracking "
                "(wltools.hom.brute) and the authors' count.cpp in the same run; witness search times",
        "settings": {"graphs": args.graphs or "all 800", "brute_limit": args.brute_limit,
                     "brute_every": args.brute_every,
                     "max_work": args.max_work, "patterns": len(patterns),
                     "patterns by treewidth": {str(w): widths.count(w) for w in sorted(set(widths))},
                     "threads": "1 (OMP/OPENBLAS/MKL_NUM_THREADS)"},
        "environment": provenance.environment(),
        "note": f"2-core machine shared with other jobs (load average {os.getloadavg()[0]:.0f} at the end) while "
                "this ran: times are upper bounds",
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "counts": counts,
        "witness search": witness_times(args.witness_nodes),
    }
    result["elapsed_s"] = round(time.perf_counter() - t0, 1)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(counts, indent=1))
    return 1 if counts["mismatches"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
