"""Speed and memory of every registered model: forward+backward graphs per second, peak memory.

Workloads (BREC, via :mod:`brec_runner.runs.dataset`): the 64 relabelings (``relabelings(pair, seed=0)``,
interleaved G1, H1, ...) of a Basic pair (id 0, 10 nodes) and of the largest CFI pair (id 345,
198 nodes). For every model, every preset and every workload this measures:

- ``encode_s_per_graph``: the model's transform (pair encodings), once per graph;
- ``graphs_per_s``: forward + backward (sum of the outputs) in train mode, batches of
  ``batch_size`` graphs, the **median** per-batch time over the timed batches (robust to the load
  of a shared machine), after ``warmup`` untimed batches;
- ``peak_mem_mb``: peak memory growth over the timed batches (warm-up excluded): CPU: resident
  set (``/proc/self/statm`` sampled every 2 ms by a thread); CUDA:
  ``torch.cuda.max_memory_allocated`` minus the allocation before.

It also compares PPGT's simplified L2 attention with plain SDP attention at the same size (the
PPGT paper claims sL2 costs about as much as SDP; the target here is sL2 within 1.3x of SDP): the
whole model (``attention="sdp"`` vs ``"sl2"`` in both forms, ``sl2_form="mask"``: key term in the
float mask, and ``"key"``: one extra query/key channel; URPE on, i.e. the explicit-softmax path,
and URPE off, the ``scaled_dot_product_attention`` path), alternating the variants batch by batch,
plus the bare attention kernel (:func:`wltools.models.layers.dense_attention`) at CFI size. Those
ratios are medians of paired per-round ratios (medians and minima of the raw times are recorded
too): on a loaded machine single times of one setting swing by up to 10x.

CPU budget: the full 64 graphs are timed for the Basic pair; for the CFI pair only
``--cfi-graphs-small`` / ``--cfi-graphs-brec`` of the 64 relabelings (default 4 and 2; one
batch of that many graphs, timed once without warm-up; at least 2 because of the batch norms),
because the BREC-sized models take tens of seconds per 198-node graph on a CPU; on CUDA all 64
are used. The default run needs about 3-4 CPU-minutes (``user`` time); its wall time depends on
the load of the machine (8 minutes on 2 cores shared with other busy processes at load average
6-11; the throughput of one setting varied by up to 100x between such runs, so compare figures
only within one run). ``--quick`` shrinks everything for a smoke test (about 1 CPU-minute).

Two more sections (``--sections``; issue 17), whose figures are *ratios measured in the same
rounds*, so that they carry over to another machine where absolute times do not:

- ``roofline``: for every model and preset, on one pair per BREC category (:data:`ROOFLINE_PAIRS`),
  forward+backward per training step of each optimisation variant (:data:`OPTIMISATIONS`: the plain
  path, + the mask-free full layout, + the distinct-row PE stem), timed round by round alternately
  with a reference float32 matmul (1024^3). Per variant: the matmul-class FLOPs of a step (counted
  by ``torch.utils.flop_counter``), the achieved rate as a fraction of the matmul rate of the same
  round (median over rounds), and the paired speedups against the plain path and the previous
  variant. Batches: 16 graphs (the protocol's) up to 64 nodes; CFI-sized pairs
  ``--cfi-graphs-small`` / ``--cfi-graphs-brec`` graphs (default 4 / 2).
- ``multipair``: seconds per unit of G units trained one after the other (``rpc.evaluate_pair``)
  and at once (``multipair.evaluate_units``, ``--multi-pair G``), alternating, with
  ``--multipair-epochs`` epochs; ``seeds``: G seeds of one pair (data shared: only parameters
  vmapped), ``pairs``: G equally sized pairs (data vmapped too).

Usage::

    python benchmarks/models_bench.py                      # CPU (+ CUDA if available)
    python benchmarks/models_bench.py --device cpu --out benchmarks/results/models_bench.json
    python benchmarks/models_bench.py --sections roofline --threads 1 \
        --out benchmarks/results/models_roofline.json
    python benchmarks/models_bench.py --sections multipair --threads 1 --multipair-epochs 1 \
        --categories basic,regular,extension,cfi_n80,4vertex,distance_regular \
        --multipair-mix seeds,pairs --out benchmarks/results/models_multipair.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import torch
from torch.utils.flop_counter import FlopCounterMode
from torch_geometric.data import Batch

from brec_runner.runs.dataset import load_pairs, relabelings, to_pyg
from wltools.models import create_model, create_transform, list_models
from wltools.models.layers import dense_attention
from wltools.models.registry import list_presets
from wltools.runtime.provenance import environment

BASIC_ID, CFI_ID = 0, 345
SEED = 0
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "models_bench.json"


def _libc():
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc: RSS figures then over- or under-state the peak
        return None


_LIBC = _libc()


def fixed_mmap_threshold() -> bool:
    """Make glibc serve every allocation over 128 KiB by ``mmap`` (and give it back on free), so
    that the resident set follows the live tensors and :class:`PeakRSS` sees each run's peak."""
    if _LIBC is None:
        return False
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    return bool(_LIBC.mallopt(M_MMAP_THRESHOLD, 128 * 1024)) and bool(
        _LIBC.mallopt(M_TRIM_THRESHOLD, 128 * 1024)
    )


class PeakRSS:
    """Peak growth of the resident set size (MB) while the block runs (CPU memory).

    Freed heap memory is handed back first (``malloc_trim``); with :func:`fixed_mmap_threshold`
    large tensors are ``mmap``-ed, so the growth is the block's peak of newly live memory.
    """

    def __init__(self, interval: float = 0.002) -> None:
        self.interval = interval
        self.page = os.sysconf("SC_PAGE_SIZE")

    def _rss(self) -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * self.page

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._rss())
            time.sleep(self.interval)

    def __enter__(self) -> "PeakRSS":
        if _LIBC is not None:
            _LIBC.malloc_trim(0)
        self.base = self.peak = self._rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._rss())
        self.mb = (self.peak - self.base) / 2**20


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def _step(model, batch) -> None:
    model.zero_grad(set_to_none=True)
    model(batch).sum().backward()


def _time_batches(model, batches, device, warmup, reps) -> list[float]:
    """Per-batch seconds of forward+backward over ``reps`` passes through ``batches``."""
    model.train()
    for b in batches[:warmup]:
        _step(model, b)
    times = []
    for _ in range(reps):
        for b in batches:
            _sync(device)
            t0 = time.perf_counter()
            _step(model, b)
            _sync(device)
            times.append(time.perf_counter() - t0)
    return times


def _workloads(quick: bool) -> dict[str, list]:
    pairs = {p.id: p for p in load_pairs(ids=[BASIC_ID, CFI_ID])}
    num = 4 if quick else 32
    return {
        "basic": relabelings(pairs[BASIC_ID], seed=SEED, num=num),
        "cfi": relabelings(pairs[CFI_ID], seed=SEED, num=num),
    }


def _plan(workload: str, preset: str, device: str, args, n_graphs: int) -> tuple[int, ...]:
    """(graphs used, batch size, warm-up batches, timed passes)."""
    if workload == "basic":
        return n_graphs, min(32, n_graphs), 1, (1 if args.quick else 3)
    if device == "cuda":
        return n_graphs, min(16, n_graphs), 1, 1
    g = args.cfi_graphs_brec if preset == "brec" else args.cfi_graphs_small
    g = min(g, n_graphs)
    return g, g, 0, 1


def bench_model(name, preset, workload, graphs, device, args) -> dict:
    used, bs, warmup, reps = _plan(workload, preset, device, args, len(graphs))
    transform = create_transform(name, preset)
    t0 = time.perf_counter()
    datas = [transform(to_pyg(G)) for G in graphs[:used]]
    encode = (time.perf_counter() - t0) / used
    batches = [Batch.from_data_list(datas[i : i + bs]).to(device) for i in range(0, used, bs)]
    torch.manual_seed(SEED)
    model = create_model(name, preset).to(device)
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
    with PeakRSS() as rss:
        times = _time_batches(model, batches, device, warmup, reps)
    mem = (torch.cuda.max_memory_allocated() - base) / 2**20 if device == "cuda" else rss.mb
    med = statistics.median(times)
    return {
        "model": name,
        "preset": preset,
        "workload": workload,
        "device": device,
        "num_nodes": graphs[0].number_of_nodes(),
        "graphs_timed": used * reps,
        "batch_size": bs,
        "num_parameters": model.num_parameters(),
        "encode_s_per_graph": round(encode, 5),
        "median_batch_s": round(med, 5),
        "graphs_per_s": round(bs / med, 3),
        "peak_mem_mb": round(mem, 1),
        "transform": repr(transform),
    }


VARIANTS = {  # attention variants of the same PPGT size
    "sdp": dict(attention="sdp"),
    "sl2_mask": dict(attention="sl2", sl2_form="mask"),
    "sl2_key": dict(attention="sl2", sl2_form="key"),
}


def _ratios(times: dict) -> dict:
    """Median over rounds of the *paired* ratio variant / SDP: each round times every variant
    back to back on the same batch, so load that drifts more slowly than a round cancels out."""
    return {
        f"ratio_{k}_over_sdp": round(
            statistics.median(a / b for a, b in zip(times[k], times["sdp"])), 3
        )
        for k in times
        if k != "sdp"
    }


def bench_sl2_vs_sdp(workload, graphs, preset, device, args, urpe: bool) -> dict:
    """Whole-model PPGT with sL2 (both forms) vs SDP attention, same size, alternating the
    variants batch by batch so that machine load hits them alike."""
    used, bs, warmup, reps = _plan(workload, preset, device, args, len(graphs))
    reps = max(reps, 3)
    transform = create_transform("ppgt", preset)
    datas = [transform(to_pyg(G)) for G in graphs[:used]]
    batches = [Batch.from_data_list(datas[i : i + bs]).to(device) for i in range(0, used, bs)]
    models = {}
    for kind, kw in VARIANTS.items():
        torch.manual_seed(SEED)
        models[kind] = create_model("ppgt", preset, urpe=urpe, **kw).to(device).train()
        for b in batches[:warmup]:
            _step(models[kind], b)
    times = {kind: [] for kind in VARIANTS}
    for _ in range(reps):
        for b in batches:
            for kind in VARIANTS:
                _sync(device)
                t0 = time.perf_counter()
                _step(models[kind], b)
                _sync(device)
                times[kind].append(time.perf_counter() - t0)
    med = {k: statistics.median(v) for k, v in times.items()}
    return {
        "what": "ppgt model fwd+bwd",
        "preset": preset,
        "urpe": urpe,
        "path": "explicit softmax (URPE)" if urpe else "scaled_dot_product_attention",
        "workload": workload,
        "device": device,
        "batch_size": bs,
        "batches_timed_per_variant": len(times["sdp"]),
        "median_batch_s": {k: round(v, 5) for k, v in med.items()},
        "min_batch_s": {k: round(min(v), 5) for k, v in times.items()},
        **_ratios(times),
    }


def bench_attention_kernel(device, args, urpe: bool) -> dict:
    """Bare dense_attention fwd+bwd at CFI size: B=8, H=16, N=198, D=6 (PPGT brec head width)."""
    B, H, N, D = (2, 16, 198, 6) if args.quick else (8, 16, 198, 6)
    g = torch.Generator(device="cpu").manual_seed(SEED)
    mk = lambda *s: torch.randn(*s, generator=g).to(device).requires_grad_()  # noqa: E731
    q, k, v, bias = mk(B, H, N, D), mk(B, H, N, D), mk(B, H, N, D), mk(B, H, N, N)
    u = mk(B, H, N, N) if urpe else None
    mask = torch.ones(B, N, dtype=torch.bool, device=device)
    mask[1:, N // 2 :] = False
    forms = {"sdp": ("sdp", "mask"), "sl2_mask": ("sl2", "mask"), "sl2_key": ("sl2", "key")}
    times = {kind: [] for kind in forms}
    for rep in range(3 if args.quick else 10):
        for name, (kind, form) in forms.items():
            _sync(device)
            t0 = time.perf_counter()
            dense_attention(q, k, v, bias, mask, kind, u, l2_form=form).sum().backward()
            _sync(device)
            if rep > 0:
                times[name].append(time.perf_counter() - t0)
    med = {kk: statistics.median(vv) for kk, vv in times.items()}
    return {
        "what": "dense_attention kernel fwd+bwd",
        "shape_BHND": [B, H, N, D],
        "urpe": urpe,
        "device": device,
        "median_s": {k: round(v, 6) for k, v in med.items()},
        "min_s": {k: round(min(v), 6) for k, v in times.items()},
        **_ratios(times),
    }


# ---------------------------------------------------------------------------------------------
# Roofline: achieved FLOP rate against this machine's matmul rate, and the speedup of each
# optimisation (issue 17), as ratios measured in the same rounds.

#: one pair per BREC category (cfi twice: the largest pair and a typical 80-node one)
ROOFLINE_PAIRS = {"basic": 0, "regular": 145, "extension": 160, "cfi": 345, "cfi_n80": 305,
                  "4vertex": 360, "distance_regular": 380}
#: per model, the variants timed in every round: (label, config overrides, full_layout); each
#: adds one optimisation to the previous one. Models without an entry run their default only.
OPTIMISATIONS = {
    "ppgt": [("plain", {"dedup_stem": False}, False), ("full_layout", {"dedup_stem": False}, True),
             ("full_layout+dedup", {"dedup_stem": True}, True)],
    "grit": [("plain", {"dedup_stem": False}, False), ("full_layout", {"dedup_stem": False}, True),
             ("full_layout+dedup", {"dedup_stem": True}, True)],
}
MM_SIZE = 1024  # the reference matmul: [1024, 1024] @ [1024, 1024], float32


def _matmul_s(n: int = MM_SIZE, tries: int = 3) -> float:
    """Best-of-``tries`` seconds of one float32 ``n x n`` matmul (the machine's practical peak)."""
    g = torch.Generator().manual_seed(SEED)
    a, b = torch.randn(n, n, generator=g), torch.randn(n, n, generator=g)
    a @ b
    best = float("inf")
    for _ in range(tries):
        t0 = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t0)
    return best


def _count_flops(model, batch) -> int:
    """Matmul-class FLOPs (mm, bmm, addmm, einsum, SDPA's math path) of one fwd+bwd step,
    counted by :class:`torch.utils.flop_counter.FlopCounterMode`; elementwise and indexing work is
    not counted (it is what a roofline calls memory traffic)."""
    with FlopCounterMode(display=False) as fc:
        _step(model, batch)
    return int(fc.get_total_flops())


def _roofline_batch_size(n_nodes: int, preset: str, args) -> int:
    if n_nodes <= 64:
        return 16  # the BREC protocol's batch
    return args.cfi_graphs_brec if preset == "brec" else args.cfi_graphs_small


def bench_roofline(name: str, preset: str, category: str, pid: int, args) -> dict:
    """fwd+bwd per step of every variant of ``name`` on one BREC pair, interleaved round by round
    with the reference matmul; FLOP rates as fractions of the matmul rate of the same round."""
    pair = load_pairs(ids=[pid])[0]
    n = pair.g.number_of_nodes()
    bs = _roofline_batch_size(n, preset, args)
    graphs = relabelings(pair, seed=SEED, num=max(bs, 2))[:bs]
    datas = [create_transform(name, preset)(to_pyg(G)) for G in graphs]
    variants = OPTIMISATIONS.get(name, [("default", {}, True)])
    runs = {}
    for label, overrides, full in variants:
        torch.manual_seed(SEED)
        m = create_model(name, preset, **overrides).train()
        if hasattr(m, "full_layout"):
            m.full_layout = full
        b = m.prepare_batch(Batch.from_data_list(datas))
        runs[label] = (m, b, _count_flops(m, b))  # the counted step is the warm-up
    rounds = args.roofline_rounds if n <= 64 else max(2, args.roofline_rounds // 2)
    mm_flops = 2 * MM_SIZE**3
    times = {label: [] for label in runs}
    mm_times = []
    for _ in range(rounds):
        mm_times.append(_matmul_s())
        for label, (m, b, _) in runs.items():
            t0 = time.perf_counter()
            _step(m, b)
            times[label].append(time.perf_counter() - t0)
    out_variants = {}
    first = variants[0][0]
    prev = None
    for label, (m, b, flops) in runs.items():
        ts = times[label]
        frac = statistics.median((flops / t) / (mm_flops / tm) for t, tm in zip(ts, mm_times))
        v = {
            "median_step_s": round(statistics.median(ts), 5),
            "matmul_flops_per_step": flops,
            "gflops_per_s": round(flops / statistics.median(ts) / 1e9, 3),
            "fraction_of_matmul_peak": round(frac, 4),
        }
        if label != first:
            v[f"speedup_vs_{first}"] = round(statistics.median(a / c for a, c in zip(times[first], ts)), 3)
            v[f"speedup_vs_{prev}"] = round(statistics.median(a / c for a, c in zip(times[prev], ts)), 3)
        out_variants[label] = v
        prev = label
    plan = getattr(runs[variants[-1][0]][1], f"{name}_plan", None)
    return {
        "model": name, "preset": preset, "category": category, "pair_id": pid, "num_nodes": n,
        "batch_size": bs, "rounds": rounds, "pair_rows": int(sum(d.num_nodes**2 for d in datas)),
        "distinct_rows": None if plan is None or plan.rows is None else int(plan.rows.numel()),
        "matmul_gflops_per_s_median": round(mm_flops / statistics.median(mm_times) / 1e9, 2),
        "variants": out_variants,
    }


# ---------------------------------------------------------------------------------------------
# Multi-pair mode (brec_runner.runs.multipair) against the one-pair loop, per model and category.


def bench_multipair(name: str, preset: str, category: str, pid: int, group: int, args,
                    mix: str = "seeds") -> dict:
    """Seconds per unit of ``group`` units trained one after the other (``rpc.evaluate_pair``) and
    at once (``multipair.evaluate_units``), alternating, ``epochs`` epochs each. ``mix="seeds"``:
    ``group`` seeds of one pair (shared data: only parameters are vmapped); ``mix="pairs"``:
    ``group`` equally sized pairs of the category, one seed (the data are vmapped too)."""
    import dataclasses
    import warnings

    from brec_runner.models.source import resolve_model
    from brec_runner.runs.execute import prepare_pair
    from brec_runner.runs.multipair import evaluate_units
    from brec_runner.runs.rpc import evaluate_pair, fresh_model

    src = resolve_model(name, preset=preset)
    protocol = dataclasses.replace(src.protocol, epochs=args.multipair_epochs)
    pair = load_pairs(ids=[pid])[0]
    n = pair.g.number_of_nodes()
    if mix == "seeds":
        pairs = [pair] * group
        seeds = list(range(group))
    else:
        same = [p for p in load_pairs(pair.category) if p.g.number_of_nodes() == n
                and p.g.number_of_edges() == pair.g.number_of_edges()]
        pairs, seeds = same[:group], [0] * min(group, len(same))
    data = {}
    for p in pairs:
        if p.id not in data:
            data[p.id] = prepare_pair(p, protocol, src.transform, None)
    units = [(p.id, s, *data[p.id]) for p, s in zip(pairs, seeds)]
    model = fresh_model(src.factory, src.options, 0, pid)
    t_loop, t_multi, modes = [], [], set()
    for _ in range(args.multipair_rounds):
        t0 = time.perf_counter()
        for u in units:
            evaluate_pair(model, u[0], u[2], u[3], protocol, u[1])
        t_loop.append((time.perf_counter() - t0) / len(units))
        t0 = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            outs = list(evaluate_units(model, units, protocol, group_size=group, failures={}))
        t_multi.append((time.perf_counter() - t0) / len(units))
        modes |= {o.mode for o in outs}
    return {
        "model": name, "preset": preset, "category": category, "pair_id": pid, "num_nodes": n,
        "mix": mix, "group": len(units), "epochs": protocol.epochs, "batch_size": protocol.batch_size,
        "rounds": args.multipair_rounds, "modes": sorted(modes),
        "warnings": sorted({str(w.message)[:200] for w in caught}),
        "loop_s_per_unit": [round(t, 4) for t in t_loop], "multi_s_per_unit": [round(t, 4) for t in t_multi],
        "speedup_multi_over_loop": round(statistics.median(a / b for a, b in zip(t_loop, t_multi)), 3),
    }


def _environment(devices) -> dict:
    """Provenance from :mod:`wltools.runtime.provenance` (the one definition), plus this run's settings."""
    env = {
        "timestamp_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        **environment(devices[-1] if devices else None),
        "load_average_start": list(os.getloadavg()),
        "devices": devices,
        "seed": SEED,
        "pairs": {"basic": BASIC_ID, "cfi": CFI_ID},
    }
    return env


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", choices=["cpu", "cuda", "all"], default="all",
                    help="all = cpu plus cuda when available")
    ap.add_argument("--models", default=None, help="comma-separated (default: every model)")
    ap.add_argument("--presets", default=None, help="comma-separated (default: every preset)")
    ap.add_argument("--cfi-graphs-small", type=int, default=4)
    ap.add_argument("--cfi-graphs-brec", type=int, default=2)
    ap.add_argument("--threads", type=int, default=None, help="torch intra-op threads")
    ap.add_argument("--quick", action="store_true", help="smoke test: tiny counts")
    ap.add_argument("--sections", default="throughput,sl2",
                    help="comma-separated of throughput, sl2, roofline, multipair")
    ap.add_argument("--categories", default=None,
                    help=f"roofline/multipair pairs, comma-separated of {', '.join(ROOFLINE_PAIRS)}")
    ap.add_argument("--roofline-rounds", type=int, default=4, help="timed rounds (half for CFI)")
    ap.add_argument("--multipair-group", type=int, default=4)
    ap.add_argument("--multipair-epochs", type=int, default=2)
    ap.add_argument("--multipair-rounds", type=int, default=2)
    ap.add_argument("--multipair-mix", default="seeds", help="seeds, pairs or seeds,pairs")
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    mmap_fixed = fixed_mmap_threshold()

    devices = ["cpu"] if args.device in ("cpu", "all") else []
    if args.device in ("cuda", "all") and torch.cuda.is_available():
        devices.append("cuda")
    if not devices:
        print("error: no CUDA device", file=sys.stderr)
        return 2
    models = args.models.split(",") if args.models else list_models()
    sections = set(args.sections.split(","))
    unknown = sections - {"throughput", "sl2", "roofline", "multipair"}
    if unknown:
        ap.error(f"unknown section(s) {', '.join(sorted(unknown))}")
    cats = args.categories.split(",") if args.categories else list(ROOFLINE_PAIRS)
    from portable_paths import portable

    out = {"environment": _environment(devices), "settings": {**vars(args), "out": portable(args.out)}}
    t_start = time.perf_counter()
    if "roofline" in sections:
        out["roofline"] = []
        for name in models:
            for preset in (args.presets.split(",") if args.presets else list_presets(name)):
                for cat in cats:
                    r = bench_roofline(name, preset, cat, ROOFLINE_PAIRS[cat], args)
                    out["roofline"].append(r)
                    print(f"roofline {name:17s} {preset:5s} {cat:16s} n={r['num_nodes']:3d} bs={r['batch_size']:2d} "
                          + "  ".join(f"{k}: {v['median_step_s']:.3f}s {v['fraction_of_matmul_peak']:.3f}pk"
                                      + (f" x{v['speedup_vs_plain']}" if "speedup_vs_plain" in v else "")
                                      for k, v in r["variants"].items()), flush=True)
    if "multipair" in sections:
        out["multipair"] = []
        for name in models:
            for preset in (args.presets.split(",") if args.presets else ["small"]):
                for cat in cats:
                    for mix in args.multipair_mix.split(","):
                        r = bench_multipair(name, preset, cat, ROOFLINE_PAIRS[cat], args.multipair_group, args, mix)
                        out["multipair"].append(r)
                        print(f"multipair {name:17s} {preset:5s} {cat:16s} {mix:5s} G={r['group']} "
                              f"loop {r['loop_s_per_unit']} multi {r['multi_s_per_unit']} s/unit "
                              f"-> x{r['speedup_multi_over_loop']} {r['modes']}", flush=True)
    if sections & {"throughput", "sl2"}:
        workloads = _workloads(args.quick)
        out["results"], out["sl2_vs_sdp"] = [], []
    for device in devices if sections & {"throughput", "sl2"} else []:
        for name in models if "throughput" in sections else []:
            presets = args.presets.split(",") if args.presets else list_presets(name)
            for preset in presets:
                for workload, graphs in workloads.items():
                    r = bench_model(name, preset, workload, graphs, device, args)
                    out["results"].append(r)
                    print(f"{device:4s} {name:17s} {preset:5s} {workload:5s} "
                          f"{r['graphs_per_s']:9.2f} graphs/s  peak {r['peak_mem_mb']:8.1f} MB  "
                          f"(batch {r['batch_size']}, {r['graphs_timed']} graphs timed)",
                          flush=True)
        if "ppgt" in models and "sl2" in sections:
            for urpe in (False, True):
                for workload, preset in (("basic", "brec"), ("cfi", "small")):
                    r = bench_sl2_vs_sdp(workload, workloads[workload], preset, device, args, urpe)
                    out["sl2_vs_sdp"].append(r)
                    print(f"{device:4s} ppgt {preset} {workload} urpe={urpe}: sL2/SDP = "
                          f"{r['ratio_sl2_mask_over_sdp']} (mask form), "
                          f"{r['ratio_sl2_key_over_sdp']} (key form)", flush=True)
                r = bench_attention_kernel(device, args, urpe)
                out["sl2_vs_sdp"].append(r)
                print(f"{device:4s} kernel urpe={urpe}: sL2/SDP = {r['ratio_sl2_mask_over_sdp']} "
                      f"(mask form), {r['ratio_sl2_key_over_sdp']} (key form)", flush=True)
    out["environment"]["glibc_mmap_threshold_fixed"] = mmap_fixed
    out["environment"]["load_average_end"] = list(os.getloadavg())
    out["environment"]["total_seconds"] = round(time.perf_counter() - t_start, 1)
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path} ({out['environment']['total_seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
