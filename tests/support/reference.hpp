// A second, deliberately naive oracle, independent of argx's order and plan: it decodes
// elements to exact numbers, walks the view's own strides, and applies docs/DESIGN.md §1 rule
// by rule. Every harness run is checked against it, so seq is tested too, not only
// compared with itself.
#pragma once

#include <cstdint>
#include <vector>

#include "host_tensor.hpp"

namespace argx_test {

struct reference_answer {
  argx::shape extents;                   ///< output shape (keepdim applied)
  std::vector<std::int64_t> indices;     ///< -1 for all-NaN slices under nan=ignore
  std::vector<std::uint64_t> value_bits; ///< the winning element's bits
};

/// The answer docs/DESIGN.md §1 defines for a valid reduction (dims must be valid).
reference_answer reference_reduce(argx::op o, const host_tensor& x, const argx::spec& s);

/// -1, 0, 1 as a < b, a == b, a > b by value (|value| with `abs`); a and b are not NaN.
int compare_values(argx::dtype t, std::uint64_t a, std::uint64_t b, bool abs);

}  // namespace argx_test
