"""3-WL as the 2-dimensional folklore WL test (2-FWL; Cai, Fuerer & Immerman 1992; recalled in
PPGT App. E): colours of ordered pairs,

.. math::  \\chi^\\ell(u, v) = \\mathrm{hash}(\\chi^{\\ell-1}(u, v),
           \\{\\{(\\chi^{\\ell-1}(u, w), \\chi^{\\ell-1}(w, v)) : w \\in V\\}\\}),

initial colour = isomorphism type of the ordered pair (``u == v``, adjacent, non-adjacent).

Labels (:mod:`wltools.graphs.labels`): the initial colour is the atomic type of the ordered pair in the
labelled graph, ``(u == v, adjacent, edge label of uv, label of u, label of v)``
(:func:`labelled_atomic_types`; the k-WL of vertex- and edge-coloured graphs, Grohe 2017,
*Descriptive Complexity, Canonisation, and Definable Graph Structure Theory*, Sec. 3.5).

Fast path: colour matrix ``C [n, n]``; items ``C[u, w] * k + C[w, v]`` sorted along ``w``, prefixed by
``C[u, v]``, computed in blocks over ``u`` (contiguous ``[b, n, n]`` arrays, no reshape copies) and
grouped exactly block by block (:mod:`wltools.refine.grouping`), so the ``n^3`` items are never
held at once: peak memory is stated by :func:`wltools.refine.cost.peak_bytes`. While the colour
classes are few against the pairs, a round builds the rows of the pairs ``u <= v`` only, and one
pair per class transposed (:mod:`wltools.refine.symmetric_pairs`: the colouring is equivariant
under swapping a pair's ends), with the same ids as the full round.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import numpy as np

from ..distances import adjacency_matrix
from ..graphs.labels import PairLabels
from .engine import RefinementResult, multiset_text, run_reference
from .symmetric_pairs import symmetric_round, worth_it
from .kernel import DEFAULT_MAX_BYTES, Declaration, blocked, refine

__all__ = ["refine_fwl2", "fwl2_declaration", "refine_fwl2_reference", "atomic_types", "fwl2_next_colours", "labelled_atomic_types",
           "pair_type_text"]

_ATOMIC = {0: "u = v", 1: "adjacent", 2: "non-adjacent"}


def atomic_types(A: np.ndarray) -> np.ndarray:
    """Initial 2-FWL colours: 0 on the diagonal, 1 for edges, 2 for non-edges.

    Examples
    --------
    >>> import numpy as np
    >>> atomic_types(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]])).tolist()
    [[0, 1, 2], [1, 0, 2], [2, 2, 0]]
    """
    C = np.where(A > 0, 1, 2).astype(np.int64)
    np.fill_diagonal(C, 0)
    return C


def labelled_atomic_types(Ag: np.ndarray, Ah: np.ndarray, labels: PairLabels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Initial pair colours of a labelled pair: joint ids ``[n, n]`` of G and H of the codes
    ``((type * B + e) * a + l(u)) * a + l(v)`` (``type`` of :func:`atomic_types`, ``e`` the edge
    label id, ``0`` off edges; ``l`` node label ids, ``a`` of them; ``B`` edge ids), and the sorted
    distinct codes (id ``c`` has code ``codes[c]``; :func:`pair_type_text`).

    Examples
    --------
    >>> import numpy as np
    >>> from wltools.graphs.labels import PairLabels
    >>> p = PairLabels((np.array([0, 1]), np.array([1, 1])), None, ("C", "O"))
    >>> A = np.array([[0, 1], [1, 0]])
    >>> cg, ch, codes = labelled_atomic_types(A, A, p)
    >>> cg.tolist(), ch.tolist(), [pair_type_text(int(c), p) for c in codes[:2]]
    ([[0, 2], [3, 1]], [[1, 4], [4, 1]], ["u = v labelled 'C'", "u = v labelled 'O'"])
    """
    a = max(len(labels.node_values), 1)
    base = labels.edge_ids if labels.edge is not None else 2
    out = []
    for g, A in enumerate((Ag, Ah)):
        n = A.shape[0]
        T = atomic_types(A)
        E = labels.edge_matrix(g, n) if labels.edge is not None else (T == 1).astype(np.int64)
        lab = labels.node_ids(g, n)
        out.append(((T * base + E) * a + lab[:, None]) * a + lab[None, :])
    codes, inv = np.unique(np.concatenate([X.reshape(-1) for X in out]), return_inverse=True)
    inv = inv.reshape(-1)
    ng = out[0].size
    return inv[:ng].reshape(out[0].shape), inv[ng:].reshape(out[1].shape), codes


def pair_type_text(code: int, labels: PairLabels) -> str:
    """A code of :func:`labelled_atomic_types` in words.

    Examples
    --------
    >>> import numpy as np
    >>> from wltools.graphs.labels import PairLabels
    >>> p = PairLabels((np.zeros(2, dtype=np.int64),) * 2, (np.array([[0, 1, 1]]),) * 2, ("C",), ("single",))
    >>> pair_type_text(((1 * 2 + 1) * 1 + 0) * 1 + 0, p)
    "adjacent by 'single', labels ('C', 'C')"
    """
    a = max(len(labels.node_values), 1)
    base = labels.edge_ids if labels.edge is not None else 2
    rest, lv = divmod(int(code), a)
    rest, lu = divmod(rest, a)
    t, e = divmod(rest, base)
    name = (lambda i: labels.node_text(i)) if labels.node is not None else (lambda i: "-")
    if t == 0:
        return f"u = v labelled {name(lu)}"
    edge = f"adjacent by {labels.edge_text(e)}" if t == 1 and labels.edge is not None else _ATOMIC[t]
    return f"{edge}, labels ({name(lu)}, {name(lv)})"


def fwl2_next_colours(n: int, max_bytes: int = DEFAULT_MAX_BYTES, symmetric: bool | None = None):
    """One 2-FWL round, ``step(cg, ch, k) -> (ids, row_of)``: by the symmetric round
    (:mod:`wltools.refine.symmetric_pairs`: the pairs ``u <= v``, then one pair per class and its
    transpose) while the classes are few against the pairs
    (:func:`~wltools.refine.symmetric_pairs.worth_it`), else over all ``n^2`` pairs
    (:func:`_full_round`); both give the same ids. ``symmetric`` True / False (tests, benchmarks)
    forces one of them."""
    full = _full_round(n, max_bytes)
    if symmetric is False:
        return full
    sym = symmetric_round(n, max_bytes, fallback=None if symmetric else full)

    def step(cg, ch, k):
        return sym(cg, ch, k) if symmetric or worth_it(n, k) else full(cg, ch, k)

    return step


def _full_round(n: int, max_bytes: int):
    """2-FWL's round over all ``n^2`` pairs, in blocks over the first node ``u``
    (:func:`~wltools.refine.kernel.blocked`): ``items[u, v, w] = C[u, w] * k + C[w, v]`` for a
    block of ``u`` is one contiguous ``[b, n, n]`` array, sorted along ``w`` in place and viewed
    (no copy) as ``b n`` rows."""

    def rows_at(g, C, k, u, v):
        r = C[u] * k
        r += C[:, v].T
        r.sort(axis=1)
        return C[u, v], r

    def slabs(g, C, k):
        CT = np.ascontiguousarray(C.T)

        def slab(lo, hi):
            items = C[lo:hi, None, :] * k  # [b, 1, w]
            items = items + CT[None, :, :]  # [b, v, w]: C[u, w] k + C[w, v]
            items.sort(axis=2)
            return items.reshape(-1, n)

        return slab

    return blocked(rows_at, (n, n), n, slabs=slabs, max_bytes=max_bytes, what="2-FWL")


def refine_fwl2(G: nx.Graph, H: nx.Graph, *, max_bytes: int = DEFAULT_MAX_BYTES,
                labels: PairLabels | None = None, symmetric: bool | None = None) -> RefinementResult:
    """2-FWL (= 3-WL) on a pair with one shared colour table (fast exact path, bounded memory).

    ``labels``: the pair's joint label ids (:func:`wltools.graphs.labels.pair_labels`); the initial pair
    colours are then the labelled atomic types (module docstring).

    ``max_bytes`` bounds the work arrays of one block and, separately, the store of verified
    rows; :func:`wltools.refine.cost.peak_bytes` states the whole peak before a run.
    ``symmetric`` (tests, benchmarks) forces the round (:func:`fwl2_next_colours`).

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_fwl2(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
    >>> r.distinguished, r.iteration, r.class_sizes
    (True, 1, ((12, 12, 6, 6), (18, 12, 6)))
    """
    return refine(fwl2_declaration(G, H, max_bytes=max_bytes, labels=labels, symmetric=symmetric))


def fwl2_declaration(G: nx.Graph, H: nx.Graph, *, max_bytes: int = DEFAULT_MAX_BYTES,
                     labels: PairLabels | None = None, symmetric: bool | None = None) -> Declaration:
    """2-FWL as a :class:`~wltools.refine.kernel.Declaration` (arguments of :func:`refine_fwl2`):
    it colours ordered pairs, starts from their (labelled) atomic types and aggregates over every
    ``w`` the key ``(chi(u, w), chi(w, v))``."""
    if labels is not None:
        return _labelled_declaration(G, H, labels, max_bytes, symmetric)
    Cg, Ch = atomic_types(adjacency_matrix(G)), atomic_types(adjacency_matrix(H))
    n = Cg.shape[0]

    def describe(t, c, row, kp):
        if row is None:
            return f"ordered pairs of type {c}"
        items = Counter((int(x) // kp, int(x) % kp) for x in row[1:])
        if t == 1:
            return f"{_ATOMIC[int(row[0])]} pairs (u, v) whose (type(u,w), type(w,v)) multiset is " + multiset_text(
                items, lambda ab: f"({_ATOMIC[ab[0]]}, {_ATOMIC[ab[1]]})"
            )
        return f"pairs of colour {int(row[0])} (round {t - 1}) whose (colour(u,w), colour(w,v)) multiset is " + multiset_text(
            items, lambda ab: f"({ab[0]}, {ab[1]})"
        )

    return Declaration("3wl", (Cg, Ch), fwl2_next_colours(n, max_bytes, symmetric), describe)


def _labelled_declaration(G: nx.Graph, H: nx.Graph, labels: PairLabels, max_bytes: int,
                          symmetric: bool | None) -> Declaration:
    """:func:`fwl2_declaration` from the labelled atomic types."""
    Cg, Ch, codes = labelled_atomic_types(adjacency_matrix(G), adjacency_matrix(H), labels)

    def describe(t, c, row, kp):
        if row is None:
            return f"ordered pairs of type {pair_type_text(codes[c], labels)}"
        items = Counter((int(x) // kp, int(x) % kp) for x in row[1:])
        if t == 1:
            return (f"pairs (u, v) of type [{pair_type_text(codes[int(row[0])], labels)}] whose "
                    "(type(u,w), type(w,v)) multiset is "
                    + multiset_text(items, lambda ab: f"([{pair_type_text(codes[ab[0]], labels)}], "
                                                      f"[{pair_type_text(codes[ab[1]], labels)}])"))
        return f"pairs of colour {int(row[0])} (round {t - 1}) whose (colour(u,w), colour(w,v)) multiset is " + multiset_text(
            items, lambda ab: f"({ab[0]}, {ab[1]})"
        )

    return Declaration("3wl", (Cg, Ch), fwl2_next_colours(Cg.shape[0], max_bytes, symmetric), describe)


def refine_fwl2_reference(G: nx.Graph, H: nx.Graph, *, labels: PairLabels | None = None) -> RefinementResult:
    """Straightforward 2-FWL (dicts of sorted tuples), the exact reference for tests (``labels``:
    initial colour ``(type, edge label id, label id of u, label id of v)``).

    Examples
    --------
    >>> from wltools.graphs import named_graph
    >>> r = refine_fwl2_reference(named_graph("shrikhande"), named_graph("rook4x4"))  # srg(16, 6, 2, 2)
    >>> r.distinguished, r.iterations, r.class_sizes
    (False, 0, ((144, 96, 16), (144, 96, 16)))
    """
    graphs = (G, H)
    n = [len(G), len(H)]
    elems = [[(u, v) for u in range(m) for v in range(m)] for m in n]

    def init(g, e):
        u, v = e
        return 0 if u == v else (1 if graphs[g].has_edge(u, v) else 2)

    if labels is not None:
        nid = [labels.node_ids(g, n[g]).tolist() for g in (0, 1)]
        E = [labels.edge_matrix(g, n[g]).tolist() if labels.edge is not None else None for g in (0, 1)]
        plain = init

        def init(g, e):  # noqa: F811 - the labelled atomic type
            u, v = e
            return (plain(g, e), E[g][u][v] if E[g] else 0, nid[g][u], nid[g][v])

    rows = [[[(u, w) for w in range(m)] for u in range(m)] for m in n]  # rows[g][u]: the keys (u, w)
    columns = [[[(w, v) for w in range(m)] for v in range(m)] for m in n]  # columns[g][v]: the keys (w, v)

    def sig(g, e, cols):
        get = cols[g].__getitem__
        u, v = e
        return (get(e), tuple(sorted(zip(map(get, rows[g][u]), map(get, columns[g][v])))))  # over w

    return run_reference("3wl", elems[0], elems[1], init, sig)
