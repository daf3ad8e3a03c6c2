"""CuPy arrays: the same answers as numpy, CuPy arrays back on the same device, no copy of the
input (CuPy's memory pool grows by the outputs only), the current stream. Skips without CuPy
or a GPU; python/tests/run_gpu.sh runs it on a GPU machine."""

import numpy as np
import pytest

import argx

cp = pytest.importorskip("cupy")
try:
    GPU = cp.cuda.runtime.getDeviceCount() > 0 and argx.available("cuda")
except Exception:  # CuPy installed without a driver
    GPU = False
if not GPU:
    pytest.skip("no CUDA GPU usable by CuPy and argx", allow_module_level=True)
from support import NUMPY_DTYPES, numpy_reduce, tied_data  # noqa: E402

SPIN = cp.RawKernel(r"""
extern "C" __global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
}""", "spin")


@pytest.mark.parametrize("dtype", NUMPY_DTYPES, ids=lambda t: np.dtype(t).name)
def test_matches_numpy_with_views(dtype):
    host = tied_data((6, 7, 8), dtype, np.random.default_rng(1), nan_rate=0.1)
    dev = cp.asarray(host)
    views = [(host, dev), (host[::-1, :, ::2], dev[::-1, :, ::2]), (host.transpose(2, 0, 1), dev.transpose(2, 0, 1))]
    for h, d in views:
        seen = argx.describe(d)
        assert seen["data"] == d.data.ptr and seen["strides"] == tuple(s // d.itemsize for s in d.strides)
        for ours, fn in [(argx.argmax, np.argmax), (argx.argmin, np.argmin)]:
            for dim in [None, 0, 1, 2, (0, 2)]:
                got = ours(d, dim)
                assert isinstance(got, cp.ndarray) and got.dtype == cp.int64 and got.device == d.device
                axes = None if dim is None else ((dim,) if isinstance(dim, int) else dim)
                np.testing.assert_array_equal(cp.asnumpy(got), numpy_reduce(fn, h, axes))
        idx, val = argx.argmax(d, 1, values=True)
        assert val.dtype == d.dtype and cp.asnumpy(val).tobytes() == np.take_along_axis(
            h, cp.asnumpy(idx)[:, None, :], 1)[:, 0, :].tobytes()


def test_no_copy_of_the_input():
    pool = cp.get_default_memory_pool()
    x = cp.random.standard_normal((4096, 4096), dtype=cp.float32)  # 64 MiB
    cp.cuda.Device().synchronize()
    for view, dim in [(x, 0), (x.T, 1), (x[:, ::-2], 0), (x, None)]:
        before = pool.used_bytes()
        r = argx.argmax(view, dim)
        assert pool.used_bytes() - before <= max(r.nbytes, 512) + 512
        np.testing.assert_array_equal(cp.asnumpy(r), np.argmax(cp.asnumpy(view), axis=dim))


def test_reduces_on_the_current_stream():
    x = cp.zeros(1 << 20, cp.float32)
    cp.cuda.Device().synchronize()
    side = cp.cuda.Stream(non_blocking=True)
    with side:
        SPIN((1,), (1,), (np.int64(200_000_000),))
        x[424_242] = 1.0
        r = argx.argmax(x)
    side.synchronize()
    assert int(r) == 424_242


def test_testing_api_on_gpu_arrays():
    rng = np.random.default_rng(2)
    x = cp.asarray(np.stack([rng.permutation(60) for _ in range(50)]).astype(np.float16))  # no ties, no NaN
    argx.testing.assert_same(cp.argmax(x, 1), x, dim=1)  # CuPy's answer checked by argx (reference: cuda)
    report = argx.testing.compare(cp.full(50, 59, cp.int64), x, dim=1)
    assert not report and report.position == (report.output,)
