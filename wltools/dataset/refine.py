"""Colour refinement of a whole collection at once: one shared colour table over the disjoint
union of its graphs, round by round, for 1-WL, GD-WL over SPD and 3-WL (2-FWL), with labels.

The tests, on labelled graphs (node label ``l(v)``, edge label ``e(u, v)``; :mod:`.collection`):

* ``1wl`` (Weisfeiler & Leman 1968; with edge labels as in the relational WL of Barcelo et al.
  2022, "Weisfeiler and Leman go relational"):
  ``chi^0(v) = l(v)``, ``chi^t(v) = (chi^{t-1}(v), {{(e(v, u), chi^{t-1}(u)) : u in N(v)}})``.
* ``spd``, GD-WL with the shortest-path distance (Zhang et al. 2023, "Rethinking the
  expressive power of GNNs via graph biconnectivity"; PPGT App. E Eq. 13):
  ``chi^t(v) = (chi^{t-1}(v), {{(d(v, u), chi^{t-1}(u)) : u in V}})`` where, for labelled
  edges, the distance of an adjacent pair is the pair ``(1, e(v, u))`` (``inf`` between
  components).
* ``3wl`` as 2-FWL (Cai, Fuerer & Immerman 1992): ordered pairs,
  ``chi^0(u, v) = (u == v, adjacent, e(u, v), l(u), l(v))``,
  ``chi^t(u, v) = (chi^{t-1}(u, v), {{(chi^{t-1}(u, w), chi^{t-1}(w, v)) : w in V}})``;
  the colour of node ``v`` is ``chi(v, v)``.

Graphs ``G`` and ``H`` are *separated after t rounds* iff the multisets of their colours (nodes,
or ordered pairs for 3wl) after ``t`` rounds differ; the *equivalence class* of a graph after
``t`` rounds is that multiset. Every element carries its old colour, so partitions only get finer
and "equal after t rounds" implies "equal after fewer".

**Exactness.** A round builds, for every element of every graph, the integer row ``[old colour,
sorted items]`` (items ``a k + b`` for pairs ``(a, b)`` with ``b < k``, ``k`` = number of colours; an
overflow of int64 is refused) and gives equal rows equal ids. Rows are grouped in buckets of
equal width (1wl: by degree; spd, 3wl: by graph order), each exactly by
the kernel's :func:`~wltools.refine.kernel.grouped_ids` (hash, verify entry by entry, retry), buckets never
sharing an id. The rounds run in the kernel's loop
(:func:`~wltools.refine.kernel.round_loop`, the one stopping rule: stable when a round adds no
colour); a collection is more elements of one refinement. Graph classes are grouped the
same way from the sorted colour multisets of the graphs
(:func:`~wltools.runtime.hashing.unique_rows`).

**Shards.** The graphs may be split into shards (:class:`ShardState`, one per shard, possibly on
other machines: :mod:`wltools.dataset.ray_refine`). A shard groups its own rows; with more than
one shard it sends one row per local group to the driver, which groups those rows again
(exactly) into the one colour table and sends every shard the global id of each of its groups.
Colours therefore mean the same in every shard, and the result equals the one-process result
up to the names of the colours (tested).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from ..runtime.hashing import unique_rows
from ..errors import ResourceLimitError, UnknownNameError
from ..refine.kernel import DEFAULT_MAX_BYTES, block_rows, grouped_ids, round_loop
from .collection import GraphCollection
from ..wltests.registry import builtin_tests, get_test
from .keys import KEYED, is_seeded, pair_keys, seeded_ids

__all__ = ["TESTS", "BASE_TESTS", "on_one_table", "ShardState", "DatasetRefinement", "refine_collection", "LocalShards", "unify",
           "first_appearance"]

#: Tests refined here on one colour table over the whole collection, in any number of shards.
BASE_TESTS = ("1wl", "spd", "3wl")

#: Tests refined here on one colour table (those whose ``collection`` is ``"shared"``):
#: :data:`BASE_TESTS` in any number of shards; RD, RRWP, EPWL (exact pair keys) and BREC's seeded
#: baselines (exact node keys, :mod:`wltools.dataset.keys`) in one. Every other test:
#: :mod:`wltools.dataset.pairwise`.
TESTS = tuple(t.name for t in builtin_tests() if t.collection == "shared")


def on_one_table(test: str, shards: int = 1) -> bool:
    """Whether ``test`` is refined here (not pairwise) with ``shards`` shards.

    Examples
    --------
    >>> on_one_table("rd"), on_one_table("rd", 2), on_one_table("spd", 2)
    (True, False, True)
    """
    return test in BASE_TESTS or (shards == 1 and (test in KEYED or is_seeded(test)))

_LIMIT = 2**62


@dataclass
class _Bucket:
    """Elements whose rows share a width: ``rows(pos, k) -> (prefix [r], rows [r, width])`` for
    positions ``pos`` into ``elems``."""

    key: tuple
    elems: np.ndarray
    width: int
    rows: Callable


def _group(bucket: _Bucket, k: int, max_bytes: int) -> tuple[np.ndarray, int]:
    """Exact local group ids of a bucket's rows and their number (the kernel's exact hashing with
    retry, :func:`~wltools.refine.kernel.grouped_ids`)."""
    size = bucket.elems.size
    step = block_rows(bucket.width, 1, max_bytes)

    def rows(pos):
        return bucket.rows(pos, k)

    def blocks():
        for lo in range(0, size, step):
            pos = np.arange(lo, min(size, lo + step))
            prefix, r = rows(pos)
            yield pos, prefix, np.ascontiguousarray(r)

    ids, _ = grouped_ids(size, rows, blocks, max_bytes, "dataset refinement")
    return ids, int(ids.max()) + 1 if size else 0


def _representatives(ids: np.ndarray, count: int) -> np.ndarray:
    reps = np.zeros(count, dtype=np.int64)
    reps[ids] = np.arange(ids.size)
    return reps


class ShardState:
    """The colours of the graphs of one shard for one test, and its side of a round.

    Methods return, per bucket, ``(count, rows)``: the number of local groups and, when asked
    (``need_rows``), one full row per group (``[prefix, items...]``) for the driver's table.
    :meth:`apply` then takes the global id of every local group.
    """

    def __init__(self, coll: GraphCollection, test: str, max_bytes: int = DEFAULT_MAX_BYTES, *, alone: bool = True):
        if not on_one_table(test, 1 if alone else 2):
            raise UnknownNameError(f"{test!r} is not refined on one colour table across shards or parts: only "
                                   f"{', '.join(BASE_TESTS)}; the other tests run in one process (wltools.dataset.analyse)")
        self.coll, self.test, self.max_bytes = coll, test, max_bytes
        spec = get_test(test)
        # the rows a round builds, by what the test colours: ordered pairs (2-FWL's), nodes over
        # exact pair keys (GD-WL's form: SPD, RD, RRWP, EPWL), or nodes over their neighbours (1-WL's)
        self.kind = "pairs" if spec.colours == "pairs" else ("gd" if test == "spd" or spec.pair_keys else "1wl")
        self.keyed = spec.pair_keys is not None
        self.sizes = coll.sizes
        self.labels = coll.node_labels if coll.node_labels is not None else np.zeros(coll.num_nodes, dtype=np.int64)
        self.num_edge_labels = max(1, len(coll.edge_label_values))
        self.slot_labels = coll.edge_labels if coll.edge_labels is not None else np.zeros(coll.indices.size, dtype=np.int64)
        if spec.labels != "any":  # defined without edge labels (seeded tests: their keys replace node labels)
            self.labels = seeded_ids(coll, test) if spec.node_keys else self.labels
            self.slot_labels, self.num_edge_labels = np.zeros(coll.indices.size, dtype=np.int64), 1
        self._code_top = 0
        per = self.sizes**2 if self.kind == "pairs" else self.sizes
        self.elem_ptr = np.concatenate([[0], np.cumsum(per)]).astype(np.int64)
        self.colours = np.zeros(int(self.elem_ptr[-1]), dtype=np.int64)
        self._pending: dict = {}
        self._graph_pending: dict = {}
        self._by_order = {int(n): np.flatnonzero(self.sizes == n) for n in np.unique(self.sizes)}
        self._cache: dict = {}

    # ------------------------------------------------------------------ buckets

    def _graph_elems(self, gs: np.ndarray, per: int) -> np.ndarray:
        return (self.elem_ptr[gs][:, None] + np.arange(per)[None, :]).reshape(-1)

    def _init_buckets(self) -> list[_Bucket]:
        elems = np.arange(self.colours.size)
        if self.kind != "pairs":
            return [_Bucket(("init",), elems, 1, lambda pos, k: (np.zeros(pos.size, dtype=np.int64),
                                                                  self.labels[elems[pos]][:, None]))]
        return [_Bucket(("init",), elems, 4, self._atomic_rows)]

    def _atomic_rows(self, pos: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows ``(u == v, 0 or 1 + e(u, v), l(u), l(v))`` of the ordered pairs at ``pos``: the
        atomic types, one table over every graph of the shard (whatever their orders)."""
        g = np.searchsorted(self.elem_ptr, pos, side="right") - 1
        u, v = np.divmod(pos - self.elem_ptr[g], self.sizes[g])
        base = self.coll.graph_ptr[g]
        N = max(1, self.coll.num_nodes)
        if "slot_keys" not in self._cache:  # sorted: CSR rows in order, neighbours sorted
            src = np.repeat(np.arange(self.coll.num_nodes, dtype=np.int64), np.diff(self.coll.indptr))
            self._cache["slot_keys"] = src * N + self.coll.indices
        keys = self._cache["slot_keys"]
        q = (base + u) * N + (base + v)
        at = np.minimum(np.searchsorted(keys, q), max(keys.size - 1, 0))
        edge = np.zeros(pos.size, dtype=np.int64)
        if keys.size:
            hit = keys[at] == q
            edge[hit] = 1 + self.slot_labels[at[hit]]
        out = np.stack([(u == v).astype(np.int64), edge, self.labels[base + u], self.labels[base + v]], axis=1)
        return np.zeros(pos.size, dtype=np.int64), out

    def _edge_codes(self, n: int, gs: np.ndarray) -> np.ndarray:
        """``[g, n, n]``: 0 for non-adjacent pairs, ``1 + edge label`` for edges."""
        E = np.zeros((gs.size, n, n), dtype=np.int32)
        base = self.coll.graph_ptr[gs]
        nodes = (base[:, None] + np.arange(n)).reshape(-1)
        deg = np.diff(self.coll.indptr)[nodes]
        owner = np.repeat(np.arange(nodes.size), deg)
        slots = np.repeat(self.coll.indptr[nodes], deg) + (np.arange(int(deg.sum())) - np.repeat(np.cumsum(deg) - deg, deg))
        j = owner // n
        E[j, owner % n, self.coll.indices[slots] - base[j]] = 1 + self.slot_labels[slots]
        return E

    def _round_buckets(self) -> list[_Bucket]:
        if "round" not in self._cache:
            if self.kind == "1wl":
                deg = np.diff(self.coll.indptr)
                self._cache["round"] = [self._wl1_bucket(int(d), np.flatnonzero(deg == d)) for d in np.unique(deg)]
            elif self.kind == "gd":
                self._cache["round"] = [self._gd_bucket(n, gs) for n, gs in self._by_order.items()]
            else:
                self._cache["round"] = [self._fwl_bucket(n, gs) for n, gs in self._by_order.items()]
        return self._cache["round"]

    def _wl1_bucket(self, d: int, nodes: np.ndarray) -> _Bucket:
        indptr, indices, lab = self.coll.indptr, self.coll.indices, self.slot_labels

        def rows(pos, k):
            v = nodes[pos]
            if d == 0:
                return self.colours[v], np.zeros((v.size, 1), dtype=np.int64)
            slots = indptr[v][:, None] + np.arange(d)[None, :]
            items = lab[slots] * k + self.colours[indices[slots]]
            items.sort(axis=1)
            return self.colours[v], items

        return _Bucket(("deg", d), nodes, max(d, 1), rows)

    def _gd_bucket(self, n: int, gs: np.ndarray) -> _Bucket:
        D = self._keyed_codes(n, gs) if self.keyed else self._spd_codes(n, gs)
        self._code_top = max(self._code_top, int(D.max()) + 1 if D.size else 1)
        base = self.coll.graph_ptr[gs]

        def rows(pos, k):
            j, v = np.divmod(pos, n)
            items = D[j, v, :].astype(np.int64) * k + self.colours[base[j][:, None] + np.arange(n)[None, :]]
            items.sort(axis=1)
            return self.colours[base[j] + v], items

        return _Bucket(("n", n), self._graph_elems(gs, n), n, rows)

    def _spd_codes(self, n: int, gs: np.ndarray) -> np.ndarray:
        """``[g, n, n]`` keys of ``(distance, edge label)``: 0 unreachable, else
        ``(d + 1) (L + 1) + (1 + e(u, v) if adjacent else 0)`` (``L`` edge labels)."""
        E = self._edge_codes(n, gs)
        L1 = self.num_edge_labels + 1
        out = np.zeros((gs.size, n, n), dtype=np.int64)
        for j in range(gs.size):
            A = csr_matrix(E[j] > 0)
            d = shortest_path(A, unweighted=True, directed=False)
            reach = np.isfinite(d)
            out[j][reach] = (d[reach].astype(np.int64) + 1) * L1 + E[j][reach]
        return out

    def _keyed_codes(self, n: int, gs: np.ndarray) -> np.ndarray:
        """``[g, n, n]`` exact keys of RD, RRWP or EPWL (:func:`wltools.dataset.keys.pair_keys`),
        edge labels folded in for RD and RRWP when the collection has them."""
        labelled = get_test(self.test).labels == "any" and self.coll.edge_labels is not None
        E = self._edge_codes(n, gs).astype(np.int64) if labelled else None
        return pair_keys(self.coll, self.test, gs, E, self.num_edge_labels + 1)

    def _fwl_bucket(self, n: int, gs: np.ndarray) -> _Bucket:
        pbase = self.elem_ptr[gs]
        w = np.arange(n)

        def rows(pos, k):
            j, r = np.divmod(pos, n * n)
            u, v = np.divmod(r, n)
            a = self.colours[(pbase[j] + u * n)[:, None] + w[None, :]]  # chi(u, w)
            b = self.colours[(pbase[j] + v)[:, None] + (w * n)[None, :]]  # chi(w, v)
            items = a * k + b
            items.sort(axis=1)
            return self.colours[pbase[j] + r], items

        return _Bucket(("n", n), self._graph_elems(gs, n * n), n, rows)

    def item_bound(self, k: int) -> int:
        """The largest item of the next round's rows plus one (for the overflow check)."""
        if self.kind == "1wl":
            return self.num_edge_labels * k
        if self.kind == "pairs":
            return k * k
        if not self.keyed:  # SPD
            return (int(self.sizes.max()) + 2) * (self.num_edge_labels + 1) * k
        self._round_buckets()
        return self._code_top * k

    # ------------------------------------------------------------------ rounds

    def _groups(self, buckets: list[_Bucket], k: int, need_rows: bool) -> dict:
        out = {}
        self._pending = {}
        for b in buckets:
            ids, count = _group(b, k, self.max_bytes)
            self._pending[b.key] = (b.elems, ids)
            rows = None
            if need_rows:
                prefix, r = b.rows(_representatives(ids, count), k)
                rows = np.concatenate([prefix[:, None], r], axis=1)
            out[b.key] = (count, rows)
        return out

    def init_groups(self, need_rows: bool = False) -> dict:
        """Groups of the initial colours (see the module docstring)."""
        return self._groups(self._init_buckets(), 0, need_rows)

    def round_groups(self, k: int, need_rows: bool = False) -> dict:
        """Groups of the rows of the next round, given ``k`` colours now."""
        return self._groups(self._round_buckets(), k, need_rows)

    def apply(self, mapping: dict) -> None:
        """Set the colours to the global ids ``mapping[bucket][local group]`` of the last groups."""
        new = np.empty_like(self.colours)
        for key, (elems, ids) in self._pending.items():
            new[elems] = mapping[key][ids]
        self.colours = new
        self._pending = {}

    def graph_groups(self, need_rows: bool = False) -> dict:
        """Groups of the graphs by their sorted colour multisets, bucketed by element count."""
        out = {}
        self._graph_pending = {}
        for n, gs in self._by_order.items():
            per = n * n if self.kind == "pairs" else n
            X = self.colours[self._graph_elems(gs, per)].reshape(gs.size, per)
            X.sort(axis=1)
            ids = unique_rows(X)
            count = int(ids.max()) + 1
            self._graph_pending[("n", n)] = (gs, ids)
            out[("n", n)] = (count, X[_representatives(ids, count)] if need_rows else None)
        return out

    def apply_graphs(self, mapping: dict) -> np.ndarray:
        """Global class id of every graph of the shard."""
        out = np.empty(self.coll.num_graphs, dtype=np.int64)
        for key, (gs, ids) in self._graph_pending.items():
            out[gs] = mapping[key][ids]
        return out

    def node_colours(self) -> np.ndarray:
        """The colour of every node (3wl: of the pair ``(v, v)``)."""
        if self.kind != "pairs":
            return self.colours.copy()
        g = self.coll.node_graph()
        v = np.arange(self.coll.num_nodes) - self.coll.graph_ptr[g]
        return self.colours[self.elem_ptr[g] + v * self.sizes[g] + v]


def unify(results: Sequence[dict]) -> tuple[list[dict], int]:
    """The one colour table: global ids for every shard's local groups, and their number.

    ``results[s][bucket] = (count, rows)``. With one shard its groups are the global ones (no
    rows needed); with several, the rows of each bucket are grouped again exactly
    (:func:`~wltools.runtime.hashing.unique_rows`). Buckets get consecutive id ranges in sorted
    order of their keys.

    Examples
    --------
    >>> import numpy as np
    >>> a = {("deg", 1): (2, np.array([[0, 5], [0, 7]]))}
    >>> b = {("deg", 1): (1, np.array([[0, 7]])), ("deg", 0): (1, np.array([[3, 0]]))}
    >>> maps, k = unify([a, b])
    >>> k, maps[0][("deg", 1)].tolist(), maps[1][("deg", 1)].tolist(), maps[1][("deg", 0)].tolist()
    (3, [1, 2], [2], [0])
    """
    keys = sorted({key for r in results for key in r})
    maps: list[dict] = [{} for _ in results]
    offset = 0
    for key in keys:
        have = [s for s, r in enumerate(results) if key in r]
        if len(results) == 1:
            count = results[0][key][0]
            maps[0][key] = offset + np.arange(count)
            offset += count
            continue
        rows = np.concatenate([results[s][key][1] for s in have], axis=0)
        ids = unique_rows(rows)
        o = 0
        for s in have:
            c = results[s][key][0]
            maps[s][key] = offset + ids[o: o + c]
            o += c
        offset += int(ids.max()) + 1 if ids.size else 0
    return maps, offset


class LocalShards:
    """Shards in this process (one by default): the executor of :func:`refine_collection`."""

    def __init__(self, coll: GraphCollection, test: str, shards: int = 1, max_bytes: int = DEFAULT_MAX_BYTES):
        bounds = np.linspace(0, coll.num_graphs, max(1, min(shards, coll.num_graphs)) + 1).astype(int)
        parts = [coll] if len(bounds) == 2 else [coll.select(range(a, b)) for a, b in zip(bounds[:-1], bounds[1:])]
        self.states = [ShardState(p, test, max_bytes, alone=len(parts) == 1) for p in parts]

    def __len__(self) -> int:
        return len(self.states)

    def call(self, method: str, args: Sequence[tuple] | None = None) -> list:
        """``method(*args[s])`` on every shard ``s`` (no arguments when ``args`` is None)."""
        return [getattr(s, method)(*(args[i] if args else ())) for i, s in enumerate(self.states)]


@dataclass
class DatasetRefinement:
    """Per round ``t = 0..T`` (``0``: initial colours) of one test on a collection.

    Attributes
    ----------
    graph_classes : list of int arrays
        The equivalence class of every graph after ``t`` rounds (ids ``0..c-1``).
    node_colours : list of int arrays or None
        The colour of every node after ``t`` rounds (kept when asked).
    colours : list of int
        The number of element colours after ``t`` rounds.
    stable_after : int or None
        The last round that split a colour class (``None``: not stable within the rounds run).
    """

    test: str
    graph_classes: list = field(default_factory=list)
    node_colours: list | None = None
    colours: list = field(default_factory=list)
    stable_after: int | None = None


def first_appearance(ids: np.ndarray) -> np.ndarray:
    """The same partition with ids numbered in order of first appearance.

    Examples
    --------
    >>> import numpy as np
    >>> first_appearance(np.array([5, 2, 5, 9])).tolist()
    [0, 1, 0, 2]
    """
    _, first, inv = np.unique(ids, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[inv.reshape(-1)]


def _record(shards, out: DatasetRefinement, k: int) -> None:
    maps, _ = unify(shards.call("graph_groups", [(len(shards) > 1,)] * len(shards)))
    out.graph_classes.append(first_appearance(np.concatenate(shards.call("apply_graphs", [(m,) for m in maps]))))
    out.colours.append(k)
    if out.node_colours is not None:
        out.node_colours.append(np.concatenate(shards.call("node_colours")))


def refine_collection(coll: GraphCollection, test: str, rounds: int | None = None, *, shards=None,
                      keep_node_colours: bool = False, progress=None) -> DatasetRefinement:
    """Refine every graph of ``coll`` with ``test`` using one shared colour table.

    Parameters
    ----------
    coll : GraphCollection or None
        The collection (``None`` when ``shards`` were built from parts, :mod:`.parts`).
    test : {"1wl", "spd", "3wl"}
    rounds : int, optional
        Rounds ``L``; default: until the colouring is stable. With ``L`` given the result has
        ``L + 1`` entries (rounds after stability repeat the stable classes).
    shards : LocalShards or RayShards, optional
        Where the shards live (default: one shard in this process).
    keep_node_colours : bool
        Keep every node's colour per round (for node-classification bounds).
    progress : callable, optional
        ``progress(t, k, classes)`` after each round.

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.dataset.collection import from_networkx
    >>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> coll = from_networkx([nx.cycle_graph(6), two_triangles, nx.path_graph(6)])
    >>> r = refine_collection(coll, "1wl")
    >>> [int(c.max()) + 1 for c in r.graph_classes], r.stable_after  # C6 and 2 C3 stay together
    ([1, 2, 2, 2], 3)
    >>> refine_collection(coll, "spd").graph_classes[-1].tolist()
    [0, 1, 2]
    """
    shards = shards if shards is not None else LocalShards(coll, test)
    out = DatasetRefinement(test, node_colours=[] if keep_node_colours else None)
    need_rows = len(shards) > 1

    def groups(method: str, *args) -> tuple[int, tuple]:
        maps, k = unify(shards.call(method, [args + (need_rows,)] * len(shards)))
        return k, (maps, k)

    def propose(k: int) -> tuple[int, tuple]:
        if max(shards.call("item_bound", [(k,)] * len(shards))) >= _LIMIT:
            raise ResourceLimitError(f"{test} on {getattr(coll, 'name', 'the parts')}: {k:,} colours make items "
                                     "beyond int64")
        return groups("round_groups", k)

    def accept(t: int, pending: tuple, k_before: int) -> None:
        maps, k = pending
        shards.call("apply", [(m,) for m in maps])
        _record(shards, out, k)

    def counted(t: int, k: int) -> None:
        if progress is not None:
            progress(t, k, int(out.graph_classes[-1].max()) + 1)

    k, first = groups("init_groups")
    accept(0, first, 0)
    t, stable = round_loop(k, propose, accept, max_rounds=rounds, progress=counted)
    out.stable_after = t if stable else None
    if rounds is not None:
        while len(out.graph_classes) < rounds + 1:
            out.graph_classes.append(out.graph_classes[-1])
            out.colours.append(out.colours[-1])
            if out.node_colours is not None:
                out.node_colours.append(out.node_colours[-1])
    return out
