// Where answers go: a winner (key, traversal index) becomes the reported index and value
// of its outputs; and how the pieces of a slice that was split across blocks meet, in one
// launch: each piece leaves its candidate, and the last piece to arrive combines them.
// Below the work-item loops (run_items, column_items, element_items), which call it.
#pragma once

#include <cstdint>

#include <argx/detail/answer.hpp>
#include <argx/device/block_argmax.cuh>
#include <argx/order.hpp>

#include "kernel_types.hpp"
#include "layout.hpp"

namespace argx::detail::gpu {

/// The index reported for winner c: c.pos is a traversal index, or with Reported a
/// position as reported (unordered walks).
template <dtype D, bool Reported = false>
__device__ __forceinline__ std::int64_t answer_index(const layout& l, candidate<dtype_key_t<D>> c) {
  using K = dtype_key_t<D>;
  return reported_index(candidate<K>{c.key, Reported ? c.pos : l.position_of(c.pos)}, l.keys, dtype_traits<D>::is_float);
}

/// Writes index and value (when asked for) to every output the layout maps compact output
/// o to: its first, and one for each index of the broadcast kept axes.
template <dtype D>
__device__ __forceinline__ void store_found(const layout& l, const device_outputs& out, std::int64_t o,
                                            std::int64_t index, dtype_bits_t<D> value) {
  const std::int64_t first = l.output_of(o), copies = l.reps.count();
  ARGX_AXIS_LOOP
  for (std::int64_t r = 0; r < copies; ++r) {
    std::int64_t at = first;
    if (r > 0) {
      std::int64_t ignored, w;
      l.reps.locate(r, ignored, w);
      at += w;
    }
    store_index(out.indices, l.index, at, index);
    if (out.values) store_value(out.values, at, value);
  }
}

/// Writes the answer of compact output o: winner c of the slice that starts at `slice`, to
/// every output the layout maps o to. c.pos as for answer_index.
template <dtype D, bool Reported = false>
__device__ __forceinline__ void store_answer(const layout& l, const device_outputs& out, std::int64_t o,
                                             const dtype_bits_t<D>* slice, candidate<dtype_key_t<D>> c) {
  dtype_bits_t<D> value = 0;
  if (out.values) value = slice[Reported ? l.offset_of_position(c.pos) : l.element_offset(c.pos)];
  store_found<D>(l, out, o, answer_index<D, Reported>(l, c), value);
}

// ---- pieces of a slice meeting -------------------------------------------------------------

/// Called by every thread of a block after the block left its candidates (a partial, or
/// atomic maxima): true in every thread of the last block of `expected` to arrive at
/// `counter`. That block sees every candidate the others left; the counter is back at zero
/// for the next launch.
__device__ inline bool arrive_last(unsigned* counter, unsigned expected, bool& flag) {
  __syncthreads();  // every thread of the block has left what it writes
  if (threadIdx.x == 0) {
    // After the barrier, so the fence orders every thread's candidates (fences are cumulative
    // over what the barrier made thread 0 observe) before the count, device-wide.
    __threadfence();
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

/// Shared memory of a block that folds its candidates and may meet the other pieces of
/// its slice: the block-wide fold's, and the arrival flag.
template <class K>
struct block_meeting {
  typename device::block_argmax<K, std::int64_t>::storage fold;
  bool last;
};

/// After a block folded its candidate c of piece `item` of output o's slice (item =
/// o * splits + piece; c the same in every thread): with one split, c is the answer; with
/// several, the block leaves c as its partial, and the last block of the slice to arrive
/// folds every partial from `none` into c. True in the block whose c is then the answer.
template <class K>
__device__ __forceinline__ bool pieces_meet(candidate<K>& c, const workspace_ptrs& ws, std::int64_t o,
                                            std::int64_t splits, std::int64_t item, candidate<K> none,
                                            bool ties_last, block_meeting<K>& meet) {
  if (splits == 1) return true;
  auto* parts = static_cast<partial<K>*>(ws.partials);
  if (threadIdx.x == 0) store_partial(parts, item, c);
  if (!arrive_last(ws.counters + o, static_cast<unsigned>(splits), meet.last)) return false;
  c = none;
  for (std::int64_t i = threadIdx.x; i < splits; i += blockDim.x)
    c = combine(c, load_partial(parts, o * splits + i), ties_last);
  c = device::block_argmax<K, std::int64_t>(meet.fold).reduce(c, ties_last);
  return true;
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
