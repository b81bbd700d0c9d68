"""1-WL, colour refinement (Weisfeiler & Leman 1968; Morris et al., AAAI 2019, Sec. 2; the
message-passing bound of Xu et al., ICLR 2019, Theorem 3).

.. math:: \\chi^{t+1}(v) = \\mathrm{hash}\\big(\\chi^t(v), \\{\\!\\{(\\chi^t(u), \\ell(uv)) : u \\in N(v)\\}\\!\\}\\big)

Declared on the kernel by :func:`~wltools.refine.wl1.wl1_declaration`; its fast path
:func:`~wltools.refine.wl1.refine_wl1` touches only the nodes that can change. Cost: sparse
partition refinement, ``O(n + m)`` memory (CSR arrays of both graphs and the per-round work arrays).

Homomorphism family: 1-WL is Eq. 1 (MPNN colour refinement) of Zhang, Gai, Du, Ye, He & Wang
(ICLR 2024, arXiv 2401.08514, Sec. 2), the model class MPNN (:mod:`wltools.hom.families`).
"""

from __future__ import annotations

from ..refine.cost_terms import overhead_bytes
from ..refine.wl1 import refine_wl1, refine_wl1_reference, wl1_declaration
from ..testing.references import wl1_classes
from .base import WLTest


def peak_bytes(n: int, m: int, **_) -> int:
    """CSR arrays of both graphs and the per-round work arrays (fitted to tracemalloc peaks)."""
    n, m = max(int(n), 0), max(int(m), 0)
    return overhead_bytes(n) + 8 * (30 * n + 28 * m)


WL1 = WLTest(
    "1wl", "1-WL", "nodes", "Weisfeiler & Leman 1968; Morris et al., AAAI 2019, Sec. 2",
    declaration=lambda G, H, *, labels=None: wl1_declaration(G, H, labels=labels),
    fast_path=lambda G, H, *, labels=None: refine_wl1(G, H, labels=labels),
    reference=lambda G, H, *, labels=None: refine_wl1_reference(G, H, labels=labels),
    peak_bytes=peak_bytes, hom_family="MPNN", level_readout="node", draw=("node", "its colour", False), group="default",
    classes=wl1_classes, srg_equal="strongly regular graphs with equal parameters are 1-WL-equivalent")

TESTS = (WL1,)
