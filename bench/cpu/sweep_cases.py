"""The seeded random cases of the CPU sweep (sweep.py) and the arrays they describe.

A case is plain data (JSON): a base array (dtype, shape, C or Fortran order, what its
elements are), view transforms applied to it in order, the reduced dims and the spec.
Case k of seed s depends on (s, k) only, so any case can be rebuilt alone.
"""
import math

import numpy as np

KiB, MiB = 1024, 1024 * 1024

# argx dtype codes (include/argx/dtype.hpp) and the numpy dtype holding the bits.
DTYPES = {
    "float16": (0, np.float16), "bfloat16": (1, np.uint16), "float32": (2, np.float32), "float64": (3, np.float64),
    "int8": (4, np.int8), "int16": (5, np.int16), "int32": (6, np.int32), "int64": (7, np.int64),
    "uint8": (8, np.uint8), "uint16": (9, np.uint16), "uint32": (10, np.uint32), "uint64": (11, np.uint64),
    "bool": (12, np.bool_),
}
FLOATS = ("float16", "bfloat16", "float32", "float64")


def make_case(seed, k, min_bytes=64 * KiB, max_bytes=256 * MiB):
    """Case k of seed `seed`: a random reduction of a random view that touches between
    min_bytes and max_bytes of memory."""
    rng = np.random.default_rng([seed, k])
    while True:
        case = draw_case(rng, seed, k, min_bytes, max_bytes)
        base = np.empty(case["shape"], dtype=DTYPES[case["dtype"]][1], order=case["order"])  # never touched
        v = view(case, base)
        if min_bytes <= touched_bytes(v) <= max_bytes:
            reduced = math.prod(e for d, e in enumerate(v.shape) if case["dims"] is None or d in case["dims"])
            if reduced < 64:  # numpy's nanargmax raises on an all-NaN slice: keep those unlikely
                case["nan"] = "propagate"
            return case


def draw_case(rng, seed, k, min_bytes, max_bytes):
    dtype = str(rng.choice(list(DTYPES)))
    item = np.dtype(DTYPES[dtype][1]).itemsize
    rank = int(rng.integers(1, 6))
    target = math.exp(rng.uniform(math.log(min_bytes), math.log(max_bytes)))  # bytes, log-uniform
    shape = random_shape(rng, rank, max(1, int(target / item)))
    transforms = []
    vshape = list(shape)  # the view's shape as transforms are added
    if rank > 1 and rng.random() < 0.25:
        perm = [int(a) for a in rng.permutation(rank)]
        transforms.append(["transpose", perm])
        vshape = [vshape[a] for a in perm]
    if rng.random() < 0.25:
        d = int(rng.integers(rank))
        step = int(rng.choice([1, 1, 2, 3])) if vshape[d] > 8 else 1
        # The base grows along that dim by the step, so the view keeps about its size.
        base_d = perm[d] if transforms else d
        shape[base_d] *= step
        n = vshape[d] = shape[base_d]
        lo, hi = int(rng.integers(0, max(1, n // 10) + 1)), n - int(rng.integers(0, max(1, n // 10) + 1))
        if hi > lo:
            transforms.append(["slice", d, lo, hi, step])
    if rng.random() < 0.15:
        transforms.append(["flip", int(rng.integers(rank))])
    if rng.random() < 0.08:  # a repeated dim (stride 0)
        transforms.append(["broadcast", int(rng.integers(rank + 1)), int(rng.integers(2, 6))])
    vrank = rank + sum(1 for t in transforms if t[0] == "broadcast")
    roll = rng.random()
    if roll < 0.15 or vrank == 1:
        dims = None  # all: a flat index
    elif roll < 0.6 or vrank == 2:
        dims = [int(rng.integers(vrank))]
    else:
        dims = sorted(int(d) for d in rng.choice(vrank, size=int(rng.integers(2, min(3, vrank - 1) + 1)), replace=False))
    op = "argmin" if rng.random() < 0.5 else "argmax"
    floating = dtype in FLOATS
    nan = "ignore" if floating and dtype != "bfloat16" and rng.random() < 0.1 else "propagate"
    use_abs = floating and dtype != "bfloat16" and nan == "propagate" and rng.random() < 0.06
    # "full": no element ends a slice early, every element must be read. "early": elements
    # that end a scan (the type's extreme, NaN, a winning bool) occur in the data.
    data = "early" if rng.random() < 0.25 else "full"
    return {
        "id": k, "seed": seed, "dtype": dtype, "shape": shape, "order": "F" if rng.random() < 0.2 else "C",
        "transforms": transforms, "dims": dims, "op": op, "nan": nan, "abs": bool(use_abs), "data": data,
    }


def random_shape(rng, rank, count):
    """`rank` extents whose product is about `count`: uneven shares of its logarithm,
    sometimes a tiny extent, mostly odd numbers."""
    if rank == 1:
        return [count]
    share = rng.dirichlet([0.8] * rank)
    shape = [max(1, round(count ** s)) for s in share]
    for d in range(rank):
        if rng.random() < 0.15:
            shape[d] = int(rng.integers(2, 8))
        if shape[d] > 2 and shape[d] % 2 == 0 and rng.random() < 0.6:
            shape[d] -= 1
    # Rescale the largest extent so the product stays near count.
    big = int(np.argmax(shape))
    rest = math.prod(shape) // shape[big]
    shape[big] = max(1, count // max(1, rest))
    return [int(e) for e in shape]


def base_elements(case, rng):
    """The base array's elements, before any view."""
    name, op = case["dtype"], case["op"]
    nd = DTYPES[name][1]
    n = math.prod(case["shape"])
    early = case["data"] == "early"
    if name in ("float32", "float64", "float16"):
        a = (rng.random(n, dtype=np.float64 if name == "float64" else np.float32) * 2 - 1).astype(nd)
        if early or case["nan"] == "ignore":  # NaN ends a propagate scan; ignore skips them
            a[rng.random(n) < 1e-4] = np.nan
    elif name == "bfloat16":  # random finite bfloat16 bits (numpy has no bfloat16)
        a = rng.integers(0, 1 << 16, n, dtype=np.uint16)
        a[(a & 0x7F80) == 0x7F80] ^= 0x0080
        if early:
            a[rng.random(n) < 1e-4] = 0x7FC0
    elif name == "bool":
        # full: no element wins early (argmax: all False); early: random.
        a = rng.random(n) < 0.5 if early else np.full(n, op == "argmin", dtype=np.bool_)
    else:
        info = np.iinfo(nd)
        # full: the extreme that would end a scan never occurs.
        lo = info.min + (1 if op == "argmin" and not early else 0)
        hi = info.max - (1 if op == "argmax" and not early else 0)
        a = rng.integers(lo, hi, n, dtype=nd, endpoint=True)
    return a.reshape(case["shape"], order=case["order"])


def build(case):
    """(base array, the view to reduce) for a case."""
    base = base_elements(case, np.random.default_rng([case["seed"], case["id"], 1]))
    return base, view(case, base)


def view(case, base):
    """The case's view of its base array."""
    v = base
    for t in case["transforms"]:
        if t[0] == "transpose":
            v = v.transpose(t[1])
        elif t[0] == "slice":
            idx = [slice(None)] * v.ndim
            idx[t[1]] = slice(t[2], t[3], t[4])
            v = v[tuple(idx)]
        elif t[0] == "flip":
            v = np.flip(v, t[1])
        elif t[0] == "broadcast":
            e = np.expand_dims(v, t[1])
            shape = list(e.shape)
            shape[t[1]] = t[2]
            v = np.broadcast_to(e, shape)
    return v


def numpy_call(case, v):
    """What a numpy user writes for the case: a function of no arguments."""
    fn = {"argmax": np.argmax, "argmin": np.argmin}[case["op"]]
    if case["nan"] == "ignore":
        fn = {"argmax": np.nanargmax, "argmin": np.nanargmin}[case["op"]]
    x = v
    if case["abs"]:
        f0 = fn
        fn = lambda a, axis=None: f0(np.abs(a), axis=axis)  # noqa: E731
    dims = case["dims"]
    if dims is None:
        return lambda: fn(x)
    if len(dims) == 1:
        return lambda: fn(x, axis=dims[0])
    kept = [d for d in range(x.ndim) if d not in dims]
    kept_shape = tuple(x.shape[d] for d in kept)
    order = kept + list(dims)
    return lambda: fn(x.transpose(order).reshape(kept_shape + (-1,)), axis=-1)


def span(v):
    """(lowest address, bytes) of the memory a view covers."""
    lo = hi = v.__array_interface__["data"][0]
    for e, s in zip(v.shape, v.strides):
        if e > 1:
            if s < 0:
                lo += s * (e - 1)
            else:
                hi += s * (e - 1)
    return lo, hi - lo + v.itemsize


def touched_bytes(v):
    """About how many bytes of memory a view makes a reader fetch: the cache lines (64
    bytes) its elements fall in, estimated dim by dim from the smallest stride up (a dim
    whose stride is within the block so far extends it; a larger stride repeats it), and
    never more than its span. Repeated (stride-0) dims add nothing."""
    block, blocks = v.itemsize, 1
    for s, e in sorted((abs(s), e) for s, e in zip(v.strides, v.shape) if e > 1 and s != 0):
        if s <= max(block, 64):
            block += s * (e - 1)
        else:
            blocks *= e
    return min(span(v)[1], blocks * (-(-block // 64) * 64))


def describe(case, v=None):
    """One line: dtype, shape of the view, dims, op and options."""
    shape = "x".join(str(e) for e in (v.shape if v is not None else case["shape"]))
    parts = [case["dtype"], shape]
    parts.append("all" if case["dims"] is None else "dims " + ",".join(map(str, case["dims"])))
    parts.append(case["op"])
    if case["nan"] == "ignore":
        parts.append("nan=ignore")
    if case["abs"]:
        parts.append("abs")
    views = [t[0] for t in case["transforms"]] + (["fortran"] if case["order"] == "F" else [])
    if views:
        parts.append("(" + ", ".join(views) + ")")
    if case["data"] == "early":
        parts.append("[early-exit data]")
    return " ".join(parts)
