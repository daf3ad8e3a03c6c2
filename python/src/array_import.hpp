// Arrays from Python as argx views, without copying them: DLPack (__dlpack__,
// __dlpack_device__) first, the array interface (__cuda_array_interface__,
// __array_interface__) where an object has no DLPack or its producer refuses (numpy
// refuses read-only arrays, bool before numpy 2 and ml_dtypes' bfloat16).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include <nanobind/nanobind.h>

#include <argx/argx.hpp>

namespace argx::python {

namespace nb = nanobind;

/// How the CUDA stream an array is read on is chosen: the caller's stream when given, else
/// the array's framework's current stream on the array's device (asked only for CUDA memory,
/// before the producer exports it, so that it orders its pending work before that stream).
struct stream_choice {
  std::optional<std::uintptr_t> explicit_stream;
  std::function<std::uintptr_t(int device)> current;  ///< empty: the legacy default stream
  /// With `current`: None, or callable(x) -> DLPack capsule, the framework's export with no
  /// stream handshake, for host memory or CUDA memory read on the framework's current stream
  /// (where its work is already ordered).
  nb::handle export_current;
};

/// An array as argx sees it, and what keeps its memory alive while argx reads or writes it.
struct imported_array {
  argx::tensor_view view;
  nb::object owner;            ///< the DLPack capsule, or the object itself (array interface)
  bool writable = true;
  int device = -1;             ///< CUDA ordinal when the producer names one, else -1
  std::uintptr_t stream = 0;   ///< CUDA memory: the stream it was exported for (0: default)
  const char* protocol = "";   ///< "dlpack", "array_interface" or "cuda_array_interface"
};

/// The view of `obj`; an argx::error (bad_argument, unsupported_dtype, bad_shape, ...) when
/// it is not an array argx can read in place.
imported_array import_array(nb::handle obj, const stream_choice& streams);

/// A shape (extents or strides) as a Python tuple of ints.
nb::tuple shape_tuple(const argx::shape& s);

/// `a` as an output buffer: writable and row-major contiguous, else bad_output naming `what`.
argx::output_view as_output(const imported_array& a, const char* what);

}  // namespace argx::python
