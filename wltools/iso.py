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
import pynauty

from wltools.graphs import validate_graph

__all__ = ["certificate", "certificate_digest", "canonical_labeling", "canonical_graph6",
           "is_isomorphic"]


def _to_pynauty(G: nx.Graph) -> tuple[nx.Graph, pynauty.Graph]:
    """Validated copy of ``G`` (nodes ``0..n-1``) and the same graph as a ``pynauty.Graph``."""
    G = validate_graph(G, name=G.graph.get("name") if isinstance(G, nx.Graph) else None)
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
    """
    G, g = _to_pynauty(G)
    return G.number_of_nodes().to_bytes(8, "big") + pynauty.certificate(g)


def certificate_digest(G: nx.Graph, length: int = 12) -> str:
    """Short hex digest (SHA-256 prefix of :func:`certificate`) for printing; ``length`` hex
    characters. Equal digests mean isomorphic up to a hash collision (about ``16**-length``)."""
    return hashlib.sha256(certificate(G)).hexdigest()[:length]


def canonical_labeling(G: nx.Graph) -> list[int]:
    """nauty's canonical labelling: ``order[i]`` is the node of ``G`` placed at position ``i``.

    Relabelling node ``order[i]`` to ``i`` gives the canonical form (:func:`canonical_graph6`).
    """
    _, g = _to_pynauty(G)
    return list(pynauty.canon_label(g))


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
    G, g = _to_pynauty(G)
    order = pynauty.canon_label(g)
    position = {v: i for i, v in enumerate(order)}
    C = nx.Graph()
    C.add_nodes_from(range(G.number_of_nodes()))
    C.add_edges_from((position[u], position[v]) for u, v in G.edges())
    return nx.to_graph6_bytes(C, nodes=range(C.number_of_nodes()), header=False).decode().strip()


def is_isomorphic(G: nx.Graph, H: nx.Graph) -> bool:
    """Whether ``G`` and ``H`` are isomorphic (exact, by nauty certificates).

    Graphs of different order, size or degree sequence are answered without nauty.

    Raises
    ------
    UnsupportedGraphError
        Either graph directed, with a self-loop or multi-edge, or without nodes.
    """
    G = validate_graph(G, name=G.graph.get("name") if isinstance(G, nx.Graph) else None)
    H = validate_graph(H, name=H.graph.get("name") if isinstance(H, nx.Graph) else None)
    if G.number_of_nodes() != H.number_of_nodes() or G.number_of_edges() != H.number_of_edges():
        return False
    if sorted(d for _, d in G.degree()) != sorted(d for _, d in H.degree()):
        return False
    return certificate(G) == certificate(H)
