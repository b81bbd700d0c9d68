"""Exact structural keys of a whole shard of graphs, one table for all of them, so that the tests
built on keys run on the collection's one colour table (:mod:`wltools.dataset.refine`):

* **GD-WL over RD / RRWP and EPWL** (:data:`KEYED`): rows ``[chi(v), sorted(key(v, u) k + chi(u))]``
  as for SPD, over the exact keys of :func:`wltools.distances.distance_keys` (resistance distance,
  RRWP with ``K = n``, GRIT Eq. 1) or :func:`wltools.refine.epwl.walk_keys` (walk counts of length
  ``0..n``, which give EPWL; Gai et al. 2025), one table per order (graphs of different orders
  never share a class, and rows of different widths never share a colour). Edge labels enter RD and
  RRWP as in :func:`wltools.refine.gdwl.gdwl_declaration` (``key (L + 1) + edge id``, ``0`` for
  no edge); EPWL reads none.
* **BREC's seeded 1-WL baselines** (:data:`SEEDED`: ``s3``, ``s4``, ``nK``; Wang & Zhang, BREC
  Sec. 5): 1-WL started from each node's exact key (:func:`wltools.refine.substructure.substructure_counts`,
  :func:`wltools.refine.ego.ego_keys`), numbered in one sorted table over the shard; labels are
  not read (the tests are defined without them).

Tables are the shard's own, so these tests run on one shard (the driver of several shards would
need the keys' values): :class:`~wltools.dataset.refine.ShardState` refuses them otherwise and
:func:`wltools.dataset.analysis.analyse` refines them pairwise instead.

Examples
--------
>>> import networkx as nx
>>> from wltools.dataset.collection import from_networkx
>>> coll = from_networkx([nx.path_graph(4), nx.cycle_graph(3)])
>>> seeded_ids(coll, "n5").tolist()  # radius 5 covers each graph: one ego network per graph
[1, 1, 1, 1, 0, 0, 0]
"""

from __future__ import annotations

import numpy as np

from ..refine.names import is_test_name
from ..wltests.registry import builtin_tests, get_test

__all__ = ["KEYED", "SEEDED", "is_seeded", "seeded_ids", "pair_keys"]

#: Built-in GD-WL-form tests over exact pair keys (their ``pair_keys``).
KEYED = tuple(t.name for t in builtin_tests() if t.pair_keys is not None)

#: Built-in tests that are 1-WL from exact per-node keys (their ``node_keys``; and every ``nK``).
SEEDED = tuple(t.name for t in builtin_tests() if t.node_keys is not None)


def is_seeded(test: str) -> bool:
    """Whether ``test`` is 1-WL from exact per-node keys (``s3``, ``s4``, ``nK``: its ``node_keys``).

    Examples
    --------
    >>> [is_seeded(t) for t in ("n4", "1wl")]
    [True, False]
    """
    return is_test_name(test) and get_test(test).node_keys is not None


def seeded_ids(coll, test: str) -> np.ndarray:
    """The key id of every node of ``coll`` (one sorted table over all its graphs)."""
    node_keys = get_test(test).node_keys
    cache: dict = {}
    keys: list = []
    for i in range(coll.num_graphs):
        keys.extend(node_keys(coll.graph(i), cache))
    table = {key: j for j, key in enumerate(sorted(set(keys)))}
    return np.fromiter((table[key] for key in keys), dtype=np.int64, count=len(keys))


def pair_keys(coll, test: str, gs: np.ndarray, edge_codes: np.ndarray | None, edge_base: int) -> np.ndarray:
    """``[len(gs), n, n]`` int64 keys of the graphs ``gs`` (all of order ``n``) for a
    :data:`KEYED` test, one table; ``edge_codes`` (``0`` no edge, ``1 + label``) folded in with
    base ``edge_base`` when given (RD, RRWP)."""
    spec = get_test(test)
    D = np.stack(spec.pair_keys([coll.graph(int(i)) for i in gs])).astype(np.int64)
    return D * edge_base + edge_codes if edge_codes is not None and spec.labels == "any" else D
