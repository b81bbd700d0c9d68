"""Peak memory of exact refinement, stated before it starts.

:func:`peak_bytes` estimates the peak memory (bytes allocated by numpy and Python while refining,
as :mod:`tracemalloc` counts them, not counting the two input graphs) of
:func:`wltools.refine.refine_pair` on two graphs of ``n`` nodes and ``m`` edges each. The CLI uses it
to refuse inputs that would not fit; the tests check it against measured peaks.

Each test's model lives in its module of :mod:`wltools.wltests` (its ``peak_bytes``, with the
measurements it is fitted to); the terms they share are in :mod:`wltools.refine.cost_terms`.

Examples
--------
>>> peak_bytes("1wl", 100_000, 150_000) < 200 * 2**20
True
>>> peak_bytes("3wl", 500, 750) < 2 * 2**30
True
"""

from __future__ import annotations

from ..errors import UnknownNameError
from ..wltests.registry import get_test
from .cost_terms import DEFAULT_MAX_BYTES, block_rows, epwl_prime_count, key_itemsize, rrwp_prime_count

__all__ = ["peak_bytes", "DEFAULT_MAX_BYTES", "key_itemsize", "rrwp_prime_count", "epwl_prime_count",
           "block_rows"]


def peak_bytes(test, n: int, m: int, *, rrwp_steps: int | None = None,
               max_degree: int | None = None, lcm_degrees: int | None = None) -> int:
    """Estimated peak memory (bytes) of refining two graphs of ``n`` nodes and ``m`` edges each.

    Parameters
    ----------
    test : str or WLTest
        A test of the registry (:func:`wltools.wltests.get_test`).
    n, m : int
        Nodes and edges of *each* graph.
    rrwp_steps : int, optional
        ``K`` of RRWP; default ``n`` (as :func:`wltools.refine.refine_pair`).
    max_degree : int, optional
        The largest degree of the two graphs (EPWL's prime count, RRWP's certificate, the
        subgraph tests' rows); default: that of ``m`` edges spread evenly, at least 6.
    lcm_degrees : int, optional
        The lcm of the positive degrees of the two graphs (RRWP's prime count); default
        ``lcm(1..6) = 60``. Callers holding the graphs pass both (the CLI does).

    Returns
    -------
    int
        An honest estimate (tested to be within a factor of about 2 of measured peaks) of the
        extra memory the refinement allocates, with the default block budget
        :data:`DEFAULT_MAX_BYTES`.

    Raises
    ------
    UnknownNameError
        ``test`` is not registered, or has no cost model.

    Examples
    --------
    >>> peak_bytes("spd", 5000, 7500) < 1 * 2**30
    True
    >>> peak_bytes("3wl", 100, 150) > peak_bytes("3wl", 50, 75)
    True
    """
    spec = get_test(test)
    need = spec.cost(n, m, rrwp_steps=rrwp_steps, max_degree=max_degree, lcm_degrees=lcm_degrees)
    if need is None:
        raise UnknownNameError(f"test {spec.name} has no cost model (its peak_bytes)")
    return need
