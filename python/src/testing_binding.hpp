// argx.testing's C++ half: argx::testing::compare / compare_answers / format_element and
// the report they return, for arrays imported like argx.argmax's input.
#pragma once

#include <nanobind/nanobind.h>

namespace argx::python {

namespace nb = nanobind;

/// Adds Report, compare, compare_answers and format_element to the module.
void bind_testing(nb::module_& m);

}  // namespace argx::python
