"""GD-WL: generalised distance Weisfeiler-Leman (Zhang et al. 2023), PPGT App. E Eq. (13), GRIT
Eq. (4):

.. math::  \\chi^\\ell(v) = \\mathrm{hash}(\\{\\{(d(v, u), \\chi^{\\ell-1}(u)) : u \\in V\\}\\})

over any distance of :mod:`wltools.distances` or a tuple of them (then ``d`` is the tuple). The old
colour is also kept in the key; this changes nothing, as ``(d(v, v), chi(v))`` is in the multiset
and ``d(v, v)`` is distinct from ``d(v, u)``, ``u != v``, for SPD, RD and RRWP.

Fast path: distances as exact shared integer keys in the smallest unsigned dtype (SPD by C
breadth-first search in row blocks, :func:`wltools.distances.spd.spd_keys`; RD and RRWP by
:mod:`wltools.distances`); rows ``[chi(v), sorted(key(v, u) * k + chi(u) for u in V)]`` built and
grouped in row blocks (:mod:`wltools.refine.grouping`, exact), so peak memory stays bounded
(:func:`wltools.refine.cost.peak_bytes`). The witness labels keys from the values already
computed.

Labels (:mod:`wltools.graphs.labels`): the initial colour is the node label, and the item of ``u`` in
``v``'s multiset also carries the label of the edge ``vu`` (a marker "none" when ``u`` is not a
neighbour of ``v``):

.. math::  \\chi^0(v) = \\ell(v), \\qquad \\chi^\\ell(v) = \\mathrm{hash}(\\{\\{(d(v, u),
           \\ell(v, u), \\chi^{\\ell-1}(u)) : u \\in V\\}\\}),

with the distances ``d`` of the unlabelled graph. (This extension is the project's: GD-WL is
stated for unlabelled graphs; with edge labels the item marks the neighbours of ``v`` explicitly,
by a label other than "none".) The fast path folds the edge label into the distance key
(``key * B + edge id``, renumbered jointly).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Sequence

import networkx as nx
import numpy as np

from ..distances import INF, distance_keys, resistance_exact, rrwp_exact, spd_matrix
from ..distances.resistance import resistance_keys_and_values
from ..distances.spd import spd_keys
from ..graphs.labels import PairLabels
from .engine import RefinementResult, multiset_text, run_reference
from .kernel import DEFAULT_MAX_BYTES, Declaration, blocked, refine

__all__ = ["refine_gdwl", "refine_gdwl_reference", "gdwl_declaration", "keyed_describe", "joint_keys", "gdwl_next_colours"]

_NAMES = {"spd": "SPD", "rd": "RD", "rrwp": "RRWP"}


def _compact(a: np.ndarray) -> np.ndarray:
    """Non-negative integer keys in the smallest unsigned dtype that holds them."""
    top = int(a.max()) if a.size else 0
    return a.astype(np.uint8 if top < 2**8 else (np.uint16 if top < 2**16 else np.uint32), copy=False)


def joint_keys(G, H, distances: Sequence[str], rrwp_steps: int | None = None):
    """Shared integer keys ``[n, n]`` of G and H for a tuple of distances (equal iff equal tuples),
    in the smallest unsigned dtype, and ``label(key)``, the exact value of a key as text (from the
    values already computed: SPD keys are ``d + 1``, RD keys index the exact resistances, RRWP keys
    are labelled by the first four exact walk probabilities at a pair that has the key).

    Examples
    --------
    >>> import networkx as nx
    >>> kg, kh, label = joint_keys(nx.path_graph(3), nx.star_graph(2), ["spd"])
    >>> kg.tolist(), kh.tolist(), label(3)
    ([[1, 2, 3], [2, 1, 2], [3, 2, 1]], [[1, 2, 2], [2, 1, 3], [2, 3, 1]], '2')
    >>> kg, _, label = joint_keys(nx.path_graph(3), nx.star_graph(2), ["spd", "rd"])  # on trees RD = SPD
    >>> kg.tolist(), label(2)
    ([[0, 1, 2], [1, 0, 1], [2, 1, 0]], '(2, 2)')
    """
    per, labels = [], []
    for d in distances:
        if d == "spd":
            per.append((spd_keys(G), spd_keys(H)))
            labels.append(lambda key: "inf" if key == 0 else str(key - 1))
        elif d == "rd":
            (kg, kh), values = resistance_keys_and_values([G, H])
            per.append((_compact(kg), _compact(kh)))
            labels.append(lambda key, values=values: "inf" if values[key] is INF else str(values[key]))
        else:
            kg, kh = distance_keys([G, H], d, rrwp_steps=rrwp_steps)
            per.append((_compact(kg), _compact(kh)))
            labels.append(_rrwp_label(G, H, per[-1][0], per[-1][1], rrwp_steps))
    if len(per) == 1:
        return per[0][0], per[0][1], labels[0]
    n2g = per[0][0].size
    cols = np.stack([np.concatenate([p[0].reshape(-1), p[1].reshape(-1)]) for p in per], axis=1)
    uniq, inv = np.unique(cols, axis=0, return_inverse=True)
    inv = _compact(inv.reshape(-1))

    def label(key: int) -> str:
        return "(" + ", ".join(lab(int(x)) for lab, x in zip(labels, uniq[key])) + ")"

    return inv[:n2g].reshape(per[0][0].shape), inv[n2g:].reshape(per[0][1].shape), label


def _rrwp_label(G, H, Dg, Dh, rrwp_steps):
    """Readable label of an RRWP key: the first (at most four) exact walk probabilities at a pair
    that has it, by propagating ``e_i`` over ``min(K, 4) - 1`` steps (not the whole RRWP), once per
    source ``i``: the keys first met in row ``i`` share it."""
    K = rrwp_steps if rrwp_steps is not None else max(len(G), len(H))
    cache: dict = {}
    where: dict = {}
    sources: dict = {}

    def first_index(key):
        if not where:
            flat = np.concatenate([Dg.reshape(-1), Dh.reshape(-1)])
            u, first = np.unique(flat, return_index=True)
            where.update(zip(u.tolist(), first.tolist()))
        return where[key]

    def walks(g: int, i: int) -> list[dict]:
        """The distributions ``e_i P^s``, ``s < min(K, 4)``, as dicts (once per source ``i``)."""
        if (g, i) not in sources:
            graph = (G, H)[g]
            r = {i: Fraction(1)}
            out = [r]
            for _ in range(min(K, 4) - 1):
                nxt: dict = {}
                for u, x in r.items():
                    deg = graph.degree(u)
                    for w in graph[u]:
                        nxt[w] = nxt.get(w, 0) + x / deg
                r = nxt
                out.append(r)
            sources[g, i] = out
        return sources[g, i]

    def label(key: int) -> str:
        if key not in cache:
            idx = first_index(key)
            g, rest = (0, idx) if idx < Dg.size else (1, idx - Dg.size)
            i, j = divmod(rest, (G, H)[g].number_of_nodes())
            cache[key] = "(" + ", ".join(str(r.get(j, 0)) for r in walks(g, i)) + (f", ... #{key})" if K > 4 else ")")
        return cache[key]

    return label


def gdwl_next_colours(Dg: np.ndarray, Dh: np.ndarray, max_bytes: int = DEFAULT_MAX_BYTES):
    """One GD-WL round over key matrices: row of node ``v`` = ``[chi(v), sorted(key(v, u) * k +
    chi(u) for u in V)]``, built and grouped in blocks within ``max_bytes`` by the kernel
    (:func:`~wltools.refine.kernel.blocked`)."""
    mats = (Dg, Dh)

    def rows_at(g, C, k, v):
        block = mats[g][v].astype(np.int64)
        block *= k
        block += C[None, :]
        block.sort(axis=1)
        return C[v], block

    return blocked(rows_at, Dg.shape[:1], Dg.shape[0], max_bytes=max_bytes, what="GD-WL")


def refine_gdwl(
    G: nx.Graph,
    H: nx.Graph,
    distances: Sequence[str],
    *,
    rrwp_steps: int | None = None,
    test: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    labels: PairLabels | None = None,
) -> RefinementResult:
    """GD-WL on a pair with one shared colour table (fast exact path).

    Parameters
    ----------
    G, H : nx.Graph
        Simple undirected graphs on nodes ``0..n-1``, of equal order.
    distances : sequence of {"spd", "rd", "rrwp"}
        One distance, or several (then ``d(v, u)`` is the tuple of them).
    rrwp_steps : int, optional
        ``K`` of RRWP; default ``max(n_G, n_H)``.
    test : str, optional
        Name written into the result (default ``"gdwl"``).
    max_bytes : int
        Budget of the row blocks of a round and, separately, of the store of verified rows
        (:func:`wltools.refine.cost.peak_bytes` states the whole peak).
    labels : PairLabels, optional
        The pair's joint label ids (:func:`wltools.graphs.labels.pair_labels`; module docstring).

    Examples
    --------
    >>> import networkx as nx
    >>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> r = refine_gdwl(nx.cycle_graph(6), two_triangles, ["spd", "rd"])
    >>> r.test, r.iteration
    ('gdwl', 1)
    >>> r.witness.split("; ")[1]
    'nodes whose SPD/RD multiset is {(0, 0):1, (1, 2/3):2, (inf, inf):3}: 0 in G, 6 in H'
    """
    return refine(gdwl_declaration(G, H, distances, rrwp_steps=rrwp_steps, test=test, max_bytes=max_bytes,
                                   labels=labels))


def gdwl_declaration(G: nx.Graph, H: nx.Graph, distances: Sequence[str], *, rrwp_steps: int | None = None,
                     test: str | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
                     labels: PairLabels | None = None) -> Declaration:
    """GD-WL as a :class:`~wltools.refine.kernel.Declaration` (arguments of :func:`refine_gdwl`):
    it colours nodes, starts from the node labels (one colour without) and aggregates over all
    nodes ``u`` with the key ``(d(v, u)[, edge label], chi(u))``."""
    distances = tuple(distances)
    Dg, Dh, label = joint_keys(G, H, distances, rrwp_steps)
    name = "/".join(_NAMES.get(d, d) for d in distances)
    if labels is not None and labels.edge is not None:
        Dg, Dh, label = _with_edge_labels(Dg, Dh, label, labels)
        name += "/edge label"

    n = Dg.shape[0]
    zeros = np.zeros(n, dtype=np.int64)
    init = (zeros, zeros.copy()) if labels is None or labels.node is None else labels.node
    node_text = None if labels is None or labels.node is None else labels.node_text
    return Declaration(test or "gdwl", init, gdwl_next_colours(Dg, Dh, max_bytes), keyed_describe(name, label, node_text))


def keyed_describe(name: str, label, node_text=None):
    """The witness text of a test whose rows are ``[chi(v), sorted(key(v, u) * k + chi(u))]``
    (GD-WL, EPWL): ``label(key)`` renders a key, ``node_text(id)`` a node label (``None``: no labels).

    Examples
    --------
    >>> import numpy as np
    >>> describe = keyed_describe("SPD", str)
    >>> describe(1, 0, np.array([0, 1, 2, 2]), 1)
    'nodes whose SPD multiset is {1:1, 2:2}'
    """

    def describe(t, c, row, kp):
        if row is None:
            return "all nodes (initial colour)" if node_text is None else f"nodes labelled {node_text(c)}"
        if kp == 1:
            items = Counter(int(x) // kp for x in row[1:])
            return f"nodes whose {name} multiset is " + multiset_text(items, label)
        items = Counter((int(x) // kp, int(x) % kp) for x in row[1:])
        return f"nodes of colour {int(row[0])} (round {t - 1}) whose ({name}, colour) multiset is " + multiset_text(
            items, lambda dc: f"({label(dc[0])}, {dc[1]})"
        )

    return describe


def _with_edge_labels(Dg: np.ndarray, Dh: np.ndarray, label, labels: PairLabels):
    """Keys of ``(distance key, edge label id)`` (``0``: not adjacent), renumbered jointly, in
    the smallest unsigned dtype, and their ``label(key)`` text."""
    n = Dg.shape[0]
    base = labels.edge_ids
    top = (max(int(Dg.max()), int(Dh.max())) + 1) * base if n else 0
    dtype = np.uint32 if top < 2**32 else np.int64  # half the memory of int64 on every real input
    both = np.concatenate([(D.astype(dtype) * dtype(base) + labels.edge_matrix(g, n, dtype)).reshape(-1)
                           for g, D in enumerate((Dg, Dh))])
    uniq, inv = np.unique(both, return_inverse=True)
    inv = _compact(inv.reshape(-1))

    def text(key: int) -> str:
        d, e = divmod(int(uniq[key]), base)
        return f"({label(d)}, {labels.edge_text(e)})"

    return inv[: n * n].reshape(n, n), inv[n * n :].reshape(n, n), text


def _exact_matrix(G, d, rrwp_steps, n_max):
    if d == "spd":
        D = spd_matrix(G)
        return [[int(x) for x in row] for row in D]
    if d == "rd":
        return resistance_exact(G)
    K = rrwp_steps if rrwp_steps is not None else n_max
    return rrwp_exact(G, max(1, K))


def refine_gdwl_reference(
    G: nx.Graph, H: nx.Graph, distances: Sequence[str], *, rrwp_steps: int | None = None, test: str | None = None,
    labels: PairLabels | None = None,
) -> RefinementResult:
    """Straightforward GD-WL over exact values (ints, Fractions, :data:`INF`, tuples of
    Fractions) with dicts of sorted tuples: the exact reference for tests (``labels`` as in
    :func:`refine_gdwl`).

    Examples
    --------
    >>> import networkx as nx
    >>> two_triangles = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> r = refine_gdwl_reference(nx.cycle_graph(6), two_triangles, ["rd"], test="rd")
    >>> r.distinguished, r.iteration, r.witness
    (True, 1, 'reference: histograms differ at iteration 1')
    """
    n_max = max(len(G), len(H))
    mats = [[_exact_matrix(X, d, rrwp_steps, n_max) for d in distances] for X in (G, H)]
    nodes = [list(range(len(G))), list(range(len(H)))]
    has_edges = labels is not None and labels.edge is not None
    E = [labels.edge_matrix(g, len(nodes[g])).tolist() if has_edges else None for g in (0, 1)]
    nid = [labels.node_ids(g, len(nodes[g])).tolist() if labels is not None else None for g in (0, 1)]

    def dist(g, v, u):
        d = tuple(m[v][u] for m in mats[g])
        return d + (E[g][v][u],) if has_edges else d

    # every exact value interned once, in one table for both graphs (equal ids iff equal values)
    ids: dict = {}
    D = [[[ids.setdefault(dist(g, v, u), len(ids)) for u in nodes[g]] for v in nodes[g]] for g in (0, 1)]

    def sig(g, v, cols):
        c = cols[g]
        return (c[v], tuple(sorted(zip(D[g][v], map(c.__getitem__, nodes[g])))))

    init = (lambda g, v: 0) if labels is None else (lambda g, v: nid[g][v])
    return run_reference(test or "gdwl", nodes[0], nodes[1], init, sig)
