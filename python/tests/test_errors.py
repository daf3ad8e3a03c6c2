"""Every error code a reduction can raise from Python: the class, its builtin base, .code,
and that nothing was written (out= arrays keep their contents, the input is unchanged)."""

import numpy as np
import pytest

import argx


class FakeArray:
    """An object with only the array interface, describing memory argx must not touch."""

    def __init__(self, shape, strides, typestr="<f4", data=None):
        self._keep = np.zeros(4, np.float32)
        self.__array_interface__ = {"shape": shape, "strides": strides, "typestr": typestr, "version": 3,
                                    "data": (self._keep.ctypes.data if data is None else data, True)}


def raises(cls, code, fn, *args, **kwargs):
    with pytest.raises(cls) as e:
        fn(*args, **kwargs)
    assert isinstance(e.value, argx.Error) and e.value.code == code
    assert str(e.value).startswith("argx: ")
    return e.value


X = np.arange(12, dtype=np.float32).reshape(3, 4)


@pytest.fixture
def untouched():
    """out= arrays filled with a sentinel; after the test they must still hold it, and X its values."""
    outs = {"i64": np.full(3, -99, np.int64), "i32": np.full(3, -99, np.int32), "f32": np.full(3, -99, np.float32)}
    before = X.copy()
    yield outs
    for a in outs.values():
        assert (a == -99).all()
    np.testing.assert_array_equal(X, before)


def test_empty_reduction(untouched):
    e = raises(argx.EmptyReductionError, "empty_reduction", argx.argmax, np.zeros((3, 0)), 1, out=untouched["i64"])
    assert isinstance(e, ValueError) and "empty sequence" in str(e)
    raises(argx.EmptyReductionError, "empty_reduction", argx.argmin, np.zeros(0))


def test_bad_and_duplicate_dims(untouched):
    e = raises(argx.BadDimError, "bad_dim", argx.argmax, X, 2, out=untouched["i64"])
    assert isinstance(e, IndexError) and isinstance(e, ValueError)
    raises(argx.BadDimError, "bad_dim", argx.argmax, X, -3)
    raises(argx.BadDimError, "bad_dim", argx.argmax, X, 2**40)
    raises(argx.DuplicateDimError, "duplicate_dim", argx.argmax, X, (1, -1), out=untouched["i64"])


def test_bad_shape_rank_above_16():
    raises(argx.BadShapeError, "bad_shape", argx.argmax, np.zeros((1,) * 17))


def test_unsupported_dtype(untouched):
    raises(argx.UnsupportedDtypeError, "unsupported_dtype", argx.argmax, X.astype(np.complex64), 1,
           out=untouched["i64"])


def test_shape_overflow():
    raises(argx.ShapeOverflowError, "shape_overflow", argx.argmax, FakeArray((2**40, 2**40), (0, 0)))
    raises(argx.ShapeOverflowError, "shape_overflow", argx.argmax, FakeArray((2**62, 3), (4, 4)))


def test_index_overflow_with_int32_out():
    big = np.broadcast_to(np.zeros(1, np.int8), (2**31 + 1,))  # zero strides: no memory
    out = np.full((), -99, np.int32)
    raises(argx.IndexOverflowError, "index_overflow", argx.argmax, big, out=out)
    assert out == -99


def test_bad_outputs(untouched):
    raises(argx.BadOutputError, "bad_output", argx.argmax, X, 0, out=untouched["i64"])  # shape (4,) needed
    raises(argx.BadOutputError, "bad_output", argx.argmax, X, 1, out=untouched["f32"])  # not an index dtype
    ro = np.full(3, -99, np.int64)
    ro.flags.writeable = False
    raises(argx.BadOutputError, "bad_output", argx.argmax, X, 1, out=ro)
    strided = np.full(6, -99, np.int64)
    raises(argx.BadOutputError, "bad_output", argx.argmax, X, 1, out=strided[::2])
    assert (strided == -99).all()
    raises(argx.BadOutputError, "bad_output", argx.argmax, X, 1, values=True,
           out=(untouched["i64"], np.full(3, -99, np.float64)))  # values must be float32


def test_bad_arguments(untouched):
    for kwargs in [dict(nan="skip"), dict(ties="middle"), dict(backend="gpu"), dict(nan=None)]:
        raises(argx.BadArgumentError, "bad_argument", argx.argmax, X, 1, out=untouched["i64"], **kwargs)
    for dim in [(), 1.5, True, "1", [0, None]]:
        raises(argx.BadArgumentError, "bad_argument", argx.argmax, X, dim)
    e = raises(argx.BadArgumentError, "bad_argument", argx.argmax, [1, 2, 3])
    assert isinstance(e, TypeError) and "numpy.asarray" in str(e)
    raises(argx.BadArgumentError, "bad_argument", argx.argmax, X, 1, out=(untouched["i64"], None))
    raises(argx.BadArgumentError, "bad_argument", argx.argmax, np.ma.masked_array(X, mask=X > 5))
    raises(argx.BadArgumentError, "bad_argument", argx.argmax, FakeArray((2,), (6,)))  # 6 bytes: not whole floats
    raises(argx.BadArgumentError, "bad_argument", argx.argmax, X, stream="default")


def test_null_data_with_elements_is_refused():
    raises(argx.BadArgumentError, "bad_argument", argx.argmax, FakeArray((3,), None, data=0))


def test_backend_unavailable(untouched):
    if argx.available("cuda"):
        pytest.skip("a GPU is usable here")
    raises(argx.BackendUnavailableError, "backend_unavailable", argx.argmax, X, 1, backend="thrust",
           out=untouched["i64"])


def test_error_classes_follow_argx_codes():
    # argx checks this order when it is imported; the codes come from argx::errc itself.
    assert [c.code for c in argx._errors.ERROR_TYPES] == list(argx._core.error_codes)
    assert "empty_reduction" in argx._core.error_codes and "cuda_failure" in argx._core.error_codes
    assert all(issubclass(c, argx.Error) for c in argx._errors.ERROR_TYPES)
    # every class is argx's own name, exported like the others
    assert all(getattr(argx, c.__name__) is c and c.__name__ in argx.__all__ for c in argx._errors.ERROR_TYPES)
