"""The classes of a collection per round for the tests without a collection-wide colour table
(the subgraph WL tests, 3-FWL, M1, M2; and RD, RRWP, EPWL, ``s3``, ``s4``, ``nK`` when sharded,
which :mod:`wltools.dataset.refine` otherwise refines on one table): each graph is refined
jointly with class representatives on the pair engine, exactly as
:func:`wltools.refine.refine_pair` refines a pair.

**What a class is.** Graphs ``G`` and ``H`` share a class after ``t`` rounds iff the colour
histograms the test compares (node colours; pooled subgraph colours for the subgraph WL tests;
triple colours for 3-FWL) are equal after ``t`` rounds when ``G`` and ``H`` are refined with one
colour table. Colours after ``t`` rounds are injective images of the same finite object in every
pair (the ``t``-round unfolding of the test's update from its initial colouring), so this is an
equivalence relation for each ``t``, and the same relation the shared table of
:mod:`wltools.dataset.refine` gives. Histograms that differ after ``t`` rounds differ after every
later round (each colour keeps the old one), so a pair is described by its *agreement depth*
``a(G, H)``: the first round whose histograms differ (:attr:`RefinementResult.iteration`,
infinite when they never do). ``G`` and ``H`` share the class of round ``t`` iff ``t < a(G, H)``.

**Few refinements.** Agreement depths form an ultrametric: ``a(G, K) >= min(a(G, H), a(H, K))``,
with equality when the two differ (from the transitivity of each relation). A new graph is
compared with the representative of every class found so far in its bucket, but a depth is
*refined* only when no representative already refined gives it by that rule; the first
representative at infinite depth is its class. Buckets are graphs of one order (histograms of
different totals differ at round 0) and, where the test reads node labels, one multiset of node
labels (every such test's round-0 colours determine it).

**Per test.** The declarations of :func:`wltools.refine.declarations.declaration` run on the kernel
(:func:`wltools.refine.kernel.refine`), with no early answer for unequal numbers of edges (it would
call round 0 what the test sees at round 1); 3-FWL by :func:`wltools.refine.fwl3.refine_fwl3`;
M1 / M2 compare classes of stable marked copies, so they have one round: the stable one
(:func:`wltools.refine.marking.refine_marking`). Labels: the collection's own ids
(:class:`~wltools.graphs.labels.PairLabels` built from them), except where a test refuses them
(:func:`wltools.refine.names.refuses_labels`: BREC's baselines see the bare graphs, EPWL no edge
labels; the report says so). RRWP uses ``K = n`` (the default of ``refine_pair``).

Examples
--------
>>> import networkx as nx
>>> from wltools.dataset.collection import from_networkx
>>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
>>> coll = from_networkx([nx.cycle_graph(6), two_triangles, nx.cycle_graph(6), nx.path_graph(6)])
>>> r = pairwise_classes(coll, "spd")  # one round: the triangles' unreachable pairs, the path's ends
>>> [c.tolist() for c in r.graph_classes], r.stable_after
([[0, 0, 0, 0], [0, 1, 0, 2]], 1)
"""

from __future__ import annotations

import math
import time
from typing import Callable

import numpy as np

from ..graphs.labels import PairLabels
from ..refine.names import refuses_labels
from ..wltests.registry import get_test
from .collection import GraphCollection
from .refine import DatasetRefinement, first_appearance

__all__ = ["pairwise_classes", "ignored_labels", "Agreement", "plan", "estimate_seconds", "MAX_SECONDS"]

INF = math.inf

#: Default time budget (seconds) of one pairwise test; above its estimate the test is refused.
MAX_SECONDS = 1800.0



def ignored_labels(coll: GraphCollection, test: str) -> str | None:
    """Which of the collection's labels ``test`` does not read (``None``: it reads them all).

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.dataset.collection import from_networkx
    >>> G = nx.path_graph(2); G.nodes[0]["a"] = G.nodes[1]["a"] = "C"
    >>> coll = from_networkx([G], node_label="a")
    >>> ignored_labels(coll, "n5"), ignored_labels(coll, "1wl")
    ('node labels', None)
    """
    node, edge = coll.node_labels is not None, coll.edge_labels is not None
    if not refuses_labels(test, node, edge):
        return None
    if get_test(test).labels == "nodes":
        return "edge labels"
    return " and ".join(k for k, on in (("node", node), ("edge", edge)) if on) + " labels"


class Agreement:
    """``depth(i, j)``: the agreement depth of graphs ``i`` and ``j`` of ``coll`` under ``test``
    (module docstring), with the collection's labels where the test reads them."""

    def __init__(self, coll: GraphCollection, test: str):
        self.coll, self.test = coll, test
        ignored = ignored_labels(coll, test) or ""
        self.use_node = coll.node_labels is not None and "node" not in ignored
        self.use_edge = coll.edge_labels is not None and "edge" not in ignored
        self._graphs: dict = {}
        self._ego_cache: dict = {}
        self._wl = None
        self.calls = 0

    def graph(self, i: int):
        if i not in self._graphs:
            G = self.coll.graph(i)
            for _, data in G.nodes(data=True):
                data.clear()
            for _, _, data in G.edges(data=True):
                data.clear()
            self._graphs[i] = G
        return self._graphs[i]

    def _edge_rows(self, i: int) -> np.ndarray:
        c = self.coll
        lo, hi = int(c.graph_ptr[i]), int(c.graph_ptr[i + 1])
        v = np.repeat(np.arange(lo, hi), np.diff(c.indptr[lo:hi + 1]))
        slots = np.arange(c.indptr[lo], c.indptr[hi])
        u = c.indices[slots]
        keep = u > v
        return np.stack([v[keep] - lo, u[keep] - lo, c.edge_labels[slots[keep]] + 1], axis=1).astype(np.int64)

    def labels(self, i: int, j: int) -> PairLabels | None:
        """The pair's labels as the collection's ids (one table for every graph)."""
        if not (self.use_node or self.use_edge):
            return None
        c = self.coll
        node = tuple(c.node_labels[c.graph_ptr[g]:c.graph_ptr[g + 1]] for g in (i, j)) if self.use_node else None
        edge = tuple(self._edge_rows(g) for g in (i, j)) if self.use_edge else None
        return PairLabels(node, edge, tuple(c.node_label_values) if self.use_node else (),
                          tuple(c.edge_label_values) if self.use_edge else ())

    def depth(self, i: int, j: int) -> float:
        """The first round whose compared histograms differ; ``inf`` if none does."""
        from ..refine.kernel import refine

        self.calls += 1
        G, H, labels = self.graph(i), self.graph(j), self.labels(i, j)
        spec = get_test(self.test)  # its kernel declaration, or its own path (M1 / M2: marked copies)
        if spec.declaration is None:
            r = spec.refine(G, H, labels=labels)
        else:
            r = refine(spec.kernel_declaration(G, H, labels=labels))
        return INF if r.iteration is None else float(r.iteration)

    def bucket_key(self, i: int) -> tuple:
        """Graphs in different buckets differ at round 0 (module docstring)."""
        c = self.coll
        lo, hi = int(c.graph_ptr[i]), int(c.graph_ptr[i + 1])
        node_keys = get_test(self.test).node_keys
        if node_keys is not None:  # S3, S4, N_K: round 0 is the multiset of the exact per-node keys
            return (hi - lo, tuple(sorted(node_keys(self.graph(i), self._ego_cache))))
        if get_test(self.test).colours == "marked copies":  # M1 / M2: one (stable) round, finer than stable 1-WL on the bare graphs
            return (hi - lo, int(self._plain_wl()[i]))
        labels = tuple(np.sort(c.node_labels[lo:hi]).tolist()) if self.use_node else ()
        return (hi - lo, labels)

    def _plain_wl(self) -> np.ndarray:
        """The stable 1-WL class of every graph without labels (M1 / M2 refine it: a marked
        copy's colours determine the unmarked ones)."""
        if self._wl is None:
            from dataclasses import replace

            from .refine import refine_collection

            bare = replace(self.coll, node_labels=None, edge_labels=None, node_label_values=[], edge_label_values=[])
            self._wl = refine_collection(bare, "1wl").graph_classes[-1]
        return self._wl


def _depth_from(known: dict, A: list, r: int) -> float | None:
    """``a(G, rep r)`` from a refined ``a(G, rep q)`` and ``a(rep q, rep r)`` when they differ."""
    for q, d in known.items():
        if d != A[q][r]:
            return min(d, A[q][r])
    return None


def _bucket(members: list, agree: Agreement, tick: Callable) -> tuple[list, list]:
    """The class representatives of one bucket, their depth matrix, and each member's
    representative (module docstring)."""
    reps: list = []
    A: list = []
    rep_of: list = []
    for g in members:
        refined: dict = {}
        depths: list = []
        joined = None
        for r, rep in enumerate(reps):
            d = _depth_from(refined, A, r)
            if d is None:
                d = refined[r] = agree.depth(g, rep)
            depths.append(d)
            if d == INF:
                joined = r
                break
        tick()
        if joined is not None:
            rep_of.append(joined)
            continue
        for r, d in enumerate(depths):
            A[r].append(d)
        A.append(depths + [INF])
        reps.append(g)
        rep_of.append(len(reps) - 1)
    return A, rep_of


def _round_ids(A: list, t: int) -> list:
    """Class ids of round ``t`` of a bucket's representatives: the first representative that
    agrees beyond ``t``."""
    ids: list = []
    for r in range(len(A)):
        ids.append(next((ids[q] for q in range(r) if A[q][r] > t), r))
    return ids


def plan(coll: GraphCollection, test: str) -> tuple[Agreement, list]:
    """The engine and the buckets (lists of graph indices, module docstring) of ``test`` on ``coll``."""
    agree = Agreement(coll, test)
    buckets: dict = {}
    for i in range(coll.num_graphs):
        buckets.setdefault(agree.bucket_key(i), []).append(i)
    return agree, list(buckets.values())


def _timed(agree: Agreement, bucket: list) -> float:
    start = time.perf_counter()
    agree.depth(bucket[0], bucket[1])
    agree.calls -= 1
    return time.perf_counter() - start


def estimate_seconds(coll: GraphCollection, planned: tuple) -> tuple[float, int]:
    """``(seconds, refinements)``: an upper estimate of the pair refinements' time, and the most
    refinements there can be: a graph is refined against at most every class found before it in
    its bucket, ``b (b - 1) / 2`` in a bucket of ``b`` graphs (the ultrametric rule saves most of
    them where classes split at different rounds: NCI1K took 1,000 of at most 1,006 for RD, 246 of
    2,080 for N1). One refinement of the smallest and one of the largest such graph are timed,
    and ``t(n) = a + b n^p`` (the test's ``time_power``) through the two is summed over the refinements."""
    agree, buckets = planned
    multi = [b for b in buckets if len(b) > 1]
    if not multi:
        return 0.0, 0
    small = min(multi, key=lambda b: coll.sizes[b[0]])
    large = max(multi, key=lambda b: coll.sizes[b[0]])
    p = get_test(agree.test).time_power
    (n0, t0), (n1, t1) = [(float(coll.sizes[b[0]]) ** p, _timed(agree, b)) for b in (small, large)]
    slope = max(0.0, (t1 - t0) / (n1 - n0)) if n1 > n0 else 0.0
    sizes = np.array([float(coll.sizes[b[0]]) ** p for b in multi])
    count = np.array([len(b) * (len(b) - 1) / 2 for b in multi])
    each = ((t0 - slope * n0) + slope * sizes).clip(min=min(t0, t1))
    return float((count * each).sum()), int(count.sum())


def pairwise_classes(coll: GraphCollection, test: str, rounds: int | None = None, *,
                     progress: Callable | None = None, planned: tuple | None = None) -> DatasetRefinement:
    """The classes of every graph of ``coll`` under ``test`` per round (module docstring), as
    :class:`~wltools.dataset.refine.DatasetRefinement`: ``colours`` is None per round (there is no
    collection-wide table), ``stable_after`` the last round that splits a class. With ``rounds``
    given, rounds ``0..rounds``; M1 / M2 have the stable round only. ``progress(graphs done)``;
    ``planned``: :func:`plan`'s result, when already made."""
    agree, buckets = planned if planned is not None else plan(coll, test)
    done = [0]

    def tick():
        done[0] += 1
        if progress is not None:
            progress(done[0])

    results = [(members, *_bucket(members, agree, tick)) for members in buckets]
    finite = [d for _, A, _ in results for row in A for d in row if d != INF]
    last = int(max(finite)) if finite else 0
    top = 0 if get_test(test).colours == "marked copies" else (last if rounds is None else rounds)
    out = DatasetRefinement(test)
    for t in range(top + 1):
        cls = np.empty(coll.num_graphs, dtype=np.int64)
        offset = 0
        for members, A, rep_of in results:
            ids = _round_ids(A, t)
            cls[members] = offset + np.asarray(ids, dtype=np.int64)[rep_of]
            offset += len(A)
        out.graph_classes.append(first_appearance(cls))
        out.colours.append(None)
    out.stable_after = last if rounds is None or rounds >= last else None
    out.pair_refinements = agree.calls
    return out
