// Where answers go: a winner (key, traversal index) becomes the reported index and value
// of its outputs; and how the pieces of a slice that was split across blocks meet, in one
// launch: each piece leaves its candidate, and the last piece to arrive combines them.
#pragma once

#include <cstdint>

#include <argx/order.hpp>

#include "kernel_types.hpp"
#include "layout.hpp"

namespace argx::detail::gpu {

/// Writes the answer of compact output o: winner c of the slice that starts at `slice`, to
/// every output the layout maps o to. c.pos is a traversal index, or with Reported a
/// position as reported (unordered walks).
template <dtype D, bool Reported = false>
__device__ __forceinline__ void store_answer(const layout& l, const device_outputs& out, std::int64_t o,
                                             const dtype_bits_t<D>* slice, candidate<dtype_key_t<D>> c) {
  const bool all_nan = is_all_nan_key(c.key, l.keys, dtype_traits<D>::is_float);
  const std::int64_t index = all_nan ? std::int64_t(-1) : Reported ? c.pos : l.position_of(c.pos);
  dtype_bits_t<D> value = 0;
  if (out.values)
    value = slice[Reported ? l.offset_of_position(c.pos) : l.red.n == 1 ? c.pos * l.red.at[0].stride : l.red.offset_of(c.pos)];
  const std::int64_t first = l.output_of(o), copies = l.reps.count();
  ARGX_AXIS_LOOP
  for (std::int64_t r = 0; r < copies; ++r) {
    std::int64_t at = first;
    if (r > 0) {
      std::int64_t ignored, w;
      l.reps.locate(r, ignored, w);
      at += w;
    }
    if (l.index == index_type::int64)
      static_cast<std::int64_t*>(out.indices)[at] = index;
    else
      static_cast<std::int32_t*>(out.indices)[at] = static_cast<std::int32_t>(index);
    if (out.values) static_cast<dtype_bits_t<D>*>(out.values)[at] = value;
  }
}

// ---- pieces of a slice meeting -------------------------------------------------------------

/// Called by every thread of a block after thread 0 left the block's candidate: true in
/// every thread of the last block of `expected` to arrive at `counter`. That block sees
/// every candidate the others left; the counter is back at zero for the next launch.
__device__ inline bool arrive_last(unsigned* counter, unsigned expected, bool& flag) {
  if (threadIdx.x == 0) __threadfence();  // the candidate is visible device-wide before the count
  __syncthreads();
  if (threadIdx.x == 0) {
    const bool last = atomicAdd(counter, 1u) == expected - 1;
    if (last) *counter = 0;  // every other block has already counted
    flag = last;
  }
  __syncthreads();
  const bool last = flag;
  if (last) __threadfence();
  __syncthreads();  // flag may be rewritten by the next arrival
  return last;
}

/// Reads a partial another block wrote (bypassing the non-coherent L1).
template <class K>
__device__ __forceinline__ candidate<K> load_partial(const partial<K>* ps, std::int64_t i) {
  const volatile partial<K>* v = ps + i;
  return candidate<K>{v->key, v->pos};
}

template <class K>
__device__ __forceinline__ void store_partial(partial<K>* ps, std::int64_t i, candidate<K> c) {
  ps[i].key = c.key;
  ps[i].pos = c.pos;
}

/// A candidate of a 32-bit key and a traversal index below 2^32 as one 64-bit word whose
/// unsigned order is the candidates' order: key above, then the position (complemented
/// for ties = first, so that the lower one is larger). Zero is below every candidate.
__device__ __forceinline__ unsigned long long pack_candidate(std::uint32_t key, std::int64_t pos, bool ties_last) {
  const std::uint32_t p = static_cast<std::uint32_t>(pos);
  return (static_cast<unsigned long long>(key) << 32) | (ties_last ? p : ~p);
}
__device__ __forceinline__ candidate<std::uint32_t> unpack_candidate(unsigned long long w, bool ties_last) {
  const std::uint32_t p = static_cast<std::uint32_t>(w);
  return candidate<std::uint32_t>{static_cast<std::uint32_t>(w >> 32), static_cast<std::int64_t>(ties_last ? p : ~p)};
}

}  // namespace argx::detail::gpu
