// One empty kernel, built for the same architectures as every other kernel of argx: if
// the driver can load it for a device, it can load them all.
#include <cuda_runtime_api.h>

namespace argx::detail::gpu {

__global__ void kernel_image_probe() {}

int probe_kernel_image() noexcept {
  cudaFuncAttributes a{};
  const cudaError_t e = cudaFuncGetAttributes(&a, kernel_image_probe);
  cudaGetLastError();
  return static_cast<int>(e);
}

}  // namespace argx::detail::gpu
