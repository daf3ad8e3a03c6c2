#!/usr/bin/env bash
# The CPU run of the vocabulary-parallel benchmark on this machine: vocab_bench under
# mpirun with one rank per core (each rank bound to its core, so its local tbb backend runs
# one thread), then the plot and the table. Results: bench/results/distributed-<label>.{csv,md,png}.
#   bench/distributed/run.sh BUILD_DIR LABEL [RANKS]
set -euo pipefail
build=$1
label=$2
ranks=${3:-$(nproc)}
cd "$(dirname "$0")/../.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=bench/results/distributed-$label
mpirun --bind-to core -np "$ranks" "$build/bench/distributed/vocab_bench" --local tbb --label "$label" --csv "$out.csv"
/usr/bin/python3 bench/distributed/plot.py "$out.csv" "$out.png" "$out.md"
cat "$out.md"
