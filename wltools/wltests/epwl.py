"""EPWL, eigenspace projection WL over the adjacency matrix (``epwl``) or the Laplacian ``D - A``
(``epwl-lap``) (Zhang, Zhao & Maron, ICML 2024, Sec. 3; Gai et al. 2025, Sec. 3.1), exact through
walk counts (:mod:`wltools.refine.epwl`).

.. math:: \\chi^{t+1}(v) = \\mathrm{hash}\\big(\\chi^t(v), \\{\\!\\{((P_\\lambda)_{vu})_\\lambda, \\chi^t(u)) : u \\in V\\}\\!\\}\\big)

Declared on the kernel by :func:`~wltools.refine.epwl.epwl_declaration`; its fast path
:func:`~wltools.refine.epwl.refine_epwl` first tries the annihilated keys. Node labels enter the
initial colours; edge labels are refused. Cost: the residues of ``B^k`` modulo ``P`` primes for
both graphs, their int64 columns and the stacked rows :func:`~wltools.runtime.hashing.unique_rows`
sorts, about ``(10 P + 16) n^2`` eight-byte items (fitted to tracemalloc peaks of 9.8-14.9
``P n^2`` items at n = 60-200), then the refinement as GD-WL's.

Homomorphism family: ``epwl`` is the spectral invariant refinement of Gai, Du, Zhang, Maron & Wang
(ICLR 2025, arXiv 2503.00485, Sec. 2.1) over the adjacency matrix (:mod:`wltools.refine.epwl`),
refined to stable colours, the model class spectral invariant GNN (:mod:`wltools.hom.families`);
``epwl-lap`` (the Laplacian) has no published characterisation.
"""

from __future__ import annotations

from ..refine.cost_terms import BLOCK_FACTOR, DEFAULT_MAX_BYTES, default_degree, epwl_prime_count, overhead_bytes
from ..refine.cost_terms import store_bytes
from ..refine.epwl import MATRICES, epwl_declaration, refine_epwl, refine_epwl_reference, walk_keys
from .base import WLTest

_NOTE = "EPWL is defined on the adjacency / Laplacian matrix; edge labels do not enter it"


def _epwl(name: str, label: str, matrix: str, scale: int, srg_equal: str) -> WLTest:
    def peak_bytes(n: int, m: int, *, max_degree: int | None = None, **_) -> int:
        n, m = max(int(n), 0), max(int(m), 0)
        W = DEFAULT_MAX_BYTES
        P = epwl_prime_count(n, default_degree(n, m, max_degree) * scale)
        keys, residues = 2 * n * n * 8 * 3, n * n * 8 * (10 * P + 16)
        rows = store_bytes(n, 2 * n, W) + min(n * n * BLOCK_FACTOR, W)
        return overhead_bytes(n) + max(keys, residues) + rows + 8 * 8 * 2 * n

    return WLTest(
        name, label, "nodes", f"Zhang, Zhao & Maron, ICML 2024, Sec. 3; Gai et al. 2025, Sec. 3.1 ({matrix})",
        declaration=lambda G, H, *, labels=None: epwl_declaration(G, H, name, labels=labels),
        fast_path=lambda G, H, *, labels=None: refine_epwl(G, H, name, labels=labels),
        reference=lambda G, H, *, labels=None: refine_epwl_reference(G, H, name, labels=labels),
        labels="nodes", label_note=_NOTE, peak_bytes=peak_bytes, hom_family="spectral invariant GNN" if scale == 1 else None,
        draw=("node", "its colour", False), group="extra",
        pair_keys=lambda graphs: walk_keys(graphs, MATRICES[name]), srg_equal=srg_equal)


EPWL = _epwl("epwl", "EPWL", "adjacency matrix", 1,
             "the projections of A are polynomials in A, hence functions of (u = v, adjacent, not)")
EPWL_LAP = _epwl("epwl-lap", "EPWL-L", "Laplacian", 2, "L = kI - A for k-regular graphs: the same projections as A")

TESTS = (EPWL, EPWL_LAP)
