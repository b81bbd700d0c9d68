"""Precompute the subgraph-count targets of every standard task into targets.npz.

Usage (from the repository root, after make_graphs.py)::

    PYTHONPATH=$PWD python data/counting/make_targets.py

Keys: ``TASK|graph`` (one int per graph), ``TASK|node`` and ``TASK|edge`` (the per-node and
per-edge counts of every graph, concatenated in graph order; edges in
``wltools.counting.data.edge_list`` order). Exact integer counts
(``wltools.counting.subgraph.subgraph_counts``).
"""

import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np

from wltools.counting.subgraph import automorphisms, subgraph_counts
from wltools.counting.tasks import STANDARD_TASKS, parse_task

HERE = Path(__file__).resolve().parent


def main(names=STANDARD_TASKS, out=HERE / "targets.npz") -> None:
    graphs = [nx.from_graph6_bytes(line) for line in (HERE / "randomgraph.g6").read_bytes().split()]
    arrays = {}
    for name in names:
        t0 = time.time()
        task = parse_task(name)
        aut = automorphisms(task.pattern)
        counts = [subgraph_counts(task.pattern, G, aut=aut) for G in graphs]
        arrays[f"{name}|graph"] = np.array([o[0] for o in counts], dtype=np.int64)
        arrays[f"{name}|node"] = np.concatenate([o[1] for o in counts]).astype(np.int64)
        arrays[f"{name}|edge"] = np.concatenate([o[2] for o in counts]).astype(np.int64)
        print(f"{name}: {time.time() - t0:.1f} s, total {int(arrays[name + '|graph'].sum())}", file=sys.stderr, flush=True)
    np.savez_compressed(out, **arrays)


if __name__ == "__main__":
    main()
