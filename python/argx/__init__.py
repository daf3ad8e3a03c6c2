"""argx: argmax and argmin over arrays of any shape, on the CPU or an NVIDIA GPU, with one
answer on every backend (ties and NaN included).

Takes numpy arrays, torch tensors, CuPy arrays and any object with DLPack or the array
interface, in place (no copy, whatever the strides), and returns the same kind of array on
the same device. CUDA arrays are reduced on the caller's current stream.
"""

from . import _core
from ._errors import (ERROR_TYPES, BackendUnavailableError, BadArgumentError, BadDimError, BadNpyError,
                      BadOutputError, BadShapeError, CommFailureError, CudaError, DuplicateDimError,
                      EmptyReductionError, Error, IndexOverflowError, InternalError, IOFailureError, OutOfMemoryError,
                      ShapeOverflowError, UnsupportedDtypeError, WrongMemorySpaceError)
from ._frameworks import framework_for as _framework_for

__version__ = _core.version

_core.set_error_types(ERROR_TYPES)
_core.set_framework_lookup(_framework_for)
# argmax(x, dim=None, *, keepdim=False, nan="propagate", ties="first", abs=False, out=None,
#        values=False, backend="auto", stream=None) and argmin: defined in C++ (python/src),
# where their docstrings are too.
argmax = _core.argmax
argmin = _core.argmin


def describe(x):
    """How argx sees ``x`` without copying it: a dict of data (the address of element 0),
    dtype, shape, strides (in elements), device, writable and protocol (dlpack,
    array_interface or cuda_array_interface)."""
    return _core.describe(x)


def available(backend):
    """Whether a backend ("seq", "par", "tbb", "cuda", "thrust", "auto") is built and usable here."""
    return _core.available(backend)


def gpus():
    """The CUDA devices present: a list of dicts (ordinal, name, compute_capability,
    multiprocessors, memory_bytes, supported: argx was built for its architecture); empty
    without CUDA or without a GPU."""
    return _core.gpus()


def built_with_cuda():
    """Whether this argx was compiled with its CUDA backend."""
    return _core.built_with_cuda()


def cpu_simd_target():
    """The instruction set of the tbb backend's SIMD kernels here ("AVX2", "AVX3", "NEON", ...;
    "plain" without SIMD kernels; "" without oneTBB)."""
    return _core.cpu_simd_target()


__all__ = ["argmax", "argmin", "describe", "available", "gpus", "built_with_cuda", "cpu_simd_target", "Error",
           "EmptyReductionError", "BadDimError", "DuplicateDimError", "BadShapeError", "UnsupportedDtypeError",
           "ShapeOverflowError", "IndexOverflowError", "BadOutputError", "BadArgumentError", "BackendUnavailableError",
           "WrongMemorySpaceError", "CudaError", "OutOfMemoryError", "BadNpyError", "IOFailureError", "InternalError",
           "CommFailureError", "testing"]

from . import testing  # noqa: E402  (uses the module above)
