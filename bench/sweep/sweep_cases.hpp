// The random-shape sweep: seeded, reproducible reductions over every dtype, shape class
// and view, the yardstick of argx's speed (no table of chosen shapes). Plain C++: the GPU
// sweep times these cases, and the launch chooser's invariants are tested on their plans
// without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <argx/argx.hpp>

namespace argx::sweep {

/// One case: a view into a buffer of random bits, and the reduction to time on it.
struct sweep_case {
  int id = 0;
  std::string kind;  ///< flat, rows, strided, multi (two or three reduced dims that do not merge)
  std::string view;  ///< plain, transposed, sliced, negative, broadcast
  argx::dtype type = dtype::f32;
  argx::op op = op::argmax;
  std::vector<std::int64_t> extents, strides;  ///< the view, strides in elements
  std::int64_t offset = 0;                     ///< elements from the buffer's start to element (0, ..., 0)
  std::vector<int> dims;                       ///< reduced dims (empty: all)
  std::int64_t span = 0;      ///< elements of the buffer the view reaches into, from the start
  std::int64_t distinct = 0;  ///< distinct elements the view reads (its extents without broadcast dims)

  std::int64_t bytes() const { return distinct * static_cast<std::int64_t>(size_of(type)); }
  std::int64_t outputs() const;
  argx::spec spec() const;
  /// The view over a buffer whose first element is at `buffer`.
  argx::tensor_view view_of(const void* buffer, argx::memory_space space) const;
  /// "uint8 rows (5105, 3500) dims {1} sliced +3"
  std::string describe() const;
};

/// Limits of one sweep.
struct sweep_limits {
  std::int64_t min_bytes = std::int64_t(1) << 20;   ///< distinct bytes read, at least
  std::int64_t max_bytes = std::int64_t(2) << 30;   ///< and at most
  std::int64_t max_span_bytes = std::int64_t(5) << 29;  ///< the buffer the views live in
  std::int64_t max_outputs = std::int64_t(1) << 27;     ///< index outputs (int64 each)
};

/// `count` cases from `seed`: sizes log-uniform between the limits, every dtype, kinds and
/// views in fixed proportions, odd extents (primes, 2^k +- 1), one in three starting 1..15
/// elements past an aligned address.
std::vector<sweep_case> make_sweep(std::uint64_t seed, int count, const sweep_limits& limits = {});

}  // namespace argx::sweep
