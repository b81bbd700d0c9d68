"""Write randomgraph.g6 and splits.json from Zhang et al.'s ``data/count/graph.npy``.

Usage (from the repository root; SOURCE is the file from a snapshot of
subgraph23/homomorphism-expressivity, see README.md)::

    python data/counting/make_graphs.py SOURCE

``graph.npy`` holds ``(adjacency matrices, {"train", "val", "test"} index arrays)``.
"""

import json
import sys
from pathlib import Path

import networkx as nx
import numpy as np

HERE = Path(__file__).resolve().parent


def main(source: str) -> None:
    matrices, index = np.load(source, allow_pickle=True)
    index = index[()] if getattr(index, "shape", None) == () else index
    with open(HERE / "randomgraph.g6", "wb") as out:
        for a in matrices:
            a = np.asarray(a, dtype=np.int64)
            assert (a == a.T).all() and not np.diag(a).any() and set(np.unique(a)) <= {0, 1}
            G = nx.from_numpy_array(a)
            out.write(nx.to_graph6_bytes(G, header=False))
    splits = {k: [int(i) for i in index[k]] for k in ("train", "val", "test")}
    (HERE / "splits.json").write_text(json.dumps(splits, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
