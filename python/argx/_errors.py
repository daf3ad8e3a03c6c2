"""argx's exceptions: one class per argx error code (argx::errc), each also deriving from
the builtin exception a numpy or torch user would catch for the same mistake."""


class Error(Exception):
    """Base of every argx error. ``code`` is argx's error code name (``"bad_dim"``, ...)."""

    code = ""


def _error_class(name, code, builtins, doc):
    bases = (Error,) + (builtins if isinstance(builtins, tuple) else (builtins,))
    return type(name, bases, {"code": code, "__doc__": doc, "__module__": "argx"})


# In argx::errc order (include/argx/error.hpp): the C++ side indexes this tuple by code.
EmptyReductionError = _error_class("EmptyReductionError", "empty_reduction", ValueError,
                                   "A reduced extent is 0 (numpy: attempt to get argmax of an empty sequence).")
BadDimError = _error_class("BadDimError", "bad_dim", (IndexError, ValueError),
                           "A dim is out of range for the array's rank (an IndexError and a ValueError, "
                           "like numpy's AxisError).")
DuplicateDimError = _error_class("DuplicateDimError", "duplicate_dim", ValueError, "A dim is named twice.")
BadShapeError = _error_class("BadShapeError", "bad_shape", ValueError, "Rank above 16 or a negative extent.")
UnsupportedDtypeError = _error_class("UnsupportedDtypeError", "unsupported_dtype", TypeError,
                                     "A dtype argx does not reduce (complex, datetime, object, non-native byte "
                                     "order, ...).")
ShapeOverflowError = _error_class("ShapeOverflowError", "shape_overflow", OverflowError,
                                  "Element count, byte size or furthest offset overflows 64 bits.")
IndexOverflowError = _error_class("IndexOverflowError", "index_overflow", OverflowError,
                                  "int32 indices asked for a slice longer than 2**31.")
BadOutputError = _error_class("BadOutputError", "bad_output", ValueError,
                              "An out= array of the wrong shape or dtype, read-only or not C-contiguous.")
BadArgumentError = _error_class("BadArgumentError", "bad_argument", (ValueError, TypeError),
                                "Any other invalid argument (an unknown option value, an object that is no array).")
BackendUnavailableError = _error_class("BackendUnavailableError", "backend_unavailable", RuntimeError,
                                       "The backend is not built into argx, or no GPU is present.")
WrongMemorySpaceError = _error_class("WrongMemorySpaceError", "wrong_memory_space", ValueError,
                                     "Memory where the chosen backend cannot read or write it.")
CudaError = _error_class("CudaError", "cuda_failure", RuntimeError,
                         "A CUDA call failed (the message holds CUDA's text).")
OutOfMemoryError = _error_class("OutOfMemoryError", "out_of_memory", MemoryError, "A host or device allocation failed.")
BadNpyError = _error_class("BadNpyError", "bad_npy", ValueError, "Malformed .npy data.")
IOFailureError = _error_class("IOFailureError", "io_failure", OSError, "A file could not be read or written.")

ERROR_TYPES = (EmptyReductionError, BadDimError, DuplicateDimError, BadShapeError, UnsupportedDtypeError,
               ShapeOverflowError, IndexOverflowError, BadOutputError, BadArgumentError, BackendUnavailableError,
               WrongMemorySpaceError, CudaError, OutOfMemoryError, BadNpyError, IOFailureError)
