"""3-WL as the 2-dimensional folklore WL test, 2-FWL (Cai, Fürer & Immerman 1992; Morris et al.,
AAAI 2019; Grohe, Descriptive Complexity, Canonisation, and Definable Graph Structure Theory 2017).

.. math:: \\chi^{t+1}(u, v) = \\mathrm{hash}\\big(\\chi^t(u, v), \\{\\!\\{(\\chi^t(u, w), \\chi^t(w, v)) : w \\in V\\}\\!\\}\\big)

Declared on the kernel by :func:`~wltools.refine.fwl.fwl2_declaration`. Cost: the ``n x n``
colour matrices and hashes of both graphs, and blocks over the first node whose work arrays and
verified row store stay below the block budget each.

Homomorphism family: 3-WL is 2-FWL (Eq. 4 of Zhang, Gai, Du, Ye, He & Wang, ICLR 2024, arXiv
2401.08514, Sec. 2), the model class 2-FGNN (:mod:`wltools.hom.families`).
"""

from __future__ import annotations

from ..refine.cost_terms import BLOCK_FACTOR, DEFAULT_MAX_BYTES, overhead_bytes, store_bytes
from ..refine.fwl import fwl2_declaration, refine_fwl2_reference
from ..refine.swl import ZHANG_2024_CHAIN
from ..testing.references import fwl2_classes
from .base import WLTest


def peak_bytes(n: int, m: int, **_) -> int:
    """Per ordered pair of both graphs 64 bytes (colours, hashes, ids, unique's sort and
    inverse), the block of ``(u, w, v)`` items and the store, each capped at the budget."""
    n = max(int(n), 0)
    W = DEFAULT_MAX_BYTES
    pairs = 2 * n * n
    return overhead_bytes(n) + pairs * 8 * 8 + min(n**3 * BLOCK_FACTOR, W) + store_bytes(n, pairs, W)


FWL2 = WLTest(
    "3wl", "3-WL", "pairs", "Cai, Fürer & Immerman 1992 (2-FWL); Morris et al., AAAI 2019",
    declaration=lambda G, H, *, labels=None: fwl2_declaration(G, H, labels=labels),
    reference=lambda G, H, *, labels=None: refine_fwl2_reference(G, H, labels=labels),
    peak_bytes=peak_bytes, hom_family="2-FGNN", level_readout="pairs",
    draw=("pair", "the colour of the pair (v, v)", False),
    group="default", aliases=("2fwl",), max_nodes=1000, classes=fwl2_classes,
    srg_equal="strongly regular graphs with equal parameters are 3-WL (2-FWL)-equivalent",
    strictly_above=(("slfwl2", f"{ZHANG_2024_CHAIN} (Local 2-FGNN < 2-FGNN)"),))

TESTS = (FWL2,)
