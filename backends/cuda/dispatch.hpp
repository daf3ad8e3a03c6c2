// The cuda backend's launch choice for a plan, as run_cuda makes it. Not installed: for
// tests/cuda (which kernel path each case takes) and bench/cuda/gpu_sweep (the launch
// printed beside each case).
#pragma once

#include <argx/detail/plan.hpp>

#include "launch.hpp"

namespace argx::detail::gpu {

/// The launch run_cuda would use for plan `p` (device data) on the current device.
launch_config launch_for(const plan& p);

}  // namespace argx::detail::gpu
