"""argx reduce against numpy on files numpy writes: every numpy dtype argx reads, C and
Fortran order, little- and big-endian, .npy versions 1.0, 2.0 and 3.0; and numpy must
load what argx writes. Also: --slice against numpy's x[start:stop:step] (omitted, negative,
out-of-range, inverted and huge bounds and steps), headers with numpy's one-letter type
codes, and numpy dtypes argx does not reduce (refused as unsupported_dtype, by name).
usage: numpy_interop.py ARGX_EXE (exit 77 without numpy)."""
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


def argx_status(*args):
    r = subprocess.run([ARGX, *args], capture_output=True, text=True)
    return r.returncode, r.stderr.strip()


def bound(v):
    return "" if v is None else str(v)


def check_slices(tmp, rng):
    """--slice D:START:STOP:STEP must select what numpy's x[..., START:STOP:STEP, ...] does."""
    big = 2**63 - 1
    bounds = [None, 0, 1, 2, 3, 5, 6, 7, 100, -1, -2, -5, -7, -100, big, -big - 1]
    steps = [None, 1, 2, 3, 7, -1, -2, -3, -8, big, -big - 1]
    a = rng.integers(-3, 4, size=(6, 7)).astype(np.float32)
    a[2, 3] = np.nan
    src = os.path.join(tmp, "s.npy")
    np.save(src, a)
    out = os.path.join(tmp, "s_i.npy")
    cases = 0
    for _ in range(150):
        dim = int(rng.integers(0, 2))
        start, stop, step = (bounds[rng.integers(len(bounds))], bounds[rng.integers(len(bounds))],
                             steps[rng.integers(len(steps))])
        index = [slice(None)] * 2
        index[dim] = slice(start, stop, step)
        view = a[tuple(index)]
        spec = f"{dim}:{bound(start)}:{bound(stop)}:{bound(step)}"
        for axis in (dim, 1 - dim):
            code, err = argx_status("reduce", src, "-o", out, "--slice", spec, "--dim", str(axis))
            cases += 1
            if view.shape[axis] == 0:  # numpy: "attempt to get argmax of an empty sequence"
                if code != 1 or "[empty_reduction]" not in err:
                    failures.append(f"slice {spec} axis={axis}: numpy raises, argx exit {code}: {err}")
                continue
            if code != 0:
                failures.append(f"slice {spec} axis={axis}: exit {code}: {err}")
                continue
            check(f"slice {spec} axis={axis}", np.load(out), np.argmax(view, axis=axis))
    return cases


def check_type_codes(tmp):
    """Headers spelled with numpy's one-letter codes ('<i', '<e', '<d', ...) read as numpy reads them."""
    cases = 0
    for code in ["<i", "<e", "<d", "<f", "<h", "<H", "<l", "<q", "<Q", "<B", "|b", "?", ">i", ">d", "<I", "<L"]:
        dt = np.dtype(code)
        a = (np.arange(12) % 5).astype(dt)
        path = os.path.join(tmp, "code.npy")
        with open(path, "wb") as f:
            np.lib.format.write_array_header_1_0(f, {"descr": code, "fortran_order": False, "shape": (3, 4)})
            f.write(a.tobytes())
        if not np.array_equal(np.load(path), a.reshape(3, 4)):
            failures.append(f"type code {code}: numpy itself reads it differently")
        argx("reduce", path, "-o", os.path.join(tmp, "code_i.npy"), "--dim", "1")
        check(f"type code {code}", np.load(os.path.join(tmp, "code_i.npy")), np.argmax(a.reshape(3, 4), axis=1))
        cases += 1
    return cases


def check_unsupported(tmp):
    """numpy dtypes argx does not reduce: exit 1, unsupported_dtype, numpy's name for the dtype."""
    arrays = {
        "datetime64[ns]": np.array(["2020-01-01", "2021-06-30"], "datetime64[ns]"),
        "datetime64[D]": np.array(["2020-01-01"], "datetime64[D]"),
        "timedelta64[s]": np.array([1, 2], "timedelta64[s]"),
        "object": np.array([1, "a"], object),
        "complex64": np.array([1 + 2j], np.complex64),
        "complex128": np.array([1 + 2j]),
        "float128": np.array([1.5], np.longdouble),
        "unicode": np.array(["abc"]),
        "byte string": np.array([b"abc"]),
    }
    for name, a in arrays.items():
        path = os.path.join(tmp, "unsupported.npy")
        np.save(path, a, allow_pickle=True)
        code, err = argx_status("reduce", path, "-o", os.path.join(tmp, "u_i.npy"))
        if code != 1 or "[unsupported_dtype]" not in err or name not in err:
            failures.append(f"{name}: expected unsupported_dtype naming it, got exit {code}: {err}")
    return len(arrays)


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
        cases += check_slices(tmp, rng)
        cases += check_type_codes(tmp)
        cases += check_unsupported(tmp)
    for f in failures:
        print("FAIL", f)
    print(f"{cases} reductions compared with numpy, {len(failures)} failures")
    return 1 if failures else 0


sys.exit(main())
