"""numpy as the oracle: argmax, argmin, nanargmax and nanargmin over every axis and every
set of axes, on every dtype numpy has that argx reduces, with ties and NaN everywhere."""

import numpy as np
import pytest

import argx
from support import NUMPY_DTYPES, axis_sets, numpy_nan_reduce, numpy_reduce, tied_data

SHAPES = [(), (1,), (37,), (5, 7), (3, 1, 6), (2, 3, 4, 5)]
OPS = [(argx.argmax, np.argmax, np.nanargmax), (argx.argmin, np.argmin, np.nanargmin)]


def axes_of(rank):
    yield None
    for d in range(rank):
        yield d
        yield d - rank  # negative spelling
    yield from axis_sets(rank)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_axis_and_axis_set(dtype, shape):
    rng = np.random.default_rng(len(shape) * 100 + np.dtype(dtype).num)
    x = tied_data(shape, dtype, rng, nan_rate=0.2)
    for ours, np_fn, _ in OPS:
        for axes in axes_of(len(shape)):
            tup = (axes,) if isinstance(axes, int) else axes
            want = numpy_reduce(np_fn, x, tuple(sorted(d % len(shape) for d in tup)) if tup else None)
            got = ours(x, axes)
            assert isinstance(got, np.ndarray) and got.dtype == np.int64
            np.testing.assert_array_equal(got, want, err_msg=f"{ours.__name__} dim={axes}")
            kept = ours(x, axes, keepdim=True)
            expected_shape = tuple(1 if (tup is None or d in [a % len(shape) for a in tup]) else n
                                   for d, n in enumerate(shape))
            assert kept.shape == expected_shape
            np.testing.assert_array_equal(kept.reshape(got.shape), got)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("shape", [(41,), (6, 9), (4, 5, 6)], ids=str)
def test_nan_ignore_matches_nanargmax(dtype, shape):
    rng = np.random.default_rng(7)
    x = tied_data(shape, dtype, rng, nan_rate=0.5)
    if x.ndim > 1:
        x[0] = np.nan  # whole all-NaN slices for the kept dims after axis 0
    for ours, _, np_nan in OPS:
        for axes in [None] + list(axis_sets(x.ndim)):
            got = ours(x, axes, nan="ignore")
            np.testing.assert_array_equal(got, numpy_nan_reduce(np_nan, x, axes),
                                          err_msg=f"{ours.__name__} nan=ignore dim={axes}")


def test_values_are_the_elements_at_the_indices():
    rng = np.random.default_rng(3)
    x = tied_data((6, 7, 8), np.float32, rng, nan_rate=0.1)
    for dim in [0, 1, 2, (0, 2)]:
        idx, val = argx.argmax(x, dim, values=True, keepdim=True)
        axes = dim if isinstance(dim, tuple) else (dim,)
        kept = [d for d in range(3) if d not in axes]
        moved = np.transpose(x, kept + list(axes)).reshape([x.shape[d] for d in kept] + [-1])
        picked = np.take_along_axis(moved, idx.reshape([x.shape[d] for d in kept] + [1]), axis=-1)
        assert val.dtype == x.dtype
        assert picked.reshape(-1).tobytes() == val.reshape(-1).tobytes()
