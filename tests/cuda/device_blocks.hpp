// Host entry points of the test kernels in device_blocks.cu (compiled by nvcc), for the
// doctest cases in device_blocks_test.cpp and memory_test.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include <argx/order.hpp>

namespace argx_gpu_test {

/// One lane's (or thread's) answer from a building block.
struct folded {
  std::uint64_t key;
  std::int64_t pos;
  std::uint64_t value_bits;  ///< value-carrying helpers only
  bool found;                ///< value-carrying helpers only
};

/// warp_reduce<Width> over `bits` (32 per warp, several warps) of dtype D, lane i holding
/// position positions[i]; returns every lane's result.
template <argx::dtype D>
std::vector<folded> run_warp_reduce(const std::vector<std::uint64_t>& bits, const std::vector<std::int64_t>& positions,
                                    int width, argx::key_params kp, bool ties_last);

/// warp_argmax (value-carrying) over one warp; lanes with has[i] == 0 hold no element.
template <argx::dtype D>
std::vector<folded> run_warp_value(const std::vector<std::uint64_t>& bits, const std::vector<std::int64_t>& positions,
                                   const std::vector<std::uint8_t>& has, argx::key_params kp, bool ties_last);

/// block_argmax over n elements (thread t folds t, t + threads, ...), positions 0..n-1;
/// returns every thread's result.
template <argx::dtype D>
std::vector<folded> run_block_reduce(const std::vector<std::uint64_t>& bits, int threads, argx::key_params kp,
                                     bool ties_last);

/// block_argmax_value over one element per thread (has[t] == 0: none), positions given.
template <argx::dtype D>
std::vector<folded> run_block_value(const std::vector<std::uint64_t>& bits, const std::vector<std::int64_t>& positions,
                                    const std::vector<std::uint8_t>& has, argx::key_params kp, bool ties_last);

/// Queues a kernel that keeps the GPU busy for about `ms` milliseconds on `stream`.
void spin(void* stream, int ms);

}  // namespace argx_gpu_test
