// Compiler glue shared by every argx header: marks functions usable on host and device.
#pragma once

#if defined(__CUDACC__)
#define ARGX_HOST_DEVICE __host__ __device__
#else
#define ARGX_HOST_DEVICE
#endif

namespace argx {
/// Highest tensor rank argx accepts (inputs and outputs).
inline constexpr int max_rank = 16;
}  // namespace argx
