"""Graph isomorphism through canonical labelling: nauty (pynauty) for small graphs, bliss (igraph)
and Traces (nauty's dreadnaut) for large ones.

Colour refinement answers "does test X tell G and H apart?"; this module answers the different
question "are G and H the same graph?", so that "not distinguished" and "isomorphic" are never
confused. Two graphs are isomorphic iff their canonical forms coincide (McKay & Piperno,
"Practical graph isomorphism, II", J. Symb. Comput. 2014).

Three canonical labellers, chosen by the order ``n`` alone (so two graphs that may be isomorphic
always get the same one on one machine):

* ``n <= NAUTY_MAX_NODES`` (256; every BREC graph): **nauty** through pynauty, on a dense
  adjacency matrix. Its certificate is the packed adjacency matrix of the canonical form, as
  ``pynauty.certificate`` returns it.
* ``n > TRACES_MIN_NODES`` (1,000) where nauty's ``dreadnaut`` program is installed
  (``pip install -e ".[traces]"``, :mod:`wltools.iso.traces`): **Traces** (McKay & Piperno
  2014, Sec. 6), on the sparse graph; memory ``O(n + m)``. A random 3-regular graph of 30,000
  nodes: Traces 0.6 s, bliss 22 s; of 100,000 nodes: about 6 s against about 100 s
  (``benchmarks/results/iso_scale.json``). Its certificate is ``b"traces"`` and the sorted
  canonical edges.
* the others: **bliss** (Junttila & Kaski, "Engineering an efficient canonical labeling tool
  for large and sparse graphs", ALENEX 2007) through python-igraph's ``canonical_permutation``,
  on the sparse graph: memory ``O(n + m)`` instead of nauty's ``O(n^2)``, and on sparse graphs
  far faster (a random 3-regular graph of 2,000 nodes: nauty 10 to 27 s, bliss 0.03 to 0.09 s);
  between 257 and 1,000 nodes it is as fast as Traces without starting a process. Its
  certificate is the sorted edge list of the canonical form. A graph with more than half of
  all possible edges is labelled through its complement (the same automorphisms; bliss takes
  about 10 s on K_1000 itself).

The three are cross-checked on every graph family the tests use (``tests/wltools/test_iso.py``):
the same partition into isomorphism classes. Certificates of different labellers never compare
equal (:meth:`CanonicalForm.isomorphic` refuses to compare them).

Each labelling is computed once per graph (:func:`canonical_form`); the certificate, the digest,
the canonical order and graph6 all come from that one :class:`CanonicalForm`. Graphs above
:data:`MAX_NODES` are refused with :class:`~wltools.errors.ResourceLimitError`. pynauty itself is
never given more than :data:`PYNAUTY_MAX_NODES` nodes: pynauty 2.8.8.1 allocates the canonical
matrix with ``no_setwords * no_vertices * WORDSIZE`` computed in a C ``int`` (``nautywrap.c``,
``extend_canonical``), which overflows from 46,341 nodes on and, for some orders (e.g. 70,000 or
100,000), makes nauty write past the allocation: the segmentation fault of ``wltools iso`` on
100,000 nodes.

Labelled graphs (:mod:`wltools.graphs.labels`: node / edge attribute ``"label"``) are isomorphic iff a
bijection preserves adjacency, node labels and edge labels. Node labels are vertex colours, given
to both labellers natively (nauty's ordered partition, bliss's vertex colours), the colour classes
ordered by :func:`wltools.graphs.labels.label_key`. Edge labels enter by the standard subdivision
reduction: each edge ``uv`` becomes a new vertex adjacent to ``u`` and ``v``, coloured by the
edge's label in colour classes after all node classes, so the colour-preserving isomorphisms of the
subdivided graphs are exactly the label-preserving isomorphisms of the graphs (subdivision
vertices have degree 2 and their own colours, so they map onto subdivision vertices). The nauty
and Traces User's Guide (Sec. 14) gives a layered construction with fewer vertices for many edge
colours; it is not used here. The
labeller is chosen by the order of the graph that is labelled (``n + m`` with edge labels). A
labelled certificate starts with ``b"labelled"`` and holds the label of every colour class
(:func:`wltools.graphs.labels.label_bytes`) and the colour at every canonical position, so it never
equals an unlabelled one; unlabelled graphs take exactly the unlabelled path.

pynauty is GPL-3 (its package metadata), so wltools is GPL-3.0-or-later.

Examples
--------
>>> import networkx as nx
>>> is_isomorphic(nx.cycle_graph(6), nx.relabel_nodes(nx.cycle_graph(6), {0: 3, 3: 0}))
True
>>> is_isomorphic(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
False
>>> canonical_form(nx.cycle_graph(300)).method
'bliss'
"""

from __future__ import annotations

import hashlib
from itertools import chain
from dataclasses import dataclass, field

import networkx as nx

from wltools.errors import ResourceLimitError, UnknownNameError
from wltools.runtime.collector import paused

from wltools.iso import traces
from wltools.graphs import validate_graph
from wltools.graphs.labels import (EDGE_LABEL, NODE_LABEL, edge_labels, has_attribute, label_bytes, label_key, node_labels,
                            pair_labels)

__all__ = [
    "METHODS",
    "NAUTY_MAX_NODES",
    "TRACES_MIN_NODES",
    "PYNAUTY_MAX_NODES",
    "MAX_NODES",
    "CanonicalForm",
    "canonical_form",
    "choose_method",
    "labeller",
    "peak_bytes",
    "certificate",
    "certificate_digest",
    "canonical_labeling",
    "canonical_order",
    "canonical_graph6",
    "is_isomorphic",
    "canonical_forms",
]

#: Canonical labellers: ``"nauty"`` (pynauty), ``"bliss"`` (python-igraph), ``"traces"`` (nauty's
#: dreadnaut, :mod:`wltools.iso.traces`).
METHODS = ("nauty", "bliss", "traces")

#: Graphs up to this order are labelled by nauty, larger ones by bliss (:func:`choose_method`).
#: Every BREC graph (at most 198 nodes) is below it, so the runner's canonical orders are nauty's.
NAUTY_MAX_NODES = 256

#: Graphs above this order are labelled by Traces where dreadnaut is installed: measured on random
#: 3-regular graphs, Traces (process start included) overtakes bliss between 1,000 and 3,000 nodes
#: (0.010 s against 0.029 s at 1,000; 0.09 s against 2.1 s at 10,000), and on grids, trees,
#: cycles, G(n, p) and hypercubes the two stay within a few hundredths of a second up to 30,000.
TRACES_MIN_NODES = 1000

#: The most nodes pynauty 2.8.8.1 is safe with: ``ceil(n / 64) * n * 64 < 2**31`` (module
#: docstring); larger graphs given ``method="nauty"`` are refused.
PYNAUTY_MAX_NODES = 46_340

#: The largest order accepted at all: the size the labellers are measured at (cycles and paths of
#: 100,000 nodes take seconds; a random 3-regular graph of 100,000 nodes about 6 s by Traces, about
#: two minutes by bliss, whose time on such graphs grows about as ``n^2``).
MAX_NODES = 100_000


def choose_method(n: int) -> str:
    """The labeller for graphs of order ``n``: ``"nauty"`` up to :data:`NAUTY_MAX_NODES`,
    ``"traces"`` above :data:`TRACES_MIN_NODES` where dreadnaut is installed, else ``"bliss"``.

    Examples
    --------
    >>> choose_method(198), choose_method(600)
    ('nauty', 'bliss')
    >>> choose_method(2000) == ("traces" if traces.available() else "bliss")
    True
    """
    if n <= NAUTY_MAX_NODES:
        return "nauty"
    return "traces" if n > TRACES_MIN_NODES and traces.available() else "bliss"


def peak_bytes(n: int, m: int, method: str | None = None) -> int:
    """Estimated peak memory (bytes) of :func:`canonical_form` on a graph of ``n`` nodes and ``m``
    edges, beyond the graph itself: the validated copy, and nauty's two ``n x n`` bit matrices
    (pynauty allocates the canonical one eight times too large) or bliss's ``O(n + m)`` structures
    (measured: about 170 bytes per node and edge on a cycle of 10^6 nodes) and the certificate;
    Traces runs in its own process (27 MB for a random 3-regular graph of 100,000 nodes), counted
    in the same ``O(n + m)`` term.

    Examples
    --------
    >>> peak_bytes(100, 300) < 2**20
    True
    >>> peak_bytes(100_000, 150_000) < 2**30
    True
    """
    method = method or choose_method(n)
    copy = 800 * n + 700 * m  # the validated copy (wltools.graphs.load_bytes)
    if method == "nauty":
        words = (n + 63) // 64
        return 64 * 1024 + copy + words * n * (8 + 64) + 66 * words * 8
    dense = n * n + 16 * (n * (n - 1) // 2 - m) if method != "nauty" and _dense(n, m) else 0
    return 64 * 1024 + copy + 400 * (n + m) + 64 * m + dense


def _validated(G: nx.Graph) -> nx.Graph:
    """:func:`~wltools.graphs.validate_graph` of ``G``, named by its ``graph["name"]``, keeping its
    labels (node / edge attribute ``"label"``); ``G`` itself when it is an unlabelled
    :func:`_plain` graph, which the copy would only reorder (no copy: it took two fifths of the
    time of a nauty form of a BREC graph)."""
    if not isinstance(G, nx.Graph):
        return validate_graph(G)
    attrs = {"node_attr": NODE_LABEL if has_attribute(G, NODE_LABEL, "node") else None,
             "edge_attr": EDGE_LABEL if has_attribute(G, EDGE_LABEL, "edge") else None}
    if attrs == {"node_attr": None, "edge_attr": None} and _plain(G):
        return G
    return validate_graph(G, name=G.graph.get("name"), **attrs)


def _plain(G: nx.Graph) -> bool:
    """Whether ``G`` is an undirected simple graph (not a multigraph) on the ``int`` nodes
    ``0..n-1``, ``n >= 1``: then :func:`~wltools.graphs.validate_graph` maps node ``v`` to ``v``
    and its copy differs from ``G`` in node and edge order and in attributes other than the
    labels only. The labellers do not see the order: nauty is given sorted neighbour lists, bliss
    gives the same labelling for any edge order (tested: every field of the forms of ``G`` and of
    its copy the same, ``tests/wltools/test_iso.py``), and the certificates are built from sorted
    edges; Traces's labelling varies from run to run anyway (by an automorphism), its certificate
    does not."""
    n = G.number_of_nodes()
    if n == 0 or G.is_directed() or G.is_multigraph() or not all(type(v) is int for v in G):
        return False
    if min(G) != 0 or max(G) != n - 1:  # n distinct ints in 0..n-1: exactly those
        return False
    adj = dict(G.adjacency())
    return not any(map(dict.__contains__, adj.values(), adj))  # no self-loop


@dataclass(frozen=True, eq=False)
class CanonicalForm:
    """One graph's canonical labelling and what follows from it.

    Attributes
    ----------
    method : {"nauty", "bliss"}
        The labeller that computed it.
    n, m : int
        Order and size.
    order : tuple of int
        ``order[v]`` is the position of node ``v`` in the canonical form (the inverse of
        :func:`canonical_labeling`).
    edges : tuple of (int, int)
        Edges ``(i, j)``, ``i < j``, of the canonical form, sorted.
    certificate : bytes
        Equal for two graphs iff they are isomorphic (for forms of the same method; the method
        follows from ``n``): ``n`` as 8 big-endian bytes, then nauty's packed canonical adjacency
        matrix (``pynauty.certificate``), or ``b"bliss"`` and the sorted canonical edges as
        little-endian 32-bit integers.
    degrees : tuple of int
        The sorted degree sequence (a cheap necessary condition for isomorphism).
    node_labels, edge_labels : tuple or None
        Of a labelled graph: the label at each canonical position, and of each edge of ``edges``
        (None when the graph has no such labels).
    """

    method: str
    n: int
    m: int
    order: tuple[int, ...] = field(repr=False)
    edges: tuple[tuple[int, int], ...] = field(repr=False)
    certificate: bytes = field(repr=False)
    degrees: tuple[int, ...] = field(repr=False)
    node_labels: tuple | None = field(default=None, repr=False)
    edge_labels: tuple | None = field(default=None, repr=False)

    @property
    def labelled(self) -> bool:
        """Whether this is the form of a labelled graph (its :meth:`graph6` then drops the labels)."""
        return self.certificate.startswith(b"labelled")

    def digest(self, length: int = 12) -> str:
        """Short hex digest (SHA-256 prefix) of the certificate, for printing."""
        return hashlib.sha256(self.certificate).hexdigest()[:length]

    def isomorphic(self, other: "CanonicalForm") -> bool:
        """Whether the two graphs are isomorphic: different orders, sizes or degree sequences
        answer False; otherwise the certificates decide (forms of one method only)."""
        if (self.n, self.m, self.degrees) != (other.n, other.m, other.degrees):
            return False
        if self.method != other.method:
            raise ValueError(f"cannot compare a {self.method} form with a {other.method} form")
        return self.certificate == other.certificate

    def graph(self) -> nx.Graph:
        """The canonical form as a graph on ``0..n-1`` (with its labels, if labelled)."""
        C = nx.Graph()
        C.add_nodes_from(range(self.n))
        C.add_edges_from(self.edges)
        if self.node_labels is not None:
            nx.set_node_attributes(C, dict(enumerate(self.node_labels)), NODE_LABEL)
        if self.edge_labels is not None:
            nx.set_edge_attributes(C, dict(zip(self.edges, self.edge_labels)), EDGE_LABEL)
        return C

    def graph6(self) -> str:
        """graph6 string of the canonical form (``n^2 / 12`` characters; without labels)."""
        C = self.graph()
        return nx.to_graph6_bytes(C, nodes=range(self.n), header=False).decode().strip()


def _nauty_matrix(n: int, edges) -> bytes:
    """``pynauty.certificate``'s bytes for the canonical graph with these edges (an ``(m, 2)``
    array or pairs): row ``i`` holds ``ceil(n / 64)`` setwords, node ``j`` is bit ``63 - j % 64``
    of word ``j // 64``, each word in the machine's byte order (nauty's ``set`` layout, nauty.h),
    which a native ``uint64`` array has."""
    import numpy as np

    words = (n + 63) // 64
    rows = np.zeros((n, words), dtype=np.uint64)
    E = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if len(E):
        i, j = np.concatenate([E[:, 0], E[:, 1]]), np.concatenate([E[:, 1], E[:, 0]])
        bits = np.left_shift(np.uint64(1), (63 - j % 64).astype(np.uint64))
        np.bitwise_or.at(rows, (i, j // 64), bits)
    return rows.tobytes()


def _nauty_order(G: nx.Graph, cells: list | None = None) -> tuple[int, ...]:
    """nauty's canonical order of ``G``; ``cells``: an ordered partition of the nodes (sets)."""
    import pynauty

    n = G.number_of_nodes()
    g = pynauty.Graph(n, directed=False, adjacency_dict={v: sorted(G.adj[v]) for v in range(n)},
                      vertex_coloring=cells or [])
    lab = pynauty.canon_label(g)  # lab[i]: the node at position i
    order = [0] * n
    for i, v in enumerate(lab):
        order[v] = i
    return tuple(order)


def _bliss_order(G: nx.Graph, colour: list | None = None) -> tuple[int, ...]:
    """bliss's canonical order of ``G``; ``colour[v]``: the colour (int) of node ``v``."""
    try:
        import igraph
    except ImportError:  # pragma: no cover - python-igraph is a dependency
        raise ResourceLimitError(
            f"graphs of more than {NAUTY_MAX_NODES} nodes need python-igraph (bliss): "
            "pip install python-igraph"
        ) from None
    n, m = G.number_of_nodes(), G.number_of_edges()
    edges = _edge_array(G)
    if _dense(n, m) and colour is None:  # label the complement: the same automorphisms, far fewer edges
        edges = _complement(n, edges)
    g = igraph.Graph(n=n, edges=edges)
    lab = g.canonical_permutation(sh="fl", color=colour)  # lab[i]: the node at position i (tested)
    order = [0] * n
    for i, v in enumerate(lab):
        order[v] = i
    return tuple(order)


def _complement(n: int, edges):
    """The edges ``(i, j)``, ``i < j``, of the complement of the graph with these edges."""
    import numpy as np

    A = np.zeros((n, n), dtype=bool)
    A[edges[:, 0], edges[:, 1]] = True
    A |= A.T
    A[np.triu_indices(n)] = True  # keep i < j only
    return np.argwhere(~A)


def _dense(n: int, m: int) -> bool:
    """Whether bliss and Traces label the complement: more than half of the ``n (n - 1) / 2``
    possible edges (bliss takes minutes on K_1000 itself, milliseconds on its complement)."""
    return 4 * m > n * (n - 1)


@paused()  # many new tuples: no full collector passes over the graph (wltools.runtime.collector)
def canonical_form(G: nx.Graph, method: str | None = None) -> CanonicalForm:
    """The canonical labelling of ``G`` and its certificate, computed once.

    Parameters
    ----------
    G : nx.Graph
        Undirected simple graph with at least one node (validated and relabelled onto
        ``0..n-1`` as by :func:`wltools.graphs.validate_graph`).
    method : {"nauty", "bliss"}, optional
        Default :func:`choose_method` of ``n``. Certificates of different methods never compare
        equal.

    Raises
    ------
    UnsupportedGraphError
        Directed graph, self-loop, multi-edge, no nodes.
    ResourceLimitError
        More than :data:`MAX_NODES` nodes, or more than :data:`PYNAUTY_MAX_NODES` with nauty.

    Examples
    --------
    >>> import networkx as nx
    >>> f = canonical_form(nx.path_graph(3))
    >>> f.method, f.n, f.m, f.edges
    ('nauty', 3, 2, ((0, 2), (1, 2)))
    >>> f.isomorphic(canonical_form(nx.star_graph(2)))
    True
    """
    return _form(_validated(G), method)


def labeller(G: nx.Graph) -> str:
    """The labeller :func:`canonical_form` uses for ``G``: :func:`choose_method` of the order of
    the graph it labels (``n + m`` when edge labels subdivide the edges).

    Examples
    --------
    >>> import networkx as nx
    >>> labeller(nx.path_graph(5))
    'nauty'
    """
    n, m = G.number_of_nodes(), G.number_of_edges()
    return choose_method(n + m if edge_labels(G) is not None else n)


def _form(G: nx.Graph, method: str | None) -> CanonicalForm:
    """:func:`canonical_form` of a graph already validated onto ``0..n-1``."""
    return _Labelling(G, method).form()


def _edge_array(G: nx.Graph):
    """The edges of ``G`` (nodes ``0..n-1``) as an ``(m, 2)`` int64 array, ``u < v`` in each row;
    from the adjacency in one pass (iterating ``G.edges()`` takes 0.5 s on 150,000 edges). A dict,
    not a list of the adjacency's pairs: 100,000 tuples kept alive set off the garbage collector's
    full passes over the graph (0.3 s)."""
    import numpy as np

    adj = dict(G.adjacency())
    deg = np.fromiter(map(len, adj.values()), dtype=np.int64, count=len(adj))
    src = np.repeat(np.fromiter(adj, dtype=np.int64, count=len(adj)), deg)
    dst = np.fromiter(chain.from_iterable(adj.values()), dtype=np.int64, count=int(deg.sum()))
    keep = src < dst
    return np.stack([src[keep], dst[keep]], axis=1)


def _canonical_array(E, order):
    """The edges ``E`` (:func:`_edge_array`) renamed by ``order`` (node ``v`` to ``order[v]``),
    each row ``(i, j)`` with ``i < j``, the rows sorted: an ``(m, 2)`` int64 array."""
    import numpy as np

    P = np.sort(np.asarray(order, dtype=np.int64)[E], axis=1)
    return P[np.lexsort((P[:, 1], P[:, 0]))]


def _canonical_edges(E, order) -> list[tuple[int, int]]:
    """:func:`_canonical_array` as a list of ``(i, j)`` tuples."""
    return list(map(tuple, _canonical_array(E, order).tolist()))


class _Labelling:
    """One canonical labelling of a validated graph, started and then finished: Traces runs as a
    process (:mod:`wltools.iso.traces`), so several can run at once (:func:`canonical_forms`);
    nauty and bliss run to the end in :meth:`form`.

    A labelled graph is labelled as its vertex-coloured graph (:func:`_coloured`); ``S`` is the
    graph handed to the labeller, ``colour`` its vertex colours (None when unlabelled)."""

    def __init__(self, G: nx.Graph, method: str | None):
        n, m = G.number_of_nodes(), G.number_of_edges()
        has_edge_labels = edge_labels(G) is not None  # one scan each: 0.1 s on 100,000 nodes
        self.labelled = has_edge_labels or node_labels(G) is not None
        method = method or choose_method(n + m if has_edge_labels else n)  # as labeller(G)
        if method not in METHODS:
            raise UnknownNameError(
                f"unknown canonical labeller {method!r}; choose from {', '.join(METHODS)}"
            )
        if n > MAX_NODES:
            raise ResourceLimitError(
                f"canonical labelling of a graph of {n:,} nodes: above the tested limit of "
                f"{MAX_NODES:,} nodes (the size the labellers are measured at: "
                "benchmarks/results/iso_scale.json)"
            )
        self.G, self.method = G, method
        if self.labelled:
            self.S, self.colour, self.classes = _coloured(G)
        else:
            self.S, self.colour, self.classes = G, None, None
        N = self.S.number_of_nodes()
        self.edges = _edge_array(self.S)
        if method == "nauty" and N > PYNAUTY_MAX_NODES:
            raise ResourceLimitError(
                f"nauty (pynauty) on {N:,} nodes{' (a labelled graph subdivided)' if self.labelled else ''}: "
                f"pynauty overflows above {PYNAUTY_MAX_NODES:,} nodes; use bliss or traces"
            )
        self._run, self._index = None, 0
        self.size = N + len(self.edges)

    def traces_input(self) -> tuple:
        """``(N, edges, cells)`` for :func:`wltools.iso.traces.start`: the colour classes as cells
        of a labelled graph; the complement's edges of a dense unlabelled one (as bliss)."""
        N = self.S.number_of_nodes()
        cells = None
        if self.colour is not None:
            cells = [[] for _ in self.classes]
            for v, c in enumerate(self.colour):
                cells[c].append(v)
            cells = [c for c in cells if c]
        dense = cells is None and _dense(N, len(self.edges))  # as bliss: label the complement
        return N, _complement(N, self.edges) if dense else self.edges, cells

    def start(self, run=None, index: int = 0) -> None:
        """Start the Traces run, or take the labelling at ``index`` of ``run``
        (:func:`wltools.iso.traces.start_batch`, shared with other labellings)."""
        self._run, self._index = run or traces.start(*self.traces_input()), index

    def close(self) -> None:
        """Stop a Traces run that is not needed any more."""
        if self._run is not None:
            self._run.close()

    def form(self, deadline: float | None = None) -> CanonicalForm | None:
        """The canonical form; None when a Traces run is still going at ``deadline``
        (``time.monotonic``; it is then killed)."""
        S = self.S
        if self.method == "traces":
            if self._run is None:
                self.start()
            labs = self._run.results(deadline)
            if labs is None:
                return None
            lab = labs[self._index]
            import numpy as np

            inverse = np.empty(len(lab), dtype=np.int64)
            inverse[np.asarray(lab, dtype=np.int64)] = np.arange(len(lab))
            order = tuple(inverse.tolist())
        elif self.method == "nauty":
            cells = None
            if self.colour is not None:
                cells = [set() for _ in self.classes]
                for v, c in enumerate(self.colour):
                    cells[c].add(v)
            order = _nauty_order(S, cells)
        else:
            order = _bliss_order(S, self.colour)
        return self._labelled_form(order) if self.labelled else self._plain_form(order)

    def _plain_form(self, order) -> CanonicalForm:
        G, method = self.G, self.method
        n, m = G.number_of_nodes(), G.number_of_edges()
        P = _canonical_array(self.edges, order)  # unlabelled: S is G
        if method == "nauty":
            cert = n.to_bytes(8, "big") + _nauty_matrix(n, P)
        else:
            cert = n.to_bytes(8, "big") + method.encode() + P.astype("<u4").tobytes()
        degrees = tuple(sorted(d for _, d in G.degree()))
        return CanonicalForm(method, n, m, order, tuple(map(tuple, P.tolist())), cert, degrees)

    def _labelled_form(self, order) -> CanonicalForm:
        """The form of a labelled graph (module docstring)."""
        G, S, colour, classes, method = self.G, self.S, self.colour, self.classes, self.method
        n, m = G.number_of_nodes(), G.number_of_edges()
        N = S.number_of_nodes()
        s_edges = _canonical_edges(self.edges, order)
        by_position = [0] * N
        for v in range(N):
            by_position[order[v]] = colour[v]
        head = b"labelled" + n.to_bytes(8, "big") + m.to_bytes(8, "big") + method.encode()
        table = b"|".join(kind + label_bytes(x) for kind, x in classes)
        body = bytes(str(by_position), "ascii") + (
            _nauty_matrix(N, s_edges) if method == "nauty" else str(s_edges).encode())
        cert = head + len(table).to_bytes(8, "big") + table + len(body).to_bytes(8, "big") + body
        node_order = _node_positions(order, n)
        edges = _canonical_edges(_edge_array(G), node_order)
        nl, el = node_labels(G), edge_labels(G)
        inv = {p: v for v, p in enumerate(node_order)}
        return CanonicalForm(
            method, n, m, node_order, tuple(edges), cert, tuple(sorted(d for _, d in G.degree())),
            None if nl is None else tuple(nl[inv[i]] for i in range(n)),
            None if el is None else tuple(G.edges[inv[a], inv[b]][EDGE_LABEL] for a, b in edges),
        )


#: Traces labellings of graphs of at most :data:`TRACES_MIN_NODES` nodes and edges together (as
#: labelled), which only ``method="traces"`` gives Traces, share one dreadnaut process up to this
#: size in all (:func:`canonical_forms`): a process costs 2 to 9 ms to start, more than Traces
#: takes on such graphs (2,180 BREC and suite graphs: 27 s of wall time one process each, 5 s so,
#: loaded 2-core machine). Larger graphs, Traces's own, keep a process each, run at once.
TRACES_BATCH_SIZE = 20_000


@paused()  # many new tuples: no full collector passes over the graph (wltools.runtime.collector)
def canonical_forms(graphs, method: str | None = None, timeout: float | None = None, *,
                    validated: bool = False):
    """The canonical forms of several graphs, or None when they are not all done within
    ``timeout`` seconds. Traces labellings run at the same time, one process each and as many
    as there are cores (two graphs on two cores take the time of one), or, for small graphs, one
    process for consecutive ones up to :data:`TRACES_BATCH_SIZE` in all; nauty
    and bliss ones run here, one after the other, and are not stopped by ``timeout``
    (:func:`wltools.check.canonical_forms` runs them in child processes for that).
    ``validated``: the graphs are already :func:`~wltools.graphs.validate_graph`'s (no copy is
    made; 3 s on 100,000 nodes).

    Examples
    --------
    >>> import networkx as nx
    >>> f, g = canonical_forms([nx.path_graph(3), nx.star_graph(2)])
    >>> f.isomorphic(g)
    True
    """
    import os
    import time
    from collections import deque

    deadline = None if timeout is None else time.monotonic() + timeout
    window = max(2, os.cpu_count() or 1)  # units (Traces processes) running at once
    running: deque = deque()  # units in order: one nauty / bliss labelling, or one process's labellings
    batch: list = []  # Traces labellings of small graphs, not started yet
    forms = []
    try:
        for G in graphs:
            labelling = _Labelling(G if validated else _validated(G), method)
            units = _units(labelling, batch)
            running.extend(units)
            while units and len(running) >= window:
                if not _finish(running.popleft(), deadline, forms):
                    return None
        running.extend(_units(None, batch))
        while running:
            if not _finish(running.popleft(), deadline, forms):
                return None
        return forms
    finally:
        for unit in running:
            for labelling in unit:
                labelling.close()


def _units(labelling, batch: list) -> list[list]:
    """Add ``labelling`` (None: the end) to the open ``batch`` of small Traces labellings, or
    start the batch; the units (lists of labellings, in order) that become ready to run."""
    small = labelling is not None and labelling.method == "traces" and labelling.size <= TRACES_MIN_NODES
    units = []
    if batch and (not small or sum(x.size for x in batch) + labelling.size > TRACES_BATCH_SIZE):
        run = traces.start_batch([x.traces_input() for x in batch]) if len(batch) > 1 else None
        for i, x in enumerate(batch):
            x.start(run, i)
        units.append(batch[:])
        batch.clear()
    if small:
        batch.append(labelling)
    elif labelling is not None:
        if labelling.method == "traces":
            labelling.start()
        units.append([labelling])
    return units


def _finish(unit: list, deadline: float | None, forms: list) -> bool:
    """Append the forms of the labellings of ``unit`` to ``forms``; False when one ran over
    ``deadline``."""
    for labelling in unit:
        form = labelling.form(deadline)
        forms.append(form)
        if form is None:
            return False
    return True


def _coloured(G: nx.Graph):
    """The vertex-coloured graph of a labelled ``G`` (module docstring): ``G`` itself, or with
    edge labels its subdivision (edge ``i`` of ``G.edges`` sorted is vertex ``n + i``); the
    colour of every vertex (an index into ``table``); ``table``, the bytes of each colour class
    (``b"v"`` / ``b"e"`` and the label), nodes first, each kind sorted by label; and the edges."""
    n = G.number_of_nodes()
    nl = node_labels(G) or {v: 0 for v in range(n)}
    el = edge_labels(G)
    edges = sorted(tuple(sorted(e)) for e in G.edges())
    classes = [(b"v", x) for x in sorted(set(nl.values()), key=label_key)]
    if el is not None:
        el = {tuple(sorted(e)): x for e, x in el.items()}
        classes += [(b"e", x) for x in sorted(set(el.values()), key=label_key)]
    index = {c: i for i, c in enumerate(classes)}
    colour = [index[(b"v", nl[v])] for v in range(n)]
    if el is None:
        return G, colour, classes
    S = nx.Graph()
    S.add_nodes_from(range(n + len(edges)))
    for i, (u, v) in enumerate(edges):
        S.add_edges_from(((u, n + i), (v, n + i)))
        colour.append(index[(b"e", el[(u, v)])])
    return S, colour, classes


def _node_positions(order, n: int) -> tuple[int, ...]:
    """The positions ``0..n-1`` of the original nodes, in the order of their canonical positions
    in the (possibly subdivided) coloured graph."""
    ranked = sorted(range(n), key=lambda v: order[v])
    pos = [0] * n
    for i, v in enumerate(ranked):
        pos[v] = i
    return tuple(pos)


def certificate(G: nx.Graph) -> bytes:
    """Canonical certificate of ``G``: equal for two graphs iff they are isomorphic.

    Up to :data:`NAUTY_MAX_NODES` nodes the bytes are the order ``n`` (8 bytes, big-endian)
    followed by ``pynauty.certificate``, the packed adjacency matrix of ``G`` under nauty's
    canonical labelling. The order prefix makes certificates of graphs of different orders
    differ even where nauty's padded rows coincide. Larger graphs: :class:`CanonicalForm`.

    Parameters
    ----------
    G : nx.Graph
        Undirected simple graph with at least one node (validated; nauty needs ``n >= 1``).

    Returns
    -------
    bytes

    Raises
    ------
    UnsupportedGraphError
        Directed graph, self-loop, multi-edge, no nodes.
    ResourceLimitError
        More than :data:`MAX_NODES` nodes.

    Examples
    --------
    >>> import networkx as nx
    >>> certificate(nx.path_graph(3)) == certificate(nx.star_graph(2))
    True
    >>> certificate(nx.path_graph(3)) == certificate(nx.cycle_graph(3))
    False
    """
    return canonical_form(G).certificate


def certificate_digest(G: nx.Graph, length: int = 12) -> str:
    """Short hex digest (SHA-256 prefix of :func:`certificate`) for printing; ``length`` hex
    characters. Equal digests mean isomorphic up to a hash collision (about ``16**-length``).

    Examples
    --------
    >>> import networkx as nx
    >>> len(certificate_digest(nx.petersen_graph()))
    12
    >>> certificate_digest(nx.path_graph(3)) == certificate_digest(nx.star_graph(2))
    True
    """
    return canonical_form(G).digest(length)


def canonical_labeling(G: nx.Graph) -> list[int]:
    """The canonical labelling: ``order[i]`` is the node of ``G`` placed at position ``i``.

    Relabelling node ``order[i]`` to ``i`` gives the canonical form (:func:`canonical_graph6`).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(canonical_labeling(nx.path_graph(4)))
    [0, 1, 2, 3]
    """
    order = canonical_form(G).order
    lab = [0] * len(order)
    for v, i in enumerate(order):
        lab[i] = v
    return lab


def canonical_order(G: nx.Graph):
    """The inverse of :func:`canonical_labeling`: node ``v`` of ``G`` is at position ``inv[v]`` of
    its canonical form.

    ``permute_graph(G, canonical_order(G))`` (:func:`wltools.graphs.permute_graph`) is the
    canonical form, the same graph for every relabelling of ``G``.

    Parameters
    ----------
    G : nx.Graph
        Undirected simple graph on nodes ``0..n-1``, ``n >= 1``.

    Returns
    -------
    numpy.ndarray
        int64 array ``inv`` of length ``n``, a permutation of ``0..n-1``.

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.graphs import permute_graph
    >>> G, H = nx.path_graph(4), nx.relabel_nodes(nx.path_graph(4), {0: 2, 2: 0})
    >>> inv = canonical_order(G)
    >>> inv.dtype, sorted(inv.tolist())
    (dtype('int64'), [0, 1, 2, 3])
    >>> sorted(permute_graph(G, inv).edges) == sorted(permute_graph(H, canonical_order(H)).edges)
    True
    """
    import numpy as np

    return np.asarray(canonical_form(G).order, dtype=np.int64)


def canonical_graph6(G: nx.Graph) -> str:
    """graph6 string of the canonical form of ``G``: equal for two graphs iff they are isomorphic.

    Readable where :func:`certificate` is not, and reloadable with
    :func:`wltools.graphs.parse_graph6`.

    Examples
    --------
    >>> import networkx as nx
    >>> canonical_graph6(nx.path_graph(3)) == canonical_graph6(nx.star_graph(2))
    True
    """
    return canonical_form(G).graph6()


@paused()  # many new tuples: no full collector passes over the graph (wltools.runtime.collector)
def is_isomorphic(G: nx.Graph, H: nx.Graph) -> bool:
    """Whether ``G`` and ``H`` are isomorphic (exact, by canonical certificates).

    Graphs of different order, size or degree sequence are answered without a labeller.

    Raises
    ------
    UnsupportedGraphError
        Either graph directed, with a self-loop or multi-edge, or without nodes.
    ResourceLimitError
        Same order, size and degrees, and more than :data:`MAX_NODES` nodes.

    Examples
    --------
    >>> import networkx as nx
    >>> is_isomorphic(nx.path_graph(3), nx.star_graph(2))
    True
    >>> is_isomorphic(nx.path_graph(4), nx.star_graph(3))  # same order and size, other degrees
    False
    """
    G, H = _validated(G), _validated(H)
    pair_labels(G, H)  # one graph labelled and the other not: one line (GraphFormatError)
    if G.number_of_nodes() != H.number_of_nodes() or G.number_of_edges() != H.number_of_edges():
        return False
    if sorted(d for _, d in G.degree()) != sorted(d for _, d in H.degree()):
        return False
    return _form(G, None).isomorphic(_form(H, None))
