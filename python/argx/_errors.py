"""argx's exceptions: one class per argx error code (argx::errc), each also deriving from
the builtin exception a numpy or torch user would catch for the same mistake."""


class Error(Exception):
    """Base of every argx error. ``code`` is argx's error code name (``"bad_dim"``, ...)."""

    code = ""


# (class, code, builtin bases, meaning), in argx::errc order (include/argx/error.hpp): the C++
# side indexes ERROR_TYPES by code and checks the order when argx is imported.
_TABLE = (
    ("EmptyReductionError", "empty_reduction", (ValueError,),
     "A reduced extent is 0 (numpy: attempt to get argmax of an empty sequence)."),
    ("BadDimError", "bad_dim", (IndexError, ValueError),
     "A dim is out of range for the array's rank (an IndexError and a ValueError, like numpy's AxisError)."),
    ("DuplicateDimError", "duplicate_dim", (ValueError,), "A dim is named twice."),
    ("BadShapeError", "bad_shape", (ValueError,), "Rank above 16 or a negative extent."),
    ("UnsupportedDtypeError", "unsupported_dtype", (TypeError,),
     "A dtype argx does not reduce (complex, datetime, object, non-native byte order, ...)."),
    ("ShapeOverflowError", "shape_overflow", (OverflowError,),
     "Element count, byte size or furthest offset overflows 64 bits."),
    ("IndexOverflowError", "index_overflow", (OverflowError,), "int32 indices asked for a slice longer than 2**31."),
    ("BadOutputError", "bad_output", (ValueError,),
     "An out= array of the wrong shape or dtype, read-only or not C-contiguous."),
    ("BadArgumentError", "bad_argument", (ValueError, TypeError),
     "Any other invalid argument (an unknown option value, an object that is no array)."),
    ("BackendUnavailableError", "backend_unavailable", (RuntimeError,),
     "The backend is not built into argx, or no GPU is present."),
    ("WrongMemorySpaceError", "wrong_memory_space", (ValueError,),
     "Memory where the chosen backend cannot read or write it."),
    ("CudaError", "cuda_failure", (RuntimeError,), "A CUDA call failed (the message holds CUDA's text)."),
    ("OutOfMemoryError", "out_of_memory", (MemoryError,), "A host or device allocation failed."),
    ("BadNpyError", "bad_npy", (ValueError,), "Malformed .npy data."),
    ("IOFailureError", "io_failure", (OSError,), "A file could not be read or written."),
    ("InternalError", "internal", (RuntimeError,), "An exception argx did not expect (a bug); the message holds its text."),
    ("CommFailureError", "comm_failure", (RuntimeError,),
     "An MPI or NCCL call failed in a distributed reduction (the message holds its text)."),
)

ERROR_TYPES = tuple(type(name, (Error,) + bases, {"code": code, "__doc__": doc, "__module__": "argx"})
                    for name, code, bases, doc in _TABLE)
globals().update((cls.__name__, cls) for cls in ERROR_TYPES)
__all__ = ["Error", "ERROR_TYPES"] + [cls.__name__ for cls in ERROR_TYPES]
