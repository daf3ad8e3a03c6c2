// What GPUs this process can see (empty without CUDA or without a GPU).
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstdint>
#include <string>
#include <vector>

namespace argx {

/// One CUDA device as argx sees it.
struct gpu_info {
  int ordinal = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  std::uint64_t memory_bytes = 0;
};

/// The GPUs usable here; empty when argx was built without CUDA or no GPU is present.
std::vector<gpu_info> gpus();

/// True when argx was compiled with the CUDA backend (whether or not a GPU is present).
bool built_with_cuda() noexcept;

/// The instruction set the tbb backend's SIMD kernels use on this CPU ("AVX2", "AVX3",
/// "NEON", ...); "plain" when argx was built without SIMD kernels; "" without oneTBB.
const char* cpu_simd_target() noexcept;

}  // namespace argx
