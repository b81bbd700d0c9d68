"""1-WL on the disjoint union of many pairs at once, with each pair's verdict, rounds and class
sizes, for :mod:`wltools.refine.batch`.

Colours are *pair-local*: the initial colour of a node is its initial key id together with its
pair, so two nodes share a colour only inside one pair. Round ``t + 1`` refines the partition
``P_t`` of round ``t`` by the 1-WL update

.. math::

    \\chi^{t+1}(v) = \\big(\\chi^t(v), \\{\\{\\chi^t(u) : u \\in N(v)\\}\\}\\big),

and within a pair these are exactly the partitions of refining the pair alone
(:func:`wltools.refine.seeded.refine_from_keys`), round by round. Only the partitions matter here
(rounds, class counts and sizes, histograms); the initial keys name the classes of a witness at
iteration 0.

A round touches only what can change (partition refinement with Hopcroft's "all but the largest
piece" rule: Hopcroft 1971; Paige & Tarjan, SIAM J. Comput. 1987; for colour refinement Berkholz,
Bonsma & Grohe, ESA 2013; :mod:`wltools.refine.wl1` does the same for one pair, over whole
neighbourhoods). A colour id stands for a class; when a class splits, one piece keeps its id and
the others get fresh ids. Two nodes of one class of ``P_t`` have the same number of neighbours in
every class of ``P_{t-1}``, so they differ in ``P_{t+1}`` iff they differ in their numbers of
neighbours in the pieces of the classes that split in round ``t``; and since a split class's count
is shared, all pieces but one largest of each split class suffice. These are the round's
*relevant* classes (round 1: every class but one largest of each pair, every node keyed, its
degree in its key: :func:`first_relevant`). A node's key is its colour and the sorted colours of its
neighbours in relevant classes; only nodes with such a neighbour (undirected graphs: the
neighbours of the relevant classes' nodes) are keyed, and in a class the nodes without one share
the key (colour, nothing), unlike every keyed node's. Keys are grouped by the project's one exact
hashing routine (:func:`wltools.runtime.hashing.exact_ids`: hashed, verified entry by entry,
retried with new weights on a collision), so the partitions are exact.

Per pair: the rounds until a round splits no class (the stopping rule of
:func:`~wltools.refine.engine.run_refinement`: then the partition is stable), the first iteration
whose colour histograms differ (class counts in G and H are kept up to date as classes split) and
the class sizes of the stable partition (a stable pair is never touched again, so its
colours at the end are its stable ones). A pair whose nodes all have one initial colour and one
degree is stable at iteration 0 without a round (:func:`_uniform`).

Examples
--------
>>> import networkx as nx
>>> import numpy as np
>>> from wltools.refine.batch.union import union_of
>>> u, _ = union_of([(nx.path_graph(4), nx.star_graph(3)), (nx.cycle_graph(6), nx.cycle_graph(6))])
>>> first, rounds, sizes, zero = joint_rounds(u, np.zeros(u.nodes, dtype=np.int64))
>>> first.tolist(), rounds.tolist(), sizes
([1, -1], [2, 0], {0: ((2, 2), (3, 1)), 1: ((6,), (6,))})
"""

from __future__ import annotations

import numpy as np

from ...runtime.hashing import exact_ids
from .union import Union

__all__ = ["joint_rounds", "Classes", "split_round", "first_relevant", "group_ids", "distinct"]

def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted: ``np.unique(values)`` by a sort and a mask (numpy 2.4's
    ``np.unique`` hashes: on 300,000 int64 of BREC's N2 balls 278 ms against 8 ms).

    Examples
    --------
    >>> distinct(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    out = np.sort(values)
    keep = np.ones(out.size, dtype=bool)
    np.not_equal(out[1:], out[:-1], out=keep[1:])
    return out[keep]


def group_ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ids ``0..k-1`` of equal values (in sorted order of the values) and one index of each id."""
    order = np.argsort(values, kind="stable")  # timsort: fast on the runs of callers' pair-major values
    s = values[order]
    flag = np.empty(s.size, dtype=bool)
    flag[:1] = True
    np.not_equal(s[1:], s[:-1], out=flag[1:])
    ids = np.empty(s.size, dtype=np.int64)
    ids[order] = np.cumsum(flag) - 1
    return ids, order[flag]


def _stats(new: np.ndarray, first: np.ndarray, pair_of: np.ndarray, side: np.ndarray, pairs: int) -> dict:
    """Per colour its pair and its nodes in G and in H; per pair its number of colours and
    whether the two histograms differ."""
    k = first.size
    pair = pair_of[first]
    in_h = np.bincount(new, weights=side, minlength=k).astype(np.int64)
    in_g = np.bincount(new, minlength=k) - in_h
    differ = np.bincount(pair, weights=in_g != in_h, minlength=pairs) > 0
    return {"pair": pair, "g": in_g, "h": in_h, "classes": np.bincount(pair, minlength=pairs), "differ": differ}


def _sizes(stats: dict, which: np.ndarray) -> dict:
    """``{pair: (sizes in G, sizes in H)}`` (descending, classes present only) for the pairs
    flagged in the boolean array ``which``."""
    pick = which[stats["pair"]]
    p = stats["pair"][pick]
    out: dict = {}
    for side, counts in ((0, stats["g"][pick]), (1, stats["h"][pick])):
        present = counts > 0
        ps, cs = p[present], counts[present]
        order = np.lexsort((-cs, ps))
        ps, cs = ps[order], cs[order]
        bounds = np.flatnonzero(np.concatenate([[True], ps[1:] != ps[:-1], [True]])).tolist()
        cl, pl = cs.tolist(), ps.tolist()
        for a, b in zip(bounds[:-1], bounds[1:] if pl else []):
            out.setdefault(pl[a], [(), ()])[side] = tuple(cl[a:b])
    return {p: tuple(v) for p, v in out.items()}


def _zero_diff(stats: dict, keys: np.ndarray, which: np.ndarray) -> dict:
    """For the pairs flagged in ``which`` (histograms differ at iteration 0): ``(key ids, counts
    in G, counts in H)`` of the differing initial colours (``keys``: the key id of each colour),
    ordered as :func:`~wltools.refine.engine.witness_text` orders them (largest difference first,
    then by key)."""
    pick = which[stats["pair"]] & (stats["g"] != stats["h"])
    p, c, g, h = stats["pair"][pick], keys[pick], stats["g"][pick], stats["h"][pick]
    order = np.lexsort((c, -np.abs(g - h), p))
    out: dict = {}
    for pi, ci, gi, hi in zip(*(x[order].tolist() for x in (p, c, g, h))):
        entry = out.setdefault(pi, ([], [], []))
        entry[0].append(ci)
        entry[1].append(gi)
        entry[2].append(hi)
    return out


def _uniform(u: Union, col: np.ndarray) -> np.ndarray:
    """Per pair: all its nodes (of G and H) have one colour and one degree. Such a pair is
    stable at iteration 0 (every node has the same old colour and multiset), one class of ``n``
    nodes in each graph, its histograms equal: what a round would find, without the round."""
    same = np.ones(u.pairs, dtype=bool)
    for x in (col, u.deg):  # each pair's nodes are consecutive, from u.start
        same &= np.minimum.reduceat(x, u.start) == np.maximum.reduceat(x, u.start)
    return same


class Classes:
    """The colouring during the rounds: each node's colour ``col`` (ids ``0..k-1``, each a
    non-empty class), and per class its pair, its nodes in G and in H and, if given, a ``tag``
    that the pieces split off a class inherit."""

    def __init__(self, col: np.ndarray, pair: np.ndarray, in_g: np.ndarray, in_h: np.ndarray,
                 tag: np.ndarray | None = None):
        self.col, self.pair, self.g, self.h, self.tag = col, pair, in_g, in_h, tag

    @property
    def k(self) -> int:
        return int(self.pair.size)


def _keys(u: Union, cl: Classes, relevant: np.ndarray, every: np.ndarray | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    """The keyed nodes in increasing order and the exact ids
    (:func:`~wltools.runtime.hashing.exact_ids`) of their keys: a node's colour and the sorted
    colours of its neighbours in relevant classes. Keyed are the nodes with such a neighbour, or
    with ``every`` (round 1: boolean per node) those nodes, whose keys then also hold their
    degree (:func:`first_relevant`)."""
    k = cl.k
    code = _neighbour_codes(u, cl, relevant[cl.col], k)  # (keyed node, neighbour colour) < n * k, sorted
    node = code // k
    total = code.size
    if every is None:
        head = np.empty(total, dtype=bool)
        head[:1] = True
        np.not_equal(node[1:], node[:-1], out=head[1:])
        starts = np.flatnonzero(head)
        keyed = node[starts]
        bounds = np.append(starts, total)
        prefix = cl.col[keyed]
    else:
        keyed = np.flatnonzero(every)
        bounds = np.zeros(keyed.size + 1, dtype=np.int64)
        np.cumsum(np.bincount(node, minlength=u.nodes)[keyed], out=bounds[1:])
        prefix = cl.col[keyed] * (int(u.deg.max(initial=0)) + 1) + u.deg[keyed]
    if not keyed.size:
        return keyed, keyed
    return keyed, exact_ids(code - node * k, prefix, bounds, what="batched 1-WL")


#: :func:`_neighbour_codes` scans the whole CSR when the relevant classes' nodes hold more than
#: this share of its slots: its entries then come grouped by keyed node, and a stable sort (numpy's
#: timsort) only orders each group, where numpy's default sort gains nothing from the groups (on
#: 229,504 such codes, BREC's slots: 2.2 ms against 9.4 ms). Round 1 of N1 on all 400 BREC pairs,
#: in a run over them: 10.8 ms against 15.4 ms reading the relevant nodes' lists.
SCAN_SHARE = 1 / 8


def _neighbour_codes(u: Union, cl: Classes, rel: np.ndarray, k: int) -> np.ndarray:
    """Sorted ``w * k + col[v]`` over the edges ``v w`` (both directions) with ``v`` in a relevant
    class (``rel``: boolean per node). Few such slots: read from the relevant nodes' neighbour
    lists, then sorted; many (:data:`SCAN_SHARE`): the whole CSR scanned, its entries grouped by
    ``w`` already."""
    src = np.flatnonzero(rel)
    lens = u.deg[src]
    total = int(lens.sum())
    if total > SCAN_SHARE * u.indices.size:
        slots = np.flatnonzero(rel[u.indices])  # w's slots of its relevant neighbours, w increasing
        code = u.owner[slots]
        code *= k
        code += cl.col[u.indices[slots]]
        code.sort(kind="stable")
        return code
    ends = np.cumsum(lens)
    slots = np.repeat(u.indptr[src] - ends + lens, lens) + np.arange(total, dtype=np.int64)
    code = u.indices[slots] * k + np.repeat(cl.col[src], lens)
    code.sort()
    return code


def split_round(u: Union, cl: Classes, relevant: np.ndarray, every: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """One round: the keyed nodes' new colours (:func:`_keys`; a class's id stays with its
    unkeyed nodes if any, else with its first key; every other key of it a fresh id), the class
    counts updated. Returns the pairs that split a class (boolean per pair) and the next round's
    relevant classes (the pieces of every split class but one largest)."""
    keyed, gid = _keys(u, cl, relevant, every)
    if not keyed.size:
        return np.zeros(u.pairs, dtype=bool), np.zeros(cl.k, dtype=bool)
    m = int(gid.max()) + 1
    rep = np.empty(m, dtype=np.int64)
    rep[gid[::-1]] = np.arange(keyed.size - 1, -1, -1)  # each key's first keyed node
    parent = cl.col[keyed[rep]]
    unkeyed = np.bincount(cl.col[keyed], minlength=cl.k) < cl.g + cl.h
    order = np.argsort(parent, kind="stable")
    lead = np.ones(m, dtype=bool)
    lead[1:] = parent[order[1:]] != parent[order[:-1]]
    fresh = np.ones(m, dtype=bool)
    fresh[order[lead]] = unkeyed[parent[order[lead]]]
    new_id = np.full(m, -1, dtype=np.int64)
    k = cl.k
    new_id[fresh] = k + np.arange(int(fresh.sum()))
    moved = new_id[gid] >= 0
    nodes, to = keyed[moved], new_id[gid[moved]]
    _move(u, cl, nodes, to, parent[fresh])
    split = distinct(parent[fresh])
    pieces = np.concatenate([split, np.arange(k, cl.k)])
    return (np.bincount(cl.pair[split], minlength=u.pairs) > 0,
            _all_but_largest(cl, pieces, np.concatenate([split, parent[fresh]])))


def _move(u: Union, cl: Classes, nodes: np.ndarray, to: np.ndarray, parents: np.ndarray) -> None:
    """Recolour ``nodes`` with the fresh ids ``to`` (numbered from ``cl.k`` on; ``parents``: the
    class each fresh id splits off), moving their counts."""
    k = cl.k
    in_h = u.side[nodes].astype(bool)
    old = cl.col[nodes]
    cl.g -= np.bincount(old[~in_h], minlength=k)
    cl.h -= np.bincount(old[in_h], minlength=k)
    extra = parents.size
    cl.g = np.concatenate([cl.g, np.bincount(to[~in_h] - k, minlength=extra)])
    cl.h = np.concatenate([cl.h, np.bincount(to[in_h] - k, minlength=extra)])
    cl.pair = np.concatenate([cl.pair, cl.pair[parents]])
    if cl.tag is not None:
        cl.tag = np.concatenate([cl.tag, cl.tag[parents]])
    cl.col[nodes] = to


def _all_but_largest(cl: Classes, pieces: np.ndarray, parents: np.ndarray) -> np.ndarray:
    """Boolean per class: the ``pieces`` (classes; ``parents``: the class each piece is part of)
    but one largest piece of each parent."""
    relevant = np.zeros(cl.k, dtype=bool)
    if not pieces.size:
        return relevant
    size = (cl.g + cl.h)[pieces]
    order = np.lexsort((-size, parents))
    keep = np.empty(order.size, dtype=bool)
    keep[0] = False
    np.equal(parents[order[1:]], parents[order[:-1]], out=keep[1:])  # the first (largest) piece of each parent left out
    relevant[pieces[order[keep]]] = True
    return relevant


def first_relevant(cl: Classes, active: np.ndarray) -> np.ndarray:
    """The relevant classes of round 1: every class of the active pairs but one largest of each.
    Round 1 keys every node of the active pairs with its degree too: a node's number of
    neighbours in the left-out class is its degree less its neighbours in the others, so (colour,
    degree, neighbour colours in the other classes) determines (colour, neighbour colours), and
    conversely: the same partition (the module docstring's rule, the pair being the class that
    split)."""
    size = cl.g + cl.h
    order = np.lexsort((-size, cl.pair))
    lead = np.ones(cl.k, dtype=bool)
    lead[1:] = cl.pair[order[1:]] != cl.pair[order[:-1]]
    relevant = active[cl.pair]
    relevant[order[lead]] = False
    return relevant


def joint_rounds(u: Union, init: np.ndarray) -> tuple:
    """1-WL on every pair of the union ``u`` from the initial key ids ``init`` (one numbering of
    the keys for the whole union, in key order).

    Returns per pair: the first iteration whose histograms differ (-1: none), the rounds to a
    stable partition, ``{pair: (class sizes of G, of H)}`` and, for pairs differing at iteration
    0, their differing keys (:func:`_zero_diff`)."""
    P = u.pairs
    K0 = np.int64(int(init.max(initial=0)) + 1)
    col, first = group_ids(u.pair_of * K0 + init)  # exact: the pair and the key in one integer (ids < nodes)
    stats = _stats(col, first, u.pair_of, u.side, P)
    first_t = np.where(stats["differ"], 0, -1)
    zero_diff = _zero_diff(stats, init[first], stats["differ"])
    rounds = np.zeros(P, dtype=np.int64)
    cl = Classes(col, stats["pair"], stats["g"], stats["h"])
    active = ~_uniform(u, col)  # one colour and one degree: stable at iteration 0
    relevant = first_relevant(cl, active)
    every = active[u.pair_of]  # round 1 keys every node of the active pairs
    t = 0
    while active.any():
        split, relevant = split_round(u, cl, relevant, every)
        every = None
        rounds[active & ~split] = t
        active &= split
        if (active & (first_t < 0)).any():
            unequal = np.bincount(cl.pair, weights=cl.g != cl.h, minlength=P) > 0
            first_t[active & unequal & (first_t < 0)] = t + 1
        t += 1
    final = {"pair": cl.pair, "g": cl.g, "h": cl.h}
    return first_t, rounds, _sizes(final, np.ones(P, dtype=bool)), zero_diff
