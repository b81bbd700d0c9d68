"""The certified suite: the distinct pairs of ``wltools hierarchy``'s certificates (issue 42).

Each pair was certified to separate an ordered pair of tests (B distinguishes it, A does not; the
graphs are not isomorphic; where B has a homomorphism family a pattern with different counts by two
counters): Fürer pairs over small patterns, atlas pairs and BREC pairs, 6 to 68 vertices. The files,
``certified/certified.g6`` (G, H on consecutive lines) and ``certified/pairs.json`` (per pair the
``[A, B]`` it separates and its construction), are written by :mod:`wltools.hierarchy.suite` from the
committed ``reports/hierarchy.json``.
"""

from __future__ import annotations

import json

from .base import SuiteData, check_file, read_graph6_file

__all__ = ["build", "FILES"]

FILES = ("certified/certified.g6", "certified/pairs.json")


def _kind(construction: str) -> str:
    """``fuerer``, ``atlas`` or ``brec``: how the pair was made."""
    first = construction.split()[0].lower()
    return {"fürer": "fuerer", "graph": "atlas"}.get(first, first)


def build() -> SuiteData:
    """The graphs (G, H of pair i at 2i, 2i + 1) and pairs, each with the test pairs it separates."""
    graphs = read_graph6_file(FILES[0])
    listed = json.loads(check_file(FILES[1]).read_text(encoding="utf-8"))["pairs"]
    pairs = [(2 * p["id"], 2 * p["id"] + 1, _kind(p["construction"]),
              {"construction": p["construction"], "separates": [list(x) for x in p["separates"]]}) for p in listed]
    sources = [f"{FILES[0]} line {k + 1}" for k in range(len(graphs))]
    return SuiteData(graphs=graphs, pairs=pairs, sources=sources)


def check(data: SuiteData, certificates=None) -> list[str]:
    """Two graphs per pair, in order, and every pair tagged with at least one ordered test pair."""
    from ..errors import DataIntegrityError

    if len(data.graphs) != 2 * len(data.pairs) or any((i, j) != (2 * k, 2 * k + 1)
                                                       for k, (i, j, _, _) in enumerate(data.pairs)):
        raise DataIntegrityError("certified suite: certified.g6 and pairs.json disagree on the pairs")
    if any(not extra["separates"] for *_, extra in data.pairs):
        raise DataIntegrityError("certified suite: a pair separates no ordered pair of tests")
    return [f"{len(data.pairs)} pairs, each with the ordered test pairs it separates"]
