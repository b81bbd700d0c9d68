"""EPWL's place in the hierarchy, and the model bounds that follow.

EPWL (eigenspace projection WL; Zhang, Zhao & Maron 2024b, "On the expressive power of spectral
invariant graph neural networks", as cited by the PPGT paper; Gai et al. 2025) refines node colours
by the multisets ``{{({(lambda, P_lambda(u, v))}, chi(v)) : v}}``, ``P_lambda`` the projection
onto an eigenspace of the graph matrix: ``A`` for ``epwl``, ``L = D - A`` for ``epwl-lap``
(:mod:`wltools.refine.epwl`). The PPGT paper's Table 1 (EPNN row, notation of Zhang et al. 2024b)
places it between GD-WL and 3-WL: ``GD-WL ⊑ EPWL ⊏ 3-WL``.

``epwl-placement`` checks the inclusions this module can also prove in a few lines (each pair of
tests below, "every pair the weaker test distinguishes, the stronger distinguishes too"):

``spd ⊑ epwl`` and ``spd ⊑ epwl-lap``
    ``d(u, v) = min{k : (B^k)_uv != 0}`` for ``B = A`` (walks are non-negative) and for ``B = L``
    (``(L^k)_uv = (-1)^k`` times the number of shortest walks when ``k = d(u, v)`` and 0 below),
    and the walk-count vectors ``((B^0)_uv, ..., (B^(n-1))_uv)`` carry exactly the information of
    the projections (Vandermonde; :mod:`wltools.refine.epwl`). So SPD is a function of EPWL's pair
    label and every SPD-WL round is refined by the same EPWL round.
``rd ⊑ epwl-lap``
    ``L^+ = sum over lambda != 0 of P_lambda / lambda`` and ``RD(u, v) = L^+_uu + L^+_vv - 2 L^+_uv``.
    The diagonal label is recognisable (``sum_lambda P_lambda(u, v) = [u = v]``), so EPWL's round
    ``t + 1`` colour of ``u`` determines ``L^+_uu`` and the multiset of ``(L^+_uv, L^+_vv,
    chi_t(v))``, hence RD-WL's round ``t`` colour; disconnected pairs (``RD = inf``) are the ones
    whose zero-eigenvalue projection vanishes.
``epwl ⊑ 3wl`` and ``epwl-lap ⊑ 3wl``
    2-FWL's pair colours refine ``(B^k)_uv`` for every ``k`` by induction
    (``(B^(k+1))_uv = sum_w B_uw (B^k)_wv`` is its aggregation), so they refine EPWL's pair labels,
    and the node refinement over them is bounded by 2-FWL = 3-WL (Zhang et al. 2023b's argument
    for GD-WL, App. E.3).

Each inclusion is checked on the BREC pairs, on the classic suites (all their pairs) and
exhaustively on the atlas graphs (up to 7 nodes; pairs grouped by a key the stronger test
determines after one round: for EPWL the spectrum, see
:func:`wltools.claims.grit.gdwl_first_histogram`), with a strictness witness where the data has
one. Two relations the claim does not make are tallied beside it as observations: RRWP-WL versus
EPWL (no inclusion proved here; GRIT and PPGT are RRWP-WL models) and EPWL over ``A`` versus ``L``.

The model bounds that follow: a model whose declared upper bound ``U`` lies below an EPWL variant
through the proved inclusions (and 1-WL ⊑ SPD-WL, the ``gdwl-hierarchy`` claim) is bounded by that
variant; for the others the evidence says why not. The ``model_bounds`` input
(:mod:`wltools.claims.inputs`) lists the models.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ._common import as_bool, data_tallies, inclusion_verdict, observed_summary, tests_of
from .atlas_ahead import atlas_units
from .grit import brec_table, tally_chains, verdict_units
from .inputs import select_pairs
from .registry import ClaimResult, register_claim
from .zhang_gdwl import claim_verdict

__all__ = ["PLACEMENT", "OBSERVED", "PROVED", "DEFAULT_SUITES", "bounded_by", "check_epwl_placement"]

#: (weaker, stronger) inclusions the claim checks (each proved in the module docstring).
PLACEMENT: tuple[tuple[str, str], ...] = (
    ("spd", "epwl"), ("spd", "epwl-lap"), ("rd", "epwl-lap"), ("epwl", "3wl"), ("epwl-lap", "3wl"),
)
#: Relations tallied on the same data without a claim either way.
OBSERVED: tuple[tuple[str, str], ...] = (
    ("rrwp", "epwl"), ("epwl", "rrwp"), ("rrwp", "epwl-lap"), ("epwl-lap", "rrwp"),
    ("epwl", "epwl-lap"), ("epwl-lap", "epwl"), ("rd", "epwl"),
)
#: Every proved inclusion used to derive model bounds: the placement and 1-WL ⊑ SPD-WL
#: (``gdwl-hierarchy``; Zhang et al. 2023b).
PROVED: tuple[tuple[str, str], ...] = (("1wl", "spd"),) + PLACEMENT
#: The suites checked by default (all their pairs).
DEFAULT_SUITES: tuple[str, ...] = ("csl", "exp", "sr25", "graph8c", "sr16", "sr26", "sr28")

_SOURCE = ("PPGT paper Table 1, EPNN row (GD-WL ⊑ EPWL ⊏ 3-WL), after Zhang, Zhao & Maron 2024b; "
           "the inclusion proofs are in wltools/claims/epwl.py")


def bounded_by(upper: str | None, target: str, proved: Sequence[tuple[str, str]] = PROVED
               ) -> list[str] | None:
    """The shortest chain of proved inclusions from ``upper`` to ``target`` (``[upper, ...,
    target]``), or None when there is none.

    Examples
    --------
    >>> bounded_by("1wl", "epwl")
    ['1wl', 'spd', 'epwl']
    >>> bounded_by("rrwp", "epwl") is None
    True
    """
    if upper is None:
        return None
    paths = {upper: [upper]}
    todo = [upper]  # breadth first, in PROVED order: the shortest chain, deterministically
    while todo:
        a = todo.pop(0)
        for lo, hi in proved:
            if lo == a and hi not in paths:
                paths[hi] = paths[a] + [hi]
                todo.append(hi)
    return paths.get(target)


def suite_tally(names: Sequence[str], tests: Sequence[str], suite_ids: dict | None,
                 suite_theory: Callable | None) -> dict[str, dict[int, dict[str, bool]]]:
    if suite_theory is None:  # the verdicts only: the claims read nothing else
        from functools import partial

        from wltools.suites.theory import suite_theory as full

        suite_theory = partial(full, verdict_only=True)
    out = {}
    for name in names:
        ids = None if suite_ids is None else suite_ids.get(name)
        th = suite_theory(name, tests, ids=ids)
        out[name] = {pid: {t: as_bool(v[t]) for t in tests} for pid, v in th.verdicts.items()}
    return out


def _model_bounds(model_bounds: dict | None) -> tuple[dict, list[str]]:
    out, bounded = {}, []
    for model, upper in (model_bounds or {}).items():
        row = {"declared upper bound": upper}
        for target in ("epwl", "epwl-lap"):
            chain = bounded_by(upper, target)
            if chain:
                row[target] = "bounded: " + " ⊑ ".join(chain)
            elif upper is None:
                row[target] = "no bound declared"
            elif upper == "3wl":
                row[target] = "not implied: its declared bound is 3-WL, above EPWL"
            else:
                row[target] = f"not implied: no proved inclusion {upper} ⊑ {target}"
        if any(str(row[t]).startswith("bounded") for t in ("epwl", "epwl-lap")):
            bounded.append(model)
        out[model] = row
    return out, bounded


def _needs(*, pairs=None, brec_ids=None, theory_verdicts=None, suites=(), suite_ids=None, chains=(),
           observed=(), max_nodes=7, max_nodes_3wl=7, refine=None, **_) -> list[tuple]:
    """The verdicts ``epwl-placement`` reads (its tests on BREC, on the suites and on the atlas)."""
    return (verdict_units(pairs, brec_ids, tests_of(chains, observed), theory_verdicts, suites, suite_ids)
            + atlas_units(chains, max_nodes, max_nodes_3wl, refine))


@register_claim(
    "epwl-placement",
    statement=("EPWL sits between GD-WL and 3-WL: SPD-WL ⊑ EPWL over A and over L, RD-WL ⊑ EPWL "
               "over L, and both EPWL variants ⊑ 3-WL; every pair a weaker test distinguishes, "
               "the stronger distinguishes (with strictness witnesses); and the model bounds "
               "that follow."),
    source=_SOURCE,
    method="brec+suites+exhaustive",
    params=("brec_ids",),
    inputs=("pairs", "model_bounds"),
    needs=_needs,
)
def check_epwl_placement(*, pairs=None, brec_ids=None, theory_verdicts: Callable | None = None,
                         model_bounds: dict | None = None,
                         suites: Sequence[str] = DEFAULT_SUITES, suite_ids: dict | None = None,
                         suite_theory: Callable | None = None,
                         chains: Sequence[tuple[str, str]] = PLACEMENT,
                         observed: Sequence[tuple[str, str]] = OBSERVED,
                         max_nodes: int = 7, max_nodes_3wl: int = 7,
                         refine: Callable | None = None) -> ClaimResult:
    """Per ``(lower, upper)`` of ``chains``: an :class:`InclusionTally` on the BREC ``pairs`` of
    ``brec_ids`` (verdicts from ``theory_verdicts`` when given, else ``refine``), on the pairs of
    each suite of ``suites`` (``suite_ids``: ``{suite: ids}`` to restrict; verdicts by
    :func:`wltools.suites.theory.suite_theory`) and on the atlas graphs up to ``max_nodes``
    (``max_nodes_3wl`` when ``upper`` is 3-WL). ``observed`` relations are tallied on BREC and the
    suites only, and never decide the status. ``model_bounds`` (``{model: declared upper bound}``)
    gives the evidence's "model bounds" table. PASS iff no chain has a violation and every atlas
    grouping is sound."""
    verdict = claim_verdict(refine)
    pairs = select_pairs(pairs, brec_ids)
    tests = tests_of(chains, observed)
    table = brec_table(tests, pairs, theory_verdicts, verdict)
    suite_tables = suite_tally(suites, tests, suite_ids, suite_theory)

    def tallies(lower, upper):
        return data_tallies(lower, upper, pairs, table, suite_tables)

    ev, problems, witnesses, strict = tally_chains(chains, tallies, verdict, max_nodes=max_nodes,
                                                   max_nodes_3wl=max_nodes_3wl)
    ev["strictness"] = strict
    ev["observed (no claim)"] = {f"{lower} vs {upper}": observed_summary(lower, upper, tallies(lower, upper))
                                 for lower, upper in observed}
    rows, bounded = _model_bounds(model_bounds)
    ev["model bounds"] = rows
    where = f"{len(pairs)} BREC pairs, {sum(len(r) for r in suite_tables.values())} suite pairs " \
            f"({', '.join(suite_tables) or 'none'}) and the atlas graphs"
    return inclusion_verdict(len(chains), where, ev, problems, witnesses, strict,
                             more="; bounded by EPWL (either variant) through them: "
                                  f"{', '.join(bounded) if bounded else 'no model given'}")
