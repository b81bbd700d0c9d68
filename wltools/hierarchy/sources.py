"""Where a "weaker" edge of the hierarchy comes from: a published theorem, or only the pairs searched.

:func:`theorem_edges` lists the strict orders the project can cite with a theorem number (each the
source the homomorphism families of :mod:`wltools.hom.families` already rest on), as each test
declares them (:attr:`WLTest.strictly_above <wltools.wltests.base.WLTest>`, in its module). An edge
that follows from them by transitivity is cited through the chain. Every other "weaker" of
:func:`wltools.hierarchy.table.hierarchy` is an observation on the candidates searched, and says so.

:func:`brec_equal_sets` reads a BREC theory table (``reports/brec-theory/verdicts.csv``, made by
``wltools brec theory``) and groups the tests that separate exactly the same BREC pairs: where the
hierarchy holds a certified pair between two tests of one group, BREC is too small to show it.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

from ..errors import GraphFormatError

__all__ = ["theorem_edges", "theorem_source", "contradicted_theorems", "brec_separated", "brec_equal_sets",
           "brec_notes"]

_ZHANG = "Zhang, Gai, Du, Ye, He & Wang, ICLR 2024 (arXiv 2401.08514)"  # a chain's citation


@functools.lru_cache(maxsize=1)
def theorem_edges() -> dict[tuple[str, str], str]:
    """``(a, b) -> citation`` for "a is strictly weaker than b" proved in the literature: the
    :attr:`~wltools.wltests.base.WLTest.strictly_above` of every built-in test, weakest first.

    Examples
    --------
    >>> chain = [a for a, _ in theorem_edges()] + [list(theorem_edges())[-1][1]]
    >>> " < ".join(chain).startswith("1wl < ")
    True
    """
    from graphlib import TopologicalSorter

    from ..wltests.registry import builtin_tests

    edges = {(below, t.name): cite for t in builtin_tests() for below, cite in t.strictly_above}
    ts: TopologicalSorter = TopologicalSorter()
    for a, b in sorted(edges):
        ts.add(b, a)
    rank = {x: i for i, x in enumerate(ts.static_order())}  # a cycle of citations raises CycleError
    return {e: edges[e] for e in sorted(edges, key=lambda e: (rank[e[0]], rank[e[1]]))}


def theorem_source(a: str, b: str) -> str | None:
    """The citation for "a strictly weaker than b" (a chain of :func:`theorem_edges` through tests
    of any kind), or None where no theorem orders them."""
    chain = _path(a, b)
    if chain is None:
        return None
    if len(chain) == 2:
        return theorem_edges()[(a, b)]
    steps = " < ".join(chain)
    return f"{steps}: each step {_ZHANG}, Theorems 3.4, 3.10 and Corollary 4.1"


def _path(a: str, b: str) -> list[str] | None:
    frontier, seen = [[a]], {a}
    while frontier:
        path = frontier.pop(0)
        for x, y in theorem_edges():
            if x == path[-1] and y not in seen:
                if y == b:
                    return path + [y]
                seen.add(y)
                frontier.append(path + [y])
    return None


def contradicted_theorems(certified: set) -> list[str]:
    """Each theorem order "a < b" (with its chains) for which a certified pair says a separates a pair
    that b does not: such a pair would refute the theorem or reveal a bug; the list is empty when
    the evidence agrees with every cited theorem. ``certified``: the ``(x, y)`` with a certificate
    that y distinguishes and x does not."""
    out = []
    for x, y in sorted(certified):
        source = theorem_source(y, x)
        if source is not None:
            out.append(f"{y} separates a pair {x} does not, but {y} < {x} is cited ({source})")
    return out


def brec_separated(verdicts_csv, tests) -> dict[str, set]:
    """``{test: ids of the BREC pairs it separates}`` from a BREC theory table (``verdicts.csv``: one
    row per pair and test, ``distinguished`` 0 / 1); tests absent from the table are left out."""
    separated: dict[str, set] = {}
    with Path(verdicts_csv).open(newline="") as fh:
        reader = csv.DictReader(fh)
        if not {"id", "test", "distinguished"} <= set(reader.fieldnames or ()):
            raise GraphFormatError(f"{verdicts_csv}: not a BREC theory table (wltools brec theory's verdicts.csv: "
                                   "columns id, test, distinguished)")
        for row in reader:
            if row["test"] in tests:
                got = separated.setdefault(row["test"], set())
                if row["distinguished"] == "1":
                    got.add(int(row["id"]))
    return separated


def brec_equal_sets(verdicts_csv, tests) -> list[tuple[str, ...]]:
    """Groups (two or more) of ``tests`` that separate exactly the same pairs in a BREC theory table."""
    separated = brec_separated(verdicts_csv, tests)
    groups: dict[frozenset, list[str]] = {}
    for t in tests:
        if t in separated:
            groups.setdefault(frozenset(separated[t]), []).append(t)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def brec_notes(certified: set, verdicts_csv, tests) -> list[str]:
    """Where the certified pairs (``certified``: the ``(x, y)`` with a pair y separates and x does not) and
    a BREC theory table disagree: one line per group of :func:`brec_equal_sets` saying which of its
    ordered pairs the certified pairs separate (BREC's 400 pairs cannot show those), then one line per
    ordered pair that BREC separates and the certified pairs do not."""
    lines = []
    for group in brec_equal_sets(verdicts_csv, tests):
        shown = [f"{y} over {x}" for x in group for y in group if (x, y) in certified]
        head = f"{', '.join(group)} separate exactly the same BREC pairs"
        lines.append(f"{head}; certified pairs here: {'; '.join(shown)}" if shown
                     else f"{head}; no certified pair between them here either")
    separated = brec_separated(verdicts_csv, tests)
    for x in tests:
        for y in tests:
            if x != y and x in separated and y in separated and (x, y) not in certified:
                ids = sorted(separated[y] - separated[x])
                if ids:
                    lines.append(f"BREC shows {y} separating {len(ids)} pair(s) {x} does not (id {ids[0]}"
                                 f"{', ...' if len(ids) > 1 else ''}); no certified pair here (the coverage says which candidates "
                                 "each test refined; --brec adds BREC's pairs)")
    return lines
