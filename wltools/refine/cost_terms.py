"""The terms the tests' cost models share (:mod:`wltools.refine.cost`): key widths, prime
counts, the verified row store, the Python-level overhead. Each test's own model lives in its
module of :mod:`wltools.wltests` (its ``peak_bytes``).
"""

from __future__ import annotations

import math

from .kernel import BLOCK_FACTOR, DEFAULT_MAX_BYTES, block_rows

__all__ = ["key_itemsize", "rrwp_prime_count", "epwl_prime_count", "store_bytes", "overhead_bytes",
           "default_degree", "seeded_bytes", "BLOCK_FACTOR", "DEFAULT_MAX_BYTES", "block_rows"]


def overhead_bytes(n: int) -> int:
    """Python-level overhead of a pair refinement: relabelling dicts, the result, small arrays."""
    return 64 * 1024 + 120 * n


def default_degree(n: int, m: int, max_degree: int | None) -> int:
    """The largest degree given, else that of ``m`` edges spread evenly, at least 6."""
    return int(max_degree) if max_degree is not None else max(6, math.ceil(2 * m / max(n, 1)))


def key_itemsize(n: int) -> int:
    """Bytes of one SPD key (``d + 1``, ``0`` = unreachable) for graphs of ``n`` nodes.

    Examples
    --------
    >>> key_itemsize(200), key_itemsize(5000), key_itemsize(100_000)
    (1, 2, 4)
    """
    return 1 if n + 1 < 2**8 else (2 if n + 1 < 2**16 else 4)


def rrwp_prime_count(n: int, lcm_degrees: int, steps: int, max_degree: int | None = None) -> int:
    """Number of primes :func:`wltools.distances.rrwp_keys` uses: ``p < min(2^40, 2^53 / (d L))``
    (``d`` the largest degree, at most ``n - 1``: ``n`` when not given) until their product
    exceeds ``L^(K-1)``.

    Examples
    --------
    >>> rrwp_prime_count(100, 6, 32)
    3
    """
    d = max_degree if max_degree is not None else n
    pmax = min(2**53 // (max(d, 1) * lcm_degrees + 1), 2**40)
    bits = (steps - 1) * math.log2(max(lcm_degrees, 1))
    return max(1, math.ceil((bits + 1) / (math.log2(pmax) - 0.01)))


def epwl_prime_count(n: int, row_sum: int) -> int:
    """Number of primes :func:`wltools.refine.epwl.walk_keys` uses for walks of length ``0..n``:
    ``p < min(2^40, 2^53 / (b + 1))`` until their product exceeds ``2 b^n``, ``b`` the largest
    absolute row sum of the graph matrix (the maximum degree for ``A``, twice it for ``L``).

    Examples
    --------
    >>> epwl_prime_count(200, 3), epwl_prime_count(200, 6)
    (8, 13)
    """
    b = max(int(row_sum), 1)
    pmax = min(2**40, 2**53 // (b + 1))
    p_bits = math.log2(pmax) - 0.01
    return max(1, math.ceil((1 + n * math.log2(b)) / p_bits))


def store_bytes(n: int, rows: int, max_bytes: int) -> int:
    """Verified row store: at most ``rows`` sorted int64 rows of ``n`` items, capped at the budget."""
    return min(rows * n * 8, max_bytes)


def seeded_bytes(n: int, d: int) -> int:
    """What every BREC non-GNN baseline (S3, S4, N_K, M1, M2) allocates besides its own keys: the
    keys and dicts of the shared table, the result, and the 1-WL rows of the pair (padded
    ``2 n x (d + 1)`` neighbour rows, their sorted copy, ``unique_rows``)."""
    return 64 * 1024 + 400 * n + 2 * n * (d + 2) * 8 * 4
