"""Isomorphism of labelled graphs through a vertex-coloured canonical form (bliss).

Two graphs with node labels ``l`` and edge labels ``e`` are isomorphic iff a bijection of their
nodes preserves adjacency, node labels and edge labels. Edge labels are reduced to vertex colours
by the standard subdivision: every edge ``{u, v}`` with label ``e`` becomes a path ``u - x - v``
through a new vertex ``x`` coloured ``e`` (with colours apart from the node colours); labelled
isomorphisms of the graphs are exactly the colour-preserving isomorphisms of the subdivided
graphs (subdivision vertices have degree 2 and their own colours, so they map to subdivision
vertices). The coloured graph is then canonically labelled by bliss (Junttila & Kaski, ALENEX
2007) through python-igraph's ``canonical_permutation(color=...)``, and its certificate is the
colour sequence and the sorted edge list of the canonical graph: equal iff isomorphic.

Colours are the label ids of the collection's shared tables
(:class:`~wltools.dataset.collection.GraphCollection`), so certificates compare within one
collection. :func:`wltools.iso.canonical_form` applies the same reduction to one networkx graph;
this module works on the collection's arrays directly because that is about six times faster on
whole datasets (1,000 NCI1K molecules: 0.07 s here, 0.40 s through ``canonical_form`` and its
validation, CPU time measured on 2026-11-25); both are tested against networkx's VF2 matcher.

Examples
--------
>>> import networkx as nx
>>> from wltools.dataset.collection import from_networkx
>>> a = nx.path_graph(3); nx.set_node_attributes(a, {0: "C", 1: "O", 2: "C"}, "atom")
>>> b = nx.path_graph(3); nx.set_node_attributes(b, {0: "O", 1: "C", 2: "C"}, "atom")
>>> c = nx.relabel_nodes(a, {0: 2, 2: 0})
>>> coll = from_networkx([a, b, c], node_label="atom")
>>> [labelled_certificate(coll, i) == labelled_certificate(coll, 0) for i in range(3)]
[True, False, True]
"""

from __future__ import annotations

import numpy as np

from .collection import GraphCollection

__all__ = ["labelled_certificate", "isomorphism_classes"]


def labelled_certificate(coll: GraphCollection, i: int) -> tuple:
    """The canonical certificate of graph ``i`` of ``coll`` with its node and edge labels."""
    import igraph

    lo, hi = int(coll.graph_ptr[i]), int(coll.graph_ptr[i + 1])
    n = hi - lo
    s0, s1 = int(coll.indptr[lo]), int(coll.indptr[hi])
    src = np.repeat(np.arange(n), np.diff(coll.indptr[lo: hi + 1]))
    dst = coll.indices[s0:s1] - lo
    keep = src < dst
    src, dst = src[keep], dst[keep]
    node_col = coll.node_labels[lo:hi] if coll.node_labels is not None else np.zeros(n, dtype=np.int64)
    if coll.edge_labels is not None:
        m = src.size
        ecol = coll.edge_labels[s0:s1][keep]
        x = n + np.arange(m)
        edges = np.concatenate([np.stack([src, x], 1), np.stack([x, dst], 1)])
        # colours of subdivision vertices start above every node label id
        colours = np.concatenate([node_col, len(coll.node_label_values) + 1 + ecol])
        n_total = n + m
    else:
        edges = np.stack([src, dst], 1)
        colours = node_col
        n_total = n
    g = igraph.Graph(n=n_total, edges=edges.tolist())
    g.vs["c"] = colours.tolist()
    h = g.permute_vertices(g.canonical_permutation(sh="fl", color=colours.tolist()))
    canon_edges = sorted(tuple(sorted(e)) for e in h.get_edgelist())
    return (n, tuple(h.vs["c"]), tuple(canon_edges))


def isomorphism_classes(coll: GraphCollection, candidates: np.ndarray | None = None, progress=None) -> np.ndarray:
    """Isomorphism class of every graph (labelled; ids in order of first appearance).

    ``candidates`` is any partition of the graphs that isomorphism refines (e.g. the classes of a
    refinement: isomorphic graphs are never separated); graphs alone in their candidate class
    need no canonical form. ``progress(i)`` is called after each certificate.
    """
    G = coll.num_graphs
    if candidates is None:
        candidates = np.zeros(G, dtype=np.int64)
    counts = np.bincount(candidates)
    table: dict = {}
    out = np.empty(G, dtype=np.int64)
    for i in range(G):
        c = int(candidates[i])
        key = ("alone", i) if counts[c] == 1 else (c, labelled_certificate(coll, i))
        out[i] = table.setdefault(key, len(table))
        if progress is not None:
            progress(i)
    return out
