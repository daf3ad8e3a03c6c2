// What GPUs this process can see (empty without CUDA or without a GPU).
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstdint>
#include <string>
#include <vector>

#include "tensor_view.hpp"

namespace argx {

/// One CUDA device as argx sees it.
struct gpu_info {
  int ordinal = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  std::uint64_t memory_bytes = 0;
  /// argx was built for this GPU's architecture (machine code for it, or PTX it can
  /// compile; see cuda_archs()). When false, argx::cuda raises backend_unavailable there.
  bool supported = false;
};

/// The GPUs present here; empty when argx was built without CUDA or no GPU is present.
ARGX_API std::vector<gpu_info> gpus();

/// True when argx was compiled with the CUDA backend (whether or not a GPU is present).
ARGX_API bool built_with_cuda() noexcept;

/// The GPU architectures argx's kernels were built for, as nvcc names them
/// ("sm_75 sm_80 sm_90 compute_90": machine code, then PTX); "" without CUDA.
ARGX_API const char* cuda_archs() noexcept;

/// Where `ptr` points, as the CUDA driver reports it: device for device allocations; host
/// for everything the CPU can read (host, pinned and managed memory, memory CUDA does not
/// know), and always host without CUDA. Creates no CUDA context.
ARGX_API memory_space locate(const void* ptr) noexcept;

/// The instruction set the tbb backend's SIMD kernels use on this CPU ("AVX2", "AVX3",
/// "NEON", ...); "plain" when argx was built without SIMD kernels; "" without oneTBB.
ARGX_API const char* cpu_simd_target() noexcept;

}  // namespace argx
