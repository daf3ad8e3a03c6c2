"""Objects that are neither numpy, torch nor CuPy: DLPack-only and array-interface-only
producers, the DLPack stream argument, and array-API namespaces (outputs of the same kind)."""

import numpy as np
import pytest

import argx

X = np.array([[3, 9, 1], [4, 4, 8]], np.int16)


class InterfaceOnly:
    def __init__(self, a):
        self._a = a
        self.__array_interface__ = a.__array_interface__


class DLPackOnly:
    """Exports a numpy array's memory through DLPack, claiming the device it is told to."""

    def __init__(self, a, device=(1, 0)):
        self._a, self._device, self.streams = a, device, []

    def __dlpack_device__(self):
        return self._device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self._a.__dlpack__()


def test_array_interface_only_object_gives_numpy_outputs():
    obj = InterfaceOnly(X[:, ::-1])
    assert argx.describe(obj)["protocol"] == "array_interface"
    assert argx.describe(obj)["strides"] == (3, -1)
    idx, val = argx.argmax(obj, 1, values=True)
    assert type(idx) is np.ndarray and val.dtype == np.int16
    np.testing.assert_array_equal(idx, [1, 0])
    np.testing.assert_array_equal(val, [9, 8])


def test_dlpack_only_host_object_is_read_in_place_without_a_stream():
    obj = DLPackOnly(X.T)
    seen = argx.describe(obj)
    assert seen["protocol"] == "dlpack" and seen["data"] == X.ctypes.data and seen["strides"] == (1, 3)
    np.testing.assert_array_equal(argx.argmin(obj, 0), np.argmin(X.T, 0))
    assert set(obj.streams) == {None}  # host memory: no stream argument


def test_dlpack_stream_argument_for_cuda_memory():
    # A producer saying its memory is CUDA memory is asked for a capsule for a stream: the
    # legacy default stream (1) when its framework names no current stream, or the caller's.
    obj = DLPackOnly(X, device=(2, 0))
    argx.describe(obj)
    assert obj.streams == [1]
    obj.streams.clear()
    try:
        argx.argmax(obj, stream=12345)
    except argx.Error:
        pass  # the capsule is host memory in disguise: argx may refuse it once it looks
    assert obj.streams[0] == 12345


def test_producer_refusals_fall_back_to_the_array_interface_or_propagate():
    ro = np.arange(6.0)
    ro.flags.writeable = False  # numpy refuses read-only arrays through legacy DLPack
    assert argx.argmax(ro) == 5

    class Refusing(DLPackOnly):
        def __dlpack__(self, stream=None):
            raise BufferError("no")

    with pytest.raises(BufferError):
        argx.argmax(Refusing(X))


def test_cuda_array_interface_object_goes_to_the_cuda_backend():
    if argx.available("cuda"):
        pytest.skip("a GPU is usable here (the GPU tests cover this)")

    class CudaInterface:
        __cuda_array_interface__ = {"shape": (3,), "typestr": "<f4", "data": (0x1000, True), "version": 3,
                                    "strides": None, "stream": 1}

    with pytest.raises(argx.BackendUnavailableError):
        argx.argmax(CudaInterface())
    assert argx.describe(CudaInterface())["device"] == "cuda"


def test_array_api_namespace_outputs_are_of_the_same_kind():
    xp = pytest.importorskip("array_api_strict")
    x = xp.asarray(np.array([[1.5, -2.0, 7.0], [0.0, 0.0, -1.0]], np.float32))
    idx, val = argx.argmax(x, 1, values=True)
    assert type(idx) is type(x) and idx.dtype == xp.int64 and val.dtype == xp.float32
    np.testing.assert_array_equal(np.asarray(idx), [2, 0])
    np.testing.assert_array_equal(np.asarray(val), [7.0, 0.0])
