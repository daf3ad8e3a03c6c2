// Which framework an array belongs to (numpy, torch, CuPy, an array-API namespace), as
// argx/_frameworks.py describes it: how to make it exportable, which CUDA stream is current
// for it, and how to allocate outputs of the same kind on the same device.
#pragma once

#include <cstdint>
#include <optional>

#include <nanobind/nanobind.h>

#include "array_import.hpp"

namespace argx::python {

namespace nb = nanobind;

struct framework {
  nb::object prepare;         ///< None, or callable(x) -> x ready for export (torch: detached)
  nb::object current_stream;  ///< callable(x, device) -> int, the stream current on `device`
  nb::object export_current;  ///< None, or callable(x) -> DLPack capsule to read on that stream
  nb::object empty;           ///< callable(x, shape, like_x) -> new array (int64, or x's dtype)
  /// None, or numpy.empty-like callable(shape, dtype) used instead of `empty` with
  /// `index_dtype` or x.dtype (saves a Python frame per output on the small-array path).
  nb::object empty_direct;
  nb::object index_dtype;
};

/// A new output like `x` (its dtype when like_x, else int64 indices) of `shape`.
nb::object new_output(const framework& fw, nb::handle x, nb::handle shape, bool like_x);

/// The framework of `x`'s type (asked of Python once per type, then cached).
const framework& framework_of(nb::handle x);

/// How `x` is exported: on the caller's stream if given, else on the framework's current
/// one. `fw` and `x` must outlive the result.
stream_choice streams_for(const framework& fw, nb::handle x, std::optional<std::uintptr_t> explicit_stream);

/// An input: `x` prepared by its framework (framework::prepare), then imported on the
/// caller's stream if given, else on the framework's current one.
imported_array import_input(nb::handle x, std::optional<std::uintptr_t> explicit_stream);

/// Installs argx._frameworks.framework_for (called once, when argx is imported).
void set_framework_lookup(nb::object lookup);

}  // namespace argx::python
