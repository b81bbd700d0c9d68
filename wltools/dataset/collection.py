"""A collection of labelled graphs held as one disjoint union (CSR arrays), and its loaders.

A :class:`GraphCollection` stores ``G`` graphs of ``N`` nodes in total as the sparse adjacency
of their disjoint union: graph ``i`` owns the nodes ``graph_ptr[i] .. graph_ptr[i+1]-1``. Labels
are small integer ids into tables of the original values, built once for the whole collection
(one shared table, so equal labels get equal ids in every graph):

* **node labels** (``node_labels``, ``[N]``): the initial colours of every test. Any hashable
  value is a label; a feature vector (a row of ``x`` of a PyG graph, a TU node-attribute line) is
  turned into a tuple, so two nodes share an initial colour iff their vectors are equal.
* **edge labels** (``edge_labels``, one per CSR slot, equal in both directions): enter the
  aggregation of the tests (:mod:`wltools.dataset.refine`).
* **graph targets** (``graph_targets``, ``[G]``) and **node targets** (``node_targets``, ``[N]``):
  the classes whose accuracy :mod:`wltools.dataset.bounds` bounds. They never colour anything.

Loaders: :func:`from_networkx` (a list of networkx graphs and attribute names),
:func:`from_graph6` (a graph6 / sparse6 file, one graph per line, read by
:func:`wltools.graphs.load_graphs`), :func:`from_pyg` (a PyG dataset or list of ``Data``),
:func:`wltools.dataset.tu.read_tu` (a TU folder, Morris et al. 2020), and :func:`load_collection`
choosing among them. Bad input raises :class:`~wltools.errors.GraphFormatError` or
:class:`~wltools.errors.UnsupportedGraphError` with one line naming the graph and node.

Examples
--------
>>> import networkx as nx
>>> G = nx.path_graph(3); nx.set_node_attributes(G, {0: "C", 1: "O", 2: "C"}, "atom")
>>> coll = from_networkx([G, nx.cycle_graph(3)], node_label="atom", default_node_label="C")
>>> coll.num_graphs, coll.num_nodes, coll.node_label_values, coll.node_labels.tolist()
(2, 6, ['C', 'O'], [0, 1, 0, 0, 0, 0])
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import networkx as nx
import numpy as np

from ..errors import GraphFormatError, UnsupportedGraphError

__all__ = ["GraphCollection", "encode_labels", "from_networkx", "from_graph6", "from_pyg", "load_collection",
           "build_csr"]

_MISSING = object()


def _sort_key(v: Any) -> tuple:
    return (type(v).__name__, repr(v))


def encode_labels(values: Sequence, what: str) -> tuple[np.ndarray, list]:
    """Integer ids of hashable label values, one shared table: ``(ids, table)`` with
    ``table[ids[i]] == values[i]``; ids follow the sorted order of the values when they sort,
    else the order of :func:`repr`.

    Raises
    ------
    GraphFormatError
        A value that is not hashable (``what(i)`` names it in the message).

    Examples
    --------
    >>> ids, table = encode_labels(["b", "a", "b"], lambda i: f"node {i}")
    >>> ids.tolist(), table
    ([1, 0, 1], ['a', 'b'])
    >>> encode_labels([[1]], lambda i: f"node {i}")
    Traceback (most recent call last):
    ...
    wltools.errors.GraphFormatError: node 0: label [1] is not hashable (a list); use numbers, strings or tuples
    """
    index: dict = {}
    raw = np.empty(len(values), dtype=np.int64)
    for i, v in enumerate(values):
        try:
            raw[i] = index.setdefault(v, len(index))
        except TypeError:
            raise GraphFormatError(f"{what(i)}: label {v!r} is not hashable (a {type(v).__name__}); "
                                   "use numbers, strings or tuples") from None
    keys = list(index)
    try:
        order = sorted(range(len(keys)), key=lambda j: keys[j])
    except TypeError:
        order = sorted(range(len(keys)), key=lambda j: _sort_key(keys[j]))
    rank = np.empty(len(keys), dtype=np.int64)
    rank[order] = np.arange(len(keys))
    return rank[raw] if len(values) else raw, [keys[j] for j in order]


def _rows_to_ids(X: np.ndarray) -> tuple[np.ndarray, list]:
    """Ids of the distinct rows of a feature matrix (exact equality), and the rows as tuples."""
    X = np.asarray(X)
    if X.ndim == 1:
        X = X[:, None]
    uniq, inv = np.unique(X.reshape(X.shape[0], -1), axis=0, return_inverse=True)
    values = [tuple(r.tolist()) for r in uniq]
    if X.shape[1] == 1:
        values = [v[0] for v in values]
    return inv.reshape(-1).astype(np.int64), values


def build_csr(num_nodes: int, src: np.ndarray, dst: np.ndarray, elab: np.ndarray | None):
    """CSR arrays ``(indptr, indices, slot labels)`` of an undirected graph given by its edges
    ``src[i] - dst[i]`` (each listed once), rows sorted by neighbour."""
    s = np.concatenate([src, dst]).astype(np.int64)
    d = np.concatenate([dst, src]).astype(np.int64)
    order = np.lexsort((d, s))
    indptr = np.zeros(num_nodes + 1, dtype=np.int64)
    np.cumsum(np.bincount(s, minlength=num_nodes), out=indptr[1:])
    lab = None if elab is None else np.concatenate([elab, elab]).astype(np.int64)[order]
    return indptr, d[order], lab


@dataclass
class GraphCollection:
    """Graphs as one disjoint union; see the module docstring for the fields' meaning.

    ``*_values`` are the tables of original values (``node_label_values[node_labels[v]]`` is node
    ``v``'s label); a field is ``None`` when the collection has no such labels.
    """

    graph_ptr: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    node_labels: np.ndarray | None = None
    edge_labels: np.ndarray | None = None
    graph_targets: np.ndarray | None = None
    node_targets: np.ndarray | None = None
    node_label_values: list = field(default_factory=list)
    edge_label_values: list = field(default_factory=list)
    target_values: list = field(default_factory=list)
    node_target_values: list = field(default_factory=list)
    name: str = "graphs"

    def __repr__(self) -> str:
        return (f"GraphCollection({self.name!r}, graphs={self.num_graphs}, nodes={self.num_nodes}, "
                f"edges={self.num_edges}, node_labels={len(self.node_label_values)}, "
                f"edge_labels={len(self.edge_label_values)}, targets={len(self.target_values)})")

    @property
    def num_graphs(self) -> int:
        return int(self.graph_ptr.size - 1)

    @property
    def num_nodes(self) -> int:
        return int(self.graph_ptr[-1])

    @property
    def num_edges(self) -> int:
        return int(self.indices.size // 2)

    @property
    def sizes(self) -> np.ndarray:
        """Nodes per graph."""
        return np.diff(self.graph_ptr)

    def node_graph(self) -> np.ndarray:
        """Graph index of every node."""
        return np.repeat(np.arange(self.num_graphs), self.sizes)

    def graph(self, i: int) -> nx.Graph:
        """Graph ``i`` as networkx on nodes ``0..n-1``; its labels as the node / edge attribute
        ``"label"`` and ``"target"`` (original values), its target as ``G.graph["target"]``."""
        lo, hi = int(self.graph_ptr[i]), int(self.graph_ptr[i + 1])
        G = nx.Graph()
        G.add_nodes_from(range(hi - lo))
        for v in range(lo, hi):
            if self.node_labels is not None:
                G.nodes[v - lo]["label"] = self.node_label_values[self.node_labels[v]]
            if self.node_targets is not None:
                G.nodes[v - lo]["target"] = self.node_target_values[self.node_targets[v]]
            for s in range(int(self.indptr[v]), int(self.indptr[v + 1])):
                u = int(self.indices[s])
                if u > v:
                    G.add_edge(v - lo, u - lo)
                    if self.edge_labels is not None:
                        G.edges[v - lo, u - lo]["label"] = self.edge_label_values[self.edge_labels[s]]
        if self.graph_targets is not None:
            G.graph["target"] = self.target_values[self.graph_targets[i]]
        return G

    def select(self, order: Sequence[int]) -> "GraphCollection":
        """The graphs ``order[0], order[1], ...`` as a new collection (same label tables)."""
        order = np.asarray(order, dtype=np.int64)
        sizes = self.sizes[order]
        ptr = np.zeros(order.size + 1, dtype=np.int64)
        np.cumsum(sizes, out=ptr[1:])
        nodes = np.concatenate([np.arange(self.graph_ptr[g], self.graph_ptr[g + 1]) for g in order]) \
            if order.size else np.zeros(0, dtype=np.int64)
        new_of = np.full(self.num_nodes, -1, dtype=np.int64)
        new_of[nodes] = np.arange(nodes.size)
        deg = np.diff(self.indptr)[nodes]
        indptr = np.zeros(nodes.size + 1, dtype=np.int64)
        np.cumsum(deg, out=indptr[1:])
        slots = np.concatenate([np.arange(self.indptr[v], self.indptr[v + 1]) for v in nodes]) \
            if nodes.size else np.zeros(0, dtype=np.int64)
        slots = slots.astype(np.int64)

        def pick(a, idx):
            return None if a is None else a[idx]

        return replace(self, graph_ptr=ptr, indptr=indptr, indices=new_of[self.indices[slots]],
                       node_labels=pick(self.node_labels, nodes), edge_labels=pick(self.edge_labels, slots),
                       graph_targets=pick(self.graph_targets, order), node_targets=pick(self.node_targets, nodes))


def _attr(data: dict, key: str, default, what: str):
    value = data.get(key, _MISSING)
    if value is _MISSING:
        if default is _MISSING:
            raise GraphFormatError(f"{what} has no attribute {key!r}")
        return default
    return value.tolist() if hasattr(value, "tolist") and getattr(value, "ndim", 0) > 0 else value


def _as_label(value):
    """A label value as a hashable key: lists and arrays become tuples."""
    if isinstance(value, (list, np.ndarray)):
        return tuple(np.asarray(value).reshape(-1).tolist())
    return value


def from_networkx(graphs: Sequence[nx.Graph], *, node_label: str | None = None, edge_label: str | None = None,
                  graph_target: str | None = None, targets: Sequence | None = None,
                  node_target: str | None = None, default_node_label=_MISSING, name: str = "graphs") -> GraphCollection:
    """A collection of networkx graphs; labels read from the named node / edge / graph attributes.

    Node order: the graph's own (``G.nodes``). ``targets`` (one per graph) overrides
    ``graph_target``. A missing attribute is an error unless a default is given (node labels
    only). Lists as labels are turned into tuples.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1)]); G.edges[0, 1]["bond"] = 2
    >>> from_networkx([G], edge_label="bond").edge_labels.tolist()
    [0, 0]
    >>> from_networkx([G], node_label="atom")
    Traceback (most recent call last):
    ...
    wltools.errors.GraphFormatError: graph 0 node 0 has no attribute 'atom'
    """
    graphs = list(graphs)
    if not graphs:
        raise GraphFormatError("no graphs: the collection is empty")
    if targets is not None and len(targets) != len(graphs):
        raise GraphFormatError(f"{len(targets)} targets for {len(graphs)} graphs")
    sizes, src, dst, nl, el, nt, gt = [], [], [], [], [], [], []
    offset = 0
    for i, G in enumerate(graphs):
        if not isinstance(G, nx.Graph) or G.is_directed() or G.is_multigraph():
            raise UnsupportedGraphError(f"graph {i} is not an undirected simple networkx Graph")
        if nx.number_of_selfloops(G):
            raise UnsupportedGraphError(f"graph {i} has {nx.number_of_selfloops(G)} self-loop(s)")
        if G.number_of_nodes() == 0:
            raise UnsupportedGraphError(f"graph {i} has no nodes")
        pos = {v: j for j, v in enumerate(G.nodes)}
        for v, data in G.nodes(data=True):
            if node_label is not None:
                nl.append(_as_label(_attr(data, node_label, default_node_label, f"graph {i} node {v!r}")))
            if node_target is not None:
                nt.append(_as_label(_attr(data, node_target, _MISSING, f"graph {i} node {v!r}")))
        for u, v, data in G.edges(data=True):
            src.append(offset + pos[u])
            dst.append(offset + pos[v])
            if edge_label is not None:
                el.append(_as_label(_attr(data, edge_label, _MISSING, f"graph {i} edge ({u!r}, {v!r})")))
        if targets is None and graph_target is not None:
            gt.append(_as_label(_attr(G.graph, graph_target, _MISSING, f"graph {i}")))
        sizes.append(G.number_of_nodes())
        offset += G.number_of_nodes()
    if targets is not None:
        gt = [_as_label(t) for t in targets]
    return _assemble(sizes, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                     nl if node_label is not None else None, el if edge_label is not None else None,
                     gt if gt else None, nt if node_target is not None else None, name)


def _node_where(sizes):
    ptr = np.concatenate([[0], np.cumsum(sizes)])

    def what(v):
        g = int(np.searchsorted(ptr, v, side="right") - 1)
        return f"graph {g} node {v - ptr[g]}"

    return what


def _assemble(sizes, src, dst, nl, el, gt, nt, name) -> GraphCollection:
    """A collection from per-node / per-edge / per-graph label value lists (``None``: absent)."""
    ptr = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(np.asarray(sizes, dtype=np.int64), out=ptr[1:])
    where = _node_where(sizes)
    nl_ids, nl_vals = encode_labels(nl, where) if nl is not None else (None, [])
    el_ids, el_vals = encode_labels(el, lambda j: f"edge {j}") if el is not None else (None, [])
    gt_ids, gt_vals = encode_labels(gt, lambda g: f"graph {g} target") if gt is not None else (None, [])
    nt_ids, nt_vals = encode_labels(nt, where) if nt is not None else (None, [])
    indptr, indices, slot_labels = build_csr(int(ptr[-1]), src, dst, el_ids)
    return GraphCollection(ptr, indptr, indices, nl_ids, slot_labels, gt_ids, nt_ids,
                           nl_vals, el_vals, gt_vals, nt_vals, name)


def from_graph6(path: str | os.PathLike, *, targets: Sequence | None = None, max_memory: int | None = None) -> GraphCollection:
    """A graph6 / sparse6 file, one graph per line (:func:`wltools.graphs.load_graphs`); the
    graphs carry no labels, ``targets`` may give one class per graph."""
    from ..graphs import load_graphs

    graphs = load_graphs(path, "graph6", max_memory=max_memory)
    return from_networkx(graphs, targets=targets, name=Path(path).name)


def from_pyg(dataset, *, node_features: bool = True, edge_features: bool = True, name: str | None = None,
             node_targets: bool = False) -> GraphCollection:
    """A PyG dataset (or a list of ``torch_geometric.data.Data``): ``edge_index`` (both
    directions), ``x`` rows as node labels, ``edge_attr`` rows as edge labels, ``y`` as the graph
    target (one value per graph) or, with ``node_targets``, as node targets (one per node).
    Feature rows are compared exactly (equal floats), one shared table over the dataset."""
    sizes, src, dst, xs, eas, ys = [], [], [], [], [], []
    offset = 0
    for i, data in enumerate(dataset):
        n = int(data.num_nodes)
        ei = data.edge_index.cpu().numpy() if data.edge_index is not None else np.zeros((2, 0), dtype=np.int64)
        keep = ei[0] < ei[1]
        if (ei[0] == ei[1]).any():
            raise UnsupportedGraphError(f"graph {i} has self-loop(s)")
        if keep.sum() * 2 != ei.shape[1]:
            raise UnsupportedGraphError(f"graph {i}: edge_index is not symmetric without repeats "
                                        "(undirected graphs list each edge in both directions)")
        src.append(ei[0, keep] + offset)
        dst.append(ei[1, keep] + offset)
        if node_features and getattr(data, "x", None) is not None:
            xs.append(data.x.cpu().numpy().reshape(n, -1))
        if edge_features and getattr(data, "edge_attr", None) is not None:
            eas.append(data.edge_attr.cpu().numpy().reshape(ei.shape[1], -1)[keep])
        if getattr(data, "y", None) is not None:
            ys.append(data.y.cpu().numpy().reshape(-1))
        sizes.append(n)
        offset += n
    if not sizes:
        raise GraphFormatError("no graphs: the dataset is empty")
    src, dst = np.concatenate(src), np.concatenate(dst)
    coll = _assemble(sizes, src, dst, None, None, None, None,
                     name or getattr(dataset, "name", None) or type(dataset).__name__)
    if xs:
        if len(xs) != len(sizes):
            raise GraphFormatError("some graphs have node features x and others none")
        coll.node_labels, coll.node_label_values = _rows_to_ids(np.concatenate(xs))
    if eas:
        ids, coll.edge_label_values = _rows_to_ids(np.concatenate(eas))
        coll.indptr, coll.indices, coll.edge_labels = build_csr(coll.num_nodes, src, dst, ids)
    if ys:
        y = np.concatenate(ys)
        if node_targets:
            if y.size != coll.num_nodes:
                raise GraphFormatError(f"node targets: {y.size} values of y for {coll.num_nodes} nodes")
            coll.node_targets, coll.node_target_values = _rows_to_ids(y)
        elif y.size == len(sizes):
            coll.graph_targets, coll.target_values = _rows_to_ids(y)
        else:
            raise GraphFormatError(f"y has {y.size} values for {len(sizes)} graphs; one class per graph expected "
                                   "(node targets: node_targets=True)")
    return coll


def load_collection(source, **kw) -> GraphCollection:
    """A collection from a TU folder (or its ``DS_A.txt``), a graph6 / sparse6 file, a PyG dataset
    or a list of networkx graphs (keyword arguments go to the loader)."""
    if isinstance(source, GraphCollection):
        return source
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if path.is_dir() or path.name.endswith("_A.txt"):
            from .tu import read_tu

            return read_tu(path if path.is_dir() else path.parent, **kw)
        if not path.exists():
            raise GraphFormatError(f"no such file or folder: {str(path)!r}")
        return from_graph6(path, **kw)
    items = list(source)
    if items and all(isinstance(G, nx.Graph) for G in items):
        return from_networkx(items, **kw)
    if items and all(hasattr(d, "edge_index") for d in items):
        return from_pyg(items, name=getattr(source, "name", None), **kw)
    raise GraphFormatError("cannot read this collection: expected a TU folder, a graph6 / sparse6 file, "
                           "a PyG dataset or a list of networkx graphs")
