#!/usr/bin/env bash
# One GPU session: the GPU tests, compute-sanitizer, the profiler, the benchmarks and the
# differential fuzzer, as steps; logs and results go to $OUT.
#   bench/cuda/run_gpu.sh STEP...
#     tests      every backend/api/numpy/GPU test program (test_gpu in full, test_gpu_fresh: no
#                context from CPU calls, their cost, a first call under capture)
#     sanitizer  compute-sanitizer memcheck, racecheck, synccheck on the GPU test subsets
#     ncu        counters of a few argx kernels of the benchmark table
#     bench      the benchmark table (gpu_bench + torch_bench.py)
#     sweep      the random-shape sweep (gpu_sweep + sweep_report.py with torch)
#     fuzz=S     `argx fuzz` on seq, cuda and thrust for S seconds
#     archs      a library built for sm_75 only (build dir b75): with PTX compilation disabled
#                argx info must say cuda is unusable and name the architecture to add; with
#                it, the backend tests run the sm_75 code paths (compiled by the driver)
# The binaries come from a build here (meson, nvcc and g++ of the machine) or, with
# ARGX_PREBUILT=DIR, from a folder made by bench/cuda/pack_prebuilt.sh on another machine.
# DEADLINE (seconds, default 560) bounds the sanitizer step.
set -u
t0=$(date +%s)
left() { echo $(( ${DEADLINE:-560} - ($(date +%s) - t0) )); }
OUT=${OUT:-/tmp/argx-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
root=$PWD
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/NVIDIA //; s/ .*//' | tr 'A-Z' 'a-z')
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee -a "$OUT/tests.log"

# ---- binaries -------------------------------------------------------------------------------------
if [ -n "${ARGX_PREBUILT:-}" ]; then
  b=$root/$ARGX_PREBUILT
  export LD_LIBRARY_PATH=$b${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
else
  # The build folder is named by the sources' content: a warm machine keeps build folders
  # between calls, and the copied tree's file times need not be newer than their outputs.
  b=$root/b-$(find src backends include tests bench tools meson.build meson_options.txt -type f \( -name '*.[ch]*' -o -name '*.cu*' -o -name 'meson*' \) -print0 | sort -z | xargs -0 cat | md5sum | cut -c1-12)
  start=$(date +%s)
  if [ -d .gpu-deps ]; then  # doctest may be missing there: .gpu-deps holds its header and .pc file
    export PKG_CONFIG_PATH=$PWD/.gpu-deps/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    deps="-Dcmake_prefix_path=$PWD/.gpu-deps"
  fi
  { { [ -f $b/build.ninja ] || meson setup $b -Dtbb=disabled -Dsimd=disabled -Dgpu_archs=90 ${deps:-}; } &&
    ninja -C $b -j16 && ninja -C $b -j16 benchmarks; } >"$OUT/build.log" 2>&1 \
    || { tail -40 "$OUT/build.log"; exit 1; }
  echo "build: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"
fi
bin() {  # a program of the build, wherever it lies in the build tree or the prebuilt folder
  if [ -e "$b/$1" ]; then echo "$b/$1"; else echo "$b/$(basename "$1")"; fi
}

for step in "$@"; do
  start=$(date +%s)
  case $step in
    tests)
      export ARGX_NUMPY_CASES=$(bin tests/numpy_cases.bin)
      for t in tests/test_seq tests/test_cuda tests/test_thrust tests/test_api tests/test_numpy tests/cuda/test_gpu tests/cuda/test_gpu_fresh; do
        timeout 300 "$(bin $t)" >>"$OUT/tests.log" 2>&1
        echo "$t: exit $?" | tee -a "$OUT/tests.log"
      done
      grep -E "^\[doctest\] (test cases|assertions)|^  (first call|before|once)|grew by|kernel paths captured" "$OUT/tests.log"
      "$(bin tools/argx)" info | tee -a "$OUT/tests.log"
      python3 tools/exported_symbols.py "$b/libargx.so" | tee -a "$OUT/tests.log"
      ;;
    sanitizer)
      export ARGX_GPU_TEST_QUICK=1
      cs="compute-sanitizer --error-exitcode 9 --print-limit 20"
      tg=$(bin tests/cuda/test_gpu)
      {
        echo "== memcheck: test_gpu (quick cases, device blocks, memory, streams, graphs, resources)"
        timeout $(( $(left) / 3 )) $cs --tool memcheck "$tg" -tce="large*,classes: all 16*,memory: an allocation*"; echo "exit $?"
        echo "== racecheck: test_gpu (device blocks, kernel paths)"
        timeout $(( $(left) / 2 )) $cs --tool racecheck "$tg" -tc="device blocks*,classes: every*,classes: ties*"; echo "exit $?"
        echo "== synccheck: device blocks"
        timeout $(( $(left) / 3 )) $cs --tool synccheck "$tg" -tc="device blocks*"; echo "exit $?"
        echo "== memcheck: test_cuda (vectors, layout)"
        timeout $(( $(left) - 5 )) $cs --tool memcheck "$(bin tests/test_cuda)" -tc="vectors*,layout*"; echo "exit $?"
      } >"$OUT/sanitizer.log" 2>&1
      unset ARGX_GPU_TEST_QUICK
      grep -E "^==|ERROR SUMMARY|RACECHECK SUMMARY|^exit" "$OUT/sanitizer.log"
      ;;
    ncu)
      for c in "flat 2^28" "bf16 flat 2^28" "flat 2^20" "rows 4M x 32" "rows 4096 x 32768" "dim 0 of 32 x 8M" \
               "dim 1 of 64 x 4096 x 256" "dim 1 of 1M x 8 x 32"; do
        echo "== $c"
        timeout 60 ncu --clock-control none -k regex:"_kernel" --launch-skip 3 --launch-count 1 \
          --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
          "$(bin bench/cuda/gpu_bench)" --only "$c" --out /tmp/p.json 2>&1 | grep -vE "^==PROF==|^\s*$" | tail -80
      done >"$OUT/ncu.log" 2>&1
      ;;
    bench)
      "$(bin bench/cuda/gpu_bench)" --out "$OUT/gpu-bench.json" >"$OUT/bench.log" 2>&1
      PYTHONUNBUFFERED=1 python3 bench/cuda/torch_bench.py "$OUT/gpu-bench.json" "$OUT/gpu-$gpu" >/dev/null
      cat "$OUT/gpu-$gpu.md"
      ;;
    sweep)
      "$(bin bench/cuda/gpu_sweep)" --out "$OUT/gpu-sweep-raw.json" >"$OUT/sweep.log" 2>&1
      echo "gpu_sweep: exit $?"
      PYTHONUNBUFFERED=1 python3 bench/cuda/sweep_report.py "$OUT/gpu-sweep-raw.json" "$OUT/gpu-sweep-$gpu" | head -60
      ;;
    fuzz=*)
      timeout $(( ${step#fuzz=} + 60 )) "$(bin tools/argx)" fuzz --seconds "${step#fuzz=}" --seed "${FUZZ_SEED:-31}" \
        --backends seq,cuda,thrust >"$OUT/fuzz.log" 2>&1
      echo "fuzz: exit $?"; tail -5 "$OUT/fuzz.log"
      ;;
    archs)
      { meson setup b75 -Dtbb=disabled -Dsimd=disabled -Dgpu_archs=75 -Dtests=enabled ${deps:-} &&
        ninja -C b75 -j16 tools/argx tests/test_cuda tests/test_api; } >"$OUT/archs-build.log" 2>&1 \
        || { tail -40 "$OUT/archs-build.log"; exit 1; }
      CUDA_DISABLE_PTX_JIT=1 b75/tools/argx info | tee "$OUT/archs.log"
      CUDA_DISABLE_PTX_JIT=1 b75/tests/test_api >>"$OUT/archs.log" 2>&1; echo "test_api without a kernel image: exit $?" | tee -a "$OUT/archs.log"
      timeout 300 b75/tests/test_cuda >>"$OUT/archs.log" 2>&1; echo "test_cuda on compute_75 PTX: exit $?" | tee -a "$OUT/archs.log"
      grep -E "^\[doctest\] (test cases|assertions)" "$OUT/archs.log"
      ;;
    *) echo "unknown step $step"; exit 2 ;;
  esac
  echo "$step: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"
done
