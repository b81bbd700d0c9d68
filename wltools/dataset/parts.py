"""A dataset given as parts that are read where they are refined (a shard reads its own part), so
no process ever holds the whole collection: the driver holds label tables, one row per distinct
colour class per round, and one class id per graph and round.

Each part is a loader (a picklable callable returning a
:class:`~wltools.dataset.collection.GraphCollection`, e.g. ``functools.partial(read_tu,
"DS/part-3")``). Parts read apart number their labels apart, so before refining, the driver
collects every part's label values and makes one table (:func:`align_labels`); each part then
renumbers its node and edge labels into it. After that the rounds are those of
:mod:`wltools.dataset.refine` (one exact colour table kept by the driver), and the graph targets
come back as values and are numbered once. Isomorphism classes are not computed over parts (the
canonical forms would need the graphs at one place).

Examples
--------
>>> import functools, networkx as nx
>>> from wltools.dataset.collection import from_networkx
>>> def part(graphs, ys):
...     return from_networkx(graphs, targets=ys)
>>> loaders = [functools.partial(part, [nx.cycle_graph(6)], ["a"]),
...            functools.partial(part, [nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))], ["b"])]
>>> rep = analyse_parts(loaders, ["1wl", "spd"])
>>> [(t["test"], t["rounds"][-1]["classes"], t["rounds"][-1]["accuracy_bound"]) for t in rep["tests"]]
[('1wl', 1, 0.5), ('spd', 2, 1.0)]
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

import numpy as np

from ..errors import GraphFormatError
from .bounds import class_stats, majority_bound
from ..graphs.labels import encode_labels
from .refine import DEFAULT_MAX_BYTES, ShardState, refine_collection

__all__ = ["PartShard", "LocalParts", "align_labels", "analyse_parts"]


class PartShard(ShardState):
    """A shard that reads its own part (``loader()``), with the methods the driver needs to
    align labels and gather targets."""

    def __init__(self, loader: Callable, test: str, max_bytes: int = DEFAULT_MAX_BYTES):
        super().__init__(loader(), test, max_bytes, alone=False)

    def label_tables(self) -> tuple:
        """The part's node and edge label values (``None``: the part has no such labels)."""
        c = self.coll
        return (c.node_label_values if c.node_labels is not None else None,
                c.edge_label_values if c.edge_labels is not None else None)

    def relabel(self, node_map, edge_map, num_edge_labels: int) -> None:
        """Renumber the labels into the driver's tables (``map[local id] = global id``)."""
        if node_map is not None:
            self.labels = np.asarray(node_map, dtype=np.int64)[self.coll.node_labels]
        if edge_map is not None:
            self.slot_labels = np.asarray(edge_map, dtype=np.int64)[self.coll.edge_labels]
        self.num_edge_labels = max(1, num_edge_labels)
        self._cache.clear()

    def summary(self) -> tuple:
        """``(graphs, nodes, edges, largest order)``."""
        c = self.coll
        return c.num_graphs, c.num_nodes, c.num_edges, int(c.sizes.max())

    def target_values(self, nodes: bool = False) -> list | None:
        """The graph targets (or node targets) as values, in order."""
        c = self.coll
        ids, table = (c.node_targets, c.node_target_values) if nodes else (c.graph_targets, c.target_values)
        return None if ids is None else [table[i] for i in ids.tolist()]


class LocalParts:
    """Parts as shards in this process (the executor interface of
    :class:`~wltools.dataset.refine.LocalShards`)."""

    def __init__(self, loaders: Sequence[Callable], test: str, max_bytes: int = DEFAULT_MAX_BYTES):
        self.states = [PartShard(load, test, max_bytes) for load in loaders]

    def __len__(self) -> int:
        return len(self.states)

    def call(self, method: str, args: Sequence[tuple] | None = None) -> list:
        return [getattr(s, method)(*(args[i] if args else ())) for i, s in enumerate(self.states)]


def _one_table(tables: list, what: str):
    """Global ids of every part's label values, and the table size (``None``: no labels)."""
    if all(t is None for t in tables):
        return [None] * len(tables), 0
    if any(t is None for t in tables):
        raise GraphFormatError(f"the parts disagree: some have {what} labels, others none")
    flat = [v for t in tables for v in t]
    ids, table = encode_labels(flat, lambda i: f"{what} label {i}")
    maps, o = [], 0
    for t in tables:
        maps.append(ids[o: o + len(t)])
        o += len(t)
    return maps, len(table)


def align_labels(shards) -> tuple[int, int]:
    """One node-label and one edge-label table over all parts; every part renumbers into it.
    Returns the numbers of node and edge label values."""
    tables = shards.call("label_tables")
    node_maps, n_node = _one_table([t[0] for t in tables], "node")
    edge_maps, n_edge = _one_table([t[1] for t in tables], "edge")
    shards.call("relabel", [(nm, em, n_edge) for nm, em in zip(node_maps, edge_maps)])
    return n_node, n_edge


def _gather_targets(shards, nodes: bool):
    parts = shards.call("target_values", [(nodes,)] * len(shards))
    if all(p is None for p in parts):
        return None, []
    if any(p is None for p in parts):
        raise GraphFormatError(f"the parts disagree: some have {'node' if nodes else 'graph'} targets, others none")
    return encode_labels([v for p in parts for v in p], lambda i: f"target {i}")


def _make(loaders, test, executor: str, address):
    if executor == "ray":
        from .ray_refine import RayShards

        return RayShards(None, test, loaders=loaders, address=address, part_shard=PartShard)
    return LocalParts(loaders, test)


def analyse_parts(loaders: Sequence[Callable], tests: Sequence[str] = ("1wl",), rounds: int | None = None, *,
                  node_targets: bool = False, executor: str = "local", address: str | None = None,
                  name: str = "parts") -> dict:
    """:func:`wltools.dataset.analysis.analyse` over parts read by their shards (in this process
    or on Ray actors); the report has the same shape, without isomorphism classes."""
    from ..runtime.provenance import environment

    report = {"dataset": None, "settings": {"tests": list(tests), "rounds": rounds, "node_targets": node_targets,
              "executor": executor, "shards": len(loaders), "parts": True}, "tests": [], "isomorphism": None,
              "provenance": environment()}
    for test in tests:
        start = time.perf_counter()
        shards = _make(loaders, test, executor, address)
        try:
            n_node, n_edge = align_labels(shards)
            y, y_values = _gather_targets(shards, nodes=False)
            ny, ny_values = _gather_targets(shards, nodes=True) if node_targets else (None, [])
            if node_targets and ny is None:
                raise GraphFormatError(f"{name} has no node targets")
            if report["dataset"] is None:
                sums = shards.call("summary")
                g, n, m = (sum(s[i] for s in sums) for i in range(3))
                big = max(s[3] for s in sums)
                report["dataset"] = {"name": name, "graphs": g, "nodes": n, "edges": m, "node_labels": n_node,
                                     "edge_labels": n_edge, "graph_classes": len(y_values),
                                     "node_target_classes": len(ny_values), "max_nodes": big}
            ref = refine_collection(None, test, rounds, shards=shards, keep_node_colours=node_targets)
        finally:
            if hasattr(shards, "close"):
                shards.close()
        rows = []
        for t, classes in enumerate(ref.graph_classes):
            row = {"round": t, "colours": ref.colours[t], **class_stats(classes, None, y)}
            if node_targets:
                row["node_accuracy_bound"] = majority_bound(ref.node_colours[t], ny)[0]
            rows.append(row)
        report["tests"].append({"test": test, "stable_after": ref.stable_after,
                                "seconds": round(time.perf_counter() - start, 3), "rounds": rows})
    return report
