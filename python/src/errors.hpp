// argx::error as Python exceptions: one class per argx::errc, defined in argx/_errors.py
// (each also derives from the builtin a numpy user would catch: ValueError, TypeError, ...).
#pragma once

#include <string>
#include <vector>

#include <nanobind/nanobind.h>

namespace argx::python {

namespace nb = nanobind;

/// The names of argx::errc's codes, in order ("empty_reduction", ...).
std::vector<std::string> error_codes();

/// Installs the exception classes, in argx::errc order (checked: each class's `code` names
/// its errc), and the translator that raises them.
void set_error_types(nb::sequence types);

}  // namespace argx::python
