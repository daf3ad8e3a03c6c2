"""How argx meets each array framework.

For every array type, ``framework_for`` gives an adapter that argx's C++ core asks:
``prepare(x)`` (None, or a callable making x exportable), ``current_stream(x, device)``
(the CUDA stream the caller's work is on), ``export_current(x)`` (None, or the framework's
DLPack export with no stream handshake, used for host memory and for CUDA memory read on
that current stream, where the framework's work is already ordered; it saves the
``__dlpack_device__`` call and the handshake), ``empty(x, shape, like_x)``
(a new array of the same kind on the same device: int64 indices, or x's dtype for values;
``empty_direct`` and ``index_dtype``, where set, let the core call numpy.empty itself)
and, for argx.testing, ``to_numpy(a)`` (an answer brought to the host).
"""

import sys

import numpy as np

from ._errors import BadArgumentError

_INT64 = np.dtype(np.int64)


class _Adapter:
    """What an adapter does unless it says otherwise: nothing to prepare, DLPack's own export
    with its handshake, the legacy default stream, and numpy.asarray for answers."""

    prepare = None
    export_current = None
    empty_direct = None
    index_dtype = None

    def current_stream(self, x, device):
        return 0

    def to_numpy(self, a):
        return np.asarray(a)


class _Numpy(_Adapter):
    name = "numpy"
    export_current = staticmethod(np.ndarray.__dlpack__)  # host memory: no stream to agree on
    empty_direct = staticmethod(np.empty)  # called as empty_direct(shape, dtype) by the C++ core
    index_dtype = _INT64

    def empty(self, x, shape, like_x):
        return np.empty(shape, x.dtype if like_x else _INT64)


class _Masked(_Numpy):
    name = "numpy.ma"

    def prepare(self, x):
        raise BadArgumentError("argx: masked arrays are not supported (argx would read the masked elements too); "
                               "pass x.filled(value) or x.data")


class _Torch(_Adapter):
    name = "torch"

    def __init__(self, torch):
        import torch.utils.dlpack

        self._torch = torch
        self._int64 = torch.int64
        self._to_dlpack = torch.utils.dlpack.to_dlpack
        # torch's C accessor of the current stream's handle (what Triton launches on): the
        # handle of torch.cuda.current_stream(device) without building a Stream object per call.
        self._raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)

    def prepare(self, x):
        return x.detach() if x.requires_grad else x  # a view: DLPack refuses tensors that need grad

    def current_stream(self, x, device):
        if self._raw_stream is not None:
            return self._raw_stream(device)
        return self._torch.cuda.current_stream(device).cuda_stream

    def export_current(self, x):
        return self._to_dlpack(x)  # torch's export; __dlpack__ adds the stream handshake around it

    def empty(self, x, shape, like_x):
        # new_empty takes x's device and dtype without building a torch.device per call.
        return x.new_empty(shape) if like_x else x.new_empty(shape, dtype=self._int64)

    def to_numpy(self, a):
        a = a.detach().cpu()
        if a.dtype == self._torch.bfloat16:
            a = a.view(self._torch.int16)  # numpy has no bfloat16: its bits, which is what argx compares
        return a.numpy()


class _Cupy(_Adapter):
    """CuPy's __dlpack__(stream=current) only compares the streams: no export_current needed."""

    name = "cupy"

    def __init__(self, cupy):
        self._cupy = cupy

    def current_stream(self, x, device):
        with self._cupy.cuda.Device(device):
            return self._cupy.cuda.get_current_stream().ptr

    def empty(self, x, shape, like_x):
        with x.device:
            return self._cupy.empty(shape, x.dtype if like_x else self._cupy.int64)

    def to_numpy(self, a):
        return a.get()


class _ArrayApi(_Adapter):
    """Any other array with an array-API namespace (numpy 2 style, array-api-strict, JAX, ...):
    outputs come from its namespace, on its device; CUDA arrays are read on the legacy
    default stream, which DLPack producers order their work before."""

    name = "array-api"

    def empty(self, x, shape, like_x):
        xp = x.__array_namespace__()
        return xp.empty(shape, dtype=x.dtype if like_x else xp.int64, device=x.device)

    def to_numpy(self, a):
        return np.from_dlpack(a) if hasattr(a, "__dlpack__") else np.asarray(a)


class _Host(_Adapter):
    """Anything else (DLPack or array-interface objects on the host): outputs are numpy arrays."""

    name = "host"

    def empty(self, x, shape, like_x):
        if not like_x:
            return np.empty(shape, _INT64)
        dtype = getattr(x, "dtype", None)
        if dtype is None and hasattr(x, "__array_interface__"):
            dtype = x.__array_interface__["typestr"]
        try:
            return np.empty(shape, np.dtype(dtype))
        except TypeError:
            raise BadArgumentError(f"argx: cannot allocate values like a {type(x).__name__}; "
                                   "pass out=(indices, values)")


def framework_for(tp):
    """The adapter for arrays of type ``tp``."""
    if issubclass(tp, np.ndarray):
        return _Masked() if issubclass(tp, np.ma.MaskedArray) else _Numpy()
    torch = sys.modules.get("torch")
    if torch is not None and issubclass(tp, torch.Tensor):
        return _Torch(torch)
    cupy = sys.modules.get("cupy")
    if cupy is not None and issubclass(tp, cupy.ndarray):
        return _Cupy(cupy)
    if hasattr(tp, "__array_namespace__"):
        return _ArrayApi()
    return _Host()
