"""Shared colour-refinement engine: one joint colour table for the two graphs of a pair.

Colours are small integers. One refinement step, for all nodes (or node pairs) of *both* graphs at
once, builds per element an integer row ``[old colour, sorted multiset items...]`` and renumbers the
distinct rows with :func:`unique_rows` over the rows of G and H stacked together. Equal rows <=> equal
(old colour, multiset), so the colouring is exactly the one defined by the injective ``hash`` of the
update rules (PPGT App. E Eq. 13; GRIT Eq. 4), and colour ids mean the same thing in both graphs.
(:func:`wltools.distances.unique_rows` groups rows by a 64-bit hash only to be fast: every group is
verified entry by entry and a collision falls back to ``np.unique(axis=0)``, so it is exact.)

The refinement stops at the first round that does not increase the number of colour classes of
the joint colouring (each new colour includes the old one, so partitions only get finer: an equal
count means an equal, hence stable, partition). The pair is distinguished iff the two colour
histograms differ at some iteration; iteration ``t`` is the colouring after ``t`` rounds
(``t = 0``: initial colours).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from ..distances import unique_rows

__all__ = [
    "RefinementResult",
    "unique_rows",
    "histograms_differ",
    "run_refinement",
    "run_reference",
    "Step",
    "multiset_text",
]



@dataclass
class RefinementResult:
    """Outcome of refining one pair of graphs with one test.

    Attributes
    ----------
    test : str
        One of :data:`wltools.refine.TESTS`.
    distinguished : bool
    reason : str
        ``'order'`` (different numbers of nodes), ``'edges'`` (different numbers of edges),
        ``'histogram'`` (colour histograms differ at ``iteration``) or ``'none'``.
    iteration : int or None
        First iteration at which the colour histograms differ (``0`` = initial colouring).
    iterations : int
        Refinement rounds until the joint colouring is stable (the last round that split a class).
    class_sizes : tuple of two tuples
        Sorted (descending) sizes of the stable colour classes of G and of H.
    witness : str
        A readable sentence explaining the verdict.
    """

    test: str
    distinguished: bool
    reason: str
    iteration: int | None
    iterations: int
    class_sizes: tuple = field(default_factory=lambda: ((), ()))
    witness: str = ""

    def to_dict(self) -> dict:
        d = asdict(self)
        d["class_sizes"] = [list(self.class_sizes[0]), list(self.class_sizes[1])]
        return d


def histograms_differ(c_g: np.ndarray, c_h: np.ndarray, k: int) -> np.ndarray:
    """Colour ids (``0..k-1``) whose counts differ between the two colourings (empty if none)."""
    hg = np.bincount(c_g.reshape(-1), minlength=k)
    hh = np.bincount(c_h.reshape(-1), minlength=k)
    return np.flatnonzero(hg != hh)


# A step maps (colours of G, colours of H, number of colours) to (rows of G, rows of H):
# int64 matrices whose distinct rows define the new colours.
Step = Callable[[np.ndarray, np.ndarray, int], tuple[np.ndarray, np.ndarray]]


def run_refinement(
    test: str,
    init_g: np.ndarray,
    init_h: np.ndarray,
    step: Step,
    describe: Callable[[int, int, np.ndarray, np.ndarray, np.ndarray, int], str],
    max_rounds: int | None = None,
) -> RefinementResult:
    """Refine the joint colouring of a pair to stability.

    Parameters
    ----------
    init_g, init_h : int arrays
        Initial colours (any shape: nodes ``[n]`` or pairs ``[n, n]``) from one shared table.
    step : Step
        Builds the rows ``[old colour, sorted items...]`` of both graphs from the current colours.
    describe : callable
        ``describe(t, colour, rows, counts_g, counts_h, k)`` renders a class of iteration ``t`` for
        the witness; ``rows`` are the stacked rows of that round (``None`` at ``t = 0``).
    """
    shape_g, shape_h = init_g.shape, init_h.shape
    ng = init_g.size
    joint = np.unique(np.concatenate([init_g.reshape(-1), init_h.reshape(-1)]), return_inverse=True)[1].reshape(-1)
    cg, ch = joint[:ng], joint[ng:]
    k = int(joint.max()) + 1 if joint.size else 0
    first_t, witness = None, ""

    def check(t, rows):
        nonlocal first_t, witness
        if first_t is not None:
            return
        diff = histograms_differ(cg, ch, k)
        if diff.size:
            first_t = t
            hg = np.bincount(cg, minlength=k)
            hh = np.bincount(ch, minlength=k)
            order = sorted(diff.tolist(), key=lambda c: (-abs(int(hg[c]) - int(hh[c])), c))
            parts = [describe(t, c, rows, cg, ch, k) + f": {hg[c]} in G, {hh[c]} in H" for c in order[:3]]
            more = f" (and {len(order) - 3} more classes)" if len(order) > 3 else ""
            witness = f"iteration {t}: " + "; ".join(parts) + more

    check(0, None)
    t = 0
    while max_rounds is None or t < max_rounds:
        rg, rh = step(cg.reshape(shape_g), ch.reshape(shape_h), k)
        rows = np.concatenate([rg, rh], axis=0)
        new = unique_rows(rows)
        if new.size == 0:
            break
        k_new = int(new.max()) + 1
        if k_new == k:
            break
        t += 1
        cg, ch, k = new[:ng], new[ng:], k_new
        check(t, rows)
    sizes_g = tuple(sorted(np.bincount(cg, minlength=k)[np.bincount(cg, minlength=k) > 0].tolist(), reverse=True))
    sizes_h = tuple(sorted(np.bincount(ch, minlength=k)[np.bincount(ch, minlength=k) > 0].tolist(), reverse=True))
    if first_t is None:
        witness = (
            f"colour histograms agree at every iteration; stable after {t} round(s) "
            f"with {len(set(cg.tolist()))} colour class(es)"
        )
    return RefinementResult(
        test=test,
        distinguished=first_t is not None,
        reason="histogram" if first_t is not None else "none",
        iteration=first_t,
        iterations=t,
        class_sizes=(sizes_g, sizes_h),
        witness=witness,
    )


def multiset_text(items: Counter, render: Callable[[object], str]) -> str:
    """``{a:2, b:1}`` with keys rendered and sorted by their rendering."""
    parts = sorted((render(key), cnt) for key, cnt in items.items())
    return "{" + ", ".join(f"{key}:{cnt}" for key, cnt in parts) + "}"


def run_reference(test: str, elems_g: list, elems_h: list, init: Callable, signature: Callable) -> RefinementResult:
    """Straightforward exact reference refinement (dicts of sorted tuples), for testing the fast
    engine. ``init(graph_index, elem)`` gives a hashable initial colour; ``signature(graph_index,
    elem, colours)`` the hashable (old colour, sorted multiset) key of one round, where
    ``colours[graph_index]`` is a dict ``elem -> colour id``. One shared table maps keys to ids."""
    table: dict = {}
    cols = [
        {e: table.setdefault(("init", init(0, e)), len(table)) for e in elems_g},
        {e: table.setdefault(("init", init(1, e)), len(table)) for e in elems_h},
    ]
    def hist(c):
        return Counter(c.values())
    def nclasses():
        return len(set(cols[0].values()) | set(cols[1].values()))
    first_t = 0 if hist(cols[0]) != hist(cols[1]) else None
    t = 0
    while True:
        table = {}
        new = [
            {e: table.setdefault(signature(0, e, cols), len(table)) for e in elems_g},
            {e: table.setdefault(signature(1, e, cols), len(table)) for e in elems_h},
        ]
        if len(table) == nclasses():
            break
        cols = new
        t += 1
        if first_t is None and hist(cols[0]) != hist(cols[1]):
            first_t = t
    sizes = tuple(tuple(sorted(hist(c).values(), reverse=True)) for c in cols)
    return RefinementResult(
        test=test,
        distinguished=first_t is not None,
        reason="histogram" if first_t is not None else "none",
        iteration=first_t,
        iterations=t,
        class_sizes=sizes,
        witness=(f"reference: histograms differ at iteration {first_t}" if first_t is not None
                 else f"reference: no difference; stable after {t} round(s)"),
    )
