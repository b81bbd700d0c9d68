#!/usr/bin/env bash
# Zhang et al.'s counting models under their published protocol (1200 epochs, batch 512; docs/counting.md)
# on one CUDA GPU: examples/subgraph_zhang.py (their Subgraph GNN) and examples/mpnn_zhang.py (their MPNN)
# on graph-level triangle counting, seeds 1-4 as in their logs. Each process trains into its own resumable
# run directory under $RUNS (default runs/gpu-count) and is stopped after $BUDGET seconds; a stopped run
# resumes when the script runs again (a unit stopped midway resumes from its last checkpoint, at most a minute old).
#   Subgraph GNN: seeds 1,2,3,4 in one process, one after the other (whole units, so that a stopped
#                 run keeps every seed it finished); first, 5 timed training steps on one batch of 512
#   MPNN:         seeds 1,2,3,4 in a second process beside it
# Smoke test on a CPU: DEVICE=cpu EXTRA="--epochs 1 --limit 40" BUDGET=300 bash benchmarks/gpu_count.sh
source "$(dirname "$0")/gpu_env.sh"
DEVICE=${DEVICE:-cuda}; BUDGET=${BUDGET:-480}; EXTRA=${EXTRA:-}; TASK=${TASK:-cycle:3}
RUNS=${RUNS:-runs/gpu-count}; LOGS=${OUT:-$RUNS}; mkdir -p "$RUNS" "$LOGS"
RUN="python3 -m cli count run --device $DEVICE --task $TASK --level graph --quiet $EXTRA"
SUB=examples/subgraph_zhang.py:subgraph_zhang; MP=examples/mpnn_zhang.py:mpnn_zhang
python3 - "$DEVICE" <<'PY' 2>&1 | grep -v Warn
import sys, time, torch
from torch_geometric.data import Batch
from brec_runner.runs.dataset import to_pyg
from wltools.counting.data import load_graphs
from examples.subgraph_zhang import subgraph_zhang
dev = sys.argv[1]; torch.manual_seed(0)
batch = Batch.from_data_list([to_pyg(G) for G in load_graphs()[:512]]).to(dev)
model = subgraph_zhang().to(dev); opt = torch.optim.Adam(model.parameters(), 1e-3)
for step in range(6):
    if step == 1: (torch.cuda.synchronize() if dev == "cuda" else None); t = time.perf_counter()
    opt.zero_grad(); model(batch).sum().backward(); opt.step()
(torch.cuda.synchronize() if dev == "cuda" else None)
mem = torch.cuda.max_memory_allocated() / 2**30 if dev == "cuda" else 0
print(f"subgraph_zhang: {(time.perf_counter() - t) / 5:.4f} s per training step of 512 graphs, peak {mem:.1f} GiB")
PY
start=$(date +%s)
timeout "$BUDGET" $RUN --model $SUB --seeds 1,2,3,4 --out "$RUNS/subgraph-zhang-protocol-gpu" >"$LOGS/sub.log" 2>&1 &
timeout "$BUDGET" $RUN --model $MP --seeds 1,2,3,4 --out "$RUNS/mpnn-zhang-protocol-gpu" >"$LOGS/mpnn.log" 2>&1 &
watch_runs "$RUNS" "$start" 30  # one line every 30 s, until the runs end; then runs.tgz into $OUT
tail -n 3 "$LOGS"/*.log
