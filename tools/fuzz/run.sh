#!/usr/bin/env bash
# Builds the two libFuzzer targets (.npy reader, plan/validation) with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer, writes their seed corpora and runs both
# at once for SECONDS seconds. BUILD may be an existing build of setup_build.sh (CI passes
# the one its test suite ran in); otherwise it is configured here. Exits non-zero on any
# finding; crashing inputs are left as BUILD/fuzz-work/<target>-crash-* (replay one with:
# BUILD/tools/fuzz/<target> FILE).
#
# usage: tools/fuzz/run.sh [SECONDS=60] [BUILD=build-fuzz]
# needs: clang, libclang-rt-14-dev (libFuzzer), meson, ninja
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-$root/build-fuzz}
jobs=${JOBS:-2}

command -v clang++ >/dev/null || { echo "run.sh: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }

# CUDA, tests and benchmarks stay out unless BUILD already has them.
[ -f "$build/build.ninja" ] || "$root/tools/fuzz/setup_build.sh" "$build" -Dtests=disabled -Dbench=disabled >/dev/null
ninja -C "$build" -j "$jobs" tools/fuzz/npy_reader_fuzz tools/fuzz/plan_fuzz tools/fuzz/fuzz_seeds >/dev/null

work=$build/fuzz-work
mkdir -p "$work/npy-corpus" "$work/plan-corpus"
"$build/tools/fuzz/fuzz_seeds" "$work/seeds"

# Both targets at once, one core each.
run_target() {
  local target=$1 corpus=$work/${1%_reader}-corpus seeds=$work/seeds/${1%_reader}
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    "$build/tools/fuzz/${target}_fuzz" -max_total_time="$seconds" -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$work/$target-" "$corpus" "$seeds" >"$work/$target.log" 2>&1
}
echo "== npy_reader_fuzz and plan_fuzz for ${seconds} s"
declare -A pid
for target in npy_reader plan; do
  run_target "$target" &
  pid[$target]=$!
done
status=0
for target in npy_reader plan; do
  log=$work/$target.log
  if wait "${pid[$target]}"; then
    grep -E "DONE|^Done|stat::number_of_executed_units|stat::peak_rss_mb" "$log" || true
    echo "== ${target}_fuzz: no findings"
  else
    status=1
    echo "== ${target}_fuzz: FINDING (log: $log)"
    grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -n 20 || true
  fi
done
exit $status
