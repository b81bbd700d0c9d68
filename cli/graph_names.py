"""Graphs and pairs by name on the command line.

``brec:ID`` is BREC's pair ``ID`` (0-399, as BREC numbers them: both graphs), ``brec:ID:g`` and
``brec:ID:h`` one of its two graphs; the suites' pairs are named the same way after their suite
(``exp:12``, ``csl:3``, ``sr25:0``, ``graph8c:7``, ... :func:`wltools.suites.list_suites`). A command
that takes two graphs takes one pair name instead (``wltools check brec:270``). An existing file
of the same name wins, as for every graph argument; everything else goes to
:func:`wltools.graphs.load_graph` (files, graph names such as ``petersen`` or ``K4``, graph6).
"""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx

from wltools.errors import GraphFormatError, UnknownNameError

__all__ = ["pair_by_name", "load_one", "load_two"]

_PAIR_NAME = re.compile(r"([a-z][a-z0-9\-]*):(\d+|[^:]*)(?::([^:]*))?", re.I)


def _sources() -> tuple[str, ...]:
    from wltools.suites import list_suites

    return ("brec", *(s.name for s in list_suites()))


def _parse(spec: str):
    """``(source, id, side)`` of a pair name, or None where ``spec`` is no pair name (or a file)."""
    m = _PAIR_NAME.fullmatch(spec.strip())
    if m is None or m.group(1).lower() not in _sources() or Path(spec).exists():
        return None
    source, ident, side = m.group(1).lower(), m.group(2), m.group(3)
    if not ident.isdigit():
        raise UnknownNameError(f"{spec!r}: the pair id {ident!r} is not a number; write {source}:ID, e.g. {source}:0")
    if side is not None and side.lower() not in ("g", "h"):
        raise UnknownNameError(f"{spec!r}: the side {side!r} is neither g nor h; write {source}:{ident}:g or "
                               f"{source}:{ident}:h")
    return source, int(ident), None if side is None else side.lower()


def _pair(source: str, pid: int) -> tuple[nx.Graph, nx.Graph]:
    if source == "brec":
        from brec_runner.runs.dataset import NUM_PAIRS, load_pairs

        if not 0 <= pid < NUM_PAIRS:
            raise UnknownNameError(f"brec:{pid}: BREC's pair ids are 0-{NUM_PAIRS - 1}")
        p = load_pairs(ids=[pid])[0]
    else:
        from wltools.suites import suite_pairs

        p = suite_pairs(source, ids=[pid])[0]
    G, H = nx.Graph(p.g), nx.Graph(p.h)
    G.graph["name"], H.graph["name"] = f"{source}:{pid}:g", f"{source}:{pid}:h"
    return G, H


def pair_by_name(spec: str) -> tuple[nx.Graph, nx.Graph] | None:
    """Both graphs of the pair ``spec`` names (``brec:270``, ``exp:12``), or None where ``spec``
    is no pair name; a pair name with a side (``brec:270:g``) is refused here: it names one graph."""
    parsed = _parse(spec)
    if parsed is None:
        return None
    source, pid, side = parsed
    if side is not None:
        raise UnknownNameError(f"{spec!r} names one graph; give a second graph, or the pair {source}:{pid}")
    return _pair(source, pid)


def load_one(spec: str, **load_options) -> nx.Graph:
    """One graph: ``brec:ID:g`` / ``:h`` (a suite's the same way) or whatever
    :func:`wltools.graphs.load_graph` takes; a pair name without a side is refused."""
    parsed = _parse(spec) if isinstance(spec, str) else None
    if parsed is None:
        from wltools.graphs import load_graph

        return load_graph(spec, **load_options)
    source, pid, side = parsed
    if side is None:
        raise GraphFormatError(f"{spec!r} names a pair of graphs; give {source}:{pid}:g or {source}:{pid}:h for "
                               "one of them, or the pair alone where two graphs are taken")
    return _pair(source, pid)[0 if side == "g" else 1]


def load_two(g: str, h: str | None, **load_options) -> tuple[nx.Graph, nx.Graph]:
    """``G`` and ``H`` from two graph arguments, or from one pair name (``h`` None)."""
    if h is None:
        pair = pair_by_name(g)
        if pair is None:
            raise GraphFormatError(f"give two graphs G H, or one pair by name (brec:ID, exp:ID, csl:ID, ...); "
                                   f"{g!r} alone is no pair")
        return pair
    return load_one(g, **load_options), load_one(h, **load_options)
