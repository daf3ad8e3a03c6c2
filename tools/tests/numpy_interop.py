"""argx reduce against numpy on files numpy writes: every numpy dtype argx reads, C and
Fortran order, little- and big-endian, .npy versions 1.0, 2.0 and 3.0; and numpy must
load what argx writes. usage: numpy_interop.py ARGX_EXE (exit 77 without numpy)."""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("numpy is not available: skipped")
    sys.exit(77)

ARGX = sys.argv[1]
DTYPES = ["f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "b1"]
failures = []


def make(dt, rng):
    shape = (5, 9, 4)
    if dt == "b1":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dt[0] == "f":
        a = rng.integers(-3, 4, size=shape).astype(dt)  # small integers: many ties
        a[1, 2, 3] = np.nan
        a[4, :, 0] = -0.0
        a[4, 5, 0] = 0.0
        a[0, 0, :] = np.inf
        return a
    info = np.iinfo(np.dtype(dt))
    a = rng.integers(max(info.min, -5), min(info.max, 5) + 1, size=shape).astype(dt)
    a[2, 3, 1] = info.max
    a[3, 4, 2] = info.min
    return a


def argx(*args):
    r = subprocess.run([ARGX, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"argx {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")


def check(name, got, want):
    if got.shape != want.shape or not np.array_equal(got, want):
        failures.append(f"{name}: argx {got.ravel()[:12]} numpy {want.ravel()[:12]}")


def main():
    rng = np.random.default_rng(7)
    versions = [(1, 0), (2, 0), (3, 0)]
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = lambda n: os.path.join(tmp, n)
        for k, dt in enumerate(DTYPES):
            base = make(dt, rng)
            for order in "CF":
                for endian in "<>":
                    if endian == ">" and base.dtype.itemsize == 1:
                        continue
                    a = np.asarray(base.astype(base.dtype.newbyteorder(endian)), order=order)
                    version = versions[(k + len(order) + (endian == ">")) % 3]
                    with open(path("in.npy"), "wb") as f:
                        np.lib.format.write_array(f, a, version=version)
                    tag = f"{dt} {order} {endian} v{version[0]}"
                    floating = a.dtype.kind == "f"
                    for axis in (0, 1, 2, None):
                        dims = [] if axis is None else ["--dim", str(axis)]
                        for op in ("argmax", "argmin"):
                            argx("reduce", path("in.npy"), "-o", path("i.npy"), "--values", path("v.npy"),
                                 "--op", op, *dims)
                            want = getattr(np, op)(a, axis=axis)
                            check(f"{tag} {op} axis={axis}", np.load(path("i.npy")), np.asarray(want))
                            vals = np.load(path("v.npy"))
                            flat = a.ravel() if axis is None else None
                            expect = flat[want] if axis is None else np.take_along_axis(
                                a, np.expand_dims(want, axis), axis).squeeze(axis)
                            want_bits = np.array(np.asarray(expect).astype(a.dtype.newbyteorder("<")), order="C")
                            if vals.shape != want_bits.shape or vals.tobytes() != want_bits.tobytes():
                                failures.append(f"{tag} {op} axis={axis}: values differ")
                            cases += 1
                            if floating and axis == 2:
                                argx("reduce", path("in.npy"), "-o", path("i.npy"), "--op", op, "--nan", "ignore",
                                     *dims)
                                want = getattr(np, "nan" + op)(a, axis=axis)
                                check(f"{tag} nan{op} axis={axis}", np.load(path("i.npy")), want)
                                cases += 1
    for f in failures:
        print("FAIL", f)
    print(f"{cases} reductions compared with numpy, {len(failures)} failures")
    return 1 if failures else 0


sys.exit(main())
