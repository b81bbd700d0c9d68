#!/usr/bin/env bash
# One GPU lease, three jobs side by side on one CUDA GPU, each in its own resumable run directory under
# $RUNS (default runs/gpu-session), each stopped after $BUDGET seconds (a stopped run resumes when the
# script runs again):
#   Subgraph GNN (examples/subgraph_zhang.py, Zhang et al.'s protocol, graph-level triangles): seeds 3 and 4,
#                one process each (seeds 1, 2 ran in an earlier lease: reports/count-runs/subgraph-zhang-protocol-gpu)
#   MPNN (examples/mpnn_zhang.py): seed 4 (seeds 1-3: reports/count-runs/mpnn-zhang-protocol-gpu)
#   PPGT at its paper preset (`--preset brec`, PPGT's 200-epoch protocol) on BREC's Regular (60-159) and
#                Extension (160-259) pairs, two shards of $PPGT_WORKERS workers each
# Smoke test on a CPU: DEVICE=cpu EXTRA_COUNT="--epochs 1 --limit 40" EXTRA_BREC="--epochs 1" PAIRS=60,160 BUDGET=300 bash benchmarks/gpu_session.sh
source "$(dirname "$0")/gpu_env.sh"
DEVICE=${DEVICE:-cuda}; BUDGET=${BUDGET:-460}; EXTRA_COUNT=${EXTRA_COUNT:-}; EXTRA_BREC=${EXTRA_BREC:-}
PAIRS=${PAIRS:-60-259}; PPGT_WORKERS=${PPGT_WORKERS:-4}
RUNS=${RUNS:-runs/gpu-session}; LOGS=${OUT:-$RUNS}; mkdir -p "$RUNS" "$LOGS"
COUNT="python3 -m cli count run --device $DEVICE --task cycle:3 --level graph --quiet $EXTRA_COUNT"
SUB=examples/subgraph_zhang.py:subgraph_zhang; MP=examples/mpnn_zhang.py:mpnn_zhang
start=$(date +%s)
timeout "$BUDGET" $COUNT --model $SUB --seeds 3 --out "$RUNS/subgraph-zhang-protocol-gpu-s3" >"$LOGS/sub3.log" 2>&1 &
timeout "$BUDGET" $COUNT --model $SUB --seeds 4 --out "$RUNS/subgraph-zhang-protocol-gpu-s4" >"$LOGS/sub4.log" 2>&1 &
timeout "$BUDGET" $COUNT --model $MP --seeds 4 --out "$RUNS/mpnn-zhang-protocol-gpu-s4" >"$LOGS/mpnn4.log" 2>&1 &
for k in 1 2; do
  timeout "$BUDGET" python3 -m cli brec run --device "$DEVICE" --seed 0 --quiet $EXTRA_BREC --model ppgt --preset brec \
    --pairs "$PAIRS" --workers "$PPGT_WORKERS" --shard "$k/2" --out "$RUNS/ppgt-brec-regular-extension-gpu" >"$LOGS/ppgt$k.log" 2>&1 &
done
watch_runs "$RUNS" "$start" 30  # one line every 30 s, until the runs end; then runs.tgz into $OUT
tail -n 2 "$LOGS"/*.log
