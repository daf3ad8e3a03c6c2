#!/bin/sh
# Reproduces bench/results/cpu-NAME.{json,csv,md} on this machine, in one run: builds
# argx_bench_cpu (release, no CUDA), runs it (3 repetitions) and numpy_bench.py, records the
# load average before and after, and merges everything with report.py.
#
#   bench/cpu/run.sh [NAME [BUILD_DIR]]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:-$(hostname -s)}
build=${2:-$root/build-bench-cpu}
if [ ! -d "$build" ]; then
  meson setup "$build" "$root" --buildtype=release -Dcuda=disabled -Dtests=disabled -Dbench=enabled
fi
ninja -C "$build" -j2 bench/cpu/argx_bench_cpu

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$build/bench/cpu/argx_bench_cpu" --benchmark_repetitions=3 --benchmark_min_time=0.3 \
  --benchmark_out="$tmp/bench.json" --benchmark_out_format=json
/usr/bin/python3 "$root/bench/cpu/numpy_bench.py" "$tmp/numpy.json"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p "$root/bench/results"
/usr/bin/python3 "$root/bench/cpu/report.py" "$tmp/bench.json" "$tmp/numpy.json" "$root/bench/results/cpu-$name" \
  "Load average (1/5/15 min) before the run: $load_before; after: $load_after."
