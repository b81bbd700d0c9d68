"""Many pairs at once for BREC's non-GNN baselines S3, S4, N_K and M1: the same results as
:func:`wltools.refine.refine_pair` pair by pair, with the per-pair overhead paid once.

BREC's S3 / S4 (:mod:`wltools.refine.substructure`) and N_K (:mod:`wltools.refine.ego`) baselines
(Wang & Zhang, "Towards Better Evaluation of GNN Expressiveness with BREC Dataset", Sec. 5,
Table 2; ``Non-GNNs/utils.py`` ``WL_1_hash`` of github.com/GraphPKU/BREC) are plain 1-WL started
from an exact per-node invariant. On hundreds of small pairs the per-pair cost is mostly fixed
overhead (numpy calls, conversions, one canonical labelling per ego network), so
:func:`refine_pairs` works on the disjoint union of all graphs:

1. one CSR of the union read from the adjacency dicts (:mod:`wltools.refine.batch.union`);
2. the test's own batched route, declared on its :class:`~wltools.wltests.base.WLTest` as
   ``batch_path(union, pairs)`` (this package knows no test by name): for S3, S4 and N_K
   (:mod:`wltools.wltests.substructure`, :mod:`wltools.wltests.ego`)
   :func:`~wltools.refine.batch.keyed.keyed_results` from the initial keys of all nodes at once:
   the S3 counts of the union by the same formulas as one graph, S4 counts graph by graph
   (:mod:`wltools.refine.batch.counts`); ego networks extracted together, grouped by size,
   deduplicated as labelled adjacency matrices across *all* graphs and labelled by nauty once per
   distinct one (:mod:`wltools.refine.batch.ego`); keys numbered in sorted order over the union,
   so a pair's ids order its keys as the pair's own table does;
3. there, 1-WL rounds over the union, colours local to each pair, a round touching only the
   classes that can split (:mod:`wltools.refine.batch.rounds`): within a pair the same
   partitions, round by round, as refining the pair alone;
4. per pair, from those colours: the first round whose colour histograms differ, the round at
   which the pair's partition is stable (the stopping rule of
   :func:`~wltools.refine.engine.run_refinement`), its class sizes.

M1 (node marking, :mod:`wltools.refine.marking`; :mod:`wltools.wltests.marking`) refines one
marked copy per automorphism orbit of each graph, the pair's copies jointly; its batched route,
:mod:`wltools.refine.batch.marking`, refines the copies of all pairs in one union and computes the
very ids the pair path numbers its classes by (its witness names them).

Results equal :func:`~wltools.refine.refine_pair`'s field by field, witnesses included: the
witness of a pair distinguished at iteration 0 names classes by their keys, rendered as the
pair's own refinement renders them; a pair first distinguished at a later iteration (its witness
names colour ids of the pair's own table) is refined again alone for its witness. Pairs outside
the batched case (different orders or sizes, no nodes, node or edge attributes, nodes other than
``0..n-1`` in order, directed graphs, multigraphs, self-loops) go through ``refine_pair`` itself,
so its errors and relabelling apply unchanged. The tests check the equality against ``refine_pair``
and the verdicts against the straightforward exact paths (``fast=False``).

Examples
--------
>>> import networkx as nx
>>> from wltools.wltests import ego
>>> from wltools.wltests.substructure import S3
>>> pairs = [(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
...          (nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4)))]
>>> [r.distinguished for r in refine_pairs(pairs, S3.name)], [r.distinguished for r in refine_pairs(pairs, ego.test(1).name)]
([True, False], [True, False])
"""

from __future__ import annotations

from typing import Sequence

import networkx as nx

from ..names import is_test_name
from .union import union_of
from ..engine import RefinementResult

__all__ = ["batchable", "refine_pairs"]


def batchable(test: str) -> bool:
    """Whether :func:`refine_pairs` batches ``test``: whether it declares a batched route
    (:attr:`~wltools.wltests.base.WLTest.batch_path`: S3, S4, N_K, M1); other tests run pair by pair.

    Examples
    --------
    >>> from wltools.wltests import ego
    >>> from wltools.wltests.marking import M1, M2
    >>> from wltools.wltests.substructure import S3
    >>> batchable(S3.name), batchable(ego.test(2).name), batchable(M1.name), batchable(M2.name), batchable("1wl")
    (True, True, True, False, False)
    """
    from ...wltests.registry import get_test

    return is_test_name(test) and get_test(test).batch_path is not None


def refine_pairs(pairs: Sequence[tuple[nx.Graph, nx.Graph]], test: str, *, fast: bool = True,
                 chunk_nodes: int = 2**17) -> list[RefinementResult]:
    """``[refine_pair(G, H, test, fast=fast) for G, H in pairs]``, computed together when
    ``test`` is batchable (:func:`batchable`) and ``fast``; unions of at most ``chunk_nodes``
    nodes at a time (memory grows with the union; M1's marked copies in runs of at most
    :data:`~wltools.refine.batch.marking.COPY_NODES` nodes).

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.wltests.substructure import S3
    >>> r = refine_pairs([(nx.path_graph(4), nx.star_graph(3))], S3.name)[0]
    >>> r.distinguished, r.iteration, r.witness
    (True, 0, 'iteration 0: nodes in 0 triangles and 1 induced 3-path: 2 in G, 0 in H; nodes in 0 triangles and 2 induced 3-paths: 2 in G, 3 in H; nodes in 0 triangles and 3 induced 3-paths: 0 in G, 1 in H')
    """
    from .. import refine_pair  # the package's entry point (this module is imported after it)
    from ...wltests.registry import get_test

    out: list = [None] * len(pairs)
    if not (fast and batchable(test)):
        return [refine_pair(G, H, test, fast=fast) for G, H in pairs]
    route = get_test(test).batch_path  # the test's own: None for a pair the pair path refines
    plain = [i for i, (G, H) in enumerate(pairs) if _plain_pair(G, H)]
    for chunk in _chunks(plain, [pairs[i][0].number_of_nodes() for i in plain], chunk_nodes):
        u, rejected = union_of([pairs[i] for i in chunk])
        kept = [i for j, i in enumerate(chunk) if j not in rejected]
        if kept:
            for i, res in zip(kept, route(u, [pairs[i] for i in kept])):
                out[i] = res
    for i, (G, H) in enumerate(pairs):  # everything else, and later-iteration witnesses
        if out[i] is None:
            out[i] = refine_pair(G, H, test)
    return out


def _plain_pair(G: nx.Graph, H: nx.Graph) -> bool:
    """Both graphs undirected simple-graph objects of equal order, at least one node: the batched
    case as far as cheap checks tell (:func:`~wltools.refine.batch.union.union_of` checks the
    rest: no node or edge data, nodes ``0..n-1`` in order, no self-loop, equal sizes)."""
    for X in (G, H):
        if type(X) is not nx.Graph and (X.is_directed() or X.is_multigraph()):
            return False
    n = G.number_of_nodes()
    return n > 0 and H.number_of_nodes() == n


def _chunks(items: list, sizes: list, limit: int):
    """``items`` in runs whose ``2 * sizes`` sum to at most ``limit`` (at least one item a run)."""
    run, total = [], 0
    for item, size in zip(items, sizes):
        if run and total + 2 * size > limit:
            yield run
            run, total = [], 0
        run.append(item)
        total += 2 * size
    if run:
        yield run

