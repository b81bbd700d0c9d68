"""The counting benchmark's graphs, splits and exact targets (``data/counting``).

The 5,000 random graphs (10, 15, 20 or 30 nodes) and the fixed 1,500 / 1,000 / 2,500 train /
validation / test split used by GNN-AK (Zhao et al., ICLR 2022), I²-GNN (Huang et al., ICLR 2023)
and Zhang et al. (ICLR 2024); provenance, licence and checksums in ``data/counting/README.md``.
Every file is checked against :data:`CHECKSUMS` before it is read.

Subgraph-count targets are precomputed (``data/counting/make_targets.py``) into
``targets.npz``; homomorphism-count targets come from :mod:`wltools.hom.count` (exact, by
dynamic programming over a tree decomposition) and are computed on first use.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import networkx as nx
import numpy as np

from wltools.errors import WLToolsError

from .subgraph import subgraph_counts
from .tasks import LEVELS, STANDARD_TASKS, Task, parse_task

__all__ = ["DATA_DIR", "CHECKSUMS", "SPLITS", "load_graphs", "load_splits", "edge_list", "exact_targets",
           "targets", "split_indices"]

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "counting"

#: SHA-256 of every committed file of :data:`DATA_DIR` (as in its README).
CHECKSUMS: dict[str, str] = {
    "randomgraph.g6": "dc29a6dc6dcf6f6539d0d93b21247505e0da1aa9666290b1e6e936ac0414fe06",
    "splits.json": "de54db3e8ce2a739697299debb4b9d8a92e761779624ccabda62d16b17198942",
    "targets.npz": "9a2e51070da41f7697bc5c909c806cd484e7e66736b3f03ddf1ec11cddea7d18",
}

SPLITS = ("train", "val", "test")


def _path(name: str) -> Path:
    from wltools.runtime.shipped import check_shipped

    return check_shipped(DATA_DIR / name, CHECKSUMS[name], "counting data file")


@functools.lru_cache(maxsize=1)
def load_graphs() -> tuple[nx.Graph, ...]:
    """The 5,000 graphs in the source's order (nodes ``0..n-1`` as in the source matrices)."""
    lines = _path("randomgraph.g6").read_bytes().split()
    return tuple(nx.from_graph6_bytes(line) for line in lines)


@functools.lru_cache(maxsize=1)
def load_splits() -> dict[str, tuple[int, ...]]:
    """The fixed split: graph indices of ``train``, ``val`` and ``test``, in the source's order."""
    raw = json.loads(_path("splits.json").read_text())
    return {k: tuple(int(i) for i in raw[k]) for k in SPLITS}


def split_indices(split: str | None) -> tuple[int, ...]:
    """Indices of one split (None: every graph, in index order)."""
    if split is None:
        return tuple(range(len(load_graphs())))
    if split not in SPLITS:
        raise WLToolsError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    return load_splits()[split]


def edge_list(G: nx.Graph) -> list[tuple[int, int]]:
    """The edges ``(i, j)``, ``i < j``, of G by node position, sorted: the order of edge targets."""
    index = {v: i for i, v in enumerate(G.nodes)}
    return sorted((min(index[a], index[b]), max(index[a], index[b])) for a, b in G.edges)


def _hom_targets(F: nx.Graph, G: nx.Graph) -> tuple[int, np.ndarray, np.ndarray]:
    """hom(F, G); per node v, homs with 0 -> v; per edge uv, homs with (0, 1) -> (u, v)."""
    from wltools.hom import count

    node = np.asarray(count.hom_counts_at(F, G, (0,)), dtype=object)
    pair = np.asarray(count.hom_counts_at(F, G, (0, 1)), dtype=object)
    edge = np.array([pair[i, j] for i, j in edge_list(G)], dtype=object)
    return int(count.hom_count(F, G)), node, edge


def exact_targets(task: Task | str, G: nx.Graph, *, aut: int | None = None) -> tuple[int, np.ndarray, np.ndarray]:
    """``(graph, node, edge)`` targets of ``task`` on ``G``, computed now (exact integers)."""
    task = parse_task(task) if isinstance(task, str) else task
    if task.kind == "hom":
        return _hom_targets(task.pattern, G)
    return subgraph_counts(task.pattern, G, aut=aut)


@functools.lru_cache(maxsize=1)
def _shipped():
    """The shipped targets, checked, opened lazily (each array is read on first use)."""
    return np.load(_path("targets.npz"))


def _split_flat(flat: np.ndarray, sizes: list[int]) -> list[np.ndarray]:
    return list(np.split(flat, np.cumsum(sizes)[:-1])) if sizes else []


@functools.lru_cache(maxsize=64)
def _all_targets(name: str, level: str) -> tuple:
    graphs = load_graphs()
    shipped = _shipped()
    key = f"{name}|{level}"
    if key in shipped.files:
        flat = shipped[key]
        if level == "graph":
            return tuple(flat.tolist())
        sizes = [G.number_of_nodes() if level == "node" else G.number_of_edges() for G in graphs]
        return tuple(_split_flat(flat, sizes))
    task = parse_task(name)
    if task.kind == "subgraph":
        raise WLToolsError(f"task {name}: targets not precomputed (shipped: {', '.join(STANDARD_TASKS)})")
    return tuple(o[LEVELS.index(level)] for o in _computed(name))


_COMPUTED_NAMES: set[str] = set()


@functools.lru_cache(maxsize=8)
def _computed(name: str) -> tuple:
    """Every graph's ``(graph, node, edge)`` targets of a task computed on first use (homomorphism
    tasks): the three levels come from one computation, so asking for a second level costs nothing."""
    task = parse_task(name)
    out = tuple(exact_targets(task, G) for G in load_graphs())
    _COMPUTED_NAMES.add(name)
    return out


def targets(task: Task | str, level: str, indices=None) -> list:
    """Targets of ``task`` at ``level`` for the graphs ``indices`` (default all): an int per graph
    (``graph``), an integer array per graph over its nodes (``node``) or over :func:`edge_list`
    (``edge``)."""
    name = task.name if isinstance(task, Task) else parse_task(task).name
    if level not in LEVELS:
        raise WLToolsError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    if indices is not None and not _held(name, level):  # a few graphs of a task computed on demand:
        indices = list(indices)  # only those (count data --limit 5; a task checked before a run)
        if len(indices) < len(load_graphs()) // 10:
            graphs = load_graphs()
            return [exact_targets(name, graphs[i])[LEVELS.index(level)] for i in indices]
    every = _all_targets(name, level)
    return list(every) if indices is None else [every[i] for i in indices]


def _held(name: str, level: str) -> bool:
    """Whether :func:`_all_targets` answers ``name`` at ``level`` without computing every graph:
    shipped, computed before in this process, or a subgraph task (shipped or refused there)."""
    return (f"{name}|{level}" in _shipped().files or name in _COMPUTED_NAMES
            or parse_task(name).kind == "subgraph")
