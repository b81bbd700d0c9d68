"""S3 and S4: 1-WL started from per-node counts of connected induced 3- and 4-node subgraphs.

BREC's substructure-counting baselines (Wang & Zhang, "Towards Better Evaluation of GNN
Expressiveness with BREC Dataset", Sec. 5, Table 2 "Non-GNN baselines"; reference code
``Non-GNNs/utils.py`` of github.com/GraphPKU/BREC, ``WL_1_hash`` modes ``s3`` / ``s4`` with
``count_sub_3`` / ``count_sub_4``). The initial colour of a node ``v`` is the vector

.. math::

    \\chi^0(v) = \\big(\\#\\{S \\ni v : |S| = k,\\ G[S] \\cong T\\}\\big)_{T}

over the isomorphism types ``T`` of connected graphs on ``k`` nodes, in the reference's order:

* ``s3``: (triangle, induced path on 3 nodes);
* ``s4``: (path P4, star K_{1,3}, diamond K4 - e, K4, cycle C4, paw),

and nothing else: not the node's degree, not its position (orbit) inside the subgraph. Then
plain 1-WL runs to a stable partition (:mod:`wltools.refine.seeded`) and the pair is distinguished
iff the colour histograms differ at some round.

The reference counts ordered simple paths (and unordered claws) and adds one to every node on
them, so a node's entry for type ``T`` is ``h(T)`` times the count here, with ``h`` the number of
ordered Hamiltonian paths of ``T`` (s3: triangle 6, path 2; s4: P4 2, claw 1, diamond 12, K4 24,
C4 8, paw 4). Those factors are fixed per type, so the partitions, hence the verdicts, are the
same; the reference's Python ``hash`` of the count string is replaced here by the exact tuple.

Which models: ``S_k`` is the test behind GSN-style models (Bouritsas et al., "Improving Graph
Neural Network Expressivity via Subgraph Isomorphism Counting", TPAMI 2022) that add node-level
counts of the connected ``k``-node graphlets to 1-WL message passing; GSN counts per orbit (the
node's position in the graphlet), which refines ``S_k``'s per-type counts, so GSN-v with all
connected graphlets of up to ``k`` nodes distinguishes every pair ``S_k`` does (BREC Sec. 5 puts
S3/S4 beside GSN). It is not a bound from above for GSN.

Costs: s3 is at most ``O(n^3)`` dense arithmetic up to :data:`DENSE_MAX` nodes, else sparse;
s4 enumerates the ``sum over edges of d_u d_v`` ordered 3-edge paths and the ``sum of C(d_v, 3)``
claws (``O(n d^3)`` at most) as arrays on sparse graphs, and on dense ones (many paths per
``n^2``, or enumeration arrays above :data:`ENUMERATION_BYTES`) counts non-induced copies through
each node by matrix products and inverts to induced counts (``O(n^3)``, :func:`_counts4_algebraic`).

Examples
--------
>>> import networkx as nx
>>> substructure_counts(nx.complete_graph(4), 3)[0], substructure_counts(nx.complete_graph(4), 4)[0]
((3, 0), (0, 0, 0, 1, 0, 0))
>>> r = refine_substructure(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "s3")
>>> r.distinguished, r.iteration, r.witness
(True, 0, 'iteration 0: nodes in 0 triangles and 3 induced 3-paths: 6 in G, 0 in H; nodes in 1 triangle and 0 induced 3-paths: 0 in G, 6 in H')
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import networkx as nx
import numpy as np

from .engine import RefinementResult
from .kernel import Declaration, refine
from .seeded import check_pair, graph_csr, keys_declaration, refine_from_keys_reference

__all__ = [
    "TYPES",
    "DENSE_MAX",
    "substructure_counts",
    "substructure_counts_reference",
    "refine_substructure",
    "substructure_declaration",
    "refine_substructure_reference",
]

#: The isomorphism types counted, in the order of the reference's ``count_sub_3`` / ``count_sub_4``.
TYPES = {
    3: ("triangle", "induced 3-path"),
    4: ("4-path", "claw", "diamond", "K4", "4-cycle", "paw"),
}

#: Up to this many nodes the adjacency is a dense matrix (triangles by a matrix product; edge
#: look-ups by indexing), above it sorted edge codes.
DENSE_MAX = 4096


def _k_of(test: str) -> int:
    if test not in ("s3", "s4"):
        raise ValueError(f"not a substructure test: {test!r}")
    return int(test[1])


_csr = graph_csr  # (indptr, indices, degrees) straight from the adjacency dicts


class _Edges:
    """Edge look-up ``has(a, b)`` for arrays of node pairs: a dense boolean matrix up to
    :data:`DENSE_MAX` nodes, else binary search in the sorted codes ``a * n + b``."""

    def __init__(self, n: int, indptr: np.ndarray, indices: np.ndarray):
        self.n = n
        rows = np.repeat(np.arange(n), np.diff(indptr))
        if n <= DENSE_MAX:
            self.A = np.zeros((n, n), dtype=bool)
            self.A[rows, indices] = True
            self.codes = None
        else:
            self.A = None
            self.codes = np.sort(rows * n + indices)

    def has(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if self.A is not None:
            return self.A[a, b]
        q = a * self.n + b
        pos = np.minimum(np.searchsorted(self.codes, q), max(self.codes.size - 1, 0))
        return self.codes[pos] == q if self.codes.size else np.zeros(q.shape, dtype=bool)


def triangles_per_node(n: int, indptr, indices, deg, edges: _Edges | None) -> np.ndarray:
    """Triangles through each node: half the common neighbours summed over its edges (row ANDs
    of the dense adjacency when ``2 m n`` is small, a matrix product up to :data:`DENSE_MAX`
    nodes, scipy's sparse product above; ``edges`` None: sparse)."""
    if edges is not None and edges.A is not None and indices.size * n <= _ROW_AND_MAX:
        rows = np.repeat(np.arange(n), deg)
        common = (edges.A[rows] & edges.A[indices]).sum(axis=1)
        cum = np.concatenate([[0], np.cumsum(common)])
        return (cum[indptr[1:]] - cum[indptr[:-1]]) // 2
    if edges is not None and edges.A is not None:
        A = edges.A.astype(np.float64)
        return np.rint(((A @ A) * A).sum(axis=1) / 2).astype(np.int64)
    import scipy.sparse as sp

    # int32 counts are exact: a node's common neighbours with one neighbour are below n < 2^31
    small = n < 2**31 and indices.size < 2**31
    itype = np.int32 if small else np.int64
    A = sp.csr_array((np.ones(indices.size, dtype=itype), indices.astype(itype), indptr.astype(itype)), shape=(n, n))
    return np.asarray(((A @ A) * A).sum(axis=1, dtype=np.int64)).reshape(-1) // 2


#: Largest ``2 m n`` for which :func:`triangles_per_node` ANDs adjacency rows (bytes of the boolean block).
_ROW_AND_MAX = 2**24


def counts3(G: nx.Graph | None, csr=None, tri: np.ndarray | None = None) -> np.ndarray:
    """S3 counts ``[n, 2]`` of ``G``, or of the graph whose :func:`graph_csr` is ``csr`` (``G``
    None: e.g. a disjoint union of many graphs, :mod:`wltools.refine.batch`); ``tri``: the
    triangles through each node, if the caller has them."""
    indptr, indices, deg = csr if csr is not None else _csr(G)
    n = deg.size
    if tri is None:
        tri = triangles_per_node(n, indptr, indices, deg, _Edges(n, indptr, indices) if n <= DENSE_MAX else None)
    cum = np.concatenate([[0], np.cumsum(deg[indices])])
    nbr_deg = cum[indptr[1:]] - cum[indptr[:-1]]  # summed degrees of the neighbours
    # induced 3-paths through v: as the centre C(d, 2) - tri; as an end sum_u (d_u - 1) - 2 tri
    paths = deg * (deg - 1) // 2 + nbr_deg - deg - 3 * tri
    return np.stack([tri, paths], axis=1)


def _segments(sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For segments of the given sizes: the owner of each slot and its offset in the segment."""
    owner = np.repeat(np.arange(sizes.size), sizes)
    starts = np.cumsum(sizes) - sizes
    return owner, np.arange(int(sizes.sum())) - starts[owner]


#: :func:`counts4` switches to :func:`_counts4_algebraic` when the ordered 3-edge paths number
#: more than this many per ``n^2`` (dense graphs: the ``O(n^3)`` products cost less).
_ALGEBRAIC_PATHS_PER_N2 = 8


def _counts4_algebraic(n: int, indptr, indices, deg) -> np.ndarray:
    """The S4 counts of :func:`counts4` from matrix products (dense graphs): per node ``v`` the
    number of (not necessarily induced) copies of each pattern through ``v``, then the induced
    counts by inverting ``N_P(v) = sum_T c(P, T) I_T(v)``, ``c(P, T)`` the spanning copies of
    ``P`` in ``T`` (P4 in C4 4, paw 2, diamond 6, K4 12; claw in paw 1, diamond 2, K4 4; C4 in
    diamond 1, K4 3; paw in diamond 4, K4 12; diamond in K4 6). Float64 products of 0/1 matrices
    are exact here (entries far below 2^53 for ``n`` up to :data:`DENSE_MAX`)."""
    A = np.zeros((n, n), dtype=np.float64)
    A[np.repeat(np.arange(n), deg), indices] = 1.0
    A2 = A @ A
    d = deg.astype(np.float64)
    Ad = A @ d
    t = (A2 * A).sum(axis=1) / 2  # triangles through v
    diag4 = (A2 * A2).sum(axis=1)  # (A^4)_vv
    # P4: v an end (paths v-b-c-d) or an inner node (a-v-c-d)
    p4 = (A @ (Ad - d)) - d * (d - 1) - 2 * t + (d - 1) * (Ad - d) - 2 * t
    claw = d * (d - 1) * (d - 2) / 6 + A @ ((d - 1) * (d - 2) / 2)
    c4 = (diag4 - d * d - Ad + d) / 2
    paw = t * (d - 2) + (A @ t - 2 * t) + ((A * A2) @ (d - 2))
    spine = (A * (A2 * (A2 - 1) / 2)).sum(axis=1)
    M = A * (A2 - 1)
    tip = ((A @ M) * A).sum(axis=1) / 2
    diamond = spine + tip
    k4 = np.zeros(n)
    for v in range(n):  # triangles inside N(v)
        nb = indices[indptr[v]:indptr[v + 1]]
        if nb.size >= 3:
            B = A[np.ix_(nb, nb)]
            k4[v] = ((B @ B) * B).sum() / 6
    N = np.rint(np.stack([p4, claw, diamond, k4, c4, paw], axis=1)).astype(np.int64)
    i_k4 = N[:, 3]
    i_diamond = N[:, 2] - 6 * i_k4
    i_c4 = N[:, 4] - i_diamond - 3 * i_k4
    i_paw = N[:, 5] - 4 * i_diamond - 12 * i_k4
    i_claw = N[:, 1] - i_paw - 2 * i_diamond - 4 * i_k4
    i_p4 = N[:, 0] - 4 * i_c4 - 2 * i_paw - 6 * i_diamond - 12 * i_k4
    return np.stack([i_p4, i_claw, i_diamond, i_k4, i_c4, i_paw], axis=1)


#: Work arrays of the enumeration above which :func:`counts4` takes the matrix products.
ENUMERATION_BYTES = 256 * 2**20


def _prefer_algebraic(n: int, indices, deg) -> bool:
    """Whether the ``O(n^3)`` products beat enumerating: more than
    :data:`_ALGEBRAIC_PATHS_PER_N2` ``n^2`` ordered 3-edge paths, or enumeration arrays
    (112 bytes a path, 80 a neighbour pair, 48 a claw triple) above :data:`ENUMERATION_BYTES`."""
    paths = int((deg[np.repeat(np.arange(n), deg)] * deg[indices]).sum())
    enum_bytes = 112 * paths + 80 * int((deg * deg).sum()) + 8 * int((deg * (deg - 1) * (deg - 2)).sum())
    return paths > _ALGEBRAIC_PATHS_PER_N2 * n * n or enum_bytes > ENUMERATION_BYTES


def counts4(G: nx.Graph | None, csr=None) -> np.ndarray:
    """S4 counts ``[n, 6]`` of ``G`` or of the graph whose :func:`graph_csr` is ``csr``."""
    indptr, indices, deg = csr if csr is not None else _csr(G)
    n = deg.size
    if n <= DENSE_MAX and _prefer_algebraic(n, indices, deg):
        return _counts4_algebraic(n, indptr, indices, deg)
    edges = _Edges(n, indptr, indices)
    out = np.zeros(6 * n, dtype=np.int64)
    # ordered simple paths a - b - c - d: every directed edge (b, c) with a in N(b), d in N(c)
    b = np.repeat(np.arange(n), deg)
    c = indices
    sizes = deg[b] * deg[c]
    if sizes.sum():
        owner, off = _segments(sizes)
        dc = deg[c][owner]
        a = indices[indptr[b[owner]] + off // dc]
        d = indices[indptr[c[owner]] + off % dc]
        bb, cc = b[owner], c[owner]
        ok = (a != cc) & (d != bb) & (a != d)
        a, bb, cc, d = a[ok], bb[ok], cc[ok], d[ok]
        e13, e14, e24 = edges.has(a, cc), edges.has(a, d), edges.has(bb, d)
        extra = e13.astype(np.int64) + e14 + e24
        # reference types: 0 P4, 2 diamond, 3 K4 by the extra edges; one extra edge: C4 (4) if it
        # closes the path, else paw (5)
        kind = np.where(extra == 1, np.where(e14, 4, 5), extra)
        for x in (a, bb, cc, d):
            out += np.bincount(kind * n + x, minlength=6 * n)
    # claws: a centre and three pairwise non-adjacent neighbours, each set once
    sq = deg * deg
    if sq.sum():
        v, off = _segments(sq)  # the ordered pairs (i, j) of positions in v's neighbour list
        dv = deg[v]
        i, j = off // dv, off % dv
        v, i, j, dv = v[i < j], i[i < j], j[i < j], dv[i < j]
        x = indices[indptr[v] + i]
        y = indices[indptr[v] + j]
        free = ~edges.has(x, y)
        v, j, x, y, dv = v[free], j[free], x[free], y[free], dv[free]
        z_sizes = dv - 1 - j
        if z_sizes.sum():
            p, zoff = _segments(z_sizes)
            z = indices[indptr[v[p]] + j[p] + 1 + zoff]
            keep = ~edges.has(x[p], z) & ~edges.has(y[p], z)
            for w in (v[p][keep], x[p][keep], y[p][keep], z[keep]):
                out += np.bincount(n + w, minlength=6 * n)
    counts = out.reshape(6, n).T
    return counts // np.array([2, 1, 12, 24, 8, 4], dtype=np.int64)


def substructure_counts(G: nx.Graph, k: int) -> list[tuple[int, ...]]:
    """Per node of ``G`` (nodes ``0..n-1``), the number of connected induced ``k``-node subgraphs
    of each type of :data:`TYPES` ``[k]`` that contain it (``k`` = 3 or 4); vectorised.

    Examples
    --------
    >>> import networkx as nx
    >>> substructure_counts(nx.path_graph(4), 3)
    [(0, 1), (0, 2), (0, 2), (0, 1)]
    >>> substructure_counts(nx.star_graph(3), 4)[0]
    (0, 1, 0, 0, 0, 0)
    """
    if k not in TYPES:
        raise ValueError(f"k must be 3 or 4, got {k}")
    if G.number_of_nodes() == 0:
        return []
    counts = counts3(G) if k == 3 else counts4(G)
    return list(map(tuple, counts.tolist()))


#: :func:`substructure_counts_reference` enumerates all k-subsets up to this many.
_ALL_SUBSETS = 3_000_000

#: Connected graphs on 3 and 4 nodes by (nodes, edges, sorted degrees).
_SHAPES = {
    (3, 2, (1, 1, 2)): "induced 3-path", (3, 3, (2, 2, 2)): "triangle",
    (4, 3, (1, 1, 2, 2)): "4-path", (4, 3, (1, 1, 1, 3)): "claw", (4, 4, (2, 2, 2, 2)): "4-cycle",
    (4, 4, (1, 2, 2, 3)): "paw", (4, 5, (2, 2, 3, 3)): "diamond", (4, 6, (3, 3, 3, 3)): "K4",
}


def _type_of(nodes: int, edges: int, degrees: tuple) -> str | None:
    """The type of a graph on 3 or 4 nodes, None if it is disconnected."""
    return _SHAPES.get((nodes, edges, degrees))


def substructure_counts_reference(G: nx.Graph, k: int) -> list[tuple[int, ...]]:
    """:func:`substructure_counts` the straightforward way: every ``k``-node set, classified by
    its induced edges (edge count and degree sequence; disconnected sets are skipped). Sets come
    from ``itertools.combinations`` when there are at most :data:`_ALL_SUBSETS` of them, else
    they are grown node by node from single nodes through neighbours and deduplicated.

    Examples
    --------
    >>> import networkx as nx
    >>> substructure_counts_reference(nx.path_graph(4), 3) == substructure_counts(nx.path_graph(4), 3)
    True
    """
    if k not in TYPES:
        raise ValueError(f"k must be 3 or 4, got {k}")
    nodes = sorted(G.nodes)
    adj = {v: set(G[v]) for v in nodes}
    if comb(len(nodes), k) <= _ALL_SUBSETS:
        sets = combinations(nodes, k)
    else:
        layer = {frozenset([v]) for v in nodes}
        for _ in range(k - 1):
            layer = {S | {u} for S in layer for v in S for u in adj[v] if u not in S}
        sets = (tuple(S) for S in layer)
    index = {name: i for i, name in enumerate(TYPES[k])}
    counts = {v: [0] * len(TYPES[k]) for v in nodes}
    for S in sets:
        degrees = [len(adj[v].intersection(S)) for v in S]  # S's nodes are distinct
        edges = sum(degrees) // 2
        if edges < k - 1:  # fewer than k - 1 edges: disconnected, no type
            continue
        name = _type_of(k, edges, tuple(sorted(degrees)))
        if name is not None:
            for v in S:
                counts[v][index[name]] += 1
    return [tuple(counts[v]) for v in nodes]


def describe_counts(k: int):
    names = TYPES[k]

    def text(key) -> str:
        parts = [f"{c} {name}{'' if c == 1 else 's'}" for c, name in zip(key, names)]
        return "nodes in " + (" and ".join(parts) if k == 3 else ", ".join(parts))

    return text


def refine_substructure(G: nx.Graph, H: nx.Graph, test: str) -> RefinementResult:
    """S3 / S4 on a pair of graphs of equal order on nodes ``0..n-1`` (fast, exact).

    Examples
    --------
    >>> import networkx as nx
    >>> refine_substructure(nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4)), "s4").iteration
    0
    """
    check_pair(G, H)
    return refine(substructure_declaration(G, H, test))


def substructure_declaration(G: nx.Graph, H: nx.Graph, test: str) -> Declaration:
    """S3 / S4 as a :class:`~wltools.refine.kernel.Declaration`: 1-WL from the induced-subgraph
    counts of every node (:func:`~wltools.refine.seeded.keys_declaration`)."""
    k = _k_of(test)
    count = counts3 if k == 3 else counts4
    csr_g, csr_h = graph_csr(G), graph_csr(H)
    keys_g = count(G, csr_g) if G.number_of_nodes() else np.zeros((0, len(TYPES[k])), dtype=np.int64)
    keys_h = count(H, csr_h) if H.number_of_nodes() else np.zeros((0, len(TYPES[k])), dtype=np.int64)
    return keys_declaration(test, G, H, keys_g, keys_h, describe_counts(k), csr_g, csr_h)


def refine_substructure_reference(G: nx.Graph, H: nx.Graph, test: str) -> RefinementResult:
    """S3 / S4 the straightforward way (:func:`substructure_counts_reference`, dict-based 1-WL).

    Examples
    --------
    >>> import networkx as nx
    >>> refine_substructure_reference(nx.cycle_graph(6), nx.circulant_graph(6, [1, 2]), "s3").iteration
    0
    """
    check_pair(G, H)
    k = _k_of(test)
    return refine_from_keys_reference(
        test, G, H, substructure_counts_reference(G, k), substructure_counts_reference(H, k))
