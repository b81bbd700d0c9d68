"""A collection of labelled graphs held as one disjoint union (CSR arrays), and its loaders.

A :class:`GraphCollection` stores ``G`` graphs of ``N`` nodes in total as the sparse adjacency
of their disjoint union: graph ``i`` owns the nodes ``graph_ptr[i] .. graph_ptr[i+1]-1``. Labels
are small integer ids into tables of the original values, built once for the whole collection
(one shared table, so equal labels get equal ids in every graph):

* **node labels** (``node_labels``, ``[N]``): the initial colours of every test. Values are
  read by the one label encoder of wltools (:func:`wltools.graphs.labels.encode_labels`,
  :func:`wltools.graphs.labels.encode_rows`; its module docstring states the rule): numbers compare by
  value, a float at its own precision (a PyG float32 ``0.1`` is the label ``0.1``), a feature
  vector (a row of ``x``, a TU node-attribute line) is a tuple (one column: its value), and NaN
  or None is refused with one line naming the graph and node. So two nodes share an initial
  colour iff their canonical labels are equal, and a graph gets the same ids here as in a pair
  (:func:`wltools.graphs.labels.pair_labels`).
* **edge labels** (``edge_labels``, one per CSR slot, equal in both directions): enter the
  aggregation of the tests (:mod:`wltools.dataset.refine`).
* **graph targets** (``graph_targets``, ``[G]``) and **node targets** (``node_targets``, ``[N]``):
  the classes whose accuracy :mod:`wltools.dataset.bounds` bounds. They never colour anything.

Loaders: :func:`from_networkx` (a list of networkx graphs and attribute names),
:func:`from_graph6` (a graph6 / sparse6 file, one graph per line, read by
:func:`wltools.graphs.formats.load_graphs`), :func:`from_pyg` (a PyG dataset or list of ``Data``),
:func:`wltools.dataset.tu.read_tu` (a TU folder, Morris et al. 2020), and
:func:`wltools.dataset.analysis.load_collection` choosing among them. Bad input raises :class:`~wltools.errors.GraphFormatError` or
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
from typing import Sequence

import networkx as nx
import numpy as np

from ..errors import GraphFormatError, UnsupportedGraphError
from ..graphs.formats import load_graphs
from ..graphs.labels import encode_labels, encode_rows

__all__ = ["GraphCollection", "from_networkx", "from_graph6", "from_pyg", "build_csr", "encode_blocks"]

_MISSING = object()


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
    return value


def from_networkx(graphs: Sequence[nx.Graph], *, node_label: str | None = None, edge_label: str | None = None,
                  graph_target: str | None = None, targets: Sequence | None = None,
                  node_target: str | None = None, default_node_label=_MISSING, name: str = "graphs") -> GraphCollection:
    """A collection of networkx graphs; labels read from the named node / edge / graph attributes.

    Node order: the graph's own (``G.nodes``). ``targets`` (one per graph) overrides
    ``graph_target``. A missing attribute is an error unless a default is given (node labels
    only). Values as :func:`wltools.graphs.labels.encode_labels` reads them (lists become tuples; NaN and
    None are refused).

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
                nl.append((_attr(data, node_label, default_node_label, f"graph {i} node {v!r}")))
            if node_target is not None:
                nt.append((_attr(data, node_target, _MISSING, f"graph {i} node {v!r}")))
        for u, v, data in G.edges(data=True):
            src.append(offset + pos[u])
            dst.append(offset + pos[v])
            if edge_label is not None:
                el.append((_attr(data, edge_label, _MISSING, f"graph {i} edge ({u!r}, {v!r})")))
        if targets is None and graph_target is not None:
            gt.append((_attr(G.graph, graph_target, _MISSING, f"graph {i}")))
        sizes.append(G.number_of_nodes())
        offset += G.number_of_nodes()
    if targets is not None:
        gt = [(t) for t in targets]
    return _assemble(sizes, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                     nl if node_label is not None else None, el if edge_label is not None else None,
                     gt if gt else None, nt if node_target is not None else None, name)


def _node_where(sizes, what: str = ""):
    """``where(v)``: node ``v`` of the union as ``"graph g node i"`` (``what`` appended)."""
    ptr = np.concatenate([[0], np.cumsum(sizes)])

    def where(v):
        g = int(np.searchsorted(ptr, v, side="right") - 1)
        return f"graph {g} node {v - ptr[g]}{what}"

    return where


def _edge_where(sizes, src, dst, what: str = ""):
    """``where(j)``: edge ``j`` (``src[j] - dst[j]``, union node ids) as ``"graph g edge (u, v)"``."""
    ptr = np.concatenate([[0], np.cumsum(sizes)])

    def where(j):
        g = int(np.searchsorted(ptr, src[j], side="right") - 1)
        return f"graph {g} edge ({int(src[j] - ptr[g])}, {int(dst[j] - ptr[g])}){what}"

    return where


def _assemble(sizes, src, dst, nl, el, gt, nt, name) -> GraphCollection:
    """A collection from per-node / per-edge / per-graph label value lists (``None``: absent),
    each encoded by :func:`wltools.graphs.labels.encode_labels`."""
    ptr = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(np.asarray(sizes, dtype=np.int64), out=ptr[1:])
    where = _node_where(sizes)
    nl_ids, nl_vals = encode_labels(nl, where) if nl is not None else (None, [])
    el_ids, el_vals = encode_labels(el, _edge_where(sizes, src, dst)) if el is not None else (None, [])
    gt_ids, gt_vals = encode_labels(gt, lambda g: f"graph {g} target") if gt is not None else (None, [])
    nt_ids, nt_vals = encode_labels(nt, _node_where(sizes, " target")) if nt is not None else (None, [])
    indptr, indices, slot_labels = build_csr(int(ptr[-1]), src, dst, el_ids)
    return GraphCollection(ptr, indptr, indices, nl_ids, slot_labels, gt_ids, nt_ids,
                           nl_vals, el_vals, gt_vals, nt_vals, name)


def from_graph6(path: str | os.PathLike, *, targets: Sequence | None = None, max_memory: int | None = None) -> GraphCollection:
    """A graph6 / sparse6 file, one graph per line (:func:`wltools.graphs.formats.load_graphs`);
    the graphs carry no labels, ``targets`` may give one class per graph."""
    graphs = load_graphs(path, "graph6", max_memory=max_memory)
    return from_networkx(graphs, targets=targets, name=Path(path).name)


def _numpy(t) -> np.ndarray:
    """A torch tensor as a numpy array of its own dtype (bfloat16, which numpy lacks: float32)."""
    t = t.detach().cpu()
    return (t.float() if str(t.dtype) == "torch.bfloat16" else t).numpy()


def _by_rows(a: np.ndarray, k: int) -> np.ndarray:
    """``a`` as ``k`` rows (a graph without edges has an empty ``[0, d]`` edge_attr)."""
    return a.reshape(k, -1) if a.size else a.reshape(k, int(np.prod(a.shape[1:])) if a.ndim > 1 else 1)


def encode_blocks(blocks: list, what) -> tuple[np.ndarray, list]:
    """:func:`wltools.graphs.labels.encode_rows` of the rows of ``blocks`` (one array per graph) in one
    table; ``what(i)`` names row ``i`` of them all. Blocks of different dtypes are read apart, each
    at its own precision (concatenating would widen a float32 ``0.1`` to ``0.10000000149011612``)."""
    blocks = [b.reshape(b.shape[0], int(np.prod(b.shape[1:]))) for b in blocks]
    if len({b.dtype for b in blocks}) == 1 and len({b.shape[1] for b in blocks}) == 1:
        return encode_rows(np.concatenate(blocks), what)
    starts = np.concatenate([[0], np.cumsum([b.shape[0] for b in blocks])])
    parts = [encode_rows(b, lambda i, o=int(o): what(o + i)) for b, o in zip(blocks, starts)]
    ids, table = encode_labels([v for _, t in parts for v in t], str)  # canonical already: no error
    out, k = [], 0
    for local, t in parts:
        out.append(ids[k: k + len(t)][local])
        k += len(t)
    return np.concatenate(out), table


def _pyg_arrays(dataset, node_features: bool, edge_features: bool) -> tuple:
    """Per graph of a PyG dataset: sizes, undirected edges (union node ids), and the ``x``,
    ``edge_attr`` (one row per undirected edge) and ``y`` arrays."""
    sizes, src, dst, xs, eas, ys = [], [], [], [], [], []
    offset = 0
    for i, data in enumerate(dataset):
        n = int(data.num_nodes)
        ei = _numpy(data.edge_index) if data.edge_index is not None else np.zeros((2, 0), dtype=np.int64)
        keep = ei[0] < ei[1]
        if (ei[0] == ei[1]).any():
            raise UnsupportedGraphError(f"graph {i} has self-loop(s)")
        if keep.sum() * 2 != ei.shape[1]:
            raise UnsupportedGraphError(f"graph {i}: edge_index is not symmetric without repeats "
                                        "(undirected graphs list each edge in both directions)")
        src.append(ei[0, keep] + offset)
        dst.append(ei[1, keep] + offset)
        if node_features and getattr(data, "x", None) is not None:
            xs.append(_by_rows(_numpy(data.x), n))
        if edge_features and getattr(data, "edge_attr", None) is not None:
            eas.append(_by_rows(_numpy(data.edge_attr), ei.shape[1])[keep])
        if getattr(data, "y", None) is not None:
            ys.append(_numpy(data.y).reshape(-1))
        sizes.append(n)
        offset += n
    if not sizes:
        raise GraphFormatError("no graphs: the dataset is empty")
    return sizes, np.concatenate(src), np.concatenate(dst), xs, eas, ys


def from_pyg(dataset, *, node_features: bool = True, edge_features: bool = True, name: str | None = None,
             node_targets: bool = False) -> GraphCollection:
    """A PyG dataset (or a list of ``torch_geometric.data.Data``): ``edge_index`` (both
    directions), ``x`` rows as node labels, ``edge_attr`` rows as edge labels, ``y`` as the graph
    target (one value per graph) or, with ``node_targets``, as node targets (one per node).
    Rows are labels as :func:`wltools.graphs.labels.encode_rows` reads them (float32 at its own
    precision, NaN refused), one shared table over the dataset."""
    sizes, src, dst, xs, eas, ys = _pyg_arrays(dataset, node_features, edge_features)
    coll = _assemble(sizes, src, dst, None, None, None, None,
                     name or getattr(dataset, "name", None) or type(dataset).__name__)
    if xs:
        if len(xs) != len(sizes):
            raise GraphFormatError("some graphs have node features x and others none")
        coll.node_labels, coll.node_label_values = encode_blocks(xs, _node_where(sizes, " (x)"))
    if eas:
        ids, coll.edge_label_values = encode_blocks(eas, _edge_where(sizes, src, dst, " (edge_attr)"))
        coll.indptr, coll.indices, coll.edge_labels = build_csr(coll.num_nodes, src, dst, ids)
    if ys:
        y = np.concatenate(ys)
        if node_targets:
            if y.size != coll.num_nodes:
                raise GraphFormatError(f"node targets: {y.size} values of y for {coll.num_nodes} nodes")
            coll.node_targets, coll.node_target_values = encode_blocks(ys, _node_where(sizes, " (y)"))
        elif y.size == len(sizes):
            coll.graph_targets, coll.target_values = encode_blocks(ys, lambda g: f"graph {g} (y)")
        else:
            raise GraphFormatError(f"y has {y.size} values for {len(sizes)} graphs; one class per graph expected "
                                   "(node targets: node_targets=True)")
    return coll
