"""Node and edge labels: how they travel with a graph, and how a pair's labels become colour ids.

**Representation.** A labelled graph is an ``nx.Graph`` whose nodes carry the attribute
``"label"`` (:data:`NODE_LABEL`) and / or whose edges carry the attribute ``"label"``
(:data:`EDGE_LABEL`). A graph is node-labelled iff *some* node has the attribute, and then *every*
node must have it (likewise for edges); a graph without the attributes is unlabelled and behaves
exactly as before labels existed. Labels are *categorical*: two labels are the same iff their
canonical values are equal (``==``); no order or distance between labels is used by any test.

**Canonical values** (:func:`canonical_label`) -- the one rule every input path uses (pairs,
collections, PyG, TU folders, GraphML, node-link JSON, SMILES, networkx graphs):

* a label is a number, a string, or a sequence of such (list, tuple, numpy array, torch tensor:
  a feature row), nested sequences allowed; sequences become tuples, and a sequence of *one*
  element is that element (a ``[n, 1]`` feature matrix gives the same labels as its column);
* **numbers compare by value**: ``1``, ``1.0``, ``np.int64(1)`` and ``True`` are one label (as
  Python's ``==`` says); a float is first read as the shortest decimal that round-trips **at its
  own precision** (numpy's ``format_float_scientific(x, unique=True)``), then compared as an exact
  number: ``np.float32(0.1)`` (a PyG feature), ``0.1`` (float64, JSON, a TU attribute) and the
  text ``0.1`` of a GraphML ``double`` attribute are one label, while float32 ``0.1`` and float64
  ``0.10000000149011612`` are two (torch tensors keep their dtype; bfloat16 is read as float32);
* **strings stay strings**: a GraphML attribute declared ``string`` holding ``"0.1"`` is the
  text ``'0.1'``, a different label from the number ``0.1`` (declare the key ``double`` / ``int``
  for numbers); no string is ever parsed;
* **NaN, infinities and None are refused** with one line naming the graph, node or edge
  (:class:`~wltools.errors.GraphFormatError`), as is anything else (dicts, sets, objects): a
  missing or unordered value cannot be compared across graphs.

**One table** (:func:`encode_labels`, :func:`encode_rows` for feature matrices): the distinct
canonical values of everything encoded together are numbered in the order of :func:`label_key`
(numbers by value, then strings, then tuples, lexicographically), never by Python's ``hash``
(salted for ``str``), so the ids mean the same in every graph and every process. A pair
(:func:`pair_labels`) and a collection (:mod:`wltools.dataset.collection`, :mod:`wltools.dataset.tu`)
are numbered by the same function, so the same labelled graph gets the same ids whichever way
it was read. The refinement tests (:mod:`wltools.refine`) start from these ids;
:mod:`wltools.iso` orders its vertex colour classes by the same key.

Inputs that carry labels: GraphML / node-link attributes chosen by name
(:func:`select_labels`, ``load_graph(spec, node_attr=..., edge_attr=...)``), PyG ``Data`` and
SMILES (:mod:`wltools.graphs.inputs`).

Examples
--------
>>> import networkx as nx
>>> G = nx.path_graph(3)
>>> nx.set_node_attributes(G, {0: "C", 1: "O", 2: "C"}, NODE_LABEL)
>>> H = nx.path_graph(3)
>>> nx.set_node_attributes(H, {0: "O", 1: "C", 2: "C"}, NODE_LABEL)
>>> p = pair_labels(G, H)
>>> p.node_values, [a.tolist() for a in p.node]
(('C', 'O'), [[0, 1, 0], [1, 0, 0]])
>>> p.edge is None
True
"""

from __future__ import annotations

import math
from itertools import chain
import numbers
from dataclasses import dataclass

import networkx as nx
import numpy as np

from ..errors import GraphFormatError, UnsupportedGraphError

__all__ = [
    "NODE_LABEL",
    "EDGE_LABEL",
    "canonical_label",
    "encode_labels",
    "encode_rows",
    "label_key",
    "label_text",
    "label_bytes",
    "node_labels",
    "edge_labels",
    "is_labelled",
    "has_attribute",
    "select_labels",
    "PairLabels",
    "pair_labels",
    "refuse_labels",
]

#: The node attribute that holds a node's label inside wltools.
NODE_LABEL = "label"
#: The edge attribute that holds an edge's label inside wltools.
EDGE_LABEL = "label"

_ALLOWED = "labels must be numbers, strings or sequences (feature rows) of them"


def canonical_label(value: object, what: str = "label") -> object:
    """The canonical (hashable, comparable) form of a label value (module docstring).

    Raises
    ------
    GraphFormatError
        ``None``, NaN, or a value that is no number, string or sequence of them; ``what`` names
        the value in the message.

    Examples
    --------
    >>> import numpy as np
    >>> canonical_label([1.0, 0, np.int64(2)])
    (1.0, 0, 2)
    >>> canonical_label(np.array([[1, 2], [3, 4]]))
    ((1, 2), (3, 4))
    >>> canonical_label({"a": 1}, "the label of node 3")
    Traceback (most recent call last):
    ...
    wltools.errors.GraphFormatError: the label of node 3 is a dict; labels must be numbers, strings or sequences (feature rows) of them
    """
    try:
        return _canonical(value)
    except _NotALabel as exc:
        raise GraphFormatError(f"{what} is {exc}; {_ALLOWED}") from None


class _NotALabel(Exception):
    """What a value that is no label is (``"NaN"``, ``"a dict"``); the caller names the value."""


def _canonical(value: object) -> object:
    """:func:`canonical_label` without the message (the common scalar types first: fast)."""
    t = type(value)
    if t is int or t is str:
        return value
    if t is float:
        if not math.isfinite(value):
            raise _NotALabel(_non_finite(value))
        return value
    if hasattr(value, "detach") and hasattr(value, "numpy"):  # a torch tensor: keep its dtype
        value = value.detach().cpu()
        value = (value.float() if str(value.dtype) == "torch.bfloat16" else value).numpy()
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            value = value[()]
        else:
            return _sequence(value.tolist() if value.dtype.kind in "biu" or value.dtype == np.float64
                             else list(value))
    if isinstance(value, np.generic):
        value = _short_float(value) if isinstance(value, np.floating) else value.item()
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Real):  # bool, int, float, Fraction (not complex)
        if isinstance(value, float) and not math.isfinite(value):
            raise _NotALabel(_non_finite(value))
        return value
    if isinstance(value, (list, tuple)):
        return _sequence(value)
    raise _NotALabel("missing (None)" if value is None else f"a {type(value).__name__}")


def _non_finite(value: float) -> str:
    """How a NaN or an infinity is named in the refusal: infinities are refused as NaN is, by
    every loader (a TU attribute file refuses them too, :mod:`wltools.dataset.tu`)."""
    return "NaN" if value != value else f"infinite ({value})"


def _sequence(items) -> object:
    """A feature row as a tuple of canonical values; one element is that element."""
    out = tuple(_canonical(x) for x in items)
    return out[0] if len(out) == 1 else out


def _short_float(x: np.floating) -> float:
    """A numpy float as the Python float of its shortest round-tripping decimal at its own
    precision (float32 0.1 -> 0.1; float64 unchanged)."""
    if x.dtype == np.float64:
        return float(x)
    return float(np.format_float_scientific(x, unique=True))


def _table(values) -> tuple[dict, tuple]:
    """``({value: id}, values by id)`` over canonical ``values``, ids in :func:`label_key` order."""
    seen = dict.fromkeys(values)
    ordered = tuple(sorted(seen, key=label_key))
    return {x: i for i, x in enumerate(ordered)}, ordered


def encode_labels(values, what) -> tuple[np.ndarray, list]:
    """Ids of label values in one table: ``(ids, table)`` with ``table[ids[i]]`` the canonical
    form (:func:`canonical_label`) of ``values[i]``, ids in :func:`label_key` order.

    Raises
    ------
    GraphFormatError
        A value that is no label (NaN, None, a dict, ...): ``what(i)`` names it in the line.

    Examples
    --------
    >>> import numpy as np
    >>> ids, table = encode_labels(["b", 1, np.float32(0.1), 0.1, True, [2]], lambda i: f"node {i}")
    >>> ids.tolist(), table
    ([3, 1, 0, 0, 1, 2], [0.1, 1, 2, 'b'])
    >>> encode_labels([0.5, None], lambda i: f"graph 0 node {i}")
    Traceback (most recent call last):
    ...
    wltools.errors.GraphFormatError: graph 0 node 1: the label is missing (None); labels must be numbers, strings or sequences (feature rows) of them
    """
    canon = []
    for i, v in enumerate(values):
        try:
            canon.append(_canonical(v))
        except _NotALabel as exc:
            raise GraphFormatError(f"{what(i)}: the label is {exc}; {_ALLOWED}") from None
    ids, ordered = _table(canon)
    return np.fromiter((ids[c] for c in canon), dtype=np.int64, count=len(canon)), list(ordered)


def encode_rows(X, what) -> tuple[np.ndarray, list]:
    """:func:`encode_labels` of the rows of a numeric matrix (a feature matrix; 1-D: one value
    per row), vectorised: the distinct rows are found at the array's own precision, then
    canonicalised (a one-column row is its value) and numbered.

    Examples
    --------
    >>> import numpy as np
    >>> ids, table = encode_rows(np.array([[0.1, 1], [0.5, 0], [0.1, 1]], dtype=np.float32), str)
    >>> ids.tolist(), table
    ([0, 1, 0], [(0.1, 1.0), (0.5, 0.0)])
    >>> encode_rows(np.array([1.0, np.nan]), lambda i: f"x of node {i}")
    Traceback (most recent call last):
    ...
    wltools.errors.GraphFormatError: x of node 1: the label is NaN; labels must be numbers, strings or sequences (feature rows) of them
    """
    X = np.asarray(X)
    X = X[:, None] if X.ndim == 1 else X.reshape(X.shape[0], int(np.prod(X.shape[1:])))
    if X.dtype.kind not in "biuf":
        return encode_labels(list(X), what)
    if X.dtype.kind == "f":
        bad = np.flatnonzero((~np.isfinite(X)).any(axis=1))
        if bad.size:
            x = next(float(v) for v in X[bad[0]] if not np.isfinite(v))
            raise GraphFormatError(f"{what(int(bad[0]))}: the label is {_non_finite(x)}; {_ALLOWED}")
    if X.shape[0] == 0:
        return np.zeros(0, dtype=np.int64), []
    uniq, inv = np.unique(X, axis=0, return_inverse=True)
    ids, table = encode_labels(list(uniq), lambda j: what(int(np.flatnonzero(inv.reshape(-1) == j)[0])))
    return ids[inv.reshape(-1)], table


def label_key(value: object) -> tuple:
    """A sort key for canonical labels of mixed types: numbers (by value), then strings, then
    tuples (element by element). Equal labels have equal keys.

    Examples
    --------
    >>> sorted(["b", 2, (1, "a"), 1.5, "a"], key=label_key)
    [1.5, 2, 'a', 'b', (1, 'a')]
    """
    if isinstance(value, str):
        return (1, value)
    if isinstance(value, tuple):
        return (2, tuple(label_key(x) for x in value))
    return (0, value)


#: Longest label text shown whole in a witness; a longer one is cut (:func:`label_text`).
LABEL_TEXT_MAX = 100


def label_text(value: object) -> str:
    """A label as it appears in a witness: strings quoted, numbers and tuples as Python writes them.

    A text longer than :data:`LABEL_TEXT_MAX` characters is cut to its first 60 and named by its
    length and a SHA-256 prefix, so two long labels that differ late stay told apart, and a 10 MB
    label costs a line, not 10 MB per witness.

    Examples
    --------
    >>> label_text("C"), label_text(2), label_text(("C", 0))
    ("'C'", '2', "('C', 0)")
    >>> label_text("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (1002 characters, sha256 fa15e62c3574)"
    """
    text = repr(value)
    if len(text) <= LABEL_TEXT_MAX:
        return text
    import hashlib

    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{text[:60]}... ({len(text)} characters, sha256 {digest})"


def label_bytes(value: object) -> bytes:
    """Bytes of a canonical label, equal for equal labels (``1 == 1.0 == True`` give ``b"1"``),
    for certificates (:mod:`wltools.iso`).

    Examples
    --------
    >>> label_bytes(1.0) == label_bytes(True) == label_bytes(1), label_bytes(("C", 0.5))
    (True, b"('C',0.5)")
    """
    if isinstance(value, str):
        return repr(value).encode()
    if isinstance(value, tuple):
        return b"(" + b",".join(label_bytes(x) for x in value) + b")"
    if math.isfinite(value) and value == int(value):
        return str(int(value)).encode()
    return repr(float(value) if float(value) == value else value).encode()


def has_attribute(G: nx.Graph, attr: str, kind: str) -> bool:
    """Whether some node (``kind="node"``) or edge of ``G`` has attribute ``attr``, without
    building lists (unlabelled graphs pay one pass over the attribute dicts). Public networkx
    only: ``G.nodes(data=True)`` and ``G.adjacency()`` yield the attribute dicts themselves (as
    fast as networkx's private ``_node`` / ``_adj``: 90 ms for the edges of a 100,000-node cubic
    graph, against 260 ms through ``G.edges(data=True)``)."""
    if kind == "node":
        return any(attr in d for _, d in G.nodes(data=True))
    rows = [nbrs for _, nbrs in G.adjacency()]
    if not any(chain.from_iterable(map(dict.values, rows))):  # every edge dict empty: one pass in C
        return False
    return any(attr in d for nbrs in rows for d in nbrs.values())


def _values(items, attr: str, kind: str, where: str) -> dict | None:
    """``{key: canonical value}`` of the ``attr`` attribute over ``items`` (``(key, data)`` pairs):
    an error naming the first item without it if only some have it."""
    items = list(items)
    have = [k for k, d in items if attr in d]
    if len(have) != len(items):
        missing = next(k for k, d in items if attr not in d)
        raise GraphFormatError(
            f"{where}: {kind} {missing!r} has no attribute {attr!r}, which {len(have)} of the "
            f"{len(items)} {kind}s have; label every {kind} or none"
        )
    out = {}
    for k, d in items:
        try:
            out[k] = _canonical(d[attr])
        except _NotALabel as exc:
            raise GraphFormatError(f"{where}: attribute {attr!r} of {kind} {k!r} is {exc}; {_ALLOWED}") from None
    return out


def node_labels(G: nx.Graph, attr: str = NODE_LABEL, where: str = "graph") -> dict | None:
    """``{node: canonical label}``, or None when no node has attribute ``attr``.

    Raises
    ------
    GraphFormatError
        Some nodes have the attribute and others not, or a value is not a label.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1)])
    >>> G.nodes[0]["label"] = "x"
    >>> node_labels(G)
    Traceback (most recent call last):
    ...
    wltools.errors.GraphFormatError: graph: node 1 has no attribute 'label', which 1 of the 2 nodes have; label every node or none
    """
    if not has_attribute(G, attr, "node"):
        return None
    return _values(G.nodes(data=True), attr, "node", where)


def edge_labels(G: nx.Graph, attr: str = EDGE_LABEL, where: str = "graph") -> dict | None:
    """``{(u, v): canonical label}`` (each undirected edge once, as ``G.edges`` lists it), or
    None when no edge has attribute ``attr``; errors as :func:`node_labels`."""
    if not has_attribute(G, attr, "edge"):
        return None
    return _values((((u, v), d) for u, v, d in G.edges(data=True)), attr, "edge", where)


def is_labelled(G: nx.Graph) -> bool:
    """Whether some node or edge of ``G`` carries :data:`NODE_LABEL` / :data:`EDGE_LABEL`.

    Examples
    --------
    >>> import networkx as nx
    >>> is_labelled(nx.path_graph(3)), is_labelled(nx.Graph([(0, 1, {"label": 2})]))
    (False, True)
    """
    return has_attribute(G, NODE_LABEL, "node") or has_attribute(G, EDGE_LABEL, "edge")


def select_labels(G: nx.Graph, node_attr: str | None, edge_attr: str | None, where: str = "graph") -> nx.Graph:
    """A copy of ``G`` (same nodes and edges, in the same order) whose only attributes are the
    labels: node attribute ``node_attr`` of ``G`` as :data:`NODE_LABEL`, edge attribute
    ``edge_attr`` as :data:`EDGE_LABEL`, in canonical form; ``None`` selects nothing.

    Raises
    ------
    GraphFormatError
        A requested attribute is on no node (edge) of ``G``, on only some, or has a value that is
        no label (:func:`canonical_label`).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"order": 2, "w": 0.5})])
    >>> nx.set_node_attributes(G, {0: [1, 0], 1: [0, 1]}, "x")
    >>> S = select_labels(G, "x", "order")
    >>> dict(S.nodes(data=True)), list(S.edges(data=True))
    ({0: {'label': (1, 0)}, 1: {'label': (0, 1)}}, [(0, 1, {'label': 2})])
    >>> select_labels(G, "colour", None, "g.graphml")
    Traceback (most recent call last):
    ...
    wltools.errors.GraphFormatError: g.graphml: no node has attribute 'colour' (node attributes: x)
    """
    out = G.__class__()
    out.add_nodes_from(G.nodes)
    out.add_edges_from(G.edges)
    for attr, kind, fetch, target in ((node_attr, "node", node_labels, out.nodes),
                                      (edge_attr, "edge", edge_labels, out.edges)):
        if attr is None:
            continue
        values = fetch(G, attr, where)
        if values is None:
            items = G.nodes(data=True) if kind == "node" else G.edges(data=True)
            names = sorted({a for *_, d in items for a in d})
            have = f" ({kind} attributes: {', '.join(names)})" if names else f" (its {kind}s have no attributes)"
            raise GraphFormatError(f"{where}: no {kind} has attribute {attr!r}{have}")
        for k, v in values.items():
            target[k][NODE_LABEL if kind == "node" else EDGE_LABEL] = v
    return out


@dataclass(frozen=True)
class PairLabels:
    """The labels of a pair (G, H) on nodes ``0..n-1`` as joint integer ids (one table for both).

    Attributes
    ----------
    node : tuple of two int64 arrays, or None
        ``node[g][v]``: id ``0..len(node_values)-1`` of the label of node ``v`` of graph ``g``.
    edge : tuple of two int64 arrays ``[m, 3]``, or None
        Rows ``(u, v, id)``, ``u < v``, sorted: id ``1..len(edge_values)`` of the edge's label
        (``0`` is kept for "no edge").
    node_values, edge_values : tuple
        The canonical label of each id (``edge_values[i - 1]`` for edge id ``i``), sorted by
        :func:`label_key`.
    """

    node: tuple | None
    edge: tuple | None
    node_values: tuple = ()
    edge_values: tuple = ()

    @property
    def edge_ids(self) -> int:
        """The number of edge ids including ``0`` (no edge): the base of an edge id in a key."""
        return len(self.edge_values) + 1

    def node_ids(self, g: int, n: int) -> np.ndarray:
        """Node label ids of graph ``g`` (zeros when the pair has no node labels)."""
        return self.node[g] if self.node is not None else np.zeros(n, dtype=np.int64)

    def edge_matrix(self, g: int, n: int, dtype=np.int64) -> np.ndarray:
        """``[n, n]`` (int64 unless ``dtype``): the id of the label of edge ``{u, v}``, ``0`` for
        non-edges (and the diagonal); requires edge labels."""
        E = np.zeros((n, n), dtype=dtype)
        e = self.edge[g]
        E[e[:, 0], e[:, 1]] = e[:, 2]
        E[e[:, 1], e[:, 0]] = e[:, 2]
        return E

    def edge_ids_at(self, g: int, n: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Edge ids at the positions ``(rows[i], cols[i])``, each an edge of graph ``g`` (sparse:
        ``O(m log m)``, no ``n x n`` matrix)."""
        e = self.edge[g]
        keys = e[:, 0] * n + e[:, 1]
        lo, hi = np.minimum(rows, cols), np.maximum(rows, cols)
        return e[np.searchsorted(keys, lo * n + hi), 2]

    def node_text(self, i: int) -> str:
        return label_text(self.node_values[i])

    def edge_text(self, i: int) -> str:
        """Edge id ``i`` as text; ``0`` is ``"none"`` (not adjacent)."""
        return "none" if i == 0 else label_text(self.edge_values[i - 1])


def _ids(values: list[dict]) -> tuple[dict, tuple]:
    """One table over the (canonical) values of both graphs (:func:`encode_labels`' numbering)."""
    return _table(x for vals in values for x in vals.values())


def pair_labels(G: nx.Graph, H: nx.Graph, node_label: str | None = NODE_LABEL,
                edge_label: str | None = EDGE_LABEL) -> PairLabels | None:
    """The joint label ids of a pair of graphs on nodes ``0..n-1``, or None when neither graph
    has labels (then every test behaves exactly as on unlabelled graphs).

    A kind of label (node or edge) is used when some node (edge) of either graph carries the
    attribute; then every node (edge) of both graphs must carry it. ``node_label`` /
    ``edge_label`` name the attributes (``None``: ignore that kind).

    Raises
    ------
    GraphFormatError
        Labels on some nodes (edges) only, on one graph only, or values that are not labels.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"label": "double"}), (1, 2, {"label": "single"})])
    >>> H = nx.Graph([(0, 1, {"label": "single"}), (1, 2, {"label": "single"})])
    >>> p = pair_labels(G, H)
    >>> p.edge_values, p.edge[0].tolist()
    (('double', 'single'), [[0, 1, 1], [1, 2, 2]])
    >>> pair_labels(nx.path_graph(2), nx.path_graph(2)) is None
    True
    """
    graphs = (G, H)
    found = []
    for attr, fetch in ((node_label, node_labels), (edge_label, edge_labels)):
        vals = [None, None] if attr is None else [fetch(X, attr, w) for X, w in zip(graphs, ("G", "H"))]
        if fetch is edge_labels:  # a graph without edges has every edge labelled
            vals = [{} if x is None and nx.is_empty(X) and vals[1 - i] is not None else x
                    for i, (x, X) in enumerate(zip(vals, graphs))]
        if (vals[0] is None) != (vals[1] is None):
            kind = "node" if fetch is node_labels else "edge"
            which = ("G", "H") if vals[0] is not None else ("H", "G")
            raise GraphFormatError(f"{which[0]} has {kind} labels ({attr!r}) and {which[1]} has none; "
                                   f"label both graphs or neither")
        found.append(vals if vals[0] is not None else None)
    node_vals, edge_vals = found
    if node_vals is None and edge_vals is None:
        return None
    node, node_values = None, ()
    if node_vals is not None:
        ids, node_values = _ids(node_vals)
        node = tuple(np.array([ids[v[i]] for i in range(len(v))], dtype=np.int64) for v in node_vals)
    edge, edge_values = None, ()
    if edge_vals is not None:
        ids, edge_values = _ids(edge_vals)
        edge = tuple(_edge_rows(v, ids) for v in edge_vals)
    return PairLabels(node, edge, node_values, edge_values)


def _edge_rows(values: dict, ids: dict) -> np.ndarray:
    rows = sorted((min(u, v), max(u, v), ids[x] + 1) for (u, v), x in values.items())
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def refuse_labels(labels: PairLabels | None, test: str, why: str, *, edges_only: bool = False) -> None:
    """Raise :class:`~wltools.errors.UnsupportedGraphError` (one line) when a test that is not
    defined on labelled graphs gets labels (``edges_only``: only edge labels are refused).

    Examples
    --------
    >>> refuse_labels(PairLabels(None, (np.zeros((0, 3), dtype=np.int64),) * 2), "mine", "defined on unlabelled graphs")
    Traceback (most recent call last):
    ...
    wltools.errors.UnsupportedGraphError: test mine is not defined on labelled graphs (defined on unlabelled graphs); use another test, or drop the labels
    """
    if labels is None or (edges_only and labels.edge is None):
        return
    kind = "edge-labelled" if edges_only else "labelled"
    raise UnsupportedGraphError(
        f"test {test} is not defined on {kind} graphs ({why}); use another test, or drop the "
        f"{'edge ' if edges_only else ''}labels"
    )
