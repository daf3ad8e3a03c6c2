// Random differential cases for `argx fuzz`, reproducible from (seed, case number).
#pragma once

#include <cstdint>

#include <argx/detail/splitmix64.hpp>

#include "fuzz_case.hpp"

namespace argx::cli {

/// How often special elements appear. Each case scales every rate by a random factor
/// (0, 1/5, 1, 5 or 40, capped at 1) so that clean cases, typical ones and NaN- or
/// tie-saturated ones (all-NaN slices, all-equal slices) all occur.
struct fuzz_rates {
  double nan = 0.02;        ///< NaN, either sign, varied payloads, quiet and signalling
  double inf = 0.01;        ///< +-inf
  double zero = 0.02;       ///< +-0
  double subnormal = 0.01;  ///< subnormals, either sign
  double tie = 0.2;         ///< elements drawn from a small per-case pool (dense ties)
  double extreme = 0.02;    ///< the dtype's lowest and highest values
  double boundary = 0.5;    ///< chance per case of special elements placed at warp, block and range boundaries
  double invalid = 0.03;    ///< chance per case of an invalid dim list (every backend must raise the same error)
  std::int64_t max_elements = std::int64_t(1) << 21;  ///< largest view (elements) of the rare big cases
};

/// The cases' random numbers: a fixed algorithm, so the same seed gives the same cases
/// everywhere.
using rng = argx::detail::splitmix64;

/// Case number `index` of the run with `seed`.
fuzz_case generate_case(std::uint64_t seed, std::uint64_t index, const fuzz_rates& rates);

}  // namespace argx::cli
