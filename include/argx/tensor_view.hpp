// Non-owning views of tensors: the input (read-only, any strides) and outputs (contiguous).
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <ranges>
#include <span>
#include <type_traits>

#include "bounded_vector.hpp"
#include "dtype.hpp"

namespace argx {

/// Where a pointer points: host memory or CUDA device memory.
enum class memory_space : std::uint8_t { host, device };

/// Extents or strides of a tensor, up to max_rank entries.
using shape = bounded_vector<std::int64_t, max_rank>;

/// Row-major (C order) strides, in elements, for the given extents.
constexpr shape contiguous_strides(const shape& extents) {
  shape s;
  std::int64_t step = 1;
  for (int i = 0; i < extents.size(); ++i) s.push_back(0);
  for (int i = extents.size() - 1; i >= 0; --i) {
    s[i] = step;
    // Wraps instead of overflowing (undefined) for extents whose product does not fit;
    // make_plan refuses such shapes (shape_overflow) before any stride is used.
    step = static_cast<std::int64_t>(static_cast<std::uint64_t>(step) *
                                     static_cast<std::uint64_t>(extents[i] > 0 ? extents[i] : 1));
  }
  return s;
}

/// A read-only view of a tensor: data points at element (0, ..., 0); strides are in
/// elements and may be zero (broadcast) or negative (reversed). argx never writes
/// through it.
struct tensor_view {
  const void* data = nullptr;
  argx::dtype type = argx::dtype::f32;
  shape extents;
  shape strides;
  memory_space space = memory_space::host;

  int rank() const noexcept { return extents.size(); }

  /// The view with dims a and b swapped (no data moves).
  tensor_view transposed(int a, int b) const;
  /// numpy's x[begin:end:step] along `dim`: negative bounds count from the end, bounds
  /// outside the extent are clamped, an empty or inverted range gives extent 0, a negative
  /// step walks backwards; INT64_MAX / INT64_MIN stand for an omitted bound (as in CPython).
  /// bad_argument for step 0.
  tensor_view sliced(int dim, std::int64_t begin, std::int64_t end, std::int64_t step = 1) const;
  /// The view with `dim` reversed (negative stride).
  tensor_view flipped(int dim) const;
};

/// A contiguous row-major output buffer argx writes: indices (int64/int32) or values.
struct output_view {
  void* data = nullptr;
  argx::dtype type = argx::dtype::i64;
  shape extents;
  memory_space space = memory_space::host;
};

// ---- factories -------------------------------------------------------------------------

/// View of `data` with the given extents, row-major.
template <element T>
tensor_view make_view(const T* data, shape extents, memory_space space = memory_space::host) {
  tensor_view v{data, dtype_of_v<T>, extents, contiguous_strides(extents), space};
  return v;
}
/// View of `data` with explicit strides (in elements; zero and negative allowed).
template <element T>
tensor_view make_view(const T* data, shape extents, shape strides, memory_space space = memory_space::host) {
  if (strides.size() != extents.size())
    throw error(errc::bad_shape, "strides has " + std::to_string(strides.size()) + " entries but extents has " +
                                     std::to_string(extents.size()));
  return tensor_view{data, dtype_of_v<T>, extents, strides, space};
}
/// One-dimensional view of a span.
template <element T>
tensor_view make_view(std::span<const T> s) {
  return make_view(s.data(), shape{static_cast<std::int64_t>(s.size())});
}
/// View of any contiguous container (std::vector, std::array, ...), optionally reshaped.
template <std::ranges::contiguous_range R>
  requires element<std::remove_cv_t<std::ranges::range_value_t<R>>>
tensor_view make_view(const R& r) {
  return make_view(std::ranges::data(r), shape{static_cast<std::int64_t>(std::ranges::size(r))});
}
template <std::ranges::contiguous_range R>
  requires element<std::remove_cv_t<std::ranges::range_value_t<R>>>
tensor_view make_view(const R& r, shape extents) {
  return make_view(std::ranges::data(r), extents);
}
/// A view of raw memory whose dtype is known only at run time.
inline tensor_view make_view(const void* data, argx::dtype type, shape extents, shape strides,
                             memory_space space = memory_space::host) {
  if (strides.size() != extents.size())
    throw error(errc::bad_shape, "strides has " + std::to_string(strides.size()) + " entries but extents has " +
                                     std::to_string(extents.size()));
  return tensor_view{data, type, extents, strides, space};
}

/// Output buffer of `extents` elements of T (int64_t/int32_t for indices, the input's
/// element type for values).
template <element T>
output_view make_output(T* data, shape extents, memory_space space = memory_space::host) {
  return output_view{data, dtype_of_v<T>, extents, space};
}
inline output_view make_output(void* data, argx::dtype type, shape extents, memory_space space = memory_space::host) {
  return output_view{data, type, extents, space};
}

// ---- view transforms -------------------------------------------------------------------

namespace detail {
inline int checked_dim(int dim, int rank, const char* what) {
  if (dim < -rank || dim >= rank || rank == 0)
    throw error(errc::bad_dim, std::string(what) + ": dim " + std::to_string(dim) + " out of range for rank " +
                                   std::to_string(rank));
  return dim < 0 ? dim + rank : dim;
}
// p moved by `steps` strides of `stride` elements; shape_overflow when the byte offset does
// not fit. The address is computed as an integer: a view may describe memory that does not
// exist (make_plan refuses to read it), and describing it must not be undefined behaviour.
inline const void* offset_bytes(const void* p, std::int64_t steps, std::int64_t stride, argx::dtype t, const char* what) {
  std::int64_t elements, bytes;
  if (__builtin_mul_overflow(steps, stride, &elements) ||
      __builtin_mul_overflow(elements, static_cast<std::int64_t>(size_of(t)), &bytes))
    throw error(errc::shape_overflow, std::string(what) + ": the view's offset overflows 64 bits");
  return reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(bytes));
}
}  // namespace detail

inline tensor_view tensor_view::transposed(int a, int b) const {
  tensor_view v = *this;
  a = detail::checked_dim(a, rank(), "transposed");
  b = detail::checked_dim(b, rank(), "transposed");
  std::swap(v.extents[a], v.extents[b]);
  std::swap(v.strides[a], v.strides[b]);
  return v;
}

inline tensor_view tensor_view::sliced(int dim, std::int64_t begin, std::int64_t end, std::int64_t step) const {
  dim = detail::checked_dim(dim, rank(), "sliced");
  if (step == 0) throw error(errc::bad_argument, "sliced: step cannot be zero");
  const std::int64_t n = extents[dim];
  if (n < 0) throw error(errc::bad_shape, "sliced: extent of dim " + std::to_string(dim) + " is negative");
  if (step == INT64_MIN) step = -INT64_MAX;  // the same elements (at most one), and its negation fits
  // Clamp the bounds as CPython's PySlice_AdjustIndices does; no step can overflow below.
  auto clamp = [&](std::int64_t i) {
    if (i < 0) {
      i += n;
      if (i < 0) i = step < 0 ? -1 : 0;
    } else if (i >= n) {
      i = step < 0 ? n - 1 : n;
    }
    return i;
  };
  begin = clamp(begin);
  end = clamp(end);
  std::int64_t count = 0;
  if (step > 0 && end > begin) count = (end - begin - 1) / step + 1;
  if (step < 0 && begin > end) count = (begin - end - 1) / -step + 1;
  tensor_view v = *this;
  v.extents[dim] = count;
  if (count > 0) v.data = detail::offset_bytes(data, begin, strides[dim], type, "sliced");
  // One element needs no stride (and step may be far larger than any stride allows).
  if (count > 1 && __builtin_mul_overflow(strides[dim], step, &v.strides[dim]))
    throw error(errc::shape_overflow, "sliced: stride " + std::to_string(strides[dim]) + " times step " +
                                          std::to_string(step) + " overflows 64 bits");
  return v;
}

inline tensor_view tensor_view::flipped(int dim) const {
  dim = detail::checked_dim(dim, rank(), "flipped");
  tensor_view v = *this;
  if (extents[dim] > 0) v.data = detail::offset_bytes(data, extents[dim] - 1, strides[dim], type, "flipped");
  if (strides[dim] == INT64_MIN)
    throw error(errc::shape_overflow, "flipped: stride " + std::to_string(strides[dim]) + " cannot be negated");
  v.strides[dim] = -strides[dim];
  return v;
}

}  // namespace argx
