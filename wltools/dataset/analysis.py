"""``wltools dataset``: per test and per round, how far a collection's graphs are told apart, and
the accuracy that this allows (:mod:`wltools.dataset.bounds`), as one JSON-ready report.

Every test of :data:`wltools.refine.names.ALL_TESTS` (and ``nK``) bounds a collection. 1-WL, SPD and
3-WL refine the whole collection at once on one colour table
(:func:`wltools.dataset.refine.refine_collection`, shardable), and so do RD, RRWP, EPWL and BREC's
seeded baselines ``s3``, ``s4``, ``nK`` in one shard (:mod:`wltools.dataset.keys`); every other
test (the subgraph WL tests, 3-FWL, M1, M2, and the keyed ones when sharded) compares graphs with
class representatives on the pair engine (:func:`wltools.dataset.pairwise.pairwise_classes`), which
gives the same classes (both are tested against :func:`wltools.refine.refine_pair` pair by pair).
After every round ``t`` (``0`` = initial colours) the report gives the number of colours
(one-table tests; ``None`` for the others), of equivalence classes, the non-isomorphic pairs
not separated, the graphs sharing a class with a differently labelled graph, the accuracy bound
(classification) or the lowest mean absolute error (regression, :func:`wltools.dataset.bounds.mae_floor`)
and, with node targets, the node-classification bound. Isomorphism classes (labelled,
:mod:`wltools.dataset.iso_labelled`) are computed once, only for graphs that share their finest
class with another graph.

Examples
--------
>>> import networkx as nx
>>> from wltools.dataset.collection import from_networkx
>>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
>>> coll = from_networkx([nx.cycle_graph(6), two_triangles, nx.cycle_graph(6)], targets=[0, 1, 0])
>>> rep = analyse(coll, ["1wl", "spd"])
>>> [(t["test"], t["rounds"][-1]["classes"], t["rounds"][-1]["accuracy_bound"]) for t in rep["tests"]]
[('1wl', 1, 0.6666666666666666), ('spd', 2, 1.0)]
>>> rep["isomorphism"]["classes"], rep["tests"][0]["rounds"][-1]["unseparated_noniso_pairs"]
(2, 2)
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable, Sequence

import networkx as nx
import numpy as np

from ..errors import GraphFormatError, ResourceLimitError, UnknownNameError
from ..graphs.labels import encode_labels
from ..runtime.memory import require
from ..wltests.registry import get_test
from .bounds import class_stats, majority_bound, mae_floor, regression_values
from .collection import GraphCollection, from_graph6, from_networkx, from_pyg
from .iso_labelled import isomorphism_classes
from .pairwise import MAX_SECONDS, estimate_seconds, ignored_labels, pairwise_classes, plan
from .keys import KEYED, is_seeded
from .refine import LocalShards, on_one_table, refine_collection
from .tu import bundled, bundled_names, read_tu

__all__ = ["analyse", "open_dataset", "peak_bytes", "TASKS"]

#: What the targets are: classes (the accuracy bound) or real numbers (the MAE floor).
TASKS = ("classification", "regression")


def peak_bytes(coll: GraphCollection, test: str, max_bytes: int = 256 * 2**20) -> int:
    """Estimated peak memory (bytes) of refining ``coll`` with ``test`` in one process, the
    collection itself not counted: per element (node, or ordered pair for 3wl) its colour, the
    next colours, the pending ids and the sorted graph rows (48 bytes; 1wl: 64 per node and CSR
    slot; spd: plus its distance keys), plus the row blocks of a round (32 bytes per item: the
    items, their sorted copy and the hashing temporaries), which
    :class:`~wltools.refine.grouping.RowGrouper` caps at ``max_bytes`` and its store of verified
    rows at ``max_bytes`` more. Checked against tracemalloc peaks in the tests. RD, RRWP and EPWL
    count as spd, ``s3``, ``s4`` and ``nK`` as 1wl, each plus the keys of its largest graph
    (:func:`wltools.refine.cost.peak_bytes` of a pair of it)."""
    sizes = coll.sizes.astype(np.int64)
    if test == "3wl":
        per, items = 48 * (sizes**2).sum(), (sizes**3).sum()
    elif test == "spd" or test in KEYED:
        per, items = 48 * (sizes**2).sum() + 48 * coll.num_nodes, (sizes**2).sum()
    else:
        per = items = coll.num_nodes + coll.indices.size
        per *= 64
    keys = 0
    if test in KEYED or is_seeded(test):
        from ..refine.cost import peak_bytes as pair_peak

        g = int(np.argmax(sizes))
        keys = pair_peak(test, int(sizes[g]), int(np.diff(coll.indptr)[coll.graph_ptr[g]:coll.graph_ptr[g + 1]].sum()) // 2)
    return int(per + min(2 * max_bytes, 32 * items) + keys)


def _check(coll: GraphCollection, tests: Sequence[str], max_memory: int | None) -> None:
    from ..refine.cost import peak_bytes as pair_peak
    from ..refine.names import is_test_name

    for test in tests:
        if not is_test_name(test):
            from ..refine.names import parse_tests

            parse_tests(test, command="dataset --tests")  # the one line listing the names
        g = int(np.argmax(coll.sizes))
        spec = get_test(test)
        if spec.max_nodes is not None and int(coll.sizes[g]) > spec.max_nodes:
            raise ResourceLimitError(f"{test} on {coll.name}: graph {g} has {int(coll.sizes[g]):,} nodes, above "
                                     f"the limit of {spec.max_nodes:,} (n^{spec.time_power} work per "
                                     "graph and round)")
        what = f"{test} on {coll.name} ({coll.num_graphs:,} graphs, {coll.num_nodes:,} nodes)"
        if on_one_table(test):
            require(peak_bytes(coll, test), what, max_memory=max_memory)
        else:  # the largest pair, and the depth matrix of the largest bucket of equal orders
            m = int(np.diff(coll.indptr)[coll.graph_ptr[g]:coll.graph_ptr[g + 1]].sum()) // 2
            bucket = int(np.bincount(coll.sizes).max())
            require(pair_peak(test, int(coll.sizes[g]), m) + 64 * bucket**2, what, max_memory=max_memory)


def _bar(total, desc: str, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, disable=not enabled, leave=False, unit="round", dynamic_ncols=True)


def _summary(coll: GraphCollection) -> dict:
    return {"name": coll.name, "graphs": coll.num_graphs, "nodes": coll.num_nodes, "edges": coll.num_edges,
            "node_labels": len(coll.node_label_values), "edge_labels": len(coll.edge_label_values),
            "graph_classes": len(coll.target_values), "node_target_classes": len(coll.node_target_values),
            "max_nodes": int(coll.sizes.max())}


def _rounds_table(ref, iso, coll: GraphCollection, node_targets: bool, values) -> list[dict]:
    rows = []
    for t, classes in enumerate(ref.graph_classes):
        row = {"round": t, "colours": ref.colours[t]}
        row.update(class_stats(classes, iso, coll.graph_targets if values is None else None))
        if values is not None:
            row["conflicting_graphs"] = class_stats(classes, None, coll.graph_targets)["conflicting_graphs"]
            row["mae_floor"] = mae_floor(classes, values)
        if node_targets:
            row["node_accuracy_bound"] = (majority_bound(ref.node_colours[t], coll.node_targets)[0]
                                          if ref.node_colours is not None else None)
        rows.append(row)
    return rows


def _refine(coll, test, rounds, shards, executor, ray_address, node_targets, tick, planned=None):
    """One test's classes per round: on the shared table, or pairwise (module docstring)."""
    if not on_one_table(test, shards if executor == "local" else 2):
        return pairwise_classes(coll, test, rounds, planned=planned)
    executor_shards = _shards(coll, test, shards, executor, ray_address)
    try:
        return refine_collection(coll, test, rounds, shards=executor_shards, keep_node_colours=node_targets,
                                 progress=tick)
    finally:
        if hasattr(executor_shards, "close"):
            executor_shards.close()


def _test_entry(coll, test, ref, seconds, iso_ids, node_targets, values) -> dict:
    entry = {"test": test, "stable_after": ref.stable_after, "seconds": round(seconds, 3),
             "rounds": _rounds_table(ref, iso_ids, coll, node_targets, values)}
    if hasattr(ref, "pair_refinements"):
        entry["engine"] = f"pairwise ({ref.pair_refinements:,} pair refinements)"
    if ignored_labels(coll, test):
        entry["labels_ignored"] = ignored_labels(coll, test)
    return entry


def _plans(coll: GraphCollection, tests, max_seconds: float | None, one_table) -> dict:
    """The pairwise tests' plans, each refused by its time estimate above ``max_seconds``."""
    plans = {}
    for test in tests:
        if one_table(test):
            continue
        plans[test] = plan(coll, test)
        seconds, most = estimate_seconds(coll, plans[test])
        if max_seconds is not None and seconds > max_seconds:
            raise ResourceLimitError(f"{test} on {coll.name}: up to {seconds:,.0f} s estimated (at most {most:,} pair "
                                     f"refinements against class representatives); pass --max-seconds "
                                     f"{10 ** len(str(int(seconds)))} to run it anyway")
    return plans


def _iso_block(coll, refs, tests, progress, values):
    """Labelled isomorphism classes (only among graphs no test separates) and their bound."""
    start = time.perf_counter()
    finest = np.stack([refs[t].graph_classes[-1] for t in tests], axis=1) if tests else \
        np.zeros((coll.num_graphs, 1), dtype=np.int64)
    candidates = np.unique(finest, axis=0, return_inverse=True)[1].reshape(-1)
    from tqdm import tqdm

    with tqdm(total=coll.num_graphs, desc="isomorphism classes", disable=not progress, leave=False,
              unit="graph", dynamic_ncols=True) as bar:
        iso_ids = isomorphism_classes(coll, candidates, progress=lambda i: bar.update(1))
    block = {"classes": int(iso_ids.max()) + 1, "seconds": round(time.perf_counter() - start, 3),
             "accuracy_bound": (majority_bound(iso_ids, coll.graph_targets)[0]
                                if coll.graph_targets is not None and values is None else None)}
    if values is not None:
        block["mae_floor"] = mae_floor(iso_ids, values)
    return iso_ids, block


def analyse(coll: GraphCollection, tests: Sequence[str] = ("1wl",), rounds: int | None = None, *,
            node_targets: bool = False, iso: bool = True, shards: int = 1, executor: str = "local",
            max_memory: int | None = None, progress: bool = False, ray_address: str | None = None,
            task: str = "classification", max_seconds: float | None = MAX_SECONDS,
            stage: Callable[[str], None] | None = None) -> dict:
    """The report of ``coll`` for ``tests`` (see the module docstring).

    Parameters
    ----------
    tests : sequence of str
        Names of :data:`wltools.refine.names.ALL_TESTS` (or ``nK``); a list as
        :func:`wltools.refine.names.parse_tests` reads it (``"all"``, ``"1wl,rd"``) is accepted.
    rounds : int, optional
        Rounds ``1..L``; default: until each test's colouring is stable.
    node_targets : bool
        Also bound node-classification accuracy (needs ``coll.node_targets``; shared-table tests).
    iso : bool
        Compute isomorphism classes (and the pairs counts that need them).
    shards, executor : int, {"local", "ray"}
        Split the graphs into shards, in this process or on Ray
        (:mod:`wltools.dataset.ray_refine`); the driver keeps the one colour table (1wl, spd,
        3wl; the other tests run in this process).
    max_memory : int, optional
        Memory budget of one process (:func:`wltools.runtime.memory.require`).
    progress : bool
        A progress bar (tqdm, on stderr) per test and for the isomorphism classes.
    stage : callable, optional
        ``stage(line)`` after each test and before the isomorphism classes: one line each, where no
        bar is shown (``wltools dataset`` with its stderr piped).
    task : {"classification", "regression"}
        What the graph targets are: classes (``accuracy_bound``) or real numbers (``mae_floor``,
        the lowest mean absolute error of a model that gives one class one prediction).
    max_seconds : float or None
        Refuse (one line, before its work) a pairwise test whose estimated time
        (:func:`wltools.dataset.pairwise.estimate_seconds`) is above this; None: no limit.
    """
    from ..refine.names import parse_tests

    tests = list(parse_tests(tests, command="dataset --tests"))
    if task not in TASKS:
        raise UnknownNameError(f"unknown task {task!r}; choose from {', '.join(TASKS)}")
    if node_targets and coll.node_targets is None:
        raise GraphFormatError(f"{coll.name} has no node targets (TU: DS_node_labels.txt)")
    values = regression_values(coll) if task == "regression" else None
    _check(coll, tests, max_memory)
    plans = _plans(coll, tests, max_seconds, lambda t: on_one_table(t, shards if executor == "local" else 2))
    from ..runtime.provenance import environment

    report = {"dataset": _summary(coll), "settings": {"tests": tests, "rounds": rounds, "node_targets": node_targets,
              "executor": executor, "shards": shards, "task": task}, "tests": [], "isomorphism": None,
              "provenance": environment()}
    refs, seconds = {}, {}
    for test in tests:
        bar = _bar(rounds, f"{test} on {coll.name}", progress)
        start = time.perf_counter()

        def tick(t, k, classes, bar=bar):
            bar.update(1)
            bar.set_postfix(colours=k, classes=classes)

        try:
            refs[test] = _refine(coll, test, rounds, shards, executor, ray_address, node_targets, tick, plans.get(test))
        finally:
            bar.close()
        seconds[test] = time.perf_counter() - start
        if stage is not None:
            stage(f"wltools: dataset {coll.name}: {test} refined ({len(refs[test].graph_classes) - 1} rounds) in "
                  f"{seconds[test]:.1f} s; test {len(seconds)} of {len(tests)}")
    iso_ids = None
    if iso:
        if stage is not None:
            stage(f"wltools: dataset {coll.name}: isomorphism classes of {coll.num_graphs} graphs")
        iso_ids, report["isomorphism"] = _iso_block(coll, refs, tests, progress, values)
    for test in tests:
        report["tests"].append(_test_entry(coll, test, refs[test], seconds[test], iso_ids, node_targets, values))
    return report


def _shards(coll: GraphCollection, test: str, shards: int, executor: str, ray_address: str | None):
    if executor == "ray":
        from .ray_refine import RayShards

        return RayShards(coll, test, shards, address=ray_address)
    if executor != "local":
        raise UnknownNameError(f"unknown executor {executor!r}; choose local or ray")
    return LocalShards(coll, test, shards)


def open_dataset(path, *, node_features: str = "auto", edge_labels: bool = True,
                 node_targets: bool = False, targets=None, max_memory: int | None = None) -> GraphCollection:
    """The collection at ``path`` for ``wltools dataset``: a TU folder (or its ``DS_A.txt``), a
    graph6 / sparse6 file, or the name of a committed TU dataset (``NCI1K``, :func:`.tu.bundled`).
    ``node_features="auto"`` colours TU nodes by their labels, or by nothing when the node labels are the targets (``node_targets``: a bound on predicting them
    from themselves would say nothing). ``targets``: a text file with one graph target per line
    (graph6 / sparse6 input only; TU folders carry ``DS_graph_labels.txt``), or ``count:PATTERN``:
    each graph's number of subgraphs isomorphic to ``PATTERN`` (:mod:`wltools.dataset.counts`; any
    input)."""
    p = Path(path)
    if not p.exists() and bundled(str(path)) is not None:
        p = bundled(str(path))
    if not p.exists():
        raise GraphFormatError(f"no such file or folder {str(path)!r}, and no committed dataset of that name "
                               f"(committed: {', '.join(bundled_names()) or 'none'})")
    count = targets is not None and str(targets).startswith("count:")
    if p.is_dir() or p.name.endswith("_A.txt"):
        if targets is not None and not count:
            raise GraphFormatError("--targets FILE is for graph6 / sparse6 files; a TU folder has DS_graph_labels.txt "
                                   "(or give --targets count:PATTERN)")
        if node_features == "auto":
            node_features = "none" if node_targets else "labels"
        coll = read_tu(p if p.is_dir() else p.parent, node_features=node_features, edge_labels=edge_labels)
    else:
        if node_features not in ("auto", "none"):
            raise UnknownNameError(f"--node-features {node_features}: {p.name} is a graph6 / sparse6 file "
                                   "without node labels")
        coll = from_graph6(p, max_memory=max_memory)
    if targets is not None:
        if count:
            from .counts import count_targets

            values, where = count_targets(coll, str(targets)), lambda g: f"graph {g} count"
        else:
            values, where = _target_lines(targets), lambda g: f"{Path(targets).name} line {g + 1}"
        if len(values) != coll.num_graphs:
            raise GraphFormatError(f"{Path(targets).name} has {len(values)} targets for {coll.num_graphs} graphs")
        coll.graph_targets, coll.target_values = encode_labels(values, where)
    return coll


def _target_value(text: str):
    """A target as written in a targets file: a number when the text is one (``1``, ``1.0`` and
    ``1e0`` are the number one, compared by value by :func:`wltools.graphs.labels.encode_labels`;
    decimals exact, as :class:`~fractions.Fraction`), else the text itself (a class name).

    Examples
    --------
    >>> [_target_value(t) for t in ("1", "1.0", "0.1", "-2e-3", "active", "nan")]
    [1, Fraction(1, 1), Fraction(1, 10), Fraction(-1, 500), 'active', 'nan']
    """
    from fractions import Fraction

    try:
        return int(text)
    except ValueError:
        pass
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text


def _target_lines(path) -> list:
    """The targets of a targets file: one per non-empty line, numbers by value (:func:`_target_value`)."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise GraphFormatError(f"cannot read targets file {str(path)!r}: {exc}") from None
    return [_target_value(line.strip()) for line in text.splitlines() if line.strip()]


def load_collection(source, **kw) -> GraphCollection:
    """A collection from a TU folder (or its ``DS_A.txt``), a graph6 / sparse6 file, a PyG dataset
    or a list of networkx graphs (keyword arguments go to the loader)."""
    if isinstance(source, GraphCollection):
        return source
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if path.is_dir() or path.name.endswith("_A.txt"):
            return read_tu(path if path.is_dir() else path.parent, **kw)
        if not path.exists():
            raise GraphFormatError(f"no such file or folder: {str(path)!r}")
        return from_graph6(path, **kw)
    items = list(source)
    if items and all(isinstance(G, nx.Graph) for G in items):
        return from_networkx(items, **kw)
    if items and all(hasattr(d, "edge_index") for d in items):
        return from_pyg(items, name=getattr(source, "name", None), **kw)
    raise GraphFormatError("cannot read this collection: expected a TU folder, a graph6 / sparse6 file, "
                           "a PyG dataset or a list of networkx graphs")
