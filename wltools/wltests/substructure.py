"""S3 and S4, BREC's non-GNN baselines from substructure counts (Wang & Zhang, BREC, Sec. 5,
Table 2; ``Non-GNNs/utils.py``): 1-WL started from every node's counts of the connected induced
3-node (S3) or 4-node (S4) subgraphs through it (:mod:`wltools.refine.substructure`), defined on
unlabelled graphs.

Declared on the kernel by :func:`~wltools.refine.substructure.substructure_declaration`. Cost
(``d`` the largest degree): ``s3`` dense ``n x n`` products; ``s4`` the arrays of the
``sum d_u d_v <= 2 m d^2`` ordered 3-edge paths and ``sum d_v^2`` neighbour pairs, or the dense
matrix products up to 4,096 nodes; then 1-WL on the padded neighbour rows.
"""

from __future__ import annotations

from ..refine.cost_terms import default_degree, seeded_bytes
from ..refine.substructure import ENUMERATION_BYTES, refine_substructure, refine_substructure_reference
from ..refine.substructure import substructure_counts, substructure_declaration
from ..testing.references import substructure_classes
from .base import WLTest

#: Why labels are refused (BREC's baselines are defined on unlabelled graphs).
NOTE = "a BREC non-GNN baseline, defined on unlabelled graphs"

_SOURCE = "Wang & Zhang, BREC, Sec. 5, Table 2; Non-GNNs/utils.py"


def s3_bytes(n: int, m: int, *, max_degree: int | None = None, **_) -> int:
    """Dense ``n x n`` products up to 4,096 nodes, else per-edge neighbour intersections."""
    n, m = max(int(n), 0), max(int(m), 0)
    d = default_degree(n, m, max_degree)
    dense = n * n * 25 if n <= 4096 else 0  # bool and float64 adjacency and its product
    return seeded_bytes(n, d) + (dense or 16 * 2 * m * d)


def s4_bytes(n: int, m: int, *, max_degree: int | None = None, **_) -> int:
    """The enumeration of ordered 3-edge paths and claws, or the dense products (module docstring)."""
    n, m = max(int(n), 0), max(int(m), 0)
    d = default_degree(n, m, max_degree)
    paths = 2 * m * max(d - 1, 0) ** 2  # ordered 3-edge paths through each directed edge
    pairs = 2 * m * d  # ordered pairs of neighbours, and the claws grown from them
    enumeration = n * n + 112 * paths + 80 * pairs + 48 * min(pairs * d, paths + pairs)
    if n <= 4096:  # dense graphs take the matrix products: about ten float64 n x n matrices
        enumeration = min(enumeration, 80 * n * n + ENUMERATION_BYTES)
    return seeded_bytes(n, d) + enumeration


def _batch_path(name: str, k: int):
    """The batched route of S``k`` (:attr:`WLTest.batch_path`): 1-WL over a union of many pairs
    from the ``k``-node counts of all its nodes (:mod:`wltools.refine.batch.counts`)."""

    def batch_path(u, pairs: list) -> list:
        from ..refine.batch.counts import union_counts_keys  # the batch package reads the registry
        from ..refine.batch.keyed import keyed_results

        return keyed_results(u, pairs, name, union_counts_keys(k))

    return batch_path


def _substructure(name: str, k: int, peak_bytes, beyond_3wl: bool) -> WLTest:
    return WLTest(
        name, name.upper(), "nodes", _SOURCE,
        declaration=lambda G, H, *, labels=None: substructure_declaration(G, H, name),
        fast_path=lambda G, H, *, labels=None: refine_substructure(G, H, name),  # the kernel, after check_pair
        reference=lambda G, H, *, labels=None: refine_substructure_reference(G, H, name),
        labels="none", label_note=NOTE, peak_bytes=peak_bytes,
        draw=("node", f"1-WL colour from its counts of induced {k}-node subgraphs", False),
        group="baseline", beyond_3wl=beyond_3wl, time_power=2,
        node_keys=lambda G, cache=None: substructure_counts(G, k), batch_path=_batch_path(name, k),
        classes=substructure_classes(k))


S3 = _substructure("s3", 3, s3_bytes, False)
S4 = _substructure("s4", 4, s4_bytes, True)

TESTS = (S3, S4)
