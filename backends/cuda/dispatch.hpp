// The cuda backend's launch choice for a plan, as run_cuda makes it. Not installed: for
// tests/cuda (which kernel path each case takes) and bench/cuda/gpu_sweep (the launch
// printed beside each case).
#pragma once

#include <argx/detail/plan.hpp>

#include "launch.hpp"

namespace argx::detail::gpu {

/// The launch run_cuda would use for plan `p` (device data) on the current device.
launch_config launch_for(const plan& p);

/// Benchmarks: while an instance lives, every launch this thread's calls choose is passed
/// through `rewrite`, with the residency and device it was chosen for (to time other
/// launches of the same calls). Not for tests of results: the rewrite must return a launch
/// the layout's kernels accept.
class launch_rewritten {
 public:
  using function = launch_config (*)(const layout&, const launch_config&, const residency&, const device_limits&);
  explicit launch_rewritten(function rewrite);
  ~launch_rewritten();
  launch_rewritten(const launch_rewritten&) = delete;
  launch_rewritten& operator=(const launch_rewritten&) = delete;
};

}  // namespace argx::detail::gpu
