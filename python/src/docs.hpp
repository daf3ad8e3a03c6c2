// Docstrings of argx.argmax and argx.argmin (the functions are defined in C++, module.cpp).
#pragma once

namespace argx::python {

inline constexpr const char* argmax_doc = R"(Index of the largest element of x, over every dim or along dim.

x        numpy array, torch tensor, CuPy array, or any object with DLPack
         (__dlpack__) or the array interface; read in place, any strides.
dim      None: every dim (a flat row-major index, as numpy's axis=None); an int
         (numpy axis, torch dim; negative counts from the end); a tuple of ints
         (several dims: the index is row-major over those dims, in ascending order).
keepdim  reduced dims stay with extent 1.
nan      "propagate" (numpy/torch: the first NaN wins) or "ignore" (numpy
         nanargmax; an all-NaN slice gives -1).
ties     "first" (numpy/torch) or "last": which of equal elements wins.
abs      compare |x| (BLAS i?amax); the value returned keeps its sign.
out      an int64 (or int32) array of the output shape to write the indices into;
         with values=True, a pair (indices or None, values or None).
values   also return the winning elements, bit for bit: (indices, values).
backend  "auto" (CUDA memory: cuda; host memory: the best CPU backend), "seq",
         "par", "tbb", "cuda", "thrust".
stream   the CUDA stream to run on (an int handle, torch.cuda.Stream or
         cupy.cuda.Stream); default: the array's framework's current stream.

Returns an int64 array of the output shape (0-d when every dim is reduced), of
x's kind on x's device. Raises an argx.Error subclass (with .code) before
anything is written.)";

inline constexpr const char* argmin_doc = R"(Index of the smallest element of x; the arguments are argmax's.

Under nan="propagate" the first NaN still wins, as in numpy and torch.)";

}  // namespace argx::python
