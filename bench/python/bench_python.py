#!/usr/bin/env python3
"""argx from Python against numpy (CPU) and torch (GPU), per-call overhead included.

    bench/python/bench_python.py cpu OUT_PREFIX [--quick]   # numpy arrays: argx vs numpy
    bench/python/bench_python.py gpu OUT_PREFIX [--quick]   # CUDA tensors: argx vs torch

Writes OUT_PREFIX.json and OUT_PREFIX.md. Every time is the best, over several rounds, of
the mean time per call of a timed loop of calls made exactly as a user makes them
(argument handling, output allocation and, on the GPU, the launch included); argx's and
the peer's loops alternate within each round. GPU loops end with one synchronize, so a
small case's time is the per-call cost of a stream of calls. Each answer is checked against
the peer's before timing (a difference stops the run).
"""

import json
import os
import platform
import sys
import time

import numpy as np

import argx


def loop_length(fn, min_seconds, sync):
    """Calls per timed loop so that one loop lasts about min_seconds / 5."""
    fn()
    if sync:
        sync()
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        if sync:
            sync()
        t = time.perf_counter() - start
        if t >= min_seconds / 25 or n >= 1 << 22:
            return max(1, int(n * (min_seconds / 5) / max(t, 1e-9)))
        n *= 4


def best_per_call(ours, peer, min_seconds, repeats, sync=None):
    """Best, over `repeats` rounds, of the mean time per call of a timed loop of calls, for
    argx and its peer alike; the two loops alternate in every round so that both see the
    same machine (other processes come and go)."""
    fns = (ours, peer)
    lengths = [loop_length(fn, min_seconds, sync) for fn in fns]
    best = [float("inf"), float("inf")]
    for _ in range(repeats):
        for k, fn in enumerate(fns):
            start = time.perf_counter()
            for _ in range(lengths[k]):
                fn()
            if sync:
                sync()
            best[k] = min(best[k], (time.perf_counter() - start) / lengths[k])
    return best


def cpu_cases(quick):
    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s, dtype=np.float32)  # noqa: E731
    small = [("flat 1 (float32)", f32(1), None), ("flat 16 (float32)", f32(16), None),
             ("flat 256 (float32)", f32(256), None), ("flat 4096 (float32)", f32(4096), None),
             ("rows 8 x 8, dim 1 (float32)", f32(8, 8), 1), ("dim 0 of 8 x 8 (float32)", f32(8, 8), 0),
             ("dim 1 of 4 x 8 x 16 (int16)", rng.integers(-9, 9, (4, 8, 16)).astype(np.int16), 1)]
    n = 1 << (22 if quick else 24)
    nan = f32(n // 4)
    nan[::97] = np.nan
    large = [(f"flat 2^{n.bit_length() - 1} (float32)", f32(n), None),
             ("rows 4096 x 4096, dim 1 (float32)", f32(4096, 4096), 1),
             ("dim 0 of 4096 x 4096 (float32)", f32(4096, 4096), 0),
             ("dim 1 of 16 x 1024 x 1024 (float32)", f32(16, 1024, 1024), 1),
             ("rows 1M x 16, dim 1 (float32)", f32(1 << 20, 16), 1),
             (f"flat 2^{n.bit_length() - 1} (float16)", f32(n).astype(np.float16), None),
             (f"flat 2^{n.bit_length() - 1} (int8)", rng.integers(-100, 100, n).astype(np.int8), None),
             ("Fortran 4096 x 4096, dim 1 (float32)", np.asfortranarray(f32(4096, 4096)), 1)]
    return small, large, nan


def run_cpu(quick):
    small, large, nan = cpu_cases(quick)
    rows = []
    for group, cases, secs in [("small", small, 0.2 if quick else 0.5), ("large", large, 0.5 if quick else 2.0)]:
        for name, x, dim in cases:
            ours = lambda: argx.argmax(x, dim)  # noqa: E731
            peer = lambda: np.argmax(x, axis=dim)  # noqa: E731
            assert np.array_equal(ours(), peer()), name
            t_ours, t_peer = best_per_call(ours, peer, secs, 7)
            rows.append(dict(group=group, case=name, bytes=x.nbytes, argx_s=t_ours, peer_s=t_peer))
    ours = lambda: argx.argmax(nan, nan="ignore")  # noqa: E731
    peer = lambda: np.nanargmax(nan)  # noqa: E731
    assert ours() == peer()
    t_ours, t_peer = best_per_call(ours, peer, 1.0, 5)
    rows.append(dict(group="large", case=f"nanargmax 2^{nan.size.bit_length() - 1} with NaN (float32)",
                     bytes=nan.nbytes, argx_s=t_ours, peer_s=t_peer))
    small_nan = nan[:256].copy()
    ours = lambda: argx.argmax(small_nan, nan="ignore")  # noqa: E731
    peer = lambda: np.nanargmax(small_nan)  # noqa: E731
    assert ours() == peer()
    t_ours, t_peer = best_per_call(ours, peer, 0.5, 7)
    rows.append(dict(group="small", case="nanargmax 256 with NaN (float32)", bytes=small_nan.nbytes,
                     argx_s=t_ours, peer_s=t_peer))
    return rows, "numpy " + np.__version__, "np.argmax / np.nanargmax"


def run_gpu(quick):
    import torch

    assert torch.cuda.is_available() and argx.available("cuda"), "needs a GPU usable by torch and argx"
    sync = torch.cuda.synchronize
    g = torch.Generator(device="cuda").manual_seed(0)
    randn = lambda *s, dtype=torch.float32: torch.randn(s, device="cuda", generator=g).to(dtype)  # noqa: E731
    small = [("flat 1 (float32)", randn(1), None), ("flat 256 (float32)", randn(256), None),
             ("flat 4096 (float32)", randn(4096), None), ("flat 2^16 (float32)", randn(1 << 16), None),
             ("rows 64 x 64, dim 1 (float32)", randn(64, 64), 1), ("dim 0 of 64 x 64 (float32)", randn(64, 64), 0)]
    large = [("flat 2^26 (float32)", randn(1 << 26), None),
             ("rows 4096 x 16384, dim 1 (float32)", randn(4096, 16384), 1),
             ("dim 0 of 4096 x 16384 (float32)", randn(4096, 16384), 0),
             ("rows 4M x 16, dim 1 (float32)", randn(1 << 22, 16), 1),
             ("dim 1 of 64 x 4096 x 256 (float32)", randn(64, 4096, 256), 1),
             ("flat 2^26 (bfloat16)", randn(1 << 26, dtype=torch.bfloat16), None)]
    rows = []
    for group, cases, secs in [("small", small, 0.3 if quick else 1.0), ("large", large, 0.3 if quick else 1.0)]:
        for name, x, dim in cases:
            ours = lambda: argx.argmax(x, dim)  # noqa: E731
            peer = (lambda: torch.argmax(x)) if dim is None else (lambda: torch.argmax(x, dim))  # noqa: E731
            assert torch.equal(ours(), peer()), name
            t_ours, t_peer = best_per_call(ours, peer, secs, 7, sync)
            rows.append(dict(group=group, case=name, bytes=x.numel() * x.element_size(), argx_s=t_ours, peer_s=t_peer))
    return rows, f"torch {torch.__version__} on {torch.cuda.get_device_name()}", "torch.argmax"


def fmt_time(s):
    return f"{s * 1e6:.2f} µs" if s < 1e-3 else f"{s * 1e3:.3f} ms"


def write(rows, peer, peer_call, prefix, kind, quick):
    load_after = os.getloadavg() if hasattr(os, "getloadavg") else None
    info = dict(kind=kind, peer=peer, argx=argx.__version__, python=platform.python_version(),
                machine=platform.machine(), cpus=os.cpu_count(), simd=argx.cpu_simd_target(), quick=quick,
                load_before=LOAD_BEFORE, load_after=load_after,
                command=" ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:]))
    with open(prefix + ".json", "w") as f:
        json.dump(dict(info=info, rows=rows), f, indent=1)
    load = ""
    if LOAD_BEFORE:
        load = (f" Load average (1/5/15 min) before: {' '.join(f'{v:.2f}' for v in LOAD_BEFORE)}; "
                f"after: {' '.join(f'{v:.2f}' for v in load_after)}.")
    lines = [f"argx {info['argx']} from Python {info['python']} against {peer} ({kind}; {info['cpus']} CPUs, "
             f"argx SIMD target {info['simd'] or 'none'}). Command: `{info['command']}`.{load}", "",
             f"| case | input | argx per call | {peer_call} per call | {peer_call} / argx |",
             "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['case']} | {r['bytes']:,} B | {fmt_time(r['argx_s'])} | {fmt_time(r['peer_s'])} | "
                     f"{r['peer_s'] / r['argx_s']:.2f}× |")
    with open(prefix + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


LOAD_BEFORE = os.getloadavg() if hasattr(os, "getloadavg") else None


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("cpu", "gpu"):
        sys.exit(__doc__)
    quick = "--quick" in sys.argv[3:]
    rows, peer, call = (run_cpu if sys.argv[1] == "cpu" else run_gpu)(quick)
    write(rows, peer, call, sys.argv[2], sys.argv[1], quick)


if __name__ == "__main__":
    main()
