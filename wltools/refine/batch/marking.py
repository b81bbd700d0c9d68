"""M1 on many pairs at once, for :mod:`wltools.refine.batch`: the same results as
:func:`wltools.refine.marking.refine_marking` pair by pair, witnesses included.

BREC's node-marking baseline M1 (Wang & Zhang, "Towards Better Evaluation of GNN Expressiveness
with BREC Dataset", Sec. 5, Table 2; ``WL_marking`` in ``Non-GNNs/utils.py``) refines, per pair,
one marked copy of G or H per automorphism orbit, all copies of the pair jointly
(:func:`~wltools.refine.marking.marked_classes`). Its witness names the class of a marked copy by
an id that comes from the kernel's numbering: every round numbers the pair's rows ``[colour,
sorted neighbour colours, padding -1]`` by the rank of their salt-0 hash
(:func:`~wltools.runtime.hashing.unique_rows`), and the copy classes are the ranks of the hashes
of the copies' sorted colour histograms. The ids are part of the result, so this module computes
*the same ids*: the same hashes (:func:`~wltools.runtime.hashing.key_hashes` of the same rows:
weights of the pair's row width, the padding's terms, the same mixing), ranked within each pair,
over the disjoint union of all pairs (and of all their copies) at once:

1. the plain stable 1-WL colouring of each pair from all-zero colours, rounds until the number of
   colours stops growing, the ids of the round that found it stable
   (:func:`~wltools.refine.marking._plain_stable`);
2. the automorphism orbits of every graph (nauty, :func:`~wltools.refine.marking.automorphism_orbits`)
   and one copy per orbit, G's then H's, by orbit;
3. the copies' initial ids (the rank of ``2 plain + mark`` in the pair) and their joint rounds,
   per pair until the number of colours stops growing: its rounds and its last accepted colours;
4. each copy's sorted colour histogram, its class (the rank of its row hash in the pair) and its
   number of colours; the nodes' colours, result and witness by the same functions as the pair
   alone (:func:`~wltools.refine.marking.copy_classes_to_nodes`,
   :func:`~wltools.refine.marking.copies_result`).

Every grouping by hash is verified row by row within its pair (equal hashes, equal rows). Where
the kernel would have met a collision it would retry with other weights and number otherwise, so
such a pair (in practice never: probability about ``2^-64`` per pair of rows), and a pair of one
node (its histogram rows have no items: the kernel groups them by value), is left to
:func:`~wltools.refine.refine_pair`.

Examples
--------
>>> import networkx as nx
>>> from wltools.refine import refine_pair
>>> from wltools.refine.batch.union import union_of
>>> from wltools.wltests.marking import M1
>>> pairs = [(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
...          (nx.path_graph(4), nx.star_graph(3))]
>>> marking_results(union_of(pairs)[0], pairs, M1.name) == [refine_pair(G, H, M1.name) for G, H in pairs]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ...runtime import hashing
from ...runtime.hashing import GOLDEN, MIX
from .rounds import Classes, distinct, first_relevant, group_ids, split_round
from .union import Union

__all__ = ["marking_results", "COPY_NODES"]

#: The copies of at most about this many nodes are refined together (memory grows with them).
COPY_NODES = 2**21


@dataclass
class _Graphs:
    """A disjoint union of graphs in groups (a group: one refinement of the pair path, its rows
    ranked together), each group's nodes consecutive: CSR, each node's group (``pair_of``), and
    the number of groups; what :func:`~wltools.refine.batch.rounds.split_round` reads (with
    :attr:`owner`, computed when first read)."""

    indptr: np.ndarray
    indices: np.ndarray
    deg: np.ndarray
    pair_of: np.ndarray
    pairs: int

    @property
    def nodes(self) -> int:
        return int(self.deg.size)

    @cached_property
    def owner(self) -> np.ndarray:
        """The node whose neighbour list holds each slot (as :attr:`Union.owner`)."""
        return np.repeat(np.arange(self.deg.size, dtype=np.int64), self.deg)

    @property
    def side(self) -> np.ndarray:
        return np.zeros(self.deg.size, dtype=np.int64)


class _Weights:
    """The hash weights of the rows ``[colour, sorted neighbour colours, -1 up to the group's
    width]`` (:func:`~wltools.runtime.hashing.key_hashes` with ``weights(width + 1, 0)``): once
    sorted, slot ``i`` of a node of degree ``d`` holds item ``width - d + i`` (the padding first),
    weighted ``w[1 + width - d + i]``; the padding adds ``-sum w[1 : 1 + width - d]``."""

    def __init__(self, width: np.ndarray):
        widths, which = np.unique(width, return_inverse=True)
        tables = [hashing.weights(w + 1, 0) for w in widths.tolist()]  # through the module: tests patch it
        self.flat = np.concatenate(tables)
        self.run = np.concatenate([np.concatenate([np.zeros(1, dtype=np.uint64), np.cumsum(t[1:], dtype=np.uint64)])
                                   for t in tables])
        self.width = width
        self.start = np.concatenate([[0], np.cumsum([t.size for t in tables])]).astype(np.int64)[which]


def _mix(h: np.ndarray, prefix: np.ndarray) -> np.ndarray:
    """:func:`wltools.runtime.hashing._mix`: the final step of a row's hash."""
    h ^= h >> np.uint64(29)
    h += (prefix.view(np.uint64) + GOLDEN) * MIX
    return h


def _class_hashes(g: _Graphs, cl: Classes, classes: np.ndarray, wt: _Weights) -> np.ndarray:
    """The salt-0 hash of the row of one node of each of ``classes`` (every node of a class has
    the same row), colours read from ``cl.tag`` (each class's id)."""
    rep = np.empty(cl.k, dtype=np.int64)
    if classes.size < cl.k:
        wanted = np.zeros(cl.k, dtype=bool)
        wanted[classes] = True
        nodes = np.flatnonzero(wanted[cl.col])
    else:
        nodes = np.arange(g.nodes, dtype=np.int64)
    rep[cl.col[nodes]] = nodes
    r = rep[classes]
    d = g.deg[r]
    total = int(d.sum())
    ends = np.cumsum(d)
    seg = np.repeat(np.arange(r.size, dtype=np.int64), d)
    slots = np.repeat(g.indptr[r] - ends + d, d) + np.arange(total, dtype=np.int64)
    ids = cl.tag
    k = np.int64(int(ids.max(initial=0)) + 1)
    code = seg * k + ids[cl.col[g.indices[slots]]]
    code.sort()
    items = code - seg * k
    grp = cl.pair[classes]
    W, at = wt.width[grp], wt.start[grp]
    w = wt.flat[np.repeat(at + 1 + W - d - (ends - d), d) + np.arange(total, dtype=np.int64)]
    sums = np.zeros(total + 1, dtype=np.uint64)
    np.cumsum(items.view(np.uint64) * w, out=sums[1:])
    h = sums[ends] - sums[ends - d]
    h -= wt.run[at + W - d]
    prefix = ids[classes]
    h += prefix.view(np.uint64) * wt.flat[at]
    return _mix(h, prefix)


def _sorted_ranks(order: np.ndarray, gs: np.ndarray, vs: np.ndarray, groups: int):
    """For entries in ``order`` sorted by group, then value (``gs``, ``vs``: the sorted groups and
    values): per entry the rank of its value among its group's distinct values, the sorted entries
    that start a new (group, value), their dense running index, and per group its number of
    distinct values."""
    new = np.ones(gs.size, dtype=bool)
    new[1:] = (gs[1:] != gs[:-1]) | (vs[1:] != vs[:-1])
    dense = np.cumsum(new) - 1
    starts = np.ones(gs.size, dtype=bool)
    starts[1:] = gs[1:] != gs[:-1]
    first_dense = np.zeros(groups, dtype=np.int64)
    first_dense[gs[starts]] = dense[starts]
    rank = np.empty(gs.size, dtype=np.int64)
    rank[order] = dense - first_dense[gs]
    return rank, new, dense, np.bincount(gs[new], minlength=groups)


def _ranks(h: np.ndarray, group: np.ndarray, groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per entry the rank of its hash among the distinct hashes of its group (what
    :func:`~wltools.runtime.hashing.group_hashes` gives the group alone), per entry the first
    entry (in that order) with its group and hash, and per group its number of distinct hashes."""
    order = np.argsort(h)
    key = group[order].astype(np.uint16) if groups <= 2**16 else group[order]  # stable 16-bit sorts: radix
    order = order[np.argsort(key, kind="stable")]
    rank, new, dense, counts = _sorted_ranks(order, group[order], h[order], groups)
    rep = np.empty(h.size, dtype=np.int64)
    rep[order] = order[np.flatnonzero(new)[dense]]
    return rank, rep, counts


def _rounds(g: _Graphs, init: np.ndarray, wt: _Weights, live: np.ndarray, proposal: bool = False) -> tuple:
    """The kernel's round loop (:func:`~wltools.refine.kernel.round_loop` over
    :func:`~wltools.refine.seeded.neighbour_aggregate`) on every live group of ``g`` at once,
    from the ids ``init`` (ranks within each group): a round's ids are the ranks of the row
    hashes in the group, accepted while they add classes.

    The partitions come from :func:`~wltools.refine.batch.rounds.split_round` (exact; the classes
    of round ``t + 1`` are the distinct rows of round ``t + 1``), so the rows are hashed once per
    class, and two classes of a group with one hash are a collision (different rows), the group
    then left to the pair path. Returns per node the last accepted ids (and with ``proposal`` the
    ids of the round that found its group stable), per group the rounds and whether it collided."""
    K0 = np.int64(int(init.max(initial=0)) + 1)
    col, first = group_ids(g.pair_of * K0 + init)
    cl = Classes(col, g.pair_of[first], np.bincount(col), np.zeros(first.size, dtype=np.int64), tag=init[first])
    rounds = np.zeros(g.pairs, dtype=np.int64)
    active, dead = live.copy(), ~live
    last = np.full(0, -1, dtype=np.int64)
    relevant, every = first_relevant(cl, active), active[g.pair_of]
    t = 0
    while active.any():
        split, relevant = split_round(g, cl, relevant, every)
        every = None
        stable = active & ~split
        rounds[stable] = t
        target = active if proposal else active & split
        classes = np.flatnonzero(target[cl.pair])
        ids, _, distinct = _ranks(_class_hashes(g, cl, classes, wt), cl.pair[classes], g.pairs)
        dead |= target & (distinct < np.bincount(cl.pair[classes], minlength=g.pairs))
        if proposal:
            last = np.concatenate([last, np.full(cl.k - last.size, -1, dtype=np.int64)])
            done = stable[cl.pair[classes]]
            last[classes[done]] = ids[done]
        grow = split[cl.pair[classes]]
        cl.tag[classes[grow]] = ids[grow]
        active &= split & ~dead
        relevant &= active[cl.pair]
        t += 1
    return cl.tag[cl.col], (last[cl.col] if proposal else None), rounds, dead


def _count_distinct(values: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    """Per group the number of distinct values of its nodes."""
    return _value_ranks(values, group, groups)[1]


def _value_ranks(values: np.ndarray, group: np.ndarray, groups: int) -> tuple[np.ndarray, np.ndarray]:
    """Per node the rank of its value among the distinct values of its group (what
    :func:`~wltools.runtime.hashing.group_hashes` gives one group's values), per group their number."""
    order = np.lexsort((values, group))
    rank, _, _, counts = _sorted_ranks(order, group[order], values[order], groups)
    return rank, counts


def _orbits(u: Union) -> list[np.ndarray]:
    """The automorphism orbits of every graph of the union (nauty), from its CSR."""
    from ..marking import automorphism_orbits

    local, bounds = u.local.tolist(), u.indptr.tolist()
    out = []
    for gi, (s, e) in enumerate(zip(u.gstart[:-1].tolist(), u.gstart[1:].tolist())):
        adjacency = {v - s: local[bounds[v]:bounds[v + 1]] for v in range(s, e)}
        out.append(automorphism_orbits(None, adjacency=adjacency))
    return out


@dataclass
class _Copies:
    """The marked copies of some pairs: per copy its pair, its graph (union graph index), its
    marked node and its first node in the copies' union; per copy node its source node in ``u``."""

    pair: np.ndarray
    graph: np.ndarray
    mark: np.ndarray
    start: np.ndarray
    src: np.ndarray


def _copies(u: Union, orbits: list, pairs: list[int]) -> _Copies:
    """One copy per orbit of G, then per orbit of H, of each of ``pairs`` (orbits in increasing
    order of their least node: :func:`~wltools.refine.marking._marking_jobs`)."""
    pair, graph, mark = [], [], []
    for p in pairs:
        for gi in (2 * p, 2 * p + 1):
            reps = distinct(orbits[gi])
            pair.append(np.full(reps.size, p, dtype=np.int64))
            graph.append(np.full(reps.size, gi, dtype=np.int64))
            mark.append(reps)
    pair, graph, mark = (np.concatenate(x) for x in (pair, graph, mark))
    n = u.n[pair]
    start = np.zeros(n.size + 1, dtype=np.int64)
    np.cumsum(n, out=start[1:])
    copy = np.repeat(np.arange(n.size, dtype=np.int64), n)
    src = u.gstart[graph][copy] + np.arange(int(start[-1]), dtype=np.int64) - start[copy]
    return _Copies(pair, graph, mark, start, src)


def _copy_graphs(u: Union, c: _Copies) -> _Graphs:
    """The copies' union, grouped by pair: a copy of a graph has its edges."""
    deg = u.deg[c.src]
    indptr = np.zeros(deg.size + 1, dtype=np.int64)
    np.cumsum(deg, out=indptr[1:])
    total = int(indptr[-1])
    slots = np.repeat(u.indptr[c.src] - indptr[:-1], deg) + np.arange(total, dtype=np.int64)
    copy = np.repeat(np.arange(c.pair.size, dtype=np.int64), np.diff(c.start))
    indices = u.local[slots] + np.repeat(c.start[copy], deg)
    return _Graphs(indptr, indices, deg, c.pair[copy], u.pairs)


def _copy_classes(u: Union, c: _Copies, col: np.ndarray, groups: int) -> tuple:
    """Per copy: its class (the rank of the hash of its sorted colour histogram among its pair's
    copies: :func:`~wltools.runtime.hashing.unique_rows` of the pair's histogram rows) and its
    number of colours; per pair whether two different histograms share a hash."""
    copies = c.pair.size
    n = np.diff(c.start)
    copy = np.repeat(np.arange(copies, dtype=np.int64), n)
    k = np.int64(int(col.max(initial=0)) + 1)
    code = copy * k + col
    code.sort()
    hist = code - copy * k
    pos = np.arange(hist.size, dtype=np.int64) - c.start[copy]
    w = np.zeros(hist.size, dtype=np.uint64)
    for m in np.unique(n).tolist():
        at = n[copy] == m
        w[at] = hashing.weights(m, 0)[pos[at]]  # prefix hist[0] by w[0], items hist[1:] by w[1:]
    sums = np.zeros(hist.size + 1, dtype=np.uint64)
    np.cumsum(hist.view(np.uint64) * w, out=sums[1:])
    first = hist[c.start[:-1]]
    h = _mix(sums[c.start[1:]] - sums[c.start[:-1]], first)
    cls, rep, _ = _ranks(h, c.pair, groups)
    differs = hist != hist[c.start[rep[copy]] + pos]
    bad = np.bincount(c.pair[copy], weights=differs, minlength=groups) > 0
    changes = np.ones(hist.size, dtype=bool)
    changes[1:] = hist[1:] != hist[:-1]
    changes[c.start[:-1]] = True
    return cls, np.bincount(copy, weights=changes, minlength=copies).astype(np.int64), bad


def _chunks(u: Union, orbits: list, pairs: list[int]):
    """``pairs`` in runs whose copies have at most about :data:`COPY_NODES` nodes."""
    run, total = [], 0
    for p in pairs:
        size = int(u.n[p]) * (distinct(orbits[2 * p]).size + distinct(orbits[2 * p + 1]).size)
        if run and total + size > COPY_NODES:
            yield run
            run, total = [], 0
        run.append(p)
        total += size
    if run:
        yield run


def marking_results(u: Union, pairs: list, test: str) -> list:
    """M1 (``test`` the name in the results) on the pairs of the union ``u`` (``pairs``: their
    graphs): per pair its :func:`~wltools.refine.marking.refine_marking` result, or None for a
    pair left to the pair path (module docstring)."""
    P = u.pairs
    wt = _Weights(np.maximum(np.maximum.reduceat(u.deg, u.start), 1))  # a row's items: the largest degree, >= 1
    plain_graphs = _Graphs(u.indptr, u.indices, u.deg, u.pair_of, P)
    _, plain, _, dead = _rounds(plain_graphs, np.zeros(u.nodes, dtype=np.int64), wt, u.n > 1, proposal=True)
    orbits = _orbits(u)
    out: list = [None] * P
    for run in _chunks(u, orbits, np.flatnonzero(~dead).tolist()):
        _refine_run(u, orbits, run, plain, wt, test, out)
    return out


def _refine_run(u: Union, orbits: list, run: list[int], plain: np.ndarray, wt: _Weights, test: str,
                out: list) -> None:
    """The results of the pairs ``run`` (:func:`marking_results`), into ``out``."""
    from ..marking import copies_result, copy_classes_to_nodes

    P = u.pairs
    c = _copies(u, orbits, run)
    local = c.src - u.gstart[np.repeat(c.graph, np.diff(c.start))]
    marked = local == np.repeat(c.mark, np.diff(c.start))
    init, _ = _value_ranks(2 * plain[c.src] + marked, np.repeat(c.pair, np.diff(c.start)), P)
    live = np.zeros(P, dtype=bool)
    live[run] = True
    col, _, rounds, dead = _rounds(_copy_graphs(u, c), init, wt, live)
    cls, ncls, bad = _copy_classes(u, c, col, P)
    bounds = np.searchsorted(c.pair, np.arange(P + 1))
    cls_l, ncls_l, mark_l, graph_l = cls.tolist(), ncls.tolist(), c.mark.tolist(), c.graph.tolist()
    for p in run:
        if dead[p] or bad[p]:
            continue
        a, b = int(bounds[p]), int(bounds[p + 1])
        jobs = [(graph_l[j] - 2 * p, (mark_l[j],), 0) for j in range(a, b)]
        cg, ch, describe = copy_classes_to_nodes(jobs, cls_l[a:b], ncls_l[a:b], orbits[2 * p:2 * p + 2], 1)
        out[p] = copies_result(test, 1, cg, ch, b - a, int(rounds[p]), describe)
