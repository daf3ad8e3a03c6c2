// A test input: host bytes it owns plus an argx::tensor_view into them. Views made from
// it (transposed, sliced, flipped, broadcast) keep pointing into the same bytes, so the
// harness can copy the whole allocation to a GPU and rebase the view there.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <argx/argx.hpp>

namespace argx_test {

struct host_tensor {
  std::shared_ptr<std::vector<unsigned char>> storage;  ///< the allocation (shared by views)
  argx::tensor_view view;                               ///< what is reduced

  argx::dtype type() const { return view.type; }
  int rank() const { return view.rank(); }
  /// Byte offset of view.data from the start of the allocation.
  std::ptrdiff_t data_offset() const;

  /// The same bytes seen through another view of them.
  host_tensor with_view(const argx::tensor_view& v) const { return {storage, v}; }
  host_tensor transposed(int a, int b) const { return with_view(view.transposed(a, b)); }
  host_tensor sliced(int dim, std::int64_t begin, std::int64_t end, std::int64_t step = 1) const {
    return with_view(view.sliced(dim, begin, end, step));
  }
  host_tensor flipped(int dim) const { return with_view(view.flipped(dim)); }
  /// Dim `dim` repeated `n` times with stride 0 (every position reads index 0 of it).
  host_tensor broadcast(int dim, std::int64_t n) const;

  /// Bits of the element at a multi-index of the view.
  std::uint64_t at(const argx::shape& index) const;
};

/// A contiguous tensor of `extents` whose elements are `values` encoded exactly.
host_tensor make_tensor(argx::dtype t, const std::vector<double>& values, argx::shape extents);
/// One-dimensional shorthand.
host_tensor make_tensor(argx::dtype t, const std::vector<double>& values);
/// A contiguous tensor from raw element bits.
host_tensor make_tensor_bits(argx::dtype t, const std::vector<std::uint64_t>& bits, argx::shape extents);
host_tensor make_tensor_bits(argx::dtype t, const std::vector<std::uint64_t>& bits);
/// A contiguous tensor with every element set to `bits`.
host_tensor make_filled(argx::dtype t, std::uint64_t bits, argx::shape extents);
/// Sets element `flat` (row-major position in a contiguous tensor) to `bits`.
void set_flat(host_tensor& x, std::int64_t flat, std::uint64_t bits);

/// The dtype's name as a std::string (doctest prints std::string, not std::string_view).
inline std::string name_of(argx::dtype t) { return std::string(argx::name(t)); }

/// Number of elements of a shape.
std::int64_t element_count(const argx::shape& extents);
/// "(2,3,4)".
std::string to_string(const argx::shape& s);
/// One-line description of a tensor view (dtype, extents, strides, offset).
std::string describe(const host_tensor& x);
/// One-line description of a spec.
std::string describe(argx::op o, const argx::spec& s);

/// Every dtype, every floating dtype, every integer/bool dtype.
const std::vector<argx::dtype>& all_dtypes();
const std::vector<argx::dtype>& float_dtypes();
const std::vector<argx::dtype>& integer_dtypes();

}  // namespace argx_test
