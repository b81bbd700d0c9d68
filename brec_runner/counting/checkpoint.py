"""Checkpoints inside one counting unit, so that a stopped ``wltools count run`` loses minutes, not a unit.

A unit (task, level, seed) trains for up to 1200 epochs (Zhang et al.'s protocol; minutes on a GPU,
hours on a CPU core). :func:`brec_runner.counting.train.train_unit` saves, at most every
``every_s`` seconds at the end of an epoch, everything the rest of the unit depends on: the model's
and the head's parameters and buffers, the optimiser's and the scheduler's state, the shuffling
generator, torch's global generator (dropout) and CUDA's, the best epoch so far, the curve and the
seconds spent. A restarted run loads it and continues from the next epoch, so the unit's record is
the one an uninterrupted run writes (the tests check bit-identity on the CPU), apart from
``wall_s``, which sums the seconds of every attempt.

One file per unit, ``RUN_DIR/.checkpoints/TASK~LEVEL~SEED.pt``, written atomically (a kill during a
save leaves the previous checkpoint) and removed once the unit's record is appended. It holds the
unit's key and the run's code version and settings (``key``); a checkpoint whose key differs (another
code version resumed with ``--allow-code-change``, say) or that cannot be read (damaged) is set
aside with one line on stderr, and the unit starts from epoch 1. Files are read with
``torch.load(weights_only=True)``: tensors and plain values only, no code.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import torch

from ..records.fileio import write_atomic

__all__ = ["UnitCheckpoint", "capture", "restore"]


class UnitCheckpoint:
    """The checkpoint file of one unit of a run directory (module docstring)."""

    def __init__(self, run_dir, task: str, level: str, seed: int, key: str) -> None:
        safe = f"{task}~{level}~{seed}".replace(":", "-").replace("/", "-")
        self.path = Path(run_dir) / ".checkpoints" / f"{safe}.pt"
        self.key = f"{task}|{level}|{seed}|{key}"

    def load(self) -> dict[str, Any] | None:
        """The saved state, or None (no file; or one set aside: another key, or unreadable)."""
        if not self.path.is_file():
            return None
        try:
            state = torch.load(self.path, map_location="cpu", weights_only=True)
            ok = isinstance(state, dict) and state.get("key") == self.key
        except Exception as exc:  # noqa: BLE001 - any damage means: start the unit afresh
            ok, why = False, f"unreadable ({type(exc).__name__})"
        else:
            why = "saved by other code or settings"
        if not ok:
            print(f"wltools: checkpoint {self.path} {why}: the unit starts from epoch 1", file=sys.stderr)
            self.path.replace(self.path.with_suffix(".pt.set-aside"))
            return None
        return state

    def save(self, state: dict[str, Any]) -> None:
        buf = io.BytesIO()
        torch.save({**state, "key": self.key}, buf)
        self.path.parent.mkdir(exist_ok=True)
        write_atomic(self.path, buf.getvalue())

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def capture(modules: dict[str, Any], gen: torch.Generator, **values) -> dict[str, Any]:
    """Everything the rest of a unit depends on: each module's (or optimiser's, scheduler's)
    ``state_dict``, the shuffling generator, torch's global and CUDA generators, and ``values``."""
    state = {f"{name}_state": m.state_dict() for name, m in modules.items()}
    state.update(gen_state=gen.get_state(), torch_rng=torch.get_rng_state(), **values)
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        state["cuda_rng"] = torch.cuda.get_rng_state_all()
    return state


def restore(state: dict[str, Any], modules: dict[str, Any], gen: torch.Generator) -> None:
    """Load :func:`capture`'s ``state`` back into ``modules`` and the generators."""
    for name, m in modules.items():
        m.load_state_dict(state[f"{name}_state"])
    gen.set_state(state["gen_state"])
    torch.set_rng_state(state["torch_rng"])
    if "cuda_rng" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda_rng"])
