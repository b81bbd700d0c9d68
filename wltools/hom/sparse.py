"""Exact homomorphism counts hom(F, G) into sparse graphs, many graphs at once, by variable
elimination over sparse tables.

The sum hom(F, G) = sum over x in V(G)^V(F) of prod over uv in E(F) of A[x_u, x_v] (the module
docstring of :mod:`wltools.hom.count`) is evaluated by eliminating F's vertices one at a time
(Dechter, "Bucket elimination", Artificial Intelligence 1999; for homomorphisms Díaz, Serna,
Thilikos, TCS 2002): to eliminate v, the factors holding v are multiplied and v is summed out.
Every factor is a sparse table: the rows are the tuples of G-vertices with a non-zero value and
the value is a count, so a table costs its non-zero entries, not n^|scope| as the dense tensors
of :mod:`wltools.hom.count` do. A factor made by eliminating v joins factors that all hold v, so
its rows are images of a connected piece of F: on a graph of maximum degree Δ a table over c
columns has at most n * Δ^(c-1) rows (n^c dense). On BREC's CFI graphs (n up to 198, Δ at most 17)
that is the difference between refusing a treewidth-4 pattern and counting it in milliseconds.

Many graphs are counted in one pass: they are joined into one disjoint union, every connected F
maps into one component, and the count per graph is the sum of the counts rooted at one vertex
of F over that graph's vertices. A pattern is thus counted into 800 graphs with the same few
hundred numpy calls as into one.

The elimination order keeps the roots last and minimises sum over steps of 8^|scope|
(:func:`_order`; the subset programme of :mod:`wltools.hom.decompose` with a sum instead of a
max): the width of the order is the exponent of Δ, so an order of the pattern's treewidth wins
where one exists.

Exactness: values are int64 where n * max(Δ, 1)^|V(F)| < 2^62 (every partial count and sum is
at most that: :mod:`wltools.hom.count`), Python integers (object arrays) above it. The tests
check every count against :func:`wltools.hom.brute.hom_count_brute` (backtracking, nothing
shared) and against the dense programme.
"""

from __future__ import annotations

from functools import lru_cache

import networkx as nx
import numpy as np

from .decompose import _adjacency_masks, _check_size, _q_size
from .dense import check_unlabelled

__all__ = ["MAX_ROWS", "TooManyRows", "GraphBatch", "estimated_rows"]

_INT64_SAFE = 2 ** 62
#: Base of the order's cost: a step whose table has c columns costs about n * Δ^(c-1) rows.
_COST_BASE = 8
#: The most rows a table may reach (int64 columns and values: about 50 bytes a row over five
#: columns); a product that would pass it raises :class:`TooManyRows` before allocating, and the
#: caller counts fewer graphs at once or uses the dense programme.
MAX_ROWS = 1 << 23


class TooManyRows(Exception):
    """A table would pass :data:`MAX_ROWS` rows."""


def _rows(total: int) -> None:
    if total > MAX_ROWS:
        raise TooManyRows(f"a table of {total:,} rows")


class _Union:
    """Graphs joined into one disjoint union: CSR adjacency over global vertex ids, the first id
    of each graph (``offsets``, with the total at the end) and the sorted codes ``x * N + y`` of
    its directed edges."""

    def __init__(self, graphs):
        sizes = [G.number_of_nodes() for G in graphs]
        self.offsets = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).astype(np.int64)
        self.N = int(self.offsets[-1])
        src, dst = [], []
        self.max_degree = 0
        for G, off in zip(graphs, self.offsets[:-1]):
            index = {v: i for i, v in enumerate(G.nodes)}
            if G.number_of_edges():
                e = np.array([(index[u], index[v]) for u, v in G.edges() if u != v], dtype=np.int64).reshape(-1, 2)
                src += [e[:, 0] + off, e[:, 1] + off]
                dst += [e[:, 1] + off, e[:, 0] + off]
                self.max_degree = max(self.max_degree, max(d for _, d in G.degree()))
        src = np.concatenate(src) if src else np.zeros(0, np.int64)
        dst = np.concatenate(dst) if dst else np.zeros(0, np.int64)
        order = np.lexsort((dst, src))
        self.src, self.dst = src[order], dst[order]
        self.indptr = np.searchsorted(self.src, np.arange(self.N + 1)).astype(np.int64)
        self.codes = self.src * max(self.N, 1) + self.dst  # sorted: (src, dst) lexicographic
        self.max_n = max(sizes, default=0)

    def dtype(self, k: int):
        return np.int64 if max(self.max_n, 1) * max(self.max_degree, 1) ** k < _INT64_SAFE else object

    def has_edges(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        q = x * max(self.N, 1) + y
        i = np.searchsorted(self.codes, q)
        ok = i < self.codes.size
        ok[ok] = self.codes[i[ok]] == q[ok]
        return ok


class _Table:
    """A sparse factor: ``cols`` (pattern vertices), one int64 array of G-vertices per column, and
    the values (counts) of the rows."""

    __slots__ = ("cols", "data", "vals")

    def __init__(self, cols, data, vals):
        self.cols, self.data, self.vals = list(cols), list(data), vals

    def take(self, rows: np.ndarray) -> _Table:
        return _Table(self.cols, [c[rows] for c in self.data], self.vals[rows])

    def column(self, v) -> np.ndarray:
        return self.data[self.cols.index(v)]


def _encode(columns: list, N: int) -> np.ndarray:
    """One int64 code per row for the tuple of ``columns`` (equal tuples, equal codes): mixed
    radix N while it fits in 62 bits, else re-ranked column by column."""
    code = columns[0]
    N = max(N, 1)
    for col in columns[1:]:
        if (int(code.max(initial=0)) + 1) * N >= _INT64_SAFE:
            code = np.unique(code, return_inverse=True)[1].astype(np.int64).reshape(-1)
        code = code * N + col
    return code


#: Rows of one piece of an extension: rows are extended piece by piece and each piece filtered
#: at once, so an extension that the filters cut holds at most this many unfiltered rows.
_PIECE = 1 << 20


def _extend(T: _Table, a, b, U: _Union, checks: tuple = ()) -> _Table:
    """Join the edge factor (a, b) into T, which holds a but not b (every row once per neighbour
    of its a), and at once the edge factors (c, b) for c in ``checks`` (columns of T): each
    piece of :data:`_PIECE` extended rows is filtered before the next is made."""
    x = T.column(a)
    start = U.indptr[x]
    deg = U.indptr[x + 1] - start
    ends = np.cumsum(deg)
    if not checks:
        _rows(int(ends[-1]) if ends.size else 0)
    pieces, kept = [], 0
    lo = 0
    while lo < x.size:
        hi = max(lo + 1, int(np.searchsorted(ends, (ends[lo - 1] if lo else 0) + _PIECE, "right")))
        d = deg[lo:hi]
        rows = np.repeat(np.arange(lo, hi), d)
        first = np.cumsum(d) - d
        new = U.dst[np.repeat(start[lo:hi] - first, d) + np.arange(rows.size)]
        for c in checks:
            ok = U.has_edges(T.column(c)[rows], new)
            rows, new = rows[ok], new[ok]
        kept += rows.size
        _rows(kept)
        pieces.append((rows, new))
        lo = hi
    rows = np.concatenate([r for r, _ in pieces]) if pieces else np.zeros(0, np.int64)
    out = T.take(rows)
    out.cols.append(b)
    out.data.append(np.concatenate([n for _, n in pieces]) if pieces else np.zeros(0, np.int64))
    return out


def _join(T: _Table, M: _Table, U: _Union) -> _Table:
    """The product of T and M on their shared columns (M's other columns appended)."""
    shared = [c for c in M.cols if c in T.cols]
    new = [c for c in M.cols if c not in T.cols]
    both = _encode([np.concatenate([T.column(c), M.column(c)]) for c in shared], U.N)
    tk, mk = both[:T.vals.size], both[T.vals.size:]
    order = np.argsort(mk, kind="stable")
    mk = mk[order]
    lo, hi = np.searchsorted(mk, tk, "left"), np.searchsorted(mk, tk, "right")
    cnt = hi - lo
    _rows(int(cnt.sum()))
    rows = np.repeat(np.arange(tk.size), cnt)
    first = np.cumsum(cnt) - cnt
    other = order[np.repeat(lo - first, cnt) + np.arange(rows.size)]
    out = T.take(rows)
    for c in new:
        out.cols.append(c)
        out.data.append(M.column(c)[other])
    out.vals = out.vals * M.vals[other]
    return out


def _sum_out(T: _Table, v, N: int) -> _Table:
    """Sum v out of T: rows equal on the other columns merged, their values added."""
    keep = [c for c in T.cols if c != v]
    data = [T.column(c) for c in keep]
    if T.vals.size == 0:
        return _Table(keep, data, T.vals)
    code = _encode(data, N)
    order = np.argsort(code, kind="stable")
    code = code[order]
    starts = np.flatnonzero(np.concatenate([[True], code[1:] != code[:-1]]))
    vals = np.add.reduceat(T.vals[order], starts)
    return _Table(keep, [c[order[starts]] for c in data], vals)


@lru_cache(maxsize=4096)
def _order(nodes: tuple, edges: frozenset, roots: tuple) -> tuple:
    """The vertices of the connected pattern (``nodes``, ``edges``) in elimination order, roots
    excluded: the order minimising sum over steps of 8^|Q(S, v)| (the later neighbours v's
    factor joins: Bodlaender et al.'s Q, :mod:`wltools.hom.decompose`), by a programme over the
    subsets of eliminated vertices."""
    F = nx.Graph()
    F.add_nodes_from(nodes)
    F.add_edges_from(tuple(e) for e in edges)
    names, adj = _adjacency_masks(F)
    free = [i for i, v in enumerate(names) if v not in roots]

    @lru_cache(maxsize=None)
    def best(S: int) -> tuple[int, int]:
        if S == 0:
            return 0, -1
        out = None
        s = S
        while s:
            low = s & -s
            v = low.bit_length() - 1
            s ^= low
            cost = best(S ^ low)[0] + _COST_BASE ** _q_size(adj, S ^ low, v)
            if out is None or cost < out[0]:
                out = (cost, v)
        return out

    S = sum(1 << i for i in free)
    order = []
    while S:
        v = best(S)[1]
        order.append(names[v])
        S ^= 1 << v
    return tuple(order[::-1])


def _eliminate(F: nx.Graph, roots: tuple, U: _Union, keep: np.ndarray) -> _Table:
    """The sparse table over ``roots`` of counts of the connected F rooted there, every vertex
    of F but the roots eliminated, into the graphs where ``keep`` (a mask over them) is set:
    tables start from those graphs' edges only, and every row grows from a table's rows."""
    dtype = U.dtype(F.number_of_nodes())
    mine = np.repeat(keep, np.diff(U.offsets))  # per vertex
    if F.number_of_nodes() == 1:
        x = np.flatnonzero(mine).astype(np.int64)
        return _Table(list(roots), [x], np.ones(x.size, dtype=dtype))
    sel = mine[U.src] if not keep.all() else slice(None)
    start = (U.src[sel], U.dst[sel])
    edges = [tuple(e) for e in F.edges]
    tables: list = []  # messages from eliminated vertices
    for v in _order(tuple(F.nodes), frozenset(frozenset(e) for e in edges), tuple(roots)):
        mine_e = [e for e in edges if v in e]
        edges = [e for e in edges if v not in e]
        mine_t = [t for t in tables if v in t.cols]
        tables = [t for t in tables if v not in t.cols]
        tables.append(_sum_out(_product(mine_e, mine_t, start, U, dtype, edges, tables), v, U.N))
    return _product(edges, tables, start, U, dtype, [], [])


def _product(edges: list, tables: list, start: tuple, U: _Union, dtype, spare_edges: list,
             spare_tables: list) -> _Table:
    """The product of the edge factors and tables (all holding the vertex eliminated, or over
    the roots at the end, where elimination leaves them connected): start from the largest table
    (or an edge: the ``start`` edge arrays, those of the graphs counted), then take filters
    (factors within the columns already there) before extensions, so rows only grow when nothing
    can cut them; an extension applies the edges that close on its new column as it goes. A factor of ``spare_edges`` or
    ``spare_tables`` (the others still to multiply) that falls within the columns is taken as a
    filter too, and removed from its list: every factor is multiplied once, only sooner (a
    clique's edges cut its rows at once instead of after the sum)."""
    tables = sorted(tables, key=lambda t: (len(t.cols), t.vals.size), reverse=True)
    if tables:
        T = tables.pop(0)
    else:
        a, b = edges.pop(0)
        T = _Table([a, b], list(start), np.ones(start[0].size, dtype=dtype))
    while True:
        have = set(T.cols)
        for spare, mine in ((spare_edges, edges), (spare_tables, tables)):
            for f in [f for f in spare if set(f if isinstance(f, tuple) else f.cols) <= have]:
                spare.remove(f)
                mine.append(f)
        if not (edges or tables):
            break
        if T.vals.size == 0:  # nothing left to count: the missing columns, empty
            for c in {c for e in edges for c in e} | {c for t in tables for c in t.cols}:
                if c not in T.cols:
                    T.cols.append(c)
                    T.data.append(np.zeros(0, np.int64))
            break
        inside = next((e for e in edges if set(e) <= have), None)
        within = next((t for t in tables if set(t.cols) <= have), None)
        if inside is not None:
            edges.remove(inside)
            T = T.take(np.flatnonzero(U.has_edges(T.column(inside[0]), T.column(inside[1]))))
        elif within is not None:
            tables.remove(within)
            T = _join(T, within, U)
        elif any(set(e) & have for e in edges):
            a, b = next(e if e[0] in have else e[::-1] for e in edges if set(e) & have)
            edges.remove((a, b) if (a, b) in edges else (b, a))
            closing = [e for e in edges if b in e and (set(e) - {b}) <= have]  # (c, b): filters at once
            closing += [e for e in spare_edges if b in e and (set(e) - {b}) <= have]
            for e in closing:
                (edges if e in edges else spare_edges).remove(e)
            T = _extend(T, a, b, U, tuple(c for e in closing for c in e if c != b))
        else:
            t = next(t for t in tables if set(t.cols) & have)
            tables.remove(t)
            T = _join(T, t, U)
    return T


@lru_cache(maxsize=4096)
def _widths(nodes: tuple, edges: frozenset, roots: tuple) -> tuple:
    """``(q, e)`` of each elimination step (:func:`_order`) of the connected pattern, for
    :func:`estimated_rows`: v's q later neighbours (the step's table holds them and v) and the
    e edges of F among them not taken by an earlier step (filters the step applies)."""
    F = nx.Graph()
    F.add_nodes_from(nodes)
    F.add_edges_from(tuple(e) for e in edges)
    names, adj = _adjacency_masks(F)
    index = {v: i for i, v in enumerate(names)}
    S, out, used = 0, [], set()
    for v in _order(nodes, edges, roots or (_root_of(nodes, edges),)):
        i = index[v]
        reach, todo, seen = set(), [i], {i}  # Q(S, v): outside S, reached through S
        while todo:
            u = todo.pop()
            for j in range(len(names)):
                if adj[u] >> j & 1 and j not in seen:
                    seen.add(j)
                    if S >> j & 1:
                        todo.append(j)
                    else:
                        reach.add(j)
        mine = {e for e in edges if {index[u] for u in e} <= reach | {i}} - used
        used |= mine
        out.append((len(reach), sum(1 for e in mine if i not in {index[u] for u in e})))
        S |= 1 << i
    return tuple(out)


def estimated_rows(F: nx.Graph, roots: tuple, degree_power, density=1.0, checks: bool = True) -> float:
    """About how much work eliminating the connected F (``roots`` kept; none: the root of
    :func:`_best_root`) does in a graph, in rows times the edge checks each row undergoes: a
    step whose table holds v and its q later neighbours makes as many rows as v's images have
    q-tuples of neighbours, sum of deg(x)^q (``degree_power(q)``: a number, or an array over
    graphs), of which the step's e edges among those neighbours keep about ``density``^e (the
    edge density 2m / n^2); the filters that close on the last neighbour apply as its rows are
    made, so they cut nothing before; each row is checked against up to e edges (counted when
    ``checks``; without, the estimate is of the rows themselves). Plus the edges a count starts
    from."""
    total = degree_power(1)
    for q, e in _widths(tuple(F.nodes), frozenset(frozenset(x) for x in F.edges), tuple(roots)):
        total = total + degree_power(q) * density ** max(0, e - (q - 1)) * ((1 + e) if checks else 1)
    return total


class GraphBatch:
    """Graphs prepared once (checked, joined into one union) for counting patterns into many of
    them by elimination: :meth:`counts` is ``[hom(F, G) for G in graphs]``,
    :meth:`rooted` the rooted counts. :class:`wltools.hom.batch.Counter` picks, per graph,
    between this and the dense programme.

    Examples
    --------
    >>> batch = GraphBatch([nx.complete_graph(4), nx.petersen_graph(), nx.empty_graph(0)])
    >>> batch.counts(nx.cycle_graph(3)), batch.counts(nx.path_graph(2))
    ([24, 0, 0], [12, 30, 0])
    """

    def __init__(self, graphs, checked: bool = False):
        self.graphs = list(graphs)
        if not checked:
            for i, G in enumerate(self.graphs):
                check_unlabelled(G, f"graph {i}" if len(self.graphs) > 1 else "the graph G")
        self.union = _Union(self.graphs)

    def counts(self, F: nx.Graph, which=None) -> list[int]:
        """hom(F, G) for each graph (for the graphs at the indices ``which`` only, in that order,
        when given), exact Python ints; disconnected F: the product over its components. Raises
        :class:`TooManyRows` before a table passes :data:`MAX_ROWS`."""
        _check_pattern(F)
        which = list(range(len(self.graphs))) if which is None else list(which)
        out = [1] * len(which)
        for comp in nx.connected_components(F):
            C = nx.Graph(F.subgraph(comp))
            for i, c in enumerate(self.connected_counts(C, which)):
                out[i] *= c
        return out

    def connected_counts(self, F: nx.Graph, which: list) -> list[int]:
        """:meth:`counts` of a connected, checked F."""
        U = self.union
        keep = np.zeros(len(self.graphs), dtype=bool)
        keep[which] = True
        T = _eliminate(F, (_best_root(F),), U, keep)
        total = np.zeros(len(self.graphs), dtype=object)
        if T.vals.size:
            gid = np.searchsorted(U.offsets, T.data[0], side="right") - 1
            order = np.argsort(gid, kind="stable")
            gid = gid[order]
            starts = np.flatnonzero(np.concatenate([[True], gid[1:] != gid[:-1]]))
            for g, s in zip(gid[starts], np.add.reduceat(T.vals[order], starts)):
                total[g] = int(s)
        return [int(total[i]) for i in which]

    def rooted(self, F: nx.Graph, roots: tuple) -> list[np.ndarray]:
        """Rooted counts of the connected F into each graph: per graph an object array over
        ``list(G.nodes)`` of shape (n,) for one root and (n, n) for two (as
        :func:`wltools.hom.count.hom_counts_at`)."""
        _check_pattern(F)
        U = self.union
        T = _eliminate(F, tuple(roots), U, np.ones(len(self.graphs), dtype=bool))
        cols = [T.column(r) for r in roots]
        gid = np.searchsorted(U.offsets, cols[0], side="right") - 1
        out = []
        for g, G in enumerate(self.graphs):
            A = np.zeros((G.number_of_nodes(),) * len(roots), dtype=object)
            mine = np.flatnonzero(gid == g)
            for key, val in zip(zip(*(c[mine] - U.offsets[g] for c in cols)), T.vals[mine]):
                A[key] = int(val)
            out.append(A)
        return out


def _check_pattern(F: nx.Graph) -> None:
    """Refuse a labelled or non-simple pattern, and one too large for an exact elimination order."""
    check_unlabelled(F, "the pattern F")
    _check_size(F)


@lru_cache(maxsize=4096)
def _root_of(nodes: tuple, edges: frozenset):
    """The root (kept to the end of an unrooted count, then summed per graph) whose elimination
    order costs least (:func:`_order`); tried for every vertex of patterns up to 8 vertices."""
    if len(nodes) > 8:
        F = nx.Graph(tuple(e) for e in edges)
        candidates = (max(nodes, key=F.degree),)
    else:
        candidates = nodes

    def cost(r) -> int:
        return sum(_COST_BASE ** q for q, _ in _widths(nodes, edges, (r,)))

    return min(candidates, key=cost)


def _best_root(F: nx.Graph):
    return _root_of(tuple(F.nodes), frozenset(frozenset(e) for e in F.edges))
