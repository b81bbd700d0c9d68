"""Reading a TU dataset folder (Morris et al., "TUDataset: A collection of benchmark datasets for
learning with graphs", ICML GRL+ workshop 2020; format of https://chrsmrrs.github.io/datasets/).

A folder ``DS/`` holds comma-separated text files, ``n`` nodes, ``m`` edge lines, ``N`` graphs:

* ``DS_A.txt`` (m lines ``row, col``): the block-diagonal adjacency, 1-based node ids; an
  undirected edge is listed in both directions (one direction alone is accepted);
* ``DS_graph_indicator.txt`` (n lines): the graph id (1..N) of each node, non-decreasing;
* ``DS_graph_labels.txt`` (N lines, optional here): the class of each graph (the target);
* ``DS_node_labels.txt`` (n lines, optional): the label of each node (integers; several
  comma-separated columns form a tuple);
* ``DS_edge_labels.txt`` (m lines, optional): the label of each line of ``DS_A.txt``; both
  directions of an edge must carry the same label;
* ``DS_node_attributes.txt`` (n lines, optional): comma-separated numbers per node, used as node
  labels only when asked (``node_features="attributes"`` or ``"both"``): a row becomes a tuple
  of floats (one column: its value), equal rows equal labels.

Every table is read by the one label encoder (:func:`wltools.graphs.labels.encode_rows`): the text
``0.1`` of an attribute file is the label ``0.1``, the same as a PyG float32 ``0.1`` or a GraphML
``double`` ``0.1``; with ``"both"`` the label is the row ``(label, attributes...)``.

Every inconsistency (a malformed line, a count mismatch, an edge between two graphs, a self-loop,
an edge listed twice, a graph without nodes, disagreeing edge labels) is one
:class:`~wltools.errors.GraphFormatError` or :class:`~wltools.errors.UnsupportedGraphError` line
naming the file and line.

Examples
--------
>>> from pathlib import Path
>>> coll = read_tu(Path(__file__).resolve().parents[2] / "data" / "tu" / "NCI1K")
>>> coll.num_graphs, coll.num_nodes, coll.num_edges, len(coll.node_label_values), coll.target_values
(1000, 15211, 15496, 20, [0, 1])
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from ..errors import GraphFormatError, UnsupportedGraphError
from ..graphs.labels import encode_rows
from .collection import GraphCollection, build_csr

__all__ = ["read_tu", "NODE_FEATURES", "TU_DATA_DIR", "bundled", "bundled_names"]

#: The committed TU datasets (``data/tu``; provenance and checksums in its README.md).
TU_DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "tu"

#: What becomes the node labels (initial colours): the label file, the attribute file, both, none.
NODE_FEATURES = ("labels", "attributes", "both", "none")


#: SHA-256 of the committed TU files (data/tu/README.md), checked before a committed dataset is read
#: (:func:`wltools.runtime.shipped.check_shipped`: a damaged file is one line naming it and the fix).
CHECKSUMS: dict[str, str] = {
    "NCI1K/NCI1K_A.txt": "90630b70b47f3e6627d41a36d85647a78ecf8f32bd5c7249fe364a049d543c9b",
    "NCI1K/NCI1K_edge_labels.txt": "8f3a72fcf76727ad51abc3b037a6c3f2cac3430724ef8b7d3bcde521cc27a04f",
    "NCI1K/NCI1K_graph_indicator.txt": "2b47b3af1940fdeced95564ea65bf34c5a20b4ce84a78788e220defb8952c1a0",
    "NCI1K/NCI1K_graph_labels.txt": "72f59dbc9f3a87bb6165edc5e050809ac71472d2e38788b1902f6e7d04ea2d2d",
    "NCI1K/NCI1K_node_labels.txt": "f8a202885b535711ea88dc81c59a8e50f526378d43f0b0eccba57c3f2535dd0d",
}


def bundled(name: str) -> Path | None:
    """The folder of a committed TU dataset by name (``"NCI1K"``), or None.

    Examples
    --------
    >>> bundled("NCI1K").name, bundled("nci1k").name, bundled("NOPE")
    ('NCI1K', 'NCI1K', None)
    """
    if not name or "/" in name or not TU_DATA_DIR.is_dir():
        return None
    by_case = {f.name.lower(): f for f in TU_DATA_DIR.iterdir() if f.is_dir()}
    return by_case.get(name.lower())  # nci1k is NCI1K: a name, not a file, so its case is not meaningful


def bundled_names() -> list[str]:
    """The committed TU datasets' names, sorted (for messages)."""
    return sorted(f.name for f in TU_DATA_DIR.iterdir() if f.is_dir()) if TU_DATA_DIR.is_dir() else []


def _diagnose(path: Path, lines: list[str], cols: int | None, number) -> str:
    """The first bad line of a table, as one message."""
    for i, line in enumerate(lines, start=1):
        parts = [p.strip() for p in line.split(",")]
        if not line.strip():
            return f"{path.name} line {i} is empty"
        if cols is not None and len(parts) != cols:
            return f"{path.name} line {i}: expected {cols} comma-separated value(s), got {line.strip()!r}"
        for p in parts:
            try:
                x = number(p)
            except ValueError:
                kind = "an integer" if number is int else "a number"
                return f"{path.name} line {i}: {p!r} is not {kind}"
            if number is float and not math.isfinite(x):
                return f"{path.name} line {i}: {p!r} is not a finite number"
        if cols is None:
            cols = len(parts)
    return f"{path.name}: cannot read the table"


def _table(path: Path, cols: int | None = None, number=int) -> np.ndarray:
    """A comma-separated table of integers (or floats) as a ``[lines, cols]`` array."""
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        raise GraphFormatError(f"{path.name} is not a text file") from None
    except OSError as exc:
        raise GraphFormatError(f"cannot read {path}: {exc.strerror or exc}") from None
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise GraphFormatError(f"{path.name} is empty")
    dtype = np.int64 if number is int else np.float64
    try:
        X = np.loadtxt(lines, delimiter=",", dtype=dtype, ndmin=2)
    except ValueError:
        raise GraphFormatError(_diagnose(path, lines, cols, number)) from None
    if X.shape[0] != len(lines) or (cols is not None and X.shape[1] != cols) or \
            (number is float and not np.isfinite(X).all()):
        raise GraphFormatError(_diagnose(path, lines, cols, number))
    return X


def _files(folder: Path, name: str | None) -> tuple[str, dict]:
    if not folder.is_dir():
        raise GraphFormatError(f"no such TU dataset folder: {str(folder)!r}")
    if name is None:
        found = sorted(p.name[: -len("_A.txt")] for p in folder.glob("*_A.txt"))
        if len(found) != 1:
            raise GraphFormatError(f"{folder}: expected one DS_A.txt file (TU format), found "
                                   f"{len(found) or 'none'}{': ' + ', '.join(found) if found else ''}")
        name = found[0]
    kinds = ("A", "graph_indicator", "graph_labels", "node_labels", "edge_labels", "node_attributes")
    paths = {k: folder / f"{name}_{k}.txt" for k in kinds}
    for k in ("A", "graph_indicator"):
        if not paths[k].is_file():
            raise GraphFormatError(f"{folder}: missing {paths[k].name} (TU format)")
    if folder.resolve().parent == TU_DATA_DIR.resolve():  # a committed dataset: its files as committed
        from wltools.runtime.shipped import check_shipped

        for rel, digest in CHECKSUMS.items():
            if rel.startswith(f"{folder.name}/"):
                check_shipped(TU_DATA_DIR / rel, digest, "TU data file")
    return name, {k: p for k, p in paths.items() if p.is_file()}


def _graph_ptr(indicator: np.ndarray, path: Path) -> np.ndarray:
    g = indicator[:, 0]
    if g.min() < 1:
        raise GraphFormatError(f"{path.name} line {int(np.argmin(g)) + 1}: graph id {int(g.min())} (ids start at 1)")
    drop = np.flatnonzero(np.diff(g) < 0)
    if drop.size:
        raise GraphFormatError(f"{path.name} line {int(drop[0]) + 2}: graph ids must be non-decreasing "
                               "(the nodes of a graph are consecutive)")
    counts = np.bincount(g - 1)
    empty = np.flatnonzero(counts == 0)
    if empty.size:
        raise GraphFormatError(f"{path.name}: graph {int(empty[0]) + 1} has no nodes")
    ptr = np.zeros(counts.size + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    return ptr


def _edges(A: np.ndarray, n: int, node_graph: np.ndarray, labels: np.ndarray | None, path: Path):
    """Undirected edges ``(src, dst, label ids)`` from the directed lines of ``DS_A.txt``."""
    bad = np.flatnonzero((A < 1).any(axis=1) | (A > n).any(axis=1))
    if bad.size:
        raise GraphFormatError(f"{path.name} line {int(bad[0]) + 1}: node id out of 1..{n}: "
                               f"{A[bad[0]].tolist()}")
    u, v = A[:, 0] - 1, A[:, 1] - 1
    loop = np.flatnonzero(u == v)
    if loop.size:
        raise UnsupportedGraphError(f"{path.name} line {int(loop[0]) + 1}: self-loop at node {int(u[loop[0]]) + 1} "
                                    "(only simple graphs are supported)")
    cross = np.flatnonzero(node_graph[u] != node_graph[v])
    if cross.size:
        raise GraphFormatError(f"{path.name} line {int(cross[0]) + 1}: edge between graphs "
                               f"{int(node_graph[u[cross[0]]]) + 1} and {int(node_graph[v[cross[0]]]) + 1}")
    directed = u * n + v
    _, first, counts = np.unique(directed, return_index=True, return_counts=True)
    if (counts > 1).any():
        i = int(np.sort(np.setdiff1d(np.arange(A.shape[0]), first))[0])
        raise UnsupportedGraphError(f"{path.name} line {i + 1}: edge {A[i].tolist()} listed twice (a multi-edge)")
    lo, hi = np.minimum(u, v), np.maximum(u, v)
    key = lo * n + hi
    ukey, first, inv = np.unique(key, return_index=True, return_inverse=True)
    lab = None
    if labels is not None:
        lab = labels[first]
        bad = np.flatnonzero(labels != lab[inv.reshape(-1)])
        if bad.size:
            raise GraphFormatError(f"edge labels: line {int(bad[0]) + 1} gives edge {A[bad[0]].tolist()} label "
                                   f"{int(labels[bad[0]])}, the other direction {int(lab[inv.reshape(-1)[bad[0]]])}")
    return lo[first], hi[first], lab


def read_tu(folder: str | os.PathLike, name: str | None = None, *, node_features: str = "labels",
            edge_labels: bool = True) -> GraphCollection:
    """A TU dataset folder as a :class:`~wltools.dataset.collection.GraphCollection`.

    Parameters
    ----------
    folder : path
        The folder holding ``DS_A.txt`` and the other files, or the name of a committed dataset
        (:func:`bundled`, e.g. ``"NCI1K"``).
    name : str, optional
        ``DS``; default: the one ``*_A.txt`` file of the folder.
    node_features : {"labels", "attributes", "both", "none"}
        What becomes the node labels (initial colours); node targets are always read from
        ``DS_node_labels.txt`` when it exists.
    edge_labels : bool
        Read ``DS_edge_labels.txt`` when it exists.
    """
    folder = Path(folder)
    if not folder.exists() and bundled(str(folder)) is not None:
        folder = bundled(str(folder))
    if node_features not in NODE_FEATURES:
        raise GraphFormatError(f"node_features must be one of {', '.join(NODE_FEATURES)}, got {node_features!r}")
    name, paths = _files(folder, name)
    indicator = _table(paths["graph_indicator"], 1)
    ptr = _graph_ptr(indicator, paths["graph_indicator"])
    n, num_graphs = int(ptr[-1]), ptr.size - 1
    node_graph = indicator[:, 0] - 1
    A = _table(paths["A"], 2)
    elab = None
    if edge_labels and "edge_labels" in paths:
        E = _table(paths["edge_labels"])
        if E.shape[0] != A.shape[0]:
            raise GraphFormatError(f"{paths['edge_labels'].name} has {E.shape[0]} lines, {paths['A'].name} {A.shape[0]}")
        elab, elab_values = encode_rows(E, _line(paths["edge_labels"]))
    src, dst, lab = _edges(A, n, node_graph, elab, paths["A"])
    indptr, indices, slot_labels = build_csr(n, src, dst, lab)
    coll = GraphCollection(ptr, indptr, indices, name=name)
    if slot_labels is not None:
        coll.edge_labels, coll.edge_label_values = slot_labels, elab_values
    labels = _per_node(paths, "node_labels", n, int)
    attrs = _per_node(paths, "node_attributes", n, float) if node_features in ("attributes", "both") else None
    if node_features in ("attributes", "both") and attrs is None:
        raise GraphFormatError(f"{folder}: node_features={node_features!r} but there is no {name}_node_attributes.txt")
    feats = {"labels": [labels], "attributes": [attrs], "both": [labels, attrs], "none": []}[node_features]
    feats = [f for f in feats if f is not None]
    if feats:
        X = np.concatenate(feats, axis=1) if len(feats) > 1 else feats[0]
        coll.node_labels, coll.node_label_values = encode_rows(X, lambda v: f"{name} node {v + 1}")
    if labels is not None:
        coll.node_targets, coll.node_target_values = encode_rows(labels, _line(paths["node_labels"]))
    if "graph_labels" in paths:
        y = _table(paths["graph_labels"])
        if y.shape[0] != num_graphs:
            raise GraphFormatError(f"{paths['graph_labels'].name} has {y.shape[0]} lines for {num_graphs} graphs")
        coll.graph_targets, coll.target_values = encode_rows(y, _line(paths["graph_labels"]))
    return coll


def _line(path: Path):
    """``where(i)``: line ``i + 1`` of ``path``, for the label encoder's messages."""
    return lambda i: f"{path.name} line {i + 1}"


def _per_node(paths: dict, kind: str, n: int, number) -> np.ndarray | None:
    if kind not in paths:
        return None
    X = _table(paths[kind], None, number)
    if X.shape[0] != n:
        raise GraphFormatError(f"{paths[kind].name} has {X.shape[0]} lines for {n} nodes")
    return X
