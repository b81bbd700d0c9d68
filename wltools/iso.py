"""Graph isomorphism through canonical labelling with nauty (pynauty).

Colour refinement answers "does test X tell G and H apart?"; this module answers the different
question "are G and H the same graph?", so that "not distinguished" and "isomorphic" are never
confused. Two graphs are isomorphic iff their canonical forms coincide (McKay & Piperno,
"Practical graph isomorphism, II", J. Symb. Comput. 2014); pynauty exposes nauty's canonical
labelling and certificate (the adjacency matrix of the canonically relabelled graph).

pynauty is GPL-3 (its package metadata), so wltools is GPL-3.0-or-later.

Examples
--------
>>> import networkx as nx
>>> is_isomorphic(nx.cycle_graph(6), nx.relabel_nodes(nx.cycle_graph(6), {0: 3, 3: 0}))
True
>>> is_isomorphic(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
False
"""

from __future__ import annotations

import hashlib

import networkx as nx
import numpy as np
import pynauty

from wltools.graphs import permute_graph, validate_graph

__all__ = ["certificate", "certificate_digest", "canonical_labeling", "canonical_order",
           "canonical_graph6", "is_isomorphic"]


def _validated(G: nx.Graph) -> nx.Graph:
    """:func:`~wltools.graphs.validate_graph` of ``G``, named by its ``graph["name"]``."""
    return validate_graph(G, name=G.graph.get("name") if isinstance(G, nx.Graph) else None)


def _to_pynauty(G: nx.Graph) -> tuple[nx.Graph, pynauty.Graph]:
    """Validated copy of ``G`` (nodes ``0..n-1``) and the same graph as a ``pynauty.Graph``."""
    G = _validated(G)
    n = G.number_of_nodes()
    adjacency = {v: sorted(G.adj[v]) for v in range(n)}
    return G, pynauty.Graph(n, directed=False, adjacency_dict=adjacency)


def certificate(G: nx.Graph) -> bytes:
    """Canonical certificate of ``G``: equal for two graphs iff they are isomorphic.

    The bytes are the order ``n`` (8 bytes, big-endian) followed by ``pynauty.certificate``, the
    packed adjacency matrix of ``G`` under nauty's canonical labelling. The order prefix makes
    certificates of graphs of different orders differ even where nauty's padded rows coincide.

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

    Examples
    --------
    >>> import networkx as nx
    >>> certificate(nx.path_graph(3)) == certificate(nx.star_graph(2))
    True
    >>> certificate(nx.path_graph(3)) == certificate(nx.cycle_graph(3))
    False
    """
    G, g = _to_pynauty(G)
    return G.number_of_nodes().to_bytes(8, "big") + pynauty.certificate(g)


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
    return hashlib.sha256(certificate(G)).hexdigest()[:length]


def canonical_labeling(G: nx.Graph) -> list[int]:
    """nauty's canonical labelling: ``order[i]`` is the node of ``G`` placed at position ``i``.

    Relabelling node ``order[i]`` to ``i`` gives the canonical form (:func:`canonical_graph6`).

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(canonical_labeling(nx.path_graph(4)))
    [0, 1, 2, 3]
    """
    _, g = _to_pynauty(G)
    return list(pynauty.canon_label(g))


def canonical_order(G: nx.Graph) -> np.ndarray:
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
    return np.argsort(np.asarray(canonical_labeling(G), dtype=np.int64))


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
    G = _validated(G)
    C = permute_graph(G, canonical_order(G))
    return nx.to_graph6_bytes(C, nodes=range(C.number_of_nodes()), header=False).decode().strip()


def is_isomorphic(G: nx.Graph, H: nx.Graph) -> bool:
    """Whether ``G`` and ``H`` are isomorphic (exact, by nauty certificates).

    Graphs of different order, size or degree sequence are answered without nauty.

    Raises
    ------
    UnsupportedGraphError
        Either graph directed, with a self-loop or multi-edge, or without nodes.

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
    return certificate(G) == certificate(H)
