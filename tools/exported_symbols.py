#!/usr/bin/env python3
"""Checks that a shared library exports argx's public API and nothing else.

Usage: exported_symbols.py LIBRARY [LIBRARY...]

Reads the dynamic symbol table (nm -DC --defined-only) and fails when a defined symbol is
outside namespace argx, or inside argx::detail, except the one detail function the public
headers' inline code calls (rethrow_as_error). Static libraries are skipped: they export
nothing at run time.
"""
import subprocess
import sys

# Called by argx::detail::with_argx_errors, which is inline in error.hpp.
ALLOWED_DETAIL = ("argx::detail::rethrow_as_error(",)
# Unique (STB_GNU_UNIQUE) template statics of libstdc++ that the compiler emits wherever
# they are used; the dynamic linker merges them, so they cannot clash.
UNIQUE = "u"


def exported(lib):
    out = subprocess.run(["nm", "-DC", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            yield parts[1], parts[2]


def problems(lib):
    found = []
    count = 0
    for kind, name in exported(lib):
        count += 1
        if kind == UNIQUE:
            continue
        if name.startswith("argx::detail::") and not name.startswith(ALLOWED_DETAIL):
            found.append(name)
        elif "argx::" not in name:
            found.append(name)
    return count, found


def main(argv):
    status = 0
    for lib in argv[1:]:
        if lib.endswith(".a"):
            print(f"{lib}: static library, nothing exported at run time")
            continue
        count, bad = problems(lib)
        print(f"{lib}: {count} exported symbols, {len(bad)} outside the public API")
        for name in bad[:40]:
            print("  " + name)
        if bad:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
