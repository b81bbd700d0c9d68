"""Validating and relabelling graphs: the one check of the invariant every graph inside wltools
satisfies (an undirected simple :class:`networkx.Graph` on nodes ``0..n-1``, ``n >= 1``;
:func:`check_simple`), the one way outside graphs are brought to it (:func:`validate_graph`), the
one relabelling of a graph (:func:`permute_graph`, :func:`relabel_consecutive`) and the memory a
graph of a given size needs (:func:`load_bytes`).

Split from :mod:`wltools.graphs`, which re-exports every public name.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

import networkx as nx

from wltools.errors import DataIntegrityError, GraphFormatError, UnsupportedGraphError, WLToolsError
from wltools.graphs.labels import EDGE_LABEL, NODE_LABEL, is_labelled, select_labels
from wltools.runtime.memory import require

__all__ = ["load_bytes", "permute_graph", "relabel_consecutive", "edge_count", "check_simple", "validate_graph",
           "NODE_NAMES", "vertex_of"]

_MAX_SHOWN = 40

#: ``graph[NODE_NAMES]``: the input's own node names (text) of vertices ``0..n-1``, kept by
#: :func:`validate_graph` when they are not ``0..n-1`` themselves, so that a command can take a
#: vertex as the file names it (``wltools hom --root``, :func:`vertex_of`).
NODE_NAMES = "node_names"




def show_spec(text: str | bytes) -> str:
    """Short printable form of an input for error messages (one line, at most ~40 characters)."""
    if isinstance(text, bytes):
        text = text.decode("ascii", errors="backslashreplace")
    text = text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 3] + "..."
    return repr(text)


def one_line(exc: BaseException) -> str:
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


def vertex_of(G: nx.Graph, name: str) -> int | None:
    """The vertex ``0..n-1`` of ``G`` that the input called ``name``: by its own node names when it
    had names other than ``0..n-1`` (:data:`NODE_NAMES`: an edge list with gaps, GraphML ids),
    else the number itself; None when there is no such vertex.

    Examples
    --------
    >>> G = validate_graph(nx.Graph([("1", "5"), ("5", "9")]))
    >>> vertex_of(G, "5"), vertex_of(G, "0"), vertex_of(nx.path_graph(3), "2")
    (1, None, 2)
    """
    names = G.graph.get(NODE_NAMES)
    if names is not None:
        return names.index(name) if name in names else None
    try:
        v = int(name)
    except ValueError:
        return None
    return v if 0 <= v < G.number_of_nodes() else None


def count_text(k: int, what: str) -> str:
    """``'1,000 nodes'``."""
    return f"{k:,} {what}"




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


def require_load(n: int, m: int, label: str, max_memory: int | None) -> None:
    require(load_bytes(n, m), f"reading graph {label} ({count_text(n, 'nodes')}, up to "
            f"{count_text(m, 'edges')})", max_memory=max_memory)




def permute_graph(G: nx.Graph, perm: Sequence[int] | Mapping) -> nx.Graph:
    """The graph with node ``v`` renamed ``perm[v]``.

    The result is a plain ``nx.Graph`` whose only attributes are the labels of a labelled graph
    (node and edge attribute ``"label"``, :mod:`wltools.graphs.labels`), carried along; its nodes are
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
    # G.adjacency() (public) yields networkx's own neighbour dicts: 15 ms on a 100,000-node cubic
    # graph, against 48 ms for G.number_of_edges(). Not list(G.adjacency()): 100,000 new tuples
    # kept alive set off the garbage collector's full passes over the graph's dicts (0.3 s).
    adj = dict(G.adjacency())  # one new object: the pairs are unpacked as they come
    loops = sum(map(dict.__contains__, adj.values(), adj))  # a self-loop is one entry, not two
    return (sum(map(len, adj.values())) + loops) // 2




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
        Node / edge attribute of ``G`` that becomes the label (:func:`wltools.graphs.labels.select_labels`;
        pass ``"label"`` to keep the labels of a graph already labelled); ``None``: no labels.

    Returns
    -------
    nx.Graph
        A new graph on nodes ``0..n-1`` (deterministic order, see the module docstring) whose only
        attributes are the selected labels (:mod:`wltools.graphs.labels`); ``graph["name"]`` is ``name``
        when given; ``graph["node_names"]`` (:data:`NODE_NAMES`) the input's node names in that
        order, as text, when they are not ``0..n-1`` (an edge list with nodes 1, 5, 9).

    Raises
    ------
    UnsupportedGraphError
        Directed graph, self-loop, parallel edges, or no nodes.
    GraphFormatError
        ``G`` is not a networkx graph; a selected attribute missing on some nodes (edges), or
        not a label (:func:`wltools.graphs.labels.canonical_label`).

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
    order = sorted(G.nodes, key=_node_key)
    H = permute_graph(G, {v: i for i, v in enumerate(order)})
    names = tuple(str(v) for v in order)
    if names != tuple(str(i) for i in range(len(order))):
        H.graph[NODE_NAMES] = names
    if name:
        H.graph["name"] = name
    return H
