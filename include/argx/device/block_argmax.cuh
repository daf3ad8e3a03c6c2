// Block-level argmax / argmin on (key, position) pairs, in argx's exact order.
//
// CUDA-only, opt-in header. Each warp folds its lanes (warp_argmax.cuh), one lane per warp
// publishes to shared memory, and every warp folds those partials, so every thread of the
// block ends with the block's winner. Works for any block size that is a multiple of 32,
// up to 1024 threads.
//
//   __global__ void k(const float* x, long long n, long long* index) {
//     __shared__ argx::device::block_argmax<std::uint32_t>::storage tmp;
//     auto best = argx::device::slice_seed<float>(n);           // this thread's accumulator
//     for (long long i = threadIdx.x; i < n; i += blockDim.x)
//       best = argx::combine(best, argx::device::make_candidate(x[i], i), false);
//     best = argx::device::block_argmax<std::uint32_t>(tmp).reduce(best);
//     if (threadIdx.x == 0) *index = best.pos;
//   }
#pragma once

#include "warp_argmax.cuh"

namespace argx::device {

/// Block-wide fold of one candidate per thread. K is the key type (key_of_t<T>), P the
/// position type. Every thread of the block must call reduce(); it contains
/// __syncthreads(), and the storage may be reused right after it returns.
template <class K, class P = std::int64_t>
class block_argmax {
 public:
  /// Shared memory the fold needs; declare it __shared__ (one per concurrent use).
  struct storage {
    K key[32];
    P pos[32];
  };

  __device__ explicit block_argmax(storage& s) : s_(s) {}

  /// The block's winner, returned to every thread.
  __device__ void reduce(K& key, P& pos, bool ties_last = false) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int warps = (blockDim.x + 31) >> 5;
    warp_reduce<32>(key, pos, ties_last);
    if (lane == 0) {
      s_.key[warp] = key;
      s_.pos[warp] = pos;
    }
    __syncthreads();
    // Every warp folds the partials itself, so no second broadcast is needed.
    key = s_.key[lane < warps ? lane : 0];
    pos = s_.pos[lane < warps ? lane : 0];
    warp_reduce<32>(key, pos, ties_last);
    __syncthreads();  // the storage is free again
  }

  __device__ candidate<K> reduce(candidate<K> c, bool ties_last = false) {
    P pos = static_cast<P>(c.pos);
    reduce(c.key, pos, ties_last);
    return candidate<K>{c.key, static_cast<std::int64_t>(pos)};
  }

 private:
  storage& s_;
};

/// Shared memory for block_argmax_value / block_argmin_value; declare it __shared__.
template <class T>
struct block_value_storage {
  key_of_t<T> key[32];
  std::int64_t pos[32];
  T value[32];
  bool found[32];
};

/// Block-wide argmax over one optional element per thread, carrying the winning value to
/// every thread. Threads with no element pass has_value = false; the result's found is
/// false only if no thread had one. Contains __syncthreads(); every thread must call it.
template <class T>
__device__ inline located<T> block_argmax_value(T value, std::int64_t pos, bool has_value,
                                                block_value_storage<T>& s, key_params p = {},
                                                bool ties_last = false) {
  located<T> x = warp_argmax<32>(value, pos, has_value, p, ties_last);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int warps = (blockDim.x + 31) >> 5;
  if (lane == 0) {
    s.key[warp] = x.key;
    s.pos[warp] = x.pos;
    s.value[warp] = x.value;
    s.found[warp] = x.found;
  }
  __syncthreads();
  const int w = lane < warps ? lane : 0;
  located<T> y{s.value[w], s.pos[w], s.key[w], s.found[w]};
  y = warp_reduce_located<32>(y, ties_last);
  __syncthreads();
  return y;
}

/// block_argmax_value with the smallest element winning.
template <class T>
__device__ inline located<T> block_argmin_value(T value, std::int64_t pos, bool has_value,
                                                block_value_storage<T>& s, key_params p = {},
                                                bool ties_last = false) {
  p.argmin = true;
  return block_argmax_value(value, pos, has_value, s, p, ties_last);
}

}  // namespace argx::device
