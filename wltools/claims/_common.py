"""Helpers shared by the claim modules: graph descriptions, atlas graphs, and the inclusion engine
for "test A distinguishes nothing that test B does not" claims. (BREC graphs come from the
caller: :mod:`wltools.claims.inputs`.)"""

from __future__ import annotations

import functools
import itertools
import random
from collections import defaultdict
from typing import Callable, Iterable, Sequence

import networkx as nx

__all__ = [
    "describe",
    "atlas_graphs",
    "grouped_pairs",
    "refine_verdict",
    "InclusionTally",
]


def describe(G: nx.Graph, name: str | None = None) -> str:
    """``name (n=.., m=.., graph6 ...)``: enough to rebuild the graph."""
    g6 = nx.to_graph6_bytes(nx.convert_node_labels_to_integers(G), header=False).strip().decode()
    head = f"{name} " if name else ""
    return f"{head}(n={G.number_of_nodes()}, m={G.number_of_edges()}, graph6 {g6})"


@functools.lru_cache(maxsize=None)
def _atlas() -> tuple:
    return tuple(nx.freeze(G) for G in nx.graph_atlas_g())


def atlas_graphs(max_nodes: int, min_nodes: int = 1) -> list[tuple[str, nx.Graph]]:
    """Every graph of ``networkx.graph_atlas_g()`` (all graphs up to 7 nodes, one per isomorphism
    class) with ``min_nodes <= n <= max_nodes``, labelled ``atlas #i``."""
    if max_nodes > 7:
        raise ValueError("the networkx graph atlas holds graphs of at most 7 nodes")
    return [(f"atlas #{i}", G) for i, G in enumerate(_atlas())
            if min_nodes <= G.number_of_nodes() <= max_nodes]


def grouped_pairs(graphs: Sequence[tuple[str, nx.Graph]], key: Callable[[object], object],
                  key_of: Callable[[nx.Graph], object] = lambda G: G) -> tuple[list, int, int]:
    """All unordered pairs of ``graphs`` whose ``key`` agrees.

    Pairs with different keys are skipped: a check that uses this must choose a ``key`` that the
    stronger test provably determines (then every skipped pair is distinguished by it, and an
    inclusion claim holds on it trivially). Returns ``(pairs, number of pairs considered in all,
    number of groups)``. The key of ``G`` is ``key(key_of(G))``.
    """
    groups: dict[object, list] = defaultdict(list)
    for label, G in graphs:
        groups[key(key_of(G))].append((label, G))
    pairs = [(a[0], a[1], b[0], b[1]) for grp in groups.values()
             for a, b in itertools.combinations(grp, 2)]
    total = len(graphs) * (len(graphs) - 1) // 2
    return pairs, total, len(groups)


def memoised(verdict: Callable) -> Callable:
    """``verdict`` cached per (graph objects, test); graphs must not change meanwhile."""
    memo: dict = {}

    def cached(G, H, test):
        key = (id(G), id(H), test)
        if key not in memo:
            memo[key] = (G, H, verdict(G, H, test))  # keep G, H alive so ids stay unique
        return memo[key][2]

    return cached


def refine_verdict(refine: Callable | None = None, **kwargs) -> Callable[[nx.Graph, nx.Graph, str], object]:
    """``verdict(G, H, test) -> RefinementResult`` from ``wltools.refine.refine_pair`` (or the
    injected ``refine``)."""
    if refine is None:
        from wltools.refine import refine_pair as refine

    def verdict(G, H, test):
        return refine(G, H, test, **kwargs)

    return verdict


def _text(label: str | Callable[[], str]) -> str:
    return label() if callable(label) else label


class InclusionTally:
    """Counts for "every pair ``lower`` distinguishes, ``upper`` distinguishes too" on a stream of
    pairs; keeps the first violation (counterexample) and the first strictness witness."""

    def __init__(self, lower: str, upper: str) -> None:
        self.lower, self.upper = lower, upper
        self.pairs = 0
        self.lower_distinguished = 0
        self.upper_distinguished = 0
        self.violations = 0
        self.counterexample: str | None = None
        self.strict: str | None = None
        self.strict_count = 0

    def add(self, label: str | Callable[[], str], low: bool, up: bool) -> None:
        """Count one pair; ``label`` (or ``label()``, called only when the pair becomes the
        first counterexample or strictness witness) names it."""
        self.pairs += 1
        self.lower_distinguished += bool(low)
        self.upper_distinguished += bool(up)
        if low and not up:
            self.violations += 1
            if self.counterexample is None:
                self.counterexample = (f"{_text(label)}: {self.lower} distinguishes, {self.upper} does not")
        if up and not low:
            self.strict_count += 1
            if self.strict is None:
                self.strict = f"{_text(label)}: {self.upper} distinguishes, {self.lower} does not"

    @property
    def ok(self) -> bool:
        return self.violations == 0

    def to_dict(self) -> dict:
        return {"pairs": self.pairs, f"{self.lower} distinguished": self.lower_distinguished,
                f"{self.upper} distinguished": self.upper_distinguished,
                "violations": self.violations, "strictness pairs": self.strict_count,
                "first counterexample": self.counterexample, "first strictness witness": self.strict}


def judge_inclusion(name: str, tallies: Sequence[tuple[str, "InclusionTally"]], info: dict, problems: list,
                    witnesses: list) -> str:
    """Judge one inclusion ``name`` from its tallies ``(where, tally)`` and the atlas grouping's
    ``info``: violations and an unsound grouping go to ``problems`` (their witness to
    ``witnesses``); returns the strictness line (the first strictness witness, if any)."""
    for where, t in tallies:
        if not t.ok:
            problems.append(f"{name} violated on {t.violations} {where} pairs")
            witnesses.append(t.counterexample)
    if info["grouping soundness failures"]:
        problems.append(f"{name}: atlas grouping unsound ({info['grouping soundness failures']})")
        witnesses.append(info["grouping soundness failures"][0])
    sw = next((t.strict for _, t in tallies if t.strict), None)
    return f"{name}: {'strict, e.g. ' + sw if sw else 'no strictness witness in the data'}"


def pairs_label(a: str, b: str) -> str:
    return f"{a} vs {b}"


def tests_of(*relations: Iterable[tuple[str, str]]) -> list[str]:
    """The tests named by the ``(lower, upper)`` relations, sorted.

    Examples
    --------
    >>> tests_of([("spd", "3wl")], [("1wl", "spd")])
    ['1wl', '3wl', 'spd']
    """
    return sorted({t for rel in relations for pair in rel for t in pair})


def inclusion_verdict(n_chains: int, where: str, ev: dict, problems: list, witnesses: list, strict: list,
                      *, more: str = "", lines: Sequence[str] = (), shown: int | None = None):
    """The result of an inclusion claim: FAIL with its ``problems`` (the first ``shown``; the
    first witness) or PASS "all ``n_chains`` inclusions hold on ``where``; k of them are strict in
    the data``more``." with the strictness lines (and ``lines``) as its witness."""
    from .registry import ClaimResult

    if problems:
        return ClaimResult("FAIL", "; ".join(problems[:shown]), ev, witness=witnesses[0])
    n_strict = sum("strict, e.g." in s for s in strict)
    return ClaimResult("PASS", f"all {n_chains} inclusions hold on {where}; {n_strict} of {n_chains} are "
                       f"strict in the data{more}.", ev, witness=" | ".join(list(strict) + list(lines)))


def as_bool(x) -> bool:
    """A verdict object (``RefinementResult``, dict or bool) as ``distinguished``."""
    if isinstance(x, bool):
        return x
    if isinstance(x, dict):
        return bool(x["distinguished"])
    return bool(x.distinguished)


def first(items: Iterable):
    for x in items:
        return x
    return None


def data_tallies(lower: str, upper: str, pairs, table: dict, suite_tables: dict) -> dict:
    """``{where: InclusionTally}`` for ``lower ⊑ upper`` on the BREC ``pairs`` (verdicts in
    ``table[pair id][test]``) and on each suite of ``suite_tables`` (``{suite: {pair id: row}}``)."""
    out = {}
    tb = InclusionTally(lower, upper)
    for p in pairs:
        tb.add(f"BREC {p.id} ({p.category})", table[p.id][lower], table[p.id][upper])
    out["BREC"] = tb
    for name, rows in suite_tables.items():
        ts = InclusionTally(lower, upper)
        for pid, row in rows.items():
            ts.add(f"{name} pair {pid}", row[lower], row[upper])
        out[name] = ts
    return out


def observed_summary(lower: str, upper: str, tallies: dict) -> dict:
    """The information-only summary of ``lower`` vs ``upper`` over ``{where: InclusionTally}``."""
    return {
        "pairs": sum(t.pairs for t in tallies.values()),
        f"{lower} separates, {upper} does not": sum(t.violations for t in tallies.values()),
        "first such pair": next((t.counterexample for t in tallies.values() if t.counterexample), None),
    }


def cross_group_sample(keys: Sequence, ngroups: int, sample: int, seed: int = 0) -> list[tuple[int, int]]:
    """``sample`` seeded random ordered index pairs ``(i, j)`` with ``keys[i] != keys[j]`` (none
    when there is one group): the pairs :func:`grouped_atlas_tally` refines to confirm a grouping."""
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < sample and ngroups > 1:
        i, j = rng.randrange(len(keys)), rng.randrange(len(keys))
        if keys[i] != keys[j]:
            out.append((i, j))
    return out


def grouped_atlas_tally(lower: str, upper: str, groups, verdict, *, group_label: str, sample: int,
                        seed: int = 0):
    """Inclusion tally on the atlas ``pairs`` within groups, and the grouping's soundness check:
    ``upper`` must separate ``sample`` seeded cross-group pairs. ``groups`` is ``(graphs, keys,
    pairs, considered, ngroups)``; ``group_label`` names the grouping invariant in the info."""
    graphs, keys, pairs, considered, ngroups = groups
    t = InclusionTally(lower, upper)
    for la, G, lb, H in pairs:
        low = as_bool(verdict(G, H, lower))
        up = as_bool(verdict(G, H, upper))
        t.add(lambda: f"{la} vs {lb} ({describe(G)} vs {describe(H)})", low, up)  # graph6 only when shown
    unsound = []
    tried = cross_group_sample(keys, ngroups, sample, seed)
    for i, j in tried:
        if not as_bool(verdict(graphs[i][1], graphs[j][1], upper)):
            unsound.append(f"{graphs[i][0]} vs {graphs[j][0]}")
    tried = len(tried)
    info = {"pairs in all": considered, f"groups ({group_label})": ngroups,
            "pairs within groups (refined)": len(pairs),
            f"cross-group pairs sampled, {upper} must distinguish": tried,
            "grouping soundness failures": unsound[:5]}
    return t, info
