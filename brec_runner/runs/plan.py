"""Planning a run: which (pair, seed) units remain, in what order, in which groups and slices.

Pure functions on integers; nothing here trains, reads or writes.

- ``--shard K/N`` takes the K-th of N round-robin slices of the selected pair ids in increasing
  order (``ids[K-1::N]``), so categories spread evenly over the shards (:func:`shard_ids`);
- the remaining units are ordered by pair id, then by the order of the seeds (:func:`plan_units`);
- ``--multi-pair G`` trains up to G units of equal graph sizes at once (:func:`multi_pair_windows`);
- ``--workers W`` deals blocks of up to G units of one pair round-robin to W processes
  (:func:`split_units`), so each block can still train as one group.

Verdicts do not depend on any of these choices: every unit starts from parameters seeded by
(seed, pair id) alone (:func:`brec_runner.runs.rpc.fresh_model`).
"""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, Sequence

__all__ = ["Unit", "parse_shard", "shard_ids", "plan_units", "multi_pair_windows", "split_units"]

#: One unit of work: (pair id, training seed).
Unit = tuple[int, int]


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` -> ``(K, N)`` with 1 <= K <= N; ``ValueError`` otherwise.

    Examples
    --------
    >>> parse_shard("2/8")
    (2, 8)
    """
    try:
        k_text, n_text = text.split("/")
        k, n = int(k_text), int(n_text)
    except ValueError:
        raise ValueError(f"shard must look like K/N (for example 2/8), got {text!r}") from None
    if not 1 <= k <= n:
        raise ValueError(f"shard K/N needs 1 <= K <= N, got {text!r}")
    return k, n


def shard_ids(ids: Iterable[int], shard: tuple[int, int] | None) -> list[int]:
    """The shard's ids: ``sorted(ids)[K-1::N]`` (all of them when ``shard`` is None).

    Examples
    --------
    >>> shard_ids(range(10), (2, 3))
    [1, 4, 7]
    """
    ids = sorted(ids)
    return ids if shard is None else ids[shard[0] - 1 :: shard[1]]


def plan_units(ids: Iterable[int], seeds: Sequence[int], done: Iterable[Unit] = (),
               limit: int | None = None) -> list[Unit]:
    """Units of ``ids`` x ``seeds`` not in ``done``, by pair id then seed order; at most ``limit``.

    Examples
    --------
    >>> plan_units([3, 1], [7, 5], done={(1, 7)})
    [(1, 5), (3, 7), (3, 5)]
    """
    seeds = [int(s) for s in seeds]
    done = set(done)
    order = {s: i for i, s in enumerate(seeds)}
    todo = sorted(((int(p), s) for p in ids for s in seeds if (int(p), s) not in done),
                  key=lambda u: (u[0], order[u[1]]))
    return todo if limit is None else todo[:limit]


def multi_pair_windows(todo: Sequence[Unit], group: int, size_of: Callable[[int], Hashable]) -> list[list[Unit]]:
    """``todo`` as windows of up to ``group`` units whose pairs have equal ``size_of(pair id)``.

    Units are first sorted by (size, pair id) keeping the seed order within a pair, so units of
    one pair (several seeds) and of equally sized pairs sit together.

    Examples
    --------
    >>> multi_pair_windows([(0, 0), (1, 0), (2, 0)], 2, lambda pid: pid % 2)
    [[(0, 0), (2, 0)], [(1, 0)]]
    """
    position = {u: i for i, u in enumerate(todo)}
    ordered = sorted(todo, key=lambda u: (size_of(u[0]), u[0], position[u]))
    windows: list[list[Unit]] = []
    for unit in ordered:
        last = windows[-1] if windows else None
        if last and len(last) < group and size_of(last[0][0]) == size_of(unit[0]):
            last.append(unit)
        else:
            windows.append([unit])
    return windows


def split_units(todo: Sequence[Unit], workers: int, block: int = 1) -> list[list[Unit]]:
    """``todo`` in up to ``workers`` balanced slices (empty ones dropped).

    Units are sorted by (pair id, seed) and cut into blocks of up to ``block`` units of one pair;
    blocks are dealt round-robin.

    Examples
    --------
    >>> split_units([(0, 0), (0, 1), (1, 0), (2, 0)], 2, block=2)
    [[(0, 0), (0, 1), (2, 0)], [(1, 0)]]
    """
    blocks: list[list[Unit]] = []
    for unit in sorted((int(p), int(s)) for p, s in todo):
        if blocks and blocks[-1][0][0] == unit[0] and len(blocks[-1]) < max(1, block):
            blocks[-1].append(unit)
        else:
            blocks.append([unit])
    parts = [[u for b in blocks[j::workers] for u in b] for j in range(workers)]
    return [part for part in parts if part]
