"""Counting tasks: a pattern, how it is counted (subgraph or homomorphism) and at which levels.

Names follow the patterns :mod:`wltools.graphs.named` reads (``cycle:N``, ``path:N``,
``complete:N``) plus ``star:N`` (the star :math:`K_{1,N}`, N leaves), ``chordal:4`` / ``chordal:5``
(a cycle with one chord, as in Zhang et al., ICLR 2024, code ``data/count.py``: the chord joins
cycle vertices 1 and N-1, so ``chordal:4`` is the diamond), ``tailed-triangle`` and ``hom:NAME``,
the homomorphism-counting patterns of Zhang et al. (arXiv 2401.08514, Sec. 6 and Table 1; the
pattern adjacency matrices of their ``data/count.py``).

Levels (Chen et al., NeurIPS 2020, Sec. 2; Zhang et al. 2024, Sec. 6):

* ``graph``: the number of subgraphs of G isomorphic to F (``subgraph``), or ``hom(F, G)``.
* ``node``: per node v, the number of those subgraphs containing v (``subgraph``), or the number
  of homomorphisms mapping the root vertex 0 of F to v (``hom``).
* ``edge``: per edge uv, the number of those subgraphs containing the edge uv (``subgraph``), or
  the number of homomorphisms mapping the root edge (0, 1) of F onto (u, v) (``hom``).
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from wltools.errors import UnknownNameError
from wltools.graphs.named import chordal_cycle as _chordal
from wltools.graphs.named import tailed_triangle as _tailed_triangle

__all__ = ["LEVELS", "Task", "parse_task", "task_names", "ZHANG_HOM_TASKS", "HOM_PATTERNS",
           "STANDARD_TASKS"]

LEVELS = ("graph", "node", "edge")

#: The adjacency matrices of Zhang et al.'s homomorphism patterns (code ``data/count.py``, the
#: ``hom`` dictionary; the published names, spelling kept except ``chrodal6`` -> ``chordal6``).
#: Vertex 0 is the node-level root and (0, 1) the edge-level root.
HOM_PATTERNS: dict[str, tuple[tuple[int, ...], ...]] = {
    "boat": ((0, 1, 1, 0, 0, 0), (1, 0, 1, 1, 0, 0), (1, 1, 0, 0, 1, 0), (0, 1, 0, 0, 1, 1),
             (0, 0, 1, 1, 0, 1), (0, 0, 0, 1, 1, 0)),
    "chordal6": ((0, 1, 1, 0, 0, 0), (1, 0, 1, 1, 1, 0), (1, 1, 0, 0, 1, 1), (0, 1, 0, 0, 1, 0),
                 (0, 1, 1, 1, 0, 1), (0, 0, 1, 0, 1, 0)),
    "chordal4_1": ((0, 1, 1, 0), (1, 0, 1, 1), (1, 1, 0, 1), (0, 1, 1, 0)),
    "chordal4_4": ((0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 0), (1, 1, 0, 0)),
    "chordal5_13": ((0, 1, 1, 0, 0), (1, 0, 1, 1, 1), (1, 1, 0, 1, 0), (0, 1, 1, 0, 1), (0, 1, 0, 1, 0)),
    "chordal5_31": ((0, 1, 1, 1, 1), (1, 0, 1, 0, 0), (1, 1, 0, 1, 0), (1, 0, 1, 0, 1), (1, 0, 0, 1, 0)),
    "chordal5_24": ((0, 1, 1, 0, 1), (1, 0, 1, 0, 0), (1, 1, 0, 1, 1), (0, 0, 1, 0, 1), (1, 0, 1, 1, 0)),
}

#: Zhang et al.'s eight homomorphism-counting tasks (code ``main.count.sh``, ``HOM``; Table 1).
ZHANG_HOM_TASKS = (("hom:chordal4_1", "graph"), ("hom:boat", "graph"), ("hom:chordal6", "graph"),
                   ("hom:chordal4_4", "node"), ("hom:chordal4_1", "node"), ("hom:chordal5_31", "edge"),
                   ("hom:chordal5_13", "edge"), ("hom:chordal5_24", "edge"))

#: Subgraph-counting tasks whose targets are precomputed into the shipped data.
STANDARD_TASKS = ("cycle:3", "cycle:4", "cycle:5", "cycle:6", "cycle:7", "cycle:8", "chordal:4", "chordal:5",
                  "tailed-triangle", "path:3", "path:4", "path:5", "star:3", "star:4", "complete:4")


@dataclass(frozen=True)
class Task:
    """A counting task: ``name``, its pattern ``F`` and ``kind`` (``"subgraph"`` or ``"hom"``)."""

    name: str
    pattern: nx.Graph
    kind: str

    def __repr__(self) -> str:
        return f"Task({self.name!r}, kind={self.kind!r}, nodes={self.pattern.number_of_nodes()})"

    def edge_targets_ordered(self) -> bool:
        """Whether the edge-level target of edge ``uv`` depends on its direction: a homomorphism task
        whose roots 0 and 1 no automorphism of the pattern swaps (hom with 0 -> u, 1 -> v differs
        from 0 -> v, 1 -> u on some graphs; Zhang et al.'s code keeps both directions). A subgraph
        count per edge never does."""
        if self.kind != "hom":
            return False
        from networkx.algorithms.isomorphism import GraphMatcher

        return not any(m[0] == 1 and m[1] == 0 for m in GraphMatcher(self.pattern, self.pattern).isomorphisms_iter())

    def target_roots(self, level: str) -> list[tuple[int, ...]]:
        """The rooted patterns whose counts add up to this task's target at ``level``, one per
        orbit of Aut(F) (the roles a vertex or an edge of G can play in a counted copy).

        * ``graph``: ``[()]`` (no root).
        * ``node``: a subgraph task counts the copies containing v in *any* role, the sum over F's
          vertex orbits O of the copies with v in O; one vertex per orbit. A hom task roots vertex 0.
        * ``edge``: a subgraph task counts the copies containing the edge uv in any role and either
          direction; one ordered pair (a, b) per orbit of F's oriented edges. A hom task roots (0, 1).

        In the homomorphism basis the rooted terms of different orbits never cancel (isomorphic
        rooted quotients have as many classes, so their Möbius coefficients share one sign), so a
        class counts the sum iff it counts every term (Zhang et al., ICLR 2024, Theorem 4.5).

        Examples
        --------
        >>> parse_task("tailed-triangle").target_roots("node")
        [(0,), (1,), (3,)]
        >>> parse_task("cycle:5").target_roots("edge"), parse_task("hom:boat").target_roots("node")
        ([(0, 1)], [(0,)])
        """
        if level == "graph":
            return [()]
        if self.kind == "hom":
            return [(0,)] if level == "node" else [(0, 1)]
        from networkx.algorithms.isomorphism import GraphMatcher

        autos = list(GraphMatcher(self.pattern, self.pattern).isomorphisms_iter())
        items = ([(v,) for v in sorted(self.pattern)] if level == "node"
                 else sorted({e for a, b in self.pattern.edges for e in ((a, b), (b, a))}))
        reps, seen = [], set()
        for item in items:
            if item not in seen:
                reps.append(item)
                seen |= {tuple(m[x] for x in item) for m in autos}
        return reps




def _from_matrix(rows) -> nx.Graph:
    F = nx.Graph()
    F.add_nodes_from(range(len(rows)))
    F.add_edges_from((i, j) for i, row in enumerate(rows) for j, a in enumerate(row) if a and i < j)
    return F


def task_names() -> list[str]:
    """Every accepted task name (sized families as ``family:N`` with their ranges)."""
    return ["cycle:3..8", "path:3..6", "star:2..5", "complete:3..5", "chordal:4", "chordal:5", "tailed-triangle",
            *(f"hom:{k}" for k in HOM_PATTERNS)]


_SIZED = {"cycle": (3, 8), "path": (3, 6), "star": (2, 5), "complete": (3, 5), "chordal": (4, 5)}


def _sized_pattern(base: str, size: int) -> nx.Graph:
    from wltools.graphs.named import named_graph

    if base == "star":
        return nx.star_graph(size)
    if base == "chordal":
        return _chordal(size)
    return nx.convert_node_labels_to_integers(named_graph(f"{base}:{size}"))


def parse_task(name: str) -> Task:
    """The :class:`Task` named ``name`` (see the module docstring); one clear error otherwise.

    Examples
    --------
    >>> parse_task("cycle:4").pattern.number_of_edges(), parse_task("star:3").pattern.number_of_nodes()
    (4, 4)
    >>> parse_task("hom:boat").kind
    'hom'
    """
    text = str(name).strip()
    if text.startswith("hom:"):
        rows = HOM_PATTERNS.get(text[4:])
        if rows is None:
            raise UnknownNameError(f"unknown homomorphism task {text!r}; known: {', '.join(task_names())}")
        return Task(text, _from_matrix(rows), "hom")
    if text == "tailed-triangle":
        return Task(text, _tailed_triangle(), "subgraph")
    base, sep, arg = text.partition(":")
    if base not in _SIZED or not sep:
        raise UnknownNameError(f"unknown counting task {text!r}; known: {', '.join(task_names())}")
    lo, hi = _SIZED[base]
    if not arg.isdigit() or not lo <= int(arg) <= hi:
        raise UnknownNameError(f"counting task {text!r}: size must be an integer in {lo}..{hi}")
    return Task(f"{base}:{int(arg)}", _sized_pattern(base, int(arg)), "subgraph")
