#!/usr/bin/env bash
# Builds tests/subproject (a debug, -Wpedantic parent of argx) in BUILD_DIR and checks what
# argx promises a parent: argx's sources compile optimized (-O3, no -O0/-g/-G) and with none
# of the parent's warning flags (nvcc included), the build prints no warning at all, the
# consumer runs, and after `meson install` the installed consumer runs from the prefix (no
# LD_LIBRARY_PATH) with a shared argx installed beside it (versioned SONAME), or nothing of a
# static argx installed. --configure-only stops after the flag check (for the CUDA sources,
# whose compile CI already pays for in the main build).
# usage: tests/subproject/check.sh [--configure-only] BUILD_DIR [MESON OPTIONS...]
set -euo pipefail
configure_only=false
if [ "${1:-}" = --configure-only ]; then configure_only=true; shift; fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath -m "$1")
shift
rm -rf "$build"
(cd "$here" && meson setup "$build" "$@" >/dev/null)

# The flags each argx source is compiled with, against those of the parent's own source.
/usr/bin/python3 - "$build/compile_commands.json" <<'PY'
import json, shlex, sys
entries = json.load(open(sys.argv[1]))
def flags(e): return shlex.split(e["command"])
argx = [e for e in entries if "subprojects/argx/" in e["file"]]
parent = [e for e in entries if e["file"].endswith("consumer.cpp")]
assert argx and parent, "no argx or parent sources in compile_commands.json"
# The check can fail: the parent really is a debug build with -Wpedantic.
assert "-O0" in flags(parent[0]) and "-Wpedantic" in flags(parent[0]), flags(parent[0])
bad = []
for e in argx:
    f = flags(e)
    # nvcc passes host flags as -Xcompiler=a,b: split them out.
    f += [x for a in f if a.startswith("-Xcompiler=") for x in a[len("-Xcompiler="):].split(",")]
    why = [w for w, b in [("not -O3", "-O3" not in f), ("-O0", "-O0" in f), ("-g", "-g" in f), ("-G", "-G" in f),
                          ("-Wpedantic", "-Wpedantic" in f), ("-Wextra", "-Wextra" in f), ("-Wall", "-Wall" in f)] if b]
    if why: bad.append(f"{e['file']}: {', '.join(why)}")
print(f"argx sources: {len(argx)} ({sum('nvcc' in flags(e)[0] for e in argx)} CUDA), all -O3 without the parent's flags"
      if not bad else "\n".join(bad))
sys.exit(1 if bad else 0)
PY
$configure_only && exit 0

log=$(mktemp)
trap 'rm -f "$log"; rm -rf "${prefix:-}"' EXIT
ninja -C "$build" >"$log" 2>&1 || { tail -40 "$log"; exit 1; }
if grep -n 'warning' "$log"; then echo "the build printed warnings (above)"; exit 1; fi
meson test -C "$build" --print-errorlogs >/dev/null

# Install into a temporary prefix and run the installed consumer as a user would.
prefix=$(mktemp -d)
meson configure "$build" -Dprefix="$prefix" >/dev/null
meson install -C "$build" --quiet >/dev/null
env -u LD_LIBRARY_PATH "$prefix/bin/consumer"
libs=$(find "$prefix" -name 'libargx*' | sort)
if grep -q 'default_library=static\|argx_static=true' <<<"$*"; then
  [ -z "$libs" ] || { echo "a static argx installed: $libs"; exit 1; }
else
  so=$(find "$prefix" -name 'libargx.so.*.*.*')
  [ -n "$so" ] || { echo "libargx.so not installed (found: $libs)"; exit 1; }
  readelf -d "$so" | grep -q 'SONAME.*libargx\.so\.[0-9]' || { echo "no versioned SONAME"; exit 1; }
fi
echo "installed consumer runs from $prefix; argx installed: ${libs:-nothing}"
