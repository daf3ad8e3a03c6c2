#!/usr/bin/env bash
# Installs argx from a configured build dir into a temporary prefix (the build dir's prefix
# option is changed to it), then builds and runs the consumer programs against it through
# pkg-config and through CMake: argx, and argx-mpi (run under mpirun with 2 ranks) and
# argx-nccl (linked and run without a communicator) where the build has them.
# usage: tests/install/check.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT

# Point the build at the temporary prefix (this regenerates argx.pc; nothing recompiles).
meson configure "$build" -Dprefix="$prefix" >/dev/null
meson install -C "$build" --quiet >/dev/null
libdir=$(meson introspect "$build" --buildoptions | /usr/bin/python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="libdir"][0])')

export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
export LD_LIBRARY_PATH="$prefix/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none -np 2)
have_mpi=0; [ -f "$prefix/$libdir/pkgconfig/argx-mpi.pc" ] && have_mpi=1
have_nccl=0; [ -f "$prefix/$libdir/pkgconfig/argx-nccl.pc" ] && have_nccl=1

g++ -std=c++20 -O2 "$here/../subproject/consumer.cpp" -o "$work/pkgconfig-consumer" $(pkg-config --cflags --libs argx)
"$work/pkgconfig-consumer"
if [ $have_mpi = 1 ]; then
  g++ -std=c++20 -O2 "$here/mpi_consumer.cpp" -o "$work/pkgconfig-mpi-consumer" $(pkg-config --cflags --libs argx-mpi)
  "${mpirun[@]}" "$work/pkgconfig-mpi-consumer"
fi
if [ $have_nccl = 1 ]; then
  g++ -std=c++20 -O2 "$here/nccl_consumer.cpp" -o "$work/pkgconfig-nccl-consumer" $(pkg-config --cflags --libs argx-nccl)
  "$work/pkgconfig-nccl-consumer"
fi
echo "pkg-config consumers: ok (argx$([ $have_mpi = 1 ] && echo ", argx-mpi")$([ $have_nccl = 1 ] && echo ", argx-nccl"))"

cmake -S "$here" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/consumer"
[ $have_mpi = 1 ] && "${mpirun[@]}" "$work/cmake/mpi_consumer"
[ $have_nccl = 1 ] && "$work/cmake/nccl_consumer"
echo "cmake consumers: ok"
