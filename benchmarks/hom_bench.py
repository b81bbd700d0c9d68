"""Homomorphism counts of every connected pattern with at most 6 vertices (143, networkx's atlas)
into all 800 BREC graphs: the tree-decomposition dynamic programme (:mod:`wltools.hom.count`)
against plain backtracking (:mod:`wltools.hom.brute`, the method of the authors' code), in the
same run, and the witness search (:func:`wltools.hom.witness.smallest_witness`, the default
``--explain`` size) on one BREC pair per category (not part of the test suite).

Backtracking is run on every ``--brute-every``-th graph (a subset: Python backtracking on all of
them takes hours) where its placement bound n * Δ^(k-1) is at most ``--brute-limit`` (beyond that
a count takes minutes); its time on the rest is extrapolated from
the measured seconds per bounded placement (the median over the counts it ran), an upper-bound
estimate, and said so in the file. Every count both methods computed is compared; a mismatch is
reported and makes the script exit 1. The dynamic programme refuses a pattern whose n^(t+1) work
is above ``--max-work``; those counts come from backtracking where it ran, and are listed.

Usage::

    python benchmarks/hom_bench.py                   # writes benchmarks/results/hom.json
    python benchmarks/hom_bench.py --graphs 0-39     # the first 20 pairs only (a quick look)

The machine is recorded in the file; on a shared machine the times are upper bounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
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


def _dp_all(patterns, G, max_work):
    """DP counts of every pattern into G (None where refused) and the seconds of each."""
    from wltools.errors import ResourceLimitError
    from wltools.hom.count import _count_connected

    adjacency: dict = {}
    counts, secs = [], []
    for F in patterns:
        t = time.perf_counter()
        try:
            counts.append(int(_count_connected(F, G, max_work=max_work, adjacency=adjacency)[()]))
        except ResourceLimitError:
            counts.append(None)
        secs.append(time.perf_counter() - t)
    return counts, secs


def count_all(patterns, widths, graphs, args) -> dict:
    """Both counters on every (pattern, graph) they run on; totals, comparisons, extrapolation."""
    from wltools.hom.brute import hom_count_brute

    dp_s, brute_s, per_placement, dp_same, brute_same = 0.0, 0.0, [], 0.0, 0.0
    by_width = defaultdict(float)
    compared = mismatches = refused = brute_only = skipped_bound = 0
    first_mismatch, refused_list, unbounded = None, [], 0.0
    for i, (label, category, G) in enumerate(graphs):
        counts, secs = _dp_all(patterns, G, args.max_work)
        dp_s += sum(secs)
        for w, s in zip(widths, secs):
            by_width[w] += s
        for F, c, sec in zip(patterns, counts, secs):
            bound = _bound(F, G)
            if c is None:
                refused += 1
                refused_list.append(f"{label}: {nx_g6(F)}")
            if bound > args.brute_limit or i % args.brute_every:
                skipped_bound += 1
                unbounded += bound
                continue
            t = time.perf_counter()
            b = hom_count_brute(F, G)
            dt = time.perf_counter() - t
            brute_s += dt
            per_placement.append(dt / bound)
            if c is None:
                brute_only += 1
                continue
            compared += 1
            dp_same, brute_same = dp_same + sec, brute_same + dt
            if b != c:
                mismatches += 1
                first_mismatch = first_mismatch or f"{label} pattern {nx_g6(F)}: DP {c}, backtracking {b}"
        if i % 50 == 0:
            print(f"{i + 1}/{len(graphs)} graphs, DP {dp_s:.1f} s, backtracking {brute_s:.1f} s", flush=True)
    rate = statistics.median(per_placement) if per_placement else None
    return {
        "pairs (pattern, graph)": len(patterns) * len(graphs),
        "dp": {"seconds": round(dp_s, 2), "seconds by pattern treewidth": {str(k): round(v, 2) for k, v in
                                                                           sorted(by_width.items())},
               "refused (work above --max-work)": refused, "refused examples": refused_list[:10]},
        "backtracking": {"counts run": compared + brute_only, "seconds": round(brute_s, 2),
                         "counts not run (graph outside the subset, or bound above --brute-limit)": skipped_bound,
                         "median seconds per bounded placement": rate,
                         "extrapolated seconds for the counts not run (upper-bound estimate)":
                             None if rate is None else round(rate * unbounded, 1)},
        "compared": compared, "mismatches": mismatches, "first mismatch": first_mismatch,
        "on the compared counts": {"dp seconds": round(dp_same, 2),
                                   "backtracking seconds": round(brute_same, 2)},
        "counted by backtracking only (DP refused)": brute_only,
    }


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
    ap.add_argument("--max-work", type=float, default=5e8, help="Largest n^(t+1) work the DP takes on.")
    ap.add_argument("--witness-nodes", type=int, default=5, help="Pattern size of the witness search.")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)

    from wltools.runtime import provenance

    patterns, widths = _patterns()
    graphs = _graphs(args.graphs)
    t0 = time.perf_counter()
    counts = count_all(patterns, widths, graphs, args)
    result = {
        "what": "hom(F, G) for the 143 connected patterns up to 6 vertices into BREC graphs: tree-decomposition DP "
                "(wltools.hom.count) against backtracking (wltools.hom.brute) in the same run; witness search times",
        "settings": {"graphs": args.graphs or "all 800", "brute_limit": args.brute_limit,
                     "brute_every": args.brute_every,
                     "max_work": args.max_work, "patterns": len(patterns),
                     "patterns by treewidth": {str(w): widths.count(w) for w in sorted(set(widths))},
                     "threads": "1 (OMP/OPENBLAS/MKL_NUM_THREADS)"},
        "environment": provenance.environment(),
        "note": f"2-core machine shared with other jobs (load average {os.getloadavg()[0]:.0f} at the end) while "
                "this ran: times are upper bounds; the backtracking time of the counts it did not run is "
                "extrapolated from a loose placement bound, not measured",
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
