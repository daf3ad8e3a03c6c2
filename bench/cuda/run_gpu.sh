#!/usr/bin/env bash
# One GPU session: build, GPU tests, compute-sanitizer, benchmark; logs and results to $OUT.
#   bench/cuda/run_gpu.sh [quick|full|verify]
#     quick: GPU tests, fewer bench cases; full: + profiler and sanitizer;
#     verify: every backend/api/numpy/GPU test through meson, profiler, full bench, sanitizer
# Files written under $OUT (at most 8): build.log, tests.log, ncu.log, sanitizer.log,
# gpu-bench.json, gpu-h200.{json,csv,md}.
set -u
mode=${1:-full}
t0=$(date +%s)
left() { echo $(( ${DEADLINE:-560} - ($(date +%s) - t0) )); }  # seconds left of this run
OUT=${OUT:-/tmp/argx-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$OUT/tests.log"

# ---- build (nvcc and g++ of the machine) ----------------------------------------------------------
# doctest may be missing there: .gpu-deps (carried) holds its header with pkg-config and CMake files.
if [ -d .gpu-deps ]; then
  export PKG_CONFIG_PATH=$PWD/.gpu-deps/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  deps="-Dcmake_prefix_path=$PWD/.gpu-deps"
fi
start=$(date +%s)
targets=""  # verify builds only what it runs
[ "$mode" = verify ] && targets="tests/test_seq tests/test_par tests/test_tbb tests/test_cuda tests/test_thrust \
  tests/test_api tests/test_numpy tests/numpy_cases.bin tests/cuda/test_gpu bench/cuda/gpu_bench"
{ meson setup b -Dtbb=disabled -Dsimd=disabled ${deps:-} && ninja -C b -j16 $targets; } >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
if [ ! -x b/bench/cuda/gpu_bench ]; then  # bench/ is skipped where Google Benchmark is absent
  mkdir -p b/bench/cuda
  nvcc -O3 -std=c++20 --expt-relaxed-constexpr -gencode=arch=compute_90,code=sm_90 -Iinclude \
    bench/cuda/gpu_bench.cu -o b/bench/cuda/gpu_bench -Lb -largx -Xlinker -rpath=$PWD/b >>"$OUT/build.log" 2>&1 \
    || { tail -20 "$OUT/build.log"; exit 1; }
fi
echo "build: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"

# ---- tests ----------------------------------------------------------------------------------------
start=$(date +%s)
if [ "$mode" = verify ]; then
  meson test -C b --no-rebuild --suite backends --suite api --suite oracle --suite gpu --num-processes 4 \
    >>"$OUT/tests.log" 2>&1
  echo "meson test: exit $?" | tee -a "$OUT/tests.log"
  grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped):" "$OUT/tests.log"
fi
for t in test_cuda:120 test_thrust:120 cuda/test_gpu:200; do
  [ "$mode" = verify ] && break
  timeout "${t#*:}" "b/tests/${t%:*}" >>"$OUT/tests.log" 2>&1
  echo "${t%:*}: exit $?" | tee -a "$OUT/tests.log"
done
grep -E "^\[doctest\] (test cases|assertions)" "$OUT/tests.log"
echo "tests: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"

# ---- profiler: a few argx kernels, counters only (the clocks left as they are) -----------------------
if [ "$mode" = full ] || [ "$mode" = verify ]; then
  start=$(date +%s)
  for c in "flat 2^28" "bf16 flat 2^28" "flat 2^10" "flat 2^20" "rows 4M x 32" "rows 4096 x 32768" "dim 0 of 32 x 8M" \
           "dim 1 of 64 x 4096 x 256" "dim 1 of 1M x 8 x 32"; do
    echo "== $c"
    timeout 60 ncu --clock-control none -k regex:"team_kernel|register_rows_kernel|block_kernel|strided_kernel" --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
      b/bench/cuda/gpu_bench --only "$c" --out /tmp/p.json 2>&1 | grep -vE "^==PROF==|^\s*$" | tail -80
  done >"$OUT/ncu.log" 2>&1
  echo "ncu: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"
fi

# ---- benchmark --------------------------------------------------------------------------------------
start=$(date +%s)
q=""; [ "$mode" = quick ] && q="--quick"
b/bench/cuda/gpu_bench $q --out "$OUT/gpu-bench.json"
PYTHONUNBUFFERED=1 python3 bench/cuda/torch_bench.py "$OUT/gpu-bench.json" "$OUT/gpu-h200" >/dev/null
cat "$OUT/gpu-h200.md"
echo "bench: $(( $(date +%s) - start )) s"

# ---- compute-sanitizer ------------------------------------------------------------------------------
if [ "$mode" = full ] || [ "$mode" = verify ]; then
  start=$(date +%s)
  export ARGX_GPU_TEST_QUICK=1
  cs="compute-sanitizer --error-exitcode 9 --print-limit 20"
  {
    echo "== memcheck: test_gpu (quick cases, device blocks, memory, streams)"
    timeout $(( $(left) / 3 )) $cs --tool memcheck b/tests/cuda/test_gpu -tce="large*,classes: all 16*,memory: an allocation*"; echo "exit $?"
    echo "== racecheck: test_gpu (device blocks, kernel paths)"
    timeout $(( $(left) / 2 )) $cs --tool racecheck b/tests/cuda/test_gpu -tc="device blocks*,classes: every*,classes: ties*"; echo "exit $?"
    echo "== synccheck: device blocks"
    timeout $(( $(left) / 3 )) $cs --tool synccheck b/tests/cuda/test_gpu -tc="device blocks*"; echo "exit $?"
    echo "== memcheck: test_cuda (vectors, layout)"
    timeout $(( $(left) - 5 )) $cs --tool memcheck b/tests/test_cuda -tc="vectors*,layout*"; echo "exit $?"
  } >"$OUT/sanitizer.log" 2>&1  # streamed: what ran comes back even if the run is cut off
  unset ARGX_GPU_TEST_QUICK
  grep -E "^==|ERROR SUMMARY|RACECHECK SUMMARY|^exit" "$OUT/sanitizer.log"
  echo "sanitizer: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"
fi

