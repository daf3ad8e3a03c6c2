#!/usr/bin/env bash
# Configures a clang build with AddressSanitizer and UndefinedBehaviorSanitizer (fatal) in
# which every source also gets libFuzzer's coverage instrumentation (fuzzer-no-link: only
# counters, so the test programs run as usual and the fuzz targets are built beside them).
# -O1, as ASan recommends; the SIMD kernels only for this CPU's instruction set (Highway
# code is slow to compile instrumented, and that is the one that runs here).
#
# usage: tools/fuzz/setup_build.sh BUILD [MESON OPTIONS...]
#   tools/fuzz/run.sh uses it with -Dtests=disabled -Dbench=disabled; CI with -Dbench=disabled.
set -euo pipefail
build=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
CC=clang CXX=clang++ meson setup "$build" "$root" -Dcuda=disabled \
  -Doptimization=1 -Ddebug=true -Ddefault_library=static \
  -Db_sanitize=address,undefined -Db_lundef=false -Dsimd_targets=static \
  "-Dcpp_args=['-march=native','-fsanitize=fuzzer-no-link','-fno-sanitize-recover=undefined']" \
  "$@"
