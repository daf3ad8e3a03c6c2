// Running one reduction on one backend into guarded caller-owned buffers (detail::run_guarded),
// timed, and comparing what two backends did: the same error code, or the same index and
// value bits, and no write outside the outputs (nor into them when the call fails).
#pragma once

#include <string>
#include <vector>

#include <argx/argx.hpp>
#include <argx/detail/guarded_run.hpp>

namespace argx::cli {

/// One reduction to run.
struct job {
  argx::op op = argx::op::argmax;
  tensor_view x;
  argx::spec spec{};
  bool values = true;  ///< also ask for the winning elements
};

/// What one backend did with a job, and how long it took.
struct outcome : detail::guarded_outcome {
  argx::backend backend = argx::backend::seq;
  std::vector<double> times_ms;  ///< one per timed run
};

/// Runs `j` on `b`: one checked run, then `repeat` more timed runs when repeat > 0 (the
/// checked run is then the warm-up). With repeat == 0 the checked run is timed.
outcome run(argx::backend b, const job& j, int repeat = 0);

/// How `got` differs from the reference `ref` (empty when identical).
std::string first_difference(const job& j, const outcome& ref, const outcome& got);

/// "error bad_dim: message" or "ok".
std::string summary(const outcome& o);

/// Median and minimum of a list of times.
double median(std::vector<double> v);
double minimum(const std::vector<double>& v);

/// Indices of an outcome as int64 (whatever the index type).
std::vector<std::int64_t> indices_of(const job& j, const outcome& o);

}  // namespace argx::cli
