"""A count record's error follows from what it stores: its test predictions, in a file beside it.

A BREC record's verdict is recomputed from its own T² on every read; a count record's test
normalised MAE is recomputed the same way. Each unit writes the predictions of its selected
epoch (the epoch of lowest validation error), float32 in the order of the test items (the test
graphs of the run in index order; their nodes, or their edges in
:func:`wltools.counting.data.edge_list` order) to ``RUN_DIR/predictions/TASK~LEVEL~SEED.npy``,
and the record holds ``predictions = {"file", "sha256", "items"}``. Reading the record checks the
file's digest, recomputes the normalising std from the shipped targets and the error from the
predictions and the targets, and refuses the line when either differs from what it says
(:func:`predictions_problem`). A hand edit of ``test_nmae`` with its checksum recomputed no
longer passes; editing the predictions too means forging a consistent set of test outputs.

Runs recorded before this (``config.json`` without :data:`FORMAT_KEY`) are read as recorded, and
every report marks their rows as not recomputed.
"""

from __future__ import annotations

import functools
import hashlib
import io
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["FORMAT_KEY", "FORMAT", "used_indices", "normalised_targets", "write_predictions",
           "predictions_problem", "stores_predictions"]

#: The config.json entry saying the run's records store their test predictions, and its value.
FORMAT_KEY = "count_record_format"
FORMAT = 2
_DIR = "predictions"
#: Relative tolerance of the recomputed error: float64 sums in another order (the stored error
#: is a float64 sum over the same float32 values).
RTOL = 1e-9


def stores_predictions(cfg: dict[str, Any]) -> bool:
    """Whether the run's records carry their test predictions (runs made since issue 45)."""
    return cfg.get(FORMAT_KEY) == FORMAT


def used_indices(limit: int) -> dict[str, list[int]]:
    """The graph indices of each split a run uses: all, or the first ``limit`` of each."""
    from wltools.counting.data import SPLITS, split_indices

    return {s: list(split_indices(s))[:limit or None] for s in SPLITS}


@functools.lru_cache(maxsize=16)
def normalised_targets(task: str, level: str) -> tuple[tuple[np.ndarray, ...], float]:
    """Per graph the float32 targets of ``task`` at ``level`` divided by their std (unbiased, over
    every item of the dataset at that level), and that std: what a unit trains and is scored on."""
    from wltools.errors import WLToolsError
    from wltools.counting.data import targets

    raw = [np.atleast_1d(np.asarray(v, dtype=np.float64)) for v in targets(task, level)]
    flat = np.concatenate(raw)
    std = float(np.std(flat, ddof=1)) if flat.size > 1 else 0.0
    if not std > 0:
        raise WLToolsError(f"task {task} at level {level}: the targets are constant, so the normalised MAE "
                           "is undefined")
    return tuple((v / std).astype(np.float32) for v in raw), std


def _name(task: str, level: str, seed: int) -> str:
    return f"{task}~{level}~{seed}.npy".replace(":", "-").replace("/", "-")


def write_predictions(run_dir, task: str, level: str, seed: int, pred: np.ndarray) -> dict[str, Any]:
    """Write a unit's test predictions atomically; return the record's ``predictions`` entry."""
    from ..records.fileio import write_atomic

    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(pred, dtype=np.float32), allow_pickle=False)
    data = buf.getvalue()
    (Path(run_dir) / _DIR).mkdir(exist_ok=True)
    rel = f"{_DIR}/{_name(task, level, seed)}"
    write_atomic(Path(run_dir) / rel, data)
    return {"file": rel, "sha256": hashlib.sha256(data).hexdigest(), "items": int(pred.size)}


def _load(run_dir, entry: Any) -> tuple[np.ndarray | None, str | None]:
    from ..records.fileio import read_regular

    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str) or "/" not in entry["file"]:
        return None, "no stored test predictions"
    path = Path(run_dir) / entry["file"]
    if path.parent.name != _DIR or path.parent.parent != Path(run_dir):
        return None, f"its predictions file {entry['file']} lies outside {_DIR}/"
    try:
        data = read_regular(path)
    except Exception as exc:  # noqa: BLE001 - a FIFO or directory in its place: the line is bad
        return None, f"its predictions file {entry['file']} cannot be read ({exc})"
    if data is None:
        return None, f"its predictions file {entry['file']} is missing"
    if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
        return None, f"its predictions file {entry['file']} was changed (sha256 differs)"
    try:
        return np.load(io.BytesIO(data), allow_pickle=False), None
    except ValueError as exc:
        return None, f"its predictions file {entry['file']} is not a numpy array ({exc})"


def predictions_problem(run_dir, cfg: dict[str, Any], rec: dict[str, Any]) -> str | None:
    """Why ``rec``'s error does not follow from its stored predictions (None: it does): the file
    and its digest, the number of test items, the std recomputed from the shipped targets, and
    ``test_nmae`` and ``test_mae`` recomputed from the predictions."""
    pred, why = _load(run_dir, rec.get("predictions"))
    if why is not None:
        return why
    ys, std = normalised_targets(rec["task"], rec["level"])
    limit = int((cfg.get("protocol") or {}).get("limit") or 0)
    y = np.concatenate([ys[i] for i in used_indices(limit)["test"]])
    if pred.dtype != np.float32 or pred.shape != y.shape:
        return f"its stored predictions ({pred.dtype}, {pred.size} items) are not the {y.size} test items"
    nmae = float(np.abs(pred.astype(np.float64) - y.astype(np.float64)).mean())
    if any(isinstance(rec.get(k), bool) or not isinstance(rec.get(k), (int, float)) for k in ("std", "test_mae")):
        return "missing or wrong field std or test_mae"
    if not np.isclose(rec["std"], std, rtol=RTOL, atol=0):
        return f"std {rec.get('std')!r} is not the targets' std {std!r}"
    if not np.isclose(rec["test_nmae"], nmae, rtol=RTOL, atol=0):
        return f"test_nmae {rec['test_nmae']!r} does not follow from its stored predictions ({nmae!r})"
    if not np.isclose(rec["test_mae"], nmae * std, rtol=RTOL, atol=0):
        return f"test_mae {rec.get('test_mae')!r} does not follow from its stored predictions ({nmae * std!r})"
    return None
