"""EXP and CEXP (Abboud, Ceylan, Grohe & Lukasiewicz, "The Surprising Power of Graph Neural
Networks with Random Node Initialization", IJCAI 2021; ``ralphabb/GNN-RNI``, GPL-3.0).

Each pair encodes two planar SAT formulas, one satisfiable (graph ``2i``) and one not (graph
``2i + 1``), as graphs of clause and literal nodes, built to be 1-WL-equivalent. Pairs: ``(2i, 2i+1)``,
``i = 0..599``. Two different instances of EXP are published (see data/suites/README.md):

* ``exp``: ``exp/exp.g6`` (+ ``exp_labels.csv``), converted from the PyG pickle that GNN-RNI's PyG
  loader and ``balcilar/gnn-matlang`` read; the instance PyG-based work reports on;
* ``exp-ppgn``: ``exp/GRAPHSAT.txt``, the text file GNN-RNI wrote for PPGN; it shares only 2 of
  its 1,200 isomorphism classes with ``exp``;
* ``cexp``: ``cexp/GRAPHSAT.txt``: as EXP, but in the 300 even-numbered pairs the satisfiable
  graph is the unsatisfiable one plus a few edges (subcategory ``added_edges``; the others
  ``equal_edges``).

Node types (0 = clause, 1 = literal) are kept in each pair's ``meta["node_types"]``; the graphs
themselves are plain, as the refinement tests and the BREC-style models see them.
"""

from __future__ import annotations

import csv

import networkx as nx

from ..errors import DataIntegrityError
from .base import SuiteData, check_file, read_graph6_file

__all__ = ["read_graphsat", "build_exp", "build_exp_ppgn", "build_cexp"]


def read_graphsat(rel: str) -> list[tuple[nx.Graph, int, str]]:
    """Graphs of a checked PPGN-layout ``GRAPHSAT.txt``: ``(graph, label y, node types)``.

    Layout: first line ``N``; per graph a line ``n y``, then ``n`` lines ``t d u_1 .. u_d`` (node
    type, degree, neighbours). Every edge must be listed at both ends; no self-loops or repeats.

    Raises
    ------
    DataIntegrityError
        Any deviation from the layout.
    """
    path = check_file(rel)
    lines = path.read_text(encoding="ascii").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    pos = 0

    def bad(msg):
        raise DataIntegrityError(f"{rel} line {pos + 1}: {msg}")

    try:
        count = int(lines[0])
    except (IndexError, ValueError):
        bad("first line is not the number of graphs")
    pos = 1
    out = []
    for gi in range(count):
        head = lines[pos].split() if pos < len(lines) else []
        if len(head) != 2:
            bad(f"graph {gi}: expected 'n y'")
        n, y = int(head[0]), int(head[1])
        pos += 1
        G = nx.Graph()
        G.add_nodes_from(range(n))
        types = []
        arcs = set()
        for v in range(n):
            f = lines[pos].split() if pos < len(lines) else []
            if len(f) < 2 or len(f) != 2 + int(f[1]):
                bad(f"graph {gi} node {v}: expected 't d u_1..u_d'")
            types.append(f[0])
            nbrs = [int(u) for u in f[2:]]
            if v in nbrs or len(set(nbrs)) != len(nbrs) or any(not 0 <= u < n for u in nbrs):
                bad(f"graph {gi} node {v}: self-loop, repeated or out-of-range neighbour")
            arcs.update((v, u) for u in nbrs)
            pos += 1
        if any((u, v) not in arcs for v, u in arcs):
            bad(f"graph {gi}: an edge is listed at one end only")
        G.add_edges_from((v, u) for v, u in arcs if v < u)
        out.append((G, y, "".join(types)))
    if pos != len(lines):
        bad("text after the last graph")
    return out


def _pairs_of(graphs: list, types: list[str], ys: list[int], subcats: list[str]) -> list:
    if len(graphs) % 2:
        raise DataIntegrityError("odd number of EXP graphs")
    pairs = []
    for i in range(len(graphs) // 2):
        a, b = 2 * i, 2 * i + 1
        pairs.append((a, b, subcats[i], {"node_types": [types[a], types[b]], "y": [ys[a], ys[b]]}))
    return pairs


def build_exp() -> SuiteData:
    """EXP from ``exp/exp.g6`` and ``exp/exp_labels.csv`` (600 pairs)."""
    graphs = read_graph6_file("exp/exp.g6")
    with check_file("exp/exp_labels.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    if len(rows) != len(graphs):
        raise DataIntegrityError(f"exp_labels.csv has {len(rows)} rows for {len(graphs)} graphs")
    for i, (r, G) in enumerate(zip(rows, graphs)):
        if int(r["index"]) != i or int(r["pair"]) != i // 2 or len(r["x"]) != G.number_of_nodes():
            raise DataIntegrityError(f"exp_labels.csv row {i} does not match exp.g6 line {i}")
    types, ys = [r["x"] for r in rows], [int(r["y"]) for r in rows]
    sources = [f"exp/exp.g6 line {i}" for i in range(len(graphs))]
    return SuiteData(graphs, _pairs_of(graphs, types, ys, ["exp"] * (len(graphs) // 2)), [], sources)


def _build_graphsat(rel: str, name: str, split_added: bool) -> SuiteData:
    data = read_graphsat(rel)
    graphs = [g for g, _, _ in data]
    ys, types = [y for _, y, _ in data], [t for _, _, t in data]
    subcats = []
    for i in range(len(graphs) // 2):
        a, b = graphs[2 * i], graphs[2 * i + 1]
        added = (split_added and a.number_of_nodes() == b.number_of_nodes()
                 and a.number_of_edges() > b.number_of_edges()
                 and all(a.has_edge(u, v) for u, v in b.edges()))
        subcats.append(("added_edges" if added else "equal_edges") if split_added else name)
    sources = [f"{rel} graph {i}" for i in range(len(graphs))]
    return SuiteData(graphs, _pairs_of(graphs, types, ys, subcats), [], sources)


def build_exp_ppgn() -> SuiteData:
    """EXP from PPGN's text file ``exp/GRAPHSAT.txt`` (600 pairs)."""
    return _build_graphsat("exp/GRAPHSAT.txt", "exp-ppgn", False)


def build_cexp() -> SuiteData:
    """CEXP from ``cexp/GRAPHSAT.txt`` (600 pairs; subcategories ``added_edges`` and
    ``equal_edges``: the satisfiable graph is the unsatisfiable one plus edges, or not)."""
    return _build_graphsat("cexp/GRAPHSAT.txt", "cexp", True)
