"""Witnesses a person can check: the smallest pattern of a test's family whose homomorphism counts
into two graphs differ, with both counts.

Zhang, Gai, Du, Ye, He, Wang (ICLR 2024, "Beyond Weisfeiler-Lehman: A Quantitative Framework for
GNN Expressiveness", arXiv 2401.08514, Definition 3.1 and Theorems 3.4-3.8) show that a model class
fails to distinguish G and H exactly when hom(F, G) = hom(F, H) for every pattern F of its family
(for 1-WL the forests: Dvořák 2010; Dell, Grohe, Rattan, ICALP 2018, Theorem 1.2; for k-FWL the
graphs of treewidth at most k: Dell, Grohe, Rattan 2018, Theorem 1.2, so 3-WL = 2-FWL sees
treewidth <= 2 and wltools' ``3fwl`` = 3-FWL = 4-WL treewidth <= 3). Counts multiply over
components and these families are closed under taking components, so connected patterns suffice.

So a test that distinguishes G and H has a family pattern with different counts (a witness that
anyone can recount, e.g. with ``wltools hom``), and a test that does not must see equal counts for
every family pattern: a difference there is a bug (:class:`TheoryViolation`).

:func:`smallest_witness` walks a pattern list in the order (vertices, edges, graph6), stops at
the first difference, and keeps every count it computes in a :class:`CountCache` (per pattern
size), so that several tests asked about one pair (trees within treewidth 2 within treewidth 3)
count each pattern once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import networkx as nx

from wltools.errors import WLToolsError

from .count import _hom, check_unlabelled

__all__ = ["Witness", "CountCache", "TheoryViolation", "pattern_key",
           "smallest_witness", "Explanation", "explain", "graph_family_patterns"]

class TheoryViolation(WLToolsError):
    """A test that does not distinguish two graphs while a pattern of its family has different
    counts into them: the theorem forbids it, so a test or the counter is wrong (a bug)."""


@dataclass(frozen=True)
class Witness:
    """A pattern whose homomorphism counts into G and H differ: ``hom_g`` != ``hom_h``."""

    pattern: str  # graph6
    hom_g: int
    hom_h: int
    n: int
    m: int

    def name(self) -> str | None:
        """The pattern's name where it has one (:func:`wltools.hom.pattern_names.pattern_name`)."""
        from .pattern_names import pattern_name

        return pattern_name(nx.from_graph6_bytes(self.pattern.encode()))

    def to_dict(self) -> dict:
        """The JSON form: ``{"pattern": GRAPH6, "name": NAME or None, "hom_g": INT, "hom_h": INT}``."""
        return {"pattern": self.pattern, "name": self.name(), "hom_g": self.hom_g, "hom_h": self.hom_h}

    def __str__(self) -> str:
        name = self.name()
        return (f"pattern {self.pattern}{f' ({name})' if name else ''} ({self.n} vertices, {self.m} edges): "
                f"hom = {self.hom_g} into G, {self.hom_h} into H")


_GRAPH6: dict = {}


def graph6(F: nx.Graph) -> str:
    """F's graph6 string (no header), over its nodes in order; remembered for frozen graphs (the
    family patterns), which every search meets again."""
    if nx.is_frozen(F) and id(F) in _GRAPH6:
        return _GRAPH6[id(F)][1]
    text = nx.to_graph6_bytes(F, nodes=list(F.nodes), header=False).decode().strip()
    if nx.is_frozen(F):
        _GRAPH6[id(F)] = (F, text)  # F kept alive, so its id stays its own
    return text


def pattern_key(F: nx.Graph) -> tuple[int, int, str]:
    """The search order: fewest vertices, then fewest edges, then graph6."""
    return F.number_of_nodes(), F.number_of_edges(), graph6(F)


@dataclass
class CountCache:
    """Counts of patterns into one pair (G, H), per pattern size: ``{n: {graph6: (hom_g, hom_h)}}``.
    ``count(F, G)``, when given, replaces the counter (a check injects a broken one to see it FAIL)."""

    G: nx.Graph
    H: nx.Graph
    count: Callable | None = None
    by_size: dict = field(default_factory=dict)
    _adjacency: tuple = field(default_factory=lambda: ({}, {}), repr=False)

    def counts(self, F: nx.Graph) -> tuple[int, int]:
        """``(hom(F, G), hom(F, H))``, counted once."""
        size = self.by_size.setdefault(F.number_of_nodes(), {})
        key = graph6(F)
        if key not in size and self.count is not None:
            size[key] = (self.count(F, self.G), self.count(F, self.H))
        elif key not in size:
            size[key] = (_hom(F, self.G, self._adjacency[0]), _hom(F, self.H, self._adjacency[1]))
        return size[key]

    @property
    def counted(self) -> int:
        return sum(len(v) for v in self.by_size.values())


def smallest_witness(G: nx.Graph, H: nx.Graph, patterns, cache: CountCache | None = None) -> Witness | None:
    """The first pattern of ``patterns`` (in :func:`pattern_key` order) with hom(F, G) != hom(F, H),
    with both counts; None when all agree. ``cache`` (for this G and H) keeps the counts.

    Examples
    --------
    >>> from wltools.graphs import load_graph
    >>> w = smallest_witness(load_graph("shrikhande"), load_graph("rook4x4"), [nx.complete_graph(4)])
    >>> w.to_dict()
    {'pattern': 'C~', 'name': 'K4', 'hom_g': 0, 'hom_h': 192}
    """
    check_unlabelled(G, "G")
    check_unlabelled(H, "H")
    cache = CountCache(G, H) if cache is None else cache
    if cache.G is not G or cache.H is not H:
        raise ValueError("the cache holds counts for another pair of graphs")
    for F in sorted(patterns, key=pattern_key):
        hg, hh = cache.counts(F)
        if hg != hh:
            return Witness(graph6(F), hg, hh, F.number_of_nodes(), F.number_of_edges())
    return None


@lru_cache(maxsize=None)
def graph_family_patterns(test: str, max_nodes: int) -> tuple | None:
    """The connected graph-level patterns of ``test``'s family up to ``max_nodes`` vertices, in
    :func:`pattern_key` order (:func:`wltools.hom.families.family_patterns`), as a tuple, kept for
    the next search; None for a test without a known family."""
    from .families import family_patterns

    out = family_patterns(test, max_nodes)
    return None if out is None else tuple(nx.freeze(F) for F in out)


@dataclass(frozen=True)
class Explanation:
    """What ``--explain`` says about one test result: the smallest family pattern with different
    counts (None: all agree up to ``searched_up_to`` vertices)."""

    test: str
    distinguished: bool
    witness: Witness | None
    searched_up_to: int

    def to_dict(self) -> dict:
        return {"hom_witness": None if self.witness is None else self.witness.to_dict(),
                "hom_searched_up_to": self.searched_up_to}

    def __str__(self) -> str:
        k = self.searched_up_to
        if self.witness is not None:
            return str(self.witness)
        if self.distinguished:
            return f"none up to {k} vertices (a larger pattern of the family separates them)"
        return f"every family pattern up to {k} vertices has equal counts, as the theorem says"


def explain(G: nx.Graph, H: nx.Graph, test: str, distinguished: bool, max_nodes: int,
            cache: CountCache | None = None, family=None) -> Explanation | None:
    """The ``--explain`` answer for one test result, or None when ``test`` has no known family.
    ``family(test, max_nodes)`` lists the patterns (None: no known family; default
    :func:`graph_family_patterns`).

    Raises :class:`TheoryViolation` when ``distinguished`` is False and a family pattern has
    different counts (the theorem in the module docstring forbids it)."""
    patterns = (graph_family_patterns if family is None else family)(test, max_nodes)
    if patterns is None:
        return None
    w = smallest_witness(G, H, patterns, cache)
    if w is not None and not distinguished:
        raise TheoryViolation(f"internal error: {test} does not distinguish the graphs, but the {w}; the "
                              "homomorphism theorem forbids this, so this is a bug: please report it")
    return Explanation(test, distinguished, w, max_nodes)
