#!/usr/bin/env bash
# Installs argx from a configured build dir into a temporary prefix (the build dir's prefix
# option is changed to it), then checks what a consumer gets: the installed argx tool runs
# from there and prints the version (its RPATH finds the library under any prefix); argx.pc
# carries no -std and no private flags; the consumer program builds and runs through
# pkg-config (--static for a static argx) with -std=c++20 and -std=c++23, and through CMake;
# a consumer compiling with -std=c++17 gets argx's one message that it needs C++20; argx-mpi
# (run under mpirun with 2 ranks) and argx-nccl (linked and run without a communicator) are
# built and run through pkg-config and CMake where the build has them.
# usage: tests/install/check.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
option() { meson introspect "$build" --buildoptions | /usr/bin/python3 -c \
  "import json,sys; print([o['value'] for o in json.load(sys.stdin) if o['name']=='$1'][0])"; }

# Point the build at the temporary prefix (this regenerates argx.pc; nothing recompiles).
meson configure "$build" -Dprefix="$prefix" >/dev/null
meson install -C "$build" --quiet >/dev/null
libdir=$(option libdir)
static=$([ "$(option default_library)" = static ] && echo --static || true)
unset LD_LIBRARY_PATH
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none -np 2)
have_mpi=0; [ -f "$prefix/$libdir/pkgconfig/argx-mpi.pc" ] && have_mpi=1
have_nccl=0; [ -f "$prefix/$libdir/pkgconfig/argx-nccl.pc" ] && have_nccl=1

version=$(sed -n "s/^  version: '\(.*\)',$/\1/p" "$here/../../meson.build")
[ "$("$prefix/bin/argx" --version)" = "argx $version" ] || { echo "argx --version: not 'argx $version'"; exit 1; }
echo "installed argx tool: $("$prefix/bin/argx" --version)"

if [ -z "$static" ]; then
  so=$(readelf -d "$prefix/$libdir/libargx.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [[ "$so" =~ ^libargx\.so\.[0-9] ]] || { echo "SONAME '$so' is not versioned"; exit 1; }
  echo "SONAME: $so"
fi

cflags=$(pkg-config --cflags argx)
libs=$(pkg-config $static --libs argx)
echo "pkg-config: Cflags: $cflags; Libs${static:+ (static)}: $libs"
if grep -qE -- '-std=|-D|-pthread' <<<"$cflags"; then echo "argx.pc's Cflags carry more than include dirs"; exit 1; fi
for std in c++20 c++23; do
  g++ -std=$std -O2 "$here/../subproject/consumer.cpp" -o "$work/pkgconfig-consumer" $cflags $libs
  LD_LIBRARY_PATH="$prefix/$libdir" "$work/pkgconfig-consumer" >/dev/null
done
export LD_LIBRARY_PATH="$prefix/$libdir"  # the consumers' own programs have no RPATH
if [ $have_mpi = 1 ]; then
  g++ -std=c++20 -O2 "$here/mpi_consumer.cpp" -o "$work/pkgconfig-mpi-consumer" $(pkg-config $static --cflags --libs argx-mpi)
  "${mpirun[@]}" "$work/pkgconfig-mpi-consumer"
fi
if [ $have_nccl = 1 ]; then
  g++ -std=c++20 -O2 "$here/nccl_consumer.cpp" -o "$work/pkgconfig-nccl-consumer" $(pkg-config $static --cflags --libs argx-nccl)
  "$work/pkgconfig-nccl-consumer"
fi
echo "pkg-config consumers (-std=c++20, -std=c++23): ok (argx$([ $have_mpi = 1 ] && echo ", argx-mpi")$([ $have_nccl = 1 ] && echo ", argx-nccl"))"

# -std=c++17: argx's #error, and nothing else from argx's headers.
if g++ -std=c++17 -fsyntax-only "$here/../subproject/consumer.cpp" $cflags 2>"$work/c++17.log"; then
  echo "-std=c++17 compiled"; exit 1
fi
grep -q '#error "argx needs C++20' "$work/c++17.log" || { cat "$work/c++17.log"; exit 1; }
errors=$(grep -c 'error:' "$work/c++17.log")
[ "$errors" -le 2 ] || { cat "$work/c++17.log"; echo "-std=c++17: $errors errors, not one message"; exit 1; }
echo "-std=c++17 consumer: $(grep -o '#error.*' "$work/c++17.log" | head -1)"

cmake -S "$here" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/consumer" >/dev/null
[ $have_mpi = 1 ] && "${mpirun[@]}" "$work/cmake/mpi_consumer"
[ $have_nccl = 1 ] && "$work/cmake/nccl_consumer"
echo "cmake consumers: ok"
