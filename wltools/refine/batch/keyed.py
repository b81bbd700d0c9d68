"""1-WL started from exact initial node keys on a union of many pairs, with each pair's
:func:`~wltools.refine.refine_pair` result, for :mod:`wltools.refine.batch`.

The batched route of the tests that are plain 1-WL started from an exact per-node invariant
(BREC's S3 / S4 and N_K baselines: Wang & Zhang, "Towards Better Evaluation of GNN Expressiveness
with BREC Dataset", Sec. 5, Table 2; ``WL_1_hash`` of ``Non-GNNs/utils.py``). The test passes the
computation of the initial keys of the union's nodes (``initial(u, graphs) -> (ids, table,
describe_key)``: ids numbered in sorted key order over the union, so a pair's ids order its keys
as the pair's own table does; the sorted keys; the function rendering one key for a witness);
this module refines (:func:`~wltools.refine.batch.rounds.joint_rounds`) and reads per pair the
first round whose colour histograms differ, the round at which the pair's partition is stable
(the stopping rule of :func:`~wltools.refine.engine.run_refinement`) and its class sizes. It
knows no test by name.

A pair distinguished at iteration 0 gets its witness here (classes named by their keys, rendered
as the pair's own refinement renders them); a pair first distinguished later (its witness names
colour ids of the pair's own table) gets None, to be refined alone.

Examples
--------
>>> import networkx as nx
>>> import numpy as np
>>> from wltools.refine.batch.union import union_of
>>> pairs = [(nx.path_graph(4), nx.star_graph(3)), (nx.cycle_graph(6), nx.cycle_graph(6))]
>>> def by_degree(u, graphs):  # initial keys: the degree
...     table = sorted(set(u.deg.tolist()))
...     return np.searchsorted(table, u.deg), table, lambda d: f"degree {d}"
>>> res = keyed_results(union_of(pairs)[0], pairs, "degree-wl", by_degree)
>>> [(r.distinguished, r.iteration) for r in res], res[0].witness
([(True, 0), (False, None)], 'iteration 0: degree 2: 2 in G, 0 in H; degree 1: 2 in G, 3 in H; degree 3: 0 in G, 1 in H')
"""

from __future__ import annotations

from typing import Callable

from ..engine import RefinementResult, no_difference_text, witness_text
from .rounds import joint_rounds
from .union import Union

__all__ = ["keyed_results"]


def keyed_results(u: Union, pairs: list, test: str, initial: Callable) -> list:
    """Per pair of the union ``u`` (``pairs``: its pairs of graphs) the result of 1-WL from the
    keys ``initial(u, graphs)`` computes (module docstring; ``test`` the name in the results), or
    None for a pair to be refined alone for its witness."""
    graphs = [X for pair in pairs for X in pair]
    init, table, describe_key = initial(u, graphs)
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
