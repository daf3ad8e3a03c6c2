// The cuda backend's launch choice, for white-box tests and the benchmarks (not installed).
#pragma once

#include <argx/detail/plan.hpp>

#include "launch.hpp"

namespace argx::detail::gpu {

/// The launch run_cuda would use for plan `p` (device data) on the current device.
launch_config launch_for(const plan& p);

}  // namespace argx::detail::gpu
