"""What a caller gives the claims: BREC pairs, BREC theory verdicts, the models' input graphs.

``wltools`` does not read the BREC data set or its verdict cache (``brec_runner``, the layer above,
does). Claims that need them declare it (``register_claim(..., inputs=(...))``) and receive them
as keyword arguments; ``wltools claims verify`` builds them with
:func:`brec_runner.reports.claims.claim_inputs`, tests build them from small hand-made sets.

Inputs
------
``pairs``
    Every BREC pair, in id order: objects with ``.id`` (int), ``.g`` and ``.h`` (networkx graphs
    on nodes ``0..n-1``) and ``.category`` (str), see :class:`PairLike`. A claim restricted by
    ``brec_ids`` uses the pairs with those ids; an id that ``pairs`` lacks is an error, never a
    silently smaller check.
``theory_verdicts``
    ``theory_verdicts(test, ids, rrwp_steps) -> {id: bool}``: whether the WL-family ``test``
    (a name of :data:`wltools.refine.names.TESTS`; RRWP-WL with ``rrwp_steps`` channels) distinguishes
    each BREC pair of ``ids``, see :data:`TheoryVerdicts`. Optional: without it the claims refine
    the pairs themselves (:func:`wltools.refine.refine_pair`, slower, RRWP with K = n).
``to_data``
    ``to_data(G) -> torch_geometric.data.Data``: a graph as the models see it on BREC
    (:func:`brec_runner.runs.dataset.to_pyg`: constant node feature, both edge directions).
``model_bounds``
    ``{model: upper}``: the models whose bounds a claim derives, each with the name of the WL test
    (of :data:`wltools.refine.names.ALL_TESTS`) it declares as its upper bound, or None (the built-in
    models' configs and the examples' ``wl_bound``, :func:`brec_runner.reports.claims.model_bounds`).
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Protocol, Sequence

import networkx as nx

__all__ = ["INPUTS", "PairLike", "TheoryVerdicts", "select_pairs", "brec_graphs", "ids_text"]

#: The inputs a claim may declare, with the words used when one is missing.
INPUTS: dict[str, str] = {
    "pairs": "the BREC pairs (objects with .id, .g, .h, .category)",
    "theory_verdicts": "BREC theory verdicts, a callable (test, ids, rrwp_steps) -> {id: bool}",
    "to_data": "the BREC input featurisation, a callable networkx graph -> torch_geometric Data",
    "model_bounds": "the models' declared upper bounds, a dict {model: WL test name or None}",
}


class PairLike(Protocol):
    """One BREC pair as the claims read it."""

    id: int
    g: nx.Graph
    h: nx.Graph
    category: str


#: ``theory_verdicts(test, ids, rrwp_steps) -> {id: distinguished}``.
TheoryVerdicts = Callable[[str, Sequence[int], int | None], dict[int, bool]]


def select_pairs(pairs: Sequence[PairLike] | None, ids: Iterable[int] | None = None) -> list:
    """The pairs of ``pairs`` with the given ``ids`` (all of them when ``ids`` is None), in the
    order of ``ids``. Raises ``ValueError`` when ``pairs`` was not given or lacks an id, so that a
    claim never checks fewer pairs than it says.

    Examples
    --------
    >>> from types import SimpleNamespace as P
    >>> [p.id for p in select_pairs([P(id=0), P(id=1), P(id=2)], [2, 0])]
    [2, 0]
    """
    if pairs is None:
        raise ValueError(f"this check needs `pairs`: {INPUTS['pairs']}")
    if ids is None:
        return list(pairs)
    by_id = {p.id: p for p in pairs}
    ids = list(ids)
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise ValueError(f"`pairs` lacks BREC pairs {ids_text(missing)} ({len(missing)} of "
                         f"{len(ids)} asked for)")
    return [by_id[i] for i in ids]


def brec_graphs(pairs: Sequence[PairLike] | None,
                ids: Iterable[int] | None = None) -> Iterator[tuple[str, nx.Graph]]:
    """``(label, graph)`` for both graphs of every selected BREC pair (:func:`select_pairs`)."""
    for p in select_pairs(pairs, ids):
        yield f"BREC {p.id} G", p.g
        yield f"BREC {p.id} H", p.h


def ids_text(ids: Iterable[int]) -> str:
    """Ids as ranges, the way ``--brec-ids`` takes them.

    Examples
    --------
    >>> ids_text(range(0, 110)), ids_text([3, 1, 2, 7])
    ('0-109', '1-3,7')
    """
    out: list[str] = []
    run: list[int] = []
    for i in sorted(set(ids)):
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [i]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)
