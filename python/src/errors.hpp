// argx::error as Python exceptions: one class per argx::errc, defined in argx/_errors.py
// (each also derives from the builtin a numpy user would catch: ValueError, TypeError, ...).
#pragma once

#include <nanobind/nanobind.h>

namespace argx::python {

namespace nb = nanobind;

/// Installs the exception classes, in argx::errc order, and the translator that raises them.
void set_error_types(nb::sequence types);

}  // namespace argx::python
