// Kernels for the signed dtypes (one translation unit per dtype family keeps builds parallel).
#include "kernels.cuh"

namespace argx::detail::gpu {

#define ARGX_ENQUEUE(D)                                                                                        \
  template void fill_residency<dtype::D>(tuning&);                                                              \
  template void enqueue<dtype::D>(const launch_config&, const plan&, const device_outputs&, const workspace_ptrs&, \
                                  cudaStream_t);
ARGX_ENQUEUE(i8)
ARGX_ENQUEUE(i16)
ARGX_ENQUEUE(i32)
ARGX_ENQUEUE(i64)
#undef ARGX_ENQUEUE

}  // namespace argx::detail::gpu
