"""A fixed, representative part of BREC for the checks that compare a fast path with its slow
exact reference, so that they run in every test run (issue 31: nothing deselected).

Which pairs: in each of BREC's seven subcategories (basic, simple regular, strongly regular,
extension, CFI, 4-vertex condition, distance regular) the ``smallest`` pairs with the fewest nodes,
plus ``spread`` pairs at evenly spaced positions among its remaining ids, all with graphs of at most
``max_nodes`` nodes (the slow references grow as ``n^3`` to ``n^5``). With the defaults that is 42
pairs of 7 to 63 nodes, six CFI pairs of 18 to 58 nodes among them.

Why these: every generator of BREC, and so every kind of structure the tests meet (1-WL-equivalent
regular graphs, strongly regular families, CFI constructions, the 4-vertex condition), is
represented; the smallest pairs exercise corner cases cheaply and the spread ones reach the larger
graphs a reference can afford. The comparison on every one of the 400 pairs is a benchmark,
``benchmarks/exact_crosscheck.py`` (``benchmarks/results/exact_crosscheck.jsonl``).

Counts that an independent source publishes (BREC's reference counts, 3-WL's 60 / 50 / 100 / 60)
are still checked on all 400 pairs by the fast paths, which take seconds.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=None)
def _pairs():
    from brec_runner.runs.dataset import load_pairs

    return tuple(load_pairs())


def all_pairs() -> list:
    """Every BREC pair (loaded once per test process)."""
    return list(_pairs())


def sample_ids(smallest: int = 3, spread: int = 3, max_nodes: int = 63) -> list[int]:
    """The ids of the representative part (module docstring), in id order."""
    by_sub: dict[str, list] = {}
    for p in _pairs():
        by_sub.setdefault(p.subcategory, []).append(p)
    out: set[int] = set()
    for pairs in by_sub.values():
        small = sorted(pairs, key=lambda p: (p.meta["n"][0], p.id))
        out.update(p.id for p in small[:smallest] if p.meta["n"][0] <= max_nodes)
        rest = sorted((p for p in small[smallest:] if p.meta["n"][0] <= max_nodes), key=lambda p: p.id)
        out.update(rest[(k * len(rest)) // spread].id for k in range(spread) if rest)
    return sorted(out)


def sample_pairs(**kw) -> list:
    """The pairs of :func:`sample_ids` (same keywords)."""
    ids = set(sample_ids(**kw))
    return [p for p in _pairs() if p.id in ids]
