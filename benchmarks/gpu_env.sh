# Sourced by the GPU scripts (gpu_cfi.sh, gpu_count.sh) from the repository root: unbuffered Python,
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
