#!/usr/bin/env python3
"""Checks that a shared library exports argx's public API and nothing else.

Usage: exported_symbols.py LIBRARY [LIBRARY...]

Reads the dynamic symbol table (nm -DC --defined-only) and fails when a defined symbol is
outside namespace argx, or inside argx::detail, except the one detail function the public
headers' inline code calls (rethrow_as_error). The C++ standard library's names are counted
apart: libstdc++ declares namespace std with default visibility, so std templates argx
instantiates stay exported (as weak symbols any copy may stand for), and a toolchain that
links libstdc++ statically exports all of it from every shared library it links. Static libraries are skipped: they export nothing at run
time.
"""
import subprocess
import sys

# Called by argx::detail::with_argx_errors, which is inline in error.hpp.
ALLOWED_DETAIL = ("argx::detail::rethrow_as_error(",)
# The C++ standard library's names (libstdc++, libsupc++, the transactional-memory clones).
RUNTIME_PREFIXES = ("std::", "__gnu_cxx::", "__cxxabiv1::", "__gnu_debug::", "__cxa_", "__gxx_", "__gcclibcxx",
                    "__dynamic_cast", "_txnal_", "operator new", "operator delete", "transaction clone for ",
                    "_ZGTt")
RUNTIME_NAMESPACES = ("std::", "__gnu_cxx::", "__cxxabiv1::", "__gnu_debug::")
# The C runtime pieces libstdc++ carries when linked statically (unwinder, once, TM clones).
RUNTIME_C = ("_Unwind_", "__once_proxy", "__gxx_", "__cxa_", "_ZGTt", "_txnal_", "__gcclibcxx")


def is_runtime(name):
    """A name of the C++ standard library: in (or about) one of its namespaces, whatever the
    demangled return type in front, or one of its C-level entry points."""
    return (name.startswith(RUNTIME_PREFIXES) or name.startswith(RUNTIME_C) or
            any(" " + ns in name or "(" + ns in name or name.startswith(ns) for ns in RUNTIME_NAMESPACES))


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
    count = runtime = 0
    for kind, name in exported(lib):
        count += 1
        if kind == UNIQUE:
            continue
        if name.startswith("argx::detail::") and not name.startswith(ALLOWED_DETAIL):
            found.append(name)
        elif "argx::" in name:
            continue
        elif is_runtime(name):
            runtime += 1
        else:
            found.append(name)
    return count, runtime, found


def main(argv):
    status = 0
    for lib in argv[1:]:
        if lib.endswith(".a"):
            print(f"{lib}: static library, nothing exported at run time")
            continue
        count, runtime, bad = problems(lib)
        print(f"{lib}: {count} exported symbols, {runtime} of the C++ standard library, "
              f"{len(bad)} outside the public API")
        for name in bad[:40]:
            print("  " + name)
        if bad:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
