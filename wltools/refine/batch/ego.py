"""The N_K initial keys of every node of a union of many graphs, for :mod:`wltools.refine.batch`.

A node's key is ``(nodes, edges, certificate)`` of its radius-``K`` ego network, the centre
unmarked, exactly as :func:`wltools.refine.ego.ego_keys` computes it (nauty's certificate through
pynauty, prefixed by the order). Here all ego networks of all graphs are extracted together:

* the balls: the centre and its neighbours (in adjacency order) straight from the union's CSR for
  ``K = 1``; for ``K >= 2`` nodes in increasing order, in sparse graphs by expanding neighbour
  lists over the whole union at once, in the others by boolean powers of the dense adjacency
  (:func:`wltools.refine.ego.reach_within`), the graphs of one order stacked
  (:data:`SPARSE_SHARE`). The order of a ball only decides which labelled copies of an ego network
  coincide, never its key (the certificate is canonical);
* in a graph whose ego networks are large against the graph (:data:`ORBIT_RATIO`), only one node
  per automorphism orbit (nauty's orbits of the whole graph,
  :func:`wltools.refine.marking.automorphism_orbits`; bliss's, through python-igraph, take about 12 ms
  less on BREC but importing igraph costs about 0.5 s in a fresh process): nodes of one orbit have
  isomorphic ego networks, so equal keys; for ``K >= 2`` one node of those whose ball is their
  whole graph;
* the induced adjacency matrices of all balls of one size ``b``, gathered at once from one flat
  buffer holding every graph's dense adjacency matrix;
* deduplicated as labelled graphs (equal matrices, equal keys; exact grouping of the matrices
  packed into 64-bit words) across all graphs at once: many ego networks repeat, within a graph,
  between the two graphs of a pair and across pairs;
* nauty once per distinct labelled ego network (each edge given once: pynauty adds the reverse
  arc of an undirected graph itself, so the certificate is the same), through one reused
  ``pynauty.Graph`` without the constructor's checks (:func:`wltools.refine.ego.nauty_certificates`).

On the 400 BREC pairs (27,804 nodes) this certifies 4,470 labelled ego networks of radius 1
instead of one per node, after 40 orbit computations (the 4-vertex-condition graphs); those
certificates (about 53 ms, nauty's own calls) and orbits (about 59 ms) are then about half of
N1's time (about 215 ms in runs over all 400 pairs).

Graphs of more than :data:`~wltools.iso.NAUTY_MAX_NODES` nodes take
:func:`~wltools.refine.ego.ego_keys` itself (sparse balls, bliss for large ones).

Examples
--------
>>> import networkx as nx
>>> from wltools.refine.batch.union import union_of
>>> from wltools.refine.ego import ego_keys
>>> graphs = [nx.path_graph(4), nx.star_graph(3)]
>>> ids, table = union_ego_ids(union_of([tuple(graphs)])[0], 1, graphs)
>>> [table[i] for i in ids.tolist()] == ego_keys(graphs[0], 1) + ego_keys(graphs[1], 1)
True
"""

from __future__ import annotations

from typing import Callable

import networkx as nx
import numpy as np

from ...iso import NAUTY_MAX_NODES
from ...runtime.hashing import exact_ids
from .rounds import distinct
from .union import Union
from ..ego import describe_ego, ego_keys, nauty_certificates

__all__ = ["union_ego_ids", "union_ego_keys", "GATHER_ITEMS", "ORBIT_RATIO"]

#: Ego networks of one size are gathered in blocks of at most this many adjacency entries.
GATHER_ITEMS = 2**22

#: A graph whose ego networks have squared sizes summing to at least this many times its squared
#: order gets its automorphism orbits first (one nauty call on the whole graph), and only one node
#: per orbit has its ego network certified. Measured on BREC (pynauty 2.8.8.1): the orbits of an
#: ``n``-node graph cost about ``500 n^2`` ns, certifying ego networks about ``50 b^2`` ns each,
#: so the orbits pay when they save most of the certificates and the ratio is above about 12.
#: Balls that are the whole graph do not count: they are one labelled matrix, certified once
#: whatever the orbits (N2 on BREC's 4-vertex-condition and distance-regular graphs: orbits cost
#: 0.4 s and saved nothing). Leaving them out, on all 400 pairs, alternating in one process, best of
#: four: N1 0.88 -> 0.79 CPU-s, N2 1.44 -> 1.10 CPU-s, verdicts unchanged. Checked again with
#: nauty called without pynauty's constructor checks (loaded machine, median of nine, alternating):
#: N1 0.42 CPU-s at 12 against 0.55 without orbits, N2 0.56 against 0.54.
ORBIT_RATIO = 12


def _dense_buffer(u: Union, small: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One flat boolean buffer with the dense adjacency matrix of every graph flagged in
    ``small``; returns it, each graph's offset in it, and each node's graph."""
    sizes = np.diff(u.gstart)
    area = np.where(small, sizes * sizes, 0)
    base = np.concatenate([[0], np.cumsum(area)[:-1]])
    buf = np.zeros(int(area.sum()), dtype=bool)
    graph = u.graph_of()
    row = base[graph] + (np.arange(u.nodes) - u.gstart[graph]) * sizes[graph]  # where each node's row starts
    slots = row[u.owner] + u.local
    buf[slots if small.all() else slots[small[graph][u.owner]]] = True
    return buf, base, graph


def _balls(u: Union, radius: int, buf, base, graph, small) -> tuple[np.ndarray, np.ndarray]:
    """``(ptr, members)``: the union ids within ``radius`` hops of each node of a small graph are
    ``members[ptr[v]:ptr[v + 1]]`` (empty for nodes of large graphs): for radius 1 the node and
    its neighbours in adjacency order, else in increasing order. (The order only decides which
    labelled copies of an ego network coincide, never its key.)"""
    sizes = np.diff(u.gstart)
    in_small = small[graph]
    if radius == 1:  # the centre, then its neighbours in adjacency order
        counts = np.where(in_small, u.deg + 1, 0)
        ptr = np.concatenate([[0], np.cumsum(counts)])
        owner = u.owner
        keep = in_small[owner]
        members = np.empty(int(ptr[-1]), dtype=np.int64)
        members[ptr[:-1][in_small]] = np.flatnonzero(in_small)
        members[(ptr[owner] + 1 + np.arange(owner.size) - u.indptr[owner])[keep]] = u.indices[keep]
        return ptr, members
    sparse = small & _expand_sparsely(u, sizes, radius)
    parts = [_expanded_balls(u, np.flatnonzero(sparse[graph]), radius)]  # codes v * N + x
    dense = small & ~sparse
    for n in distinct(sizes[dense]).tolist():  # the others by boolean matrix products, graphs of one order together
        every = np.flatnonzero(dense & (sizes == n))
        step = max(1, GATHER_ITEMS // (n * n))
        for gis in (every[a:a + step] for a in range(0, every.size, step)):
            A = buf[base[gis][:, None] + np.arange(n * n)].reshape(-1, n, n)
            k, i, j = np.nonzero(_reach(A, radius))
            start = u.gstart[gis][k]
            parts.append((start + i) * u.nodes + start + j)
    codes = np.sort(np.concatenate(parts))
    ptr = np.zeros(u.nodes + 1, dtype=np.int64)
    np.cumsum(np.bincount(codes // u.nodes, minlength=u.nodes), out=ptr[1:])
    return ptr, codes % u.nodes


def _reach(A: np.ndarray, radius: int) -> np.ndarray:
    """:func:`wltools.refine.ego.reach_within` of a stack of adjacency matrices ``[k, n, n]``
    (float32 products of 0/1 matrices: exact for ``n`` below 2^24)."""
    R = A | np.eye(A.shape[1], dtype=bool)
    reach = R
    Rf = R.astype(np.float32)
    for _ in range(radius - 1):
        reach = (reach.astype(np.float32) @ Rf) > 0
    return reach


#: A graph's balls of radius ``r >= 2`` come from expanding neighbour lists (sorted codes) when
#: its ``sum over v of (deg(v) + 1)^2`` is at most this share of ``n^3`` (the boolean matrix
#: products of :func:`~wltools.refine.ego.reach_within`), else from those products. Measured on
#: BREC's radius-2 balls (loaded machine, one process, alternating, median of nine): all by
#: products 0.83 CPU-s (most of it the 200 CFI graphs: 58 to 198 nodes, degrees 2 to 17), all by
#: expansion 0.22, at this share 0.068 (1/500: 0.78; 1/20: 0.072; 1/5: 0.076).
SPARSE_SHARE = 1 / 100


def _expand_sparsely(u: Union, sizes: np.ndarray, radius: int) -> np.ndarray:
    """Per graph: whether its balls are expanded from neighbour lists (:data:`SPARSE_SHARE`)."""
    work = np.bincount(u.graph_of(), weights=(u.deg + 1.0) ** 2, minlength=sizes.size) * (radius - 1)
    return work <= SPARSE_SHARE * sizes.astype(np.float64) ** 3


def _expanded_balls(u: Union, nodes: np.ndarray, radius: int) -> np.ndarray:
    """The sorted codes ``v * N + x`` (``N`` the union's nodes) of the nodes ``x`` within
    ``radius`` hops of each of ``nodes``: the closed neighbourhoods, then ``radius - 1`` times
    every member's neighbours added, duplicates dropped."""
    N = np.int64(u.nodes)
    lens = u.deg[nodes]
    v = np.concatenate([nodes, np.repeat(nodes, lens)])
    x = np.concatenate([nodes, u.indices[_slots_of(u, nodes, lens)]])
    codes = distinct(v * N + x)
    for _ in range(radius - 1):
        v, x = codes // N, codes % N
        lens = u.deg[x]
        codes = distinct(np.concatenate([codes, np.repeat(v, lens) * N + u.indices[_slots_of(u, x, lens)]]))
    return codes


def _slots_of(u: Union, nodes: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """The CSR slots of ``nodes`` (with ``lens`` their degrees), node after node."""
    ends = np.cumsum(lens)
    return np.repeat(u.indptr[nodes] - ends + lens, lens) + np.arange(int(ends[-1]) if ends.size else 0, dtype=np.int64)


def _certify(rows: np.ndarray, b: int) -> list[tuple[int, int, bytes]]:
    """Keys of the labelled graphs ``rows`` (``[r, b * b]`` boolean adjacency matrices): nauty's
    certificate of each, as :func:`wltools.refine.ego.nauty_certificate_of`, prefixed by the order."""
    # each edge once (i < j): pynauty adds the reverse arc of an undirected graph itself
    iu, ju = np.triu_indices(b, 1)  # the entries above the diagonal, row by row
    k, e = np.nonzero(rows[:, iu * b + ju])
    cl = ju[e].tolist()
    starts = np.zeros(rows.shape[0] * b + 1, dtype=np.int64)  # of the neighbour list of (graph k, vertex i)
    np.cumsum(np.bincount(k * b + iu[e], minlength=rows.shape[0] * b), out=starts[1:])
    bounds = starts.tolist()
    edges = np.bincount(k, minlength=rows.shape[0]).tolist()
    prefix = b.to_bytes(8, "big")
    vertices = range(b)
    adjacencies = (dict(zip(vertices, map(cl.__getitem__, map(slice, bounds[o:o + b], bounds[o + 1:o + b + 1]))))
                   for o in range(0, rows.shape[0] * b, b))
    return [(b, m, prefix + cert) for m, cert in zip(edges, nauty_certificates(b, adjacencies))]


class _Keys:
    """Distinct keys numbered in order of first sight, and the labelled ego networks seen
    (``(order, packed adjacency bytes)`` -> key number; equal labelled graphs, equal keys)."""

    def __init__(self):
        self.keys: list = []
        self.number: dict = {}
        self.labelled: dict = {}

    def add(self, key) -> int:
        n = self.number.get(key)
        if n is None:
            n = self.number[key] = len(self.keys)
            self.keys.append(key)
        return n

    def sorted_ids(self, kid: np.ndarray) -> tuple[np.ndarray, list]:
        """``kid`` (numbers of first sight) as ids in sorted key order, and the sorted keys."""
        order = sorted(range(len(self.keys)), key=self.keys.__getitem__)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        return rank[kid], [self.keys[i] for i in order]


def _keys_of_size(nodes, b, ptr, members, buf, base, graph, u: Union, seen: _Keys) -> np.ndarray:
    """Key numbers (:class:`_Keys`) of the ego networks of ``nodes`` (all of ``b`` nodes):
    gathered, deduplicated as labelled matrices across all graphs, certified once each."""
    sizes = np.diff(u.gstart)
    out = np.empty(nodes.size, dtype=np.int64)
    step = max(1, GATHER_ITEMS // (b * b))
    for a in range(0, nodes.size, step):
        vs = nodes[a:a + step]
        g = graph[vs]
        loc = members[ptr[vs][:, None] + np.arange(b)] - u.gstart[g][:, None]  # [c, b] local ids
        row = base[g][:, None] + loc * sizes[g][:, None]  # [c, b] where each member's row starts in buf
        idx = row[:, :, None] + loc[:, None, :]
        rows = buf[idx].reshape(vs.size, b * b)
        packed, inv, first = _distinct_rows(rows)
        raws = [(b, packed[f].tobytes()) for f in first.tolist()]
        miss = [r for r, raw in enumerate(raws) if raw not in seen.labelled]
        if miss:
            for r, key in zip(miss, _certify(rows[first[miss]], b)):
                seen.labelled[raws[r]] = seen.add(key)
        out[a:a + step] = np.array([seen.labelled[raw] for raw in raws], dtype=np.int64)[inv]
    return out


def _distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The boolean rows packed 8 to a byte, each row's id among the distinct rows (exact grouping
    of the packed rows as 64-bit words, :func:`~wltools.runtime.hashing.exact_ids`; ids in order
    of first appearance) and the first row of each id."""
    packed = np.packbits(rows, axis=1)
    pad = -packed.shape[1] % 8
    words = np.pad(packed, ((0, 0), (0, pad))).view(np.int64)
    ids = exact_ids(words, order="first", what="labelled ego networks")
    first = np.flatnonzero(np.concatenate([[True], ids[1:] > np.maximum.accumulate(ids)[:-1]])) if ids.size else ids
    return packed, ids, first


def _orbit_representatives(u: Union, graphs: list, small, b_all, graph) -> np.ndarray:
    """For every node, the smallest union id of its automorphism orbit in the graphs whose ego
    networks are large (:data:`ORBIT_RATIO`), itself elsewhere (nodes of one orbit have
    isomorphic ego networks, so equal keys)."""
    from ..marking import automorphism_orbits

    rep = np.arange(u.nodes, dtype=np.int64)
    sizes = np.diff(u.gstart)
    partial = b_all < sizes[graph]  # a ball that is the whole graph is one labelled matrix for all its nodes
    squares = np.bincount(graph, weights=np.where(partial, b_all.astype(np.float64) ** 2, 0.0), minlength=sizes.size)
    for gi in np.flatnonzero(small & (squares >= ORBIT_RATIO * sizes.astype(np.float64) ** 2)).tolist():
        s = int(u.gstart[gi])
        rep[s:s + int(sizes[gi])] = automorphism_orbits(graphs[gi]) + s
    return rep


def _whole_graph_balls(b_all: np.ndarray, sizes: np.ndarray, graph: np.ndarray, rep: np.ndarray) -> np.ndarray:
    """``rep`` with every node whose ball is its whole graph (nodes in increasing order: the same
    labelled ego network) represented by the first such node of its graph. On BREC, N2 and N3:
    8,611 and 11,195 of the 27,804 balls (the 4-vertex-condition graphs' every ball), nearly all
    the balls that repeat a ball of their graph (215 and 123 others)."""
    whole = np.flatnonzero(b_all == sizes[graph])
    first = np.zeros(sizes.size, dtype=np.int64)
    first[graph[whole][::-1]] = whole[::-1]  # the last write of each graph is its first such node
    out = rep.copy()
    out[whole] = first[graph[whole]]
    return out


def union_ego_ids(u: Union, radius: int, graphs: list[nx.Graph]) -> tuple[np.ndarray, list]:
    """Ids of the radius-``radius`` ego-network keys of every node of the union ``u`` of
    ``graphs`` (G_0, H_0, G_1, ...), numbered in sorted key order, and the sorted keys."""
    sizes = np.diff(u.gstart)
    small = sizes <= NAUTY_MAX_NODES
    buf, base, graph = _dense_buffer(u, small)
    ptr, members = _balls(u, radius, buf, base, graph, small)
    seen = _Keys()
    kid = np.zeros(u.nodes, dtype=np.int64)
    b_all = np.diff(ptr)
    rep = _orbit_representatives(u, graphs, small, b_all, graph)
    if radius >= 2:  # balls that are their whole graph, in increasing order: one labelled graph
        rep = _whole_graph_balls(b_all, sizes, graph, rep)
    nodes = np.flatnonzero(small[graph] & (rep == np.arange(u.nodes)))
    order = nodes[np.argsort(b_all[nodes], kind="stable")]
    for grp in np.split(order, np.flatnonzero(np.diff(b_all[order])) + 1):
        if grp.size:
            kid[grp] = _keys_of_size(grp, int(b_all[grp[0]]), ptr, members, buf, base, graph, u, seen)
    kid = kid[rep]  # an orbit's or a ball's nodes take its representative's key
    for gi in np.flatnonzero(~small).tolist():
        s = int(u.gstart[gi])
        kid[s:s + int(sizes[gi])] = [seen.add(key) for key in ego_keys(graphs[gi], radius)]
    return seen.sorted_ids(kid)


def union_ego_keys(radius: int) -> Callable:
    """``initial(u, graphs) -> (ids, table, describe_key)`` of the radius-``radius`` ego-network
    keys of the union ``u`` of ``graphs`` (:func:`union_ego_ids`), for
    :func:`~wltools.refine.batch.keyed.keyed_results`."""

    def initial(u: Union, graphs: list) -> tuple[np.ndarray, list, Callable]:
        ids, table = union_ego_ids(u, radius, graphs)
        return ids, table, describe_ego(radius)

    return initial
