"""Graph isomorphism through canonical labelling: nauty (pynauty) for small graphs, bliss (igraph)
for large ones.

Colour refinement answers "does test X tell G and H apart?"; this module answers the different
question "are G and H the same graph?", so that "not distinguished" and "isomorphic" are never
confused. Two graphs are isomorphic iff their canonical forms coincide (McKay & Piperno,
"Practical graph isomorphism, II", J. Symb. Comput. 2014).

Two canonical labellers, chosen by the order ``n`` alone (so two graphs that may be isomorphic
always get the same one):

* ``n <= NAUTY_MAX_NODES`` (256; every BREC graph): **nauty** through pynauty, on a dense
  adjacency matrix. Its certificate is the packed adjacency matrix of the canonical form, as
  ``pynauty.certificate`` returns it.
* larger graphs: **bliss** (Junttila & Kaski, "Engineering an efficient canonical labeling tool
  for large and sparse graphs", ALENEX 2007) through python-igraph's ``canonical_permutation``,
  on the sparse graph: memory ``O(n + m)`` instead of nauty's ``O(n^2)``, and on sparse graphs
  far faster (a random 3-regular graph of 2,000 nodes: nauty 10 to 27 s, bliss 0.03 to 0.09 s).
  Its certificate is the sorted edge list of the canonical form. A graph with more than half of
  all possible edges is labelled through its complement (the same automorphisms; bliss takes
  about 10 s on K_1000 itself).

Each labelling is computed once per graph (:func:`canonical_form`); the certificate, the digest,
the canonical order and graph6 all come from that one :class:`CanonicalForm`. Graphs above
:data:`MAX_NODES` are refused with :class:`~wltools.errors.ResourceLimitError`. pynauty itself is
never given more than :data:`PYNAUTY_MAX_NODES` nodes: pynauty 2.8.8.1 allocates the canonical
matrix with ``no_setwords * no_vertices * WORDSIZE`` computed in a C ``int`` (``nautywrap.c``,
``extend_canonical``), which overflows from 46,341 nodes on and, for some orders (e.g. 70,000 or
100,000), makes nauty write past the allocation: the segmentation fault of ``wltools iso`` on
100,000 nodes.

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
import sys
from dataclasses import dataclass, field

import networkx as nx

from wltools.errors import ResourceLimitError, UnknownNameError
from wltools.graphs import validate_graph

__all__ = [
    "METHODS",
    "NAUTY_MAX_NODES",
    "PYNAUTY_MAX_NODES",
    "MAX_NODES",
    "CanonicalForm",
    "canonical_form",
    "choose_method",
    "peak_bytes",
    "certificate",
    "certificate_digest",
    "canonical_labeling",
    "canonical_order",
    "canonical_graph6",
    "is_isomorphic",
]

#: Canonical labellers: ``"nauty"`` (pynauty) and ``"bliss"`` (python-igraph).
METHODS = ("nauty", "bliss")

#: Graphs up to this order are labelled by nauty, larger ones by bliss (:func:`choose_method`).
#: Every BREC graph (at most 198 nodes) is below it, so the runner's canonical orders are nauty's.
NAUTY_MAX_NODES = 256

#: The most nodes pynauty 2.8.8.1 is safe with: ``ceil(n / 64) * n * 64 < 2**31`` (module
#: docstring); larger graphs given ``method="nauty"`` are refused.
PYNAUTY_MAX_NODES = 46_340

#: The largest order accepted at all: the size the bliss path is tested at (cycles and paths of
#: 100,000 nodes take seconds; a random 3-regular graph of 100,000 nodes about three minutes, and
#: bliss's time on such graphs grows about as ``n^2``).
MAX_NODES = 100_000


def choose_method(n: int) -> str:
    """The labeller for graphs of order ``n``: ``"nauty"`` up to :data:`NAUTY_MAX_NODES`, else
    ``"bliss"``.

    Examples
    --------
    >>> choose_method(198), choose_method(2000)
    ('nauty', 'bliss')
    """
    return "nauty" if n <= NAUTY_MAX_NODES else "bliss"


def peak_bytes(n: int, m: int, method: str | None = None) -> int:
    """Estimated peak memory (bytes) of :func:`canonical_form` on a graph of ``n`` nodes and ``m``
    edges, beyond the graph itself: the validated copy, and nauty's two ``n x n`` bit matrices
    (pynauty allocates the canonical one eight times too large) or bliss's ``O(n + m)`` structures
    (measured: about 170 bytes per node and edge on a cycle of 10^6 nodes) and the certificate.

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
    dense = n * n + 16 * (n * (n - 1) // 2 - m) if _dense(n, m) else 0
    return 64 * 1024 + copy + 400 * (n + m) + 64 * m + dense


def _validated(G: nx.Graph) -> nx.Graph:
    """:func:`~wltools.graphs.validate_graph` of ``G``, named by its ``graph["name"]``."""
    return validate_graph(G, name=G.graph.get("name") if isinstance(G, nx.Graph) else None)


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
    """

    method: str
    n: int
    m: int
    order: tuple[int, ...] = field(repr=False)
    edges: tuple[tuple[int, int], ...] = field(repr=False)
    certificate: bytes = field(repr=False)
    degrees: tuple[int, ...] = field(repr=False)

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
        """The canonical form as a graph on ``0..n-1``."""
        C = nx.Graph()
        C.add_nodes_from(range(self.n))
        C.add_edges_from(self.edges)
        return C

    def graph6(self) -> str:
        """graph6 string of the canonical form (``n^2 / 12`` characters)."""
        C = self.graph()
        return nx.to_graph6_bytes(C, nodes=range(self.n), header=False).decode().strip()


def _nauty_matrix(n: int, edges) -> bytes:
    """``pynauty.certificate``'s bytes for the canonical graph with these edges: row ``i`` holds
    ``ceil(n / 64)`` setwords, node ``j`` is bit ``63 - j % 64`` of word ``j // 64``, each word in
    the machine's byte order (nauty's ``set`` layout, nauty.h)."""
    words = (n + 63) // 64
    rows = [0] * n  # row i as one integer of 64 * words bits, node 0 the most significant
    top = 64 * words - 1
    for i, j in edges:
        rows[i] |= 1 << (top - j)
        rows[j] |= 1 << (top - i)
    out = bytearray()
    mask = (1 << 64) - 1
    for r in rows:
        for w in range(words):
            out += ((r >> (64 * (words - 1 - w))) & mask).to_bytes(8, sys.byteorder)
    return bytes(out)


def _nauty_order(G: nx.Graph) -> tuple[int, ...]:
    import pynauty

    n = G.number_of_nodes()
    g = pynauty.Graph(n, directed=False, adjacency_dict={v: sorted(G.adj[v]) for v in range(n)})
    lab = pynauty.canon_label(g)  # lab[i]: the node at position i
    order = [0] * n
    for i, v in enumerate(lab):
        order[v] = i
    return tuple(order)


def _bliss_order(G: nx.Graph) -> tuple[int, ...]:
    try:
        import igraph
    except ImportError:  # pragma: no cover - python-igraph is a dependency
        raise ResourceLimitError(
            f"graphs of more than {NAUTY_MAX_NODES} nodes need python-igraph (bliss): "
            "pip install python-igraph"
        ) from None
    import numpy as np

    n, m = G.number_of_nodes(), G.number_of_edges()
    edges = np.fromiter((x for e in G.edges() for x in e), dtype=np.int64, count=2 * m).reshape(-1, 2)
    if _dense(n, m):  # label the complement: the same automorphisms, far fewer edges
        A = np.zeros((n, n), dtype=bool)
        A[edges[:, 0], edges[:, 1]] = True
        A |= A.T
        A[np.triu_indices(n)] = True  # keep i < j only
        edges = np.argwhere(~A)
        del A
    g = igraph.Graph(n=n, edges=edges)
    lab = g.canonical_permutation(sh="fl")  # lab[i]: the node at position i (tested)
    order = [0] * n
    for i, v in enumerate(lab):
        order[v] = i
    return tuple(order)


def _dense(n: int, m: int) -> bool:
    """Whether bliss labels the complement: more than half of the ``n (n - 1) / 2`` possible edges
    (bliss takes minutes on K_1000 itself, milliseconds on its complement)."""
    return 4 * m > n * (n - 1)


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


def _form(G: nx.Graph, method: str | None) -> CanonicalForm:
    """:func:`canonical_form` of a graph already validated onto ``0..n-1``."""
    n, m = G.number_of_nodes(), G.number_of_edges()
    method = method or choose_method(n)
    if method not in METHODS:
        raise UnknownNameError(
            f"unknown canonical labeller {method!r}; choose from {', '.join(METHODS)}"
        )
    if n > MAX_NODES:
        raise ResourceLimitError(
            f"canonical labelling of a graph of {n:,} nodes: above the tested limit of "
            f"{MAX_NODES:,} nodes (bliss on a random 3-regular graph of {MAX_NODES:,} nodes takes "
            "about three minutes, and its time grows about as n^2)"
        )
    if method == "nauty" and n > PYNAUTY_MAX_NODES:
        raise ResourceLimitError(
            f"nauty (pynauty) on {n:,} nodes: pynauty overflows above {PYNAUTY_MAX_NODES:,} nodes; "
            "use bliss"
        )
    order = _nauty_order(G) if method == "nauty" else _bliss_order(G)
    edges = sorted(tuple(sorted((order[u], order[v]))) for u, v in G.edges())
    if method == "nauty":
        cert = n.to_bytes(8, "big") + _nauty_matrix(n, edges)
    else:
        import numpy as np

        flat = np.asarray(edges, dtype="<u4").reshape(-1)
        cert = n.to_bytes(8, "big") + b"bliss" + flat.tobytes()
    degrees = tuple(sorted(d for _, d in G.degree()))
    return CanonicalForm(method, n, m, order, tuple(edges), cert, degrees)


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
    if G.number_of_nodes() != H.number_of_nodes() or G.number_of_edges() != H.number_of_edges():
        return False
    if sorted(d for _, d in G.degree()) != sorted(d for _, d in H.degree()):
        return False
    return _form(G, None).isomorphic(_form(H, None))
