// argx: argmax / argmin over tensors of any shape, with one answer on every backend.
//
//   auto r = argx::argmax(argx::tbb, argx::make_view(v, {rows, cols}), {.dims = {1}});
//   argx::argmin(argx::cuda.on(stream), x, out, {.dims = {0}, .nan = argx::nan_policy::ignore});
//
// This header is plain C++: it compiles with any C++20 compiler, GPU or not.
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstdint>
#include <cstring>
#include <vector>

#include "devices.hpp"
#include "dtype.hpp"
#include "error.hpp"
#include "detail/plan.hpp"
#include "policy.hpp"
#include "spec.hpp"
#include "tensor_view.hpp"
#include <argx/version.hpp>  // generated into the build tree

namespace argx {

/// A reduction's answer, owned on the host: indices (always int64 here) and the winning
/// elements' bits, both row-major in the output shape.
struct result {
  shape extents;                        ///< output shape (keepdim applied)
  std::vector<std::int64_t> indices;    ///< one per output element; -1 for all-NaN (ignore)
  argx::dtype value_type = dtype::f32;  ///< the input's dtype
  std::vector<unsigned char> values;    ///< size_of(value_type) bytes per output element

  /// Number of output elements.
  std::size_t size() const noexcept { return indices.size(); }
  /// The winning element of output i, as T (T must match value_type's size).
  template <element T>
  T value(std::size_t i) const {
    if (sizeof(T) != size_of(value_type)) throw error(errc::bad_argument, "result::value: element type size mismatch");
    T v;
    std::memcpy(&v, values.data() + i * sizeof(T), sizeof(T));
    return v;
  }
};

/// The general entry point: reduce `x` with `o` into caller-owned buffers. `values` may
/// be null. For cuda/thrust with device buffers the call is asynchronous on the policy's
/// stream; every other combination has finished when it returns.
ARGX_API void reduce(const policy& pol, op o, const tensor_view& x, const output_view& indices,
                     const output_view* values, const spec& s = {});
/// Reduce `x` and return the answer on the host (synchronous).
ARGX_API result reduce(const policy& pol, op o, const tensor_view& x, const spec& s = {});

/// Shape of the output of reducing `x` with `s` (validates like a reduction would).
inline shape output_shape(const tensor_view& x, const spec& s = {}) { return detail::make_plan(x, op::argmax, s).out_extents; }

/// argmax into caller-owned index (and optionally value) buffers.
inline void argmax(const policy& pol, const tensor_view& x, const output_view& indices, const spec& s = {}) {
  reduce(pol, op::argmax, x, indices, nullptr, s);
}
inline void argmax(const policy& pol, const tensor_view& x, const output_view& indices, const output_view& values,
                   const spec& s = {}) {
  reduce(pol, op::argmax, x, indices, &values, s);
}
/// argmax returning a host result.
inline result argmax(const policy& pol, const tensor_view& x, const spec& s = {}) {
  return reduce(pol, op::argmax, x, s);
}

/// argmin: as argmax, smallest element wins.
inline void argmin(const policy& pol, const tensor_view& x, const output_view& indices, const spec& s = {}) {
  reduce(pol, op::argmin, x, indices, nullptr, s);
}
inline void argmin(const policy& pol, const tensor_view& x, const output_view& indices, const output_view& values,
                   const spec& s = {}) {
  reduce(pol, op::argmin, x, indices, &values, s);
}
inline result argmin(const policy& pol, const tensor_view& x, const spec& s = {}) {
  return reduce(pol, op::argmin, x, s);
}

/// Multi-index of a flat row-major index over `extents` (for indices of a multi-dim
/// reduction, pass the reduced dims' extents). Throws bad_argument when out of range.
inline shape unravel(std::int64_t index, const shape& extents) {
  std::int64_t total = 1;
  for (auto e : extents) total *= e;
  if (index < 0 || index >= total)
    throw error(errc::bad_argument, "unravel: index " + std::to_string(index) + " outside 0.." + std::to_string(total - 1));
  shape out = extents;
  for (int d = extents.size() - 1; d >= 0; --d) {
    out[d] = index % extents[d];
    index /= extents[d];
  }
  return out;
}

}  // namespace argx
