"""Homomorphism counts of many patterns into many graphs, each graph counted by the exact method
that costs it least.

Two exact methods count hom(F, G) for a connected pattern F:

* the dense dynamic programme of :mod:`wltools.hom.count`: about n^|bag| multiply-adds per bag
  of an optimal tree decomposition, whatever G's density; graphs of one size are stacked and
  counted together (:func:`wltools.hom.count.dp_batched`, one numpy call per contraction);
* elimination over sparse tables (:mod:`wltools.hom.sparse`): about sum of deg(x)^q rows per
  step, every graph of the batch in one union.

A pattern of treewidth t into a graph of n vertices and maximum degree Δ costs n^(t+1) dense and
about n * Δ^t sparse, so the sparse method wins by (n/Δ)^t on sparse graphs (BREC's CFI graphs:
a treewidth-4 pattern into 198 vertices of degree 3 is 3 * 10^11 multiply-adds dense and 10^4
rows sparse) and the dense one on dense graphs (BREC's 4-vertex-condition graphs, n = 63 and
Δ = 30, where a table row costs a hundred multiply-adds). :class:`Counter` estimates both per
graph (:data:`SPARSE_ROW_SECONDS`, :data:`DENSE_OP_SECONDS`) and takes the cheaper one; a sparse
pass that would pass :data:`wltools.hom.sparse.MAX_ROWS` rows is split, and a graph whose tables
alone pass it goes dense. Both are exact, so the choice changes only the time; the tests check
each method alone against backtracking and the two against each other.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import networkx as nx
import numpy as np

from . import dense as _dense
from .sparse import GraphBatch, TooManyRows, estimated_rows

__all__ = ["Counter", "SPARSE_ROW_SECONDS", "DENSE_OP_SECONDS", "plan_count", "prefer_sparse"]

#: Seconds per estimated table row of the elimination (made, checked against the edges and
#: sorted) and per multiply-add of the dense programme through BLAS, measured on BREC graphs
#: (2-core machine: 0.5-2e-7 s a row on the 4-vertex-condition graphs, 0.35e-9 s an
#: operation); only their ratio matters, and a wrong ratio costs time, never exactness.
SPARSE_ROW_SECONDS = 3e-8
DENSE_OP_SECONDS = 5e-10
#: Graphs of one size are stacked into one dense programme while each needs fewer operations
#: than this (numpy's own loop, no BLAS, but one call for all); larger ones go one by one
#: through BLAS.
STACK_WORK = 1e6
#: Seconds a single count pays before its first row or operation (measured: about 1 ms for the
#: elimination, 0.3 ms for the dense programme), for :func:`prefer_sparse`.
SPARSE_CALL_SECONDS = 1e-3
DENSE_CALL_SECONDS = 3e-4
#: Bytes a stacked dense contraction may hold (the stack is cut into chunks below it).
DENSE_CHUNK_BYTES = 1 << 28


class Counter:
    """Exact hom(F, G) of patterns F into a fixed list of graphs (checked once).

    Examples
    --------
    >>> c = Counter([nx.complete_graph(4), nx.petersen_graph(), nx.cycle_graph(500)])
    >>> c.counts(nx.cycle_graph(3)), c.counts(nx.cycle_graph(4))
    ([24, 0, 0], [84, 150, 3000])
    >>> c.methods(nx.cycle_graph(4))  # the large sparse cycle by elimination
    ['dense', 'dense', 'sparse']
    """

    def __init__(self, graphs, max_work: float = _dense.MAX_WORK):
        self.graphs = list(graphs)
        for i, G in enumerate(self.graphs):
            _dense.check_unlabelled(G, f"graph {i}" if len(self.graphs) > 1 else "the graph G")
        self.sizes = np.array([G.number_of_nodes() for G in self.graphs], dtype=np.float64)
        self.max_degree = [max((d for _, d in G.degree()), default=0) for G in self.graphs]
        self._degrees = [np.fromiter((d for _, d in G.degree()), dtype=np.float64, count=G.number_of_nodes())
                         for G in self.graphs]
        self._powers: dict = {}
        self.density = np.array([2 * G.number_of_edges() / max(G.number_of_nodes(), 1) ** 2 for G in self.graphs])
        self._sparse: GraphBatch | None = None
        self._adjacency: dict = {}
        self.max_work = max_work

    def _power(self, q: int) -> np.ndarray:
        """Per graph, sum over its vertices of deg(x)^q."""
        if q not in self._powers:
            self._powers[q] = np.array([float((d ** q).sum()) for d in self._degrees])
        return self._powers[q]

    def _work(self, F: nx.Graph) -> np.ndarray:
        """Per graph, the dense programme's multiply-adds (sum over bags of n^|bag|)."""
        bags = _dense._plan(F, ())[1]
        return sum(self.sizes ** k for k in bags)

    def _dense_mask(self, F: nx.Graph) -> np.ndarray:
        rows = estimated_rows(F, (), self._power, self.density)
        work = self._work(F)
        return (work * DENSE_OP_SECONDS <= rows * SPARSE_ROW_SECONDS) & (work <= self.max_work)

    def methods(self, F: nx.Graph) -> list[str]:
        """The method each graph's count of the connected F would take first: ``"dense"`` or
        ``"sparse"``."""
        if F.number_of_nodes() <= 1:
            return ["dense"] * len(self.graphs)
        return ["dense" if d else "sparse" for d in self._dense_mask(F)]

    def counts(self, F: nx.Graph, which=None) -> list[int]:
        """``[hom(F, G) for G in graphs]`` (the graphs at the indices ``which`` only, in that order,
        when given), exact Python ints; disconnected F: the product over its components."""
        from .sparse import _check_pattern

        _check_pattern(F)
        which = list(range(len(self.graphs))) if which is None else list(which)
        out = [1] * len(which)
        for comp in nx.connected_components(F):
            C = nx.Graph(F.subgraph(comp))
            got = self._connected(C, which)
            out = [a * b for a, b in zip(out, got)]
        return out

    def _connected(self, F: nx.Graph, which: list) -> list[int]:
        if F.number_of_nodes() == 1:
            return [self.graphs[i].number_of_nodes() for i in which]
        dense = self._dense_mask(F)
        result: dict = {}
        self._count_sparse(F, [i for i in which if not dense[i]], result)
        self._count_dense(F, [i for i in which if dense[i] or i not in result], result)
        return [result[i] for i in which]

    def _count_sparse(self, F: nx.Graph, idx: list, result: dict) -> None:
        """Elimination over the graphs ``idx``, in halves where a table would pass the row cap;
        a single graph over it is left to the dense programme."""
        if not idx:
            return
        if self._sparse is None:
            self._sparse = GraphBatch(self.graphs, checked=True)
        try:
            result.update(zip(idx, self._sparse.connected_counts(F, idx)))
        except TooManyRows:
            if len(idx) > 1:
                self._count_sparse(F, idx[:len(idx) // 2], result)
                self._count_sparse(F, idx[len(idx) // 2:], result)

    def _count_dense(self, F: nx.Graph, idx: list, result: dict) -> None:
        """The dense programme over the graphs ``idx``: small ones stacked, padded with isolated
        vertices to a common size (:func:`_padded`; no vertex of a connected F with an edge maps
        to an isolated vertex, so the counts do not change), large ones one at a time through
        BLAS."""
        bags = _dense._plan(F, ())[1]
        by_n = defaultdict(list)
        for i in idx:
            by_n[int(self.sizes[i])].append(i)
        groups = defaultdict(list)
        for n, members in by_n.items():
            if n == 0:
                result.update((i, 0) for i in members)
                continue
            _dense._check_work(bags, n, self.max_work)
            size = _padded(n)
            groups[size if sum(float(size) ** b for b in bags) <= STACK_WORK else -n] += members
        k = F.number_of_nodes()
        steps = _dense._plan(F, ())[0]
        for key, group in groups.items():
            size = abs(key)
            dtype = _dense._dtype_of(size, max(self.max_degree[i] for i in group), k)
            if key < 0:  # large graphs: BLAS, one at a time
                for i in group:
                    result[i] = _dense._exact(_dense._dp(F, self._matrix(i, dtype), (), self.max_work)[()])
                continue
            chunk = max(1, DENSE_CHUNK_BYTES // max(_bytes_per_graph(steps, size, dtype is object), 1))
            for s in range(0, len(group), chunk):
                part = group[s:s + chunk]
                stack = np.zeros((len(part), size, size), dtype=dtype)
                for j, i in enumerate(part):
                    n = self.graphs[i].number_of_nodes()
                    stack[j, :n, :n] = self._matrix(i, dtype)
                values = _dense.dp_batched(F, stack)
                if dtype is not object:  # exact integers below 2^53 (float64) or 2^62 (int64)
                    values = np.rint(values).astype(np.int64).tolist()
                result.update((i, int(v)) for i, v in zip(part, values))

    def _matrix(self, i: int, dtype) -> np.ndarray:
        """Graph i's adjacency matrix in ``dtype`` (kept)."""
        key = (i, dtype)
        if key not in self._adjacency:
            self._adjacency[key] = _dense._adjacency(self.graphs[i], dtype)
        return self._adjacency[key]


@lru_cache(maxsize=4096)
def _bytes_per_graph(steps: tuple, size: int, python_ints: bool) -> int:
    """Peak bytes of one graph's share of a stacked dense programme (:func:`wltools.hom.count._steps_bytes`)."""
    return _dense._steps_bytes(steps, size, _dense._OBJECT_ENTRY if python_ints else 8)


def _padded(n: int) -> int:
    """The stack size for a graph of n vertices: n rounded up to 2^j times 1, 1.25, 1.5, 1.75 or
    2 (at least 8; at most a third more vertices), so graphs of nearby sizes share one stack."""
    if n <= 8:
        return 8
    j = (n - 1).bit_length() - 1
    return next(c for c in (1 << j, (5 << j) // 4, (3 << j) // 2, (7 << j) // 4, 2 << j) if c >= n)


def plan_count(F: nx.Graph, G: nx.Graph, roots: tuple = ()) -> tuple[str, float, int]:
    """``(method, seconds, bytes)`` for one count of the connected F into G rooted at ``roots``:
    the method estimated cheaper (``"sparse"``: elimination, ``"dense"``: the dense programme;
    module docstring, the per-call times included), its estimated seconds and an upper estimate
    of its peak memory (dense: :func:`wltools.hom.dense.peak_bytes`; elimination: its tables at
    the rows estimated, at most :data:`wltools.hom.sparse.MAX_ROWS`, with their sort copies, the
    union of G and the table of rooted counts handed back)."""
    from .sparse import _PIECE, MAX_ROWS

    n, m, k = G.number_of_nodes(), G.number_of_edges(), F.number_of_nodes()
    delta = max((d for _, d in G.degree()), default=0)
    dense_seconds = DENSE_CALL_SECONDS + sum(float(n) ** b for b in _dense._plan(F, tuple(roots))[1]) * DENSE_OP_SECONDS
    dense = ("dense", dense_seconds, _dense.peak_bytes(F, n, tuple(roots), delta))
    if k <= 1:
        return dense
    d = np.fromiter((x for _, x in G.degree()), dtype=np.float64, count=n)
    density = 2 * m / max(n, 1) ** 2
    work = estimated_rows(F, tuple(roots), lambda q: float((d ** q).sum()), density)
    rooted = float(n) ** len(roots)
    seconds = SPARSE_CALL_SECONDS + work * SPARSE_ROW_SECONDS + rooted * 8 * DENSE_OP_SECONDS
    rows = min(float(MAX_ROWS), estimated_rows(F, tuple(roots), lambda q: float((d ** q).sum()), density, False))
    need = int(4 * (rows + min(_PIECE, rows)) * 8 * (k + 2) + 64 * m + 16 * n + _dense._OBJECT_ENTRY * rooted)
    return ("sparse", seconds, need) if seconds < dense_seconds else dense


def prefer_sparse(F: nx.Graph, G: nx.Graph, roots: tuple = ()) -> bool:
    """Whether one count of the connected F into G (rooted at ``roots``) is estimated cheaper by
    elimination than by the dense programme (:func:`plan_count`)."""
    return plan_count(F, G, roots)[0] == "sparse"
