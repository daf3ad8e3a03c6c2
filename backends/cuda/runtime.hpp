// CUDA runtime glue shared by the cuda and thrust backends: error mapping, device facts,
// device memory and pinned staging of host memory.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "kernel_types.hpp"
#include "launch.hpp"

namespace argx::detail::gpu {

/// Throws argx::error when `e` is not cudaSuccess: out_of_memory for allocation failures,
/// cuda_failure otherwise, with CUDA's error text. `what` names the failed step.
void check(cudaError_t e, const char* what);

/// Facts about one device, read once.
struct device_info {
  int ordinal = 0;
  device_limits limits;
};
const device_info& device(int ordinal);

/// What the driver says a pointer is.
struct pointer_info {
  cudaMemoryType type = cudaMemoryTypeUnregistered;  ///< Device, Managed, Host (pinned) or Unregistered
  int device = -1;                                   ///< the owning device, for device memory
  bool device_readable() const noexcept { return type == cudaMemoryTypeDevice || type == cudaMemoryTypeManaged; }
};
pointer_info inspect(const void* ptr);

/// Device memory ordered on `stream` (cudaMallocAsync; plain cudaMalloc where the device
/// has no memory pools). Throws out_of_memory / cuda_failure.
void* device_alloc(std::size_t bytes, cudaStream_t stream, const char* what);
/// Frees device_alloc memory after the work queued on `stream` so far. Never throws.
void device_free(void* ptr, cudaStream_t stream) noexcept;
/// Whether `device` has stream-ordered memory pools (cudaMallocAsync).
bool pools_supported(int device);

/// Copies host memory to device memory on `stream`. Pageable memory goes through pinned
/// staging buffers in chunks (the copy of one chunk overlaps the staging of the next);
/// pinned memory is copied directly. Returns once `src` has been read into pinned memory
/// or queued; the caller synchronizes `stream` before giving control back to its caller.
void copy_host_to_device(void* dst, const void* src, std::size_t bytes, bool src_pinned, cudaStream_t stream,
                         int device);

}  // namespace argx::detail::gpu
