#!/usr/bin/env bash
# The CPU run of the vocabulary-parallel benchmark on this machine: vocab_bench under
# mpirun with one rank per core (each rank bound to its core, so its local tbb backend runs
# one thread), then the plot and the table. Results: bench/results/distributed-<label>.{csv,md,png}.
# The load average before and after the run goes into the .md: this machine is shared.
#   bench/distributed/run.sh BUILD_DIR LABEL [RANKS]
set -euo pipefail
build=$1
label=$2
ranks=${3:-$(nproc)}
cd "$(dirname "$0")/../.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=bench/results/distributed-$label
before=$(cut -d' ' -f1-3 /proc/loadavg)
mpirun --bind-to core -np "$ranks" "$build/bench/distributed/vocab_bench" --local tbb --min-time 1 --label "$label" --csv "$out.csv"
/usr/bin/python3 bench/distributed/plot.py "$out.csv" "$out.png" "$out.md"
printf '\nCommand: `bench/distributed/run.sh %s %s %s`; load average before %s, after %s.\n' \
  "$build" "$label" "$ranks" "$before" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out.md"
cat "$out.md"
