"""Run directories of BREC model runs: ``config.json`` + ``results.jsonl``, resumable, shardable.

Layout of a run directory::

    RUN_DIR/
      config.json                     what was run: model, preset, model overrides, protocol
                                      constants (with the T² threshold), seeds, pairs, device,
                                      package versions, git revision, host and hardware
      results.jsonl                   one JSON object per finished (pair, seed), appended + flushed
      results-shard-K-of-N.jsonl      the same, written by shard K of N (``--shard K/N``)
      results[-shard-K-of-N]-worker-J-of-W.jsonl
                                      the same, written by local worker process J of W (``--workers W``)

Resuming: running again into the same directory skips every (pair, seed) already in *any* results
file of the directory (so a run may be resumed with other ``--shard`` / ``--workers`` settings
without redoing or duplicating a pair); a last line that is not a complete JSON object ending in a
newline (an interrupted write) is never trusted: it is cut off the file and that pair is redone.
If the settings that change results (model, preset, model overrides, protocol, device type) differ
from ``config.json`` the run stops with :class:`~wltools.errors.RunDirectoryError` naming the
differing keys.

Shards: ``--shard K/N`` (1 <= K <= N) takes the K-th of N round-robin slices of the selected pair
ids in increasing order (``ids[K-1::N]``), so categories spread evenly; the N processes (for example
a cluster job array) share one directory and config, each appending to its own shard file; ``brec
report`` merges every ``results*.jsonl`` of a directory.

Workers: ``--workers W`` runs the (shard's) remaining units in W local processes (``spawn``), in
balanced slices that keep up to G seeds of a pair together (so ``--multi-pair G`` can still group
them), each appending to its own worker file; the parent shows one progress bar over all of them
(:mod:`brec_runner.workers`). Verdicts do not depend on how units are split: each (pair, seed)
starts from parameters seeded by (seed, pair id) alone (:func:`brec_runner.rpc.fresh_parameters`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

from wltools.errors import RunDirectoryError, WLToolsError

__all__ = [
    "RunDirectory",
    "read_results",
    "parse_shard",
    "shard_ids",
    "environment",
    "results_name",
    "finished_units",
    "COMPARED_KEYS",
    "run_brec",
]

CONFIG = "config.json"
COMPARED_KEYS = ("model", "preset", "model_overrides", "protocol", "device_type")


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` -> ``(K, N)`` with 1 <= K <= N; ``ValueError`` otherwise."""
    try:
        k_text, n_text = text.split("/")
        k, n = int(k_text), int(n_text)
    except ValueError:
        raise ValueError(f"shard must look like K/N (for example 2/8), got {text!r}") from None
    if not 1 <= k <= n:
        raise ValueError(f"shard K/N needs 1 <= K <= N, got {text!r}")
    return k, n


def shard_ids(ids: Sequence[int], shard: tuple[int, int] | None) -> list[int]:
    """The shard's ids: ``sorted(ids)[K-1::N]`` (all of them when ``shard`` is None)."""
    ids = sorted(ids)
    if shard is None:
        return ids
    k, n = shard
    return ids[k - 1 :: n]


def _git_revision() -> str | None:
    try:
        root = Path(__file__).resolve().parent.parent
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
        rev = out.stdout.strip() or None
        return f"{rev}+dirty" if rev and dirty.stdout.strip() else rev
    except (OSError, subprocess.SubprocessError):
        return None


def environment(device: str = "cpu") -> dict[str, Any]:
    """Package versions, git revision, host and hardware, for ``config.json``."""
    import importlib.metadata as md

    import torch

    versions = {}
    for pkg in ("wltools", "torch", "torch_geometric", "numpy", "scipy", "networkx"):
        try:
            versions[pkg] = md.version(pkg.replace("_", "-")) if pkg != "torch_geometric" else md.version(pkg)
        except md.PackageNotFoundError:
            versions[pkg] = None
    hw: dict[str, Any] = {"machine": platform.machine(), "processor": platform.processor() or None,
                          "cpu_count": os.cpu_count(), "torch_threads": torch.get_num_threads()}
    if str(device).startswith("cuda") and torch.cuda.is_available():
        hw["cuda_device"] = torch.cuda.get_device_name(torch.device(device))
        hw["cuda_version"] = torch.version.cuda
    return {"python": platform.python_version(), "platform": platform.platform(), "versions": versions,
            "git_revision": _git_revision(), "hostname": socket.gethostname(), "hardware": hw}


def _is_complete(line: str) -> dict | None:
    if not line.endswith("\n"):
        return None
    try:
        rec = json.loads(line)
    except json.JSONDecodeError:
        return None
    return rec if isinstance(rec, dict) else None


def read_results(path: Path, repair: bool = False) -> list[dict]:
    """Records of a results file. A bad *last* line (truncated write) is dropped, and cut off the
    file when ``repair``; a bad line before the last means the file was edited or corrupted:
    :class:`RunDirectoryError`."""
    path = Path(path)
    if not path.exists():
        return []
    with open(path, "r", encoding="utf-8", newline="") as fh:
        lines = fh.readlines()
    records, good_bytes = [], 0
    for i, line in enumerate(lines):
        rec = _is_complete(line)
        if rec is None:
            if i == len(lines) - 1:
                break  # half-written last line: never trusted
            raise RunDirectoryError(f"{path}: line {i + 1} is not a complete JSON record")
        records.append(rec)
        good_bytes += len(line.encode("utf-8"))
    if repair and good_bytes != path.stat().st_size:
        with open(path, "r+b") as fh:
            fh.truncate(good_bytes)
    return records


def results_name(shard: tuple[int, int] | None = None, worker: tuple[int, int] | None = None) -> str:
    """File name of the results of a shard K/N and / or a local worker J/W (module docstring)."""
    name = "results"
    if shard is not None:
        name += f"-shard-{shard[0]}-of-{shard[1]}"
    if worker is not None:
        name += f"-worker-{worker[0]}-of-{worker[1]}"
    return name + ".jsonl"


def finished_units(path) -> set[tuple[int, int]]:
    """(pair id, seed) of every complete record in any ``results*.jsonl`` of a run directory."""
    done: set[tuple[int, int]] = set()
    for f in sorted(Path(path).glob("results*.jsonl")):
        done |= {(int(r["id"]), int(r["seed"])) for r in read_results(f)}
    return done


def _comparable(key: str, value):
    """The part of a config value that changes results (a protocol's cited sources do not)."""
    if key == "protocol" and isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "sources"}
    return value


class RunDirectory:
    """A run directory (module docstring): config check/write, resume set, appending results.

    Parameters
    ----------
    path : path-like
    config : dict
        The run's config; the keys in :data:`COMPARED_KEYS` must match an existing config.json.
    shard : (K, N) or None
    """

    def __init__(self, path, config: dict[str, Any], shard: tuple[int, int] | None = None,
                 worker: tuple[int, int] | None = None):
        self.path = Path(path)
        self.config = config
        self.shard = shard
        self.results_path = self.path / results_name(shard, worker)
        self._open()
        self._records = read_results(self.results_path, repair=True)
        self.done = {(int(r["id"]), int(r["seed"])) for r in self._records}
        self.done |= finished_units(self.path)  # other shards' and workers' files: read, never repaired

    def _open(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise RunDirectoryError(f"{self.path} exists and is not a directory")
        self.path.mkdir(parents=True, exist_ok=True)
        cfg_path = self.path / CONFIG
        if cfg_path.exists():
            try:
                old = json.loads(cfg_path.read_text())
            except json.JSONDecodeError as exc:
                raise RunDirectoryError(f"{cfg_path} is not valid JSON ({exc})") from None
            new = json.loads(json.dumps(self.config))  # normalise tuples etc.
            diff = [k for k in COMPARED_KEYS if _comparable(k, old.get(k)) != _comparable(k, new.get(k))]
            if diff:
                detail = "; ".join(f"{k}: {old.get(k)!r} != {new.get(k)!r}" for k in diff)
                raise RunDirectoryError(
                    f"{self.path} holds a run with other settings (differing keys: {', '.join(diff)}); "
                    f"use another --out or the same settings. {detail}"
                )
            # a resume may add seeds or pairs: config.json lists everything the directory holds
            grown = {k: sorted(set(old.get(k) or []) | set(new.get(k) or [])) for k in ("seeds", "pairs")}
            if any(grown[k] != sorted(old.get(k) or []) for k in grown):
                self._write_config({**old, **grown})
        else:
            self._write_config(self.config)

    def _write_config(self, config: dict[str, Any]) -> None:
        """Write config.json atomically (temporary file, then rename)."""
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=".config-", suffix=".json")
        with os.fdopen(fd, "w") as fh:
            json.dump(config, fh, indent=2, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, self.path / CONFIG)

    @property
    def records(self) -> list[dict]:
        return list(self._records)

    def append(self, record: dict[str, Any]) -> None:
        """Append one record as a JSON line, flushed and fsynced."""
        line = json.dumps(record, sort_keys=True) + "\n"
        with open(self.results_path, "a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        self._records.append(json.loads(line))
        self.done.add((int(record["id"]), int(record["seed"])))


# --------------------------------------------------------------------------------------------
# the whole run


def _prepare(pair, protocol, transform, tkey):
    """Encoded interleaved relabelings and reliability set of one pair.

    Encodings come from :func:`brec_runner.dataset.encoded_graphs`, cached on disk per graph under
    the setting ``tkey`` (:func:`wltools.models.transform_key`), so each graph and setting is
    encoded once across pairs, seeds and runs.
    """
    from . import dataset

    graphs = dataset.relabelings(pair, protocol.relabel_seed, protocol.num_relabelings)
    rel = dataset.reliability_set(pair, protocol.relabel_seed, protocol.reliability_size)
    return dataset.encoded_graphs(graphs, transform, tkey), dataset.encoded_graphs(rel, transform, tkey)


def run_brec(
    model: str,
    preset: str = "brec",
    *,
    model_overrides: dict[str, Any] | None = None,
    protocol=None,
    pair_ids: Iterable[int] | None = None,
    categories: Sequence[str] | None = None,
    seeds: Sequence[int] = (0,),
    device: str = "cpu",
    out=None,
    shard: tuple[int, int] | None = None,
    multi_pair: int | None = None,
    progress: bool = True,
    eval_batch_size: int | None = None,
    stop_after: int | None = None,
    threads: int | None = 1,
    workers: int = 1,
    _worker: tuple[int, int] | None = None,
    _units: Sequence[tuple[int, int]] | None = None,
) -> Path:
    """Run the RPC protocol for ``model`` on the selected pairs and seeds into a run directory.

    Already finished (pair, seed) records are skipped (resume). ``multi_pair`` G > 1 trains up to
    G (pair, seed) units of equal tensor shapes at once (:mod:`brec_runner.multipair`).
    ``stop_after`` stops after that many new units (tests use it to simulate an interruption).
    ``threads`` sets torch's intra-op CPU threads (None leaves torch's default). BREC graphs are
    small, so one thread is fastest, and several threads on a busy machine oversubscribe the cores:
    on this project's 2-core machine a Graphormer pair took 145 s with torch's default against 2.5 s
    with one thread, same verdicts. The count is recorded in config.json (environment.hardware).
    ``workers`` W > 1 runs the remaining pairs in W processes of ``threads`` threads each (module
    docstring); ``_worker`` and ``_units`` (its (pair, seed) units) are set inside such a process
    only. Returns the run directory.
    """
    import torch
    from tqdm.auto import tqdm

    from wltools.models import registry

    from . import dataset
    from .configs import load_protocol, model_info
    from .rpc import evaluate_pair

    if workers > 1 and stop_after is not None:
        raise ValueError("stop_after works in one process only (workers=1)")
    if threads is not None:
        torch.set_num_threads(int(threads))
    model_overrides = dict(model_overrides or {})
    cfg = registry.model_config(model, preset, **model_overrides)  # validates names early
    if protocol is None:
        protocol = load_protocol(model)
    out_dim = getattr(cfg, "out_dim", None)
    if out_dim is not None and int(out_dim) != protocol.out_dim:
        # d of the T² test is the model's output dimension; the threshold follows (q, d, alpha)
        if not protocol.num_relabelings > int(out_dim) >= 1:
            raise WLToolsError(f"the T² test needs 1 <= out_dim < {protocol.num_relabelings} relabelings, "
                               f"model {model!r} has out_dim {out_dim}")
        protocol = protocol.replace(out_dim=int(out_dim))
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise RunDirectoryError("device cuda requested but torch sees no CUDA device")
    pairs = dataset.load_pairs(categories=categories, ids=sorted(pair_ids) if pair_ids is not None else None)
    by_id = {p.id: p for p in pairs}
    ids = shard_ids(list(by_id), shard) if _worker is None else sorted(by_id)
    seeds = [int(s) for s in seeds]
    out = Path(out) if out is not None else Path("runs") / f"brec-{model}-{preset}"
    config = {
        "model": model,
        "preset": preset,
        "model_overrides": model_overrides,
        "model_config": dataclasses.asdict(cfg) if dataclasses.is_dataclass(cfg) else repr(cfg),
        "protocol": protocol.to_dict(),
        "device_type": torch.device(device).type,
        "device": device,
        "seeds": seeds,
        "pairs": sorted(by_id),
        "theory": model_info(model),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "environment": environment(device),
    }
    rd = RunDirectory(out, config, shard, _worker)
    todo = [(pid, s) for s in seeds for pid in ids if (pid, s) not in rd.done]
    if _units is not None:
        todo = [(int(pid), int(s)) for pid, s in _units if (int(pid), int(s)) not in rd.done]
    todo.sort(key=lambda u: (u[0], seeds.index(u[1])))
    if stop_after is not None:
        todo = todo[:stop_after]
    if not todo:
        return out
    if workers > 1 and _worker is None:
        from .workers import run_in_workers

        run_in_workers(
            todo, workers, out, shard, progress=progress, desc=f"{model}/{preset}",
            kwargs=dict(model=model, preset=preset, model_overrides=model_overrides, protocol=protocol,
                        seeds=seeds, device=device, out=str(out), shard=shard, multi_pair=multi_pair,
                        progress=False, eval_batch_size=eval_batch_size, threads=threads))
        return out

    transform = registry.create_transform(model, preset, **model_overrides)
    tkey = registry.transform_key(model, preset, **model_overrides)
    net = registry.create_model(model, preset, **model_overrides).to(device)
    counts = {"dist": sum(r["distinguished"] for r in rd.records),
              "relfail": sum(not r["reliable"] for r in rd.records)}
    bar = tqdm(total=len(todo), disable=not progress, unit="pair", desc=f"{model}/{preset}")
    cache: dict[int, tuple] = {}

    def data_of(pid: int) -> tuple:
        # encodings of the pairs in hand only: a CFI pair with dense pair encodings is large
        if pid not in cache:
            cache[pid] = _prepare(by_id[pid], protocol, transform, tkey)
        return cache[pid]

    def record(outcome) -> None:
        pair = by_id[outcome.id]
        outcome.category, outcome.subcategory = pair.category, pair.subcategory
        rd.append(outcome.to_dict())
        counts["dist"] += outcome.distinguished
        counts["relfail"] += not outcome.reliable
        bar.set_postfix(distinguished=counts["dist"], reliability_failures=counts["relfail"])
        bar.update(1)

    try:
        if multi_pair and multi_pair > 1:
            from .multipair import evaluate_units

            # units of equal graph sizes next to each other, then windows of up to G of them
            def size(pid):
                return tuple(by_id[pid].meta.get("n", ())), tuple(by_id[pid].meta.get("m", ()))

            todo.sort(key=lambda u: (size(u[0]), u[0], seeds.index(u[1])))
            start = 0
            while start < len(todo):
                stop = start + 1
                while stop < len(todo) and stop - start < multi_pair and size(todo[stop][0]) == size(todo[start][0]):
                    stop += 1
                window = todo[start:stop]
                units = [(pid, s, *data_of(pid)) for pid, s in window]
                for outcome in evaluate_units(net, units, protocol, device, group_size=multi_pair,
                                              eval_batch_size=eval_batch_size):
                    record(outcome)
                keep = {pid for pid, _ in todo[stop : stop + multi_pair]}
                for pid in [p for p in cache if p not in keep]:
                    del cache[pid]
                start = stop
        else:
            for pid, s in todo:
                graphs, rel = data_of(pid)
                record(evaluate_pair(net, pid, graphs, rel, protocol, s, device, eval_batch_size))
                if len(cache) > 1:
                    cache.pop(next(iter(cache)))
    finally:
        bar.close()
    return out
