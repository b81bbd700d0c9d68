"""What a refinement's classes mean for learning: counts of classes and unseparated pairs, and
upper bounds on classification accuracy.

A model no more expressive than a test (e.g. an MPNN with ``t`` layers and 1-WL after ``t``
rounds; Xu et al. 2019, Morris et al. 2019) gives every graph of one equivalence class the same
output, so on the dataset itself its accuracy is at most

.. math::  \\mathrm{bound}_t = \\frac{1}{|\\mathcal G|} \\sum_{C} \\max_y |\\{G \\in C : y_G = y\\}|,

the share of graphs that carry their class's majority target (Akbiyik et al. 2023, Graphtester,
the per-layer accuracy upper bounds; Zopf 2022 counts the graphs 1-WL identifies). The node
bound is the same over node colours and node targets. Isomorphic graphs are never separated,
so isomorphism classes refine every equivalence class; the pairs of non-isomorphic graphs that
share a class are ``sum_C C(|C|, 2) - sum_I C(|I|, 2)`` over classes ``C`` and isomorphism
classes ``I``.

For a regression target (a real number per graph) the same argument bounds the error from below:
a model that gives every graph of class ``C`` one prediction ``p_C`` has mean absolute error at least

.. math::  \\mathrm{MAE}_t = \\frac{1}{|\\mathcal G|} \\sum_{C} \\min_{p} \\sum_{G \\in C} |y_G - p|
           = \\frac{1}{|\\mathcal G|} \\sum_{C} \\sum_{G \\in C} |y_G - \\mathrm{median}_C|,

the median minimising a sum of absolute deviations (any point between the two middle values; the
floor is the regression counterpart of the accuracy bound, issue 33).

Examples
--------
>>> import numpy as np
>>> s = class_stats(np.array([0, 0, 1, 1, 1]), np.array([0, 1, 2, 2, 3]), np.array([0, 1, 0, 0, 1]))
>>> s["classes"], s["unseparated_noniso_pairs"], s["conflicting_graphs"], s["accuracy_bound"]
(2, 3, 5, 0.6)
"""

from __future__ import annotations

import numpy as np

__all__ = ["class_stats", "majority_bound", "pairs_within", "mae_floor", "regression_values"]


def pairs_within(ids: np.ndarray) -> int:
    """Unordered pairs of elements with equal ids: ``sum C(count, 2)``.

    Examples
    --------
    >>> import numpy as np
    >>> pairs_within(np.array([0, 0, 0, 1, 1, 2]))
    4
    """
    c = np.bincount(np.unique(ids, return_inverse=True)[1].reshape(-1)).astype(np.int64)
    return int((c * (c - 1) // 2).sum())


def majority_bound(classes: np.ndarray, targets: np.ndarray) -> tuple[float, int]:
    """``(bound, conflicting)``: the share of elements carrying their class's majority target,
    and the number of elements in classes with more than one target.

    Examples
    --------
    >>> import numpy as np
    >>> majority_bound(np.array([0, 0, 0, 1]), np.array([1, 1, 2, 0]))
    (0.75, 3)
    """
    pair = np.stack([classes, targets], axis=1)
    uniq, counts = np.unique(pair, axis=0, return_counts=True)
    cls_of = uniq[:, 0]
    best = np.zeros(int(classes.max()) + 1, dtype=np.int64)
    np.maximum.at(best, cls_of, counts)
    kinds = np.bincount(cls_of, minlength=best.size)
    conflicting = int(np.isin(classes, np.flatnonzero(kinds > 1)).sum())
    return float(best.sum() / classes.size), conflicting


def class_stats(classes: np.ndarray, iso: np.ndarray | None, targets: np.ndarray | None) -> dict:
    """The statistics of one round: ``classes``, ``unseparated_noniso_pairs`` (``None`` without
    isomorphism classes), ``conflicting_graphs`` and ``accuracy_bound`` (``None`` without
    targets)."""
    out = {"classes": int(np.unique(classes).size), "unseparated_noniso_pairs": None,
           "conflicting_graphs": None, "accuracy_bound": None}
    if iso is not None:
        both = np.unique(np.stack([classes, iso], axis=1), axis=0, return_inverse=True)[1].reshape(-1)
        out["unseparated_noniso_pairs"] = pairs_within(classes) - pairs_within(both)
    if targets is not None:
        out["accuracy_bound"], out["conflicting_graphs"] = majority_bound(classes, targets)
    return out


def mae_floor(classes: np.ndarray, values: np.ndarray) -> float:
    """The lowest mean absolute error of predictions constant on each class: every element
    predicted by its class's (lower) median (module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> mae_floor(np.array([0, 0, 0, 1]), np.array([1.0, 2.0, 7.0, 5.0]))  # |1-2| + 0 + |7-2|, 0
    1.5
    """
    classes = np.asarray(classes).reshape(-1)
    values = np.asarray(values, dtype=np.float64).reshape(-1)
    if not values.size:
        return 0.0
    order = np.lexsort((values, classes))
    c, y = classes[order], values[order]
    starts = np.flatnonzero(np.concatenate([[True], c[1:] != c[:-1]]))
    counts = np.diff(np.concatenate([starts, [c.size]]))
    med = y[starts + (counts - 1) // 2]
    return float(np.abs(y - np.repeat(med, counts)).sum() / y.size)


def regression_values(coll) -> np.ndarray:
    """The graph targets of a collection as real numbers (float64) for :func:`mae_floor`.

    Raises :class:`~wltools.errors.GraphFormatError` (one line) without targets or when one is
    not a real number.
    """
    import numbers

    from ..errors import GraphFormatError

    if coll.graph_targets is None:
        raise GraphFormatError(f"{coll.name} has no graph targets to regress (--targets FILE for graph6 input)")
    table = []
    for i, v in enumerate(coll.target_values):
        if not isinstance(v, numbers.Real) or isinstance(v, bool):
            g = int(np.flatnonzero(coll.graph_targets == i)[0])
            raise GraphFormatError(f"regression needs a real number per graph; graph {g}'s target is {v!r}")
        table.append(float(v))
    return np.asarray(table, dtype=np.float64)[coll.graph_targets]
