// The GPU architectures argx's kernels were built for (the gpu_archs option, passed in by
// backends/cuda/meson.build), and whether a device can run them.
#pragma once

#include <string>

namespace argx::detail {

/// The cuda and thrust backends' usable() and unusable_reason(): a GPU is present and argx
/// has kernels the current GPU can run; else why not (no GPU, or its architecture and the
/// gpu_archs value to add).
bool cuda_usable() noexcept;
std::string cuda_unavailable_reason();

}  // namespace argx::detail

namespace argx::detail::gpu {

/// The kernels' architectures as nvcc names them: "sm_75 sm_80 sm_90 compute_90".
const std::string& built_archs();

/// Whether machine code or PTX built into argx can run on compute capability major.minor
/// (nvcc's rules: sm_XY runs on X.Y' with Y' >= Y, sm_XYa only on X.Y; PTX compute_XY is
/// compiled by the driver for any X.Y' >= X.Y). A prediction: the driver has the last word.
bool archs_cover(int major, int minor);

/// "" when `device` can run argx's kernels, else why not (compute capability, what was
/// built, the gpu_archs value to add). Asked once a device (loads argx's kernels: creates
/// the device's context).
const std::string& kernel_image_problem(int device);

/// Throws backend_unavailable with kernel_image_problem(device) when it is not "".
void require_kernel_image(int device, const char* backend);

/// Probes one kernel of argx on the current device (kernel_image.cu): cudaSuccess, or
/// why the driver cannot run it (no kernel image, PTX too new for the driver, ...).
int probe_kernel_image() noexcept;

}  // namespace argx::detail::gpu
