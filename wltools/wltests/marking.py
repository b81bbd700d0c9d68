"""M1 and M2, BREC's node-marking baselines (Wang & Zhang, BREC, Sec. 5, Table 2;
``Non-GNNs/utils.py``): the multiset of the stable 1-WL classes of the graph with one node (M1) or
one ordered node pair (M2) marked, every marked copy refined jointly on the kernel
(:mod:`wltools.refine.marking`), defined on unlabelled graphs. M1 is SWL(VS) at graph level
(its homomorphism family); M2 is bounded by 4-WL only.

Homomorphism family: M1 (the multiset of 1-WL colourings of the graph with one node marked) is the
same refinement as ``swl-vs``, Eq. 2 of Zhang, Gai, Du, Ye, He & Wang (ICLR 2024, arXiv
2401.08514, Sec. 2): the model class Subgraph GNN, SWL(VS)'s, the subgraph WL class that marks one
node, aggregates over its neighbours in each marked copy and pools the copies (Zhang et al., ICML
2023, Sec. 4; :mod:`wltools.wltests.subgraph_wl`, :mod:`wltools.hom.families`). M2 has no
published characterisation.

Not one refinement (many marked copies), so without a single declaration. Cost: the ``C n``
nodes of ``C = 2 n`` (M1) or ``2 n (n - 1)`` (M2) marked copies (fewer with automorphisms: not
counted), each refined for up to ``n`` rounds of ``O(C n d)`` work, ``8 (7 (d + 1) + 16)`` bytes a
copied node, then 1-WL on the pair's rows: an upper fit of tracemalloc peaks on G(n, 1/2) at
n = 6-30 (0.5-0.9x of it; the former ``8 (4 (d + 1) + 8)`` fell 1.3-1.5x below the peaks at
n >= 10, found by :func:`wltools.testing.check_test`'s ``cost`` check).
"""

from __future__ import annotations

from ..refine.cost_terms import default_degree, seeded_bytes
from ..refine.marking import refine_marking
from .base import WLTest
from .substructure import NOTE


def _batch_path(name: str):
    """M1's batched route (:attr:`WLTest.batch_path`): the marked copies of many pairs refined in
    one union (:mod:`wltools.refine.batch.marking`)."""

    def batch_path(u, pairs: list) -> list:
        from ..refine.batch.marking import marking_results  # the batch package reads the registry

        return marking_results(u, pairs, name)

    return batch_path


def _marking(name: str, marks: int) -> WLTest:
    def peak_bytes(n: int, m: int, *, max_degree: int | None = None, **_) -> int:
        n, m = max(int(n), 0), max(int(m), 0)
        d = default_degree(n, m, max_degree)
        copies = 2 * n if marks == 1 else 2 * n * max(n - 1, 0)
        return seeded_bytes(n, d) + copies * n * 8 * (7 * (d + 1) + 16)

    return WLTest(
        name, name.upper(), "marked copies", "Wang & Zhang, BREC, Sec. 5, Table 2; Non-GNNs/utils.py",
        fast_path=lambda G, H, *, labels=None: refine_marking(G, H, marks, name),
        reference=lambda G, H, *, labels=None: refine_marking(G, H, marks, name, reference=True),
        labels="none", label_note=NOTE, peak_bytes=peak_bytes, hom_family="Subgraph GNN" if marks == 1 else None,
        level_readout="marked" if marks == 1 else None,
        collection="pairwise", group="baseline", beyond_3wl=marks == 2, time_power=3 + (marks == 2),
        batch_path=_batch_path(name) if marks == 1 else None)


M1 = _marking("m1", 1)
M2 = _marking("m2", 2)

TESTS = (M1, M2)
