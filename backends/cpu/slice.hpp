// Scalar building blocks shared by the CPU backends: reduce a range of positions of one
// slice with the shared order, and store a winner into the outputs.
#pragma once

#include <cstdint>
#include <cstring>

#include <argx/detail/answer.hpp>
#include <argx/order.hpp>
#include <argx/detail/plan.hpp>

#include "../common/backend.hpp"

namespace argx::detail::cpu {

/// Raw bits of the element `offset` elements from `base` (offset may be negative).
template <dtype D>
inline dtype_bits_t<D> load_bits(const void* base, std::int64_t offset) {
  dtype_bits_t<D> b;
  std::memcpy(&b, static_cast<const char*>(base) + offset * static_cast<std::int64_t>(sizeof(dtype_bits_t<D>)), sizeof(b));
  return b;
}

/// Calls f(pos, offset, run) for the positions [first, last) of a slice, in order, a run
/// along the innermost reduced dim at a time: positions pos..pos+run-1 lie at `offset`,
/// offset + s, ... (s its stride) elements from the slice start. An odometer over the
/// reduced dims (any rank, any strides).
template <class F>
inline void for_each_run(const plan& p, std::int64_t first, std::int64_t last, F&& f) {
  const int rank = p.reduced_extents.size();
  std::int64_t idx[max_rank];
  std::int64_t rest = first, off = 0;
  for (int d = rank - 1; d >= 0; --d) {
    idx[d] = rest % p.reduced_extents[d];
    rest /= p.reduced_extents[d];
    off += idx[d] * p.reduced_strides[d];
  }
  const std::int64_t inner_n = p.reduced_extents[rank - 1], inner_s = p.reduced_strides[rank - 1];
  std::int64_t pos = first;
  while (pos < last) {
    // Run along the innermost reduced dim, then carry into the outer ones.
    std::int64_t run = inner_n - idx[rank - 1];
    if (run > last - pos) run = last - pos;
    f(pos, off, run);
    pos += run;
    off += run * inner_s;
    idx[rank - 1] += run;
    for (int d = rank - 1; d > 0 && idx[d] == p.reduced_extents[d]; --d) {
      off -= idx[d] * p.reduced_strides[d];
      idx[d] = 0;
      ++idx[d - 1];
      off += p.reduced_strides[d - 1];
    }
  }
}

/// Calls f(pos, offset) for the positions [first, last) of a slice, in order, with each
/// position's offset in elements from the slice start.
template <class F>
inline void for_each_position(const plan& p, std::int64_t first, std::int64_t last, F&& f) {
  const std::int64_t inner_s = p.reduced_strides[p.reduced_extents.size() - 1];
  for_each_run(p, first, last, [&](std::int64_t pos, std::int64_t off, std::int64_t run) {
    for (std::int64_t i = 0; i < run; ++i) f(pos + i, off + i * inner_s);
  });
}

/// The candidate of the element at `offset` (elements from plan::data) at position `pos`.
template <dtype D>
inline candidate<dtype_key_t<D>> candidate_at(const plan& p, std::int64_t offset, std::int64_t pos) {
  return {order_key<D>(load_bits<D>(p.data, offset), p.keys), pos};
}

/// Best candidate among positions [first, last) of the slice starting at element offset
/// `start`.
template <dtype D>
candidate<dtype_key_t<D>> reduce_positions(const plan& p, std::int64_t start, std::int64_t first, std::int64_t last) {
  candidate<dtype_key_t<D>> best = seed<dtype_key_t<D>>(p.reduce_size, p.ties_last);
  for_each_position(p, first, last, [&](std::int64_t pos, std::int64_t off) {
    best = combine(best, candidate_at<D>(p, start + off, pos), p.ties_last);
  });
  return best;
}

/// Writes output o: the reported index and, when asked, the winning element's bits.
template <dtype D>
inline void store_winner(const plan& p, const outputs& out, std::int64_t o, std::int64_t slice_start,
                         candidate<dtype_key_t<D>> best) {
  const std::int64_t index = reported_index(best, p.keys, dtype_traits<D>::is_float);
  store_index(out.indices, p.index, o, index);
  if (out.values) store_value(out.values, o, load_bits<D>(p.data, slice_start + reduced_offset(p, best.pos)));
}

}  // namespace argx::detail::cpu
