"""Timing for the CPU sweep: argx (through libargx_sweep, ctypes) on numpy's own arrays,
numpy itself, and the read ceiling over the same bytes with 1 and 2 threads.

One measurement interleaves the four: each round runs a batch of each (a batch repeats a
call until it lasts about `batch_s`), and the result is each one's median time per call
over the rounds, so that a transient slowdown of the machine hits all four alike.
"""
import ctypes
import math
import os
import time

import numpy as np

from sweep_cases import DTYPES, span, touched_bytes

FLAGS = {"argmin": 1, "ignore": 2, "abs": 4}
CLASSES = ["empty", "flat", "rows", "strided", "general"]


class Argx:
    """libargx_sweep.so of a build directory."""

    def __init__(self, build_dir):
        path = os.path.join(build_dir, "bench", "cpu", "libargx_sweep.so")
        lib = ctypes.CDLL(path)
        i64p, intp = ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int)
        lib.argx_sweep_class.restype = ctypes.c_int
        lib.argx_sweep_class.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, i64p, i64p, ctypes.c_int, intp,
                                         ctypes.c_int]
        lib.argx_sweep_run.restype = ctypes.c_double
        lib.argx_sweep_run.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, i64p, i64p,
                                       ctypes.c_int, intp, ctypes.c_int, ctypes.c_int64, i64p]
        lib.argx_sweep_read.restype = ctypes.c_double
        lib.argx_sweep_read.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_int, ctypes.c_int64]
        lib.argx_sweep_read_write.restype = ctypes.c_double
        lib.argx_sweep_read_write.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_uint64,
                                              ctypes.c_int, ctypes.c_int64]
        lib.argx_sweep_set_threads.argtypes = [ctypes.c_int]
        lib.argx_sweep_paths.restype = ctypes.c_uint64
        lib.argx_sweep_paths.argtypes = lib.argx_sweep_run.argtypes[1:-2] + [i64p, ctypes.POINTER(ctypes.c_char_p),
                                                                             ctypes.c_int]
        for f in ("argx_sweep_simd_target", "argx_sweep_read_target"):
            getattr(lib, f).restype = ctypes.c_char_p
        self.lib = lib
        self.simd_target = lib.argx_sweep_simd_target().decode()
        self.read_target = lib.argx_sweep_read_target().decode()


class Reduction:
    """One case's reduction, bound to its view: run(), time(calls), the class of its plan."""

    def __init__(self, argx, case, v, backend="tbb"):
        self.argx, self.v, self.backend = argx, v, backend.encode()
        code = DTYPES[case["dtype"]][0]
        item = v.itemsize
        self.args_keep = (
            (ctypes.c_int64 * max(1, v.ndim))(*v.shape),
            (ctypes.c_int64 * max(1, v.ndim))(*[s // item for s in v.strides]),
            (ctypes.c_int * 16)(*(case["dims"] or [])),
        )
        ext, strides, dims = self.args_keep
        ndims = 0 if case["dims"] is None else len(case["dims"])
        flags = (FLAGS["argmin"] if case["op"] == "argmin" else 0) | (FLAGS["ignore"] if case["nan"] == "ignore" else 0)
        flags |= FLAGS["abs"] if case["abs"] else 0
        self.args = (ctypes.c_void_p(v.__array_interface__["data"][0]), code, v.ndim, ext, strides, ndims, dims, flags)
        kept = [e for d, e in enumerate(v.shape) if case["dims"] is not None and d not in case["dims"]]
        self.out = np.zeros(max(1, math.prod(kept)), dtype=np.int64)
        self.out_ptr = self.out.ctypes.data_as(ctypes.POINTER(ctypes.c_int64))
        self.kind = CLASSES[argx.lib.argx_sweep_class(*self.args)]

    def time(self, calls):
        t = self.argx.lib.argx_sweep_run(self.backend, *self.args, calls, self.out_ptr)
        if t < 0:
            raise RuntimeError("argx refused the case")
        return t

    def paths(self):
        """The tbb backend's paths (paths.hpp) this reduction takes, by name."""
        names = (ctypes.c_char_p * 64)()
        bits = self.argx.lib.argx_sweep_paths(*self.args, self.out_ptr, names, 64)
        return [names[i].decode() for i in range(64) if (bits >> i) & 1 and names[i]]

    def result(self, shape):
        self.time(1)
        return self.out.reshape(shape) if shape else self.out[0]


class Read:
    """The read ceiling for a view on `threads` threads: as many contiguous bytes as the
    view touches (sweep_cases.touched_bytes), from its lowest address."""

    def __init__(self, argx, v, threads):
        self.argx, self.threads = argx, threads
        self.lo, self.bytes = span(v)[0], touched_bytes(v)

    def time(self, calls):
        return self.argx.lib.argx_sweep_read(ctypes.c_void_p(self.lo), self.bytes, self.threads, calls)


class ReadWrite:
    """The memory ceiling for a view and its outputs on `threads` threads: the read ceiling's
    bytes read, then one int64 written per output (what any reduction must move)."""

    def __init__(self, argx, v, outputs, threads):
        self.argx, self.threads = argx, threads
        self.lo, self.bytes = span(v)[0], touched_bytes(v)
        self.out = np.zeros(max(1, outputs), dtype=np.uint64)

    def time(self, calls):
        return self.argx.lib.argx_sweep_read_write(ctypes.c_void_p(self.lo), self.bytes, self.out.ctypes.data,
                                                   self.out.size, self.threads, calls)


class Numpy:
    def __init__(self, fn):
        self.fn = fn

    def time(self, calls):
        fn = self.fn
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        return time.perf_counter() - t0


def measure(timers, rounds=5, batch_s=0.004, slow_s=0.25):
    """Median seconds per call of each timer ({name: timer}), interleaved round by round.
    A timer whose single call exceeds slow_s runs in at most 3 rounds."""
    per_call = {name: t.time(1) for name, t in timers.items()}  # warm-up and first estimate
    per_call = {name: max(t.time(1), 1e-9) if per_call[name] < 0.05 else per_call[name] for name, t in timers.items()}
    calls = {name: max(1, int(batch_s / c)) for name, c in per_call.items()}
    samples = {name: [] for name in timers}
    for r in range(rounds):
        names = list(timers)
        names = names[r % len(names):] + names[:r % len(names)]  # rotate who goes first
        for name in names:
            if per_call[name] > slow_s and len(samples[name]) >= 3:
                continue
            samples[name].append(timers[name].time(calls[name]) / calls[name])
    return {name: float(np.median(s)) for name, s in samples.items()}
