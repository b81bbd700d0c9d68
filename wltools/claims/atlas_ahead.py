"""The inclusion claims' atlas verdicts, computed ahead in worker processes.

``gdwl-hierarchy``, ``epwl-placement`` and ``grit-3.2`` refine atlas pairs (all graphs up to 7
nodes) within the groups of a first-iteration invariant (:func:`wltools.claims.grit._atlas_inclusion`,
:func:`wltools.claims._common.grouped_atlas_tally`), several of them the same pairs with the same
test. Which pairs they refine depends only on the groups and the seeded cross-group sample, never
on a verdict, so it is known before they run (:func:`atlas_units`). :mod:`wltools.claims.parallel`
splits the union of those pairs, per test, into parts (:func:`atlas_parts`, while its workers
compute the BREC and suite units), computes them in its workers with the
claims' own verdict function (:func:`claim_verdict`, without its memo), and records the
answers here (:func:`remember`) before the claims are forked; a claim's verdict reads them first
(:func:`ahead`). Only ``distinguished`` is kept: the atlas tallies read nothing else
(:func:`wltools.claims._common.as_bool`), so the evidence is that of computing them in the claim.

The verdict the inclusion claims share (:func:`claim_verdict`) and the grouping invariants
(:func:`gdwl_first_histogram`) live here too, below the claim modules that use them.
"""

from __future__ import annotations

import functools
from typing import Callable, Sequence

import networkx as nx

from ._common import _atlas, as_bool, atlas_graphs, cross_group_sample, memoised, refine_verdict

__all__ = ["claim_verdict", "atlas_classes", "gdwl_first_histogram", "atlas_keys", "atlas_units", "atlas_parts", "compute",
           "remember", "ahead", "forget"]

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
    graphs = _atlas()
    return {(i, j): as_bool(_bare_verdict(graphs[i], graphs[j], test)) for i, j in pairs}


def remember(test: str, answers: dict[tuple[int, int], bool]) -> None:
    graphs = _atlas()
    for (i, j), v in answers.items():
        _AHEAD[(id(graphs[i]), id(graphs[j]), test)] = v


def ahead(G, H, test: str) -> bool | None:
    """The verdict computed ahead for atlas graphs ``G``, ``H``, or None."""
    return _AHEAD.get((id(G), id(H), test))


def forget() -> None:
    _AHEAD.clear()


def _power_traces(G: nx.Graph, matrix: str) -> tuple[int, ...]:
    """``(tr B, tr B^2, ..., tr B^n)`` in exact integers (Python ints, no overflow)."""
    from wltools.refine.epwl import graph_matrix

    B = [[int(x) for x in row] for row in graph_matrix(G, matrix).tolist()]
    n = len(B)
    P, out = [row[:] for row in B], []
    for _ in range(n):
        out.append(sum(P[i][i] for i in range(n)))
        P = [[sum(P[i][k] * B[k][j] for k in range(n) if P[i][k]) for j in range(n)] for i in range(n)]
    return tuple(out)


def gdwl_first_histogram(G: nx.Graph, test: str, *, rrwp_steps: int | None = None):
    """The multiset over nodes v of the multisets {d(v, u) : u}: the colour histogram GD-WL with
    distance ``test`` computes at its first iteration (PPGT Eq. 13 / GRIT Eq. 4 from a constant
    colouring). Any two graphs whose values differ are distinguished by that test, so it is a
    sound grouping key for exhaustive inclusion checks. ``test="3wl"`` and ``"1wl"`` get
    ``(n, degree sequence)``, which both determine after one iteration. ``"epwl"`` and
    ``"epwl-lap"`` get ``(n, traces of B^1 .. B^n)`` (B the adjacency or Laplacian matrix, exact
    integers): EPWL's first iteration holds every node's walk-count multiset with the diagonal
    entry recognisable (its ``B^0`` entry is 1), so it determines these traces, i.e. the
    spectrum."""
    n = G.number_of_nodes()
    if test in ("1wl", "3wl"):
        return (n, tuple(sorted(d for _, d in G.degree())))
    if test in ("epwl", "epwl-lap"):
        return (n, _power_traces(G, "adjacency" if test == "epwl" else "laplacian"))
    from wltools import distances as dist

    if test == "spd":
        rows = dist.spd_matrix(G).tolist()
    elif test == "rd":
        rows = [[(1, 0) if x is dist.INF else (0, x) for x in row] for row in dist.resistance_exact(G)]
    elif test == "rrwp":
        rows = dist.rrwp_exact(G, rrwp_steps or n)
    else:
        raise ValueError(f"no first-iteration histogram for test {test!r}")
    return (n, tuple(sorted(tuple(sorted(r)) for r in rows)))


#: Tests whose verdict :func:`claim_verdict` takes from their kernel declaration without the
#: witness text (``refine_pair`` runs exactly these declarations: ``refine_gdwl``, ``refine_fwl2``).
_BARE = ("spd", "rd", "rrwp", "3wl")


#: Tests whose atlas verdicts :func:`claim_verdict` reads from one colour table over the atlas
#: (:func:`atlas_classes`).
_ON_TABLE = ("1wl",) + _BARE


@functools.lru_cache(maxsize=None)
def atlas_classes(test: str) -> dict[int, tuple[int, int]] | None:
    """``{id(G): (n, class)}`` for every atlas graph ``G`` with a node (the objects of ``_atlas()``):
    its order and its stable class under ``test`` from one colour table over the atlas graphs of
    that order (:func:`wltools.dataset.refine_collection`; one order at a time, so RRWP's default
    ``K`` is the pairs' own, ``n``), or None where the test is not refined on one table. Two graphs
    get one entry exactly when ``refine_pair`` does not distinguish them (graphs of two orders it
    distinguishes at once; colour refinement of a disjoint union colours each graph as alone, and
    the conformance suite's ``collection`` check compares the two paths): the atlas verdicts of
    :data:`_ON_TABLE` are read here, 1,252 graphs refined once instead of thousands of pairs one
    by one (``gdwl-hierarchy``: about 34 of its 40 CPU-s were those pairs)."""
    from wltools.dataset import from_networkx, refine_collection
    from wltools.dataset.refine import on_one_table

    if not on_one_table(test):
        return None
    out: dict[int, tuple[int, int]] = {}
    for n in range(1, 8):
        graphs = [G for G in _atlas() if G.number_of_nodes() == n]
        classes = refine_collection(from_networkx(graphs), test).graph_classes[-1]
        out.update((id(G), (n, int(c))) for G, c in zip(graphs, classes))
    return out


def claim_verdict(refine: Callable | None = None) -> Callable:
    """The memoised ``verdict(G, H, test)`` of the inclusion claims, which read only
    ``distinguished``: ``refine(G, H, test)`` when injected; else ``refine_pair``'s, verdict-only
    (:func:`wltools.refine.kernel.verdict_only`: it stops at the first difference), where for
    :data:`_BARE` tests on unlabelled pairs of equal order and size (nodes ``0..n-1``) the same
    kernel declaration runs with a witness that describes no class (rendering the classes' GD-WL
    keys was a quarter of the atlas checks' time; the verdict, rounds and sizes are the same); on
    two atlas graphs, for :data:`_ON_TABLE` tests, only ``distinguished``, from :func:`atlas_classes`.
    The default one is shared by the claims of a process: ``gdwl-hierarchy`` and
    ``epwl-placement`` refine the same atlas pairs with SPD-WL, RD-WL and 3-WL.

    Examples
    --------
    >>> import networkx as nx
    >>> v = claim_verdict()
    >>> v(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "spd").distinguished
    True
    """
    if refine is not None:
        return memoised(refine_verdict(refine))
    if "verdict" not in _SHARED:
        _SHARED["verdict"] = memoised(_bare_verdict)
    return _SHARED["verdict"]


_SHARED: dict = {}


def _bare_verdict(G, H, test: str):
    known = ahead(G, H, test)  # computed ahead in a worker
    if known is not None:
        return known
    classes = atlas_classes(test) if test in _ON_TABLE else None
    if classes is not None and id(G) in classes and id(H) in classes:
        return classes[id(G)] != classes[id(H)]
    from dataclasses import replace

    from wltools.graphs.labels import pair_labels
    from wltools.refine import refine_pair
    from wltools.refine.declarations import declaration
    from wltools.refine.kernel import refine, verdict_only

    n = G.number_of_nodes()
    with verdict_only():  # the claims read ``distinguished`` alone
        if (test in _BARE and n == H.number_of_nodes() > 0 and G.number_of_edges() == H.number_of_edges()
                and set(G) == set(H) == set(range(n)) and not G.is_directed() and not H.is_directed()
                and not G.is_multigraph() and not H.is_multigraph() and pair_labels(G, H) is None):
            return refine(replace(declaration(G, H, test), describe=lambda *args: "a class"))
        return refine_pair(G, H, test)
