#!/usr/bin/env bash
# The seed models at their paper presets (`--preset brec`) on BREC's CFI pairs, on one CUDA GPU.
#
# Run from the repository root on a machine with a GPU and torch + PyG installed; pynauty and igraph
# may come as wheels in .whl/ (installed into a fresh temporary folder when present). Each model trains in its own
# resumable run directory under $RUNS (default runs/gpu-cfi), all four models side by side on the
# one GPU, each stopped after $BUDGET seconds (a stopped run resumes: run the script again).
#   PPGT, GRIT:  the 26 CFI pairs RRWP-WL separates (reports/brec-theory), smallest graphs first
#   Graphormer:  the 12 CFI pairs SPD-WL separates
#   Graph Transformer (LapPE): all 100 CFI pairs (3-WL separates 60; no exact class is known)
# SGFormer (1-WL: separates no CFI pair) already ran on all 100 CFI pairs on CPU.
# Smoke test on a CPU: DEVICE=cpu EXTRA="--epochs 1" PAIRS_RR=265 PAIRS_SPD=265 PAIRS_ALL=265 BUDGET=120 bash benchmarks/gpu_cfi.sh
source "$(dirname "$0")/gpu_env.sh"
DEVICE=${DEVICE:-cuda}; BUDGET=${BUDGET:-420}; EXTRA=${EXTRA:-}
RUNS=${RUNS:-runs/gpu-cfi}; LOGS=${OUT:-$RUNS}; mkdir -p "$RUNS" "$LOGS"
# CFI pairs by the number of nodes of their graphs (18 ... 198), from reports/brec-theory/verdicts.csv
PAIRS_RR=${PAIRS_RR:-265,278,272,291,317,297,281,294,303,271,273,305,268,274,289,307,309,279,283,284,285,296,299,302,311,315}
PAIRS_SPD=${PAIRS_SPD:-265,278,291,317,297,303,273,305,289,307,309,315}
PAIRS_ALL=${PAIRS_ALL:-260-359}
python3 -c "import pynauty, igraph" || exit 3
if [ "$DEVICE" = cuda ]; then  # the CUDA-marked tests: every built-in model on GPU equals CPU, gradients on GPU
  timeout 120 python3 -m pytest -q -p no:cacheprovider -o addopts="--import-mode=importlib" \
    tests/wltools/models/test_all_models.py -k cuda 2>&1 | tail -3
fi
RUN="python3 -m cli brec run --device $DEVICE --seed 0 --quiet $EXTRA"
start=$(date +%s)
timeout "$BUDGET" $RUN --model ppgt --preset brec --pairs "$PAIRS_RR" --workers 4 --out "$RUNS/ppgt-brec-cfi-gpu" >"$LOGS/ppgt.log" 2>&1 &
timeout "$BUDGET" $RUN --model grit --preset brec --pairs "$PAIRS_RR" --workers 4 --out "$RUNS/grit-brec-cfi-gpu" >"$LOGS/grit.log" 2>&1 &
timeout "$BUDGET" $RUN --model graphormer --preset brec --pairs "$PAIRS_SPD" --workers 2 --out "$RUNS/graphormer-brec-cfi-gpu" >"$LOGS/graphormer.log" 2>&1 &
timeout "$BUDGET" $RUN --model graph_transformer --preset brec --pairs "$PAIRS_ALL" --workers 4 --out "$RUNS/graph-transformer-brec-cfi-gpu" >"$LOGS/gt.log" 2>&1 &
while [ -n "$(jobs -r)" ]; do  # one line a minute: units recorded per run
  sleep 60; printf '%4ss' $(( $(date +%s) - start ))
  for d in "$RUNS"/*/; do printf ' %s=%s' "$(basename "$d")" "$(cat "$d"/results*.jsonl 2>/dev/null | wc -l)"; done; echo
done
wait
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv 2>/dev/null
if [ -n "${OUT:-}" ]; then tar czf "$OUT/runs.tgz" -C "$RUNS" .; fi
tail -n 3 "$LOGS"/*.log
