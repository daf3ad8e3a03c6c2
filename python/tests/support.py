"""Shared helpers of the Python tests: data with ties and NaN, and numpy as the oracle for
several axes (which numpy cannot reduce at once: the axes are moved last and merged)."""

import itertools

import numpy as np

# Every dtype numpy has that argx reduces (bfloat16 comes from ml_dtypes, in its own tests).
NUMPY_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                np.float16, np.float32, np.float64]


def tied_data(shape, dtype, rng, nan_rate=0.0, pool=5):
    """Values drawn from a small pool (so ties are everywhere), NaN at nan_rate for floats."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        choices = np.array(sorted({info.min, info.max, 0, 1, min(info.max, 7)}), dtype=dtype)
        return rng.choice(choices, size=shape)
    a = rng.integers(-pool, pool, size=shape).astype(dtype)
    if nan_rate:
        a[rng.random(size=shape) < nan_rate] = np.nan
    return a


def axis_sets(rank):
    """Every non-empty set of axes of a rank-`rank` array, as sorted tuples."""
    for k in range(1, rank + 1):
        yield from itertools.combinations(range(rank), k)


def numpy_reduce(fn, x, axes):
    """numpy's answer (fn: np.argmax, np.nanargmin, ...) over several axes: the index is
    row-major over those axes, as argx defines it."""
    if axes is None:
        return np.asarray(fn(x))
    kept = [d for d in range(x.ndim) if d not in axes]
    moved = np.transpose(x, kept + list(axes))
    merged = moved.reshape([x.shape[d] for d in kept] + [-1])
    return np.asarray(fn(merged, axis=-1))


def numpy_nan_reduce(fn, x, axes):
    """numpy's nanargmax/nanargmin over `axes`, with -1 where a slice is all NaN (numpy raises
    there; argx reports -1)."""
    kept = [d for d in range(x.ndim) if d not in axes] if axes is not None else []
    moved = np.transpose(x, kept + list(axes if axes is not None else range(x.ndim)))
    merged = moved.reshape([x.shape[d] for d in kept] + [-1])
    all_nan = np.isnan(merged).all(axis=-1)
    safe = np.where(all_nan[..., None], 0, merged)
    return np.where(all_nan, -1, fn(safe, axis=-1))
