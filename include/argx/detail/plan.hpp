// The plan: a validated, simplified description of one reduction that every backend reads.
// Internal (argx::detail, not part of the ABI): the public API is views, specs and policies.
//
// make_plan validates the input and spec, splits dims into kept and reduced, drops
// extent-1 dims, merges adjacent dims whose strides allow it (so a contiguous tensor
// becomes at most [outer, R, inner]), and classifies the result. No data is touched or
// copied: the plan only re-describes the strides.
#pragma once

#include "../config.hpp"  // first: the C++20 check

#include <cstdint>
#include <limits>
#include <string>

#include "../error.hpp"
#include "../order.hpp"
#include "../spec.hpp"
#include "../tensor_view.hpp"

namespace argx::detail {

/// The traversal a reduction needs, after simplification.
enum class shape_class : std::uint8_t {
  empty,    ///< the output has no elements: nothing to do
  flat,     ///< one output; the reduced elements are contiguous (stride 1)
  rows,     ///< many outputs; each reduces a contiguous row (reduced stride 1)
  strided,  ///< reduce one dim with the kept innermost dim contiguous: [.., R, inner]
  general,  ///< anything else (several non-mergeable reduced dims, odd strides)
};

constexpr const char* to_string(shape_class c) noexcept {
  switch (c) {
    case shape_class::empty: return "empty";
    case shape_class::flat: return "flat";
    case shape_class::rows: return "rows";
    case shape_class::strided: return "strided";
    case shape_class::general: return "general";
  }
  return "?";
}

/// A validated reduction. Plain data (trivially copyable): kernels take it by value.
struct plan {
  const void* data = nullptr;      ///< element (0,...,0) of the input
  argx::dtype type = argx::dtype::f32;
  memory_space space = memory_space::host;
  key_params keys{};               ///< argmin / abs / nan ignore
  bool ties_last = false;
  argx::index_type index = argx::index_type::int64;
  shape_class kind = shape_class::empty;

  /// Kept dims (outputs), row-major, extent-1 dropped, merged. Output element o is the
  /// row-major position o over these extents.
  shape kept_extents, kept_strides;
  /// Reduced dims, row-major, extent-1 dropped, merged; never empty (at least {1},{1}).
  /// Position p in a slice is the row-major position over these extents.
  shape reduced_extents, reduced_strides;
  /// The output's shape as the caller sees it (keepdim applied).
  shape out_extents;

  std::int64_t outputs = 0;      ///< number of output elements
  std::int64_t reduce_size = 1;  ///< elements per reduced slice (R)

  /// strided: extent of the contiguous kept innermost dim.
  ARGX_HOST_DEVICE std::int64_t inner() const noexcept { return kept_extents[kept_extents.size() - 1]; }
};

/// The class of a plan whose dims are simplified (outputs, kept and reduced dims set).
inline shape_class classify(const plan& p) {
  const bool one_reduced = p.reduced_extents.size() == 1;
  if (p.outputs == 0) return shape_class::empty;
  if (one_reduced && p.reduced_strides[0] == 1) return p.kept_extents.empty() ? shape_class::flat : shape_class::rows;
  if (one_reduced && !p.kept_extents.empty() && p.kept_strides[p.kept_extents.size() - 1] == 1)
    return shape_class::strided;
  return shape_class::general;
}

inline bool mul_overflows(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return __builtin_mul_overflow(a, b, &out);
}

// Drops extent-1 dims and merges neighbours i, i+1 when stride[i] == stride[i+1] * extent[i+1],
// which keeps both the element offsets and the row-major position unchanged.
inline void simplify_dims(shape& ext, shape& str) {
  shape e, s;
  for (int i = 0; i < ext.size(); ++i) {
    if (ext[i] == 1) continue;
    std::int64_t reach;
    if (!e.empty() && !mul_overflows(str[i], ext[i], reach) && s[e.size() - 1] == reach) {
      e[e.size() - 1] *= ext[i];
      s[s.size() - 1] = str[i];
    } else {
      e.push_back(ext[i]);
      s.push_back(str[i]);
    }
  }
  ext = e;
  str = s;
}

/// Bytes of an output of `outputs` elements of `t`; shape_overflow when they do not fit
/// in int64 (no buffer that large can exist, and sizes computed from it would wrap).
inline std::int64_t output_bytes(std::int64_t outputs, argx::dtype t, const char* what) {
  std::int64_t bytes;
  if (mul_overflows(outputs, static_cast<std::int64_t>(size_of(t)), bytes))
    throw error(errc::shape_overflow, std::string(what) + " output of " + std::to_string(outputs) + " elements of " +
                                          std::string(name(t)) + " has more bytes than fit in 64 bits");
  return bytes;
}

/// Validates `x` and `s` for operation `o` and builds the plan. Throws argx::error for
/// bad dims, empty reductions, overflowing shapes, unsupported dtypes and null data.
inline plan make_plan(const tensor_view& x, op o, const spec& s) {
  const int rank = x.rank();
  if (x.strides.size() != rank)
    throw error(errc::bad_shape, "input has " + std::to_string(rank) + " extents but " +
                                     std::to_string(x.strides.size()) + " strides");
  if (static_cast<unsigned>(x.type) >= static_cast<unsigned>(dtype_count))
    throw error(errc::unsupported_dtype, "input dtype code " + std::to_string(static_cast<int>(x.type)) +
                                             " is not a supported dtype");

  // Element count, byte size and the furthest offset must all fit in int64.
  std::int64_t count = 1, nonzero_count = 1, span = 0, below = 0;  // below: reach of the negative strides
  for (int d = 0; d < rank; ++d) {
    const std::int64_t n = x.extents[d];
    if (n < 0) throw error(errc::bad_shape, "input extent " + std::to_string(d) + " is negative (" + std::to_string(n) + ")");
    if (n == 0) { count = 0; continue; }
    std::int64_t reach;
    if (x.strides[d] == std::numeric_limits<std::int64_t>::min())  // its magnitude does not fit
      throw error(errc::shape_overflow, "input shape overflows 64-bit element counts or offsets");
    const std::int64_t st = x.strides[d] < 0 ? -x.strides[d] : x.strides[d];
    if (mul_overflows(nonzero_count, n, nonzero_count) || mul_overflows(st, n - 1, reach) ||
        __builtin_add_overflow(span, reach, &span))
      throw error(errc::shape_overflow, "input shape overflows 64-bit element counts or offsets");
    if (x.strides[d] < 0) below += reach;  // <= span: cannot overflow
  }
  if (count != 0) count = nonzero_count;
  std::int64_t bytes, reachable;
  if (mul_overflows(nonzero_count, static_cast<std::int64_t>(size_of(x.type)), bytes) ||
      __builtin_add_overflow(span, 1, &reachable) ||
      mul_overflows(reachable, static_cast<std::int64_t>(size_of(x.type)), bytes))
    throw error(errc::shape_overflow, "input byte size overflows 64 bits");

  // Which dims are reduced.
  bool reduced[max_rank] = {};
  if (s.dims.empty()) {
    for (int d = 0; d < rank; ++d) reduced[d] = true;
  } else {
    for (int i = 0; i < s.dims.size(); ++i) {
      const int d = s.dims[i];
      if (d < -rank || d >= rank)
        throw error(errc::bad_dim, "dim " + std::to_string(d) + " is out of range for a tensor of rank " +
                                       std::to_string(rank));
      const int w = d < 0 ? d + rank : d;
      if (reduced[w]) throw error(errc::duplicate_dim, "dim " + std::to_string(d) + " is given more than once");
      reduced[w] = true;
    }
  }

  plan p;
  p.data = x.data;
  p.type = x.type;
  p.space = x.space;
  p.keys = key_params{o == op::argmin, s.abs, s.nan == nan_policy::ignore};
  p.ties_last = s.ties == tie_break::last;
  p.index = s.index;

  std::int64_t outputs = 1, reduce_size = 1;
  for (int d = 0; d < rank; ++d) {
    if (reduced[d]) {
      if (x.extents[d] == 0)
        throw error(errc::empty_reduction, "attempt to get " + std::string(o == op::argmax ? "argmax" : "argmin") +
                                               " of an empty sequence (dim " + std::to_string(d) + " has extent 0)");
      reduce_size *= x.extents[d];
      p.reduced_extents.push_back(x.extents[d]);
      p.reduced_strides.push_back(x.strides[d]);
      if (s.keepdim) p.out_extents.push_back(1);
    } else {
      outputs *= x.extents[d];
      p.kept_extents.push_back(x.extents[d]);
      p.kept_strides.push_back(x.strides[d]);
      p.out_extents.push_back(x.extents[d]);
    }
  }
  if (s.index == index_type::int32 && reduce_size - 1 > std::numeric_limits<std::int32_t>::max())
    throw error(errc::index_overflow, "index_type int32 cannot hold indices up to " + std::to_string(reduce_size - 1));
  // Stride-0 dims make any output count possible: its index buffer must still be addressable.
  (void)output_bytes(outputs, s.index == index_type::int64 ? dtype::i64 : dtype::i32, "index");
  if (count > 0 && x.data == nullptr) throw error(errc::bad_argument, "input data pointer is null");
  if (count > 0) {
    // Every element read lies in [data - below, data + (span - below)] elements: inside the
    // address space, or the pointer and strides describe no memory at all. (The byte sizes
    // fit: (span + 1) * element size was checked above.)
    const auto addr = reinterpret_cast<std::uintptr_t>(x.data);
    const auto elem = static_cast<std::uintptr_t>(size_of(x.type));
    const auto low = static_cast<std::uintptr_t>(below) * elem, high = static_cast<std::uintptr_t>(span - below + 1) * elem;
    if (addr < low || std::numeric_limits<std::uintptr_t>::max() - addr < high)
      throw error(errc::bad_argument, "input view reaches outside the address space (its data pointer and strides "
                                      "describe no memory)");
  }

  p.outputs = outputs;
  p.reduce_size = reduce_size;
  simplify_dims(p.kept_extents, p.kept_strides);
  simplify_dims(p.reduced_extents, p.reduced_strides);
  if (p.reduced_extents.empty()) {  // every reduced extent was 1: a slice of one element
    p.reduced_extents.push_back(1);
    p.reduced_strides.push_back(1);
  }

  p.kind = classify(p);
  return p;
}

/// Offset in elements of the element at row-major position i over `extents`, in dims of
/// `strides`.
ARGX_HOST_DEVICE inline std::int64_t strided_offset(const shape& extents, const shape& strides, std::int64_t i) {
  std::int64_t off = 0;
  for (int d = extents.size() - 1; d >= 0; --d) {
    off += (i % extents[d]) * strides[d];
    i /= extents[d];
  }
  return off;
}

/// Offset (in elements, from plan::data) of the start of output o's slice.
ARGX_HOST_DEVICE inline std::int64_t kept_offset(const plan& p, std::int64_t o) {
  return strided_offset(p.kept_extents, p.kept_strides, o);
}

/// Offset (in elements, relative to a slice start) of position pos within the slice.
ARGX_HOST_DEVICE inline std::int64_t reduced_offset(const plan& p, std::int64_t pos) {
  return strided_offset(p.reduced_extents, p.reduced_strides, pos);
}

/// Checks an output buffer against the plan: the shape (or, equivalently, the element
/// count for a rank-0 result), dtype, a non-null pointer, and a byte size that fits.
/// `what` names it in errors.
inline void check_output(const plan& p, const output_view& out, argx::dtype expected, const char* what) {
  if (out.type != expected)
    throw error(errc::bad_output, std::string(what) + " output has dtype " + std::string(name(out.type)) +
                                      " but " + std::string(name(expected)) + " is required");
  if (!(out.extents == p.out_extents)) {
    std::string want = "(", got = "(";
    for (auto e : p.out_extents) want += std::to_string(e) + ",";
    for (auto e : out.extents) got += std::to_string(e) + ",";
    throw error(errc::bad_output, std::string(what) + " output has shape " + got + ") but the result has shape " + want + ")");
  }
  if (p.outputs > 0 && out.data == nullptr) throw error(errc::bad_output, std::string(what) + " output pointer is null");
  // The bytes the backend will write must fit in 64 bits and in the address space above the pointer.
  const std::int64_t bytes = output_bytes(p.outputs, expected, what);
  if (reinterpret_cast<std::uintptr_t>(out.data) > std::numeric_limits<std::uintptr_t>::max() - static_cast<std::uint64_t>(bytes))
    throw error(errc::bad_output, std::string(what) + " output of " + std::to_string(bytes) +
                                      " bytes would run past the end of the address space");
}

}  // namespace argx::detail
