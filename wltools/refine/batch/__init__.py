"""Many pairs at once for BREC's non-GNN baselines S3, S4, N_K and M1: the same results as
:func:`wltools.refine.refine_pair` pair by pair, with the per-pair overhead paid once.

BREC's S3 / S4 (:mod:`wltools.refine.substructure`) and N_K (:mod:`wltools.refine.ego`) baselines
(Wang & Zhang, "Towards Better Evaluation of GNN Expressiveness with BREC Dataset", Sec. 5,
Table 2; ``Non-GNNs/utils.py`` ``WL_1_hash`` of github.com/GraphPKU/BREC) are plain 1-WL started
from an exact per-node invariant. On hundreds of small pairs the per-pair cost is mostly fixed
overhead (numpy calls, conversions, one canonical labelling per ego network), so
:func:`refine_pairs` works on the disjoint union of all graphs:

1. one CSR of the union read from the adjacency dicts (:mod:`wltools.refine.batch.union`);
2. the initial keys of all nodes at once: the S3 counts of the union by the same formulas as one
   graph; S4 counts graph by graph; ego networks extracted together, grouped by size, deduplicated
   as labelled adjacency matrices across *all* graphs and labelled by nauty once per distinct one
   (:mod:`wltools.refine.batch.ego`); keys numbered in sorted order over the union, so a pair's
   ids order its keys as the pair's own table does;
3. 1-WL rounds over the union, colours local to each pair, a round touching only the classes that
   can split (:mod:`wltools.refine.batch.rounds`): within a pair the same partitions, round by
   round, as refining the pair alone;
4. per pair, from those colours: the first round whose colour histograms differ, the round at
   which the pair's partition is stable (the stopping rule of
   :func:`~wltools.refine.engine.run_refinement`), its class sizes.

M1 (node marking, :mod:`wltools.refine.marking`) refines one marked copy per automorphism orbit of
each graph, the pair's copies jointly; :mod:`wltools.refine.batch.marking` refines the copies of
all pairs in one union and computes the very ids the pair path numbers its classes by (its
witness names them).

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
>>> pairs = [(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
...          (nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4)))]
>>> [r.distinguished for r in refine_pairs(pairs, "s3")], [r.distinguished for r in refine_pairs(pairs, "n1")]
([True, False], [True, False])
"""

from __future__ import annotations

from typing import Sequence

import networkx as nx
import numpy as np

from ..names import ego_radius, is_test_name
from .rounds import joint_rounds
from .union import Union, union_of
from ..engine import RefinementResult, no_difference_text, witness_text

__all__ = ["batchable", "refine_pairs", "union_triangles"]


def batchable(test: str) -> bool:
    """Whether :func:`refine_pairs` batches ``test`` (s3, s4, nK, m1); other tests run pair by pair.

    Examples
    --------
    >>> batchable("s3"), batchable("n2"), batchable("m1"), batchable("m2"), batchable("1wl")
    (True, True, True, False, False)
    """
    from ...wltests.registry import get_test

    return is_test_name(test) and (test == "m1" or get_test(test).node_keys is not None)


def refine_pairs(pairs: Sequence[tuple[nx.Graph, nx.Graph]], test: str, *, fast: bool = True,
                 chunk_nodes: int = 2**17) -> list[RefinementResult]:
    """``[refine_pair(G, H, test, fast=fast) for G, H in pairs]``, computed together when
    ``test`` is batchable (:func:`batchable`) and ``fast``; unions of at most ``chunk_nodes``
    nodes at a time (memory grows with the union; M1's marked copies in runs of at most
    :data:`~wltools.refine.batch.marking.COPY_NODES` nodes).

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_pairs([(nx.path_graph(4), nx.star_graph(3))], "s3")[0]
    >>> r.distinguished, r.iteration, r.witness
    (True, 0, 'iteration 0: nodes in 0 triangles and 1 induced 3-path: 2 in G, 0 in H; nodes in 0 triangles and 2 induced 3-paths: 2 in G, 3 in H; nodes in 0 triangles and 3 induced 3-paths: 0 in G, 1 in H')
    """
    from .. import refine_pair  # the package's entry point (this module is imported after it)

    out: list = [None] * len(pairs)
    if not (fast and batchable(test)):
        return [refine_pair(G, H, test, fast=fast) for G, H in pairs]
    plain = [i for i, (G, H) in enumerate(pairs) if _plain_pair(G, H)]
    for chunk in _chunks(plain, [pairs[i][0].number_of_nodes() for i in plain], chunk_nodes):
        u, rejected = union_of([pairs[i] for i in chunk])
        kept = [i for j, i in enumerate(chunk) if j not in rejected]
        if kept:
            for i, res in zip(kept, _refine_union(u, test, [pairs[i] for i in kept])):
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


def _initial(u: Union, test: str, graphs: list) -> tuple[np.ndarray, list, object]:
    """Initial colour ids of the union's nodes (keys numbered in sorted order), the sorted keys,
    and the function rendering one key for a witness."""
    from ..seeded import shared_ids

    radius = ego_radius(test)
    if radius is not None:
        from .ego import union_ego_ids
        from ..ego import describe_ego as _describe

        ids, table = union_ego_ids(u, radius, graphs)
        return ids, table, _describe(radius)
    from ..substructure import counts3 as _counts3, counts4 as _counts4, describe_counts as _describe

    if test == "s3":
        counts = _counts3(None, (u.indptr, u.indices, u.deg), tri=union_triangles(u))
    else:  # graph by graph: the union's enumeration arrays would be far larger than any graph's
        counts = np.concatenate([_counts4(X) for X in graphs])
    ids, _, table = shared_ids(counts, counts[:0])
    return ids, table, _describe(int(test[1]))


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 (``np.bitwise_count`` from numpy 2, else a byte table), as small
    non-negative integers."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x)
    return _BYTE_BITS[x.view(np.uint8)].reshape(-1, 8).sum(axis=1)


def union_triangles(u: Union) -> np.ndarray:
    """Triangles through every node of the union: in graphs of at most 64 nodes from one-word
    bitsets of the neighbourhoods (the common neighbours of the two ends of each edge are the bits
    of an AND), in larger graphs by scipy's sparse product
    (:func:`wltools.refine.substructure._triangles`), each node half its edges' common neighbours.

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.refine.batch.union import union_of
    >>> big = nx.disjoint_union(nx.complete_graph(4), nx.cycle_graph(62))  # 66 nodes: the sparse product
    >>> tri = union_triangles(union_of([(nx.complete_graph(4), nx.complete_graph(4)), (big, big)])[0])
    >>> tri[:8].tolist(), tri[8:12].tolist(), int(tri[12:].sum())
    ([3, 3, 3, 3, 3, 3, 3, 3], [3, 3, 3, 3], 12)
    """
    from ..substructure import triangles_per_node as _triangles

    sizes = np.diff(u.gstart)
    word = np.repeat(sizes <= 64, sizes)  # nodes of one-word graphs
    slots = word[u.owner]
    bits = np.zeros(u.nodes, dtype=np.uint64)  # stays 0 in larger graphs: their ANDs below are 0
    seg = np.flatnonzero(word & (u.deg > 0))
    if seg.size:
        val = np.left_shift(np.uint64(1), u.local.astype(np.uint64) & np.uint64(63))
        if not slots.all():
            val[~slots] = 0
        bits[seg] = np.bitwise_or.reduceat(val, u.indptr[seg])
    common = np.zeros(u.indices.size + 1, dtype=np.int64)
    np.cumsum(_popcount(bits[u.owner] & bits[u.indices]), dtype=np.int64, out=common[1:])
    tri = (common[u.indptr[1:]] - common[u.indptr[:-1]]) // 2  # per node: half its edges' common neighbours
    if not slots.all():  # the other graphs: their edges only, through the sparse product
        keep = ~slots
        indptr = np.zeros(u.nodes + 1, dtype=np.int64)
        np.cumsum(np.where(word, 0, u.deg), out=indptr[1:])
        tri += _triangles(u.nodes, indptr, u.indices[keep], None, None)
    return tri


def _refine_union(u: Union, test: str, pairs: list) -> list:
    """The results of the union's pairs (None for a pair to be refined alone for its witness)."""
    if test == "m1":
        from .marking import marking_results

        return marking_results(u, pairs, test)
    graphs = [X for pair in pairs for X in pair]
    init, table, describe_key = _initial(u, test, graphs)
    first, rounds, sizes, zero_diff = joint_rounds(u, init)
    out = []
    for p in range(u.pairs):
        t = int(first[p])
        if t > 0:
            out.append(None)
            continue
        sg, sh = sizes[p]
        if t < 0:
            witness = no_difference_text(int(rounds[p]), len(sg))
        else:
            cls, cg, ch = zero_diff[p]
            witness = witness_text(0, range(len(cls)), cg, ch, lambda i: describe_key(table[cls[i]]))
        out.append(RefinementResult.from_histograms(test, None if t < 0 else 0, int(rounds[p]), (sg, sh), witness))
    return out
