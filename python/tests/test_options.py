"""keepdim, nan, ties, abs, values, out=, backends and the GIL."""

import sys
import threading
import time

import numpy as np
import pytest

import argx
from support import tied_data

CPU_BACKENDS = [b for b in ("seq", "par", "tbb") if argx.available(b)]


def test_nan_ignore_all_nan_slice_gives_minus_one_and_the_first_nan():
    x = np.array([[np.nan, np.nan, np.nan], [1.0, np.nan, 1.0]], np.float32)
    idx, val = argx.argmax(x, 1, nan="ignore", values=True)
    np.testing.assert_array_equal(idx, [-1, 0])
    assert np.isnan(val[0]) and val[1] == 1.0
    np.testing.assert_array_equal(argx.argmin(x, 1, nan="ignore", ties="last"), [-1, 2])


def test_ties_last():
    x = np.array([5, 7, 7, 1, 1], np.int32)
    assert argx.argmax(x, ties="last") == 2 and argx.argmin(x, ties="last") == 4
    assert argx.argmax(x) == 1 and argx.argmin(x) == 3


def test_abs_compares_magnitudes_and_returns_the_signed_element():
    x = np.array([3, -9, 9, -128, 5], np.int8)
    idx, val = argx.argmax(x, abs=True, values=True)
    assert idx == 3 and val == -128  # |INT8_MIN| is exact
    idx, val = argx.argmax(np.array([2.0, -7.5, 7.5]), abs=True, values=True)
    assert idx == 1 and val == -7.5
    assert argx.argmin(np.array([-3.0, 0.5, -0.25]), abs=True) == 2


def test_several_dims_index_is_row_major_over_those_dims():
    t = np.zeros((2, 3, 4), np.int32)
    t[1, 2, 3] = 7
    r = argx.argmax(t, (0, 2), keepdim=True)
    assert r.shape == (1, 3, 1) and r[0, 2, 0] == 1 * 4 + 3
    assert np.unravel_index(r[0, 2, 0], (2, 4)) == (1, 3)
    np.testing.assert_array_equal(argx.argmax(t, (2, 0)), argx.argmax(t, [0, 2]))
    np.testing.assert_array_equal(argx.argmax(t, (np.int64(0), np.int8(-1))), argx.argmax(t, (0, 2)))


def test_out_int64_and_int32_and_values_pair():
    rng = np.random.default_rng(1)
    x = tied_data((5, 6), np.float64, rng, nan_rate=0.1)
    want, want_val = argx.argmax(x, 1, values=True)
    out64 = np.full(5, -7, np.int64)
    assert argx.argmax(x, 1, out=out64) is out64
    np.testing.assert_array_equal(out64, want)
    out32 = np.full(5, -7, np.int32)
    argx.argmax(x, 1, out=out32)
    np.testing.assert_array_equal(out32, want)
    vals = np.empty(5, np.float64)
    i, v = argx.argmax(x, 1, values=True, out=(None, vals))
    assert v is vals and vals.tobytes() == want_val.tobytes()
    np.testing.assert_array_equal(i, want)
    i2, v2 = argx.argmax(x, 1, values=True, out=out32)
    assert i2 is out32 and v2.tobytes() == want_val.tobytes()
    kept = np.empty((5, 1), np.int64)
    argx.argmax(x, 1, keepdim=True, out=kept)
    np.testing.assert_array_equal(kept[:, 0], want)


@pytest.mark.parametrize("backend", CPU_BACKENDS + ["auto"])
def test_every_cpu_backend_gives_the_same_bits(backend):
    rng = np.random.default_rng(9)
    x = tied_data((64, 33, 17), np.float16, rng, nan_rate=0.02)
    for dim in [None, 0, 1, 2, (0, 2)]:
        for nan in ["propagate", "ignore"]:
            for ties in ["first", "last"]:
                ref = argx.argmin(x, dim, nan=nan, ties=ties, values=True, backend="seq")
                got = argx.argmin(x, dim, nan=nan, ties=ties, values=True, backend=backend)
                np.testing.assert_array_equal(got[0], ref[0])
                assert got[1].tobytes() == ref[1].tobytes()


def test_cuda_backend_without_a_gpu_is_unavailable():
    if argx.available("cuda"):
        pytest.skip("a GPU is usable here")
    with pytest.raises(argx.BackendUnavailableError) as e:
        argx.argmax(np.arange(4.0), backend="cuda")
    assert e.value.code == "backend_unavailable" and isinstance(e.value, RuntimeError)


def test_the_gil_is_released_while_reducing():
    # A long seq reduction of a broadcast view (no memory) runs in a thread; the main thread
    # must run Python code while it is inside argx. Timestamps of the main thread's loop
    # that fall well inside the reduction prove the GIL was released.
    x = np.broadcast_to(np.arange(1000, dtype=np.float32), (100_000, 1000))
    window = {}

    def reduce():
        window["start"] = time.perf_counter()
        window["index"] = argx.argmin(x, backend="seq", abs=True)
        window["end"] = time.perf_counter()

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        t = threading.Thread(target=reduce)
        stamps = []
        t.start()
        while t.is_alive():
            stamps.append(time.perf_counter())
            for _ in range(200):
                pass
        t.join()
    finally:
        sys.setswitchinterval(old)
    assert window["index"] == 0
    start, end = window["start"], window["end"]
    assert end - start > 0.05, "the reduction was too short to tell"
    inside = [s for s in stamps if start + 0.02 < s < end - 0.02]
    assert len(inside) > 10, f"{len(inside)} main-thread steps during a {end - start:.3f} s reduction"
