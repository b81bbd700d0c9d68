"""The pattern family of each test: the graphs whose homomorphism counts the test sees.

Homomorphism expressivity (Zhang, Gai, Du, Ye, He, Wang, "Beyond Weisfeiler-Lehman: A Quantitative
Framework for GNN Expressiveness", ICLR 2024, arXiv 2401.08514, Definition 3.1): two graphs get the
same colour histogram from the test iff they have the same number of homomorphisms from every
pattern of its family, and the family is maximal. The families of the paper's model classes
(Sec. 2, Eq. 1-5), exact (:mod:`wltools.hom.ear`):

=========================  =====================================================
paper's model class        family (graph level; node / edge level: rooted)
=========================  =====================================================
MPNN                       forests (Thm 3.4; Dell, Grohe & Rattan, ICALP 2018);
                           node: trees ``F^w`` (Thm 3.7); edge: none exists (Thm 3.7)
Subgraph GNN               endpoint-shared NED = a vertex whose removal leaves a
                           forest (Thm 3.4, Cor. 3.5); node / edge: ``F - w`` is a
                           forest (Thm 3.7)
Local 2-GNN                strong NED (Thm 3.4); node / edge: strong NED whose
                           first ear has endpoint ``w`` / endpoints ``w, x`` (Thm 3.7)
Local 2-FGNN               almost-strong NED (Thm 3.4); rooted as for Local 2-GNN
                           (Thm 3.7)
2-FGNN (2-FWL)             NED = treewidth <= 2 (Thm 3.4, Thm 3.10 with k = 2);
                           rooted as for Local 2-GNN with "NED" (Thm 3.7)
3-FGNN (3-FWL = 4-WL)      treewidth <= 3 (Thm 3.10 with k = 3; Dell et al. 2018);
                           node / edge: not stated by the paper
spectral invariant GNN     parallel trees (Gai, Du, Zhang, Maron & Wang, ICLR 2025,
                           arXiv 2503.00485, Thm 3.3, stable colours: every depth);
                           node / edge: not stated
=========================  =====================================================

Each test names its class in :attr:`WLTest.hom_family <wltools.wltests.base.WLTest>`; how it
matches the class (Sec. 2 of the paper, Eq. 1-5) is argued in the docstring of its module in
:mod:`wltools.wltests`. A test whose ``hom_family`` is None has no published characterisation
here (:func:`family_of` returns None and :func:`no_family_reason` says why), never a guess.

Levels: ``graph`` (the test's graph colour), ``node`` (a node's colour; patterns ``F^w`` rooted at
one vertex), ``edge`` (the colour of an ordered vertex pair; patterns ``F^{wx}``, ``w != x``).
:func:`family_patterns` returns rooted patterns with the marks as vertices 0 and 1
(:mod:`wltools.hom.patterns`). Rooted families hold connected patterns only (Definition 3.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Callable

import networkx as nx

from ..errors import UnknownNameError, UnsupportedGraphError
from ..refine.names import is_test_name
from ..wltests.registry import builtin_tests, get_test
from .decompose import treewidth, treewidth_at_most_2
from .ear import has_ned
from .patterns import LEVELS, rooted_patterns

__all__ = ["Family", "family_of", "family_patterns", "no_family_reason", "FAMILY_TESTS",
           "is_apex_forest", "is_parallel_tree"]

_ZHANG = "Zhang, Gai, Du, Ye, He & Wang, ICLR 2024 (arXiv 2401.08514)"
_GAI = "Gai, Du, Zhang, Maron & Wang, ICLR 2025 (arXiv 2503.00485)"


#: Answers already found, by (family, level, labelled pattern, marks): the same labelled pattern
#: always gets the same answer, and the tables and the spasm ask for the same patterns again.
_MEMO: dict = {}
_MEMO_MAX = 500_000


@dataclass(frozen=True)
class Family:
    """A family of patterns, at one level. ``contains(F, roots)`` decides membership exactly;
    ``roots`` are the marked vertices (none, ``(w,)`` or ``(w, x)`` by level)."""

    name: str
    citation: str
    level: str
    member: Callable[[nx.Graph, tuple], bool]
    connected_only: bool = False

    def contains(self, F: nx.Graph, roots: tuple = ()) -> bool:
        """Whether the (rooted) pattern F lies in the family."""
        marks = LEVELS.index(self.level)
        roots = tuple(roots)
        if len(roots) != marks or len(set(roots)) != marks or any(r not in F for r in roots):
            raise UnsupportedGraphError(f"a {self.level}-level pattern has {marks} distinct marked "
                                        f"vertices of the pattern; got {roots!r}")
        if F.number_of_nodes() == 0:
            raise UnsupportedGraphError("the empty graph is not a pattern")
        if (marks or self.connected_only) and not nx.is_connected(F):
            raise UnsupportedGraphError(f"{self.name}: defined for connected patterns only")
        key = (self.name, self.level, frozenset(map(frozenset, F.edges)), frozenset(F.nodes), roots)
        if key not in _MEMO:
            if len(_MEMO) > _MEMO_MAX:
                _MEMO.clear()
            _MEMO[key] = self.member(F, roots)
        return _MEMO[key]


_TW: dict = {}


def _treewidth(F: nx.Graph) -> int:
    """:func:`~wltools.hom.decompose.treewidth`, remembered per labelled graph (the spasm and the
    tables ask for the same canonical patterns under several families)."""
    key = (frozenset(F.nodes), frozenset(map(frozenset, F.edges)))
    if key not in _TW:
        if len(_TW) > _MEMO_MAX:
            _TW.clear()
        _TW[key] = treewidth(F)
    return _TW[key]


def _is_forest(F: nx.Graph, without=None) -> bool:
    """No cycle in F (less the vertex ``without``, when given): no edge joins two vertices that
    the edges before it connect already (union-find; equal to ``m = n - c``, tested)."""
    joined = nx.utils.UnionFind()
    for u, v in F.edges:
        if without is not None and without in (u, v):
            continue
        if joined[u] == joined[v]:
            return False
        joined.union(u, v)
    return True


def is_apex_forest(F: nx.Graph) -> bool:
    """Whether deleting some vertex of F leaves a forest (Cor. 3.5 of Zhang et al.)."""
    return any(_is_forest(F, without=u) for u in F)


def _skeleton_is_tree(F: nx.Graph, S: set) -> bool:
    pairs, reached = set(), set(S)
    for s in S:
        for y in F[s]:
            prev, cur = s, y
            while cur not in S:
                reached.add(cur)
                prev, cur = cur, next(z for z in F[cur] if z != prev)
            if cur == s:
                return False  # a path of a parallel edge has two different endpoints
            pairs.add(frozenset((s, cur)))
    if len(reached) != F.number_of_nodes():
        return False
    T = nx.Graph(list(pairs))
    T.add_nodes_from(S)
    return nx.is_tree(T)


def is_parallel_tree(F: nx.Graph) -> bool:
    """Whether the connected graph F is a parallel tree (Gai et al., Definitions 3.1, 3.2): a tree
    whose every edge ``{u, v}`` is replaced by internally disjoint ``u``-``v`` paths. Exact: the
    skeleton holds every vertex of degree other than 2 and some of degree 2; every choice of the
    latter is tried; the skeleton works iff the chains of the other vertices join distinct skeleton
    vertices and the pairs they join form a tree."""
    if not nx.is_connected(F):
        return False
    deg2 = [v for v in F if F.degree(v) == 2]
    must = {v for v in F if F.degree(v) != 2}
    for k in range(len(deg2) + 1):
        for extra in combinations(deg2, k):
            S = must | set(extra)
            if S and _skeleton_is_tree(F, S):
                return True
    return False


def _by_component(F: nx.Graph, test: Callable[[nx.Graph], bool]) -> bool:
    return all(test(F.subgraph(c).copy()) for c in nx.connected_components(F))


def _ned_member(kind: str) -> Callable[[nx.Graph, tuple], bool]:
    def member(F: nx.Graph, roots: tuple) -> bool:
        if not treewidth_at_most_2(F):
            return False  # a NED of any kind forces treewidth <= 2 (Theorems 3.4 and 3.10)
        if roots:
            return has_ned(F, kind, first_ends=roots)
        return _by_component(F, lambda C: has_ned(C, kind))
    return member


def _tw2_rooted(F: nx.Graph, roots: tuple) -> bool:
    """2-FGNN rooted: a width-2 tree decomposition with the marks in the root bag (App. D,
    Definition D.1 and Lemma D.9): ``tw(F) <= 2`` at node level (re-root at a bag holding ``w``),
    ``tw(F + wx) <= 2`` at edge level (a bag holds both marks iff the edge ``wx`` may be added)."""
    H = F.copy()
    if len(roots) == 2:
        H.add_edge(*roots)
    return treewidth_at_most_2(H)


def _sub_rooted(F: nx.Graph, roots: tuple) -> bool:
    return _is_forest(F, without=roots[0])


_GRAPH = {
    "MPNN": ("forests", f"{_ZHANG}, Theorem 3.4 (MPNN); Dell, Grohe & Rattan, ICALP 2018",
             lambda F, r: _is_forest(F), False),
    "Subgraph GNN": ("endpoint-shared NED (a vertex whose removal leaves a forest)",
                     f"{_ZHANG}, Sec. 3.2, Theorem 3.4 (Subgraph GNN) and Corollary 3.5",
                     lambda F, r: is_apex_forest(F), False),
    "Local 2-GNN": ("strong NED", f"{_ZHANG}, Sec. 3.2, Theorem 3.4 (Local 2-GNN)", _ned_member("strong"),
                    False),
    "Local 2-FGNN": ("almost-strong NED", f"{_ZHANG}, Sec. 3.2, Theorem 3.4 (Local 2-FGNN)",
                     _ned_member("almost-strong"), False),
    "2-FGNN": ("NED (treewidth at most 2)",
               f"{_ZHANG}, Sec. 3.2, Theorem 3.4 (2-FGNN) and Sec. 3.4, Theorem 3.10 (k = 2)",
               lambda F, r: treewidth_at_most_2(F), False),
    "3-FGNN": ("treewidth at most 3", f"{_ZHANG}, Sec. 3.4, Theorem 3.10 (k = 3); Dell, Grohe & "
               "Rattan, ICALP 2018", lambda F, r: F.number_of_nodes() == 1 or _treewidth(F) <= 3,
               False),
    "spectral invariant GNN": ("parallel trees", f"{_GAI}, Sec. 3.1, Definitions 3.1-3.2, Theorem 3.3 "
                               "(every depth)", lambda F, r: is_parallel_tree(F), True),
}

_NODE = {
    "MPNN": ("trees rooted at w", f"{_ZHANG}, Sec. 3.3, Theorem 3.7 (MPNN)",
             lambda F, r: nx.is_tree(F)),
    "Subgraph GNN": ("F - w is a forest (NED with shared endpoint w)",
                     f"{_ZHANG}, Sec. 3.3, Theorem 3.7 (Subgraph GNN)", _sub_rooted),
    "Local 2-GNN": ("strong NED, w an endpoint of the first ear", f"{_ZHANG}, Sec. 3.3, Theorem 3.7 "
                    "(Local 2-GNN)", _ned_member("strong")),
    "Local 2-FGNN": ("almost-strong NED, w an endpoint of the first ear", f"{_ZHANG}, Sec. 3.3, "
                     "Theorem 3.7 (Local 2-FGNN)", _ned_member("almost-strong")),
    "2-FGNN": ("NED, w an endpoint of the first ear (treewidth <= 2)", f"{_ZHANG}, Sec. 3.3, "
               "Theorem 3.7 (2-FGNN); App. D.1, Lemma D.9", _tw2_rooted),
}

_EDGE = {
    "Subgraph GNN": _NODE["Subgraph GNN"],  # the same family, citation and membership as at node level
    "Local 2-GNN": ("strong NED, w and x the endpoints of the first ear", f"{_ZHANG}, Sec. 3.3, "
                    "Theorem 3.7 (Local 2-GNN)", _ned_member("strong")),
    "Local 2-FGNN": ("almost-strong NED, w and x the endpoints of the first ear", f"{_ZHANG}, Sec. 3.3, "
                     "Theorem 3.7 (Local 2-FGNN)", _ned_member("almost-strong")),
    "2-FGNN": ("NED, w and x the endpoints of the first ear (treewidth of F + wx <= 2)",
               f"{_ZHANG}, Sec. 3.3, Theorem 3.7 (2-FGNN); App. D.1, Lemma D.9", _tw2_rooted),
}

#: Why a class has no family at a level where the paper says so, by (class, level).
_NO_LEVEL = {
    ("MPNN", "edge"): "MPNN computes no edge-level colour; Zhang et al. (ICLR 2024, Theorem 3.7) state its "
                      "edge-level expressivity does not exist",
}

#: Tests with a family at graph level, weakest first: for each class of the table, the tests whose
#: :class:`~wltools.wltests.WLTest` names it as their ``hom_family`` (two tests may name one class).
FAMILY_TESTS = tuple(t.name for key in _GRAPH for t in builtin_tests() if t.hom_family == key)


def _check(test: str, level: str) -> str | None:
    if not isinstance(test, str) or not is_test_name(test):
        raise UnknownNameError(f"unknown test {test!r}")
    if level not in LEVELS:
        raise UnknownNameError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    return get_test(test).hom_family  # the model class the test object names, or None


def family_of(test: str, level: str = "graph") -> Family | None:
    """The family of ``test`` at ``level``, or None where no characterisation is published
    (:func:`no_family_reason`). Unknown test or level: :class:`~wltools.errors.UnknownNameError`."""
    key = _check(test, level)
    table = {"graph": _GRAPH, "node": _NODE, "edge": _EDGE}[level]
    if key not in table:
        return None
    spec = table[key]
    return Family(name=spec[0], citation=spec[1], level=level, member=spec[2],
                  connected_only=spec[3] if len(spec) > 3 else False)


def no_family_reason(test: str, level: str = "graph") -> str | None:
    """Why ``test`` has no family at ``level`` (None when it has one)."""
    key = _check(test, level)
    if family_of(test, level) is not None:
        return None
    if (key, level) in _NO_LEVEL:
        return _NO_LEVEL[key, level]
    if key in _GRAPH:
        return f"the papers characterise {test} at graph level only"
    return f"no published homomorphism-expressivity characterisation of {test} is known to wltools"


def family_patterns(test: str, max_nodes: int, level: str = "graph") -> list[nx.Graph] | None:
    """The connected patterns of ``test``'s family up to ``max_nodes`` vertices, sorted by fewest
    vertices, then fewest edges, then graph6 (canonical labelling); None when the test has no
    family at ``level``. Rooted levels: the marks are vertex 0 (``w``) and vertex 1 (``x``)."""
    fam = family_of(test, level)
    if fam is None:
        return None
    roots = {"graph": (), "node": (0,), "edge": (0, 1)}[level]
    return [F for F in rooted_patterns(max_nodes, level) if fam.contains(F, roots)]
