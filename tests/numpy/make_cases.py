#!/usr/bin/env python3
"""Writes numpy's answers for argx's numpy cross-check (tests/numpy/numpy_test.cpp).

numpy is the outside oracle: np.argmax, np.argmin, np.nanargmax and np.nanargmin over
axis=None, each axis, and several axes at once (numpy has no multi-axis argmax, so those
move the reduced axes last in ascending order and flatten them, which is argx's
definition), on arrays of every numpy dtype argx reads, with NaN, signed zeros,
infinities and ties, seen through transposed, reversed and sliced views.

Where numpy raises, the file records it: an empty reduction ("attempt to get argmax of an
empty sequence") must be argx's empty_reduction error; an all-NaN slice of nanarg*
("All-NaN slice encountered") must be index -1 in argx, so the script also records
numpy's answer for the other slices with -1 for the all-NaN ones.

Output: one file in a simple format of its own (text header lines, raw little-endian
payloads), so the test needs no .npy reader:
    argx-numpy-cases 1
    array <id> <dtype> <rank> <extents...> <nbytes>\n<nbytes of C-order data>\n
    query <array id> <view> <func> <axes> <keepdims> <status> <rank> <extents...> <count>\n<count int64>\n
    end
<view> is "-" or ops joined by ";": swap:A:B, flip:D, slice:D:BEGIN:END:STEP.
<axes> is "all" or a comma list. <status> is ok, allnan (numpy raised; -1 marks the
all-NaN slices), empty (numpy raised; nothing follows but an empty payload) or naninf.

naninf: np.nanargmin replaces NaN by +inf before its argmin (nanargmax: by -inf), so in a
slice whose only numbers are +inf it can return a NaN's index, e.g. nanargmin of
[nan, inf] is 0. argx's rule is that NaN never wins under nan=ignore, so the first inf
(index 1) is the answer; such queries carry the corrected answer and this status.
"""
import itertools
import sys

import numpy as np

DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool"]
FUNCS = ["argmax", "argmin", "nanargmax", "nanargmin"]
SHAPES = [(17,), (1,), (0,), (1000,), (4, 5), (3, 0), (0, 3), (33, 31), (2, 3, 4),
          (5, 1, 7), (3, 4, 5, 2), (2, 2, 2, 2, 2)]


def make_array(rng, dtype, shape):
    """Dense ties from a small pool, plus NaN (both signs), +-0 and +-inf for floats."""
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(dtype)
    if dt.kind == "f":
        pool = np.array([-2.5, -1.0, -0.0, 0.0, 1.0, 3.0, 3.0], dtype=dt)
        a = rng.choice(pool, size=n)
        special = rng.random(n)
        a[special < 0.05] = np.inf
        a[(special >= 0.05) & (special < 0.10)] = -np.inf
        a[(special >= 0.10) & (special < 0.16)] = np.nan
        neg_nan = (special >= 0.16) & (special < 0.19)
        a[neg_nan] = -np.abs(np.array(np.nan, dtype=dt))  # sign bit set
        a = a.reshape(shape)
        if len(shape) >= 2 and shape[0] > 1 and n > 0:
            a[1] = np.nan  # whole all-NaN slices
    elif dt.kind == "b":
        a = (rng.random(n) < 0.5).reshape(shape)
    else:
        info = np.iinfo(dt)
        pool = np.array([info.min, info.max, 0, 1, 1, 2], dtype=dt)
        if dt.kind == "i":
            pool = np.append(pool, np.array([-1, -1], dtype=dt))
        a = rng.choice(pool, size=n).reshape(shape)
    return np.ascontiguousarray(a)


def apply_view(a, ops):
    for op in ops:
        kind, *args = op.split(":")
        args = [int(x) for x in args]
        if kind == "swap":
            a = np.swapaxes(a, args[0], args[1])
        elif kind == "flip":
            a = np.flip(a, args[0])
        elif kind == "slice":
            d, b, e, s = args
            a = a[(slice(None),) * d + (slice(b, e, s),)]
    return a


def views_for(shape):
    yield []
    if len(shape) >= 2:
        yield ["swap:0:%d" % (len(shape) - 1)]
        yield ["flip:1", "slice:0:0:%d:2" % shape[0]]
    elif len(shape) == 1 and shape[0] > 2:
        yield ["flip:0"]
        yield ["slice:0:1:%d:3" % shape[0]]


def axes_for(rank):
    yield None
    for d in range(rank):
        yield (d,)
    if rank >= 2:
        yield (0, rank - 1)
    if rank >= 3:
        yield (1, 2)
        yield tuple(range(rank))


def flattened(v, axes):
    """v with the reduced axes moved last (ascending) and merged into one."""
    kept = [d for d in range(v.ndim) if d not in axes]
    red = int(np.prod([v.shape[d] for d in axes], dtype=np.int64))
    return np.transpose(v, kept + list(axes)).reshape([v.shape[d] for d in kept] + [red])


def out_shape(v, axes, keepdims):
    if axes is None:
        return [1] * v.ndim if keepdims else []
    return [1 if d in axes else v.shape[d] for d in range(v.ndim)] if keepdims else \
        [v.shape[d] for d in range(v.ndim) if d not in axes]


def numpy_answer(func, v, axes, keepdims):
    """numpy's own call: axis=None or one axis directly, several axes via flattening."""
    f = getattr(np, func)
    if axes is None:
        r = f(v)
    elif len(axes) == 1:
        r = f(v, axis=axes[0])
    else:
        r = f(flattened(v, axes), axis=-1)
    return np.asarray(r, dtype=np.int64).reshape(out_shape(v, axes, keepdims))


def answer_with_minus_one(func, v, axes, keepdims):
    """nanarg* where some slices are all NaN: numpy's answer elsewhere, -1 there."""
    r = flattened(v, tuple(range(v.ndim)) if axes is None else axes)
    mask = np.isnan(r).all(axis=-1)
    filled = r.copy()
    filled[mask] = 0
    ans = getattr(np, func)(filled, axis=-1)
    ans = np.where(mask, -1, ans)
    return np.asarray(ans, dtype=np.int64).reshape(out_shape(v, axes, keepdims))


def correct_nan_inf(func, v, axes, ans):
    """Where numpy's nanarg* answer is a NaN in a slice that has numbers, the numbers are
    all the infinity NaN was replaced by; argx reports the first of them instead."""
    r = flattened(v, tuple(range(v.ndim)) if axes is None else axes)
    flat_ans = ans.reshape(r.shape[:-1])
    picked = np.take_along_axis(r, flat_ans[..., None].clip(min=0), axis=-1)[..., 0]
    wrong = np.isnan(picked) & (flat_ans >= 0)
    if not wrong.any():
        return ans, False
    inf = np.inf if func == "nanargmin" else -np.inf
    numbers = ~np.isnan(r[wrong])
    assert (r[wrong][numbers] == inf).all()
    fixed = flat_ans.copy()
    fixed[wrong] = numbers.argmax(axis=-1)  # the first non-NaN element
    return fixed.reshape(ans.shape), True


def query(out, array_id, view_ops, func, v, axes, keepdims):
    reduced = range(v.ndim) if axes is None else axes
    if any(v.shape[d] == 0 for d in reduced):
        # numpy raises for an empty reduction ("attempt to get argmax of an empty
        # sequence"; the nan functions say "All-NaN slice encountered" instead).
        try:
            numpy_answer(func, v, axes, keepdims)
        except ValueError:
            status, ans = "empty", np.zeros(0, dtype=np.int64)
        else:
            raise AssertionError("numpy accepted an empty reduction")
    else:
        try:
            ans = numpy_answer(func, v, axes, keepdims)
            status = "ok"
            if keepdims and axes is not None and len(axes) == 1:  # numpy's own keepdims agrees
                own = getattr(np, func)(v, axis=axes[0], keepdims=True)
                assert own.shape == ans.shape and (own == ans).all()
        except ValueError as e:
            if "All-NaN slice" not in str(e):
                raise
            status, ans = "allnan", answer_with_minus_one(func, v, axes, keepdims)
            assert (ans == -1).any()
        if func.startswith("nan") and v.dtype.kind == "f":
            ans, corrected = correct_nan_inf(func, v, axes, ans)
            if corrected:
                status = "naninf"
    axes_s = "all" if axes is None else ",".join(str(d) for d in axes)
    shape = list(ans.shape) if status != "empty" else []
    header = "query %d %s %s %s %d %s %d%s %d\n" % (
        array_id, ";".join(view_ops) or "-", func, axes_s, int(keepdims), status, len(shape),
        "".join(" %d" % e for e in shape), ans.size)
    out.write(header.encode())
    out.write(np.ascontiguousarray(ans, dtype="<i8").tobytes())
    out.write(b"\n")
    return 1


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_cases.py OUTPUT")
    rng = np.random.default_rng(20240611)
    queries = 0
    with open(sys.argv[1], "wb") as out:
        out.write(b"argx-numpy-cases 1\n")
        array_id = 0
        for dtype, shape in itertools.product(DTYPES, SHAPES):
            a = make_array(rng, dtype, shape)
            data = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes(order="C")
            out.write(("array %d %s %d%s %d\n" % (array_id, dtype, a.ndim, "".join(" %d" % e for e in a.shape),
                                                  len(data))).encode())
            out.write(data + b"\n")
            for ops in views_for(shape):
                v = apply_view(a, ops)
                for axes in axes_for(v.ndim):
                    for func in FUNCS:
                        for keepdims in (False, True):
                            if keepdims and func.startswith("nan"):
                                continue
                            queries += query(out, array_id, ops, func, v, axes, keepdims)
            array_id += 1
        out.write(b"end\n")
    print("wrote %d arrays and %d queries" % (array_id, queries))


if __name__ == "__main__":
    main()
