// Thread level of the element kernels (vector_axis::none: no axis has unit stride): a
// thread visits positions of a slice one element at a time, an odometer over the reduced
// axes keeping the element's offset.
#pragma once

#include <cstdint>

#include "elements.cuh"
#include "layout.hpp"

namespace argx::detail::gpu {

/// A thread's best over positions it visits in ascending order: an equal key replaces the
/// best only with ties = last.
template <class K, class P>
struct position_best {
  K key;
  P pos;

  __device__ static position_best seeded(std::int64_t count, bool ties_last) {
    return {K(0), static_cast<P>(ties_last ? count - 1 : 0)};
  }
  __device__ __forceinline__ void take(K k, P p, bool ties_last) {
    const bool b = later_beats(k, key, ties_last);
    key = b ? k : key;
    pos = b ? p : pos;
  }
};

/// The element offset of a traversal index, kept up to date as the index advances.
struct odometer {
  std::int64_t idx[max_rank];
  std::int64_t off;

  __device__ void start(const axis_list& a, std::int64_t t) {
    off = 0;
    if (a.small) {
      std::uint32_t j = static_cast<std::uint32_t>(t);
      ARGX_AXIS_LOOP
      for (int d = a.n - 1; d >= 0; --d) {
        idx[d] = a.at[d].take_index(j);
        off += idx[d] * a.at[d].stride;
      }
      return;
    }
    ARGX_AXIS_LOOP
    for (int d = a.n - 1; d >= 0; --d) {
      idx[d] = t % a.at[d].extent;
      t /= a.at[d].extent;
      off += idx[d] * a.at[d].stride;
    }
  }
  /// Moves `step` positions on (the result must stay inside the slice).
  __device__ void advance(const axis_list& a, std::int64_t step) {
    int d = a.n - 1;
    idx[d] += step;
    off += step * a.at[d].stride;
    while (idx[d] >= a.at[d].extent) {  // carry into the next axis out
      const std::int64_t carry = idx[d] / a.at[d].extent;
      idx[d] -= carry * a.at[d].extent;
      off -= carry * a.at[d].extent * a.at[d].stride;
      --d;
      idx[d] += carry;
      off += carry * a.at[d].stride;
    }
  }
};

/// Visits traversal positions begin + team_lane, begin + team_lane + team, ... < end of a
/// slice (`slice` points at position 0).
template <dtype D, class P>
__device__ void scan_elements(const layout& l, const dtype_bits_t<D>* slice, P begin, P end, int team_lane, int team,
                              position_best<dtype_key_t<D>, P>& best) {
  P i = begin + team_lane;
  if (i >= end) return;
  odometer od;
  od.start(l.red, i);
  for (;;) {
    best.take(order_key<D>(__ldg(slice + od.off), l.keys), i, l.ties_last);
    if (end - i <= team) break;
    i += team;
    od.advance(l.red, team);
  }
}

}  // namespace argx::detail::gpu
