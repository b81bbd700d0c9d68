"""The subgraph Weisfeiler-Lehman hierarchy (Zhang, Feng, Du, He & Wang, ICML 2023, Sec. 4-5):
SWL with VS / SV pooling, PSWL, GSWL, SSWL and the localised folklore tests LFWL(2), SLFWL(2),
one :class:`~wltools.wltests.base.WLTest` per class of :data:`wltools.refine.swl.SWL_CLASSES`
(names, aggregations, pooling and sources are there), run when named.

.. math:: \\chi^{t+1}(u, v) = \\mathrm{hash}\\big(\\chi^t(u, v), \\mathrm{agg}_1(u, v), \\ldots\\big)

Declared on the kernel by :func:`~wltools.refine.swl.swl_declaration`. Cost: per ordered pair of
both graphs (``2 n^2``) 100 bytes (colours, next ids, padded copies, pooled sorts, hashes) and the
rows ``[colour, w items]`` (``w`` = :func:`~wltools.refine.swl.row_width`) at ``32 (w + 1)``
bytes a pair capped at the block budget, plus the verified row store when the rows are grouped in
blocks; fitted to tracemalloc peaks of ``(100 + 24 (w + 1))`` bytes a pair at n = 60-200, d = 3-40.
"""

from __future__ import annotations

from ..distances import adjacency_matrix
from ..errors import UnknownNameError
from ..refine.cost_terms import BLOCK_FACTOR, DEFAULT_MAX_BYTES, default_degree, overhead_bytes
from ..refine.swl import SWL_CLASSES, refine_swl, refine_swl_reference, row_width, swl_declaration
from .base import WLTest

#: What a node's colour is in a drawing, by pooling.
_DRAW = {"all": ("pair", "the colour of the pair (v, v)", False),
         "VS": ("pair", "the colour of its subgraph G^v (the multiset of chi(v, w) over w)", True),
         "SV": ("pair", "the multiset of its colours chi(w, v) across the subgraphs G^w", True)}


def _subgraph_wl(spec) -> WLTest:
    name = spec.name

    def declaration(G, H, *, labels=None):
        if not G.number_of_nodes():
            raise UnknownNameError(f"{name} has no kernel declaration on empty graphs")
        return swl_declaration(name, adjacency_matrix(G), adjacency_matrix(H), labels=labels)

    def peak_bytes(n: int, m: int, *, max_degree: int | None = None, **_) -> int:
        n, m = max(int(n), 0), max(int(m), 0)
        pairs, w = 2 * n * n, row_width(name, default_degree(n, m, max_degree)) + 1
        rows = pairs * w * BLOCK_FACTOR
        store = min(pairs * w * 8, DEFAULT_MAX_BYTES) if rows > DEFAULT_MAX_BYTES else 0  # blocked rounds only
        return overhead_bytes(n) + pairs * 100 + min(rows, DEFAULT_MAX_BYTES) + store

    return WLTest(
        name, spec.label, "subgraphs" if spec.init == "marking" else "pairs", spec.source,
        declaration=declaration,
        fast_path=lambda G, H, *, labels=None: refine_swl(G, H, name, labels=labels),
        reference=lambda G, H, *, labels=None: refine_swl_reference(G, H, name, labels=labels),
        peak_bytes=peak_bytes, hom_family=name,  # its entry in wltools.hom.families, where characterised
        draw=_DRAW[spec.pooling], collection="pairwise",
        group="subgraph-wl")


TESTS = tuple(_subgraph_wl(spec) for spec in SWL_CLASSES.values())
