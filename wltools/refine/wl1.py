"""1-WL colour refinement (Weisfeiler & Leman 1968; the colour refinement update
``chi(v) <- hash(chi(v), {{chi(u) : u in N(v)}})`` as recalled in PPGT App. E).

Fast path: round-synchronous partition refinement on the sparse (CSR) adjacency of the disjoint
union of G and H, with the same rounds as the update rule above (so the round of first difference
is exact), but touching per round only the nodes whose signature can have changed:

* a colour id stands for a class; when a class splits, one piece keeps its id (the nodes of the
  class that had no re-coloured neighbour, or else the largest piece) and the other pieces get
  fresh ids: those nodes are the round's *changed* nodes;
* a node's multiset of neighbour ids changes only if it has a changed neighbour, so a round
  recomputes the signatures ``(chi(v), sorted neighbour colours)`` of the neighbours of the last
  round's changed nodes only (the *candidates*). In each class, the non-candidates share one
  signature, and it differs from every candidate's (a candidate has a neighbour with a fresh id);
* candidate signatures are grouped by a 64-bit hash of the sorted segment and every group is
  verified entry by entry (a collision is detected and the round redone with other weights), so
  the colouring is exact.

A round costs ``O(s log s)`` for ``s`` the summed degree of the candidates (at most ``2m``), so
refinement to the stable colouring is near-linear when few nodes change per round (a path: two
per round) and ``O((n + m) log n)`` per round in general (Berkholz, Bonsma & Grohe, *Tight lower
and upper bounds for the complexity of canonical colour refinement*, ESA 2013, for the
splitting view). Colour histograms are maintained incrementally, so the verdict and the round
of first difference agree with :func:`refine_wl1_reference`.

Labels (:mod:`wltools.graphs.labels`): the initial colour of ``v`` is its node label (constant on an
unlabelled graph), and with edge labels the multiset is of pairs (edge label, neighbour colour):

.. math::  \\chi^0(v) = \\ell(v), \\qquad \\chi^{t+1}(v) = \\mathrm{hash}(\\chi^t(v),
           \\{\\{(\\ell(v, u), \\chi^t(u)) : u \\in N(v)\\}\\})

(colour refinement of vertex- and edge-coloured graphs, e.g. Grohe, Kersting, Mladenov & Schweitzer,
*Color refinement and its applications*, 2017, Sec. 2; the fast path keys a neighbour by
``colour * B + edge label id``). The splitting argument above is unchanged: edge labels are fixed,
so a signature still changes only through a changed neighbour.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import networkx as nx
import numpy as np
from ..distances.adjacency import csr_parts
from ..graphs.labels import PairLabels
from .engine import RefinementResult, multiset_text, no_difference_text, run_reference, witness_text
from ..runtime.hashing import exact_ids
from .kernel import Declaration, refine

__all__ = ["refine_wl1", "wl1_declaration", "refine_wl1_reference"]


def _neighbour_keys(nodes, col, indptr, indices, elab=None, base=1):
    """``(keys, segment bounds)``: the sorted neighbour keys ``colour * base + elab[slot]`` of each
    of ``nodes`` (a flat array, node ``i``'s keys at ``keys[bounds[i]:bounds[i + 1]]``)."""
    slots = _slots(indptr, nodes)
    deg = indptr[nodes + 1] - indptr[nodes]
    bounds = np.zeros(nodes.size + 1, dtype=np.int64)
    np.cumsum(deg, out=bounds[1:])
    keys = col[indices[slots]]
    if elab is not None:
        keys = keys * base + elab[slots]
    owner = np.repeat(np.arange(nodes.size, dtype=np.int64), deg)
    span = int(keys.max(initial=0)) + 1
    if nodes.size * span < 2**62:  # one int64 sort of (owner, key) codes
        code = owner * span + keys
        code.sort()
        return code - owner * span, bounds
    return keys[np.lexsort((keys, owner))], bounds


def _signature_groups(cand, col, indptr, indices, elab=None, base=1):
    """Exact groups of the candidates' signatures ``(colour, sorted neighbour keys)``, numbered in
    order of first appearance (:func:`wltools.runtime.hashing.exact_ids`: hashed, verified,
    retried on a collision)."""
    keys, bounds = _neighbour_keys(cand, col, indptr, indices, elab, base)
    return exact_ids(keys, col[cand], bounds, what="1-WL")


def _slot_labels(labels: PairLabels | None, n: int, parts) -> np.ndarray | None:
    """Edge label id of every CSR slot of G then H (None without edge labels)."""
    if labels is None or labels.edge is None:
        return None
    out = []
    for g, (ptr, idx) in enumerate(parts):
        rows = np.repeat(np.arange(n), np.diff(ptr))
        out.append(labels.edge_ids_at(g, n, rows, idx))
    return np.concatenate(out)


def refine_wl1(G: nx.Graph, H: nx.Graph, *, labels: PairLabels | None = None) -> RefinementResult:
    """1-WL on a pair of graphs of equal order with one shared colour table (sparse, exact).

    ``labels``: the pair's joint label ids (:func:`wltools.graphs.labels.pair_labels`; module docstring).

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_wl1(nx.path_graph(4), nx.star_graph(3))
    >>> r.iteration, r.class_sizes
    (1, ((2, 2), (3, 1)))
    >>> r.witness.split("; ")[0]
    'iteration 1: nodes of degree 2: 2 in G, 0 in H'
    """
    (ptr_g, idx_g), (ptr_h, idx_h) = csr_parts(G), csr_parts(H)
    n = G.number_of_nodes()
    N = 2 * n
    elab = _slot_labels(labels, n, ((ptr_g, idx_g), (ptr_h, idx_h)))
    base = labels.edge_ids if elab is not None else 1
    # the disjoint union G + H in CSR form (H's nodes and entries shifted by n)
    indptr = np.concatenate([ptr_g, ptr_h[1:] + ptr_g[-1]])
    indices = np.concatenate([idx_g, idx_h + n])
    col, size_g, size_h, k, first_t, witness = _initial(labels, n)
    t = 0
    changed = np.arange(N)  # round 1: every node is "new"
    while N:
        cand = np.unique(indices[_slots(indptr, changed)])
        if cand.size == 0:
            break
        gid = _signature_groups(cand, col, indptr, indices, elab, base)
        ngroups = int(gid.max()) + 1
        gsize = np.bincount(gid, minlength=ngroups)
        gfirst = np.full(ngroups, cand.size, dtype=np.int64)
        np.minimum.at(gfirst, gid, np.arange(cand.size))
        gclass = col[cand[gfirst]]
        # pieces of each touched class: the non-candidates (one piece, if any) and the groups
        uclass, cinv = np.unique(gclass, return_inverse=True)
        cinv = cinv.reshape(-1)
        rest = (size_g[uclass] + size_h[uclass] - np.bincount(cinv, weights=gsize).astype(np.int64))[cinv]
        # the class id stays with the non-candidates if any, else with the largest group
        order = np.lexsort((np.arange(ngroups), -gsize, cinv))
        lead = np.ones(ngroups, dtype=bool)
        lead[1:] = cinv[order[1:]] != cinv[order[:-1]]
        keeps = np.zeros(ngroups, dtype=bool)
        keeps[order[lead]] = rest[order[lead]] == 0
        split = np.flatnonzero(~keeps)  # every such group is a piece of a class with another piece
        if split.size == 0:
            break
        t += 1
        new_id = np.full(ngroups, -1, dtype=np.int64)
        new_id[split] = k + np.arange(split.size)
        node_new = new_id[gid]
        moved = node_new >= 0
        changed = cand[moved]
        old, nid = col[changed], node_new[moved]
        k_before, k = k, k + split.size
        in_g = changed < n
        np.subtract.at(size_g, old[in_g], 1)
        np.subtract.at(size_h, old[~in_g], 1)
        size_g[k_before:k] = np.bincount(nid[in_g] - k_before, minlength=k - k_before)
        size_h[k_before:k] = np.bincount(nid[~in_g] - k_before, minlength=k - k_before)
        col[changed] = nid
        if first_t is None:
            affected = np.concatenate([uclass, np.arange(k_before, k)])
            diff = affected[size_g[affected] != size_h[affected]]
            if diff.size:  # before this round every class had equal counts
                first_t = t
    sizes = []
    for part in (col[:n], col[n:]):
        c = np.bincount(part, minlength=k)
        sizes.append(tuple(sorted(c[c > 0].tolist(), reverse=True)))
    if first_t is None:
        witness = no_difference_text(t, int(np.unique(col[:n]).size))
    elif first_t > 0:  # one witness text per test: the declaration's, replayed up to that round
        decl = _declared(((ptr_g, idx_g), (ptr_h, idx_h)), n, labels)
        witness = refine(replace(decl, max_rounds=first_t)).witness
    return RefinementResult.from_histograms("1wl", first_t, t, (sizes[0], sizes[1]), witness)


def wl1_declaration(G: nx.Graph, H: nx.Graph, *, labels: PairLabels | None = None) -> Declaration:
    """1-WL as a :class:`~wltools.refine.kernel.Declaration` (the module docstring's update rule,
    every node's key rebuilt each round): it colours nodes, starts from the node labels (one
    colour without) and aggregates the neighbours ``u`` with the key ``chi(u) * B + edge label
    id`` (``B`` edge label ids; ``chi(u)`` alone without edge labels), sorted per node on the CSR
    adjacency of G + H (``O(m log m)`` a round, no padding). :func:`refine_wl1` is the same
    refinement touching only the nodes that can change (tested equal); both write this
    declaration's witness, and drawings read its history.

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine(wl1_declaration(nx.path_graph(4), nx.star_graph(3)))
    >>> r.class_sizes, r.witness.split("; ")[0]
    (((2, 2), (3, 1)), 'iteration 1: nodes of degree 2: 2 in G, 0 in H')
    """
    return _declared((csr_parts(G), csr_parts(H)), G.number_of_nodes(), labels)


def _declared(parts: tuple, n: int, labels: PairLabels | None) -> Declaration:
    """:func:`wl1_declaration` from the CSR ``parts`` of G and H (:func:`~wltools.distances.adjacency.csr_parts`)."""
    elab = _slot_labels(labels, n, parts)
    base = labels.edge_ids if elab is not None else 1
    indptr = np.concatenate([parts[0][0], parts[1][0][1:] + parts[0][0][-1]])
    indices = np.concatenate([parts[0][1], parts[1][1] + n])
    nodes = np.arange(2 * n)

    def aggregate(cg, ch, k):
        col = np.concatenate([cg, ch])
        keys, bounds = _neighbour_keys(nodes, col, indptr, indices, elab, base)
        ids = exact_ids(keys, col, bounds, what="1-WL")
        return ids, lambda i: np.concatenate([col[i : i + 1], keys[bounds[i] : bounds[i + 1]]])

    init = labels.node if labels is not None and labels.node is not None else (np.zeros(n, np.int64),) * 2
    return Declaration("1wl", init, aggregate, _describe(labels if elab is not None else None,
                                                         None if labels is None else labels.node_text))


def _describe(edge_labels: PairLabels | None, node_text):
    """The witness text of a 1-WL class from its key ``[old colour, sorted neighbour keys...]``."""

    def describe(t, c, row, k):
        if row is None:
            return f"nodes labelled {node_text(c)}" if node_text is not None else f"nodes of initial colour {c}"
        head = f"nodes of colour {int(row[0])} (round {t - 1}) whose "
        if edge_labels is not None:
            B = edge_labels.edge_ids
            items = Counter((int(x) % B, int(x) // B) for x in row[1:])
            return head + "(edge label, neighbour colour) multiset is " + multiset_text(
                items, lambda ec: f"({edge_labels.edge_text(ec[0])}, {ec[1]})")
        if k == 1:
            return f"nodes of degree {row.size - 1}"
        return head + "neighbour colours are " + multiset_text(Counter(row[1:].tolist()), str)

    return describe


def _initial(labels: PairLabels | None, n: int):
    """Initial colours of G then H, class sizes in G and in H by colour id (length ``2n + 1``),
    the number of colours, and the round-0 verdict: ``(first_t, witness)``."""
    N = 2 * n
    col = np.zeros(N, dtype=np.int64)
    size_g = np.zeros(N + 1, dtype=np.int64)
    size_h = np.zeros(N + 1, dtype=np.int64)
    if labels is None or labels.node is None or not N:
        size_g[0], size_h[0] = n, n
        return col, size_g, size_h, 1 if N else 0, None, ""
    col = np.concatenate(labels.node)
    k = len(labels.node_values)
    size_g[:] = np.bincount(col[:n], minlength=N + 1)
    size_h[:] = np.bincount(col[n:], minlength=N + 1)
    diff = np.flatnonzero(size_g[:k] != size_h[:k])
    if not diff.size:
        return col, size_g, size_h, k, None, ""
    text = witness_text(0, diff.tolist(), size_g, size_h, lambda c: f"nodes labelled {labels.node_text(c)}")
    return col, size_g, size_h, k, 0, text


def _slots(indptr: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Positions in ``indices`` of the neighbours of ``nodes`` (concatenated)."""
    start, deg = indptr[nodes], indptr[nodes + 1] - indptr[nodes]
    if nodes.size == indptr.size - 1:
        return np.arange(int(indptr[-1]))
    seg = np.zeros(nodes.size, dtype=np.int64)
    np.cumsum(deg[:-1], out=seg[1:])
    owner = np.repeat(np.arange(nodes.size), deg)
    return start[owner] + np.arange(int(deg.sum())) - seg[owner]


def refine_wl1_reference(G: nx.Graph, H: nx.Graph, *, labels: PairLabels | None = None) -> RefinementResult:
    """Straightforward 1-WL (dicts of sorted tuples), the exact reference for tests; ``labels``
    as in :func:`refine_wl1`.

    Examples
    --------
    >>> import networkx as nx
    >>> ref = refine_wl1_reference(nx.path_graph(4), nx.star_graph(3))
    >>> fast = refine_wl1(nx.path_graph(4), nx.star_graph(3))
    >>> (ref.iteration, ref.iterations, ref.class_sizes) == (fast.iteration, fast.iterations, fast.class_sizes)
    True
    >>> ref.witness
    'reference: histograms differ at iteration 1'
    """
    graphs = (G, H)
    if labels is not None:
        return _labelled_reference(G, H, labels)

    def sig(g, v, cols):
        c = cols[g]
        return (c[v], tuple(sorted(c[u] for u in graphs[g][v])))

    return run_reference("1wl", list(G.nodes), list(H.nodes), lambda g, v: 0, sig)


def _labelled_reference(G: nx.Graph, H: nx.Graph, labels: PairLabels) -> RefinementResult:
    """The reference on a labelled pair: initial colour the node label id, multisets of
    (edge label id, colour) over the neighbours."""
    graphs = (G, H)
    n = len(G)
    nid = [labels.node_ids(g, n).tolist() for g in (0, 1)]
    E = [labels.edge_matrix(g, n).tolist() if labels.edge is not None else None for g in (0, 1)]

    def sig(g, v, cols):
        c = cols[g]
        return (c[v], tuple(sorted((E[g][v][u] if E[g] else 0, c[u]) for u in graphs[g][v])))

    return run_reference("1wl", list(G.nodes), list(H.nodes), lambda g, v: nid[g][v], sig)
