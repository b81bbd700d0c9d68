"""What a model failed to see: for each pair a run missed although its declared upper bound
separates it, the smallest pattern of the bound's homomorphism family whose counts into the two
graphs differ (``wltools brec report --explain``).

Zhang, Gai, Du, Ye, He, Wang (ICLR 2024, arXiv 2401.08514, Definition 3.1, Theorems 3.4-3.8): a
model bounded by a test with a pattern family can, at best, tell two graphs apart exactly by the
homomorphism counts of the family's patterns. A pair the bound separates therefore has a family
pattern with different counts; the smallest one (fewest vertices, then edges, then graph6;
:func:`wltools.hom.witness.explain`) is the simplest structure the model would have had to count
and did not. Bounds without a known family (spd, rd, rrwp, ...) get no pattern, never a guess.
"""

from __future__ import annotations

from typing import Any

from wltools.check import EXPLAIN_MAX_NODES

__all__ = ["unseen_patterns", "unseen_lines"]


def unseen_patterns(rep: dict[str, Any], max_nodes: int = EXPLAIN_MAX_NODES) -> dict[str, Any]:
    """``{"test", "searched_up_to", "family", "pairs": [{"id", "pattern", "hom_g", "hom_h"} ...]}`` for
    the report's unrealised pairs (``pattern`` None: no family pattern up to ``max_nodes`` vertices
    differs); ``family`` None and no pairs when the bound has no known family."""
    from wltools.hom.families import no_family_reason
    from wltools.hom.witness import CountCache, explain

    from ..runs.dataset import pairs_of

    test = ((rep.get("theory") or {}).get("upper") or "").split(":")[0] or None
    ids = list((rep.get("pairs_by_class") or {}).get("unrealised") or [])
    out: dict[str, Any] = {"test": test, "searched_up_to": max_nodes, "family": None, "pairs": []}
    if test is None or no_family_reason(test) is not None:
        out["family"] = None if test is None else f"no known family: {no_family_reason(test)}"
        return out
    out["family"] = "known"
    if not ids:  # the model missed nothing the bound separates: nothing to explain (never an empty selection)
        return out
    for p in pairs_of(rep.get("suite"), ids):
        e = explain(p.g, p.h, test, True, max_nodes, CountCache(p.g, p.h))
        w = None if e is None else e.witness
        out["pairs"].append({"id": p.id, **({"pattern": None, "hom_g": None, "hom_h": None}
                                            if w is None else w.to_dict())})
    return out


def unseen_lines(found: dict[str, Any]) -> list[str]:
    """The Markdown section of :func:`unseen_patterns`."""
    head = ["", f"## Patterns the model failed to see (bound {found['test']}, family patterns up to "
            f"{found['searched_up_to']} vertices)", ""]
    if found["family"] != "known":
        return head + [f"- {found['family'] or 'no declared bound'}: no pattern named", ""]
    if not found["pairs"]:
        return head + ["- none: every pair the bound separates is realised", ""]
    rows = [f"- pair {p['id']}: " + (f"pattern {p['pattern']}: hom = {p['hom_g']} into G, {p['hom_h']} into H"
                                     if p["pattern"] else f"none up to {found['searched_up_to']} vertices")
            for p in found["pairs"]]
    return head + rows + [""]
