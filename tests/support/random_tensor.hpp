// Reproducible random test inputs: shapes, element bits with NaN (both signs, many
// payloads), ±0, ±inf, subnormals and dense ties injected, views with odd strides, and
// specs. A fixed seed gives the same cases on every platform (no <random> distributions,
// whose algorithms differ between standard libraries).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <argx/detail/splitmix64.hpp>

#include "host_tensor.hpp"

namespace argx_test {

/// The tests' random numbers: argx's splitmix64, with [0, n) drawn by remainder (the tiny
/// modulo bias does not matter here), which keeps the cases each seed of the tests names.
class rng {
 public:
  explicit rng(std::uint64_t seed) : bits_(seed) {}
  std::uint64_t next() { return bits_.next(); }
  /// Uniform in [0, n) (n > 0).
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  /// True with probability p.
  bool chance(double p) { return bits_.chance(p); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

 private:
  argx::detail::splitmix64 bits_;
};

/// How elements are drawn.
struct fill_profile {
  double nan_rate = 0.02;      ///< NaNs of either sign and assorted payloads
  double special_rate = 0.05;  ///< ±0, ±inf, subnormals, extremes (ints: MIN, MAX, 0, -1)
  double tie_rate = 0.6;       ///< elements taken from a pool of `pool_size` values
  int pool_size = 3;
  /// Also put copies of the largest and smallest pool values, and a NaN, next to the
  /// split points of the backends (32, 256, 1024, 2^14, 2^15, 2^16, ...).
  bool boundary_peaks = true;
};

/// A contiguous tensor of random elements.
host_tensor random_tensor(rng& r, argx::dtype t, const argx::shape& extents, const fill_profile& f = {});
/// Random extents of rank `rank` with at most `max_elements` elements; zero extents with
/// probability `zero_rate` per dim.
argx::shape random_extents(rng& r, int rank, std::int64_t max_elements, double zero_rate = 0.0);
/// The tensor seen through a random mix of transposes, reversals, strided slices and
/// broadcasts (zero strides). `how` receives a description of the transforms.
host_tensor random_view(rng& r, const host_tensor& x, std::string* how = nullptr);
/// A random spec for a tensor of rank `rank`: dims (none, or a subset in random order with
/// random negative spellings), keepdim, nan policy, ties, abs and index type.
argx::spec random_spec(rng& r, int rank);

}  // namespace argx_test
