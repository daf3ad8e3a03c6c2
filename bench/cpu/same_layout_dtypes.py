#!/usr/bin/python3
"""One layout reduced as several 16-bit dtypes, timed interleaved in one process: whether a
dtype is slower than another on the very same shape, view and dims.

    /usr/bin/python3 bench/cpu/same_layout_dtypes.py BUILD_DIR THREADS LAYOUT...

LAYOUT is SHAPE:DIMS:OP, e.g. 624979x57:0:argmax, 50000000:all:argmin; a leading T
transposes the array (T5000x10000:all:argmax reads 10000 runs of 5000). Elements: standard
normal values as float16 and bfloat16 (both signs, no NaN), uniform integers for int16 and
uint16 (never the extremes, so that no scan stops early). Prints each dtype's time and, in
parentheses, its fraction of the read ceiling over its own array ("read" time / argx time,
THREADS threads), so that where an array landed in memory does not favour one dtype.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_timing import Argx, Read, Reduction, measure  # noqa: E402

DTYPES = ["float16", "bfloat16", "int16", "uint16"]


def elements(rng, name, n):
    f = rng.standard_normal(n).astype(np.float32)
    if name == "float16":
        return f.astype(np.float16)
    if name == "bfloat16":  # the top half of each float32 (truncated), as numpy has no bfloat16
        return (f.view(np.uint32) >> 16).astype(np.uint16)
    info = np.iinfo(name)
    return rng.integers(info.min + 1, info.max - 1, n, dtype=name, endpoint=True)


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    argx = Argx(sys.argv[1])
    threads = int(sys.argv[2])
    argx.lib.argx_sweep_set_threads(threads)
    rng = np.random.default_rng(1)
    for layout in sys.argv[3:]:
        shape_s, dims_s, op = layout.split(":")
        transposed = shape_s.startswith("T")
        shape = tuple(int(x) for x in shape_s.lstrip("T").split("x"))
        dims = None if dims_s == "all" else [int(x) for x in dims_s.split(",")]
        timers, arrays = {}, []
        for name in DTYPES:
            a = elements(rng, name, int(np.prod(shape))).reshape(shape)
            v = a.T if transposed else a
            arrays.append(v)  # kept alive while timed
            case = {"dtype": name, "dims": dims, "op": op, "nan": "propagate", "abs": False}
            timers[name] = Reduction(argx, case, v)
            timers["read " + name] = Read(argx, v, threads)
        s = measure(timers, rounds=7)
        cells = " ".join(f"{n}={s[n] * 1e3:7.3f}ms({s['read ' + n] / s[n]:.2f})" for n in DTYPES)
        print(f"{layout:28s} {cells}  {','.join(timers[DTYPES[0]].paths())}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
