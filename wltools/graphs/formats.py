"""Graph file formats: graph6 / sparse6 (McKay's ``formats.txt``; large sparse6 bodies through
:mod:`wltools.graphs.sparse6`), edge lists, GraphML and node-link JSON, read by networkx's readers
whose exceptions become one-line :class:`~wltools.errors.GraphFormatError` messages naming the
input; every graph read is validated (:func:`wltools.graphs.validation.validate_graph`).

Split from :mod:`wltools.graphs`, which re-exports every public name.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx

from wltools.errors import GraphFormatError, UnsupportedGraphError
from wltools.graphs.validation import count_text, one_line, require_load, show_spec, validate_graph

__all__ = ["FORMATS", "parse_graph6", "load_graphs"]

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
GRAPH6_HEADERS = (b">>graph6<<", b">>sparse6<<", b">>digraph6<<")

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


def graph6_order(body: bytes, kind: str, label: str) -> tuple[int, bytes]:
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
    n, rest = graph6_order(raw[1:] if kind == "sparse6" else raw, kind, label)
    if kind == "graph6":
        bits = n * (n - 1) // 2
        need = (bits + 5) // 6
        if len(rest) != need:
            raise GraphFormatError(
                f"malformed graph6 {label}: the header says {count_text(n, 'nodes')}, whose adjacency "
                f"takes {count_text(need, 'bytes')}, but {count_text(len(rest), 'follow')}"
            )
        m = min(bits, 6 * len(rest))
    else:
        k = max(1, (n - 1).bit_length())  # bits per node number
        m = 6 * len(rest) // (k + 1)  # each edge takes at least one (b, x) unit
    require_load(n, m, label, max_memory)




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
        Memory budget in bytes (default: :func:`wltools.runtime.memory.require`'s).

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
                f"malformed graph6 {show_spec(text)}: non-ASCII characters"
            ) from None
    elif isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
    else:
        raise GraphFormatError(f"graph6 must be str or bytes, got {type(text).__name__}")
    label = name or show_spec(raw.strip())
    raw = raw.strip()
    for header in GRAPH6_HEADERS:
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
    if kind == "sparse6" and len(raw) > FAST_SPARSE6_BYTES:
        G = _simple_from_sparse6(raw, label)
        if G is not None:
            return G
    try:
        G = nx.from_sparse6_bytes(raw) if kind == "sparse6" else nx.from_graph6_bytes(raw)
    except _READ_ERRORS as exc:
        raise GraphFormatError(f"malformed {kind} {label}: {one_line(exc)}") from None
    return validate_graph(G, name=label)


#: sparse6 bodies longer than this are decoded by :func:`wltools.graphs.sparse6.decode_sparse6`
#: (networkx's decoder takes seconds at 10^5 nodes); shorter ones, and every body that is not a
#: clean simple graph, go through networkx and its messages.
FAST_SPARSE6_BYTES = 4096


def _simple_from_sparse6(raw: bytes, label: str) -> nx.Graph | None:
    """The validated graph of a well-formed sparse6 body of a simple graph with at least one node,
    built directly on ``0..n-1`` with its edges sorted (what :func:`validate_graph` returns for
    it); None for anything else (malformed, self-loops, repeated edges), left to networkx."""
    import numpy as np

    from .sparse6 import decode_sparse6

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


def is_graph6_text(s: str) -> bool:
    """Whether ``s`` consists of graph6 / sparse6 / digraph6 characters only (no decoding)."""
    body = s
    for header in GRAPH6_HEADERS:
        h = header.decode()
        if body.startswith(h):
            body = body[len(h) :]
            break
    if body[:1] in (":", "&"):
        body = body[1:]
    return bool(body) and all(63 <= ord(c) <= 126 for c in body)




def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise GraphFormatError(f"no such file: {str(path)!r}") from None
    except IsADirectoryError:
        raise GraphFormatError(f"{str(path)!r} is a directory, not a graph file") from None
    except OSError as exc:
        raise GraphFormatError(f"cannot read {str(path)!r}: {one_line(exc)}") from None


def _sniff(data: bytes) -> str:
    """Guess a file's format from its content (used when the suffix says nothing)."""
    text = data.lstrip()
    if text.startswith(b"<"):
        return "graphml"
    if text.startswith((b"{", b"[")):
        return "json"
    first = text.splitlines()[0].strip()
    if first.startswith(GRAPH6_HEADERS) or is_graph6_text(first.decode("latin-1")):
        return "graph6"
    return "edgelist"


def _read_graph6_lines(data: bytes, where: str, max_memory: int | None = None) -> list[nx.Graph]:
    graphs = []
    for lineno, line in enumerate(data.splitlines(), start=1):
        if not line.strip() or line.strip() in GRAPH6_HEADERS:
            continue
        graphs.append(parse_graph6(line, name=f"{where} line {lineno}", max_memory=max_memory))
    return graphs


def _read_graphml(path: Path, where: str, node_attr: str | None = None, edge_attr: str | None = None) -> nx.Graph:
    try:
        G = nx.read_graphml(path)
    except _READ_ERRORS as exc:
        raise GraphFormatError(f"malformed GraphML in {where}: {one_line(exc)}") from None
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


def _require_member(items: list, attr: str | None, kind: str, structural: tuple, where: str) -> None:
    """One line when ``attr`` is asked for and no node (edge) object has it, naming the members they
    do have (up to ten; the structural ``id`` / ``source`` / ``target`` left out)."""
    if attr is None or any(attr in item for item in items):
        return
    names = sorted({str(k) for item in items for k in item if k not in structural})
    shown = ", ".join(n if len(n) <= 40 else n[:40] + "..." for n in names[:10]) + (
        f", ... ({len(names)} in all)" if len(names) > 10 else "")
    have = f" ({kind} attributes: {shown})" if names else f" (its {kind}s have no attributes)"
    raise GraphFormatError(f"{where}: no {kind} has attribute {attr!r}{have}")


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
        raise GraphFormatError(f"malformed JSON in {where}: {one_line(exc)}") from None
    except RecursionError:  # [[[[...]]]] nested deeper than the parser's recursion limit
        raise GraphFormatError(f"malformed JSON in {where}: nested too deeply to read (over the recursion "
                               "limit of the JSON parser)") from None
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
    require_load(len(nodes), len(edges), where, max_memory)
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
    _require_member(nodes, node_attr, "node", ("id",), where)
    _require_member(edges, edge_attr, "edge", ("source", "target", "key"), where)
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


#: What separates the two ends of an edge-list line: whitespace, commas or semicolons (``0 1``,
#: ``0,1``, ``0;1``, ``0, 1``), so a CSV edge list is read as edges, never as isolated nodes.
_EDGE_SEPARATORS = re.compile(r"[\s,;]+")


def _edgelist_tokens(lines: list[str], where: str) -> list[list[str]]:
    """The tokens of each line (comments cut at ``#``, split at :data:`_EDGE_SEPARATORS`). Node
    names that mix integers and other text are refused with the first line holding text: a header
    such as ``source,target`` would otherwise become an edge."""
    rows = [[t for t in _EDGE_SEPARATORS.split(line.split("#", 1)[0]) if t] for line in lines]
    wide = next(((i, row) for i, row in enumerate(rows, start=1) if len(row) > 2 and all(map(_is_int, row[2:]))), None)
    if wide is not None:  # "0 1 2": an adjacency list (0-1, 0-2) or an integer weight? read as either, a guess
        i, row = wide
        raise GraphFormatError(f"edge list {where}, line {i}: {' '.join(row[:4])}{' ...' if len(row) > 4 else ''} "
                               "has integers after the edge's two ends (an adjacency list, or integer weights?); "
                               "write one edge 'u v' per line (a weight column of decimals such as 1.0 is ignored)")
    numeric = [_is_int(t) for row in rows for t in row[:2]]
    if any(numeric) and not all(numeric):
        i, row = next((i, row) for i, row in enumerate(rows, start=1) if not all(_is_int(t) for t in row[:2]))
        raise GraphFormatError(f"edge list {where}, line {i}: {' '.join(row[:2])!r} is not two node numbers while "
                               "other lines are; a header line? start it with # (or name every node with text)")
    return rows


def _is_int(token: str) -> bool:
    try:
        int(token)
    except ValueError:
        return False
    return True


def _read_edgelist(data: bytes, where: str, max_memory: int | None = None) -> nx.Graph:
    """Edge-list lines ``u v`` (ends separated by whitespace, commas or semicolons:
    :data:`_EDGE_SEPARATORS`), ``#`` comments; a one-token line declares an isolated node; further
    columns are ignored (weights such as ``1.0``) unless they are integers, which is refused
    (``0 1 2`` may be an adjacency list as well as an integer weight).
    Parsed by ``networkx.parse_edgelist`` into a MultiGraph, so a repeated edge is reported
    instead of silently merged, as in every other format (:func:`validate_graph`)."""
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise GraphFormatError(f"{where}: not a text file ({one_line(exc)})") from None
    rows = _edgelist_tokens(lines, where)
    isolated = [row[0] for row in rows if len(row) == 1]
    m = sum(len(row) > 1 for row in rows)
    require_load(2 * m + len(isolated), m, where, max_memory)
    try:
        G = nx.parse_edgelist((" ".join(row[:2]) for row in rows if len(row) > 1), create_using=nx.MultiGraph,
                              data=False)
    except _READ_ERRORS as exc:
        raise GraphFormatError(f"malformed edge list in {where}: {one_line(exc)}") from None
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
        (:mod:`wltools.graphs.labels`); other formats carry no attributes.

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


def is_file(path: Path) -> bool:
    """``path.is_file()`` that answers False instead of raising (name too long, bad bytes)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def single_from_file(path: Path, max_memory: int | None = None, **attrs) -> nx.Graph:
    graphs = load_graphs(path, max_memory=max_memory, **attrs)
    if len(graphs) != 1:
        raise GraphFormatError(
            f"{str(path)!r} holds {len(graphs)} graphs; select one as {path}:INDEX (0-based)"
        )
    G = graphs[0]
    G.graph["name"] = str(path)
    return G
