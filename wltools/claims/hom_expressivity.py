"""Claims from "Beyond Weisfeiler-Lehman" (Zhang, Gai, Du, Ye, He & Wang, ICLR 2024, arXiv
2401.08514): the number of connected patterns each model class counts under homomorphism (App.
G.2, Table 4, by vertex count), reproduced and extended by one vertex; and subgraph counting
(Theorem 4.5): App. G.2, Table 5 (by vertex count) and Example 4.6 (cycles and paths), with Gai et
al.'s Corollary 3.14 for spectral invariant GNNs (EPWL).

The published numbers are copied below (the independent reference); the counts are recomputed
from the families of :mod:`wltools.hom.families` over every connected (rooted) pattern of
:mod:`wltools.hom.patterns`. The paper's model classes map to the tests as that module says: MPNN
``1wl``, Subgraph GNN ``swl-vs``, Local 2-GNN ``sswl``, Local 2-FGNN ``slfwl2``, 2-FGNN ``3wl``.
Not reproduced: Table 4 and 5's columns by edge count (patterns up to 9 vertices), and MPNN at
edge level in Example 4.6 (Theorem 3.7: MPNN has no edge-level family).
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

import networkx as nx

from .registry import ClaimResult, register_claim

__all__ = ["TABLE4", "TABLE5", "EXAMPLE_4_6", "MODELS", "check_hom_expressivity",
           "check_subgraph_counting", "count_table", "cycle_path_table"]

_SOURCE = ("Zhang, Gai, Du, Ye, He & Wang, ICLR 2024 (arXiv 2401.08514), Sec. 3 (Theorems 3.4, 3.7), "
           "Sec. 4.2 (Theorem 4.5, Example 4.6), App. G.2 (Tables 4, 5); Gai et al., ICLR 2025 "
           "(arXiv 2503.00485), Corollary 3.14")

#: The paper's model classes, weakest first, and the test of each.
MODELS = {"MPNN": "1wl", "Subgraph GNN": "swl-vs", "Local 2-GNN": "sswl", "Local 2-FGNN": "slfwl2",
          "2-FGNN": "3wl"}

#: App. G.2, Table 4: connected (rooted) graphs of n = 2..6 vertices counted under homomorphism.
TABLE4 = {
    "graph": {"MPNN": [1, 1, 2, 3, 6], "Subgraph GNN": [1, 2, 5, 15, 51],
              "Local 2-GNN": [1, 2, 5, 15, 55], "Local 2-FGNN": [1, 2, 5, 15, 56],
              "2-FGNN": [1, 2, 5, 15, 56], "All": [1, 2, 6, 21, 112]},
    "node": {"MPNN": [1, 2, 4, 9, 20], "Subgraph GNN": [1, 3, 8, 27, 88],
             "Local 2-GNN": [1, 3, 10, 44, 215], "Local 2-FGNN": [1, 3, 10, 44, 217],
             "2-FGNN": [1, 3, 10, 44, 217], "All": [1, 3, 11, 58, 407]},
    "edge": {"Subgraph GNN": [1, 4, 18, 77, 340], "Local 2-GNN": [1, 4, 21, 116, 693],
             "Local 2-FGNN": [1, 4, 21, 118, 735], "2-FGNN": [1, 4, 21, 118, 735],
             "All": [1, 4, 23, 162, 1549]},
}

#: App. G.2, Table 5: connected (rooted) graphs of n = 2..6 vertices that can be subgraph-counted.
TABLE5 = {
    "graph": {"MPNN": [1, 1, 1, 1, 1], "Subgraph GNN": [1, 2, 5, 13, 24],
              "Local 2-GNN": [1, 2, 5, 13, 24], "Local 2-FGNN": [1, 2, 5, 13, 24],
              "2-FGNN": [1, 2, 5, 13, 24]},
    "node": {"MPNN": [1, 2, 2, 2, 2], "Subgraph GNN": [1, 3, 8, 18, 27],
             "Local 2-GNN": [1, 3, 10, 37, 84], "Local 2-FGNN": [1, 3, 10, 37, 84],
             "2-FGNN": [1, 3, 10, 37, 84]},
    "edge": {"Subgraph GNN": [1, 4, 18, 47, 81], "Local 2-GNN": [1, 4, 21, 92, 208],
             "Local 2-FGNN": [1, 4, 21, 92, 208], "2-FGNN": [1, 4, 21, 92, 208]},
}

#: Example 4.6: the largest n with C_n (cycles, n >= 3) / P_n (paths, n vertices) countable, per
#: level (node: C_n^u, P_n^w with w an end of the path; edge: C_n^{uv}, P_n^{wx}, {u, v}, {w, x}
#: edges); 0: none. "n <= 7" means exactly the n up to 7. epwl: Gai et al. Cor. 3.14 (graph level).
EXAMPLE_4_6 = {
    "MPNN": {"graph": (0, 3), "node": (0, 3)},
    "Subgraph GNN": {"graph": (7, 7), "node": (4, 4), "edge": (4, 4)},
    "Local 2-GNN": {"graph": (7, 7), "node": (7, 7), "edge": (7, 7)},
    "Local 2-FGNN": {"graph": (7, 7), "node": (7, 7), "edge": (7, 7)},
    "2-FGNN": {"graph": (7, 7), "node": (7, 7), "edge": (7, 7)},
    "spectral invariant GNN (epwl)": {"graph": (7, 7)},
}

_ROOTS = {"graph": (), "node": (0,), "edge": (0, 1)}


def count_table(level: str, max_nodes: int, counts: Callable[[str, object], bool],
                family_of: Callable, pats: list | None = None) -> dict[str, list[int]]:
    """Per model (and "All"): how many connected patterns of ``level`` with ``n = 2..max_nodes``
    vertices ``counts(test, fam)`` accepts; ``counts`` gets the test and returns a predicate.
    ``pats``: those patterns when the caller has them (:func:`wltools.hom.patterns.rooted_patterns`)."""
    return _tally(_accepted(level, max_nodes, counts, family_of, pats), max_nodes)


def _accepted(level: str, max_nodes: int, counts: Callable, family_of: Callable,
              pats: list | None = None) -> tuple[list, dict[str, list[bool]]]:
    """``(patterns, {model: [accepted, per pattern]})`` for the models with a family at ``level``."""
    from wltools.hom.patterns import rooted_patterns

    pats = rooted_patterns(max_nodes, level, 2) if pats is None else pats
    out = {}
    for model, test in MODELS.items():
        if family_of(test, level) is not None:
            keep = counts(test, family_of(test, level))
            out[model] = [bool(keep(F)) for F in pats]
    return pats, out


def _tally(accepted: tuple, max_nodes: int) -> dict[str, list[int]]:
    pats, rows = accepted
    out = {"All": _by_size(pats, max_nodes)}
    for model, row in rows.items():
        out[model] = _by_size([F for F, ok in zip(pats, row) if ok], max_nodes)
    return out


def _by_size(pats, max_nodes: int) -> list[int]:
    sizes = Counter(F.number_of_nodes() for F in pats)
    return [sizes[n] for n in range(2, max_nodes + 1)]


def _compare(found: dict, published: dict) -> list[str]:
    """Mismatches between recomputed and published rows, on the columns both have (n = 2..)."""
    bad = []
    for level, rows in published.items():
        for model, row in rows.items():
            got = found.get(level, {}).get(model)
            k = min(len(got or []), len(row))
            if not k or got[:k] != row[:k]:
                bad.append(f"{level}/{model}: published {row[:k]}, computed {got and got[:k]}")
    return bad


@register_claim(
    "hom-expressivity",
    statement=("Zhang et al.'s Table 4: the number of connected (rooted) patterns of 2..6 vertices "
               "each model class counts under homomorphism, at graph, node and edge level, follows "
               "from the families of Theorems 3.4 and 3.7 (MPNN < Subgraph GNN < Local 2-GNN < Local "
               "2-FGNN < 2-FGNN, Corollary 4.1); extended to 7 vertices (graph and node level)."),
    source=_SOURCE,
    method="exhaustive",
    params=("max_nodes",),
)
def check_hom_expressivity(*, max_nodes: int | None = None, edge_max_nodes: int | None = None,
                           family_of: Callable | None = None) -> ClaimResult:
    """Recompute Table 4 from the families (graph and node level up to ``max_nodes`` vertices,
    default 7; edge level up to ``edge_max_nodes``, default ``min(max_nodes, 6)``), compare n = 2..6
    with the published numbers, check the inclusion chain on every pattern counted. PASS iff every
    published number is met and every pattern of a weaker class lies in the stronger ones; the
    counts at 7 vertices are new results."""
    from wltools.hom.families import family_of as real_family_of

    max_nodes = max_nodes or 7
    edge_max_nodes = edge_max_nodes or min(max_nodes, 6)
    fam_of = family_of or real_family_of
    member = lambda test, fam: (lambda F, r=None: fam.contains(F, _ROOTS[fam.level]))  # noqa: E731
    tops = {"graph": max_nodes, "node": max_nodes, "edge": edge_max_nodes}
    inside = {level: _accepted(level, top, member, fam_of) for level, top in tops.items()}
    found = {level: _tally(acc, tops[level]) for level, acc in inside.items()}
    problems = _compare(found, TABLE4)
    problems += _chain_problems(found)
    problems += _inclusion_problems(inside)
    ev = {"counts (n = 2..)": found, "published (n = 2..6)": TABLE4,
          "new (n = 7)": {lvl: {m: row[5] for m, row in rows.items() if len(row) > 5}
                          for lvl, rows in found.items()}}
    if problems:
        return ClaimResult("FAIL", "; ".join(problems[:6]), ev, witness=problems[0])
    new = "; ".join(f"{lvl} level: " + ", ".join(f"{m} {c}" for m, c in rows.items())
                    for lvl, rows in ev["new (n = 7)"].items() if rows) or "not computed"
    return ClaimResult(
        "PASS", f"Table 4 reproduced (n <= {min(max_nodes, 6)} at graph and node level, "
        f"{min(edge_max_nodes, 6)} at edge level); the chain MPNN < ... < 2-FGNN holds on every "
        f"pattern; new, 7 vertices: {new}.", ev)


def _chain_problems(found: dict) -> list[str]:
    order = [m for m in MODELS]
    bad = []
    for level, rows in found.items():
        present = [m for m in order if m in rows]
        for a, b in zip(present, present[1:]):
            if any(x > y for x, y in zip(rows[a], rows[b])):
                bad.append(f"{level}: {a} counts more patterns than {b}: {rows[a]} vs {rows[b]}")
    return bad


def _inclusion_problems(inside: dict) -> list[str]:
    """Corollary 4.1 pattern by pattern: a pattern of a weaker class lies in every stronger one
    (``inside``: per level, :func:`_accepted`'s patterns and memberships, models weakest first)."""
    from wltools.hom.patterns import graph6

    bad = []
    for level, (pats, rows) in inside.items():
        for i, F in enumerate(pats):
            row = [r[i] for r in rows.values()]
            if row != sorted(row):
                bad.append(f"{level} level: pattern {graph6(F)} breaks the chain: {row}")
    return bad


def cycle_path_table(max_n: int, family_of: Callable | None = None,
                     can_count: Callable | None = None) -> dict:
    """Per model and level: the largest n (up to ``max_n``) such that every cycle C_3..C_n / path
    P_2..P_n is countable (0: none), and whether anything above it is countable (it must not)."""
    from wltools.hom.families import family_of as real_family_of
    from wltools.hom.spasm import can_count as real_can_count

    fam_of, counter = family_of or real_family_of, can_count or real_can_count
    tests = dict(MODELS, **{"spectral invariant GNN (epwl)": "epwl"})
    out = {}
    for model, test in tests.items():
        for level in ("graph", "node", "edge"):
            if fam_of(test, level) is None:
                continue
            row = []
            for gen, lo in ((nx.cycle_graph, 3), (nx.path_graph, 2)):
                ok = [counter(gen(n), test, level)[0] for n in range(lo, max_n + 1)]
                top = next((lo + i for i in range(len(ok) - 1, -1, -1) if all(ok[: i + 1])), 0)
                row.append((top, any(ok[top - lo + 1:]) if top else any(ok)))
            out[(model, level)] = row
    return out


@register_claim(
    "subgraph-counting",
    statement=("Theorem 4.5 (a model counts F as a subgraph iff Spasm(F) lies in its family) gives "
               "Example 4.6's cycle / path table (MPNN: paths up to 3 vertices, no cycle; Subgraph GNN: "
               "up to 7 at graph level, 4 at node and edge level; Local 2-GNN, Local 2-FGNN, 2-FGNN: up "
               "to 7 at every level; spectral invariant GNN: up to 7, Gai et al. Cor. 3.14) and Table 5's "
               "number of subgraph-countable connected patterns of 2..6 vertices."),
    source=_SOURCE,
    method="exhaustive",
    params=("max_nodes",),
)
def check_subgraph_counting(*, max_n: int | None = None, max_nodes: int | None = None,
                            edge_max_nodes: int | None = None, family_of: Callable | None = None
                            ) -> ClaimResult:
    """Example 4.6 for cycles and paths up to ``max_n`` vertices (default 8, or ``max_nodes + 1``
    when that is given: at 8 every class fails, and K4 lies in the spasm of every longer cycle and
    path, Gai et al., proof of Cor. 3.14), and Table 5 up to ``max_nodes`` (default 6; edge level
    ``edge_max_nodes``, default ``max_nodes``). PASS iff both match the paper exactly."""
    from wltools.hom.families import family_of as real_family_of

    max_n = max_n or (max_nodes + 1 if max_nodes else 8)
    max_nodes = max_nodes or 6
    edge_max_nodes = edge_max_nodes or max_nodes
    fam_of = family_of or real_family_of
    counter = lambda F, test, level: can_count_with(F, test, level, fam_of)  # noqa: E731
    table = cycle_path_table(max_n, fam_of, counter)
    problems = _example_problems(table, max_n)
    sub = lambda test, fam: (lambda F: counter(F, test, fam.level)[0])  # noqa: E731
    found = {"graph": count_table("graph", max_nodes, sub, fam_of),
             "node": count_table("node", max_nodes, sub, fam_of),
             "edge": count_table("edge", edge_max_nodes, sub, fam_of)}
    for rows in found.values():
        rows.pop("All")
    problems += _compare(found, TABLE5)
    ev = {"example 4.6 (largest n, anything countable above it)": {f"{m} / {lvl}": r for (m, lvl), r
                                                                   in table.items()},
          "table 5 counts (n = 2..)": found, "published (n = 2..6)": TABLE5}
    if problems:
        return ClaimResult("FAIL", "; ".join(problems[:6]), ev, witness=problems[0])
    return ClaimResult("PASS", f"Example 4.6 reproduced for cycles and paths up to {max_n} vertices at "
                       f"graph, node and edge level, and Table 5 for patterns up to {max_nodes} vertices "
                       f"(edge level {edge_max_nodes}).", ev)


def can_count_with(F: nx.Graph, test: str, level: str, family_of: Callable) -> tuple[bool, object]:
    """Theorem 4.5 with the given ``family_of`` (so a swapped family changes the verdicts)."""
    from wltools.hom.spasm import spasm

    fam = family_of(test, level)
    for image, marks in spasm(F, _ROOTS[level]):
        if not fam.contains(image, marks):
            return False, image
    return True, None


def _example_problems(table: dict, max_n: int) -> list[str]:
    bad = []
    for model, levels in EXAMPLE_4_6.items():
        for level, (cyc, path) in levels.items():
            got = table.get((model, level))
            want = [(min(cyc, max_n), False), (min(path, max_n), False)]
            if got != want:
                bad.append(f"Example 4.6, {model} at {level} level: published cycles/paths up to "
                           f"{cyc}/{path}, computed {got}")
    return bad
