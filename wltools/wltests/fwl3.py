"""4-WL as the 3-dimensional folklore WL test, 3-FWL (Cai, Fürer & Immerman 1992; Zhang et al.,
ICLR 2024, Sec. 3.4), ``n^4`` work per round: run only when named (``all,3fwl``).

.. math:: \\chi^{t+1}(u, v, x) = \\mathrm{hash}\\big(\\chi^t(u, v, x), \\{\\!\\{(\\chi^t(w, v, x), \\chi^t(u, w, x), \\chi^t(u, v, w)) : w \\in V\\}\\!\\}\\big)

Declared on the kernel by :func:`~wltools.refine.fwl3.fwl3_declaration`. Cost: per ordered triple
of both graphs (``2 n^3``) :data:`PER_TRIPLE` bytes (colours, the next round's ids, the
transposed colours, the histogram copies), the block of ``(u, v, x, w)`` items (capped at the
budget), the verified row store (capped) and the row grouper's 64 bytes per colour class, with as
many classes as triples in the worst case: an upper fit of the full round's tracemalloc peaks
(n = 20-80: 1.2-1.6x on random cubic graphs); the symmetric round, which graphs with few classes
take (BREC's CFI pairs), needs less.

Time: up to about :data:`ROUND_ITEM_SECONDS` per ``(u, v, x, w)`` item and round, ``n^4`` items: the
full round over all triples, measured on BREC's four largest CFI pairs (154-198 vertices) at
4.0-4.7e-8 CPU-s per item and round (``benchmarks/results/fwl3_largest.json``, revision 5f3a69e).
The symmetric round (:mod:`wltools.refine.fwl3_symmetric`) takes about 9e-9 there, 4.1-4.5x less:
BREC's largest CFI pair (198 vertices, 4 rounds) in 55 CPU-s against 245. A guide shown before the
work (``wltools check``), not a limit.

Homomorphism family: the 3-dimensional folklore test, the model class 3-FGNN (3-FWL = 4-WL) of
Zhang, Gai, Du, Ye, He & Wang (ICLR 2024, arXiv 2401.08514, Sec. 3.4, Theorem 3.10 with k = 3)
(:mod:`wltools.hom.families`).
"""

from __future__ import annotations

from ..refine.cost_terms import BLOCK_FACTOR, DEFAULT_MAX_BYTES, overhead_bytes, store_bytes
from ..refine.fwl3 import fwl3_declaration, refine_fwl3_reference
from ..testing.references import fwl3_classes
from .base import WLTest

#: Bytes per ordered triple besides the blocks.
PER_TRIPLE = 48
#: Seconds per item and round of the full round, an upper guide (module docstring).
ROUND_ITEM_SECONDS = 5e-8


def peak_bytes(n: int, m: int, **_) -> int:
    """Triples, the item block and the store (module docstring)."""
    n = max(int(n), 0)
    W = DEFAULT_MAX_BYTES
    triples = 2 * n**3
    return overhead_bytes(n) + triples * (PER_TRIPLE + 64) + min(n**4 * BLOCK_FACTOR, W) + store_bytes(n, triples, W)


FWL3 = WLTest(
    "3fwl", "4-WL (3-FWL)", "triples", "Cai, Fürer & Immerman 1992; Zhang et al., ICLR 2024, Sec. 3.4",
    declaration=lambda G, H, *, labels=None: fwl3_declaration(G, H, labels=labels),
    reference=lambda G, H, *, labels=None: refine_fwl3_reference(G, H, labels=labels),
    peak_bytes=peak_bytes, hom_family="3-FGNN", collection="pairwise", group="on-request", beyond_3wl=True,
    time_power=4, round_item_seconds=ROUND_ITEM_SECONDS, max_nodes=120, classes=fwl3_classes,
    strictly_above=(("3wl", "Zhang, Gai, Du, Ye, He & Wang, ICLR 2024 (arXiv 2401.08514), Sec. 3.4, Theorem 3.10 "
                            "(k = 2 against k = 3); Cai, Fürer & Immerman 1992"),))

TESTS = (FWL3,)
