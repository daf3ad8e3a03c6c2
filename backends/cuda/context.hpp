// What the CUDA driver can say without creating a context: whether GPUs are present and
// whether any context exists. A CPU-only call must not create a context (hundreds of
// milliseconds and hundreds of MiB of GPU memory), yet must refuse device pointers.
#pragma once

namespace argx::detail::gpu {

/// At least one CUDA device is visible (cudaGetDeviceCount, read once; creates no context).
bool devices_present() noexcept;

/// A CUDA context exists in this process: a device's primary context is active, or the
/// calling thread has a current context. Without one no device memory can exist, so
/// pointers need no classification. Asked through driver entry points (no link to libcuda).
bool context_exists() noexcept;

}  // namespace argx::detail::gpu
