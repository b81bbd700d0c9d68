"""The subgraph Weisfeiler-Lehman hierarchy as exact tests: SWL(VS), SWL(SV), PSWL(VS), PSWL(SV),
GSWL, SSWL (node-based subgraph GNNs) and the localised folklore tests LFWL(2), SLFWL(2).

Source: B. Zhang, G. Feng, Y. Du, D. He, L. Wang, *A Complete Expressiveness Hierarchy for Subgraph
GNNs via Subgraph Weisfeiler-Lehman Tests*, ICML 2023 (arXiv:2302.07090), and the authors' code
(github subgraph23/SWL). What was checked, and against what: the hierarchy figure of the paper
(reproduced as ``algorithm.png`` in the authors' repository; it boxes the six SWL classes as
"Section 4" and LFWL(2), SLFWL(2), FWL(2) as "Section 5", and draws every inclusion of
:data:`HIERARCHY`), and ``main_zinc.py`` / ``src/utils.py`` of that repository (each class's
aggregations and pooling). The paper's body (definition and theorem numbers, its table of
models) could not be read here: the stored copies of the paper that were reachable give only its
opening (title, abstract, start of Sec. 1). Numbers still marked "(?)" are unchecked.

Subgraph WL (paper Sec. 3 (?), the general SWL with an aggregation scheme; node marking policy).
Colours live on ordered pairs: ``chi(u, v)`` is the colour of node ``v`` in the subgraph ``G^u``
of root ``u``. Initial colour: the node mark ``chi^0(u, v) = [u == v]`` (node marking). The
authors' code also feeds the shortest-path distance ``d(u, v)`` in (``src/utils.py``); that
changes no verdict when ``agg^L_u`` is present (own argument: after ``t`` rounds of 1-WL inside
``G^u`` from the mark, ``chi(u, v)`` determines ``min(d(u, v), t + 1)``, so the marked colouring
after ``t + n`` rounds refines the distance-encoded one after ``t``). One round:

.. math::  \\chi^{t+1}(u, v) = \\mathrm{hash}(\\chi^t(u, v),\\ \\mathrm{agg}_1,\\ \\dots,\\ \\mathrm{agg}_r)

over the aggregations of the class (the own colour ``agg^P_uv`` is always kept, as the GIN update
``(1 + eps) x + sum`` of the authors' code keeps it):

* ``uL`` = ``agg^L_u``: ``{{chi(u, w) : w in N(v)}}`` (message passing inside subgraph ``G^u``);
* ``vL`` = ``agg^L_v``: ``{{chi(w, v) : w in N(u)}}`` (across subgraphs of adjacent roots);
* ``vv`` = ``agg^P_vv``: ``chi(v, v)`` (the node's colour in its own subgraph);
* ``vG`` = ``agg^G_v``: ``{{chi(w, v) : w in V}}`` (node ``v`` across all subgraphs).

The graph's colour pools the stable pair colours: ``VS`` pools ``v`` first, then ``u``
(``{{ {{chi(u, v) : v}} : u }}``, a multiset of subgraph colours; the authors' final ``uG``
layer), ``SV`` pools ``u`` first (``{{ {{chi(u, v) : u}} : v }}``; their ``vG``). The six
equivalence classes (paper Sec. 4; theorem numbers (?)); aggregations and pooling exactly as the
authors' ``main_zinc.py`` builds the models ``SWL_VS`` ... ``SSWL``:

==========  =====================  =======  ==========================================
test        aggregations           pooling  strictly weaker than (paper's figure)
==========  =====================  =======  ==========================================
swl-vs      uL                     VS       swl-sv, pswl-vs
swl-sv      uL                     SV       pswl-sv
pswl-vs     uL, vv                 VS       pswl-sv, lfwl2
pswl-sv     uL, vv                 SV       gswl
gswl        uL, vG                 VS       sswl
sswl        uL, vL                 VS       slfwl2
==========  =====================  =======  ==========================================

with 1-WL below SWL(VS) and GD-WL below PSWL(VS) in the figure (taken here with the shortest-path
distance, the test ``spd``; the figure names no distance). Localised folklore WL (paper Sec. 5;
definition numbers (?)): pair colours initialised by the isomorphism type of ``(u, v)``
(``u = v``, adjacent, non-adjacent), as 2-FWL, and

.. math::  \\chi^{t+1}(u, v) = \\mathrm{hash}(\\chi^t(u, v),
           \\{\\{(\\chi^t(u, w), \\chi^t(w, v)) : w \\in S(u, v)\\}\\})

with ``S = N^1(v) = N(v) + {v}`` for LFWL(2) and ``S = N^1(u) | N^1(v)`` (a set: each ``w`` once)
for SLFWL(2), pooled over all pairs; PSWL(VS) < LFWL(2) < SLFWL(2), SSWL < SLFWL(2) < FWL(2) =
3-WL (the figure's Section 5 box). SWL(SV) and PSWL(VS) are not ordered (BREC pair 282: SWL(SV)
separates it, PSWL(VS) does not; the figure draws no edge between them either). The closed
neighbourhoods ``N^1`` are as recalled from the paper, not checked against its text (the
localised 2-FWL of the later "Beyond WL" paper of the same group uses open ones); the ``w = v``
item of ``N^1(v)`` carries ``chi(v, v)``, i.e. PSWL's ``agg^P_vv``, the natural way for LFWL(2)
to see it, which supports the closed reading (an inference, not the paper's text); with open ones
all 400 BREC verdicts are the same (checked once, not a proof). The initial colour changes no verdict: one round of ``agg^L_u`` (or of the ``w = u`` item
of ``N^1(v)``) recovers adjacency from the node mark, so by monotonicity the marked colouring after
``t + 1`` rounds refines the atomic one after ``t`` rounds, which refines the marked one after
``t`` (tested on small graphs).

The verdict is exact: the pair is distinguished iff the pooled colours of G and H differ at some
round (they then differ at every later round: a colour determines its predecessor), refined to the
stable partition (the round that splits no pair class), with one colour table for both graphs.

Fast path: the ``n^2`` pair colours of both graphs as matrices; a round builds, for every pair,
the row ``[chi(u, v), sorted segment per aggregation...]`` by fancy indexing through padded
neighbour tables (multisets of neighbours padded with ``-1`` up to the largest degree, so equal
rows <=> equal multisets), and groups the rows exactly: all at once with
:func:`~wltools.runtime.hashing.unique_rows` when they fit the block budget, else block by block
with :class:`~wltools.refine.grouping.RowGrouper`; either verifies every row entry by entry, so
no hash collision can merge two colours. A round costs ``O(n^2 d log d)`` (``d`` the largest
degree) against ``O(n^3)`` for 2-FWL; the memory is stated by :func:`wltools.refine.cost.peak_bytes`.
Reference: :func:`refine_swl_reference`, dicts of sorted tuples.

Labels (:mod:`wltools.graphs.labels`; this project's extension, the paper treats unlabelled graphs): the
node-marking classes start from ``chi^0(u, v) = ([u == v], label of v)``, the input of a subgraph
GNN with node marking (node features of ``v`` in every subgraph, the root marked), and ``agg^L_u``
/ ``agg^L_v`` aggregate pairs (edge label, colour): ``{{(l(v, w), chi(u, w)) : w in N(v)}}`` and
``{{(l(u, w), chi(w, v)) : w in N(u)}}`` (message passing with edge features inside / across
subgraphs). LFWL(2) and SLFWL(2) start, as 2-FWL does, from the labelled atomic type of ``(u, v)``
(:func:`wltools.refine.fwl.labelled_atomic_types`: equality, adjacency, edge label, labels of
``u`` and ``v``), which carries the edge labels into their pair items. The fast path keys an item
``colour * B + edge label id``.

The models each class bounds: :data:`SWL_MODELS` (placements by the aggregations each model uses,
as recalled from the paper's discussion; its table of models was not reachable, see above).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import networkx as nx
import numpy as np

from ..distances import adjacency_matrix
from ..runtime.hashing import unique_rows
from ..errors import UnknownNameError
from ..graphs.labels import PairLabels
from .engine import RefinementResult, multiset_text, no_difference_text
from .fwl import atomic_types, labelled_atomic_types, pair_type_text
from .kernel import DEFAULT_MAX_BYTES, Declaration, blocked, grid, grouped_at_once, refine
from .symmetric_pairs import equivariant, symmetric_round, upper_pairs, worth_it

__all__ = [
    "SWLClass",
    "SWL_CLASSES",
    "SWL_MODELS",
    "OUTSIDE_HIERARCHY",
    "HIERARCHY",
    "row_width",
    "refine_swl",
    "swl_declaration",
    "refine_swl_reference",
]


@dataclass(frozen=True)
class SWLClass:
    """One test of the hierarchy.

    Attributes
    ----------
    name, label : str
        Test name (``swl-vs``) and its label in tables (``SWL(VS)``).
    aggregations : tuple of str
        Besides the own colour: ``uL``, ``vL``, ``vv``, ``vG`` (see the module docstring), or
        ``fwl-v`` / ``fwl-uv`` (the localised 2-FWL multisets over ``N^1(v)`` / ``N^1(u) | N^1(v)``).
    pooling : str
        ``VS``, ``SV`` or ``all`` (the multiset of all pair colours).
    init : str
        ``marking`` (``[u == v]``) or ``atomic`` (``u = v`` / adjacent / non-adjacent).
    models : tuple of str
        Models whose distinguishing power this class bounds (equals, for those the paper places in
        the class), with their sources.
    source : str
        Where the class is defined.
    hom_family : str, optional
        The model class of Zhang, Gai, Du, Ye, He & Wang (ICLR 2024, arXiv 2401.08514, Sec. 2) the
        test matches, the key of its homomorphism family in :mod:`wltools.hom.families` (the
        identification is argued in :mod:`wltools.wltests.subgraph_wl`); None: no published
        characterisation.
    strictly_above : tuple of (str, str)
        ``(test, citation)`` for each test proved strictly weaker than this class
        (:attr:`wltools.wltests.base.WLTest.strictly_above`).
    """

    name: str
    label: str
    aggregations: tuple
    pooling: str
    init: str
    models: tuple
    source: str
    hom_family: str | None = None
    strictly_above: tuple = ()


_PAPER = "Zhang, Feng, Du, He & Wang, ICML 2023"
#: The strict chain MPNN < Subgraph GNN < Local 2-GNN < Local 2-FGNN < 2-FGNN.
ZHANG_2024_CHAIN = "Zhang, Gai, Du, Ye, He & Wang, ICLR 2024 (arXiv 2401.08514), Theorem 3.4 and Corollary 4.1"

#: The eight tests, weakest first (the order of :data:`wltools.refine.names.SUBGRAPH_WL_TESTS`).
SWL_CLASSES: dict[str, SWLClass] = {
    c.name: c
    for c in (
        SWLClass("swl-vs", "SWL(VS)", ("uL",), "VS", "marking",
                 ("NGNN (Zhang & Li 2021)", "DE+NGNN (distance encoding; no more powerful than node marking, module docstring)",
                  "DS-GNN (ESAN, Bevilacqua et al. 2022)", "ID-GNN-style node marking with a local MPNN (this project's reading)",
                  "authors' SWL_VS"),
                 f"{_PAPER}, Sec. 4 (theorem (?)); main_zinc.py SWL_VS", hom_family="Subgraph GNN",
                 strictly_above=(("1wl", f"{ZHANG_2024_CHAIN} (MPNN < Subgraph GNN)"),)),
        SWLClass("swl-sv", "SWL(SV)", ("uL",), "SV", "marking",
                 ("authors' SWL_SV",),
                 f"{_PAPER}, Sec. 4; main_zinc.py SWL_SV"),
        SWLClass("pswl-vs", "PSWL(VS)", ("uL", "vv"), "VS", "marking",
                 ("GNN-AK (Zhao et al. 2022, centroid encoding = agg^P_vv)", "authors' PSWL_VS"),
                 f"{_PAPER}, Sec. 4; main_zinc.py PSWL_VS"),
        SWLClass("pswl-sv", "PSWL(SV)", ("uL", "vv"), "SV", "marking",
                 ("authors' PSWL_SV",),
                 f"{_PAPER}, Sec. 4; main_zinc.py PSWL_SV"),
        SWLClass("gswl", "GSWL", ("uL", "vG"), "VS", "marking",
                 ("DSS-GNN (ESAN, Bevilacqua et al. 2022)", "GNN-AK-ctx (Zhao et al. 2022)",
                  "SUN (Frasca et al. 2022)", "authors' GSWL"),
                 f"{_PAPER}, Sec. 4; main_zinc.py GSWL"),
        SWLClass("sswl", "SSWL", ("uL", "vL"), "VS", "marking",
                 ("GNN-SSWL and GNN-SSWL+ (SSWL / SSWL_P in the authors' code; BREC's SSWL_P)",),
                 f"{_PAPER}, Sec. 4; main_zinc.py SSWL, SSWL_P", hom_family="Local 2-GNN",
                 strictly_above=(("swl-vs", f"{ZHANG_2024_CHAIN} (Subgraph GNN < Local 2-GNN)"),)),
        SWLClass("lfwl2", "LFWL(2)", ("fwl-v",), "all", "atomic",
                 ("GNN-LFWL(2) (the paper's localised 2-FWL network)",),
                 f"{_PAPER}, Sec. 5 (definition (?)); localised 2-FWL over N^1(v)"),
        SWLClass("slfwl2", "SLFWL(2)", ("fwl-uv",), "all", "atomic",
                 ("GNN-SLFWL(2) (the paper's symmetrised localised 2-FWL network)",),
                 f"{_PAPER}, Sec. 5 (definition (?)); symmetrised, over N^1(u) | N^1(v)",
                 hom_family="Local 2-FGNN",
                 strictly_above=(("sswl", f"{ZHANG_2024_CHAIN} (Local 2-GNN < Local 2-FGNN)"),)),
    )
}

#: ``{test: models it bounds}``: what ``wltools models list`` or a report can show beside a class.
#: The placements follow the aggregations each model uses (agg^P_vv: GNN-AK's centroid; agg^G_v:
#: DSS-GNN's, GNN-AK-ctx's and SUN's cross-subgraph terms; agg^L_v: GNN-SSWL's, and GNN-SSWL+ =
#: SSWL + agg^P_vv, the authors' ``SSWL_P``), as recalled from the paper's discussion of prior
#: models: its table of models was not reachable here (module docstring), so these are unchecked.
SWL_MODELS: dict[str, tuple[str, ...]] = {name: c.models for name, c in SWL_CLASSES.items()}

#: Subgraph-style models that no class here bounds, with why (so that nobody declares them so).
#: The reasons are this project's (BREC verdicts, the models' own papers), not the SWL paper's.
OUTSIDE_HIERARCHY: dict[str, str] = {
    "I2-GNN (Huang et al. 2023)": "marks two nodes; separates regular BREC pairs 3-WL does not (not bounded by 3-WL)",
    "KP-GNN (Feng et al. 2022)": "K-hop peripheral-subgraph features; not bounded by 3-WL on BREC's regular pairs",
    "N2-GNN (Feng et al. 2023)": "bounded by 3-FWL, not by 2-FWL",
    "PPGN (Maron et al. 2019)": "as powerful as 2-FWL = 3-WL (the test 3wl), above every class here",
}

#: The inclusions ``(weaker, stronger)`` the paper's hierarchy figure draws, each strict ("≺"): the
#: Section 4 box (the six classes), the Section 5 box (PSWL(VS) ≺ LFWL(2), SSWL ≺ SLFWL(2),
#: LFWL(2) ≺ SLFWL(2) ≺ FWL(2) = 3-WL), and 1-WL ≺ SWL(VS), GD-WL ≺ PSWL(VS) (GD-WL taken as SPD-WL,
#: the test ``spd``). The figure's 1-WL ≺ GD-WL is not about this hierarchy and is left to
#: :mod:`wltools.claims.zhang_gdwl`. Theorem numbers: (?), see the module docstring.
HIERARCHY: tuple[tuple[str, str], ...] = (
    ("1wl", "swl-vs"), ("swl-vs", "swl-sv"), ("swl-vs", "pswl-vs"), ("swl-sv", "pswl-sv"),
    ("pswl-vs", "pswl-sv"), ("pswl-sv", "gswl"), ("gswl", "sswl"), ("spd", "pswl-vs"),
    ("pswl-vs", "lfwl2"), ("lfwl2", "slfwl2"), ("sswl", "slfwl2"), ("slfwl2", "3wl"),
)

_SEGMENT_WIDTH = {"uL": (1, 0), "vL": (1, 0), "vv": (0, 1), "vG": (0, 1), "fwl-v": (1, 1), "fwl-uv": (2, 2)}


def _spec(test: str) -> SWLClass:
    try:
        return SWL_CLASSES[test]
    except KeyError:
        raise UnknownNameError(f"unknown subgraph WL test {test!r}; choose from {', '.join(SWL_CLASSES)}") from None


def row_width(test: str, max_degree: int) -> int:
    """Items per pair row besides the own colour, for graphs of largest degree ``max_degree``.

    Examples
    --------
    >>> row_width("swl-vs", 3), row_width("sswl", 3), row_width("slfwl2", 3)
    (3, 6, 8)
    """
    d = max(int(max_degree), 0)
    return sum(a * d + b for a, b in (_SEGMENT_WIDTH[x] for x in _spec(test).aggregations))


# ---------------------------------------------------------------------------------- fast path


class _Tables:
    """Padded neighbour tables of one graph: ``nbr [n, d]`` (open neighbourhoods), ``nbr1
    [n, d + 1]`` (closed: ``v`` first), padded with ``n``; ``closed [n, n + 1]`` bool."""

    def __init__(self, A: np.ndarray, d: int, E: np.ndarray | None = None, base: int = 1):
        n = A.shape[0]
        self.n = n
        self.base = base  # with edge labels: ``elab [n, d]``, the label id of edge (v, nbr[v, j])
        self.elab = None if E is None else np.zeros((n, d), dtype=np.int64)
        self.nbr = np.full((n, d), n, dtype=np.int64)
        self.nbr1 = np.full((n, d + 1), n, dtype=np.int64)
        for v in range(n):
            nb = np.flatnonzero(A[v])
            self.nbr[v, : nb.size] = nb
            if E is not None:
                self.elab[v, : nb.size] = E[v, nb]
            self.nbr1[v, 0] = v
            self.nbr1[v, 1 : nb.size + 1] = nb
        self.closed = np.zeros((n, n + 1), dtype=bool)
        self.closed[:, :n] = A > 0
        self.closed[np.arange(n), np.arange(n)] = True


def _pad(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``C`` with a column ``n`` of ``-1`` (``Cc[u, n]``) and with a row ``n`` of ``-1`` (``Cr[n, v]``)."""
    n = C.shape[0]
    Cc = np.full((n, n + 1), -1, dtype=np.int64)
    Cc[:, :n] = C
    Cr = np.full((n + 1, n), -1, dtype=np.int64)
    Cr[:n] = C
    return Cc, Cr


def _gather(M: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``M[rows[:, None], cols]`` (``cols [m, w]``) by one flat ``take``, about twice as fast as
    the broadcast fancy index."""
    return M.reshape(-1).take(cols + (rows * M.shape[1])[:, None])


def _pair_items(Cc, Cr, W, us, vs, k, n):
    """``chi(u, w) * k + chi(w, v)`` for ``w = W[i, j]`` (``-1`` where ``W`` is the pad ``n``)."""
    seg = _gather(Cc, us, W) * k
    seg += Cr.reshape(-1).take(W * n + vs[:, None])
    seg[W == n] = -1
    return seg


def _with_edges(T: _Tables, seg: np.ndarray, ends: np.ndarray | None, axis: int = 0) -> np.ndarray:
    """Items ``colour * B + edge label id`` of the neighbours of ``ends`` (pads stay ``-1``);
    ``ends`` None: ``seg`` is the whole grid ``[u, v, j]`` and the ends are ``u`` (``axis`` 0)
    or ``v`` (``axis`` 1)."""
    if T.elab is None:
        return seg
    if ends is None:
        pad, lab = np.expand_dims(T.nbr == T.n, 1 - axis), np.expand_dims(T.elab, 1 - axis)
    else:
        pad, lab = T.nbr[ends] == T.n, T.elab[ends]
    return np.where(pad, -1, seg * T.base + lab)


def _segment(a: str, T: _Tables, C, Cc, Cr, gid_col, k: int, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """The unsorted items ``[m, w]`` of aggregation ``a`` at the pairs ``(us[i], vs[i])``."""
    n = T.n
    if a == "uL":  # chi(u, w), w in N(v)
        return _with_edges(T, _gather(Cc, us, T.nbr[vs]), vs)
    if a == "vL":  # chi(w, v), w in N(u)
        return _with_edges(T, Cr.reshape(-1).take(T.nbr[us] * n + vs[:, None]), us)
    if a == "vv":
        return C.reshape(-1).take(vs * (n + 1))[:, None]
    if a == "vG":
        return gid_col.take(vs)[:, None]
    if a == "fwl-v":  # (chi(u, w), chi(w, v)), w in N^1(v)
        return _pair_items(Cc, Cr, T.nbr1[vs], us, vs, k, n)
    # "fwl-uv": w in N^1(v), then w in N^1(u) \ N^1(v)
    Wu = T.nbr1[us]
    second = _pair_items(Cc, Cr, Wu, us, vs, k, n)
    second[_gather(T.closed, vs, Wu)] = -1
    return np.concatenate([_pair_items(Cc, Cr, T.nbr1[vs], us, vs, k, n), second], axis=1)


def _grid_pair_items(Cc, Cr, W, k: int, n: int, of_u: bool) -> np.ndarray:
    """:func:`_pair_items` of all pairs, ``[u, v, j]``, for ``w = W[v, j]`` (``of_u`` False) or
    ``w = W[u, j]`` (``of_u``), by whole-matrix takes."""
    own = np.arange(n)[:, None]
    if of_u:  # chi(u, w) depends on u alone, chi(w, v) is row w of C
        seg = Cr.take(W, axis=0).transpose(0, 2, 1) + (Cc.reshape(-1).take(W + own * (n + 1)) * k)[:, None, :]
        seg[np.broadcast_to((W == n)[:, None, :], seg.shape)] = -1
        return seg
    seg = Cc.take(W, axis=1) * k  # chi(u, w): column w of C; chi(w, v) depends on v alone
    seg += Cr.reshape(-1).take(W * n + own)[None, :, :]
    seg[:, W == n] = -1
    return seg


def _grid_segment(a: str, T: _Tables, C, Cc, Cr, gid_col, k: int) -> np.ndarray:
    """:func:`_segment` of all pairs of the graph in row-major order, ``[u, v, w]``: whole rows
    and columns of ``C`` taken at once instead of pair by pair."""
    n = T.n
    if a == "uL":  # [u, v, j] = C[u, nbr[v, j]]
        return _with_edges(T, Cc.take(T.nbr, axis=1), None, axis=1)
    if a == "vL":  # [u, v, j] = C[nbr[u, j], v]
        return _with_edges(T, Cr.take(T.nbr, axis=0).transpose(0, 2, 1), None, axis=0)
    if a in ("vv", "vG"):
        col = np.diagonal(C) if a == "vv" else gid_col
        return np.broadcast_to(col[None, :, None], (n, n, 1))
    first = _grid_pair_items(Cc, Cr, T.nbr1, k, n, of_u=False)
    if a == "fwl-v":
        return first
    second = _grid_pair_items(Cc, Cr, T.nbr1, k, n, of_u=True)
    second[T.closed.T.take(T.nbr1, axis=0).transpose(0, 2, 1)] = -1  # w in N^1(v) too
    return np.concatenate([first, second], axis=2)


def _rows(spec: SWLClass, T: _Tables, C, Cc, Cr, gid_col, k: int, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """The rows (without the own colour) of pairs ``(us[i], vs[i])`` of one graph: one sorted
    segment per aggregation, multisets padded with ``-1``. All pairs in row-major order (the
    kernel's :func:`~wltools.refine.kernel.grid`), or all pairs ``u <= v`` (the symmetric round's
    :func:`~wltools.refine.symmetric_pairs.upper_pairs`), are built by :func:`_grid_segment`."""
    n = T.n
    whole, upper = grid((n, n)), upper_pairs(n)
    full = us is whole[0] and vs is whole[1]
    half = us is upper[0] and vs is upper[1]
    parts = []
    for a in spec.aggregations:
        if full or half:
            seg = _grid_segment(a, T, C, Cc, Cr, gid_col, k)
            seg = seg.reshape(n * n, seg.shape[-1])
            if half:  # the rows of the pairs u <= v
                seg = seg.take(us * n + vs, axis=0)
        else:
            seg = _segment(a, T, C, Cc, Cr, gid_col, k, us, vs)
        if seg.shape[1] > 1:
            seg.sort(axis=1)
        parts.append(seg)
    if not parts:
        return np.zeros((us.size, 0), dtype=np.int64)
    return np.ascontiguousarray(np.concatenate(parts, axis=1), dtype=np.int64)


def _column_ids(Cg: np.ndarray, Ch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Joint ids of the column multisets ``{{chi(w, v) : w}}`` of G and H."""
    n = Cg.shape[0]
    ids = unique_rows(np.concatenate([np.sort(Cg.T, axis=1), np.sort(Ch.T, axis=1)]))
    return ids[:n], ids[n:]


#: The classes whose round is equivariant under swapping a pair's ends (a symmetric round serves
#: them while their initial colouring is, :mod:`wltools.refine.symmetric_pairs`).
TRANSPOSABLE = (("uL", "vL"), ("fwl-uv",))


def _next_colours(spec: SWLClass, tables, width: int, max_bytes: int, symmetric: bool = False):
    """One round for both graphs: ``(new joint ids of all pairs of G then H, row_of)``, the rows
    built and grouped by the kernel's blocking (:func:`~wltools.refine.kernel.blocked`); with
    ``symmetric`` (a class of :data:`TRANSPOSABLE` from an equivariant start) by the symmetric
    round while the classes are few against the pairs, with the same ids."""
    n = tables[0].n

    def prepare(Cg, Ch, k):  # what the rows of a round read, once: padded copies, column ids
        gids = _column_ids(Cg, Ch) if "vG" in spec.aggregations else (None, None)
        return tuple((C, *_pad(C), gid) for C, gid in zip((Cg, Ch), gids))

    def rows_at(g, ctx, k, u, v):
        C, Cc, Cr, gid = ctx
        return C[u, v], _rows(spec, tables[g], C, Cc, Cr, gid, k, u, v)

    full = blocked(rows_at, (n, n), width, prepare=prepare, at_once=True, max_bytes=max_bytes, what=spec.label)
    if not symmetric:
        return full

    def rows(Cg, Ch, k):
        ctx = prepare(Cg, Ch, k)
        return lambda g, u, v: rows_at(g, ctx[g], k, u, v)

    at_once = grouped_at_once(2 * n * n, width, max_bytes)  # the full round's numbering of colours
    sym = symmetric_round(n, max_bytes, full, rows=rows, width=lambda k: width, hash_order=lambda k: at_once,
                          what=spec.label)
    return lambda cg, ch, k: sym(cg, ch, k) if worth_it(n, k) else full(cg, ch, k)


def _pooled(pooling: str, Cg: np.ndarray, Ch: np.ndarray):
    """Joint ids of the pooled elements (subgraphs for VS, nodes across subgraphs for SV, pairs
    for ``all``) of G and of H, and ``items(i)``: the pair colours pooled into element ``i``."""
    n = Cg.shape[0]
    if pooling == "all":
        both = np.concatenate([Cg.reshape(-1), Ch.reshape(-1)])
        return both[: n * n], both[n * n :], None
    if pooling == "VS":
        M = np.concatenate([np.sort(Cg, axis=1), np.sort(Ch, axis=1)])
    else:
        M = np.concatenate([np.sort(Cg.T, axis=1), np.sort(Ch.T, axis=1)])
    ids = unique_rows(M)
    return ids[:n], ids[n:], M.__getitem__


_POOLED_NAME = {"VS": "subgraphs G^u whose colour multiset {{chi(u, v) : v}} is ",
                "SV": "nodes v whose colour multiset across subgraphs {{chi(u, v) : u}} is "}
_INITIAL = {"atomic": {0: "u = v", 1: "adjacent", 2: "non-adjacent"}, "marking": {0: "u != v", 1: "u = v"}}


def _describe_pair(spec: SWLClass, t: int, c: int, row, kp: int, values: np.ndarray, type_name=None) -> str:
    """A pair colour class, for the witness of the tests pooled over all pairs; ``values[id]`` is
    the initial value of a round-0 colour id (named by type at rounds 0 and 1, by ``type_name``
    when given)."""
    type_name = type_name or (lambda x: _INITIAL[spec.init][int(x)])
    if row is None:
        return f"pairs of type {type_name(values[c])}"
    items = Counter((int(x) // kp, int(x) % kp) for x in row[1:] if x >= 0)
    where = "N^1(v)" if spec.aggregations == ("fwl-v",) else "N^1(u) | N^1(v)"
    if t == 1:
        name = {i: type_name(x) for i, x in enumerate(values)}
        return (f"{name[int(row[0])]} pairs (u, v) whose (type(u,w), type(w,v)) multiset over w in {where} is "
                + multiset_text(items, lambda ab: f"({name[ab[0]]}, {name[ab[1]]})"))
    return (f"pairs of colour {int(row[0])} (round {t - 1}) whose (chi(u,w), chi(w,v)) multiset over w in {where} is "
            + multiset_text(items, lambda ab: f"({ab[0]}, {ab[1]})"))


def _initial(spec: SWLClass, A: np.ndarray) -> np.ndarray:
    if spec.init == "atomic":
        return atomic_types(A)
    return np.eye(A.shape[0], dtype=np.int64)


def _initial_pair(spec: SWLClass, Ag: np.ndarray, Ah: np.ndarray, labels: PairLabels | None):
    """Joint initial pair colours of G then H (flattened), the initial value of each id, and the
    namer of those values for the witness (None: the unlabelled types)."""
    if labels is None:
        values, joint = np.unique(np.concatenate([_initial(spec, Ag).reshape(-1), _initial(spec, Ah).reshape(-1)]),
                                  return_inverse=True)
        return joint.reshape(-1), values, None
    if spec.init == "atomic":
        Cg, Ch, codes = labelled_atomic_types(Ag, Ah, labels)
        return np.concatenate([Cg.reshape(-1), Ch.reshape(-1)]), codes, lambda x: pair_type_text(int(x), labels)
    a = max(len(labels.node_values), 1)
    marks = [np.eye(A.shape[0], dtype=np.int64) * a + labels.node_ids(g, A.shape[0])[None, :]
             for g, A in enumerate((Ag, Ah))]
    values, joint = np.unique(np.concatenate([M.reshape(-1) for M in marks]), return_inverse=True)
    return joint.reshape(-1), values, None


def refine_swl(G: nx.Graph, H: nx.Graph, test: str, *, max_bytes: int = DEFAULT_MAX_BYTES,
               labels: PairLabels | None = None) -> RefinementResult:
    """A test of the subgraph WL hierarchy on a pair, one shared colour table (fast exact path).

    Parameters
    ----------
    G, H : nx.Graph
        Simple undirected graphs on nodes ``0..n-1``, of equal order.
    test : str
        A key of :data:`SWL_CLASSES`.
    max_bytes : int
        Budget of the row blocks of a round and, separately, of the store of verified rows.
    labels : PairLabels, optional
        Joint label ids (:func:`wltools.graphs.labels.pair_labels`; how they enter: module docstring).

    Examples
    --------
    Two triangles against the 6-cycle (1-WL cannot tell them apart; a marked node sees its cycle):

    >>> import networkx as nx
    >>> r = refine_swl(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "swl-vs")
    >>> r.distinguished, r.iteration
    (True, 2)
    >>> r.witness.split("; ")[0]
    'iteration 2: subgraphs G^u whose colour multiset {{chi(u, v) : v}} is {0:1, 2:2, 3:3}: 0 in G, 6 in H'
    """
    _spec(test)  # an unknown name is refused before any work
    Ag, Ah = adjacency_matrix(G), adjacency_matrix(H)
    n = Ag.shape[0]
    if Ah.shape[0] != n:
        raise ValueError("refine_swl needs graphs of equal order (refine_pair answers 'order' first)")
    if n == 0:
        return RefinementResult.from_histograms(test, None, 0, ((), ()), no_difference_text(0, 0))
    return refine(swl_declaration(test, Ag, Ah, max_bytes=max_bytes, labels=labels))


def swl_declaration(test: str, Ag: np.ndarray, Ah: np.ndarray, *, max_bytes: int = DEFAULT_MAX_BYTES,
                    labels: PairLabels | None = None) -> Declaration:
    """A subgraph WL test as a :class:`~wltools.refine.kernel.Declaration` on adjacency matrices
    of equal order ``n >= 1``: it colours ordered pairs ``(u, v)`` (node ``v`` of subgraph
    ``G^u``), starts from the marking or the atomic type (with labels), aggregates as the class's
    ``aggregations`` say, and reads out its pooling (VS, SV or all pairs)."""
    spec = _spec(test)
    n = Ag.shape[0]
    d = int(max(Ag.sum(axis=1).max(), Ah.sum(axis=1).max()))
    edges = labels is not None and labels.edge is not None
    tables = tuple(_Tables(A, d, labels.edge_matrix(g, n) if edges else None, labels.edge_ids if edges else 1)
                   for g, A in enumerate((Ag, Ah)))
    nn = n * n
    joint, values, type_name = _initial_pair(spec, Ag, Ah, labels)
    init = (joint[:nn].reshape(n, n), joint[nn:].reshape(n, n))
    symmetric = spec.aggregations in TRANSPOSABLE and equivariant(*init)
    next_colours = _next_colours(spec, tables, row_width(test, d), max_bytes, symmetric)

    def readout(cg, ch):
        pg, ph, items = _pooled(spec.pooling, cg.reshape(n, n), ch.reshape(n, n))
        if items is None:
            return pg, ph, None
        return pg, ph, lambda i: _POOLED_NAME[spec.pooling] + multiset_text(Counter(items(i).tolist()), str)

    def describe(t, c, row, k_before):
        return _describe_pair(spec, t, c, row, k_before, values, type_name)

    return Declaration(test, init, next_colours, describe, readout)


# ---------------------------------------------------------------------------------- reference


def _reference_start(graphs, init: str, dist, labels: PairLabels | None):
    """The reference's initial colour ``start(g, u, v)`` and edge label id ``e(g, a, b)`` (None
    without edge labels: the ``uL`` / ``vL`` items are then the colours alone, which names the
    same classes as pairing each with a constant ``0``)."""
    n = len(graphs[0])
    nid = [labels.node_ids(g, n).tolist() if labels is not None else None for g in (0, 1)]
    E = [labels.edge_matrix(g, n).tolist() if labels is not None and labels.edge is not None else None
         for g in (0, 1)]

    def plain_start(g, u, v):
        if init == "distance":
            return (dist[g][u].get(v, -1),)
        return (u == v,) if init == "marking" else (u == v, graphs[g].has_edge(u, v))

    def start(g, u, v):
        if labels is None:
            return plain_start(g, u, v)
        if init == "atomic":
            return plain_start(g, u, v) + (E[g][u][v] if E[g] else 0, nid[g][u], nid[g][v])
        return plain_start(g, u, v) + (nid[g][v],)

    def e(g, a, b):
        return E[g][a][b]

    return start, (e if E[0] is not None else None)


def refine_swl_reference(G: nx.Graph, H: nx.Graph, test: str, *, init: str | None = None,
                         labels: PairLabels | None = None) -> RefinementResult:
    """Straightforward exact reference of :func:`refine_swl` (dicts of sorted tuples, one shared
    table per round), written from the definitions in the module docstring.

    ``init`` overrides the class's initial colour (``"marking"``, ``"atomic"``, or ``"distance"``:
    the shortest-path distance ``d(u, v)``, ``-1`` when unreachable, as the authors' code feeds it
    in); it exists to test that the choice changes no verdict. ``labels``: joint label ids; the
    initial colour gains ``(edge label id of uv, label id of u)`` (atomic) and the label id of ``v``,
    and ``uL`` / ``vL`` items become ``(edge label id, colour)`` (module docstring).

    Examples
    --------
    >>> import networkx as nx
    >>> r = refine_swl_reference(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "swl-vs")
    >>> r.distinguished, r.iteration, r.witness
    (True, 2, 'reference: pooled colours differ at iteration 2')
    """
    spec = _spec(test)
    init = init or spec.init
    adjacency_matrix(G), adjacency_matrix(H)  # the same refusals as the fast path (UnsupportedGraphError)
    graphs = (G, H)
    n = len(G)
    if len(H) != n:
        raise ValueError("refine_swl_reference needs graphs of equal order")
    nbrs = [{v: sorted(X[v]) for v in range(n)} for X in graphs]
    closed = [{v: {v, *X[v]} for v in range(n)} for X in graphs]

    if init not in ("marking", "atomic", "distance"):
        raise UnknownNameError(f"unknown initial colour {init!r}; choose from marking, atomic, distance")
    dist = [dict(nx.all_pairs_shortest_path_length(X)) if init == "distance" else None for X in graphs]

    start, e = _reference_start(graphs, init, dist, labels)

    def local(g, x, items):  # {{(edge label id of xw, colour) : w in N(x)}}; the colours alone when unlabelled
        return tuple(sorted(items if e is None else [(e(g, x, w), c) for w, c in zip(nbrs[g][x], items)]))

    def sig(g, u, v, c, columns):  # c[u][v]: the colour of (u, v)
        cu = c[u]
        key = [cu[v]]
        for a in spec.aggregations:
            if a == "uL":
                key.append(local(g, v, [cu[w] for w in nbrs[g][v]]))
            elif a == "vL":
                key.append(local(g, u, [c[w][v] for w in nbrs[g][u]]))
            elif a == "vv":
                key.append(c[v][v])
            elif a == "vG":
                key.append(columns[v])
            else:
                ws = closed[g][v] if a == "fwl-v" else closed[g][u] | closed[g][v]
                key.append(tuple(sorted((cu[w], c[w][v]) for w in ws)))
        return tuple(key)

    def pooled(c):
        if spec.pooling == "all":
            return Counter(x for row in c for x in row)
        if spec.pooling == "VS":
            return Counter(tuple(sorted(row)) for row in c)
        return Counter(tuple(sorted(col)) for col in zip(*c))

    def ids(colour):  # row u of graph g: [colour(g, u, v) for v], ids in order of first appearance
        return [[[table.setdefault(colour(g, u, v), len(table)) for v in range(n)] for u in range(n)] for g in (0, 1)]

    table: dict = {}
    cols = ids(start)
    first_t = 0 if pooled(cols[0]) != pooled(cols[1]) else None
    t = 0
    while True:
        table = {}
        columns = [[tuple(sorted(col)) for col in zip(*c)] if "vG" in spec.aggregations
                   else None for c in cols]  # {{chi(w, v) : w in V}} per v, once per round
        new = ids(lambda g, u, v: sig(g, u, v, cols[g], columns[g]))
        if len(table) == len({x for c in cols for row in c for x in row}):
            break
        cols, t = new, t + 1
        if first_t is None and pooled(cols[0]) != pooled(cols[1]):
            first_t = t
    sizes = tuple(tuple(sorted(Counter(x for row in c for x in row).values(), reverse=True)) for c in cols)
    witness = (f"reference: pooled colours differ at iteration {first_t}" if first_t is not None
               else f"reference: no difference; stable after {t} round(s)")
    return RefinementResult.from_histograms(test, first_t, t, sizes, witness)
