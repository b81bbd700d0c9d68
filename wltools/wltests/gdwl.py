"""GD-WL, generalised-distance WL (Zhang, Luo, Wang & He, ICLR 2023, Sec. 4, Eq. 4), with the
shortest-path distance (SPD-WL), the resistance distance (RD-WL) and RRWP, the random-walk
probabilities ``[I, M, ..., M^(K-1)]`` (Ma et al., GRIT, ICML 2023, Eq. 1 and 4; PPGT App. E Eq. 13).

.. math:: \\chi^{t+1}(v) = \\mathrm{hash}\\big(\\chi^t(v), \\{\\!\\{(d(v, u), \\chi^t(u)) : u \\in V\\}\\!\\}\\big)

Declared on the kernel by :func:`~wltools.refine.gdwl.gdwl_declaration`. Cost models (``s`` =
bytes of one distance key, ``W`` the block budget): ``spd`` two ``n x n`` key matrices of ``s``
bytes, the BFS block, the verified row store and the row blocks (kept below ``W``); ``rd`` as
``spd`` with int64 keys plus the multi-modular adjugates of the largest component; ``rrwp`` as
``spd`` with int64 keys plus the residues of ``B^k`` modulo ``P`` primes (in chunks below
:data:`~wltools.distances.rrwp.RESIDUE_BUDGET`) and the walk certificate's arrays above
:data:`~wltools.distances.adjacency.SMALL_N` nodes (an upper fit of tracemalloc peaks at n = 80-400).
"""

from __future__ import annotations

import math

from ..refine.cost_terms import BLOCK_FACTOR, DEFAULT_MAX_BYTES, block_rows, key_itemsize, overhead_bytes
from ..refine.cost_terms import rrwp_prime_count, store_bytes
from ..refine.gdwl import gdwl_declaration, refine_gdwl_reference
from ..testing.references import rd_classes, rrwp_classes, spd_classes
from .base import WLTest

_SOURCE = "Zhang, Luo, Wang & He, ICLR 2023, Sec. 4, Eq. 4"


def _common(n: int) -> tuple[int, int, int]:
    """The terms every GD-WL test has: overhead, verified row store + row block, colours."""
    W = DEFAULT_MAX_BYTES
    return overhead_bytes(n), store_bytes(n, 2 * n, W) + min(n * n * BLOCK_FACTOR, W), 8 * 8 * 2 * n


def spd_bytes(n: int, m: int, **_) -> int:
    """Two ``n x n`` key matrices, the BFS block, the store, the row block and the colours."""
    n = max(int(n), 0)
    base, rows, colours = _common(n)
    bfs = min(n, block_rows(n, 1)) * n * 8
    return base + 2 * n * n * key_itemsize(n) + bfs + rows + colours


def rd_bytes(n: int, m: int, **_) -> int:
    """Int64 keys, or the multi-modular adjugates (measured 387 MiB at n = 500,
    benchmarks/results/refine_scaling.json), whichever is larger, then the refinement."""
    n, m = max(int(n), 0), max(int(m), 0)
    base, rows, colours = _common(n)
    keys = 2 * n * n * 8 * 3  # int64 keys of both graphs and the renumbering copies
    primes = max(1, math.ceil((n * math.log2(max(m / max(n, 1) * 2, 2)) + 2 * math.log2(n + 2)) / 26))
    modular = n * n * 8 * (primes * 6 + 8)  # adjugate, numerator and digit residues, x2 temporaries
    return base + max(keys, modular) + rows + colours


def rrwp_bytes(n: int, m: int, *, rrwp_steps: int | None = None, max_degree: int | None = None,
               lcm_degrees: int | None = None, **_) -> int:
    """Int64 keys, the residues of ``B^k`` or the walk certificate, whichever is larger, then the
    refinement (module docstring)."""
    from ..distances.adjacency import SMALL_N
    from ..distances.rrwp import RESIDUE_BUDGET
    from ..distances.walk_certificate import CERTIFICATE_MAX_ITEMS

    n, m = max(int(n), 0), max(int(m), 0)
    base, rows, colours = _common(n)
    keys = 2 * n * n * 8 * 3
    K = rrwp_steps if rrwp_steps is not None else n
    P = rrwp_prime_count(n, int(lcm_degrees) if lcm_degrees else 60, max(1, K), max_degree)
    residues = min(n * n * 8 * (2 * P + 2 * P + 4), RESIDUE_BUDGET + n * n * 8 * 8)
    pairs = 2 * n * n
    if max_degree is not None:
        d = int(max_degree)
    else:  # the widest certificate that could run: its arrays grow with d up to the item cap
        d = max(math.ceil(2 * m / max(n, 1)), min(n - 1, CERTIFICATE_MAX_ITEMS // (3 * max(pairs, 1))))
    certified = SMALL_N < n and 3 * pairs * d <= CERTIFICATE_MAX_ITEMS  # as rrwp_keys decides
    certificate = 8 * pairs * (4 * (d + 1) + 28) if certified else 0
    return base + max(keys, residues, certificate) + rows + colours


def _gdwl(name: str, label: str, peak_bytes, sources: str, keyed: bool, classes) -> WLTest:
    def declaration(G, H, *, labels=None, rrwp_steps=None):
        return gdwl_declaration(G, H, (name,), rrwp_steps=rrwp_steps, test=name, labels=labels)

    def reference(G, H, *, labels=None, rrwp_steps=None):
        return refine_gdwl_reference(G, H, (name,), rrwp_steps=rrwp_steps, test=name, labels=labels)

    def pair_keys(graphs):
        from ..distances import distance_keys

        return distance_keys(graphs, name)

    return WLTest(name, label, "nodes", sources, declaration=declaration, reference=reference,
                  pair_keys=pair_keys if keyed else None, classes=classes,
                  peak_bytes=peak_bytes, draw=("node", "its colour", False), group="default",
                  options=("rrwp_steps",))


SPD = _gdwl("spd", "SPD-WL", spd_bytes, _SOURCE + " (shortest-path distance)", False, spd_classes)
RD = _gdwl("rd", "RD-WL", rd_bytes, _SOURCE + " (resistance distance)", True, rd_classes)
RRWP = _gdwl("rrwp", "RRWP-WL", rrwp_bytes, "Ma et al., GRIT, ICML 2023, Eq. 1 and 4; PPGT App. E Eq. 13", True,
             rrwp_classes)

TESTS = (SPD, RD, RRWP)
