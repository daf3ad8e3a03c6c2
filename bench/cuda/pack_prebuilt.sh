#!/usr/bin/env bash
# Copies the GPU test, benchmark and CLI programs of a build (and libargx, libcudart) into
# one folder, for bench/cuda/run_gpu.sh on a GPU machine without building there:
#   bench/cuda/pack_prebuilt.sh BUILD_DIR DEST_DIR
#   ARGX_PREBUILT=DEST_DIR bench/cuda/run_gpu.sh tests sweep
# Build with -Dtbb=disabled -Dsimd=disabled so that the library needs nothing the GPU
# machine lacks.
set -eu
build=$1
dest=$2
rm -rf "$dest"
mkdir -p "$dest"
# the library under its SONAME (libargx.so.0.1), with its links (not the .p folder beside them)
find "$build" -maxdepth 1 -name 'libargx.so*' ! -type d -exec cp -P {} "$dest/" \;
for f in tests/test_seq tests/test_cuda tests/test_thrust tests/test_api tests/test_numpy \
         tests/numpy_cases.bin tests/cuda/test_gpu tests/cuda/test_gpu_fresh bench/cuda/gpu_bench bench/cuda/gpu_sweep \
         tools/argx; do
  cp "$build/$f" "$dest/"
done
cudart=$(ldd "$build/libargx.so" | awk '/libcudart/ {print $3}')  # when the runtime is linked shared
[ -n "$cudart" ] && cp -L "$cudart" "$dest/"
du -sh "$dest"
