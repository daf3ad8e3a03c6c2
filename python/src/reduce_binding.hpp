// argx._core.reduce: one argmax/argmin of a Python array, into arrays of the same kind on
// the same device; argx._core.describe: how argx sees an array.
#pragma once

#include <nanobind/nanobind.h>

#include <argx/spec.hpp>

namespace argx::python {

namespace nb = nanobind;

/// Validates everything, allocates the outputs (unless `out` gives them), then reduces with
/// the GIL released. Returns the indices, or (indices, values) when `values` is set.
nb::object reduce(nb::handle x, argx::op op, nb::handle dim, bool keepdim, nb::handle nan, nb::handle ties, bool abs,
                  nb::handle out, bool values, nb::handle backend, nb::handle stream);

/// {"data", "dtype", "shape", "strides" (elements), "device", "writable", "protocol"}.
nb::dict describe(nb::handle x);

}  // namespace argx::python
