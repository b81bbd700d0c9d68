"""Whole-dataset 1-WL (``wltools dataset``) against per-graph hashing, on the same graphs in one run.

Data: NCI1K (``data/tu/NCI1K``, 1,000 NCI molecules from RDKit's data files, atoms labelled by
element, bonds by type; ``data/tu/README.md``) replicated to ``N`` graphs, each copy with a random
permutation of its nodes (seeded), so the copies of a molecule must land in one class: the
classes at ``N`` graphs equal those of the 1,000 originals (``base_classes`` in the JSON, the
labelled isomorphism classes and the 1-WL classes of the originals, computed apart).

Methods, each run to the same number of rounds ``h`` (the rounds after which wltools' one-table
refinement of the whole collection is stable):

* ``wltools``: :func:`wltools.dataset.refine.refine_collection` on the collection (one colour
  table over the disjoint union; exact). Loading (:func:`from_networkx`) is timed apart.
* ``networkx``: ``nx.weisfeiler_lehman_graph_hash(G, node_attr, edge_attr, iterations=h)`` per
  graph, then graphs grouped by hash (blake2b digests; not verified, so not exact).
* ``graphtester-style``: graphtester (Akbiyik et al. 2023; meakbiyik/graphtester, read at commit
  9a75c2c) is not installable here (``pip install graphtester``: no distribution), so its
  algorithm is re-implemented from the facts of its source (``graphtester/test.py``:
  ``weisfeiler_lehman_hash``, ``_aggregate_neighborhood``; ``evaluate/dataset.py``:
  ``_estimate_hashes``): per graph an igraph ``Graph``, per round and node a string
  ``"-1;<own label>," + sorted("<edge label>;<neighbour label>")`` with the edge found by
  ``G.es.find(_between=...)``, strings over 20 characters replaced by Python's ``hash``, the
  graph's hash the joined sorted node labels; a graph whose hash stops changing is skipped.

``--against REV`` instead times the shared-table refinement of NCI1K under every test refined on
one table (:data:`wltools.dataset.refine.TESTS`), this code against ``wltools/dataset/refine.py``
of commit ``REV`` loaded as a module beside it (same process, alternating, best of ``--repeat``),
checks the classes agree and writes ``benchmarks/results/dataset_loop.json``.

Writes ``benchmarks/results/dataset.json`` (append ``--out`` to change). Sizes are arguments:
``python benchmarks/dataset_bench.py --sizes 10000,100000 --nx-max 10000 --gt-max 2000``; each
method runs on the sizes up to its maximum, and the JSON says which.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

import networkx as nx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wltools.dataset.collection import from_networkx  # noqa: E402
from wltools.dataset.iso_labelled import isomorphism_classes, labelled_certificate  # noqa: E402
from wltools.dataset.refine import LocalShards, refine_collection  # noqa: E402
from wltools.dataset.tu import read_tu  # noqa: E402
from wltools.runtime.provenance import environment  # noqa: E402


def replicate(n_graphs: int, seed: int = 0) -> list[nx.Graph]:
    """NCI1K's graphs cycled to ``n_graphs`` graphs, each copy's nodes randomly permuted."""
    base = read_tu(ROOT / "data" / "tu" / "NCI1K")
    originals = [base.graph(i) for i in range(base.num_graphs)]
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n_graphs):
        G = originals[i % len(originals)]
        perm = rng.permutation(G.number_of_nodes())
        H = nx.Graph(target=G.graph["target"])
        H.add_nodes_from(sorted((int(perm[v]), d) for v, d in G.nodes(data=True)))
        H.add_edges_from((int(perm[u]), int(perm[v]), d) for u, v, d in G.edges(data=True))
        out.append(H)
    return out


def base_classes() -> dict:
    """The answer the replicated runs must give: classes of the 1,000 originals."""
    coll = read_tu(ROOT / "data" / "tu" / "NCI1K")
    ref = refine_collection(coll, "1wl")
    iso = isomorphism_classes(coll, ref.graph_classes[-1])
    return {"graphs": coll.num_graphs, "wl1_classes": int(ref.graph_classes[-1].max()) + 1,
            "wl1_stable_after": ref.stable_after, "isomorphism_classes": int(iso.max()) + 1}


def run_wltools(graphs, shards: int = 1, executor: str = "local") -> dict:
    t0 = time.perf_counter()
    coll = from_networkx(graphs, node_label="label", edge_label="label", graph_target="target", name="NCI1K-rep")
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    if executor == "ray":
        from wltools.dataset.ray_refine import RayShards

        sh = RayShards(coll, "1wl", shards, num_cpus=os.cpu_count())
        start = time.perf_counter() - t0
        t0 = time.perf_counter()
        ref = refine_collection(coll, "1wl", shards=sh)
        sh.close()
    else:
        start = 0.0
        ref = refine_collection(coll, "1wl", shards=LocalShards(coll, "1wl", shards) if shards > 1 else None)
    secs = time.perf_counter() - t0
    out = {"load_s": round(load, 3), "refine_s": round(secs, 3), "ray_start_s": round(start, 3) if start else None,
           "rounds": len(ref.graph_classes) - 1, "stable_after": ref.stable_after,
           "classes": int(ref.graph_classes[-1].max()) + 1, "graphs_per_s": round(len(graphs) / secs, 1)}
    if shards == 1:  # labelled isomorphism classes of the graphs sharing their final class
        labelled_certificate(coll, 0)  # the first call imports igraph: not timed
        t0 = time.perf_counter()
        iso = isomorphism_classes(coll, ref.graph_classes[-1])
        out.update(isomorphism_s=round(time.perf_counter() - t0, 3), isomorphism_classes=int(iso.max()) + 1)
    return out


def run_networkx(graphs, rounds: int) -> dict:
    t0 = time.perf_counter()
    groups = defaultdict(list)
    for i, G in enumerate(graphs):
        groups[nx.weisfeiler_lehman_graph_hash(G, node_attr="label", edge_attr="label", iterations=rounds)].append(i)
    secs = time.perf_counter() - t0
    return {"refine_s": round(secs, 3), "rounds": rounds, "classes": len(groups),
            "graphs_per_s": round(len(graphs) / secs, 1)}


def _gt_node_label(g, v, labels):
    parts = []
    for u in g.neighbors(v):
        edge = g.es.find(_between=((v,), (u,)))
        parts.append(f"{edge['label']};{labels[u]}")
    text = ",".join([f"-1;{labels[v]}"] + sorted(parts))
    return str(hash(text)) if len(text) > 20 else text


def _gt_graph_hash(labels):
    text = ";".join(sorted(labels))
    return str(hash(text)) if len(text) > 20 else text


def run_graphtester_style(graphs, rounds: int) -> dict:
    import igraph as ig

    igs = []
    for G in graphs:  # conversion is setup, not timed (graphtester's datasets are igraph already)
        g = ig.Graph(n=G.number_of_nodes(), edges=list(G.edges()))
        g.vs["label"] = [str(G.nodes[v]["label"]) for v in range(G.number_of_nodes())]
        g.es["label"] = [G.edges[e]["label"] for e in G.edges()]
        igs.append(g)
    t0 = time.perf_counter()
    labels = [list(g.vs["label"]) for g in igs]
    hashes = [_gt_graph_hash(lab) for lab in labels]
    stable = set()
    for k in range(1, rounds + 1):
        for i, g in enumerate(igs):
            if i in stable:
                continue
            new = [_gt_node_label(g, v, labels[i]) for v in range(g.vcount())]
            h = _gt_graph_hash(new)
            if k > 2 and h == hashes[i]:
                stable.add(i)
            labels[i], hashes[i] = new, h
    secs = time.perf_counter() - t0
    return {"refine_s": round(secs, 3), "rounds": rounds, "classes": len(set(hashes)),
            "graphs_per_s": round(len(graphs) / secs, 1)}


def memory_per_graph(graphs) -> dict:
    coll = from_networkx(graphs, node_label="label", edge_label="label", graph_target="target")
    tracemalloc.start()
    refine_collection(coll, "1wl")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"graphs": len(graphs), "nodes": coll.num_nodes, "peak_bytes": peak,
            "bytes_per_graph": round(peak / len(graphs), 1), "bytes_per_node": round(peak / coll.num_nodes, 1)}


def old_refine(rev: str):
    """``wltools/dataset/refine.py`` of commit ``rev``, loaded as ``wltools.dataset._refine_at_rev``
    (its relative imports read this tree's other modules)."""
    import importlib.util
    import subprocess
    import tempfile

    text = subprocess.run(["git", "show", f"{rev}:wltools/dataset/refine.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "refine_at_rev.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("wltools.dataset._refine_at_rev", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def against(rev: str, repeat: int, tests: list[str]) -> dict:
    """Best-of-``repeat`` seconds of this code's and ``rev``'s refinement of NCI1K per test, and
    whether their classes agree at every round."""
    from wltools.dataset import refine as new

    old = old_refine(rev)
    coll = read_tu(ROOT / "data" / "tu" / "NCI1K")
    rows = {}
    for test in tests:
        best = {"new": float("inf"), "old": float("inf")}
        results = {}
        for _ in range(repeat):
            for name, module in (("old", old), ("new", new)):
                t0 = time.process_time()
                results[name] = module.refine_collection(coll, test)
                best[name] = min(best[name], time.process_time() - t0)
        same = (len(results["old"].graph_classes) == len(results["new"].graph_classes)
                and all(np.array_equal(a, b) for a, b in zip(results["old"].graph_classes, results["new"].graph_classes))
                and results["old"].stable_after == results["new"].stable_after)
        rows[test] = {"old_cpu_s": round(best["old"], 4), "new_cpu_s": round(best["new"], 4),
                      "ratio_new_to_old": round(best["new"] / best["old"], 3), "same_classes": same}
        print(test, rows[test], flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--nx-max", type=int, default=10000)
    ap.add_argument("--gt-max", type=int, default=2000)
    ap.add_argument("--ray-size", type=int, default=0, help="Also time Ray (2 shards) at this size (0: no).")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "dataset.json"))
    ap.add_argument("--conditions", default="", help="What else ran on the machine (written to the JSON).")
    ap.add_argument("--against", default="", metavar="REV",
                    help="Time the shared-table tests on NCI1K against refine.py of commit REV (see above).")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tests", default="", help="With --against: these tests only (comma list; default: every shared one).")
    args = ap.parse_args()
    if args.against:
        from wltools.dataset.refine import TESTS

        rows = against(args.against, args.repeat, args.tests.split(",") if args.tests else list(TESTS))
        out = {"benchmark": "shared-table refinement of NCI1K per test: this code against refine.py of " + args.against,
               "measure": f"CPU seconds (process_time), best of {args.repeat}, old and new alternating in one process",
               "conditions": args.conditions, "results": rows,
               "load_average_1_5_15min": [round(x, 2) for x in os.getloadavg()],
               "environment": environment(), "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}
        path = ROOT / "benchmarks" / "results" / "dataset_loop.json"
        path.write_text(json.dumps(out, indent=2) + "\n")
        print(f"wrote {path}")
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    load_start = os.getloadavg()
    base = base_classes()
    print(json.dumps({"base_classes": base}), flush=True)
    results = []
    for n in sizes:
        graphs = replicate(n)
        row = {"graphs": n, "wltools": run_wltools(graphs)}
        h = row["wltools"]["rounds"]
        if n <= args.nx_max:
            row["networkx"] = run_networkx(graphs, h)
        if n <= args.gt_max:
            row["graphtester_style"] = run_graphtester_style(graphs, h)
        if n == args.ray_size:
            row["wltools_local_2_shards"] = run_wltools(graphs, shards=2)
            row["wltools_ray_2_shards"] = run_wltools(graphs, shards=2, executor="ray")
        print(json.dumps(row), flush=True)
        results.append(row)
    mem = memory_per_graph(replicate(min(sizes)))
    import igraph

    out = {"benchmark": "whole-dataset 1-WL with node and edge labels: one colour table vs per-graph hashing",
           "data": "NCI1K (data/tu/NCI1K, 1,000 NCI molecules from RDKit's data files) cycled to N graphs, each copy's nodes permuted (numpy seed 0)",
           "base_classes": base,
           "graphtester_note": ("graphtester is not installable here (pip: no distribution); 'graphtester_style' "
                                "re-implements its per-graph string hashing from its source (meakbiyik/graphtester "
                                "@ 9a75c2c: graphtester/test.py weisfeiler_lehman_hash, _aggregate_neighborhood; "
                                "evaluate/dataset.py _estimate_hashes)"),
           "rounds_note": "every method runs the rounds after which wltools' refinement is stable",
           "conditions": args.conditions,
           "load_average_1_5_15min": {"start": [round(x, 2) for x in load_start],
                                      "end": [round(x, 2) for x in os.getloadavg()]},
           "results": results, "memory_1wl_tracemalloc": mem,
           "machine": {"python": platform.python_version(), "numpy": np.__version__, "networkx": nx.__version__,
                       "igraph": igraph.__version__, "platform": platform.platform(), "cpus": os.cpu_count()},
           "environment": environment(),
           "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
