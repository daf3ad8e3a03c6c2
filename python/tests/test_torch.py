"""torch tensors on the CPU and the GPU: the same answers as numpy, torch tensors back on the
same device, no copy of the input, the caller's current stream. Skips without torch (and the
CUDA cases without a GPU); python/tests/run_gpu.sh runs them on a GPU machine."""

import numpy as np
import pytest

import argx
import argx.testing

torch = pytest.importorskip("torch")
from support import numpy_reduce  # noqa: E402

GPU = torch.cuda.is_available() and argx.available("cuda")
DEVICES = ["cpu"] + (["cuda"] if GPU else [])
needs_gpu = pytest.mark.skipif(not GPU, reason="no CUDA GPU usable by torch and argx")
DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int8, torch.int16, torch.int32,
          torch.int64, torch.uint8, torch.bool]


def tied(shape, dtype, device, seed=0, nan_rate=0.1):
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return (torch.randint(0, 2, shape, generator=g) == 1).to(device)
    x = torch.randint(-4, 5, shape, generator=g).to(dtype)
    if dtype.is_floating_point and nan_rate:
        x[torch.rand(shape, generator=g) < nan_rate] = float("nan")
    return x.to(device)


def raw(t):
    """t's elements as integers of the same size, on t's device: the bits, which torch copies
    exactly (its own float ops need not: torch.gather of a CPU bfloat16 NaN 0x7FC0 gives 0xFFFF)."""
    return t.detach().view({1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()])


def bits(t):
    """t's elements as raw bits on the host (what argx's values must equal)."""
    return raw(t).cpu().contiguous()


def host_numpy(x):
    """x on the host as numpy with the same order (bfloat16 widened to float32, exactly)."""
    x = x.detach().cpu()
    return (x.float() if x.dtype == torch.bfloat16 else x).numpy()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_matches_numpy_on_every_dim(device, dtype):
    x = tied((5, 6, 7), dtype, device, seed=DTYPES.index(dtype))
    ref = host_numpy(x)
    for ours, fn in [(argx.argmax, np.argmax), (argx.argmin, np.argmin)]:
        for dim in [None, 0, 1, 2, -1, (0, 2), (0, 1, 2)]:
            got = ours(x, dim)
            assert isinstance(got, torch.Tensor) and got.device == x.device and got.dtype == torch.int64
            axes = None if dim is None else tuple(d % 3 for d in ((dim,) if isinstance(dim, int) else dim))
            np.testing.assert_array_equal(got.cpu().numpy(), numpy_reduce(fn, ref, axes), err_msg=f"{dim}")
        idx, val = ours(x, 1, values=True, keepdim=True)
        assert val.dtype == x.dtype and val.device == x.device and idx.shape == (5, 1, 7)
        assert torch.equal(bits(torch.gather(raw(x), 1, idx)), bits(val))


@pytest.mark.parametrize("device", DEVICES)
def test_agrees_with_torch_argmax_where_torch_is_defined(device):
    x = tied((64, 300), torch.float32, device, seed=3, nan_rate=0.0)
    for dim in [0, 1]:
        assert torch.equal(argx.argmax(x, dim), torch.argmax(x, dim))
        assert torch.equal(argx.argmin(x, dim), torch.argmin(x, dim))
    argx.testing.assert_same(torch.argmax(x, 1), x, dim=1)


@pytest.mark.parametrize("device", DEVICES)
def test_views_are_read_in_place(device):
    base = tied((40, 30, 20), torch.float32, device, seed=4)
    for x in [base, base.transpose(0, 2), base[:, ::3, 1::2], base[:, :1, :].expand(40, 9, 20), base.permute(1, 2, 0)]:
        seen = argx.describe(x)
        assert seen["data"] == x.data_ptr() and seen["strides"] == tuple(x.stride()) and seen["shape"] == tuple(x.shape)
        assert seen["device"] == ("cpu" if device == "cpu" else f"cuda:{x.device.index}")
        ref = host_numpy(x)
        for dim in [None, 0, 1, 2]:
            np.testing.assert_array_equal(argx.argmax(x, dim).cpu().numpy(),
                                          numpy_reduce(np.argmax, ref, None if dim is None else (dim,)))


@pytest.mark.parametrize("device", DEVICES)
def test_tensors_that_require_grad_and_out(device):
    x = tied((8, 9), torch.float32, device, nan_rate=0.0).requires_grad_()
    want = argx.argmax(x.detach(), 1)
    assert torch.equal(argx.argmax(x, 1), want)
    out = torch.full((8,), -1, dtype=torch.int32, device=device)
    assert argx.argmax(x, 1, out=out) is out
    assert torch.equal(out.long(), want)


@needs_gpu
def test_no_copy_of_a_gpu_input():
    x = torch.randn(4096, 4096, device="cuda")  # 64 MiB
    x[:, ::2].fill_(0.25)
    torch.cuda.synchronize()
    for view, dim in [(x, 0), (x, 1), (x.t(), 1), (x[:, 1::2], 0), (x, None)]:
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        r = argx.argmax(view, dim)
        torch.cuda.synchronize()
        grown = torch.cuda.max_memory_allocated() - before
        assert grown <= max(r.numel() * 8, 512) + 512, f"{grown} bytes allocated for a {x.numel() * 4}-byte input"
        np.testing.assert_array_equal(r.cpu().numpy(), np.asarray(argx.argmax(view.cpu(), dim)))


def queue_late_write(x, index, value):
    """On a new side stream: a long sleep, then x[index] = value. Returns that stream."""
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.cuda._sleep(200_000_000)
        x[index] = value
    return side


@needs_gpu
def test_reduces_on_the_current_stream():
    # The maximum moves after a long sleep on the side stream. argx, called with that stream
    # current, runs after the write; on any other stream it would read x during the sleep.
    x = torch.zeros(1 << 20, device="cuda")
    side = queue_late_write(x, 777_777, 1.0)
    with torch.cuda.stream(side):
        r = argx.argmax(x)
        i32 = torch.empty((), dtype=torch.int32, device="cuda")
        argx.argmax(x, out=i32)
    side.synchronize()
    assert int(r) == 777_777 and int(i32) == 777_777


@needs_gpu
def test_the_current_stream_argx_asks_torch_for():
    adapter = argx._frameworks.framework_for(torch.Tensor)
    x = torch.zeros(4, device="cuda")
    side = torch.cuda.Stream()
    assert adapter.current_stream(x, x.device.index) == torch.cuda.current_stream().cuda_stream
    with torch.cuda.stream(side):
        assert adapter.current_stream(x, x.device.index) == side.cuda_stream != 0


@needs_gpu
def test_an_explicit_stream():
    x = torch.zeros(1 << 20, device="cuda")
    side = queue_late_write(x, 123, 2.0)
    r = argx.argmax(x, stream=side)  # the caller names the stream that orders it after the write
    side.synchronize()
    assert int(r) == 123


@needs_gpu
def test_gpu_errors_are_raised_before_anything_is_written():
    x = torch.arange(12.0, device="cuda").view(3, 4)
    host_out = torch.full((3,), -9, dtype=torch.int64)
    with pytest.raises(argx.WrongMemorySpaceError):
        argx.argmax(x, 1, backend="seq", out=host_out)
    with pytest.raises(argx.BadDimError):
        argx.argmax(x, 3, out=host_out)
    assert (host_out == -9).all()
    argx.argmax(x, 1, out=host_out)  # a host output of a GPU reduction is copied back
    assert host_out.tolist() == [3, 3, 3]


@needs_gpu
def test_host_tensor_on_the_cuda_backend_and_large_cases_match_the_cpu_bit_for_bit():
    for shape, dim in [((1 << 22,), None), ((3000, 1000), 1), ((1000, 3000), 0), ((64, 64, 64), (0, 2))]:
        x = tied(shape, torch.bfloat16, "cpu", seed=5, nan_rate=0.001)
        cpu_idx, cpu_val = argx.argmax(x, dim, values=True)
        gpu_idx, gpu_val = argx.argmax(x.cuda(), dim, values=True)
        assert torch.equal(gpu_idx.cpu(), cpu_idx)
        assert torch.equal(bits(gpu_val), bits(cpu_val))
        staged = argx.argmax(x, dim, backend="cuda")
        assert staged.device.type == "cpu" and torch.equal(staged, cpu_idx)
