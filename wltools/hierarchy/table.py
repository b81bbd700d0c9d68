"""``hierarchy(tests)``: every ordered pair of tests placed from evidence, with a certified pair for
each "not weaker".

One pass over the candidates of :func:`wltools.hierarchy.separate.candidates` (Fürer pairs over small
graphs, the atlas's 1-WL-equivalent pairs, pairs the caller passes), smallest first: each candidate is
refined once by every test (verdict only), so n tests cost one sweep, not n (n - 1) searches. For each
ordered pair (A, B) the smallest candidate that B distinguishes and A does not is then certified
exactly as :func:`~wltools.hierarchy.separate.separate` certifies it (A to stability, B's round and
witness, two homomorphism counters, canonical forms). Two tests are then:

* **incomparable**: a certified pair each way;
* **A strictly weaker than B**: a certified pair that B separates and A does not, and none the other
  way *on everything searched* (the coverage is part of the answer: this is an observation, not a
  theorem, unless a published result says so);
* **equal on everything searched**: no pair either way.

The Hasse diagram keeps the "strictly weaker" edges that no third test lies between.

A sweep stopped by its time budget resumes: :meth:`Hierarchy.to_dict` records how many candidates
were swept and a fingerprint of the candidate list, and ``hierarchy(..., resume=h)`` goes on from the
next candidate when the tests and candidates are the same (:class:`ResumeMismatch` otherwise).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

import networkx as nx

from ..errors import WLToolsError
from ..refine import refine_pair, verdict_only
from .separate import FURER_NODES, Candidate, Certificate, _check_tests, _try, candidates
from .sources import contradicted_theorems, theorem_source

__all__ = ["Hierarchy", "hierarchy", "draw_hasse", "N4_MAX_VERTICES", "ResumeMismatch"]

#: Largest candidate (vertices) refined by the tests whose rounds cost ``n^4`` (the registry's
#: ``time_power``: 4-WL, M2's doubly marked copies); the others take every candidate up to
#: ``max_vertices``.
N4_MAX_VERTICES = 24


def _default_caps(tests) -> dict:
    """``{test: N4_MAX_VERTICES}`` for the tests of ``tests`` whose rounds cost ``n^4``."""
    from ..wltests.registry import get_test

    return {t: N4_MAX_VERTICES for t in tests if get_test(t).time_power >= 4}


@dataclass
class Hierarchy:
    """The evidence for every ordered pair of ``tests`` (module docstring)."""

    tests: tuple[str, ...]
    certificates: dict = field(default_factory=dict)  # (a, b) -> Certificate: b separates, a does not
    checked: dict = field(default_factory=dict)  # test -> candidates it refined
    coverage: list = field(default_factory=list)
    seconds: float = 0.0
    out_of_time: bool = False
    notes: list = field(default_factory=list)  # lines a caller adds (e.g. against BREC's table)
    swept: int = 0  # candidates swept, in order (a resumed sweep starts at the next one)
    fingerprint: str = ""  # of the candidate list and the per-test caps (see _fingerprint)

    @property
    def complete(self) -> bool:
        """Every candidate swept, or every ordered pair certified (nothing left to resume)."""
        return not self.out_of_time

    def relation(self, a: str, b: str) -> str:
        """``"incomparable"``, ``"weaker"`` (a strictly weaker than b), ``"stronger"`` or ``"equal"``
        (on everything searched)."""
        ab, ba = (a, b) in self.certificates, (b, a) in self.certificates
        return {(True, True): "incomparable", (True, False): "weaker", (False, True): "stronger",
                (False, False): "equal"}[(ab, ba)]

    def hasse_edges(self) -> list[tuple[str, str]]:
        """``(a, b)`` for a strictly weaker than b with no test c strictly between them."""
        weaker = {(a, b) for a in self.tests for b in self.tests if a != b and self.relation(a, b) == "weaker"}
        return sorted((a, b) for a, b in weaker
                      if not any((a, c) in weaker and (c, b) in weaker for c in self.tests))

    def source(self, a: str, b: str) -> str | None:
        """Where the order between a and b comes from (module :mod:`~wltools.hierarchy.sources`):
        a cited theorem, or "observed on everything searched"; None for incomparable / equal."""
        rel = self.relation(a, b)
        if rel == "equal":
            cited = theorem_source(a, b) or theorem_source(b, a)
            return None if cited is None else f"a theorem orders them strictly ({cited}); no pair found here"
        if rel not in ("weaker", "stronger"):
            return None
        lo, hi = (a, b) if rel == "weaker" else (b, a)
        return theorem_source(lo, hi) or "observed on everything searched (no theorem cited)"

    def contradictions(self) -> list[str]:
        """Cited theorems a certified pair contradicts (empty when the evidence agrees with all)."""
        return contradicted_theorems(set(self.certificates))

    def to_dict(self) -> dict:
        pairs = []
        for i, a in enumerate(self.tests):
            for b in self.tests[i + 1:]:
                row = {"a": a, "b": b, "relation": self.relation(a, b), "source": self.source(a, b)}
                for key, (x, y) in (("b_over_a", (a, b)), ("a_over_b", (b, a))):
                    cert = self.certificates.get((x, y))
                    row[key] = None if cert is None else cert.to_dict()
                pairs.append(row)
        return {"tests": list(self.tests), "pairs": pairs, "hasse": [list(e) for e in self.hasse_edges()],
                "candidates_refined": dict(self.checked), "coverage": self.coverage,
                "contradicted_theorems": self.contradictions(), "notes": list(self.notes),
                "out_of_time": self.out_of_time, "seconds": round(self.seconds, 1),
                "candidates_swept": self.swept, "fingerprint": self.fingerprint}

    @classmethod
    def from_dict(cls, record: dict) -> "Hierarchy":
        """The hierarchy a :meth:`to_dict` record holds (certificates rebuilt from their graph6)."""
        h = cls(tuple(record["tests"]), checked=dict(record["candidates_refined"]),
                coverage=list(record["coverage"]), seconds=record["seconds"], out_of_time=record["out_of_time"],
                notes=list(record.get("notes", ())), swept=record.get("candidates_swept", 0),
                fingerprint=record.get("fingerprint", ""))
        for row in record["pairs"]:
            for key in ("b_over_a", "a_over_b"):
                c = row[key]
                if c is not None:
                    G, H = (nx.from_graph6_bytes(c[k].encode()) for k in ("G", "H"))
                    h.certificates[(c["a"], c["b"])] = Certificate(
                        c["a"], c["b"], G, H, c["construction"], c["a_verdict"], c["b_verdict"], c["pattern"],
                        c["hom"], tuple(c["canonical"]), c["seconds"], c["candidates_tried"])
        return h

    def markdown(self) -> str:
        """A table of every pair of tests with its relation and smallest certified pairs."""
        lines = ["| A | B | relation | source | pair B separates, A does not | pair A separates, B does not |",
                 "|---|---|---|---|---|---|"]

        def cell(cert: Certificate | None) -> str:
            if cert is None:
                return "none found"
            return f"{cert.G.number_of_nodes()} vertices: {cert.construction}"

        for row in self.to_dict()["pairs"]:
            a, b = row["a"], row["b"]
            words = {"weaker": f"{a} < {b}", "stronger": f"{b} < {a}", "incomparable": "incomparable",
                     "equal": "equal on everything searched"}[row["relation"]]
            lines.append(f"| {a} | {b} | {words} | {row['source'] or ''} | {cell(self.certificates.get((a, b)))} | "
                         f"{cell(self.certificates.get((b, a)))} |")
        bad = self.contradictions()
        lines += ["", "Cited theorems the evidence contradicts: " + ("; ".join(bad) if bad else "none")]
        if self.notes:
            lines += ["", "Against BREC's theory table:", *(f"- {n}" for n in self.notes)]
        lines += ["", "Searched:", *(f"- {c}" for c in self.coverage),
                  "- candidates refined per test: " + ", ".join(f"{t} {n}" for t, n in self.checked.items()),
                  "", "\"<\" means: a certified pair one way and none the other way on everything searched; "
                  "the source column says whether a published theorem also proves it."]
        return "\n".join(lines) + "\n"


def _verdicts(c: Candidate, tests, max_vertices_of: dict) -> dict:
    G, H = c.graphs()
    out = {}
    with verdict_only():
        for t in tests:
            if c.size <= max_vertices_of.get(t, c.size):
                out[t] = refine_pair(G, H, t).distinguished
    return out


class ResumeMismatch(WLToolsError):
    """A sweep to resume was made with other tests or other candidates."""


def _fingerprint(todo, caps: dict) -> str:
    """A digest of the candidates in sweep order and the per-test vertex caps: equal fingerprints
    mean a resumed sweep sees the same candidates in the same order."""
    text = "\n".join(f"{c.size} {c.edges} {c.order} {c.construction}" for c in todo)
    text += "\n" + repr(sorted(caps.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _resumed(resume: Hierarchy, tests: tuple, fingerprint: str, coverage: list) -> Hierarchy:
    """The stopped sweep ``resume`` set up to go on (its coverage lines rebuilt at the end)."""
    if tuple(resume.tests) != tests:
        raise ResumeMismatch(f"the sweep to resume placed the tests {','.join(resume.tests)}, not "
                             f"{','.join(tests)}: give the same tests, or start a new sweep")
    if resume.fingerprint != fingerprint:
        raise ResumeMismatch("the sweep to resume tried other candidates (another --max-vertices or --brec, "
                             "or another version): give the same settings, or start a new sweep")
    return Hierarchy(tests, certificates=dict(resume.certificates), checked=dict(resume.checked),
                     coverage=coverage, seconds=resume.seconds, notes=[], swept=resume.swept,
                     fingerprint=fingerprint)


def hierarchy(tests, *, pairs=(), max_seconds: float = 300.0, max_vertices: int = 64,
              max_vertices_of: dict | None = None, progress=None, resume: Hierarchy | None = None) -> Hierarchy:
    """Place every ordered pair of ``tests`` (module docstring) within ``max_seconds``;
    ``progress(line)``, when given, is called with a status line at most every 10 seconds.
    ``resume``: a sweep stopped by its time budget (:meth:`Hierarchy.from_dict`), continued from
    its next candidate with a new budget of ``max_seconds``."""
    tests = tuple(dict.fromkeys(tests))
    if len(tests) < 2:
        from ..errors import UnknownNameError

        raise UnknownNameError("give at least two different tests")
    for i, a in enumerate(tests):
        for b in tests[i + 1:]:
            _check_tests(a, b)
    caps = _default_caps(tests) if max_vertices_of is None else max_vertices_of
    started = time.perf_counter()
    todo, coverage = candidates(tests[0], tests[1], pairs=pairs, max_vertices=max_vertices, family_guided=False)
    fingerprint = _fingerprint(todo, {t: v for t, v in caps.items() if t in tests})
    if resume is not None:
        h = _resumed(resume, tests, fingerprint, coverage)
    else:
        h = Hierarchy(tests, coverage=coverage, checked={t: 0 for t in tests}, fingerprint=fingerprint)
    before = h.seconds
    open_pairs = {(a, b) for a in tests for b in tests if a != b} - set(h.certificates)
    said = started
    for tried, c in enumerate(todo[h.swept:], h.swept + 1):
        if progress is not None and time.perf_counter() - said >= 10:
            said = time.perf_counter()
            progress(f"hierarchy: candidate {tried} of {len(todo)} ({c.size} vertices), {len(open_pairs)} ordered "
                     f"pairs without a certified pair, {said - started:.0f} s of {max_seconds:.0f} s")
        if not open_pairs:
            break
        if time.perf_counter() - started > max_seconds:
            h.out_of_time = True
            break
        seen = _verdicts(c, tests, caps)
        for t in seen:
            h.checked[t] += 1
        for a, b in sorted(open_pairs):
            if seen.get(b) is True and seen.get(a) is False:
                cert = _try(a, b, c, None, FURER_NODES, started - before, tried)
                if cert is not None:
                    h.certificates[(a, b)] = cert
                    open_pairs.discard((a, b))
        h.swept = tried
    h.seconds = before + time.perf_counter() - started
    if h.out_of_time:
        h.coverage.append(f"stopped after {h.seconds:.0f} s (time budget): larger candidates not tried")
    capped = {t: v for t, v in caps.items() if t in tests}
    if capped:
        h.coverage.append("candidates above " + ", ".join(f"{v} vertices for {t}" for t, v in capped.items())
                          + " not refined by that test (n^4 rounds or many marked copies)")
    return h


def draw_hasse(h: Hierarchy, path) -> None:
    """The Hasse diagram of ``h`` (weaker below), each edge labelled with the size (vertices) of its
    smallest certified pair; tests equal on everything searched drawn side by side."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..draw.figure import save_figure

    D = nx.DiGraph()
    D.add_nodes_from(h.tests)
    D.add_edges_from(h.hasse_edges())
    level = {t: 0 for t in h.tests}
    for t in nx.topological_sort(D):
        for u in D.successors(t):
            level[u] = max(level[u], level[t] + 1)
    rows: dict = {}
    for t in h.tests:
        rows.setdefault(level[t], []).append(t)
    pos = {t: (i - (len(r) - 1) / 2, lv) for lv, r in rows.items() for i, t in enumerate(r)}
    width = max(len(r) for r in rows.values())
    fig, ax = plt.subplots(figsize=(max(5.5, 1.6 * width), 1.3 * (len(rows) + 1)))
    nx.draw_networkx(D, pos, ax=ax, node_color="#f0f0f0", edgecolors="#333333", node_size=1500, font_size=8,
                     arrows=True, arrowsize=12)
    labels = {(a, b): str(h.certificates[(a, b)].G.number_of_nodes()) for a, b in D.edges}
    nx.draw_networkx_edge_labels(D, pos, edge_labels=labels, ax=ax, font_size=7)
    ax.set_title("tests, weaker below (on everything searched);\nan edge's label: vertices of its smallest "
                 "certified pair", fontsize=9)
    ax.set_axis_off()
    save_figure(fig, path)
    plt.close(fig)
