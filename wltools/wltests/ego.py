"""N_K, BREC's ego-network baseline (Wang & Zhang, BREC, Sec. 5, Table 2; ``Non-GNNs/utils.py``):
1-WL started from the isomorphism class of every node's radius-``K`` ego network
(:mod:`wltools.refine.ego`), for any ``K >= 1`` (``n1``, ``n2``, ... ``nK``), defined on
unlabelled graphs. An ego network's class is beyond 3-WL (N1 separates strongly regular pairs
with equal parameters).

Declared on the kernel by :func:`~wltools.refine.ego.ego_declaration`. Cost (``d`` the largest
degree): the ``n x n`` reach matrix and one certificate per node of a ball of
``b = min(n, 1 + d + ... + d (d - 1)^(K - 1))`` nodes, then 1-WL on the padded neighbour rows.
"""

from __future__ import annotations

import functools

from ..refine.cost_terms import default_degree, seeded_bytes
from ..refine.ego import ego_declaration, ego_keys, refine_ego, refine_ego_reference
from .base import WLTest
from .substructure import NOTE

#: The members of the family in the default lists.
DEFAULT_RADII = (1, 2)


def ego_radius(name) -> int | None:
    """``K`` of the ego-network test ``nK`` (``"n3"`` -> 3, any ``K >= 1``), else None.

    Examples
    --------
    >>> ego_radius("n3"), ego_radius("n1"), ego_radius("n0"), ego_radius("1wl")
    (3, 1, None, None)
    """
    if (isinstance(name, str) and len(name) > 1 and name[0] == "n" and name[1:].isascii()
            and name[1:].isdigit() and int(name[1:]) >= 1):
        return int(name[1:])
    return None


def _bytes(k: int):
    def peak_bytes(n: int, m: int, *, max_degree: int | None = None, **_) -> int:
        n, m = max(int(n), 0), max(int(m), 0)
        d = default_degree(n, m, max_degree)
        ball, layer = 1, 1
        for i in range(min(k, n)):  # a ball stops growing after n - 1 hops
            layer *= d if i == 0 else max(d - 1, 1)
            ball = min(n, ball + layer)
        certificate = 8 * ball * ((ball + 63) // 64) + 8 * ball + 200
        return seeded_bytes(n, d) + 9 * n * n + n * certificate + ball * ball

    return peak_bytes


def _batch_path(name: str, k: int):
    """The batched route of N``k`` (:attr:`WLTest.batch_path`): 1-WL over a union of many pairs
    from the radius-``k`` ego-network keys of all its nodes (:mod:`wltools.refine.batch.ego`)."""

    def batch_path(u, pairs: list) -> list:
        from ..refine.batch.ego import union_ego_keys  # the batch package reads the registry
        from ..refine.batch.keyed import keyed_results

        return keyed_results(u, pairs, name, union_ego_keys(k))

    return batch_path


@functools.lru_cache(maxsize=64)
def test(k: int) -> WLTest:
    """The ego-network test of radius ``k``."""
    name = f"n{k}"
    return WLTest(
        name, f"N{k}", "nodes", "Wang & Zhang, BREC, Sec. 5, Table 2; Non-GNNs/utils.py",
        declaration=lambda G, H, *, labels=None: ego_declaration(G, H, k, name),
        fast_path=lambda G, H, *, labels=None: refine_ego(G, H, k, name),  # the kernel, after check_pair
        reference=lambda G, H, *, labels=None: refine_ego_reference(G, H, k, name),
        labels="none", label_note=NOTE, peak_bytes=_bytes(k),
        draw=("node", f"1-WL colour from the class of its radius-{k} ego network", False),
        group="baseline", beyond_3wl=True, time_power=2,
        node_keys=lambda G, cache=None: ego_keys(G, k, cache), batch_path=_batch_path(name, k))


TESTS = tuple(test(k) for k in DEFAULT_RADII)
