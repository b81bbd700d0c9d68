"""M1 and M2: the multiset, over nodes (ordered node pairs), of the 1-WL class of the graph with
that node (pair) marked.

BREC's node-marking baseline M1 (Wang & Zhang, "Towards Better Evaluation of GNN Expressiveness
with BREC Dataset", Sec. 5, Table 2 "Non-GNN baselines"; reference code ``Non-GNNs/utils.py`` of
github.com/GraphPKU/BREC, ``WL_1_hash`` mode ``m1`` with ``WL_marking``). For a node ``v``, let
``G_v`` be ``G`` with initial colours ``1`` on ``v`` and ``0`` elsewhere (no degrees), refined by
1-WL to a stable partition; M1 maps the graph to

.. math::

    \\{\\{ [G_v]_{\\text{1-WL}} : v \\in V(G) \\}\\},

where ``[G_v]`` is the 1-WL equivalence class of the marked graph, and distinguishes ``G`` and ``H``
iff these multisets differ. No 1-WL runs on top of the marked classes (the reference compares
the multiset directly; it also appends the plain 1-WL hash of ``G``, which the multiset already
determines for ``n >= 1``: the stable colouring of ``G_v`` refines that of ``G``).

M2 extends it to node pairs the way M1 marks nodes: for every *ordered* pair ``(v, w)``,
``v != w``, ``G_{vw}`` has colour 1 on ``v``, 2 on ``w`` and 0 elsewhere. The reference's mode
``m2`` marks only pairs ``i < j`` of its node order with the first node 2 and the second 3, which
makes its value depend on how the nodes are numbered; taking both orders of every pair gives the
relabelling-invariant test it approximates.

The result of M1 / M2 is one colouring of the nodes, compared once: for M1 ``chi(v)`` is the
class of ``G_v``; for M2 it is the multiset of the classes of ``G_{vw}`` over ``w != v`` (whose
multiset over ``v`` is exactly the multiset over ordered pairs). ``iteration`` is 0 when the pair
is distinguished and ``iterations`` is 0; the witness names a class that differs.

Exactness: the fast path refines all marked copies of both graphs as one disjoint union with one
colour table (:func:`~wltools.runtime.hashing.unique_rows`, verified grouping), starting from the
mark together with the stable plain 1-WL colour of the pair (the same stable classes as from the
mark alone: the plain colouring is a function of the marked one), and marks only one node of each
automorphism orbit (nauty's orbits through pynauty; nodes of one orbit give isomorphic marked
graphs), weighted by the orbit's size. Two copies are 1-WL equivalent iff their colour histograms
agree once the joint colouring is stable. The reference path marks every node (pair), refines
each copy on its own until its partition is stable, and identifies a copy by that round and its
histogram in one shared table of colours (equal histograms at the round where both stop imply
equal histograms at every round).

Which models: M1 is DS-WL with the node-marking policy (Bevilacqua et al., "Equivariant Subgraph
Aggregation Networks", ICLR 2022): 1-WL on each marked copy on its own, then the multiset of the
results, the test bounding DS-GNN with node marking (and ID-GNN-style identity marking); BREC
Sec. 5 sets M1 beside them. Subgraph GNNs that also aggregate across copies (DSS-GNN, the SWL
hierarchy of Zhang et al., ICML 2023, :mod:`wltools.refine.swl`) can be stronger. M2 is the same
with ordered node pairs marked (ESAN-style 2-node marking policies).

Costs: M1 refines one marked copy of ``n`` nodes per automorphism orbit of each graph (at most
``2 n`` copies), M2 one per orbit of ordered pairs (at most ``2 n (n - 1)``), all together as one
union, for up to ``n`` rounds.

Examples
--------
>>> import networkx as nx
>>> r = refine_marking(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), marks=1)
>>> r.distinguished, r.iteration, r.class_sizes
(True, 0, ((6,), (6,)))
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

import networkx as nx
import numpy as np

from ..runtime.hashing import unique_rows
from .engine import RefinementResult, no_difference_text, witness_text
from .kernel import Declaration, History, refine
from .seeded import check_pair, neighbour_aggregate, neighbour_table

__all__ = ["refine_marking", "marked_classes", "marked_classes_reference"]


def _marks(marks: int) -> int:
    if marks not in (1, 2):
        raise ValueError(f"a marking test marks one node or one ordered pair, not {marks!r}")
    return marks


def automorphism_orbits(G: nx.Graph | None, fixed: int | None = None, adjacency: dict | None = None) -> np.ndarray:
    """Orbit id (its smallest node) of each node under the automorphisms of ``G`` (fixing node
    ``fixed`` if given), from nauty through pynauty (:func:`wltools.refine.ego.nauty_graph`).
    ``adjacency``: ``{v: list of neighbours}`` of ``G`` (nodes ``0..n-1``, each a key) if the
    caller has it; then ``G`` may be None.

    Examples
    --------
    >>> import networkx as nx
    >>> automorphism_orbits(nx.path_graph(4)).tolist(), automorphism_orbits(nx.path_graph(4), fixed=0).tolist()
    ([0, 1, 1, 0], [0, 1, 2, 3])
    """
    import pynauty

    from .ego import nauty_graph

    n = G.number_of_nodes() if adjacency is None else len(adjacency)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if adjacency is None:
        adjacency = {v: list(nbrs) for v, nbrs in G.adjacency()}
        if adjacency.keys() != set(range(n)):  # nauty's C wrapper indexes its matrix by these ids unchecked
            raise ValueError("automorphism_orbits needs the nodes 0..n-1")
    colouring = [] if fixed is None or n == 1 else [{fixed}, set(range(n)) - {fixed}]
    return np.asarray(pynauty.autgrp(nauty_graph(n, adjacency, colouring))[3], dtype=np.int64)


def _stable(init: np.ndarray, split: int, nb: np.ndarray) -> tuple[np.ndarray, int, Callable]:
    """The stable joint 1-WL colouring of all elements (G's ``split`` first, then H's) from the
    initial ids ``init`` over their padded neighbour matrix ``nb`` (padding: one past the end), on
    the kernel; returns it, the rounds, and the round (:func:`~wltools.refine.seeded.neighbour_aggregate`)."""
    aggregate = neighbour_aggregate(nb)
    hist = History(every_round=False)
    r = refine(Declaration("1wl", (init[:split], init[split:]), aggregate, lambda *a: "", compare=False), history=hist)
    return np.concatenate(hist.colours[-1]), r.iterations, aggregate


def _plain_stable(G: nx.Graph, H: nx.Graph, nb: np.ndarray) -> np.ndarray:
    """The stable joint 1-WL colouring of G then H (ids ``0..k-1`` of the round that splits no
    class), ``nb`` their padded neighbour matrix over the ``2n`` nodes (padding ``2n``)."""
    N = nb.shape[0]
    col, _, aggregate = _stable(np.zeros(N, dtype=np.int64), N // 2, nb)
    return aggregate(col[: N // 2], col[N // 2:], 0)[0]


def _marking_jobs(graphs, orbits, marks: int) -> list[tuple[int, tuple[int, ...], int]]:
    """The marked copies ``(graph, marked tuple, weight)``: one per orbit of ``v`` (M1), or per
    orbit of ``w`` under the stabiliser of ``v`` (M2), weighted by the orbit's size."""
    jobs: list[tuple[int, tuple[int, ...], int]] = []
    for gi, X in enumerate(graphs):
        orbit = orbits[gi]
        for v in np.unique(orbit).tolist():
            size_v = int((orbit == v).sum())
            if marks == 1:
                jobs.append((gi, (v,), size_v))
                continue
            sub = automorphism_orbits(X, fixed=v)
            for w in np.unique(sub).tolist():
                if w != v:
                    jobs.append((gi, (v, w), int((sub == w).sum())))
    return jobs


def _refine_copies(base: np.ndarray, jobs: list, nb_g: np.ndarray, nb_h: np.ndarray, n: int
                   ) -> tuple[np.ndarray, int]:
    """1-WL on all marked copies together until the joint colouring is stable: ``(colours, rounds)``.

    Copies of G and of H share the neighbour layout only if the graphs are equal, so each
    graph's copies carry its own neighbour matrix."""
    counts = [sum(1 for j in jobs if j[0] == 0), sum(1 for j in jobs if j[0] == 1)]
    nb_all = np.concatenate([np.broadcast_to(nb_g, (counts[0],) + nb_g.shape),
                             np.broadcast_to(nb_h, (counts[1],) + nb_h.shape)])
    copies = len(jobs)
    N = copies * n
    shift = (np.arange(copies) * n)[:, None, None]
    nb = np.where(nb_all >= 0, nb_all + shift, N).reshape(N, -1)
    col, rounds, _ = _stable(unique_rows(base.reshape(N, 1)), counts[0] * n, nb)
    return col, rounds


def marked_classes(G: nx.Graph, H: nx.Graph, marks: int) -> tuple[list, list, dict]:
    """The M1 / M2 colour of every node of G and of H (fast path): equal colours iff equal
    classes (M1: the class of ``G_v``; M2: the multiset of classes of ``G_{vw}`` over ``w``),
    as small ints from one table. Also returns ``{"rounds": ..., "copies": ...}``."""
    marks = _marks(marks)
    n = G.number_of_nodes()
    if n == 0:
        return [], [], {"rounds": 0, "copies": 0, "describe": {}}
    width = max((d for X in (G, H) for _, d in X.degree()), default=0)
    nb_g = neighbour_table(G, 0, width, -1)
    nb_h = neighbour_table(H, 0, width, -1)
    union = np.concatenate([np.where(nb_g >= 0, nb_g, 2 * n), np.where(nb_h >= 0, nb_h + n, 2 * n)])
    plain = _plain_stable(G, H, union)  # joint, so one table for both graphs
    k_plain = int(plain.max()) + 1
    orbits = [automorphism_orbits(G), automorphism_orbits(H)]
    jobs = _marking_jobs((G, H), orbits, marks)
    if not jobs:  # M2 on one node: no pairs, every node has the empty multiset
        return [0] * n, [0] * n, {"rounds": 0, "copies": 0, "plain_classes": k_plain, "describe": {}}
    rows = []
    for gi, marked, _ in jobs:
        base = plain[gi * n:(gi + 1) * n] * (marks + 1)
        for pos, x in enumerate(marked):
            base = base.copy()
            base[x] += pos + 1
        rows.append(base)
    base = np.stack(rows)
    copies = len(jobs)
    col, rounds = _refine_copies(base, jobs, nb_g, nb_h, n)
    # a copy's class: its colour histogram at the stable joint round
    hist = np.sort(col.reshape(copies, n), axis=1)
    cls = unique_rows(hist)
    ncls = ((np.diff(hist, axis=1) != 0).sum(axis=1) + 1).tolist()  # colour classes of each copy
    cg, ch, describe = copy_classes_to_nodes(jobs, cls.tolist(), ncls, orbits, marks)
    return cg, ch, {"rounds": rounds, "copies": copies, "plain_classes": k_plain, "describe": describe}


def copy_classes_to_nodes(jobs: list, cls: list, ncls: list, orbits: list, marks: int) -> tuple[list, list, dict]:
    """The M1 / M2 colour of every node of G and of H from the classes of the marked copies
    (``jobs``: :func:`_marking_jobs`; ``cls``: each copy's class id, ``ncls``: its number of
    colour classes), as small ints from one table (sorted keys), and the witness text of each."""
    classes_of = dict(zip(cls, ncls))
    n = orbits[0].size
    per_node: list[list[Counter]] = [[Counter() for _ in range(n)] for _ in range(2)]
    for (gi, marked, weight), c in zip(jobs, cls):
        if marks == 1:
            per_node[gi][marked[0]][c] += 1  # one entry; expanded over the orbit below
        else:
            per_node[gi][marked[0]][c] += weight
    # spread the class of an orbit's representative to all of its nodes
    out = []
    for gi in range(2):
        orbit = orbits[gi].tolist()
        colours = [per_node[gi][orbit[v]] for v in range(n)]
        out.append([tuple(sorted(c.items())) for c in colours])
    table = {key: i for i, key in enumerate(sorted(set(out[0]) | set(out[1])))}

    def text(key) -> str:
        if marks == 1:
            (c, _), = key
            return f"nodes v for which G with v marked has stable 1-WL class #{c} ({classes_of[c]} colour classes)"
        spread = ", ".join(f"{k}x #{c} ({classes_of[c]} colour classes)" for c, k in key[:3])
        return f"nodes v whose pairs (v, w) marked give the classes {{{spread}{', ...' if len(key) > 3 else ''}}}"

    return [table[k] for k in out[0]], [table[k] for k in out[1]], {i: text(key) for key, i in table.items()}


def copies_result(test: str, marks: int, cg: list, ch: list, copies: int, rounds: int, describe: dict | None
                  ) -> RefinementResult:
    """The result of the fast path from the nodes' colours (:func:`copy_classes_to_nodes`), its
    number of marked copies and joint rounds."""
    return _result(test, marks, cg, ch, f"{copies} marked copies, stable after {rounds} joint rounds", describe)


def _result(test: str, marks: int, cg: list, ch: list, detail: str, describe: dict | None = None) -> RefinementResult:
    hg, hh = Counter(cg), Counter(ch)
    keys = sorted(set(hg) | set(hh))
    sizes = (tuple(sorted(hg.values(), reverse=True)), tuple(sorted(hh.values(), reverse=True)))
    diff = [i for i, c in enumerate(keys) if hg[c] != hh[c]]
    if not diff:
        return RefinementResult.from_histograms(
            test, None, 0, sizes, f"marked-graph classes agree ({detail}); " + no_difference_text(0, len(hg)))
    what = "node" if marks == 1 else "node v, over the second marked node w,"
    counts_g = [hg[c] for c in keys]
    counts_h = [hh[c] for c in keys]
    text = witness_text(0, diff, counts_g, counts_h,
                        lambda i: (describe or {}).get(keys[i], f"nodes whose marked copies fall in class #{keys[i]}"))
    return RefinementResult.from_histograms(test, 0, 0, sizes, text + f" (1-WL of G with the {what} marked; {detail})")


def _refine_alone(adj: list, init: list, table: dict) -> tuple:
    """Refine one marked graph (``adj[v]``: the neighbours of node ``v``, nodes ``0..n-1``) until
    its partition is stable; colours interned in the shared ``table``. Returns ``(t, histogram at
    round t + 1)`` for the first ``t`` whose next round does not split a class (at round ``t``
    alone, copies whose classes are all singletons would look alike)."""
    col = [table.setdefault(("init", x), len(table)) for x in init]
    t = 0
    while True:
        new = [table.setdefault((t + 1, col[v], tuple(sorted(map(col.__getitem__, nbrs)))), len(table))
               for v, nbrs in enumerate(adj)]
        if len(set(new)) == len(set(col)):  # as the reference: the next round's
            return t, tuple(sorted(Counter(new).items()))  # histogram, not this one's
        col = new
        t += 1


def marked_classes_reference(G: nx.Graph, H: nx.Graph, marks: int) -> tuple[list, list]:
    """The M1 / M2 colours of :func:`marked_classes` the straightforward way: every node (ordered
    pair) marked, every copy refined on its own, classes from one shared table."""
    marks = _marks(marks)
    table: dict = {}
    classes: dict = {}
    out = []
    for X in (G, H):
        nodes = sorted(X.nodes)
        pos = {v: i for i, v in enumerate(nodes)}
        adj = [[pos[u] for u in X.adj[v]] for v in nodes]  # read once: networkx's views cost every copy
        colours = []
        for v in nodes:
            others = [()] if marks == 1 else [(w,) for w in nodes if w != v]
            bag = Counter()
            for rest in others:
                marked = (v,) + rest
                init = [marked.index(u) + 1 if u in marked else 0 for u in nodes]
                key = _refine_alone(adj, init, table)
                bag[classes.setdefault(key, len(classes))] += 1
            colours.append(tuple(sorted(bag.items())))
        out.append(colours)
    index = {key: i for i, key in enumerate(sorted(set(out[0]) | set(out[1])))}
    return [index[k] for k in out[0]], [index[k] for k in out[1]]


def refine_marking(G: nx.Graph, H: nx.Graph, marks: int, test: str = "marking", *,
                   reference: bool = False) -> RefinementResult:
    """M1 (``marks = 1``) / M2 (``2``), named ``test`` in the result, on a pair of graphs of equal
    order on nodes ``0..n-1``: every marked copy refined jointly on the kernel
    (:func:`marked_classes`, fast, exact), or with ``reference`` the straightforward way
    (:func:`marked_classes_reference`).

    Examples
    --------
    >>> import networkx as nx
    >>> G, H = nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))
    >>> refine_marking(G, H, 1).distinguished, refine_marking(G, H, 1, reference=True).distinguished
    (True, True)
    """
    check_pair(G, H)
    if reference:
        cg, ch = marked_classes_reference(G, H, marks)
        return _result(test, marks, cg, ch, "reference: every node marked, each copy refined alone")
    cg, ch, info = marked_classes(G, H, marks)
    return copies_result(test, marks, cg, ch, info["copies"], info["rounds"], info.get("describe"))
