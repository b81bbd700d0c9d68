"""Shared colour-refinement engine: one joint colour table for the two graphs of a pair.

Colours are small integers. One refinement step, for all nodes (or node pairs) of *both* graphs at
once, builds per element an integer row ``[old colour, sorted multiset items...]`` and renumbers the
distinct rows with :func:`unique_rows` over the rows of G and H stacked together. Equal rows <=> equal
(old colour, multiset), so the colouring is exactly the one defined by the injective ``hash`` of the
update rules (PPGT App. E Eq. 13; GRIT Eq. 4), and colour ids mean the same thing in both graphs.
(:func:`~wltools.distances.modular.unique_rows` groups rows by a 64-bit hash only to be fast: every
group is verified entry by entry and a collision falls back to ``np.unique(axis=0)``, so it is exact.)

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

from ..distances.modular import unique_rows

__all__ = [
    "RefinementResult",
    "unique_rows",
    "histograms_differ",
    "run_refinement",
    "refine_rounds",
    "witness_text",
    "class_sizes",
    "no_difference_text",
    "run_reference",
    "Step",
    "Describe",
    "multiset_rows",
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

    Examples
    --------
    >>> r = RefinementResult("1wl", True, "order", 0, 0, witness="G has 3 nodes, H has 4")
    >>> r.to_dict()["class_sizes"], r.to_dict()["reason"]
    ([[], []], 'order')
    """

    test: str
    distinguished: bool
    reason: str
    iteration: int | None
    iterations: int
    class_sizes: tuple = field(default_factory=lambda: ((), ()))
    witness: str = ""

    @classmethod
    def from_histograms(cls, test: str, first_t: int | None, rounds: int, class_sizes: tuple, witness: str):
        """The result of a refinement whose histograms first differ at iteration ``first_t``
        (``None``: never) and whose colouring is stable after ``rounds`` rounds.

        Examples
        --------
        >>> r = RefinementResult.from_histograms("1wl", None, 2, ((3,), (3,)), "no difference")
        >>> r.distinguished, r.reason, r.iterations
        (False, 'none', 2)
        """
        return cls(
            test=test,
            distinguished=first_t is not None,
            reason="histogram" if first_t is not None else "none",
            iteration=first_t,
            iterations=rounds,
            class_sizes=class_sizes,
            witness=witness,
        )

    def to_dict(self) -> dict:
        """The fields as a JSON-ready dict (``class_sizes`` as lists)."""
        d = asdict(self)
        d["class_sizes"] = [list(self.class_sizes[0]), list(self.class_sizes[1])]
        return d


def histograms_differ(c_g: np.ndarray, c_h: np.ndarray, k: int) -> np.ndarray:
    """Colour ids (``0..k-1``) whose counts differ between the two colourings (empty if none).

    Examples
    --------
    >>> import numpy as np
    >>> histograms_differ(np.array([0, 0, 1]), np.array([0, 1, 1]), 2).tolist()
    [0, 1]
    >>> histograms_differ(np.array([0, 1]), np.array([1, 0]), 2).tolist()
    []
    """
    hg = np.bincount(c_g.reshape(-1), minlength=k)
    hh = np.bincount(c_h.reshape(-1), minlength=k)
    return np.flatnonzero(hg != hh)


#: A round of refinement: ``step(colours of G, colours of H, number of colours)`` returns the rows
#: of G and of H, int64 matrices whose distinct rows define the new colours.
Step = Callable[[np.ndarray, np.ndarray, int], tuple[np.ndarray, np.ndarray]]

#: ``describe(t, colour, row, k)`` renders colour class ``colour`` of iteration ``t`` for a witness:
#: ``row`` is the row ``[old colour, items...]`` that defines it (``None`` at ``t = 0``), and ``k``
#: the number of colours before that round (the bound of the colour ids inside the items).
Describe = Callable[[int, int, "np.ndarray | None", int], str]


def multiset_rows(colours: np.ndarray, items: np.ndarray) -> np.ndarray:
    """Rows ``[colour, sorted items...]``, one per element: the key of one refinement round.

    ``items[i]`` holds the multiset of element ``i`` as integers; it is sorted in place.

    Examples
    --------
    >>> import numpy as np
    >>> multiset_rows(np.array([0, 1]), np.array([[3, 1, 2], [2, 2, 0]])).tolist()
    [[0, 1, 2, 3], [1, 0, 2, 2]]
    """
    items.sort(axis=1)
    return np.concatenate([colours[:, None], items], axis=1)


#: A round given as new colours: ``next_colours(colours of G, colours of H, number of colours)``
#: returns the new joint colour ids ``0..k'-1`` of all elements of G then H (flattened), and
#: ``row_of(i)``, the row ``[old colour, sorted items...]`` that defines element ``i``'s new colour.
NextColours = Callable[[np.ndarray, np.ndarray, int], tuple[np.ndarray, Callable[[int], np.ndarray]]]


def run_refinement(
    test: str,
    init_g: np.ndarray,
    init_h: np.ndarray,
    step: Step,
    describe: Describe,
    max_rounds: int | None = None,
) -> RefinementResult:
    """Refine the joint colouring of a pair to stability.

    Parameters
    ----------
    init_g, init_h : int arrays
        Initial colours (any shape: nodes ``[n]`` or pairs ``[n, n]``) from one shared table.
    step : Step
        Builds the rows ``[old colour, sorted items...]`` of both graphs from the current colours.
    describe : Describe
        Renders a colour class that differs, for the witness.
    max_rounds : int, optional
        Stop after this many rounds even if the colouring is not yet stable.

    Examples
    --------
    Refining by degree alone: G has degrees ``1, 1, 0`` and H ``0, 0, 0``.

    >>> import numpy as np
    >>> deg_g, deg_h = np.array([1, 1, 0]), np.array([0, 0, 0])
    >>> def step(cg, ch, k):
    ...     return np.stack([cg, deg_g], axis=1), np.stack([ch, deg_h], axis=1)
    >>> zeros = np.zeros(3, dtype=np.int64)
    >>> r = run_refinement("degree", zeros, zeros, step, lambda t, c, *_: f"colour {c}")
    >>> r.distinguished, r.iteration, r.class_sizes
    (True, 1, ((2, 1), (3,)))
    >>> r.witness
    'iteration 1: colour 0: 2 in G, 0 in H; colour 1: 1 in G, 3 in H'
    """

    def next_colours(cg, ch, k):
        rg, rh = step(cg, ch, k)
        rows = np.concatenate([rg, rh], axis=0)
        return unique_rows(rows), rows.__getitem__

    return refine_rounds(test, init_g, init_h, next_colours, describe, max_rounds)


def witness_text(t: int, diff, counts_g, counts_h, describe_class: Callable[[int], str]) -> str:
    """``iteration t: <class>: a in G, b in H; ...``: the (at most three) classes whose counts
    differ most, then how many more differ.

    Examples
    --------
    >>> witness_text(2, [0, 1], [3, 1], [1, 3], lambda c: f"colour {c}")
    'iteration 2: colour 0: 3 in G, 1 in H; colour 1: 1 in G, 3 in H'
    """
    order = sorted((int(c) for c in diff), key=lambda c: (-abs(int(counts_g[c]) - int(counts_h[c])), c))
    more = f" (and {len(order) - 3} more classes)" if len(order) > 3 else ""
    return f"iteration {t}: " + "; ".join(
        f"{describe_class(c)}: {counts_g[c]} in G, {counts_h[c]} in H" for c in order[:3]
    ) + more


def refine_rounds(
    test: str,
    init_g: np.ndarray,
    init_h: np.ndarray,
    next_colours: NextColours,
    describe: Describe,
    max_rounds: int | None = None,
) -> RefinementResult:
    """:func:`run_refinement` over a round that returns colour ids itself (for engines that
    group rows block by block, :mod:`wltools.refine.grouping`, and never hold all rows).

    Examples
    --------
    >>> import numpy as np
    >>> deg_g, deg_h = np.array([1, 1, 0]), np.array([0, 0, 0])
    >>> def next_colours(cg, ch, k):
    ...     rows = np.stack([np.concatenate([cg, ch]), np.concatenate([deg_g, deg_h])], axis=1)
    ...     return unique_rows(rows), rows.__getitem__
    >>> zeros = np.zeros(3, dtype=np.int64)
    >>> refine_rounds("degree", zeros, zeros, next_colours, lambda t, c, *_: f"colour {c}").class_sizes
    ((2, 1), (3,))
    """
    shape_g, shape_h = init_g.shape, init_h.shape
    ng = init_g.size
    joint = np.unique(np.concatenate([init_g.reshape(-1), init_h.reshape(-1)]), return_inverse=True)[1].reshape(-1)
    cg, ch = joint[:ng], joint[ng:]
    k = int(joint.max()) + 1 if joint.size else 0
    first_t, witness = None, ""

    def check(t, row_of, k_before):
        nonlocal first_t, witness
        if first_t is not None:
            return
        diff = histograms_differ(cg, ch, k)
        if diff.size:
            first_t = t
            hg = np.bincount(cg, minlength=k)
            hh = np.bincount(ch, minlength=k)
            joint = np.concatenate([cg, ch])

            def text(c):
                row = None if row_of is None else row_of(int(np.flatnonzero(joint == c)[0]))
                return describe(t, c, row, k_before)

            witness = witness_text(t, diff.tolist(), hg, hh, text)

    check(0, None, k)
    t = 0
    while max_rounds is None or t < max_rounds:
        new, row_of = next_colours(cg.reshape(shape_g), ch.reshape(shape_h), k)
        if new.size == 0:
            break
        k_new = int(new.max()) + 1
        if k_new == k:
            break
        t += 1
        cg, ch, k_before, k = new[:ng], new[ng:], k, k_new
        check(t, row_of, k_before)
    sizes_g = class_sizes(cg, k)
    sizes_h = class_sizes(ch, k)
    if first_t is None:
        witness = no_difference_text(t, len(set(cg.tolist())))
    return RefinementResult.from_histograms(test, first_t, t, (sizes_g, sizes_h), witness)


def class_sizes(colours: np.ndarray, k: int) -> tuple:
    """Sizes of the colour classes, descending.

    Examples
    --------
    >>> import numpy as np
    >>> class_sizes(np.array([0, 2, 2]), 3)
    (2, 1)
    """
    counts = np.bincount(colours.reshape(-1), minlength=k)
    return tuple(sorted(counts[counts > 0].tolist(), reverse=True))


def no_difference_text(rounds: int, classes: int) -> str:
    """The witness of a pair the test does not distinguish.

    Examples
    --------
    >>> no_difference_text(2, 3)
    'colour histograms agree at every iteration; stable after 2 round(s) with 3 colour class(es)'
    """
    return (
        f"colour histograms agree at every iteration; stable after {rounds} round(s) "
        f"with {classes} colour class(es)"
    )


#: A witness shows at most this many distinct elements of a multiset (large graphs have hundreds).
MULTISET_SHOWN = 12


def multiset_text(items: Counter, render: Callable[[object], str]) -> str:
    """``{a:2, b:1}`` with keys rendered and sorted by their rendering; beyond
    :data:`MULTISET_SHOWN` distinct keys, the most frequent ones and how many more there are.

    Examples
    --------
    >>> from collections import Counter
    >>> multiset_text(Counter({(1, 0): 1, (0, 2): 2}), lambda ab: f"({ab[0]}, {ab[1]})")
    '{(0, 2):2, (1, 0):1}'
    >>> multiset_text(Counter({chr(97 + k): 1 + (k == 13) for k in range(14)}), str)
    '{a:1, b:1, c:1, d:1, e:1, f:1, g:1, h:1, i:1, j:1, k:1, n:2, ... 2 more}'
    """
    parts = [(render(key), cnt) for key, cnt in items.items()]
    more = ""
    if len(parts) > MULTISET_SHOWN:
        shown = sorted(parts, key=lambda kc: (-kc[1], kc[0]))[:MULTISET_SHOWN]
        more = f", ... {len(parts) - MULTISET_SHOWN} more"
        parts = shown
    return "{" + ", ".join(f"{key}:{cnt}" for key, cnt in sorted(parts)) + more + "}"


def run_reference(test: str, elems_g: list, elems_h: list, init: Callable, signature: Callable) -> RefinementResult:
    """Straightforward exact reference refinement (dicts of sorted tuples), for testing the fast
    engine. ``init(graph_index, elem)`` gives a hashable initial colour; ``signature(graph_index,
    elem, colours)`` the hashable (old colour, sorted multiset) key of one round, where
    ``colours[graph_index]`` is a dict ``elem -> colour id``. One shared table maps keys to ids.

    Examples
    --------
    The degree refinement of :func:`run_refinement`'s example:

    >>> deg = ({0: 1, 1: 1, 2: 0}, {0: 0, 1: 0, 2: 0})
    >>> r = run_reference("degree", [0, 1, 2], [0, 1, 2], lambda g, v: 0,
    ...                   lambda g, v, cols: (cols[g][v], deg[g][v]))
    >>> r.distinguished, r.iteration, r.class_sizes, r.witness
    (True, 1, ((2, 1), (3,)), 'reference: histograms differ at iteration 1')
    """
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
    witness = (f"reference: histograms differ at iteration {first_t}" if first_t is not None
               else f"reference: no difference; stable after {t} round(s)")
    return RefinementResult.from_histograms(test, first_t, t, sizes, witness)
