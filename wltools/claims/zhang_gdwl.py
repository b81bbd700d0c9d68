"""The GD-WL hierarchy (Zhang et al. 2023b, "Rethinking the expressive power of GNNs via graph
biconnectivity", Sec. 4 and App. E.3) as used by PPGT App. E.1:
1-WL below GD-WL (with SPD, RD or RRWP) below 3-WL (PPGT writes ``1-WL ⊏ GD-WL ⊏ 3-WL``).

``gdwl-hierarchy`` checks each inclusion "every pair the weaker test distinguishes, the stronger
distinguishes too" on the BREC pairs and exhaustively on all graphs of the networkx atlas, and
reports a strictness witness (a pair only the stronger test separates) where the data has one.
The BREC pairs and their cached theory verdicts are inputs (``pairs``, ``theory_verdicts``: see
:mod:`wltools.claims.inputs`).
"""

from __future__ import annotations

from typing import Callable, Sequence

from .atlas_ahead import atlas_units, claim_verdict
from ._common import InclusionTally, inclusion_verdict, tests_of
from .grit import _THEORY_K, brec_table, tally_chains, verdict_units
from .inputs import select_pairs
from .registry import ClaimResult, register_claim

__all__ = ["HIERARCHY", "check_hierarchy", "claim_verdict"]

#: (weaker, stronger) pairs of tests checked by ``gdwl-hierarchy``.
HIERARCHY: tuple[tuple[str, str], ...] = (
    ("1wl", "spd"), ("1wl", "rd"), ("1wl", "rrwp"),
    ("spd", "3wl"), ("rd", "3wl"), ("rrwp", "3wl"),
)

_SOURCE = ("PPGT App. E.1 (1-WL ⊏ GD-WL ⊏ 3-WL), after Zhang et al. 2023b Sec. 4 / App. E.3 "
           "(Theorems 4.2, 4.5)")


def _needs(*, pairs=None, brec_ids=None, theory_verdicts=None, chains=(), max_nodes=7, max_nodes_3wl=7,
           refine=None, **_) -> list[tuple]:
    """The verdicts ``gdwl-hierarchy`` reads (its tests on BREC and on the atlas pairs)."""
    return (verdict_units(pairs, brec_ids, tests_of(chains), theory_verdicts)
            + atlas_units(chains, max_nodes, max_nodes_3wl, refine))


@register_claim(
    "gdwl-hierarchy",
    statement=("1-WL is below GD-WL with SPD, RD and RRWP, which are below 3-WL: every pair a "
               "weaker test distinguishes, the stronger test distinguishes (with a strictness "
               "witness where the data has one)."),
    source=_SOURCE,
    method="brec+exhaustive",
    params=("brec_ids",),
    inputs=("pairs",),
    needs=_needs,
)
def check_hierarchy(*, pairs=None, brec_ids=None, theory_verdicts: Callable | None = None,
                    chains: Sequence[tuple[str, str]] = HIERARCHY, max_nodes: int = 7,
                    max_nodes_3wl: int = 7, refine: Callable | None = None) -> ClaimResult:
    """Per ``(lower, upper)`` in ``chains``: an :class:`InclusionTally` over the BREC ``pairs``
    of ``brec_ids`` (all by default; verdicts from ``theory_verdicts``, RRWP with K = 32, or by
    ``refine_pair``, RRWP with K = n, without it) and over all pairs of atlas graphs with at most
    ``max_nodes`` nodes (``max_nodes_3wl`` when ``upper`` is 3-WL) whose ``upper``-first-iteration
    invariant agrees (:func:`wltools.claims.grit.gdwl_first_histogram`: graphs where it differs
    are distinguished by ``upper``, so the inclusion holds there; a seeded sample of such
    cross-group pairs is refined to confirm it). Verdicts are memoised per pair and test. PASS
    iff no chain has a violation and every grouping is confirmed sound.
    """
    verdict = claim_verdict(refine)
    pairs = select_pairs(pairs, brec_ids)
    tests = tests_of(chains)
    table = brec_table(tests, pairs, theory_verdicts, verdict)

    def data_tallies(lower, upper):
        tb = InclusionTally(lower, upper)
        for p in pairs:
            tb.add(f"BREC {p.id} ({p.category})", table[p.id][lower], table[p.id][upper])
        return {"BREC": tb}

    ev, problems, witnesses, strict = tally_chains(chains, data_tallies, verdict, max_nodes=max_nodes,
                                                   max_nodes_3wl=max_nodes_3wl)
    for lower, upper in chains:
        if "rrwp" in (lower, upper):
            ev[f"{lower} ⊑ {upper}"]["BREC"]["rrwp K"] = (f"{_THEORY_K} (theory verdicts)" if theory_verdicts
                                                          is not None else "n (refine_pair)")
    ev["strictness"] = strict
    return inclusion_verdict(len(chains), f"{len(pairs)} BREC pairs and exhaustively on the atlas graphs", ev,
                             problems, witnesses, strict)
