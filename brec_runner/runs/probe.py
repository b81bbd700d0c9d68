"""``--multi-pair auto``: choose between the one-pair loop and grouped training by a short timed probe.

Grouped training (:mod:`brec_runner.runs.multipair`, ``torch.func.vmap`` over stacked parameters) is
faster for some models and categories and slower for others (measured per model and category in
``benchmarks/results/models_multipair.json``: PPGT 1.15-2.9x on seeds of one pair, SGFormer and GRIT
slower). :func:`choose_multi_pair` trains the first pair's first G seeds for one epoch both ways,
after a warm-up unit, and keeps grouping only when it is clearly faster per unit. Groups then hold
seeds of one pair only: with several pairs in a group each unit brings its own encodings, and a
model that deduplicates its encoding stem per batch (PPGT) loses that (0.11-0.30x measured).

``auto`` is the default of ``brec run``, ``suite run`` and :func:`brec_runner.evaluate`. With one
seed per pair (the default seed 0) nothing is probed and the loop runs. The choice depends on
timing, so two fresh runs on different machines may choose differently; both modes give the same
verdicts (tested), their T² differ by float summation order, and every record says its ``mode``.
Within a run directory the decision is fixed: the first timed probe is recorded in
``multi_pair.json`` and every resume, shard or worker of that directory trains the same way. The
file carries a checksum of its fields (``check``); a damaged or edited one is said in one line on
stderr and probed again, and a FIFO or device in its place is an error
(:meth:`brec_runner.records.record.RunDirectory.multi_pair_choice`).
``--multi-pair 1`` forces the loop: records bit-reproducible on one machine with the same versions and
thread count (not across machines: docs/reliability.md, "What reproduces where").
"""

from __future__ import annotations

import sys
import time
from typing import Sequence

from .plan import Unit

__all__ = ["choose_multi_pair", "MAX_GROUP", "MIN_GAIN"]

#: Largest group the probe tries.
MAX_GROUP = 4
#: Grouping is kept only when its time per unit is below this share of the loop's.
MIN_GAIN = 0.85


def choose_multi_pair(spec, units: Sequence[Unit], *, timer=time.perf_counter, quiet: bool = False
                      ) -> tuple[int | None, dict]:
    """``(group size or None for the loop, probe record)`` for the run's ``units``.

    No probe when the first pair has fewer than two seeds to run (the loop is chosen).
    """
    from . import dataset
    from .execute import prepare_pair
    from .multipair import evaluate_units
    from .rpc import evaluate_pair, fresh_model

    if not units:
        return None, {"chosen": "loop", "why": "no units"}
    first = units[0][0]
    seeds = [s for pid, s in units if pid == first][:MAX_GROUP]
    if len(seeds) < 2:
        return None, {"chosen": "loop", "why": "fewer than two seeds per pair"}
    pair = dataset.pairs_of(spec.suite, [first])[0]
    graphs, rel = prepare_pair(pair, spec.protocol, spec.source.transform, spec.source.transform_key)
    proto = spec.protocol.replace(epochs=1)
    src = spec.source

    def loop() -> None:
        for s in seeds:
            net = fresh_model(src.factory, src.options, s, first, spec.device)
            evaluate_pair(net, first, graphs, rel, proto, s, spec.device, spec.eval_batch_size)

    failures: dict[str, str] = {}

    def grouped() -> list:
        template = fresh_model(src.factory, src.options, seeds[0], first, spec.device)
        batch = [(first, s, graphs, rel) for s in seeds]
        return list(evaluate_units(template, batch, proto, spec.device, group_size=len(seeds),
                                   eval_batch_size=spec.eval_batch_size, failures=failures))

    if not callable(getattr(fresh_model(src.factory, src.options, seeds[0], first, spec.device),
                            "reset_parameters", None)):
        return None, {"chosen": "loop", "why": "the model has no reset_parameters()"}
    net = fresh_model(src.factory, src.options, seeds[0], first, spec.device)  # warm-up, untimed
    evaluate_pair(net, first, graphs, rel, proto, seeds[0], spec.device, spec.eval_batch_size)
    t0 = timer()
    loop()
    t_loop = timer() - t0
    t0 = timer()
    outcomes = grouped()
    t_group = timer() - t0
    fell_back = failures or any(not str(o.mode).startswith("multipair") for o in outcomes)
    use = (not fell_back) and t_group < MIN_GAIN * t_loop
    info = {"chosen": f"multipair:{len(seeds)}" if use else "loop", "pair": first, "units": len(seeds),
            "loop_s": round(t_loop, 4), "grouped_s": round(t_group, 4),
            "why": "grouping fell back to the loop" if fell_back else
                   f"grouped/loop time {t_group / t_loop:.2f} ({'<' if use else '>='} {MIN_GAIN})"}
    if not quiet:
        print(f"wltools: --multi-pair auto: {len(seeds)} seeds of pair {first} for one epoch took "
              f"{t_loop:.2f} s in the loop and {t_group:.2f} s grouped: {info['chosen']}", file=sys.stderr)
    return (len(seeds) if use else None), info
