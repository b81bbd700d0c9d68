"""Graph specifications: ``load_graph(spec)`` turns a file, a name, a union or a graph6 string into
a validated graph. This is the front of the graph layer; its parts live in

* :mod:`wltools.graphs.validation` -- the invariant (:func:`check_simple`), validation
  (:func:`validate_graph`), relabelling (:func:`permute_graph`, :func:`relabel_consecutive`) and
  sizes (:func:`load_bytes`);
* :mod:`wltools.graphs.formats` -- graph6 / sparse6, edge lists, GraphML, node-link JSON
  (:func:`parse_graph6`, :func:`load_graphs`);
* :mod:`wltools.graphs.named` -- the named graphs (:data:`NAMED_GRAPHS`, :func:`named_graph`);

and every public name of those is importable from here as before.

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
   Edge lists: one ``u v`` per line (separated by whitespace, commas or semicolons; further
   columns ignored unless they are integers, refused: ``0 1 2`` may be an adjacency list), ``#`` comments, a line with one
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
``max_memory`` (:func:`wltools.runtime.memory.require`; default a share of the free memory), raising
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

import os
import re
from pathlib import Path

import networkx as nx

from wltools.errors import GraphFormatError, UnknownNameError, WLToolsError
from wltools.graphs.inputs import from_pyg, from_smiles
from wltools.graphs.labels import EDGE_LABEL, NODE_LABEL, has_attribute
from wltools.runtime.collector import paused
from wltools.runtime.memory import require
from wltools.graphs.validation import (  # noqa: F401 - the public names re-exported
    count_text,
    show_spec,
    check_simple,
    edge_count,
    load_bytes,
    permute_graph,
    relabel_consecutive,
    validate_graph,
)
from wltools.graphs.named import NAMED_GRAPHS, NamedGraph, is_named, known_names, named_size, named_graph  # noqa: F401
from wltools.graphs.formats import (  # noqa: F401 - FORMATS, load_graphs, parse_graph6 re-exported
    GRAPH6_HEADERS,
    FORMATS,
    graph6_order,
    is_dir,
    is_file,
    is_graph6_text,
    single_from_file,
    load_graphs,
    parse_graph6,
)


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
    "edge_count",
]

_NAME_RE = re.compile(r"[a-z][a-z0-9_\-]*(?::\S*)?")
_INDEX_RE = re.compile(r"(.+):(\d+)")




def _spec_size(spec: str) -> tuple[int, int] | None:
    """``(n, m)`` of a named graph, ``(n, upper bound of m)`` of a graph6 / sparse6 string, known
    without building it; None for anything else (files are checked as they are read)."""
    try:
        if is_named(spec):
            family, size = named_size(spec)
            if size is None:
                return None
            return size, (family.edges(size) if family.edges is not None else size)
        if is_graph6_text(spec):
            raw = spec.encode("ascii")
            for header in GRAPH6_HEADERS:
                raw = raw[len(header) :] if raw.startswith(header) else raw
            if raw[:1] == b":":
                n, rest = graph6_order(raw[1:], "sparse6", "")
                return n, 6 * len(rest) // (max(1, (n - 1).bit_length()) + 1)
            n, rest = graph6_order(raw, "graph6", "")
            return n, min(n * (n - 1) // 2, 6 * len(rest))
    except (WLToolsError, UnicodeEncodeError):
        return None
    return None


@paused()  # a large graph reads in 2/3 of the time without the collector's passes
def load_graph(spec: str | os.PathLike, *, max_memory: int | None = None, node_attr: str | None = None,
               edge_attr: str | None = None, stereo: bool = False) -> nx.Graph:
    """Load one graph from a file path, a ``+`` union, a name, ``FILE:INDEX``, or graph6/sparse6.

    The resolution order is given in the module docstring (an existing file wins, then a union,
    then a known name, then ``FILE:INDEX``, then graph6 / sparse6). Before all of them,
    ``smiles:SMILES`` is a molecule read by RDKit (:func:`wltools.graphs.inputs.from_smiles`;
    the whole rest of the text is the SMILES, ``+`` included), labelled by atoms and bonds; a PyG
    ``Data`` object is converted by :func:`wltools.graphs.inputs.from_pyg` (``x`` and
    ``edge_attr`` rows as labels); a networkx graph is validated and relabelled (``node_attr`` /
    ``edge_attr`` name its label attributes).

    Parameters
    ----------
    spec : str, PathLike, networkx.Graph or torch_geometric.data.Data
        The specification.
    max_memory : int, optional
        Memory budget in bytes (default: a share of the free memory,
        :func:`wltools.runtime.memory.require`).
    node_attr, edge_attr : str, optional
        GraphML / node-link JSON attribute that becomes the node (edge) label
        (:mod:`wltools.graphs.labels`); in a union, of every part. Ignored by ``smiles:``, which
        always carries its atom and bond labels.
    stereo : bool
        ``smiles:`` only: add CIP stereo descriptors (R/S, E/Z) to the atom and bond labels
        (:func:`wltools.graphs.inputs.from_smiles`); ignored by every other specification.

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
        return single_from_file(Path(spec), max_memory, **attrs)
    if hasattr(spec, "edge_index") and hasattr(spec, "num_nodes"):  # a PyG Data: x, edge_attr as labels
        return from_pyg(spec)
    if isinstance(spec, nx.Graph):  # a networkx graph: validated and relabelled, as a file's would be
        return validate_graph(spec, name=spec.graph.get("name") or "networkx graph", node_attr=node_attr,
                              edge_attr=edge_attr)
    if not isinstance(spec, str):
        raise GraphFormatError(f"graph specification must be a string, got {type(spec).__name__}")
    s = spec.strip()
    if not s:
        raise GraphFormatError("empty graph specification")
    if s.startswith("smiles:"):
        return from_smiles(s[len("smiles:"):], name=s, stereo=stereo, max_memory=max_memory)
    path = Path(s)
    if is_file(path):
        return single_from_file(path, max_memory, **attrs)
    if is_dir(path):
        raise GraphFormatError(f"{s!r} is a directory, not a graph file")
    if "+" in s:
        return _load_union(s, max_memory, attrs)
    if is_named(s):
        return _no_attributes(named_graph(s, max_memory=max_memory), s, **attrs)
    if s.startswith("hom:"):  # a homomorphism-counting task's pattern (Zhang et al.), e.g. hom:boat
        from wltools.counting.tasks import parse_task

        return _no_attributes(validate_graph(parse_task(s).pattern, name=s), s, **attrs)
    m = _INDEX_RE.fullmatch(s)
    if m and is_file(Path(m.group(1))):
        graphs = load_graphs(m.group(1), max_memory=max_memory, **attrs)
        index = int(m.group(2))
        if index >= len(graphs):
            raise GraphFormatError(
                f"{m.group(1)!r} holds {len(graphs)} graphs; index {index} is out of range (0..{len(graphs) - 1})"
            )
        G = graphs[index]
        G.graph["name"] = s
        return G
    bad_index = re.fullmatch(r"(.+):(\S+)", s)
    if bad_index and is_file(Path(bad_index.group(1))):  # FILE:-1, FILE:x: the file exists, the index is no index
        raise GraphFormatError(f"{s!r}: {bad_index.group(2)!r} is not a graph index of {bad_index.group(1)!r}; "
                               "indices are 0-based numbers (FILE:0 is its first graph)")
    problem = f"{show_spec(s)} is not an existing file, a known graph name, or valid graph6/sparse6"
    if is_graph6_text(s):
        try:
            G = parse_graph6(s, max_memory=max_memory)
        except GraphFormatError as exc:
            if _NAME_RE.fullmatch(s):
                raise UnknownNameError(f"{problem} (known names: {known_names()})") from None
            raise GraphFormatError(f"{exc} (nor is it an existing file or a known name)") from None
        G.graph["name"] = s
        return _no_attributes(G, s, **attrs)
    if _NAME_RE.fullmatch(s):
        raise UnknownNameError(f"{problem} (known names: {known_names()})")
    if os.sep in s or "/" in s or path.suffix:
        raise GraphFormatError(f"no such file: {s!r}")
    raise GraphFormatError(problem)


def _load_union(s: str, max_memory: int | None, attrs: dict) -> nx.Graph:
    """The disjoint union ``A+B+...`` of :func:`load_graph` (module docstring, rule 2)."""
    parts = [p.strip() for p in s.split("+")]
    if not all(parts):
        raise GraphFormatError(f"graph union {show_spec(s)}: empty part")
    sizes = [_spec_size(p) for p in parts]
    known = [z for z in sizes if z is not None]
    if known:  # parts, union and its relabelled copy: about three times the parts
        n, m = sum(z[0] for z in known), sum(z[1] for z in known)
        require(3 * load_bytes(n, m), f"the graph union {show_spec(s)} ({count_text(n, 'nodes')}, up to "
                f"{count_text(m, 'edges')})", max_memory=max_memory)
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
        raise GraphFormatError(f"{show_spec(spec)}: named graphs and graph6 strings carry no node or edge "
                               "attributes; labels (node_attr / edge_attr) need GraphML or node-link JSON")
    return G
