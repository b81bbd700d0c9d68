"""Reading and validating graphs: graph6 / sparse6, edge lists, GraphML, node-link JSON, names.

Every graph wltools works on is an undirected simple :class:`networkx.Graph` with nodes
``0..n-1`` and ``n >= 1``. This module is the one place where outside input becomes such a graph;
everything downstream (distances, refinement, isomorphism, models) assumes it. It also holds the
one check of that invariant (:func:`check_simple`) and the one relabelling of a graph
(:func:`permute_graph`; :func:`relabel_consecutive` onto ``0..n-1``).

How a graph specification (``load_graph(spec)``) is resolved, first match wins:

1. an **existing file** -- its format from the suffix (``.g6 .graph6 .s6 .sparse6``: graph6 /
   sparse6 lines; ``.graphml .xml``: GraphML; ``.json``: node-link JSON; ``.edgelist .edges .el``:
   edge list), otherwise sniffed from the content (``<`` GraphML, ``{`` JSON, a line of graph6
   characters graph6, anything else an edge list). The file must hold exactly one graph.
   Edge lists: one ``u v`` per line (more columns ignored), ``#`` comments, a line with one
   token declares an isolated node, and an edge listed twice (either direction) is an error;
2. a **disjoint union** ``A+B+...`` of specifications (each part resolved by these rules, parts
   relabelled consecutively), e.g. ``cycle:3+cycle:3`` (two triangles);
3. a **named graph** (``NAMED_GRAPHS``; lower case, ``name`` or ``name:N``), e.g. ``petersen``,
   ``cycle:6``;
4. ``FILE:INDEX`` -- graph number ``INDEX`` (0-based) of an existing multi-graph file;
5. a **graph6** string, or **sparse6** when it starts with ``:`` (an optional ``>>graph6<<`` /
   ``>>sparse6<<`` header is accepted).

Anything else is an error: :class:`~wltools.errors.UnknownNameError` when the text looks like a
name (lower case letters, digits, ``_``/``-``, optional ``:ARG``), :class:`GraphFormatError`
otherwise (a missing file, malformed graph6). Readable graphs outside the supported class
(directed, self-loops, multi-edges, no nodes) raise :class:`UnsupportedGraphError`.

Sizes are checked before anything is built: a graph6 header must agree with the length of its
body, and the memory a graph needs (:func:`load_bytes`, from the node count of a graph6 / sparse6
header, a name's size, or the counts of a JSON or edge-list file) is checked against the budget
``max_memory`` (:func:`wltools.resources.require`; default a share of the free memory), raising
:class:`~wltools.errors.ResourceLimitError` instead of allocating.

Nodes are relabelled ``0..n-1`` deterministically (:func:`relabel_consecutive`): integers in
increasing order, strings in natural order (``n2`` before ``n10``), so the same file always gives
the same graph. Parsing is done by networkx readers (``from_graph6_bytes``, ``from_sparse6_bytes``,
``read_graphml``, ``node_link_graph``, ``parse_edgelist``) whose exceptions are wrapped into
one-line messages that name the input.

Examples
--------
>>> G = load_graph("cycle:3+cycle:3")
>>> G.number_of_nodes(), G.number_of_edges()
(6, 6)
>>> sorted(load_graph("A_").edges())
[(0, 1)]
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

import networkx as nx

from wltools.errors import (
    DataIntegrityError,
    GraphFormatError,
    UnknownNameError,
    UnsupportedGraphError,
    WLToolsError,
)
from wltools.labels import EDGE_LABEL, NODE_LABEL, has_attribute, is_labelled, select_labels
from wltools.resources import require

__all__ = [
    "NamedGraph",
    "NAMED_GRAPHS",
    "FORMATS",
    "parse_graph6",
    "load_graph",
    "load_graphs",
    "validate_graph",
    "check_simple",
    "permute_graph",
    "relabel_consecutive",
    "named_graph",
    "load_bytes",
]

#: File formats understood by :func:`load_graphs` (``fmt`` argument).
FORMATS = ("graph6", "graphml", "json", "edgelist")

_SUFFIX_FORMAT = {
    ".g6": "graph6",
    ".graph6": "graph6",
    ".s6": "graph6",
    ".sparse6": "graph6",
    ".d6": "graph6",  # digraph6: read, then rejected as directed
    ".graphml": "graphml",
    ".xml": "graphml",
    ".json": "json",
    ".edgelist": "edgelist",
    ".edges": "edgelist",
    ".el": "edgelist",
}
_HEADERS = (b">>graph6<<", b">>sparse6<<", b">>digraph6<<")
_NAME_RE = re.compile(r"[a-z][a-z0-9_\-]*(?::\S*)?")
_INDEX_RE = re.compile(r"(.+):(\d+)")
_MAX_SHOWN = 40

# Errors networkx / the standard library raise on malformed input; wrapped into GraphFormatError.
_READ_ERRORS = (
    nx.NetworkXError,
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    AttributeError,
    ET.ParseError,
    UnicodeDecodeError,
)


# ----------------------------------------------------------------------------- private helpers


def _show(text: str | bytes) -> str:
    """Short printable form of an input for error messages (one line, at most ~40 characters)."""
    if isinstance(text, bytes):
        text = text.decode("ascii", errors="backslashreplace")
    text = text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 3] + "..."
    return repr(text)


def _one_line(exc: BaseException) -> str:
    """The message of ``exc`` squeezed onto one line."""
    msg = " ".join(str(exc).split())
    return msg or type(exc).__name__


def _natural(s: str) -> tuple:
    """Natural-order key: ``'n2' < 'n10'``; the string itself breaks ties (``'7'`` vs ``'007'``)."""
    parts = re.split(r"(\d+)", s)
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts)) + (s,)


def _node_key(x: object) -> tuple:
    """Deterministic sort key over mixed node labels: integers, then strings, then the rest."""
    if isinstance(x, int):
        return (0, x)
    if isinstance(x, str):
        return (1, _natural(x))
    return (2, type(x).__name__, _natural(repr(x)))


def _count(k: int, what: str) -> str:
    """``'1,000 nodes'``."""
    return f"{k:,} {what}"


# ----------------------------------------------------------------------------- sizes


def load_bytes(n: int, m: int) -> int:
    """Estimated peak memory (bytes) of reading a graph of ``n`` nodes and ``m`` edges into
    networkx and validating it (the parsed graph and its relabelled copy).

    Measured with :mod:`tracemalloc` on sparse6 input (cycles, random regular graphs, 2,000 to
    100,000 nodes): about ``750 n + 650 m`` bytes; this estimate rounds up.

    Examples
    --------
    >>> load_bytes(100_000, 150_000) < 2**30
    True
    >>> load_bytes(2**30, 0) > 500 * 2**30
    True
    """
    return 64 * 1024 + 800 * max(int(n), 0) + 700 * max(int(m), 0)


def _require_load(n: int, m: int, label: str, max_memory: int | None) -> None:
    require(load_bytes(n, m), f"reading graph {label} ({_count(n, 'nodes')}, up to "
            f"{_count(m, 'edges')})", max_memory=max_memory)


def _graph6_order(body: bytes, kind: str, label: str) -> tuple[int, bytes]:
    """The order ``n`` in a graph6 / sparse6 header (McKay's formats.txt: one byte for
    ``n <= 62``, ``~`` and three bytes up to ``258047``, ``~~`` and six bytes beyond) and the
    rest of the body."""
    if any(c < 63 or c > 126 for c in body):
        raise GraphFormatError(f"malformed {kind} {label}: each character must be in range(63, 127)")
    if not body:
        raise GraphFormatError(f"malformed {kind} {label}: no order (number of nodes)")
    if body[0] != 126:
        return body[0] - 63, body[1:]
    width, start = (6, 2) if body[1:2] == b"~" else (3, 1)
    digits = body[start : start + width]
    if len(digits) < width:
        raise GraphFormatError(f"malformed {kind} {label}: the order (number of nodes) is cut off")
    n = 0
    for c in digits:
        n = (n << 6) | (c - 63)
    return n, body[start + width :]


def _check_graph6_size(raw: bytes, kind: str, label: str, max_memory: int | None) -> None:
    """Refuse a graph6 body whose length disagrees with its header, and any graph6 / sparse6
    graph whose size is over the memory budget, before decoding it."""
    n, rest = _graph6_order(raw[1:] if kind == "sparse6" else raw, kind, label)
    if kind == "graph6":
        bits = n * (n - 1) // 2
        need = (bits + 5) // 6
        if len(rest) != need:
            raise GraphFormatError(
                f"malformed graph6 {label}: the header says {_count(n, 'nodes')}, whose adjacency "
                f"takes {_count(need, 'bytes')}, but {_count(len(rest), 'follow')}"
            )
        m = min(bits, 6 * len(rest))
    else:
        k = max(1, (n - 1).bit_length())  # bits per node number
        m = 6 * len(rest) // (k + 1)  # each edge takes at least one (b, x) unit
    _require_load(n, m, label, max_memory)


# ----------------------------------------------------------------------------- relabelling


def permute_graph(G: nx.Graph, perm: Sequence[int] | Mapping) -> nx.Graph:
    """The graph with node ``v`` renamed ``perm[v]``.

    The result is a plain ``nx.Graph`` whose only attributes are the labels of a labelled graph
    (node and edge attribute ``"label"``, :mod:`wltools.labels`), carried along; its nodes are
    inserted ``0..n-1`` and its edges ``(a, b)``, ``a < b``, in sorted order, so its node and edge
    order (and everything built from them, such as a PyG ``edge_index``) depend only on the
    relabelled graph.

    Parameters
    ----------
    G : nx.Graph
        An undirected graph with ``n`` nodes.
    perm : sequence or mapping
        ``perm[v]`` is the new name of node ``v``; the new names are ``0..n-1``.

    Examples
    --------
    >>> import networkx as nx
    >>> H = permute_graph(nx.path_graph(3), [2, 0, 1])
    >>> list(H.nodes), list(H.edges)
    ([0, 1, 2], [(0, 1), (0, 2)])
    >>> L = nx.Graph([(0, 1, {"label": "double"})]); L.nodes[0]["label"] = "O"; L.nodes[1]["label"] = "C"
    >>> dict(permute_graph(L, [1, 0]).nodes(data="label"))
    {0: 'C', 1: 'O'}
    """
    n = G.number_of_nodes()
    out = nx.Graph()
    out.add_nodes_from(range(n))
    if not is_labelled(G):
        out.add_edges_from(sorted(tuple(sorted((int(perm[u]), int(perm[v])))) for u, v in G.edges()))
        return out
    for v, x in G.nodes(data=NODE_LABEL):
        if x is not None:
            out.nodes[int(perm[v])][NODE_LABEL] = x
    edges = []
    for u, v, d in G.edges(data=True):
        a, b = sorted((int(perm[u]), int(perm[v])))
        edges.append((a, b, {EDGE_LABEL: d[EDGE_LABEL]} if EDGE_LABEL in d else {}))
    out.add_edges_from(sorted(edges, key=lambda e: e[:2]))
    return out


def relabel_consecutive(G: nx.Graph) -> nx.Graph:
    """:func:`permute_graph` onto ``0..n-1`` in a deterministic node order: integers in
    increasing order, then strings in natural order (``n2`` before ``n10``), then the rest.

    Examples
    --------
    >>> import networkx as nx
    >>> H = relabel_consecutive(nx.Graph([("n10", "n2"), ("n2", 7)]))
    >>> sorted(H.edges)  # 7 -> 0, n2 -> 1, n10 -> 2
    [(0, 1), (1, 2)]
    """
    return permute_graph(G, {v: i for i, v in enumerate(sorted(G.nodes, key=_node_key))})


def edge_count(G: nx.Graph) -> int:
    """``G.number_of_edges()`` of a simple undirected graph, counted in C (networkx sums the
    degrees in a Python loop: about 0.1 s per call at 10^5 nodes).

    Examples
    --------
    >>> import networkx as nx
    >>> edge_count(nx.petersen_graph()), edge_count(nx.Graph([(0, 0), (0, 1)]))
    (15, 2)
    """
    if G.is_directed() or G.is_multigraph():
        return G.number_of_edges()
    adj = G._adj  # networkx's node -> {neighbour: data}; read only
    loops = sum(1 for u, nbrs in adj.items() if u in nbrs)  # a self-loop is one entry, not two
    return (sum(map(len, adj.values())) + loops) // 2


# ----------------------------------------------------------------------------- validation


def check_simple(
    G: nx.Graph,
    what: str = "graph",
    *,
    error: type[WLToolsError] = DataIntegrityError,
    allow_empty: bool = False,
) -> None:
    """Raise unless ``G`` is a simple undirected graph on nodes ``0..n-1`` with ``n >= 1``.

    The invariant every graph inside wltools satisfies (:func:`validate_graph` establishes it for
    outside input). The first failing condition is reported, in this order: directed or a
    multigraph, self-loops, other nodes than ``0..n-1``, no nodes.

    Parameters
    ----------
    G : networkx graph
    what : str
        How ``G`` is named in the message, e.g. ``"pair 7 G"``.
    error : exception type
        Raised on failure; :class:`~wltools.errors.DataIntegrityError` by default (committed data).
    allow_empty : bool
        Accept the graph without nodes.

    Raises
    ------
    DataIntegrityError
        Or ``error``, with the message ``"<what> is directed"``, ``"<what> is a multigraph"``,
        ``"<what> has <k> self-loop(s)"``, ``"<what> does not have nodes 0..n-1"`` or
        ``"<what> is empty"``.

    Examples
    --------
    >>> import networkx as nx
    >>> check_simple(nx.path_graph(3))
    >>> check_simple(nx.Graph([(1, 2)]), "pair 7 G")
    Traceback (most recent call last):
    ...
    wltools.errors.DataIntegrityError: pair 7 G does not have nodes 0..n-1
    >>> check_simple(nx.DiGraph([(0, 1)]), error=UnsupportedGraphError)
    Traceback (most recent call last):
    ...
    wltools.errors.UnsupportedGraphError: graph is directed
    """
    if G.is_directed() or G.is_multigraph():
        raise error(f"{what} is {'directed' if G.is_directed() else 'a multigraph'}")
    if nx.number_of_selfloops(G):
        raise error(f"{what} has {nx.number_of_selfloops(G)} self-loop(s)")
    if set(G.nodes()) != set(range(G.number_of_nodes())):
        raise error(f"{what} does not have nodes 0..n-1")
    if G.number_of_nodes() == 0 and not allow_empty:
        raise error(f"{what} is empty")


def validate_graph(G: nx.Graph, name: str | None = None, *, node_attr: str | None = None,
                   edge_attr: str | None = None) -> nx.Graph:
    """Check that ``G`` is an undirected simple graph with at least one node; relabel it.

    Parameters
    ----------
    G : networkx graph
        ``nx.Graph``, or an ``nx.MultiGraph`` without parallel edges.
    name : str, optional
        How the input is named in error messages (a file, a graph6 string, a graph name).
    node_attr, edge_attr : str, optional
        Node / edge attribute of ``G`` that becomes the label (:func:`wltools.labels.select_labels`;
        pass ``"label"`` to keep the labels of a graph already labelled); ``None``: no labels.

    Returns
    -------
    nx.Graph
        A new graph on nodes ``0..n-1`` (deterministic order, see the module docstring) whose only
        attributes are the selected labels (:mod:`wltools.labels`); ``graph["name"]`` is ``name``
        when given.

    Raises
    ------
    UnsupportedGraphError
        Directed graph, self-loop, parallel edges, or no nodes.
    GraphFormatError
        ``G`` is not a networkx graph; a selected attribute missing on some nodes (edges), or
        not a label (:func:`wltools.labels.canonical_label`).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(validate_graph(nx.Graph([("b", "a"), ("a", "c")])).edges())
    [(0, 1), (0, 2)]
    >>> validate_graph(nx.Graph([(0, 0)]), name="loop")
    Traceback (most recent call last):
    ...
    wltools.errors.UnsupportedGraphError: graph loop has a self-loop at node 0; only simple graphs are supported
    """
    what = f"graph {name}" if name else "graph"
    if not isinstance(G, nx.Graph):
        raise GraphFormatError(f"{what}: expected a networkx graph, got {type(G).__name__}")
    if G.is_directed():
        raise UnsupportedGraphError(f"{what} is directed; only undirected graphs are supported")
    if G.number_of_nodes() == 0:
        raise UnsupportedGraphError(f"{what} has no nodes; graphs need at least one node")
    loops = list(nx.selfloop_edges(G))
    if loops:
        raise UnsupportedGraphError(
            f"{what} has a self-loop at node {loops[0][0]!r}; only simple graphs are supported"
        )
    if G.is_multigraph():
        for u, v in G.edges():
            k = G.number_of_edges(u, v)
            if k > 1:
                raise UnsupportedGraphError(
                    f"{what} has {k} parallel edges between {u!r} and {v!r}; only simple graphs "
                    "are supported (list each undirected edge once)"
                )
        if node_attr is not None or edge_attr is not None:
            G = nx.Graph(G)  # one edge per pair (checked): labels are read from plain edge data
    if node_attr is not None or edge_attr is not None or is_labelled(G):
        G = select_labels(G, node_attr, edge_attr, name or "graph")
    H = relabel_consecutive(G)
    if name:
        H.graph["name"] = name
    return H


# ----------------------------------------------------------------------------- graph6 / sparse6


def parse_graph6(
    text: str | bytes, name: str | None = None, *, max_memory: int | None = None
) -> nx.Graph:
    """Parse one graph6 string, or sparse6 when it starts with ``:``.

    Implements the formats of McKay's ``formats.txt`` (nauty) through networkx's
    ``from_graph6_bytes`` / ``from_sparse6_bytes``. Surrounding whitespace and a leading
    ``>>graph6<<`` / ``>>sparse6<<`` header are accepted.

    Parameters
    ----------
    text : str or bytes
        One graph6 / sparse6 string.
    name : str, optional
        How the input is named in error messages (default: the text itself).
    max_memory : int, optional
        Memory budget in bytes (default: :func:`wltools.resources.require`'s).

    Returns
    -------
    nx.Graph
        Validated graph on nodes ``0..n-1`` (graph6 order is kept).

    Raises
    ------
    GraphFormatError
        Malformed text (including a graph6 body whose length disagrees with the order in its
        header), or several graphs (use :func:`load_graphs`).
    UnsupportedGraphError
        digraph6 (directed), self-loops or multi-edges (sparse6), zero nodes.
    ResourceLimitError
        The order in the header (and the edges the body can hold) need more memory than
        ``max_memory``; refused before decoding.

    Examples
    --------
    >>> sorted(parse_graph6("Bw").edges())
    [(0, 1), (0, 2), (1, 2)]
    """
    if isinstance(text, str):
        try:
            raw = text.encode("ascii")
        except UnicodeEncodeError:
            raise GraphFormatError(
                f"malformed graph6 {_show(text)}: non-ASCII characters"
            ) from None
    elif isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
    else:
        raise GraphFormatError(f"graph6 must be str or bytes, got {type(text).__name__}")
    label = name or _show(raw.strip())
    raw = raw.strip()
    for header in _HEADERS:
        if raw.startswith(header):
            raw = raw[len(header) :]
            break
    if not raw:
        raise GraphFormatError(f"graph6 {label}: empty text")
    if len(raw.split()) > 1:
        raise GraphFormatError(
            f"graph6 {label}: holds {len(raw.split())} graphs; read it with load_graphs"
        )
    if raw.startswith(b"&"):
        raise UnsupportedGraphError(
            f"graph {label} is digraph6 (directed); only undirected graphs are supported"
        )
    kind = "sparse6" if raw.startswith(b":") else "graph6"
    _check_graph6_size(raw, kind, label, max_memory)
    if kind == "sparse6" and len(raw) > _FAST_SPARSE6_BYTES:
        G = _simple_from_sparse6(raw, label)
        if G is not None:
            return G
    try:
        G = nx.from_sparse6_bytes(raw) if kind == "sparse6" else nx.from_graph6_bytes(raw)
    except _READ_ERRORS as exc:
        raise GraphFormatError(f"malformed {kind} {label}: {_one_line(exc)}") from None
    return validate_graph(G, name=label)


#: sparse6 bodies longer than this are decoded by :func:`wltools.sparse6_fast.decode_sparse6`
#: (networkx's decoder takes seconds at 10^5 nodes); shorter ones, and every body that is not a
#: clean simple graph, go through networkx and its messages.
_FAST_SPARSE6_BYTES = 4096


def _simple_from_sparse6(raw: bytes, label: str) -> nx.Graph | None:
    """The validated graph of a well-formed sparse6 body of a simple graph with at least one node,
    built directly on ``0..n-1`` with its edges sorted (what :func:`validate_graph` returns for
    it); None for anything else (malformed, self-loops, repeated edges), left to networkx."""
    import numpy as np

    from .sparse6_fast import decode_sparse6

    decoded = decode_sparse6(raw)
    if decoded is None or decoded[0] == 0:
        return None
    n, edges = decoded
    if len(edges) and (edges[:, 0] == edges[:, 1]).any():
        return None
    order = np.lexsort((edges[:, 1], edges[:, 0]))
    edges = edges[order]
    if len(edges) > 1 and (np.diff(edges, axis=0) == 0).all(axis=1).any():
        return None
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges.tolist())
    G.graph["name"] = label
    return G


def _is_graph6_text(s: str) -> bool:
    """Whether ``s`` consists of graph6 / sparse6 / digraph6 characters only (no decoding)."""
    body = s
    for header in _HEADERS:
        h = header.decode()
        if body.startswith(h):
            body = body[len(h) :]
            break
    if body[:1] in (":", "&"):
        body = body[1:]
    return bool(body) and all(63 <= ord(c) <= 126 for c in body)


# ----------------------------------------------------------------------------- named graphs


@dataclass(frozen=True)
class NamedGraph:
    """A graph family known by name.

    Attributes
    ----------
    build : callable
        ``build()`` for fixed graphs, ``build(N)`` for sized ones.
    sized : bool
        Whether the name takes a size, written ``name:N``.
    min_size, max_size : int
        Allowed range of ``N`` for sized families.
    description : str
        One line: what the graph is and where it comes from.
    edges : callable, optional
        ``edges(N)``, the number of edges of a sized family's member (for the memory check made
        before building it); None: ``N`` edges.

    Examples
    --------
    >>> family = NAMED_GRAPHS["cycle"]
    >>> family.sized, family.min_size, family.build(5).number_of_edges()
    (True, 3, 5)
    """

    build: Callable[..., nx.Graph]
    sized: bool
    description: str
    min_size: int = 1
    max_size: int = 0
    edges: Callable[[int], int] | None = None


def _shrikhande() -> nx.Graph:
    """Shrikhande graph: the Cayley graph of Z4 x Z4 with connection set
    {±(1,0), ±(0,1), ±(1,1)}; node (a, b) is ``4a + b``. Strongly regular (16, 6, 2, 2)."""
    G = nx.Graph()
    G.add_nodes_from(range(16))
    for a in range(4):
        for b in range(4):
            for da, db in ((1, 0), (0, 1), (1, 1)):
                G.add_edge(4 * a + b, 4 * ((a + da) % 4) + (b + db) % 4)
    return G


def _rook4x4() -> nx.Graph:
    """4x4 rook's graph K4 □ K4: (a, b) ~ (c, d) iff exactly one coordinate agrees; node (a, b) is
    ``4a + b``. Strongly regular (16, 6, 2, 2) like Shrikhande's graph, yet not isomorphic to it."""
    G = nx.Graph()
    G.add_nodes_from(range(16))
    for u in range(16):
        for v in range(u + 1, 16):
            if (u // 4 == v // 4) != (u % 4 == v % 4):
                G.add_edge(u, v)
    return G


def _decalin() -> nx.Graph:
    """Decalin (bicyclo[4.4.0]decane) carbon skeleton, Graphormer (Ying et al., 2021) App. A.1,
    Fig. 2: two six-rings sharing the bond 0-1 (rings 0-2-3-4-5-1 and 0-6-7-8-9-1); 10 nodes,
    11 edges."""
    return nx.Graph(
        [(0, 1), (0, 2), (2, 3), (3, 4), (4, 5), (5, 1), (0, 6), (6, 7), (7, 8), (8, 9), (9, 1)]
    )


def _bicyclopentyl() -> nx.Graph:
    """Bicyclopentyl (1,1'-bi(cyclopentane)) carbon skeleton, Graphormer (Ying et al., 2021)
    App. A.1, Fig. 2: two five-rings (0-2-3-4-5 and 1-6-7-8-9) joined by the bond 0-1; 10 nodes,
    11 edges. Same 1-WL colouring as decalin, different SPD multisets."""
    return nx.Graph(
        [(0, 1), (0, 2), (2, 3), (3, 4), (4, 5), (5, 0), (1, 6), (6, 7), (7, 8), (8, 9), (9, 1)]
    )


def _cycle(n: int) -> nx.Graph:
    return nx.cycle_graph(n)


def _path(n: int) -> nx.Graph:
    return nx.path_graph(n)


def _complete(n: int) -> nx.Graph:
    return nx.complete_graph(n)


#: Known graph names. Fixed graphs are written ``name``; sized families ``name:N``.
NAMED_GRAPHS: dict[str, NamedGraph] = {
    "petersen": NamedGraph(nx.petersen_graph, False, "Petersen graph: 10 nodes, 3-regular"),
    "dodecahedral": NamedGraph(
        nx.dodecahedral_graph, False,
        "dodecahedron: 20 nodes, 3-regular (GRIT Fig. 3, vs desargues)",
    ),
    "desargues": NamedGraph(
        nx.desargues_graph, False,
        "Desargues graph: 20 nodes, 3-regular (GRIT Fig. 3, vs dodecahedral)",
    ),
    "heawood": NamedGraph(nx.heawood_graph, False, "Heawood graph: 14 nodes, 3-regular"),
    "cubical": NamedGraph(nx.cubical_graph, False, "cube Q3: 8 nodes, 3-regular"),
    "shrikhande": NamedGraph(
        _shrikhande, False, "Shrikhande graph: Cayley graph on Z4 x Z4, srg(16, 6, 2, 2)"
    ),
    "rook4x4": NamedGraph(_rook4x4, False, "4x4 rook's graph K4 x K4: srg(16, 6, 2, 2)"),
    "decalin": NamedGraph(
        _decalin, False, "decalin skeleton: 10 nodes, 11 edges (Graphormer App. A.1, Fig. 2)"
    ),
    "bicyclopentyl": NamedGraph(
        _bicyclopentyl, False,
        "bicyclopentyl skeleton: 10 nodes, 11 edges (Graphormer App. A.1, Fig. 2)",
    ),
    "complete": NamedGraph(_complete, True, "complete graph K_N", 1, 1_000, lambda k: k * (k - 1) // 2),
    "cycle": NamedGraph(_cycle, True, "cycle C_N (N >= 3)", 3, 100_000, lambda k: k),
    "path": NamedGraph(_path, True, "path P_N on N nodes", 1, 100_000, lambda k: k - 1),
}


def _known_names() -> str:
    return ", ".join(f"{k}:N" if v.sized else k for k, v in NAMED_GRAPHS.items())


def _named_size(name: str) -> tuple[NamedGraph, int | None]:
    """The family of a graph name and its size (None for fixed graphs), checked."""
    base, sep, arg = name.strip().partition(":")
    spec = NAMED_GRAPHS.get(base)
    if spec is None:
        raise UnknownNameError(f"unknown graph name {_show(name)}; known: {_known_names()}")
    if not spec.sized:
        if sep:
            raise GraphFormatError(f"graph name {_show(name)}: {base!r} takes no size")
        return spec, None
    else:
        if not arg:
            raise GraphFormatError(
                f"graph name {_show(name)}: {base!r} needs a size, "
                f"e.g. {base}:{max(spec.min_size, 6)}"
            )
        if not arg.isdigit():
            raise GraphFormatError(f"graph name {_show(name)}: size {arg!r} is not an integer")
        size = int(arg)
        if not spec.min_size <= size <= spec.max_size:
            raise GraphFormatError(
                f"graph name {_show(name)}: size must be in {spec.min_size}..{spec.max_size}"
            )
        return spec, size


def named_graph(name: str, *, max_memory: int | None = None) -> nx.Graph:
    """Build a named graph (see :data:`NAMED_GRAPHS`), e.g. ``"petersen"`` or ``"cycle:6"``.

    Raises
    ------
    UnknownNameError
        Unknown name.
    GraphFormatError
        A missing, superfluous, non-integer or out-of-range size.
    ResourceLimitError
        The graph would need more memory than ``max_memory`` (default: a share of the free
        memory); checked before it is built.

    Examples
    --------
    >>> named_graph("cycle:6").number_of_edges()
    6
    """
    spec, size = _named_size(name)
    if size is None:
        G = spec.build()
    else:
        m = spec.edges(size) if spec.edges is not None else size
        _require_load(size, m, _show(name.strip()), max_memory)
        G = spec.build(size)
    return validate_graph(G, name=name.strip())


# ----------------------------------------------------------------------------- files


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise GraphFormatError(f"no such file: {str(path)!r}") from None
    except IsADirectoryError:
        raise GraphFormatError(f"{str(path)!r} is a directory, not a graph file") from None
    except OSError as exc:
        raise GraphFormatError(f"cannot read {str(path)!r}: {_one_line(exc)}") from None


def _sniff(data: bytes) -> str:
    """Guess a file's format from its content (used when the suffix says nothing)."""
    text = data.lstrip()
    if text.startswith(b"<"):
        return "graphml"
    if text.startswith((b"{", b"[")):
        return "json"
    first = text.splitlines()[0].strip()
    if first.startswith(_HEADERS) or _is_graph6_text(first.decode("latin-1")):
        return "graph6"
    return "edgelist"


def _read_graph6_lines(data: bytes, where: str, max_memory: int | None = None) -> list[nx.Graph]:
    graphs = []
    for lineno, line in enumerate(data.splitlines(), start=1):
        if not line.strip() or line.strip() in _HEADERS:
            continue
        graphs.append(parse_graph6(line, name=f"{where} line {lineno}", max_memory=max_memory))
    return graphs


def _read_graphml(path: Path, where: str, node_attr: str | None = None, edge_attr: str | None = None) -> nx.Graph:
    try:
        G = nx.read_graphml(path)
    except _READ_ERRORS as exc:
        raise GraphFormatError(f"malformed GraphML in {where}: {_one_line(exc)}") from None
    return validate_graph(G, name=where, node_attr=node_attr, edge_attr=edge_attr)


_NODE_LINK = ("node-link JSON: an object with a 'nodes' list and an 'edges' (or 'links') list, "
              "as written by networkx.node_link_data")


def _node_link_id(value: object, what: str, where: str) -> object:
    """A node id of node-link JSON: a string or a number (not a boolean, null, list or object)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise GraphFormatError(
            f"node-link JSON {where}: {what} is {json.dumps(value)}; node ids must be strings or "
            "numbers"
        )
    return value


def _read_json(data: bytes, where: str, max_memory: int | None = None, node_attr: str | None = None,
               edge_attr: str | None = None) -> nx.Graph:
    """Node-link JSON (``networkx.node_link_data``), checked before a graph is built: ``directed``
    and ``multigraph``, when present, are JSON booleans; every node has an ``id`` (a string or a
    number, listed once); every edge has a ``source`` and a ``target`` among those ids. A
    repeated edge is reported (as a multi-edge), not merged. The members ``node_attr`` of the
    node objects and ``edge_attr`` of the edge objects become labels (:func:`validate_graph`)."""
    try:
        obj = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise GraphFormatError(f"malformed JSON in {where}: {_one_line(exc)}") from None
    if not isinstance(obj, dict):
        raise GraphFormatError(f"{where}: expected {_NODE_LINK}")
    for key in ("directed", "multigraph"):
        if key in obj and not isinstance(obj[key], bool):
            raise GraphFormatError(
                f"node-link JSON {where}: {key!r} must be true or false, got {json.dumps(obj[key])}"
            )
    if "edges" in obj and "links" in obj:
        raise GraphFormatError(
            f"node-link JSON {where}: has both 'edges' and 'links'; expected one of them"
        )
    key = "links" if "links" in obj else "edges"
    nodes, edges = obj.get("nodes"), obj.get(key)
    if not isinstance(nodes, list) or not isinstance(edges, list):
        missing = [k for k, v in (("nodes", nodes), (key, edges)) if not isinstance(v, list)]
        raise GraphFormatError(
            f"{where}: no {' or '.join(repr(k) for k in missing)} list; expected {_NODE_LINK}"
        )
    if obj.get("directed"):
        raise UnsupportedGraphError(
            f"graph {where} is directed; only undirected graphs are supported"
        )
    _require_load(len(nodes), len(edges), where, max_memory)
    ids: dict[object, dict] = {}
    for i, node in enumerate(nodes):
        if not isinstance(node, dict) or "id" not in node:
            raise GraphFormatError(
                f"node-link JSON {where}: node {i} has no 'id' (nodes are objects {{\"id\": ...}})"
            )
        v = _node_link_id(node["id"], f"the id of node {i}", where)
        if v in ids:
            raise GraphFormatError(f"node-link JSON {where}: node id {json.dumps(v)} is listed twice")
        ids[v] = {node_attr: node[node_attr]} if node_attr is not None and node_attr in node else {}
    pairs = []
    for j, edge in enumerate(edges):
        if not isinstance(edge, dict) or "source" not in edge or "target" not in edge:
            raise GraphFormatError(
                f"node-link JSON {where}: {key[:-1]} {j} needs a 'source' and a 'target'"
            )
        ends = []
        for end in ("source", "target"):
            v = _node_link_id(edge[end], f"the {end} of {key[:-1]} {j}", where)
            if v not in ids:
                raise GraphFormatError(
                    f"node-link JSON {where}: {key[:-1]} {j} has {end} {json.dumps(v)}, which is "
                    "not in 'nodes'"
                )
            ends.append(v)
        pairs.append((*ends, {edge_attr: edge[edge_attr]} if edge_attr is not None and edge_attr in edge else {}))
    G = nx.MultiGraph()
    G.add_nodes_from(ids.items())
    G.add_edges_from(pairs)
    return validate_graph(G, name=where, node_attr=node_attr, edge_attr=edge_attr)


def _read_edgelist(data: bytes, where: str, max_memory: int | None = None) -> nx.Graph:
    """Whitespace-separated ``u v [ignored...]`` lines, ``#`` comments; a one-token line declares
    an isolated node. Parsed by ``networkx.parse_edgelist`` into a MultiGraph, so a repeated edge
    is reported instead of silently merged."""
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise GraphFormatError(f"{where}: not a text file ({_one_line(exc)})") from None
    isolated = []
    m = 0
    for line in lines:
        tokens = line.split("#", 1)[0].split()
        if len(tokens) == 1:
            isolated.append(tokens[0])
        m += len(tokens) > 1
    _require_load(2 * m + len(isolated), m, where, max_memory)
    try:
        G = nx.parse_edgelist(lines, comments="#", create_using=nx.MultiGraph, data=False)
    except _READ_ERRORS as exc:
        raise GraphFormatError(f"malformed edge list in {where}: {_one_line(exc)}") from None
    G.add_nodes_from(isolated)
    return validate_graph(G, name=where)


def load_graphs(
    path: str | os.PathLike, fmt: str | None = None, *, max_memory: int | None = None,
    node_attr: str | None = None, edge_attr: str | None = None,
) -> list[nx.Graph]:
    """Read every graph of a file.

    graph6 / sparse6 files hold one graph per line (blank lines skipped, ``>>graph6<<`` /
    ``>>sparse6<<`` headers accepted, graph6 and sparse6 lines may be mixed); GraphML, node-link
    JSON and edge-list files hold one graph.

    Parameters
    ----------
    path : str or PathLike
        The file.
    fmt : {"graph6", "graphml", "json", "edgelist"}, optional
        Format; default: from the suffix, else sniffed from the content (module docstring).
    max_memory : int, optional
        Memory budget in bytes for each graph (default: a share of the free memory).
    node_attr, edge_attr : str, optional
        GraphML / node-link JSON attribute that becomes the node (edge) label
        (:mod:`wltools.labels`); other formats carry no attributes.

    Returns
    -------
    list of nx.Graph
        Validated graphs on ``0..n-1``, in file order; each has ``graph["name"]``.

    Raises
    ------
    GraphFormatError
        Missing / unreadable / empty file, malformed content, unknown ``fmt``; ``node_attr`` /
        ``edge_attr`` missing on some nodes (edges), not a label, or asked of a format without
        attributes.
    UnsupportedGraphError
        A directed graph, self-loop, multi-edge or zero-node graph in the file.
    ResourceLimitError
        A graph whose size (from its header or counts) needs more memory than ``max_memory``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "two.g6"
    ...     _ = path.write_text(">>graph6<<Bw\\nA_\\n")
    ...     [(G.number_of_edges(), G.graph["name"].endswith("line 2")) for G in load_graphs(path)]
    [(3, False), (1, True)]
    """
    path = Path(path)
    where = str(path)
    if fmt is not None and fmt not in FORMATS:
        raise GraphFormatError(f"unknown graph file format {fmt!r}; known: {', '.join(FORMATS)}")
    data = _read_bytes(path)
    if not data.strip():
        raise GraphFormatError(f"{where} is empty: no graph in it")
    fmt = fmt or _SUFFIX_FORMAT.get(path.suffix.lower()) or _sniff(data)
    if fmt in ("graph6", "edgelist") and (node_attr is not None or edge_attr is not None):
        raise GraphFormatError(f"{where}: {fmt} files carry no node or edge attributes; labels "
                               "(node_attr / edge_attr) need GraphML or node-link JSON")
    if fmt == "graph6":
        graphs = _read_graph6_lines(data, where, max_memory)
        if not graphs:
            raise GraphFormatError(f"{where} holds only a header: no graph in it")
        return graphs
    if fmt == "graphml":
        return [_read_graphml(path, where, node_attr, edge_attr)]
    if fmt == "json":
        return [_read_json(data, where, max_memory, node_attr, edge_attr)]
    return [_read_edgelist(data, where, max_memory)]


def _is_file(path: Path) -> bool:
    """``path.is_file()`` that answers False instead of raising (name too long, bad bytes)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def _single_from_file(path: Path, max_memory: int | None = None, **attrs) -> nx.Graph:
    graphs = load_graphs(path, max_memory=max_memory, **attrs)
    if len(graphs) != 1:
        raise GraphFormatError(
            f"{str(path)!r} holds {len(graphs)} graphs; select one as {path}:INDEX (0-based)"
        )
    G = graphs[0]
    G.graph["name"] = str(path)
    return G


# ----------------------------------------------------------------------------- specifications


def _spec_size(spec: str) -> tuple[int, int] | None:
    """``(n, m)`` of a named graph, ``(n, upper bound of m)`` of a graph6 / sparse6 string, known
    without building it; None for anything else (files are checked as they are read)."""
    try:
        if spec.partition(":")[0] in NAMED_GRAPHS:
            family, size = _named_size(spec)
            if size is None:
                return None
            return size, (family.edges(size) if family.edges is not None else size)
        if _is_graph6_text(spec):
            raw = spec.encode("ascii")
            for header in _HEADERS:
                raw = raw[len(header) :] if raw.startswith(header) else raw
            if raw[:1] == b":":
                n, rest = _graph6_order(raw[1:], "sparse6", "")
                return n, 6 * len(rest) // (max(1, (n - 1).bit_length()) + 1)
            n, rest = _graph6_order(raw, "graph6", "")
            return n, min(n * (n - 1) // 2, 6 * len(rest))
    except (WLToolsError, UnicodeEncodeError):
        return None
    return None


def load_graph(spec: str | os.PathLike, *, max_memory: int | None = None, node_attr: str | None = None,
               edge_attr: str | None = None) -> nx.Graph:
    """Load one graph from a file path, a ``+`` union, a name, ``FILE:INDEX``, or graph6/sparse6.

    The resolution order is given in the module docstring (an existing file wins, then a union,
    then a known name, then ``FILE:INDEX``, then graph6 / sparse6). Before all of them,
    ``smiles:SMILES`` is a molecule read by RDKit (:func:`wltools.label_inputs.from_smiles`;
    the whole rest of the text is the SMILES, ``+`` included), labelled by atoms and bonds; a PyG
    ``Data`` object is converted by :func:`wltools.label_inputs.from_pyg` (``x`` and
    ``edge_attr`` rows as labels).

    Parameters
    ----------
    spec : str, PathLike or torch_geometric.data.Data
        The specification.
    max_memory : int, optional
        Memory budget in bytes (default: a share of the free memory,
        :func:`wltools.resources.require`).
    node_attr, edge_attr : str, optional
        GraphML / node-link JSON attribute that becomes the node (edge) label
        (:mod:`wltools.labels`); in a union, of every part. Ignored by ``smiles:``, which
        always carries its atom and bond labels.

    Returns
    -------
    nx.Graph
        Validated graph on ``0..n-1``; ``graph["name"]`` is ``spec``; node / edge attribute
        ``"label"`` when labelled.

    Raises
    ------
    UnknownNameError
        ``spec`` looks like a name but is none we know (and is no file or graph6).
    GraphFormatError
        Missing file, malformed content or graph6, a file with several graphs and no index.
    UnsupportedGraphError
        Directed graph, self-loop, multi-edge, zero nodes.
    ResourceLimitError
        The graph (a union: all its parts) would need more memory than ``max_memory``; refused
        before it is built.

    Examples
    --------
    >>> load_graph("petersen").number_of_edges()
    15
    >>> load_graph("cycle:3+path:2").number_of_nodes()
    5
    """
    attrs = {"node_attr": node_attr, "edge_attr": edge_attr}
    if isinstance(spec, os.PathLike):
        return _single_from_file(Path(spec), max_memory, **attrs)
    if hasattr(spec, "edge_index") and hasattr(spec, "num_nodes"):  # a PyG Data: x, edge_attr as labels
        from wltools.label_inputs import from_pyg

        return from_pyg(spec)
    if not isinstance(spec, str):
        raise GraphFormatError(f"graph specification must be a string, got {type(spec).__name__}")
    s = spec.strip()
    if not s:
        raise GraphFormatError("empty graph specification")
    if s.startswith("smiles:"):
        from wltools.label_inputs import from_smiles

        return from_smiles(s[len("smiles:"):], name=s)
    path = Path(s)
    if _is_file(path):
        return _single_from_file(path, max_memory, **attrs)
    if _is_dir(path):
        raise GraphFormatError(f"{s!r} is a directory, not a graph file")
    if "+" in s:
        return _load_union(s, max_memory, attrs)
    if s.partition(":")[0] in NAMED_GRAPHS:
        return _no_attributes(named_graph(s, max_memory=max_memory), s, **attrs)
    m = _INDEX_RE.fullmatch(s)
    if m and _is_file(Path(m.group(1))):
        graphs = load_graphs(m.group(1), max_memory=max_memory, **attrs)
        index = int(m.group(2))
        if index >= len(graphs):
            raise GraphFormatError(
                f"{m.group(1)!r} holds {len(graphs)} graphs; index {index} is out of range"
            )
        G = graphs[index]
        G.graph["name"] = s
        return G
    problem = f"{_show(s)} is not an existing file, a known graph name, or valid graph6/sparse6"
    if _is_graph6_text(s):
        try:
            G = parse_graph6(s, max_memory=max_memory)
        except GraphFormatError as exc:
            if _NAME_RE.fullmatch(s):
                raise UnknownNameError(f"{problem} (known names: {_known_names()})") from None
            raise GraphFormatError(f"{exc} (nor is it an existing file or a known name)") from None
        G.graph["name"] = s
        return _no_attributes(G, s, **attrs)
    if _NAME_RE.fullmatch(s):
        raise UnknownNameError(f"{problem} (known names: {_known_names()})")
    if os.sep in s or "/" in s or path.suffix:
        raise GraphFormatError(f"no such file: {s!r}")
    raise GraphFormatError(problem)


def _load_union(s: str, max_memory: int | None, attrs: dict) -> nx.Graph:
    """The disjoint union ``A+B+...`` of :func:`load_graph` (module docstring, rule 2)."""
    parts = [p.strip() for p in s.split("+")]
    if not all(parts):
        raise GraphFormatError(f"graph union {_show(s)}: empty part")
    sizes = [_spec_size(p) for p in parts]
    known = [z for z in sizes if z is not None]
    if known:  # parts, union and its relabelled copy: about three times the parts
        n, m = sum(z[0] for z in known), sum(z[1] for z in known)
        require(3 * load_bytes(n, m), f"the graph union {_show(s)} ({_count(n, 'nodes')}, up to "
                f"{_count(m, 'edges')})", max_memory=max_memory)
    G = nx.disjoint_union_all([load_graph(p, max_memory=max_memory, **attrs) for p in parts])
    return validate_graph(G, name=s, node_attr=_label_attr(G, True), edge_attr=_label_attr(G, False))


def _label_attr(G: nx.Graph, nodes: bool) -> str | None:
    """``"label"`` when some node (edge) of ``G`` carries a label, else None."""
    key = NODE_LABEL if nodes else EDGE_LABEL
    return key if has_attribute(G, key, "node" if nodes else "edge") else None


def _no_attributes(G: nx.Graph, spec: str, node_attr: str | None, edge_attr: str | None) -> nx.Graph:
    """``G`` (a named graph or graph6 string, which carry no attributes), or the one-line error
    when labels were asked of it."""
    if node_attr is not None or edge_attr is not None:
        raise GraphFormatError(f"{_show(spec)}: named graphs and graph6 strings carry no node or edge "
                               "attributes; labels (node_attr / edge_attr) need GraphML or node-link JSON")
    return G
