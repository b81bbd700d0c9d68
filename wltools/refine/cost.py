"""Peak memory of exact refinement, stated before it starts.

:func:`peak_bytes` estimates the peak memory (bytes allocated by numpy and Python while refining,
as :mod:`tracemalloc` counts them, not counting the two input graphs) of
:func:`wltools.refine.refine_pair` on two graphs of ``n`` nodes and ``m`` edges each. The CLI uses it
to refuse inputs that would not fit; the tests check it against measured peaks.

The models, per test (``s`` = bytes of one distance key, 1, 2 or 4 by ``n``; ``W`` = the block
workspace budget :data:`DEFAULT_MAX_BYTES`):

* ``1wl``: sparse partition refinement, ``O(n + m)``: CSR arrays of both graphs and the per-round
  work arrays (:mod:`wltools.refine.wl1`).
* ``spd``: two ``n x n`` key matrices of ``s`` bytes each, the BFS block, the verified row store
  (one sorted row per colour class, at most ``2n`` rows of ``n`` int64) and the row blocks, which
  :mod:`wltools.refine.grouping` keeps below ``W``.
* ``rd``: as ``spd`` with int64 keys, plus the multi-modular adjugates of the largest component
  (one ``n x n`` int64 residue matrix per prime, :mod:`wltools.distances.resistance`).
* ``rrwp``: as ``spd`` with int64 keys, plus the larger of the residues of ``B^k`` modulo ``P``
  primes (``P x n x n`` float64 per graph, :mod:`wltools.distances.rrwp`, in chunks of primes
  below :data:`~wltools.distances.rrwp.RESIDUE_BUDGET`; the check of what the walk certificate
  leaves) and the certificate's arrays above :data:`~wltools.distances.adjacency.SMALL_N` nodes
  (``8 (4 (d + 1) + 28)`` bytes per pair for maximum degree ``d``, an upper fit of tracemalloc
  peaks at n = 80-400, :mod:`wltools.distances.walk_certificate`).
* ``3wl``: the ``n x n`` colour matrices and hashes of both graphs, and blocks over the first node
  whose work arrays and verified row store stay below ``W`` each (:mod:`wltools.refine.fwl`).
* ``epwl``, ``epwl-lap``: the residues of ``B^k`` modulo ``P`` primes for both graphs, their int64
  columns and the stacked rows that :func:`wltools.runtime.hashing.unique_rows` sorts
  (:func:`wltools.refine.epwl.walk_keys`): about ``(10 P + 16) n^2`` eight-byte items (fitted to
  tracemalloc peaks of 9.8-14.9 ``P n^2`` items at n = 60-200), then the refinement as ``rrwp``.
* ``3fwl``: per ordered triple of both graphs (``2 n^3``) :data:`_FWL3_PER_TRIPLE` bytes (colours,
  the next round's ids, the transposed colours, the engine's histogram copies), the block of
  ``(u, v, x, w)`` items (``n^4`` per graph, capped at ``W``), the verified row store (capped at
  ``W``) and :class:`~wltools.refine.grouping.RowGrouper`'s bookkeeping, 64 bytes per colour
  class, with as many classes as triples in the worst case (graphs without symmetry). An upper
  fit of tracemalloc peaks (n = 20-80: 1.2-1.6x on random cubic graphs, 1.5-2x on BREC CFI pairs,
  whose few classes need less; :mod:`wltools.refine.fwl3`).
* the subgraph WL tests (``swl-vs`` ... ``slfwl2``, :mod:`wltools.refine.swl`): per ordered pair of
  both graphs (``2 n^2``) 100 bytes (colours, next ids, padded copies, pooled sorts, hashes) and
  the rows ``[colour, w items]`` (``w`` = :func:`wltools.refine.swl.row_width`, about ``d`` to
  ``2 d + 2`` for largest degree ``d``) at ``32 (w + 1)`` bytes a pair, capped at ``W``, plus the
  verified row store (capped at ``W``) when the rows are grouped in blocks. Fitted to tracemalloc
  peaks of ``(100 + 24 (w + 1))`` bytes a pair at n = 60-200, d = 3-40.
* BREC's non-GNN baselines (:func:`_baseline_bytes`; ``d`` the largest degree): ``s3`` dense
  ``n x n`` products (``O(n^3)`` time); ``s4`` the arrays of the ``sum d_u d_v <= 2 m d^2``
  ordered 3-edge paths and ``sum d_v^2`` neighbour pairs (``O(m d^2 + n d^3)`` time); ``nK`` the
  ``n x n`` reach matrix and one certificate per node of a ball of ``b = min(n, 1 + d + ... +
  d (d - 1)^(K - 1))`` nodes (``O(n)`` canonical labellings of ``b`` nodes); ``m1`` / ``m2`` the
  ``C n`` nodes of ``C = 2 n`` / ``2 n (n - 1)`` marked copies (fewer with automorphisms: not
  counted), each refined for up to ``n`` rounds of ``O(C n d)`` work. Each then runs 1-WL on the
  padded ``2 n x (d + 1)`` neighbour rows.

Examples
--------
>>> peak_bytes("1wl", 100_000, 150_000) < 200 * 2**20
True
>>> peak_bytes("3wl", 500, 750) < 2 * 2**30
True
"""

from __future__ import annotations

import math

from ..errors import UnknownNameError
from .kernel import BLOCK_FACTOR, DEFAULT_MAX_BYTES, block_rows

__all__ = ["peak_bytes", "DEFAULT_MAX_BYTES", "key_itemsize", "rrwp_prime_count", "epwl_prime_count",
           "block_rows"]

_TESTS = ("1wl", "spd", "rd", "rrwp", "3wl", "epwl", "epwl-lap", "3fwl")
_SWL_TESTS = ("swl-vs", "swl-sv", "pswl-vs", "pswl-sv", "gswl", "sswl", "lfwl2", "slfwl2")  # names.SUBGRAPH_WL_TESTS

#: Bytes per ordered triple of 3-FWL besides the blocks (:func:`peak_bytes`).
_FWL3_PER_TRIPLE = 48

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


def _store(n: int, rows: int, max_bytes: int) -> int:
    """Verified row store: at most ``rows`` sorted int64 rows of ``n`` items, capped at the budget."""
    return min(rows * n * 8, max_bytes)


def peak_bytes(test: str, n: int, m: int, *, rrwp_steps: int | None = None,
               max_degree: int | None = None, lcm_degrees: int | None = None) -> int:
    """Estimated peak memory (bytes) of refining two graphs of ``n`` nodes and ``m`` edges each.

    Parameters
    ----------
    test : {"1wl", "spd", "rd", "rrwp", "3wl", "epwl", "epwl-lap", "3fwl"} or a subgraph WL test
        (:data:`~wltools.refine.names.SUBGRAPH_WL_TESTS`)
    n, m : int
        Nodes and edges of *each* graph.
    rrwp_steps : int, optional
        ``K`` of RRWP; default ``n`` (as :func:`wltools.refine.refine_pair`).
    max_degree : int, optional
        The largest degree of the two graphs (EPWL's prime count, RRWP's certificate); default:
        that of ``m`` edges spread evenly, at least 6.
    lcm_degrees : int, optional
        The lcm of the positive degrees of the two graphs (RRWP's prime count); default
        ``lcm(1..6) = 60``. Callers holding the graphs pass both (the CLI does).

    Returns
    -------
    int
        An honest estimate (tested to be within a factor of about 2 of measured peaks) of the
        extra memory the refinement allocates, with the default block budget
        :data:`DEFAULT_MAX_BYTES`. Without ``lcm_degrees`` / ``max_degree`` the RRWP and EPWL
        prime counts assume degrees up to 6 (larger degrees need more primes).

    Raises
    ------
    UnknownNameError
        ``test`` is none of the tests above.

    Examples
    --------
    >>> peak_bytes("spd", 5000, 7500) < 1 * 2**30
    True
    >>> peak_bytes("3wl", 100, 150) > peak_bytes("3wl", 50, 75)
    True
    """
    if _is_baseline(test):  # BREC's non-GNN baselines: s3, s4, nK, m1, m2
        return _baseline_bytes(test, max(int(n), 0), max(int(m), 0), max_degree)
    if test not in _TESTS + _SWL_TESTS:
        raise UnknownNameError(f"unknown test {test!r}; choose from {', '.join(_TESTS + _SWL_TESTS)}")
    n, m = max(int(n), 0), max(int(m), 0)
    W = DEFAULT_MAX_BYTES
    base = 64 * 1024 + 120 * n  # Python-level overhead: relabelling dicts, result, small arrays
    if test == "1wl":
        return base + 8 * (30 * n + 28 * m)
    two_n = 2 * n
    block = min(n * n * BLOCK_FACTOR, W)  # one graph's rows at a time
    colours = 8 * 8 * two_n
    if test == "spd":
        bfs = min(n, block_rows(n, 1)) * n * 8
        return base + 2 * n * n * key_itemsize(n) + bfs + _store(n, two_n, W) + block + colours
    keys = 2 * n * n * 8 * 3  # int64 keys of both graphs and the renumbering copies
    if test == "rd":
        primes = max(1, math.ceil((n * math.log2(max(m / max(n, 1) * 2, 2)) + 2 * math.log2(n + 2)) / 26))
        # adjugate, numerator and digit residues, unique; x2 for the temporaries alive at the peak
        # (measured 387 MiB at n = 500, benchmarks/results/refine_scaling.json)
        modular = n * n * 8 * (primes * 6 + 8)
        return base + max(keys, modular) + _store(n, two_n, W) + block + colours
    if test == "rrwp":
        K = rrwp_steps if rrwp_steps is not None else n
        P = rrwp_prime_count(n, int(lcm_degrees) if lcm_degrees else 60, max(1, K), max_degree)
        from ..distances.adjacency import SMALL_N
        from ..distances.rrwp import RESIDUE_BUDGET
        from ..distances.walk_certificate import CERTIFICATE_MAX_ITEMS

        # float64 powers, products and work arrays of one chunk of primes, the per-prime flat copy
        residues = min(n * n * 8 * (2 * P + 2 * P + 4), RESIDUE_BUDGET + n * n * 8 * 8)

        pairs = 2 * n * n
        if max_degree is not None:
            d = int(max_degree)
        else:  # the widest certificate that could run: its arrays grow with d up to the item cap
            d = max(math.ceil(2 * m / max(n, 1)), min(n - 1, CERTIFICATE_MAX_ITEMS // (3 * max(pairs, 1))))
        certified = SMALL_N < n and 3 * pairs * d <= CERTIFICATE_MAX_ITEMS  # as rrwp_keys decides
        certificate = 8 * pairs * (4 * (d + 1) + 28) if certified else 0  # fitted at n = 80-400
        return base + max(keys, residues, certificate) + _store(n, two_n, W) + block + colours
    if test in ("epwl", "epwl-lap"):
        d = int(max_degree) if max_degree is not None else max(6, math.ceil(2 * m / max(n, 1)))
        P = epwl_prime_count(n, d * (2 if test == "epwl-lap" else 1))
        residues = n * n * 8 * (10 * P + 16)
        return base + max(keys, residues) + _store(n, two_n, W) + block + colours
    if test in _SWL_TESTS:
        from .swl import row_width

        d = int(max_degree) if max_degree is not None else max(6, math.ceil(2 * m / max(n, 1)))
        pairs, w = 2 * n * n, row_width(test, d) + 1
        rows = pairs * w * BLOCK_FACTOR
        store = min(pairs * w * 8, W) if rows > W else 0  # RowGrouper's store, blocked rounds only
        return base + pairs * 100 + min(rows, W) + store
    if test == "3fwl":
        triples = 2 * n**3
        items = min(n**4 * BLOCK_FACTOR, W)
        return base + triples * (_FWL3_PER_TRIPLE + 64) + items + _store(n, triples, W)
    # 3wl
    pairs = 2 * n * n
    per_pair = 8 * 8  # colours, hashes, ids, unique's sort and inverse
    return base + pairs * per_pair + min(n * n * n * BLOCK_FACTOR, W) + _store(n, pairs, W)


def _is_baseline(test: str) -> bool:
    from .names import SUBGRAPH_BASELINE_TESTS, ego_radius

    return test in SUBGRAPH_BASELINE_TESTS or ego_radius(test) is not None


def _baseline_bytes(test: str, n: int, m: int, max_degree: int | None) -> int:
    """Peak memory of BREC's non-GNN baselines (module docstring): the test's own arrays, then the
    1-WL rows of the pair.

    Examples
    --------
    >>> _baseline_bytes("s4", 63, 945, 30) < 2**30
    True
    >>> _baseline_bytes("m2", 2000, 3000, 3) > 64 * 2**30
    True
    """
    from .names import ego_radius

    d = int(max_degree) if max_degree is not None else max(6, math.ceil(2 * m / max(n, 1)))
    base = 64 * 1024 + 400 * n  # keys, dicts of the shared table, the result
    rows = 2 * n * (d + 2) * 8 * 4  # padded neighbour rows, their sorted copy, unique_rows
    dense = n * n * 25 if n <= 4096 else 0  # bool and float64 adjacency and its product
    if test == "s3":
        return base + rows + (dense or 16 * 2 * m * d)
    if test == "s4":
        paths = 2 * m * max(d - 1, 0) ** 2  # ordered 3-edge paths through each directed edge
        pairs = 2 * m * d  # ordered pairs of neighbours, and the claws grown from them
        enumeration = n * n + 112 * paths + 80 * pairs + 48 * min(pairs * d, paths + pairs)
        if n <= 4096:  # dense graphs take the matrix products: about ten float64 n x n matrices
            from .substructure import ENUMERATION_BYTES

            enumeration = min(enumeration, 80 * n * n + ENUMERATION_BYTES)
        return base + rows + enumeration
    k = ego_radius(test)
    if k is not None:
        ball, layer = 1, 1
        for i in range(min(k, n)):  # a ball stops growing after n - 1 hops
            layer *= d if i == 0 else max(d - 1, 1)
            ball = min(n, ball + layer)
        certificate = 8 * ball * ((ball + 63) // 64) + 8 * ball + 200
        return base + rows + 9 * n * n + n * certificate + ball * ball
    # m1 / m2: every node (ordered pair) of both graphs marked, each copy a graph of n nodes
    copies = 2 * n if test == "m1" else 2 * n * max(n - 1, 0)
    per_node = 8 * (4 * (d + 1) + 8)
    return base + rows + copies * n * per_node
