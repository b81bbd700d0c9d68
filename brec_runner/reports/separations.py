"""What a model realises per separated pair of tests: "of the pairs that separate class A from class
B (B distinguishes them, A does not), this model realises k" (issue 42).

It stands on a suite whose pairs carry the ordered test pairs they separate, as the certified suite's
do (``wltools.suites.certified``: each pair certified by ``wltools hierarchy``); for any other suite or
for BREC the list is empty. A pair counts as realised in a seed when the model separated it with a
passing reliability check (BREC's RPC protocol), the same rule as the report's "realised" column.
"""

from __future__ import annotations

from typing import Any

__all__ = ["separation_rows", "separation_lines"]


def _tags(suite: str) -> dict[int, list]:
    from wltools.suites import get_suite, suite_data

    data = suite_data(get_suite(suite).name)
    return {pid: extra.get("separates") or [] for pid, (*_, extra) in enumerate(data.pairs)}


def separation_rows(suite: str | None, records: list[dict]) -> list[dict[str, Any]]:
    """One row per ordered test pair ``(a, b)`` that some pair run separates: ``pairs`` (the pairs
    run by every seed that ``b`` distinguishes and ``a`` does not) and ``realised`` (per seed, in
    seed order, how many of them the model realised)."""
    if not suite or not records:
        return []
    tags = _tags(suite)
    seeds = sorted({r["seed"] for r in records})
    by_seed = {s: {r["id"]: r for r in records if r["seed"] == s} for s in seeds}
    common = sorted(set.intersection(*(set(by_seed[s]) for s in seeds)))
    groups: dict[tuple, list[int]] = {}
    for pid in common:
        for a, b in tags.get(pid, ()):
            groups.setdefault((a, b), []).append(pid)

    def realised(s: int, ids: list[int]) -> int:
        return sum(bool(by_seed[s][i]["distinguished"] and by_seed[s][i]["reliable"]) for i in ids)

    return [{"a": a, "b": b, "pairs": ids, "realised": [realised(s, ids) for s in seeds]}
            for (a, b), ids in sorted(groups.items())]


def _count(row: dict, seeds: list) -> str:
    k = row["realised"]
    got = str(k[0]) if len(set(k)) == 1 else ", ".join(f"{x} (seed {s})" for x, s in zip(k, seeds))
    return f"{got} of {len(row['pairs'])}"


def separation_lines(rows: list[dict], upper: str | None, seeds: list) -> list[str]:
    """The Markdown section: the test pairs that involve the model's declared class ``upper``
    (pairs inside its class that a weaker test misses; pairs beyond it), all rows in the JSON."""
    if not rows:
        return []
    lines = ["", "## Pairs by the tests they separate", ""]
    if upper is None:
        return lines + [f"No bound declared: the {len(rows)} ordered test pairs these pairs separate, with what "
                        "the model realises of each, are in the JSON report (`separations`)."]
    inside = [r for r in rows if r["b"] == upper]
    beyond = [r for r in rows if r["a"] == upper]
    lines.append(f"Of the pairs that separate A from B (B distinguishes them, A does not), the model realises "
                 f"(with a passing reliability check); all {len(rows)} ordered test pairs in the JSON report:")
    lines.append("")
    lines += [f"- {r['a']} from {upper} (inside its class): {_count(r, seeds)}" for r in inside] or \
             [f"- no pair run separates a weaker test from {upper}"]
    lines += [f"- {upper} from {r['b']} (beyond its class): {_count(r, seeds)}" for r in beyond] or \
             [f"- no pair run separates {upper} from a stronger test"]
    return lines
