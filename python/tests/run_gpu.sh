#!/usr/bin/env bash
# The Python package on a GPU machine: pip builds and installs it (CUDA backend included),
# then the whole pytest suite runs against the installed package (torch and CuPy on the GPU:
# answers, devices, zero-copy and stream checks; numpy as everywhere), then the Python
# benchmark against torch.argmax.
#
#   python/tests/run_gpu.sh [quick]
#
# Needs nvcc and a python3 with numpy, torch, cupy, meson, ninja and pytest (the GPU
# machine's python3 has them). Wheels carried in .whl/ (downloaded where pip works) are put
# first on the path for the build: meson-python and pyproject-metadata, which that python
# lacks, and nanobind (its own may be older than the 2.0 the extension needs):
#   pip download --no-deps -d .whl meson-python==0.22.1 pyproject-metadata==0.12.1 nanobind==3.1.0
# Writes to $OUT (default /tmp/argx-out): python-build.log, python-tests.log,
# python-gpu.md and python-gpu.json (copy those two to bench/results/python-gpu-<gpu>.*).
set -uo pipefail
mode=${1:-full}
OUT=${OUT:-/tmp/argx-out}
mkdir -p "$OUT"
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # argx's libcudart
PY=${PYTHON:-python3}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/python-tests.log"
$PY -c "import sys, sysconfig, os; h = os.path.join(sysconfig.get_paths()['include'], 'Python.h'); \
print(sys.version.split()[0], h, 'found' if os.path.exists(h) else 'MISSING (Python headers are needed to build)')" \
  | tee -a "$OUT/python-tests.log"

# ---- build and install (pip, meson-python, the CUDA backend required) -----------------------
if ls .whl/*.whl >/dev/null 2>&1; then
  rm -rf /tmp/argx-build-deps
  $PY -m pip install -q --no-index --no-deps --target /tmp/argx-build-deps .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/argx-build-deps${PYTHONPATH:+:$PYTHONPATH}
fi
$PY -c "import mesonpy, nanobind; print('meson-python', mesonpy.__version__, 'nanobind', nanobind.__version__)" \
  | tee -a "$OUT/python-tests.log" || { echo "meson-python or nanobind is missing: carry their wheels in .whl/"; exit 1; }
start=$(date +%s)
rm -rf /tmp/argx-site
$PY -m pip install -v --no-build-isolation --no-deps --no-index --target /tmp/argx-site \
  --config-settings=build-dir=build-python-gpu --config-settings=setup-args=-Dcuda=enabled . \
  >"$OUT/python-build.log" 2>&1 \
  || { tail -40 "$OUT/python-build.log"; exit 1; }
echo "pip install (CUDA included): $(( $(date +%s) - start )) s" | tee -a "$OUT/python-tests.log"
export PYTHONPATH=/tmp/argx-site${PYTHONPATH:+:$PYTHONPATH}

# ---- tests, against the installed package (run from /tmp so that nothing else is imported) ----
cd /tmp
$PY -c "import argx, torch, cupy; print('argx', argx.__version__, argx.__file__, 'cuda:', argx.available('cuda'), \
argx.gpus()[0]['name'] if argx.gpus() else 'no GPU'); print('torch', torch.__version__, 'cupy', cupy.__version__)" \
  | tee -a "$OUT/python-tests.log"
start=$(date +%s)
PYTHONUNBUFFERED=1 $PY -m pytest -q -rs -p no:cacheprovider "$repo/python/tests" >>"$OUT/python-tests.log" 2>&1
echo "pytest: exit $? in $(( $(date +%s) - start )) s" | tee -a "$OUT/python-tests.log"
tail -15 "$OUT/python-tests.log"

# ---- benchmark against torch.argmax ------------------------------------------------------------
q=""; [ "$mode" = quick ] && q="--quick"
PYTHONUNBUFFERED=1 $PY "$repo/bench/python/bench_python.py" gpu "$OUT/python-gpu" $q
