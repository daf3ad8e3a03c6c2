"""Views: Fortran order, transposes, negative, zero and stepped strides, read-only arrays,
0-d and empty arrays, all read in place (describe() shows argx's view of the memory)."""

import numpy as np
import pytest

import argx
from support import numpy_reduce, tied_data

RNG = np.random.default_rng(11)
BASE = tied_data((6, 8, 10), np.float32, RNG, nan_rate=0.05)


def views():
    yield "fortran", np.asfortranarray(BASE)
    yield "transposed", BASE.transpose(2, 0, 1)
    yield "reversed", BASE[::-1, :, ::-1]
    yield "stepped", BASE[1::2, ::3, 2:9:2]
    yield "negative step", BASE[:, ::-3, 1::4]
    yield "broadcast", np.broadcast_to(BASE[:, :1, :], (6, 5, 10))
    yield "as_strided", np.lib.stride_tricks.as_strided(BASE, shape=(4, 4, 3), strides=(160, 4 * 11, -8))[:, :, ::-1]
    yield "read-only", BASE.copy()[::2]
    yield "size-1 dims", BASE[:, 3:4, :][None]


def element_strides(a):
    return tuple(s // a.itemsize for s in a.strides)


@pytest.mark.parametrize("name,x", list(views()), ids=[n for n, _ in views()])
def test_view_matches_numpy_and_is_read_in_place(name, x):
    if name == "read-only":
        x.flags.writeable = False
    before = x.copy()
    seen = argx.describe(x)
    assert seen["data"] == x.__array_interface__["data"][0]
    assert seen["shape"] == x.shape and seen["strides"] == element_strides(x)
    for d in [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2)][: 4 + x.ndim]:
        axes = (d,) if isinstance(d, int) else d
        axes = tuple(a % x.ndim for a in axes) if axes else None
        for ours, fn in [(argx.argmax, np.argmax), (argx.argmin, np.argmin)]:
            np.testing.assert_array_equal(ours(x, d), numpy_reduce(fn, x, axes), err_msg=f"{name} dim={d}")
    np.testing.assert_array_equal(x, before)


def test_read_only_arrays_come_through_the_array_interface():
    x = np.arange(10.0)
    x.flags.writeable = False
    assert argx.describe(x)["protocol"] in ("array_interface", "dlpack")
    assert argx.argmax(x) == 9


def test_zero_d_and_empty():
    assert argx.argmax(np.float32(3.5) * np.ones(())) == 0
    r = argx.argmax(np.zeros((0, 4)), 1)
    assert r.shape == (0,) and r.dtype == np.int64
    assert argx.argmin(np.zeros((3, 0, 2)), 2, keepdim=True).shape == (3, 0, 1)


def test_full_reduction_is_a_0d_array_of_the_flat_index():
    x = np.zeros((3, 4), np.int16)
    x[2, 1] = 5
    r = argx.argmax(x)
    assert isinstance(r, np.ndarray) and r.shape == () and int(r) == 9
    assert x.flat[r] == 5 and x[np.unravel_index(r, x.shape)] == 5
    assert argx.argmax(x, keepdim=True).shape == (1, 1)


def test_long_rows_and_columns_match_numpy():
    rng = np.random.default_rng(5)
    x = tied_data((300, 700), np.float32, rng, nan_rate=0.001, pool=1000)
    for d in [None, 0, 1]:
        np.testing.assert_array_equal(argx.argmax(x, d), numpy_reduce(np.argmax, x, None if d is None else (d,)))
        np.testing.assert_array_equal(argx.argmin(x.T, d), numpy_reduce(np.argmin, x.T, None if d is None else (d,)))
