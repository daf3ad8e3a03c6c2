#!/usr/bin/env bash
# Installs argx from a configured build dir into a temporary prefix (the build dir's prefix
# option is changed to it), then builds and runs
# the consumer program twice against it: through pkg-config and through CMake.
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
g++ -std=c++20 -O2 "$here/../subproject/consumer.cpp" -o "$work/pkgconfig-consumer" $(pkg-config --cflags --libs argx)
"$work/pkgconfig-consumer"
echo "pkg-config consumer: ok"

cmake -S "$here" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/consumer"
echo "cmake consumer: ok"
