"""What a refinement gives back: the result of a pair, its witness texts, and the straightforward
reference refinement the kernel is tested against. The round loop, hashing and history are
:mod:`wltools.refine.kernel`'s.

Colours are small integers; one round gives every element of *both* graphs the id of its row
``[old colour, sorted multiset items...]`` in one table, so equal rows <=> equal (old colour,
multiset): exactly the colouring of the injective ``hash`` of the update rules (PPGT App. E
Eq. 13; GRIT Eq. 4), with colour ids meaning the same thing in both graphs.

The refinement stops at the first round that does not increase the number of colour classes of
the joint colouring (each new colour includes the old one, so partitions only get finer: an equal
count means an equal, hence stable, partition). The pair is distinguished iff the two colour
histograms differ at some iteration; iteration ``t`` is the colouring after ``t`` rounds
(``t = 0``: initial colours).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Callable

import numpy as np

from ..runtime.hashing import unique_rows

__all__ = [
    "RefinementResult",
    "unique_rows",
    "histograms_differ",
    "witness_text",
    "class_sizes",
    "no_difference_text",
    "run_reference",
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
    iterations : int or None
        Refinement rounds until the joint colouring is stable (the last round that split a class);
        None when the refinement stopped at the first difference
        (:func:`wltools.refine.kernel.verdict_only`).
    class_sizes : tuple of two tuples
        Sorted (descending) sizes of the stable colour classes of G and of H (empty when
        ``iterations`` is None).
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
    iterations: int | None
    class_sizes: tuple = field(default_factory=lambda: ((), ()))
    witness: str = ""

    @classmethod
    def from_histograms(cls, test: str, first_t: int | None, rounds: int | None, class_sizes: tuple, witness: str):
        """The result of a refinement whose histograms first differ at iteration ``first_t``
        (``None``: never) and whose colouring is stable after ``rounds`` rounds (``None``: stopped
        at ``first_t``, :func:`wltools.refine.kernel.verdict_only`).

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
        """The fields as a JSON-ready dict (``class_sizes`` as lists; the other fields are numbers,
        strings and None, taken as they are: ``dataclasses.asdict`` would deep-copy every class
        size first, 1 of the 21 CPU-s of SSWL's BREC table)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
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
    The degree refinement of :mod:`wltools.refine.kernel`'s example:

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
