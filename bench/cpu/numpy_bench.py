#!/usr/bin/python3
"""numpy's argmax on the workloads of argx_bench_cpu, timed in-process.

Same shapes, dtypes and value distributions as bench_cpu.cpp; GB/s counts the input
bytes once. Each workload is timed in 3 batches of calls lasting at least 0.2 s; the best
batch mean is reported (Google Benchmark's per-repetition mean, best of 3, in report.py).

    /usr/bin/python3 bench/cpu/numpy_bench.py OUT.json
"""
import json
import sys
import time

import numpy as np

KiB, MiB = 1024, 1024 * 1024


def workloads():
    w = []
    for b in (256 * KiB, 1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB):
        label = f"{b // KiB}KiB" if b < MiB else f"{b // MiB}MiB"
        w.append((f"flat_f32_{label}", np.float32, (b // 4,), None, False))
    w.append(("rows_f32_2Mx32", np.float32, (2 * MiB, 32), 1, False))
    w.append(("rows_f32_65536x1024", np.float32, (65536, 1024), 1, False))
    w.append(("rows_f32_64x1M", np.float32, (64, MiB), 1, False))
    w.append(("axis0_f32_4096x16384", np.float32, (4096, 16384), 0, False))
    w.append(("axis1_f32_64x1024x1024", np.float32, (64, 1024, 1024), 1, False))
    w.append(("flat_f64_256MiB", np.float64, (32 * MiB,), None, False))
    w.append(("flat_i32_256MiB", np.int32, (64 * MiB,), None, False))
    w.append(("flat_u8_256MiB", np.uint8, (256 * MiB,), None, False))
    w.append(("flat_f16_256MiB", np.float16, (128 * MiB,), None, False))
    # numpy has no bfloat16: flat_bf16_256MiB has no numpy figure.
    w.append(("abs_f32_250000", np.float32, (250000,), None, True))
    return w


def make(dtype, shape, rng):
    n = int(np.prod(shape))
    if dtype in (np.float32, np.float64):
        return (rng.random(n, dtype=np.float64) * 2 - 1).astype(dtype).reshape(shape)
    if dtype == np.float16:  # random finite halves of both signs
        bits = rng.integers(0, 1 << 16, n, dtype=np.uint16)
        nan_or_inf = (bits & 0x7C00) == 0x7C00
        bits[nan_or_inf] ^= 0x0400
        return bits.view(np.float16).reshape(shape)
    info = np.iinfo(dtype)  # the type's largest value never occurs (as in bench_cpu.cpp)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=False).reshape(shape)


def time_call(f, min_batch=0.2, batches=3):
    f()  # warm-up
    best = float("inf")
    for _ in range(batches):
        calls, start = 0, time.perf_counter()
        while True:
            f()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_batch:
                break
        best = min(best, elapsed / calls)
    return best


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "numpy.json"
    rng = np.random.default_rng(12345)
    results = {"numpy_version": np.__version__, "workloads": {}}
    for name, dtype, shape, axis, use_abs in workloads():
        a = make(dtype, shape, rng)
        if use_abs:
            f = lambda: np.argmax(np.abs(a))
        else:
            f = (lambda: a.argmax()) if axis is None else (lambda: a.argmax(axis=axis))
        t = time_call(f)
        results["workloads"][name] = {"seconds": t, "GBps": a.nbytes / t / 1e9}
        print(f"{name:28s} numpy {a.nbytes / t / 1e9:8.2f} GB/s", flush=True)
        del a
    with open(out, "w") as fh:
        json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
