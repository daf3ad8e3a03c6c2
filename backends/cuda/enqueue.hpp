// The kernels' host-side entry, as the dispatch layer sees it (plain C++): defined in
// enqueue.cuh and instantiated once per dtype (kernels/<dtype>.cu).
#pragma once

#include <cuda_runtime_api.h>

#include "kernel_types.hpp"
#include "launch.hpp"

namespace argx::detail::gpu {

/// The blocks of each kernel family a multiprocessor of the current device keeps resident,
/// as compiled for dtype D.
template <dtype D>
void fill_residency(residency& r);

/// Queues the kernel `c` names for layout `l` (device data) on `stream`. Launch errors are
/// left for cudaGetLastError.
template <dtype D>
void enqueue(const launch_config& c, const layout& l, const device_outputs& out, const workspace_ptrs& ws,
             cudaStream_t stream);

}  // namespace argx::detail::gpu
