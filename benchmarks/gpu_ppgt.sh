#!/usr/bin/env bash
# PPGT at its paper preset (`--preset brec`, PPGT's 200-epoch protocol) on BREC's Regular (60-159) and
# Extension (160-259) pairs on one CUDA GPU, resuming the committed run directory
# reports/brec-runs/ppgt-brec-regular-extension-gpu: it is copied to $RUNS (default runs/gpu-ppgt), two
# shards of $PPGT_WORKERS local processes each train into the copy for at most $BUDGET seconds (a stopped
# unit runs again on the next resume), and the copy's config and results files are written to $OUT (when
# set) for committing. Code changed since the directory was started: --allow-code-change (each record keeps
# the code version it was written under).
# Smoke test on a CPU: DEVICE=cpu BUDGET=60 PPGT_WORKERS=1 bash benchmarks/gpu_ppgt.sh
source "$(dirname "$0")/gpu_env.sh"
DEVICE=${DEVICE:-cuda}; BUDGET=${BUDGET:-480}; PPGT_WORKERS=${PPGT_WORKERS:-6}
RUNS=${RUNS:-runs/gpu-ppgt}; RUN="$RUNS/ppgt-brec-regular-extension-gpu"
mkdir -p "$RUNS"; [ -d "$RUN" ] || cp -r reports/brec-runs/ppgt-brec-regular-extension-gpu "$RUN"
start=$(date +%s)
for k in 1 2; do
  timeout "$BUDGET" python3 -m cli brec run --device "$DEVICE" --seed 0 --quiet --model ppgt --preset brec \
    --pairs 60-259 --workers "$PPGT_WORKERS" --shard "$k/2" --allow-code-change --out "$RUN" \
    >"$RUNS/ppgt$k.log" 2>&1 &
done
watch_runs "$RUNS" "$start" 60
tail -n 3 "$RUNS"/ppgt*.log
if [ -n "${OUT:-}" ]; then cp "$RUN"/config.json "$RUN"/results-shard-*.jsonl "$RUNS"/ppgt*.log "$OUT"/; fi
