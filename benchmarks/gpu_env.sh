# Sourced by the GPU scripts (gpu_cfi.sh, gpu_count.sh, gpu_session.sh) from the repository root: unbuffered Python,
# wheels carried in .whl/ (pynauty, igraph: absent from the GPU image) installed into a fresh temporary
# folder when present, this checkout on PYTHONPATH, and a line naming the GPU and the versions.
set -u
export PYTHONUNBUFFERED=1
if ls .whl/*.whl >/dev/null 2>&1; then
  SITE=$(mktemp -d) || exit 3
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" .whl/*.whl || exit 3
  export PYTHONPATH=$SITE:$PWD
else
  export PYTHONPATH=$PWD
fi
nvidia-smi -L 2>/dev/null
python3 -c "import torch, torch_geometric; print('torch', torch.__version__, 'pyg', torch_geometric.__version__, 'cuda', torch.cuda.is_available() and torch.cuda.get_device_name(0))"

# watch_runs RUNS START SECONDS: while this shell's background runs go on, one line every SECONDS (seconds
# since START, results lines per run directory under RUNS, GPU use); then waits for them and, when $OUT
# is set, packs RUNS into $OUT/runs.tgz.
watch_runs() {
  while [ -n "$(jobs -r)" ]; do
    sleep "$3"; printf '%4ss' $(( $(date +%s) - $2 ))
    for d in "$1"/*/; do printf ' %s=%s' "$(basename "$d")" "$(cat "$d"/results*.jsonl 2>/dev/null | wc -l)"; done
    nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader 2>/dev/null | tr '\n' ' '; echo
  done
  wait
  if [ -n "${OUT:-}" ]; then tar czf "$OUT/runs.tgz" -C "$1" .; fi
}
