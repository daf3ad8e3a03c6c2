// The kernels' host-side entry, as the dispatch layer sees it (plain C++).
#pragma once

#include <cuda_runtime_api.h>

#include "launch.hpp"

namespace argx::detail::gpu {

/// Queues the kernel `c` describes for plan `p` (device data) on `stream`. Defined in
/// kernels.cuh and instantiated once per dtype (kernels_*.cu). Launch errors are left for
/// cudaGetLastError.
/// Sets t's blocks_per_multiprocessor to what the current device keeps resident of each
/// kernel family for dtype D at t's thread counts.
template <dtype D>
void fill_residency(tuning& t);

template <dtype D>
void enqueue(const launch_config& c, const plan& p, const device_outputs& out, const workspace_ptrs& ws,
             cudaStream_t stream);

}  // namespace argx::detail::gpu
