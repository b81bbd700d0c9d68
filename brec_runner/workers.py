"""Local worker processes for ``wltools brec run --workers W``.

The remaining (pair, seed) units of a run are cut into blocks of up to G units of one pair (G of
``--multi-pair``, else 1, so a block can still train as one group) dealt round-robin to the workers
(:func:`split_units`), and each slice runs in its own ``spawn``-ed process through
:func:`brec_runner.rundir.run_brec` with ``_worker=(J, W)``: it appends to its own
``results[-shard-K-of-N]-worker-J-of-W.jsonl`` in the same run directory, under the same config.
The parent draws one progress bar by re-reading those files (complete lines only) about once a
second.

Each (pair, seed) starts from parameters seeded by (seed, pair id) alone, so the split does not
change verdicts (tested against the one-process run). An interrupted run resumes with any worker
count: every results file of the directory counts as done (:func:`brec_runner.rundir.finished_units`).

A worker that fails with an unexpected exception prints its traceback to stderr; the parent stops
the other workers and raises :class:`wltools.errors.WLToolsError` naming the worker and its
one-line error. Pairs that finished before the failure stay in the results files.
"""

from __future__ import annotations

import multiprocessing as mp
import time
import traceback
from pathlib import Path
from typing import Any, Sequence

from wltools.errors import WLToolsError

__all__ = ["split_units", "run_in_workers"]

_POLL_S = 1.0


def split_units(todo: Sequence[tuple[int, int]], workers: int, block: int = 1) -> list[list[tuple[int, int]]]:
    """``todo`` in up to ``workers`` balanced slices (empty ones dropped).

    Units are sorted by (pair id, seed) and cut into blocks of up to ``block`` units of one pair
    (``block`` = G of the multi-pair mode, so each block can still train as one group); blocks are
    dealt round-robin.
    """
    blocks: list[list[tuple[int, int]]] = []
    for unit in sorted((int(p), int(s)) for p, s in todo):
        if blocks and blocks[-1][0][0] == unit[0] and len(blocks[-1]) < max(1, block):
            blocks[-1].append(unit)
        else:
            blocks.append([unit])
    parts = [[u for b in blocks[j::workers] for u in b] for j in range(workers)]
    return [part for part in parts if part]


def _worker_main(kwargs: dict[str, Any], error_pipe) -> None:
    """One worker process: run its pairs; on failure send a one-line error through ``error_pipe``."""
    from .rundir import run_brec

    try:
        run_brec(**kwargs)
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group: the parent reports it
        raise SystemExit(130) from None
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises
        if not isinstance(exc, WLToolsError):  # a person's error is the parent's one line; a bug keeps its trace
            traceback.print_exc()
        error_pipe.send(f"{type(exc).__name__}: {exc}".splitlines()[0][:500])
        raise SystemExit(1) from None


def _progress(paths: Sequence[Path]) -> tuple[int, int, int]:
    """(records, distinguished, reliability failures) over the complete lines of ``paths``."""
    from .rundir import read_results

    n = dist = fails = 0
    for path in paths:
        try:
            recs = read_results(path)
        except WLToolsError:
            continue  # checked properly by the worker that owns the file
        n += len(recs)
        dist += sum(bool(r.get("distinguished")) for r in recs)
        fails += sum(not r.get("reliable", True) for r in recs)
    return n, dist, fails


def run_in_workers(todo: Sequence[tuple[int, int]], workers: int, out, shard, *, kwargs: dict[str, Any],
                   progress: bool = True, desc: str = "") -> None:
    """Run ``todo`` in up to ``workers`` processes, worker J as ``run_brec(**kwargs, _worker=(J, W),
    _units=its slice)``; raise :class:`WLToolsError` when one fails (module docstring)."""
    from tqdm.auto import tqdm

    from .rundir import read_results, results_name

    out = Path(out)
    slices = split_units(todo, workers, kwargs.get("multi_pair") or 1)
    w = len(slices)
    paths = [out / results_name(shard, (j + 1, w)) for j in range(w)]
    before = _progress(paths)
    everything = [read_results(f) for f in sorted(out.glob("results*.jsonl"))]
    base_dist = sum(bool(r["distinguished"]) for recs in everything for r in recs) - before[1]
    base_fail = sum(not r["reliable"] for recs in everything for r in recs) - before[2]

    ctx = mp.get_context("spawn")
    pipes = [ctx.Pipe(duplex=False) for _ in slices]  # (receive, send) per worker: its one-line error
    procs = [ctx.Process(target=_worker_main, name=f"brec-worker-{j + 1}-of-{w}",
                         args=({**kwargs, "pair_ids": sorted({pid for pid, _ in part}), "_worker": (j + 1, w),
                                "_units": part}, pipes[j][1]))
             for j, part in enumerate(slices)]
    bar = tqdm(total=len(todo), disable=not progress, unit="pair", desc=f"{desc} x{w}")
    shown = 0

    def refresh() -> None:
        nonlocal shown
        n, dist, fails = _progress(paths)
        if n - before[0] > shown:
            bar.update(n - before[0] - shown)
            shown = n - before[0]
            bar.set_postfix(distinguished=base_dist + dist, reliability_failures=base_fail + fails)

    try:
        for proc in procs:
            proc.start()
        while any(p.is_alive() for p in procs):
            if any(p.exitcode not in (None, 0) for p in procs) or any(r.poll() for r, _ in pipes):
                break  # one failed: stop the others (finally) rather than finish a broken run
            refresh()
            time.sleep(_POLL_S)
        refresh()
        failed = {j: r.recv() for j, (r, _) in enumerate(pipes, start=1) if r.poll()}
        for j, proc in enumerate(procs, start=1):
            proc.join(timeout=None if j in failed else 0.1)
            if j not in failed and proc.exitcode not in (None, 0):
                failed[j] = f"exited with code {proc.exitcode}"
        if failed:
            j = min(failed)
            raise WLToolsError(f"brec worker {j}/{w} failed: {failed[j]} "
                               "(finished pairs are kept; run the same command again to resume)")
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            proc.join()
        for r, w_end in pipes:
            r.close()
            w_end.close()
        bar.close()
