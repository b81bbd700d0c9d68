"""``separate(A, B)``: the smallest certified non-isomorphic pair that test B distinguishes and test A
does not.

Candidates, tried smallest first (vertices, then edges) under a time budget:

1. where A and B both have homomorphism families (:mod:`wltools.hom.families`), the Fürer pair
   (:mod:`wltools.hierarchy.furer`) over each connected pattern F of B's family outside A's: by
   Zhang et al. (ICLR 2024, arXiv 2401.08514, the proof of their maximality theorem) A cannot tell
   the two graphs apart, and hom(F, .) differs between them (Roberson 2022), so B can;
2. pairs of the networkx graph atlas (every graph up to 7 vertices), bucketed by 1-WL colours
   (networkx's WL hash): complete for every test at least as strong as 1-WL, as all built-in tests are;
3. the Fürer pairs over every other connected graph up to ``furer_nodes`` vertices;
4. pairs the caller passes (BREC's, the suites'), as ``(name, G, H)``.

Nothing is taken on trust from the construction: a :class:`Certificate` holds A's verdict run to
stability (not distinguished), B's verdict with its round and witness, where B has a family a pattern
with hom(F, G) != hom(F, H) counted by two independent counters (the tree-decomposition DP of
:mod:`wltools.hom.count` and the backtracking of :mod:`wltools.hom.brute`), and non-isomorphism from
canonical certificates (:mod:`wltools.iso`); :func:`verify_certificate` re-checks all of it. When
nothing is found, :class:`NotFound` says what was searched, never that A is at least as strong as B.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

import networkx as nx

from ..errors import UnknownNameError
from ..hom.brute import hom_count_brute
from ..hom.count import hom_count
from ..hom.families import family_of
from ..hom.patterns import connected_graphs
from ..hom.witness import graph6, graph_family_patterns, smallest_witness
from ..iso import certificate_digest
from ..refine import refine_pair, verdict_only
from ..refine.names import is_test_name
from .furer import furer_pair, furer_size

__all__ = ["Candidate", "Certificate", "NotFound", "separate", "verify_certificate", "candidates"]

#: Largest pattern (vertices) the witness search and the Fürer constructions use by default.
FURER_NODES = 6
#: The networkx atlas holds every graph up to this many vertices.
ATLAS_NODES = 7


@dataclass(frozen=True)
class Candidate:
    """A pair to try: its size (vertices of each graph), edges, how it was made, and the pattern F
    whose Fürer pair it is (None for other pairs; a Fürer pair is built only when tried)."""

    size: int
    edges: int
    order: int  # the construction's rank among equal sizes: theorem-backed constructions first
    construction: str
    given: tuple | None = field(default=None, compare=False)
    pattern: nx.Graph | None = field(default=None, compare=False)

    def graphs(self) -> tuple[nx.Graph, nx.Graph]:
        """``(G, H)``: the given pair, or the Fürer pair over the pattern, built now."""
        return self.given if self.given is not None else furer_pair(self.pattern)


@dataclass
class Certificate:
    """A certified separating pair: B distinguishes G and H, A does not, G and H are not isomorphic."""

    a: str
    b: str
    G: nx.Graph
    H: nx.Graph
    construction: str
    a_verdict: dict
    b_verdict: dict
    pattern: str | None
    hom: dict | None
    canonical: tuple[str, str]
    seconds: float
    tried: int

    def to_dict(self) -> dict:
        return {"found": True, "a": self.a, "b": self.b, "construction": self.construction,
                "n": self.G.number_of_nodes(), "m": [self.G.number_of_edges(), self.H.number_of_edges()],
                "G": graph6(self.G), "H": graph6(self.H), "a_verdict": self.a_verdict,
                "b_verdict": self.b_verdict, "pattern": self.pattern, "hom": self.hom,
                "canonical": list(self.canonical), "candidates_tried": self.tried,
                "seconds": round(self.seconds, 3)}

    def __str__(self) -> str:
        n, (mg, mh) = self.G.number_of_nodes(), (self.G.number_of_edges(), self.H.number_of_edges())
        lines = [f"{self.b} distinguishes, {self.a} does not: {self.construction}, {n} vertices, "
                 f"{mg} and {mh} edges",
                 f"  G = {graph6(self.G)}", f"  H = {graph6(self.H)}",
                 f"  {self.a}: not distinguished, stable after {self.a_verdict['iterations']} rounds",
                 f"  {self.b}: distinguished at round {self.b_verdict['iteration']}: {self.b_verdict['witness']}"]
        if self.hom is not None:
            lines.append(f"  pattern {self.pattern}: hom(F, G) = {self.hom['G']}, hom(F, H) = {self.hom['H']} "
                         "(tree-decomposition DP and backtracking agree)")
        lines.append(f"  not isomorphic: canonical certificates {self.canonical[0]} and {self.canonical[1]}")
        return "\n".join(lines)


@dataclass
class NotFound:
    """No separating pair among the candidates searched (``coverage`` says which)."""

    a: str
    b: str
    coverage: list[str]
    seconds: float
    tried: int
    out_of_time: bool

    def to_dict(self) -> dict:
        return {"found": False, "a": self.a, "b": self.b, "coverage": self.coverage,
                "candidates_tried": self.tried, "out_of_time": self.out_of_time,
                "seconds": round(self.seconds, 3)}

    def __str__(self) -> str:
        head = (f"no pair that {self.b} distinguishes and {self.a} does not was found "
                f"({self.tried} candidates tried in {self.seconds:.1f} s"
                f"{', time budget reached' if self.out_of_time else ''}); searched:")
        return "\n".join([head, *(f"  - {c}" for c in self.coverage),
                          "  this is no proof that the first is at least as strong as the second"])


def _pair_candidate(order: int, construction: str, G: nx.Graph, H: nx.Graph) -> Candidate:
    return Candidate(max(G.number_of_nodes(), H.number_of_nodes()),
                     G.number_of_edges() + H.number_of_edges(), order, construction, (G, H))


def _furer_candidates(patterns, order: int, why: str, max_vertices: int) -> list[Candidate]:
    out = []
    for F in patterns:
        if F.number_of_edges() and furer_size(F) <= max_vertices:
            # an edge xy of F brings 2^(deg x + deg y - 3) edges (half of the gadget-state pairs)
            edges = sum(max(1, 2 ** (F.degree(x) + F.degree(y) - 3)) for x, y in F.edges)
            out.append(Candidate(furer_size(F), edges, order, f"Fürer pair over {graph6(F)} ({why})",
                                 pattern=nx.Graph(F)))
    return out


@lru_cache(maxsize=4)
def _atlas_candidates(max_nodes: int) -> tuple[Candidate, ...]:
    """Pairs of atlas graphs with equal 1-WL colours (frozen graphs, shared between searches)."""
    buckets: dict = {}
    for i, G in enumerate(nx.graph_atlas_g()):
        if 0 < G.number_of_nodes() <= max_nodes:
            with warnings.catch_warnings():  # networkx >= 3.5 notes that its hashes changed: only
                warnings.simplefilter("ignore", UserWarning)  # equality within one run is used here
                wl = nx.weisfeiler_lehman_graph_hash(G, iterations=3)
            key = (G.number_of_nodes(), G.number_of_edges(), wl)
            buckets.setdefault(key, []).append((i, nx.freeze(G)))
    return tuple(_pair_candidate(1, f"graph atlas pair G{i}, G{j}", G, H)
                 for group in buckets.values() for k, (i, G) in enumerate(group) for j, H in group[k + 1:])


def candidates(a: str, b: str, *, pairs: Iterable = (), furer_nodes: int = FURER_NODES,
               atlas_nodes: int = ATLAS_NODES, max_vertices: int = 64,
               family_guided: bool = True) -> tuple[list[Candidate], list[str]]:
    """Every candidate pair in the order they are tried, and the coverage lines that describe them
    (``family_guided=False``: no patterns chosen for (a, b); every Fürer pair is a plain candidate)."""
    fa, fb = (family_of(a), family_of(b)) if family_guided else (None, None)
    all_patterns = connected_graphs(furer_nodes, 2)
    coverage, out = [], []
    guided: set = set()
    if fa is not None and fb is not None:
        chosen = [F for F in all_patterns if fb.contains(F) and not fa.contains(F)]
        guided = {graph6(F) for F in chosen}
        out += _furer_candidates(chosen, 0, f"in {b}'s family, outside {a}'s", max_vertices)
        coverage.append(f"Fürer pairs over the {len(chosen)} connected patterns up to {furer_nodes} vertices "
                        f"in {b}'s homomorphism family and outside {a}'s (those up to {max_vertices} vertices)")
    atlas = _atlas_candidates(atlas_nodes)
    out += list(atlas)
    coverage.append(f"all {len(atlas)} pairs of non-isomorphic graphs up to {atlas_nodes} vertices with equal "
                    "1-WL colours after 3 rounds (networkx's graph atlas; every pair with equal stable 1-WL colours)")
    rest = [F for F in all_patterns if graph6(F) not in guided]
    out += _furer_candidates(rest, 2, "a connected base graph", max_vertices)
    coverage.append(f"Fürer pairs over the other connected graphs up to {furer_nodes} vertices "
                    f"(those up to {max_vertices} vertices)")
    given = [_pair_candidate(3, name, G, H) for name, G, H in pairs
             if max(G.number_of_nodes(), H.number_of_nodes()) <= max_vertices]
    if given:
        out += given
        coverage.append(f"{len(given)} given pairs up to {max_vertices} vertices ({given[0].construction}, ...)")
    return sorted(out, key=lambda c: (c.size, c.edges, c.order, c.construction)), coverage


def _verdict(result) -> dict:
    return {"distinguished": result.distinguished, "reason": result.reason, "iteration": result.iteration,
            "iterations": result.iterations, "witness": result.witness}


def _hom_evidence(b: str, c: Candidate, G: nx.Graph, H: nx.Graph, furer_nodes: int) -> tuple[str | None, dict | None]:
    """The pattern with different counts (the Fürer base, or B's smallest family witness) and its
    counts by both counters; (None, None) when B has no family or none differs up to the bound."""
    F = c.pattern
    if F is None or hom_count(F, G) == hom_count(F, H):
        patterns = graph_family_patterns(b, furer_nodes)
        w = None if patterns is None else smallest_witness(G, H, patterns)
        if w is None:
            return None, None
        F = nx.from_graph6_bytes(w.pattern.encode())
    counts = {"G": hom_count(F, G), "H": hom_count(F, H),
              "G_backtracking": hom_count_brute(F, G), "H_backtracking": hom_count_brute(F, H)}
    if counts["G"] != counts["G_backtracking"] or counts["H"] != counts["H_backtracking"]:
        raise AssertionError(f"internal error: the two homomorphism counters disagree on {graph6(F)}: {counts}")
    return graph6(F), counts


def _try(a: str, b: str, c: Candidate, rrwp_steps, furer_nodes: int, started: float, tried: int):
    G, H = c.graphs()
    with verdict_only():
        ra = refine_pair(G, H, a, rrwp_steps=rrwp_steps)
    if ra.distinguished:
        return None
    rb = refine_pair(G, H, b, rrwp_steps=rrwp_steps)
    if not rb.distinguished:
        return None
    canon = (certificate_digest(G), certificate_digest(H))
    if canon[0] == canon[1]:
        return None
    pattern, counts = _hom_evidence(b, c, G, H, furer_nodes)
    return Certificate(a, b, G, H, c.construction, _verdict(ra), _verdict(rb), pattern, counts, canon,
                       time.perf_counter() - started, tried)


def _check_tests(a: str, b: str) -> None:
    for t in (a, b):
        if not isinstance(t, str) or not is_test_name(t):
            raise UnknownNameError(f"unknown test {t!r}")
    if a == b:
        raise UnknownNameError(f"give two different tests (both are {a!r})")


def separate(a: str, b: str, *, pairs: Iterable = (), max_seconds: float = 60.0, max_vertices: int = 64,
             furer_nodes: int = FURER_NODES, atlas_nodes: int = ATLAS_NODES,
             rrwp_steps: int | None = None) -> Certificate | NotFound:
    """The smallest certified pair that ``b`` distinguishes and ``a`` does not (module docstring),
    or :class:`NotFound` with the coverage searched within ``max_seconds``.

    Examples
    --------
    >>> r = separate("1wl", "3wl")   # two triangles against a 6-cycle: hom(K3, .) = 12 against 0
    >>> print(r.construction, r.G.number_of_nodes(), r.hom["G"], r.hom["H"])
    Fürer pair over Bw (in 3wl's family, outside 1wl's) 6 12 0
    """
    _check_tests(a, b)
    started = time.perf_counter()
    todo, coverage = candidates(a, b, pairs=pairs, furer_nodes=furer_nodes, atlas_nodes=atlas_nodes,
                                max_vertices=max_vertices)
    for tried, c in enumerate(todo, 1):
        if time.perf_counter() - started > max_seconds:
            return NotFound(a, b, coverage, time.perf_counter() - started, tried - 1, True)
        found = _try(a, b, c, rrwp_steps, furer_nodes, started, tried)
        if found is not None:
            return found
    return NotFound(a, b, coverage, time.perf_counter() - started, len(todo), False)


def verify_certificate(record: dict, rrwp_steps: int | None = None) -> list[str]:
    """Re-check a certificate's dictionary (:meth:`Certificate.to_dict`) from its graph6 strings
    alone; the list of what fails (empty when every claim holds)."""
    G, H = (nx.from_graph6_bytes(record[k].encode()) for k in ("G", "H"))
    a, b = record["a"], record["b"]
    problems = []
    if refine_pair(G, H, a, rrwp_steps=rrwp_steps).distinguished:
        problems.append(f"{a} distinguishes the pair")
    rb = refine_pair(G, H, b, rrwp_steps=rrwp_steps)
    if not rb.distinguished or rb.iteration != record["b_verdict"]["iteration"]:
        problems.append(f"{b}'s verdict differs: distinguished={rb.distinguished}, round {rb.iteration}")
    if certificate_digest(G) == certificate_digest(H):
        problems.append("G and H are isomorphic")
    if record.get("pattern"):
        F = nx.from_graph6_bytes(record["pattern"].encode())
        got = (hom_count(F, G), hom_count(F, H), hom_count_brute(F, G), hom_count_brute(F, H))
        want = tuple(record["hom"][k] for k in ("G", "H", "G_backtracking", "H_backtracking"))
        if got != want or got[0] == got[1]:
            problems.append(f"homomorphism counts of {record['pattern']}: {got}, the certificate says {want}")
    return problems


