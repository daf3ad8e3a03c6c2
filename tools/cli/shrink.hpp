// Shrinking a failing case: drop view transforms, reset options, cut the base array and
// zero its elements, keeping each step only while the case still fails.
#pragma once

#include <functional>

#include "fuzz_case.hpp"

namespace argx::cli {

struct shrink_stats {
  int checks = 0;     ///< candidate cases tried
  int accepted = 0;   ///< steps that kept the failure
};

/// Shrinks `c` while `fails` holds, within `max_checks` candidates and `max_seconds`.
fuzz_case shrink(fuzz_case c, const std::function<bool(const fuzz_case&)>& fails, shrink_stats& stats,
                 int max_checks = 400, double max_seconds = 30);

}  // namespace argx::cli
