"""The inclusion claims' atlas verdicts, computed ahead in worker processes.

``gdwl-hierarchy``, ``epwl-placement`` and ``grit-3.2`` refine atlas pairs (all graphs up to 7
nodes) within the groups of a first-iteration invariant (:func:`wltools.claims.grit._atlas_inclusion`,
:func:`wltools.claims._common.grouped_atlas_tally`), several of them the same pairs with the same
test. Which pairs they refine depends only on the groups and the seeded cross-group sample, never
on a verdict, so it is known before they run (:func:`atlas_units`). :mod:`wltools.claims.parallel`
splits the union of those pairs, per test, into parts (:func:`atlas_parts`, while its workers
compute the BREC and suite units), computes them in its workers with the
claims' own verdict function (:func:`wltools.claims.zhang_gdwl._bare_verdict`), and records the
answers here (:func:`remember`) before the claims are forked; a claim's verdict reads them first
(:func:`ahead`). Only ``distinguished`` is kept: the atlas tallies read nothing else
(:func:`wltools.claims._common.as_bool`), so the evidence is that of computing them in the claim.
"""

from __future__ import annotations

import functools
from typing import Sequence

from ._common import _atlas, atlas_graphs, cross_group_sample

__all__ = ["atlas_keys", "atlas_units", "atlas_parts", "compute", "remember", "ahead", "forget"]

#: ``(id(G), id(H), test) -> distinguished`` for atlas graphs (the objects of ``_atlas()``).
_AHEAD: dict[tuple, bool] = {}
#: Pairs per part of a test's atlas verdicts (about a second of one core).
PART = 500


@functools.lru_cache(maxsize=None)
def atlas_keys(test: str, max_nodes: int) -> tuple[int, ...]:
    """:func:`wltools.claims.grit.gdwl_first_histogram` of each graph of ``atlas_graphs(max_nodes)``,
    each histogram replaced by the number of distinct histograms before its first occurrence
    (equal iff the histograms are equal, so the groups are the same; hashing RRWP's nested
    fractions again in every grouping cost seconds). Memoised: computed once per process, and
    inherited by forked workers."""
    from .grit import gdwl_first_histogram

    first: dict = {}
    return tuple(first.setdefault(gdwl_first_histogram(G, test), len(first)) for _, G in atlas_graphs(max_nodes))


def _index(label: str) -> int:
    return int(label.rsplit("#", 1)[1])


def chain_pairs(chains: Sequence[tuple[str, str]], max_nodes: int, max_nodes_3wl: int, *,
                sample: int = 200, seed: int = 0) -> dict[str, list[tuple[int, int]]]:
    """``{test: [(i, j)]}``: the ordered atlas index pairs (``_atlas()[i]``) that
    :func:`wltools.claims.grit.tally_chains` refines with each test for ``chains``, in the
    order it asks them."""
    out: dict[str, dict[tuple[int, int], None]] = {}
    for lower, upper in chains:
        nmax = max_nodes_3wl if upper == "3wl" else max_nodes
        graphs = atlas_graphs(nmax)
        idx = [_index(label) for label, _ in graphs]
        keys = atlas_keys(upper, nmax)
        groups: dict = {}
        for k, key in zip(idx, keys):
            groups.setdefault(key, []).append(k)
        within = [(a, b) for grp in groups.values() for x, a in enumerate(grp) for b in grp[x + 1:]]
        out.setdefault(lower, {}).update(dict.fromkeys(within))
        out.setdefault(upper, {}).update(dict.fromkeys(within))
        cross = cross_group_sample(keys, len(groups), sample, seed)
        out[upper].update(dict.fromkeys((idx[i], idx[j]) for i, j in cross))
    return {t: list(p) for t, p in out.items()}


def atlas_units(chains: Sequence[tuple[str, str]], max_nodes: int, max_nodes_3wl: int,
                refine=None) -> list[tuple]:
    """The request ``("atlas", chains, max_nodes, max_nodes_3wl)`` for the verdicts of
    :func:`chain_pairs` (:func:`atlas_parts` resolves it); none when the claim's verdict is an
    injected ``refine`` (its verdicts are not these) or the atlas cannot hold the graphs."""
    if refine is not None or max(max_nodes, max_nodes_3wl) > 7:
        return []
    return [("atlas", tuple(tuple(c) for c in chains), max_nodes, max_nodes_3wl)]


def atlas_parts(requests: Sequence[tuple]) -> list[tuple]:
    """The pairs of the :func:`atlas_units` ``requests``, merged per test (their union, in
    first-asked order) and split into parts ``("atlas", test, k, pairs)`` of :data:`PART` pairs."""
    merged: dict[str, dict] = {}
    for _, chains, max_nodes, max_nodes_3wl in requests:
        for test, pairs in chain_pairs(chains, max_nodes, max_nodes_3wl).items():
            merged.setdefault(test, {}).update(dict.fromkeys(pairs))
    return [("atlas", test, k, tuple(list(pairs)[s:s + PART]))
            for test, pairs in merged.items() for k, s in enumerate(range(0, len(pairs), PART))]


def compute(test: str, pairs: Sequence[tuple[int, int]]) -> dict[tuple[int, int], bool]:
    """``{(i, j): distinguished}`` by the claims' verdict on atlas graphs ``i``, ``j``."""
    from .zhang_gdwl import _bare_verdict

    graphs = _atlas()
    return {(i, j): bool(_bare_verdict(graphs[i], graphs[j], test).distinguished) for i, j in pairs}


def remember(test: str, answers: dict[tuple[int, int], bool]) -> None:
    graphs = _atlas()
    for (i, j), v in answers.items():
        _AHEAD[(id(graphs[i]), id(graphs[j]), test)] = v


def ahead(G, H, test: str) -> bool | None:
    """The verdict computed ahead for atlas graphs ``G``, ``H``, or None."""
    return _AHEAD.get((id(G), id(H), test))


def forget() -> None:
    _AHEAD.clear()
