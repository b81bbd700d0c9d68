"""Sharded dataset refinement on Ray: shards refine their graphs, the driver keeps the one colour
table exact, round by round (:mod:`wltools.dataset.refine`, "Shards").

Each shard is a Ray actor holding a :class:`~wltools.dataset.refine.ShardState` (its graphs and
their current colours) for the whole run, so graphs travel once. A round is two messages per
shard: the shard sends one row per local group of equal rows (a few rows per distinct colour
class, not one per node), the driver groups them exactly
(:func:`~wltools.dataset.refine.unify`) and sends back the global id of each group. The driver
thus holds only the distinct rows of a round and the graph classes, and the result equals the
one-process result up to the names of colours (tested).

Ray is optional (``pip install -e ".[ray]"``); a local instance is started when none is running
and stopped at :meth:`RayShards.close`, as :class:`brec_runner.runs.execute_ray.RayExecutor` does.
"""

from __future__ import annotations

import os
from typing import Sequence

import numpy as np

from ..errors import WLToolsError
from .collection import GraphCollection
from .refine import ShardState

__all__ = ["RayShards"]


def _import_ray():
    try:
        import ray
    except ImportError:
        raise WLToolsError('--executor ray needs Ray, which is not installed: pip install -e ".[ray]"') from None
    return ray


class RayShards:
    """``shards`` Ray actors over contiguous ranges of the graphs of ``coll`` or, with
    ``loaders``, one actor per part that reads its own part: an actor of class ``part_shard``
    (:class:`wltools.dataset.parts.PartShard`, passed in by that module, which imports this one)
    built as ``part_shard(loader, test)``; the executor interface of
    :class:`~wltools.dataset.refine.LocalShards` (``len`` and ``call``)."""

    def __init__(self, coll: GraphCollection | None, test: str, shards: int = 2, *, address: str | None = None,
                 num_cpus: int | None = None, loaders=None, part_shard=None):
        ray = _import_ray()
        self._started = False
        if not ray.is_initialized():
            kw = dict(include_dashboard=False, log_to_driver=True)
            try:
                if address is not None or os.environ.get("RAY_ADDRESS"):
                    ray.init(address=address, **kw)
                else:
                    ray.init(address="local", num_cpus=num_cpus, **kw)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise WLToolsError(f"cannot start or reach Ray at {address or 'a local instance'}: "
                                   f"{str(exc).splitlines()[0]}") from None
            self._started = True
        self._ray = ray
        if loaders is not None:  # each actor reads its own part (wltools.dataset.parts)
            actor = ray.remote(num_cpus=0)(part_shard)
            self.actors = [actor.remote(load, test) for load in loaders]
            return
        shards = max(1, min(shards, coll.num_graphs))
        bounds = np.linspace(0, coll.num_graphs, shards + 1).astype(int)
        actor = ray.remote(num_cpus=0)(ShardState)
        self.actors = [actor.remote(coll.select(range(a, b)), test, alone=shards == 1)
                       for a, b in zip(bounds[:-1], bounds[1:])]

    def __len__(self) -> int:
        return len(self.actors)

    def call(self, method: str, args: Sequence[tuple] | None = None) -> list:
        """``method(*args[s])`` on every shard's actor, in parallel."""
        refs = [getattr(a, method).remote(*(args[i] if args else ())) for i, a in enumerate(self.actors)]
        return self._ray.get(refs)

    def close(self) -> None:
        """Release the actors (and the local Ray instance this object started)."""
        for a in self.actors:
            self._ray.kill(a)
        self.actors = []
        if self._started:
            self._ray.shutdown()
