"""Every numpy dtype: the ones argx reduces match numpy (special values included), bfloat16
comes from ml_dtypes, and every other dtype is refused with UnsupportedDtypeError."""

import numpy as np
import pytest

import argx
from support import NUMPY_DTYPES


def special_values(dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array([False, True, True, False], dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([0, info.max, info.min, info.max, 1, info.min], dtype)
    f = np.array([0.0, -0.0, np.inf, -np.inf, 1.5, np.finfo(dtype).tiny / 4, np.finfo(dtype).max, -np.finfo(dtype).max,
                  np.inf, -0.0, 0.0], dtype)
    return f


@pytest.mark.parametrize("dtype", NUMPY_DTYPES, ids=lambda t: np.dtype(t).name)
def test_special_values_match_numpy(dtype):
    x = special_values(dtype)
    for ours, fn in [(argx.argmax, np.argmax), (argx.argmin, np.argmin)]:
        idx, val = ours(x, values=True)
        assert idx == fn(x), f"{ours.__name__} {x}"
        assert val.dtype == x.dtype and val.tobytes() == x[idx].tobytes()
        rows = np.stack([x, x[::-1], np.roll(x, 3)])
        np.testing.assert_array_equal(ours(rows, 1), fn(rows, 1))
        np.testing.assert_array_equal(ours(rows, 0), fn(rows, 0))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=lambda t: np.dtype(t).name)
def test_nan_of_either_sign_and_any_payload_propagates(dtype):
    x = np.array([1.0, 2.0, 3.0, 4.0], dtype)
    bits = x.view(np.dtype(f"u{x.itemsize}"))
    quiet = int(np.array([np.nan], dtype).view(bits.dtype)[0])
    sign = int(np.array([-0.0], dtype).view(bits.dtype)[0])
    bits[2] = quiet | sign | 1  # negative NaN with a payload
    idx, val = argx.argmin(x, values=True)
    assert idx == 2 and val.tobytes() == x[2:3].tobytes()
    assert argx.argmax(x) == np.argmax(x) == 2
    assert argx.argmax(x, nan="ignore") == 3


def test_aliases_of_the_same_types():
    for t in [np.byte, np.ubyte, np.short, np.ushort, np.intc, np.uintc, np.int_, np.uint, np.longlong, np.ulonglong,
              np.half, np.single, np.double]:
        x = np.array([3, 9, 9, 1], t)
        assert argx.argmax(x) == 1 and argx.argmin(x) == 3, t


UNSUPPORTED = [np.complex64, np.complex128, np.clongdouble, np.longdouble, "datetime64[s]", "timedelta64[ms]", object,
               "U3", "S3", "V4", [("a", np.int32), ("b", np.float32)]]


@pytest.mark.parametrize("dtype", UNSUPPORTED, ids=str)
def test_other_dtypes_are_refused(dtype):
    x = np.zeros(4, dtype)
    if np.dtype(dtype) == np.longdouble and np.dtype(np.longdouble).itemsize == 8:
        pytest.skip("long double is double here")
    with pytest.raises(argx.UnsupportedDtypeError) as e:
        argx.argmax(x)
    assert e.value.code == "unsupported_dtype" and isinstance(e.value, TypeError)


def test_non_native_byte_order_is_refused():
    with pytest.raises(argx.UnsupportedDtypeError, match="byte order"):
        argx.argmax(np.arange(4, dtype=">f4"))


def test_bfloat16_from_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng(2)
    f = rng.integers(-50, 50, size=(9, 33)).astype(np.float32) / 8  # exact in bfloat16
    f[2, 5] = np.nan
    f[4, :] = -0.0
    f[4, 7] = 0.0
    x = f.astype(ml_dtypes.bfloat16)
    assert argx.describe(x)["dtype"] == "bfloat16"
    for ours, fn in [(argx.argmax, np.argmax), (argx.argmin, np.argmin)]:
        for d in [None, 0, 1]:
            np.testing.assert_array_equal(ours(x, d), fn(f, d))  # bfloat16 -> float32 is exact
        idx, val = ours(x, 1, values=True)
        assert val.dtype == x.dtype
        assert val.tobytes() == np.take_along_axis(x, idx[:, None], 1).tobytes()
    np.testing.assert_array_equal(argx.argmax(x[:, ::-2].T, 0), np.argmax(f[:, ::-2].T, 0))
