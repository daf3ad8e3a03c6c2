// What the GPU benchmarks share: the bandwidth-ceiling kernel, an empty kernel, a fill
// kernel and a CUDA-events timer. Header-only, for the benchmark programs in this folder.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

namespace argx_bench {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

/// The ceiling: reads n16 16-byte words once and writes w16 16-byte words, as a reduction
/// that reads its input and writes its outputs must. The XOR of what was read decides a
/// store nobody expects, so the loads cannot be dropped.
__global__ void move_ceiling(const uint4* __restrict__ p, std::size_t n16, uint4* __restrict__ w, std::size_t w16,
                             unsigned* sink) {
  uint4 acc = {0, 0, 0, 0};
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t first = i;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = __ldg(p + i + u * stride);
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      acc.x ^= v[u].x;
      acc.y ^= v[u].y;
      acc.z ^= v[u].z;
      acc.w ^= v[u].w;
    }
  }
  for (; i < n16; i += stride) {
    const uint4 v = __ldg(p + i);
    acc.x ^= v.x;
    acc.y ^= v.y;
    acc.z ^= v.z;
    acc.w ^= v.w;
  }
  for (std::size_t j = first; j < w16; j += stride) w[j] = uint4{static_cast<unsigned>(j), 0, 0, 0};
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9E3779B9u) *sink = acc.x;
}

__global__ void empty_kernel() {}

/// Keeps one thread busy for about `ns` nanoseconds: work queued behind it starts only
/// when it ends, so the host's part of a call is hidden (timer::queued_ms).
__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < ns);
}

__device__ inline std::uint32_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

/// Uniform floats in [-1, 1) (24 random bits), as float32 or as bfloat16 (the top half).
__global__ void fill_floats(void* p, std::size_t n, bool bf16, std::uint64_t seed) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float f = static_cast<float>(static_cast<int>(mix(i + seed) >> 8) - (1 << 23)) * (1.0f / (1 << 23));
    std::uint32_t b;
    memcpy(&b, &f, 4);
    if (bf16)
      static_cast<std::uint16_t*>(p)[i] = static_cast<std::uint16_t>(b >> 16);
    else
      static_cast<float*>(p)[i] = f;
  }
}

/// Random 32-bit words (any dtype's bits: NaNs, infinities and all).
__global__ void fill_bits(std::uint32_t* p, std::size_t words, std::uint64_t seed) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    p[i] = mix(i * 0x9E3779B97F4A7C15ull + seed);
}

/// Median milliseconds of an operation, CUDA events around each call (so host overhead
/// counts), after warm-up; at least 10 runs, then until `budget_s` or `max_reps`.
struct timer {
  cudaStream_t stream = nullptr;
  cudaEvent_t a = nullptr, b = nullptr;
  double budget_s = 1.0;
  int max_reps = 200;

  void create(cudaStream_t s) {
    stream = s;
    check(cudaEventCreate(&a), "event");
    check(cudaEventCreate(&b), "event");
  }
  double median_ms(const std::function<void()>& op, int warmup = 5) {
    for (int i = 0; i < warmup; ++i) op();
    check(cudaStreamSynchronize(stream), "warm-up");
    std::vector<float> ms;
    const auto start = std::chrono::steady_clock::now();
    while (static_cast<int>(ms.size()) < max_reps) {
      check(cudaEventRecord(a, stream), "event");
      op();
      check(cudaEventRecord(b, stream), "event");
      check(cudaEventSynchronize(b), "event sync");
      float t = 0;
      check(cudaEventElapsedTime(&t, a, b), "elapsed");
      ms.push_back(t);
      const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (ms.size() >= 10 && spent > budget_s) break;
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }

  /// What a call costs the GPU and the host apart, medians over `reps`: the events around
  /// it are queued behind a 100 us spin, so the call's host work is done before its GPU
  /// work may start (gpu_ms: the GPU's time from the call's first work to its last), and
  /// host_us is the wall time the call took to return.
  struct split_cost {
    double gpu_ms = 0, host_us = 0;
  };
  split_cost queued(const std::function<void()>& op, int reps = 30) {
    for (int i = 0; i < 5; ++i) op();
    check(cudaStreamSynchronize(stream), "warm-up");
    std::vector<float> ms;
    std::vector<double> us;
    for (int i = 0; i < reps; ++i) {
      spin_kernel<<<1, 1, 0, stream>>>(100000);
      check(cudaEventRecord(a, stream), "event");
      const auto t0 = std::chrono::steady_clock::now();
      op();
      us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
      check(cudaEventRecord(b, stream), "event");
      check(cudaEventSynchronize(b), "event sync");
      float t = 0;
      check(cudaEventElapsedTime(&t, a, b), "elapsed");
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    std::sort(us.begin(), us.end());
    return {ms[ms.size() / 2], us[us.size() / 2]};
  }
};

}  // namespace argx_bench
