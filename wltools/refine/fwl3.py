"""4-WL as the 3-dimensional folklore WL test (3-FWL): colours of ordered triples.

The k-dimensional folklore WL test (k-FWL; the "k-dim W-L method" of Cai, Fuerer & Immerman 1992,
Sec. 5; named folklore WL in Morris et al. 2019, "Weisfeiler and Leman go neural", preliminaries;
Grohe, *Descriptive Complexity, Canonisation, and Definable Graph Structure Theory*, 2017)
colours the ordered k-tuples ``t`` of a graph and refines

.. math::  \\chi^{\\ell}(t) = \\mathrm{hash}\\big(\\chi^{\\ell-1}(t),
           \\{\\{(\\chi^{\\ell-1}(t[1/w]), \\dots, \\chi^{\\ell-1}(t[k/w])) : w \\in V\\}\\}\\big),

where ``t[i/w]`` is ``t`` with its ``i``-th entry replaced by ``w``. The initial colour of ``t`` is
its isomorphism (atomic) type: which entries are equal and which are adjacent. k-FWL distinguishes
exactly the pairs that the (k+1)-variable counting logic does (CFI 1992, Thm. 5.2), which are the
pairs (k+1)-WL distinguishes (Grohe 2017; Grohe & Otto 2015), so for ``k = 3``, with triples
``(u, v, x)``:

.. math::  \\chi^{\\ell}(u, v, x) = \\mathrm{hash}\\big(\\chi^{\\ell-1}(u, v, x),
           \\{\\{(\\chi^{\\ell-1}(w, v, x), \\chi^{\\ell-1}(u, w, x), \\chi^{\\ell-1}(u, v, w))
           : w \\in V\\}\\}\\big)

is 4-WL (test name ``3fwl``; :mod:`wltools.refine.fwl` is 3-WL as 2-FWL). The initial colour
is the triple of 2-FWL atomic types ``(type(u, v), type(u, x), type(v, x))`` (equal, adjacent,
non-adjacent), which is the isomorphism type of the ordered triple of a simple undirected graph.
3-FWL refines 2-FWL: by induction, ``chi3(u, v, x)`` determines the 2-FWL colours of all ordered
pairs among ``u, v, x``, so the histograms of the triples ``(u, v, v)`` already carry 2-FWL's.

Fast path (:func:`refine_fwl3`): a colour array ``C [n, n, n]`` per graph; the item of
``(u, v, x)`` and ``w`` is ``(C[w, v, x] k + C[u, w, x]) k + C[u, v, w]`` (``k`` colours; exact while
``k^3 < 2^63``, else two int64 words per item, sorted lexicographically); a triple's items sorted
along ``w`` make its row, grouped exactly by :class:`~wltools.refine.grouping.RowGrouper` block by
block, so the ``n^4`` items of a round are never held at once. Two rounds give the same ids:

* the **symmetric round** (:mod:`wltools.refine.fwl3_symmetric`): the colouring is equivariant
  under permuting a triple's positions, so the rows of the sorted triples ``u <= v <= x`` (a sixth)
  and of one triple per class and permutation decide every triple's colour; taken while the
  classes are few against the triples (:func:`~wltools.refine.fwl3_symmetric.worth_it`);
* the **full round** (:func:`_full_round`): for a block of first nodes ``u`` the items form one
  contiguous ``[b, n, n, n]`` array ``(u, v, x, w)``.

Both graphs are refined with one shared colour table (:func:`~wltools.refine.kernel.refine`). Time
``O(n^4 log n)`` per round (the symmetric round measured 4.1-4.5x less on BREC's four largest CFI
pairs, ``benchmarks/results/fwl3_largest.json``), memory
``O(n^3)`` (:func:`wltools.refine.cost.peak_bytes`). The reference (:func:`refine_fwl3_reference`)
is the definition above over dicts of sorted tuples.

Labels (:mod:`wltools.graphs.labels`): the initial colour of ``(u, v, x)`` is the triple of *labelled*
pair types (:func:`wltools.refine.fwl.labelled_atomic_types`: equality, adjacency, edge label,
the labels of both ends) of ``(u, v)``, ``(u, x)``, ``(v, x)``, which is the isomorphism type of
the ordered triple in the vertex- and edge-coloured graph (Grohe 2017, Sec. 3.5).
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import numpy as np

from ..distances import adjacency_matrix
from .engine import RefinementResult, multiset_text, run_reference
from .kernel import DEFAULT_MAX_BYTES, Declaration, blocked, refine
from ..graphs.labels import PairLabels
from .fwl import atomic_types, labelled_atomic_types, pair_type_text
from .fwl3_symmetric import symmetric_round, worth_it

__all__ = ["refine_fwl3", "fwl3_declaration", "refine_fwl3_reference", "triple_types", "triple_type_text", "fwl3_next_colours",
           "PACK_LIMIT"]

#: Items are packed into one int64 while ``k^3`` stays below this (``k`` = number of colours).
PACK_LIMIT = 2**63

_PAIR = ("=", "~", "/")  # equal, adjacent, distinct and non-adjacent (2-FWL atomic types 0, 1, 2)


def triple_types(A: np.ndarray) -> np.ndarray:
    """Initial 3-FWL colours ``[n, n, n]``: ``9 type(u, v) + 3 type(u, x) + type(v, x)`` with the
    2-FWL atomic pair types (0 equal, 1 adjacent, 2 distinct and non-adjacent).

    Examples
    --------
    >>> import numpy as np
    >>> T = triple_types(np.array([[0, 1], [1, 0]]))
    >>> int(T[0, 0, 0]), int(T[0, 1, 1]), int(T[0, 0, 1])
    (0, 12, 4)
    """
    P = atomic_types(A)
    return P[:, :, None] * 9 + P[:, None, :] * 3 + P[None, :, :]


def triple_type_text(code: int) -> str:
    """The atomic type ``code`` of :func:`triple_types` in words: ``=`` equal, ``~`` adjacent,
    ``/`` distinct and non-adjacent.

    Examples
    --------
    >>> triple_type_text(12), triple_type_text(9 * 1 + 3 * 2 + 1)
    ('(u~v, u~x, v=x)', '(u~v, u/x, v~x)')
    """
    a, rest = divmod(int(code), 9)
    b, c = divmod(rest, 3)
    return f"(u{_PAIR[a]}v, u{_PAIR[b]}x, v{_PAIR[c]}x)"


def _sorted_items(T1: np.ndarray, B2: np.ndarray, B3: np.ndarray, k: int, packed: bool) -> np.ndarray:
    """Sorted item rows of a block, from ``T1 [.., v, x, w] = C[w, v, x] s1``, ``B2 [b, 1|v, x, w] =
    C[u, w, x] s2`` and ``B3 [b, v, 1|x, w] = C[u, v, w]``, the first two already scaled by
    :func:`_scales` (``k^2, k`` packed; ``k, 1`` otherwise). Returns int64 rows ``[r, n]``
    (packed: ``(a k + b) k + c``) or ``[r, 2 n]`` (two words ``a k + b, c`` per item, interleaved,
    sorted lexicographically)."""
    shape = np.broadcast_shapes(T1.shape, B2.shape, B3.shape)
    n = shape[-1]
    items = np.empty(shape, dtype=np.int64)
    np.add(T1, B2, out=items)  # [b, v, x, w]
    if packed:
        items += B3
        items.sort(axis=-1)
        return items.reshape(-1, n)
    lo = np.ascontiguousarray(np.broadcast_to(B3, shape))
    order = np.lexsort((lo, items), axis=-1)
    out = np.empty(shape[:-1] + (n, 2), dtype=np.int64)
    out[..., 0] = np.take_along_axis(items, order, axis=-1)
    out[..., 1] = np.take_along_axis(lo, order, axis=-1)
    return out.reshape(-1, 2 * n)


def _scales(k: int, packed: bool) -> tuple[int, int]:
    """Multipliers of the first two colours of an item: ``(k^2, k)`` packed, ``(k, 1)`` else."""
    return (k * k, k) if packed else (k, 1)


def _packed(k: int, pack_limit: int) -> bool:
    """Whether a round from ``k`` colours packs an item into one int64 (``k^3 < pack_limit``)."""
    if k * k >= 2**63:  # pragma: no cover - needs more than 3e9 colours
        raise OverflowError(f"3-FWL: {k} colours do not fit two int64 words per item")
    return k**3 < pack_limit


def _rows_at(pack_limit: int):
    """``rows_at(g, C, k, u, v, x)``: the prefixes ``C[u, v, x]`` and sorted item rows of the triples
    at the given coordinates, each gathered on its own (:func:`~wltools.refine.kernel.blocked`)."""

    def rows_at(g, C, k, u, v, x):
        packed = _packed(k, pack_limit)
        s1, s2 = _scales(k, packed)
        ar = np.arange(C.shape[0])[None, :]
        us, vs, xs = u[:, None], v[:, None], x[:, None]
        return C[u, v, x], _sorted_items(C[ar, vs, xs] * s1, C[us, ar, xs] * s2, C[us, vs, ar], k, packed)

    return rows_at


def _full_round(n: int, max_bytes: int, pack_limit: int):
    """One 3-FWL round over all ``n^3`` triples of each graph, in blocks over the first node ``u``
    (:func:`~wltools.refine.kernel.blocked`): the items of ``b`` first nodes are one
    ``[b, n, n, n]`` array within ``max_bytes``."""

    def slabs(g, C, k):
        packed = _packed(k, pack_limit)
        s1, s2 = _scales(k, packed)
        T1 = np.ascontiguousarray(C.transpose(1, 2, 0))[None]  # [1, v, x, w] = C[w, v, x]
        T1 *= s1

        def slab(lo, hi):
            B2 = C[lo:hi].transpose(0, 2, 1)[:, None] * s2  # [b, 1, x, w] = C[u, w, x] s2
            return _sorted_items(T1, B2, C[lo:hi, :, None, :], k, packed)  # C[u, v, w] as [b, v, 1, w]

        return slab

    return blocked(_rows_at(pack_limit), (n, n, n), lambda k: n if _packed(k, pack_limit) else 2 * n,
                   slabs=slabs, max_bytes=max_bytes, what="3-FWL")


def fwl3_next_colours(n: int, max_bytes: int = DEFAULT_MAX_BYTES, pack_limit: int = PACK_LIMIT,
                      symmetric: bool | None = None):
    """One 3-FWL round, ``step(cg, ch, k) -> (ids, row_of)``: by the symmetric round
    (:mod:`wltools.refine.fwl3_symmetric`: the sorted triples, then one triple per class and
    position permutation) while the colours are few against the triples
    (:func:`~wltools.refine.fwl3_symmetric.worth_it`), else over all ``n^3`` triples
    (:func:`_full_round`); both give the same ids. ``symmetric`` True / False (tests, benchmarks)
    takes the one round always. ``pack_limit`` (tests only) lowers the bound on ``k^3`` above which
    items take two int64 words."""
    full = _full_round(n, max_bytes, pack_limit)
    if symmetric is False:
        return full

    def items(T1, B2, B3, k):  # sorted rows of items, T1 and B2 scaled already
        return _sorted_items(T1, B2, B3, k, _packed(k, pack_limit))

    sym = symmetric_round(n, _rows_at(pack_limit), items, lambda k: _scales(k, _packed(k, pack_limit)),
                          lambda k: n if _packed(k, pack_limit) else 2 * n, max_bytes,
                          fallback=None if symmetric else full)

    def step(cg, ch, k):
        return sym(cg, ch, k) if symmetric or worth_it(n, k) else full(cg, ch, k)

    return step


def _compact_type(code: int) -> str:
    a, rest = divmod(int(code), 9)
    return _PAIR[a] + _PAIR[rest // 3] + _PAIR[rest % 3]  # compact (uv, ux, vx) type


def _describe(codes: np.ndarray, packed_at: dict, text=triple_type_text, short=_compact_type):
    """The witness renderer: ``codes[c]`` is the atomic type of initial joint colour ``c``
    (``text`` / ``short`` render it); ``packed_at[k]`` whether items were packed in the round that
    started with ``k`` colours."""

    def colour(t, c):
        if t != 1:
            return str(c)
        return short(codes[c])

    def describe(t, c, row, kp):
        if row is None:
            return f"triples of type {text(codes[c])}"
        if packed_at.get(kp, True):
            items = Counter((int(z) // (kp * kp), int(z) // kp % kp, int(z) % kp) for z in row[1:])
        else:
            hi, lo = row[1::2], row[2::2]
            items = Counter((int(h) // kp, int(h) % kp, int(l)) for h, l in zip(hi, lo))
        if t == 1:
            head = (f"triples of type {text(codes[int(row[0])])} whose (type(w,v,x), type(u,w,x), "
                    "type(u,v,w)) multiset (types as uv ux vx) is ")
        else:
            head = (f"triples of colour {int(row[0])} (round {t - 1}) whose (colour(w,v,x), colour(u,w,x), "
                    "colour(u,v,w)) multiset is ")
        return (head
                + multiset_text(items, lambda abc: "(" + ", ".join(colour(t, z) for z in abc) + ")"))

    return describe


def _labelled_triples(G: nx.Graph, H: nx.Graph, labels: PairLabels):
    """Initial triple colours of a labelled pair, the codes of the joint ids and their text."""
    Pg, Ph, pcodes = labelled_atomic_types(adjacency_matrix(G), adjacency_matrix(H), labels)
    p = len(pcodes)
    Cg, Ch = ((P[:, :, None] * p + P[:, None, :]) * p + P[None, :, :] for P in (Pg, Ph))
    codes = np.unique(np.concatenate([Cg.reshape(-1), Ch.reshape(-1)]))

    def text(code):
        uv, rest = divmod(int(code), p * p)
        ux, vx = divmod(rest, p)
        return "(" + "; ".join(f"{name}: {pair_type_text(pcodes[i], labels)}"
                               for name, i in (("uv", uv), ("ux", ux), ("vx", vx))) + ")"

    return Cg, Ch, codes, text


def refine_fwl3(G: nx.Graph, H: nx.Graph, *, max_bytes: int = DEFAULT_MAX_BYTES,
                pack_limit: int = PACK_LIMIT, labels: PairLabels | None = None,
                symmetric: bool | None = None) -> RefinementResult:
    """3-FWL (= 4-WL) on a pair with one shared colour table (fast exact path, bounded memory).

    ``labels``: the pair's joint label ids (:func:`wltools.graphs.labels.pair_labels`); the initial triple
    colours are then the labelled atomic types (module docstring).

    ``max_bytes`` bounds the work arrays of one block and, separately, the store of verified
    rows; :func:`wltools.refine.cost.peak_bytes` states the whole peak before a run.
    ``pack_limit`` (for tests) lowers the bound on ``k^3`` above which items take two words;
    ``symmetric`` (tests, benchmarks) forces the round (:func:`fwl3_next_colours`).

    Examples
    --------
    >>> from wltools.graphs import named_graph
    >>> r = refine_fwl3(named_graph("shrikhande"), named_graph("rook4x4"))  # srg(16, 6, 2, 2)
    >>> r.distinguished, r.iteration
    (True, 1)
    >>> r.witness.split(" whose")[0]  # u-v-x a path: how many w close it to a 4-cycle, ...
    'iteration 1: triples of type (u~v, u/x, v~x)'
    """
    return refine(fwl3_declaration(G, H, max_bytes=max_bytes, pack_limit=pack_limit, labels=labels,
                                   symmetric=symmetric))


def fwl3_declaration(G: nx.Graph, H: nx.Graph, *, max_bytes: int = DEFAULT_MAX_BYTES, pack_limit: int = PACK_LIMIT,
                     labels: PairLabels | None = None, symmetric: bool | None = None) -> Declaration:
    """3-FWL as a :class:`~wltools.refine.kernel.Declaration` (arguments of :func:`refine_fwl3`): it
    colours ordered triples, starts from their (labelled) atomic types and aggregates over every
    ``w`` the key ``(chi(w, v, x), chi(u, w, x), chi(u, v, w))``."""
    if labels is not None:
        Cg, Ch, codes, text = _labelled_triples(G, H, labels)
        texts = (text, text)
    else:
        Cg, Ch = triple_types(adjacency_matrix(G)), triple_types(adjacency_matrix(H))
        codes = np.flatnonzero(np.bincount(Cg.reshape(-1), minlength=27) + np.bincount(Ch.reshape(-1), minlength=27))
        texts = (triple_type_text, _compact_type)
    packed_at: dict = {}
    step = fwl3_next_colours(Cg.shape[0], max_bytes, pack_limit, symmetric)

    def next_colours(cg, ch, k):
        packed_at[k] = k**3 < pack_limit
        return step(cg, ch, k)

    return Declaration("3fwl", (Cg, Ch), next_colours, _describe(codes, packed_at, *texts))


def refine_fwl3_reference(G: nx.Graph, H: nx.Graph, *, labels: PairLabels | None = None) -> RefinementResult:
    """Straightforward 3-FWL (dicts of sorted tuples; the definition in the module docstring), the
    exact reference for tests. ``O(n^4)`` Python steps per round: small graphs only. ``labels``:
    pair types ``(type, edge label id, label id of a, label id of b)``.

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_fwl3_reference(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
    >>> r.distinguished, r.iteration
    (True, 0)
    """
    graphs = (G, H)
    n = [len(G), len(H)]
    elems = [[(u, v, x) for u in range(m) for v in range(m) for x in range(m)] for m in n]

    nid = [labels.node_ids(g, n[g]).tolist() if labels is not None else None for g in (0, 1)]
    E = [labels.edge_matrix(g, n[g]).tolist() if labels is not None and labels.edge is not None else None
         for g in (0, 1)]

    def pair_type(g, a, b):
        t = 0 if a == b else (1 if graphs[g].has_edge(a, b) else 2)
        if labels is None:
            return t
        return (t, E[g][a][b] if E[g] else 0, nid[g][a], nid[g][b])

    def init(g, e):
        u, v, x = e
        return (pair_type(g, u, v), pair_type(g, u, x), pair_type(g, v, x))

    def sig(g, e, cols):
        c = cols[g]
        u, v, x = e
        return (c[e], tuple(sorted((c[(w, v, x)], c[(u, w, x)], c[(u, v, w)]) for w in range(n[g]))))

    return run_reference("3fwl", elems[0], elems[1], init, sig)
