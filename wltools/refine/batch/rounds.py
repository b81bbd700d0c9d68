"""1-WL on the disjoint union of many pairs at once, with each pair's verdict, rounds and class
sizes, for :mod:`wltools.refine.batch`.

Colours are *pair-local*: the initial colour of a node is its initial key id together with its
pair, so two nodes share a colour only inside one pair, and a round gives a node the new colour

.. math::

    \\chi^{t+1}(v) = \\big(\\chi^t(v), \\{\\{\\chi^t(u) : u \\in N(v)\\}\\}\\big),

numbered ``0..k-1`` over the union. Within a pair these are exactly the colours of refining the
pair alone with one table (:func:`wltools.refine.seeded.refine_from_keys`): a colour is an injective
function of the initial key and the ``t``-round unfolding. Keys (old colour, sorted neighbour colours)
are grouped by the project's one exact hashing routine (:func:`wltools.runtime.hashing.exact_ids`:
hashed, verified entry by entry, retried with new weights on a collision). So the colours are exact.

Per pair, from one grouping per round: its number of colours (``bincount`` of the colours' pairs),
whether the colour histograms of G and H differ (some colour with unequal counts), and at the
round where its number of colours stops growing (the stopping rule of
:func:`~wltools.refine.engine.run_refinement`: an equal count is an equal, hence stable,
partition) its class sizes. Pairs that are stable leave the union (their nodes are dropped once
they are a tenth of it). A pair whose nodes all have one initial colour and one degree is stable
at iteration 0 without a round (:func:`_uniform`).

Examples
--------
>>> import networkx as nx
>>> import numpy as np
>>> from wltools.refine.batch.union import union_of
>>> u, _ = union_of([(nx.path_graph(4), nx.star_graph(3)), (nx.cycle_graph(6), nx.cycle_graph(6))])
>>> first, rounds, sizes, zero = joint_rounds(u, np.zeros(u.nodes, dtype=np.int64))
>>> first.tolist(), rounds.tolist(), sizes
([1, -1], [2, 0], {1: ((6,), (6,)), 0: ((2, 2), (3, 1))})
"""

from __future__ import annotations

import numpy as np

from ...runtime.hashing import exact_ids
from .union import Union

__all__ = ["joint_rounds"]

def _group(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ids ``0..k-1`` of equal values (in sorted order of the values) and one index of each id."""
    order = np.argsort(values)
    s = values[order]
    flag = np.empty(s.size, dtype=bool)
    flag[:1] = True
    np.not_equal(s[1:], s[:-1], out=flag[1:])
    ids = np.empty(s.size, dtype=np.int64)
    ids[order] = np.cumsum(flag) - 1
    return ids, order[flag]


def _layout(indptr: np.ndarray, indices: np.ndarray, deg: np.ndarray, owner: np.ndarray | None = None) -> dict:
    """The arrays :func:`_round` reads: CSR, the owner of each neighbour slot (and it times the
    number of nodes, which bounds every colour) and the slot's position in its owner's list."""
    if owner is None:
        owner = np.repeat(np.arange(deg.size, dtype=np.int64), deg)
    return {"indptr": indptr, "indices": indices, "deg": deg, "owner": owner, "owner_n": owner * max(deg.size, 1),
            "pos": np.arange(indices.size, dtype=np.int64) - indptr[owner]}


def _round(col: np.ndarray, g: dict) -> tuple[np.ndarray, np.ndarray]:
    """One round over the union (``g``: :func:`_layout`; colours below the number of nodes):
    new colours ``0..k-1``, equal iff (old colour, sorted multiset of neighbour colours) are
    equal (:func:`wltools.runtime.hashing.exact_ids`), and one node of each."""
    code = g["owner_n"] + col[g["indices"]]
    code.sort(kind="stable")  # by owner (already in order), then colour; timsort: fast on runs
    new = exact_ids(code - g["owner_n"], col, g["indptr"], what="batched 1-WL", layout=(g["deg"], g["owner"], g["pos"]))
    # ids come in order of first appearance: colour j first appears where the running maximum reaches j
    first = np.flatnonzero(np.concatenate([[True], new[1:] > np.maximum.accumulate(new)[:-1]])) if new.size else new
    return new, first


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


#: The union is compacted (finished pairs' nodes dropped) when fewer than this share of its nodes
#: are still refined.
COMPACT = 0.9


def _uniform(u: Union, col: np.ndarray) -> np.ndarray:
    """Per pair: all its nodes (of G and H) have one colour and one degree. Such a pair is
    stable at iteration 0 (every node has the same old colour and multiset), one class of ``n``
    nodes in each graph, its histograms equal: what a round would find, without the round."""
    same = np.ones(u.pairs, dtype=bool)
    for x in (col, u.deg):  # each pair's nodes are consecutive, from u.start
        same &= np.minimum.reduceat(x, u.start) == np.maximum.reduceat(x, u.start)
    return same


def joint_rounds(u: Union, init: np.ndarray) -> tuple:
    """1-WL on every pair of the union ``u`` from the initial key ids ``init`` (one numbering of
    the keys for the whole union, in key order).

    Returns per pair: the first iteration whose histograms differ (-1: none), the rounds to a
    stable partition, ``{pair: (class sizes of G, of H)}`` and, for pairs differing at iteration
    0, their differing keys (:func:`_zero_diff`)."""
    P = u.pairs
    pair_of, side = u.pair_of, u.side
    g = _layout(u.indptr, u.indices, u.deg, u.owner)
    K0 = np.int64(int(init.max(initial=0)) + 1)
    col, first = _group(pair_of * K0 + init)  # exact: the pair and the key in one integer (ids < nodes)
    stats = _stats(col, first, pair_of, side, P)
    first_t = np.where(stats["differ"], 0, -1)
    zero_diff = _zero_diff(stats, init[first], stats["differ"])
    rounds = np.zeros(P, dtype=np.int64)
    active = ~_uniform(u, col)  # one colour and one degree: stable at iteration 0
    sizes = {p: ((n,), (n,)) for p, n in zip(np.flatnonzero(~active).tolist(), u.n[~active].tolist())}
    t = 0
    if active.any() and active[pair_of].mean() < COMPACT:
        col, pair_of, side, g = _compact(active[pair_of], col, pair_of, side, g)
    while active.any():
        new, first = _round(col, g)
        new_stats = _stats(new, first, pair_of, side, P)
        stable = active & (new_stats["classes"] == stats["classes"])
        rounds[stable] = t
        sizes.update(_sizes(new_stats, stable))
        active &= ~stable
        first_t[active & new_stats["differ"] & (first_t < 0)] = t + 1
        col, stats, t = new, new_stats, t + 1
        keep = active[pair_of]
        if active.any() and keep.mean() < COMPACT:  # drop the finished pairs' nodes
            col, pair_of, side, g = _compact(keep, col, pair_of, side, g)
    return first_t, rounds, sizes, zero_diff


def _compact(keep: np.ndarray, col, pair_of, side, g: dict):
    """The nodes ``keep`` only (whole pairs, so no edge leaves them), renumbered in order, their
    colours renumbered ``0..k-1`` (equal stays equal).

    Pairs that left have no nodes, hence no colours: :func:`_stats` counts them 0 classes, and
    they are never looked at again."""
    index = np.cumsum(keep) - 1
    deg = g["deg"][keep]
    slots = keep[g["owner"]]
    indptr = np.zeros(deg.size + 1, dtype=np.int64)
    np.cumsum(deg, out=indptr[1:])
    col = col[keep]
    present = np.zeros(int(col.max(initial=-1)) + 1, dtype=np.int64)
    present[col] = 1
    col = (np.cumsum(present) - 1)[col]  # renumbered in order: below the new node count
    return col, pair_of[keep], side[keep], _layout(indptr, index[g["indices"][slots]], deg)
