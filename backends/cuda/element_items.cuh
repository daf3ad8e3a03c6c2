// Work-item level of the element kernels (vector_axis::none: no axis has unit stride): a
// team of lanes per slice, or a block per piece of one, walking positions with the thread
// level (general_scan.cuh), then agreeing by shuffles or the block building block and
// storing, or meeting the slice's other pieces (store.cuh). The __global__ entries are in
// kernels.cuh.
#pragma once

#include <cstdint>

#include <argx/device/block_argmax.cuh>

#include "general_scan.cuh"
#include "store.cuh"
#include "teams.cuh"

namespace argx::detail::gpu {

/// A team of 2^team_log2 lanes a slice (slices of fewer than 2^31 positions).
template <dtype D>
__device__ __forceinline__ void element_team_items(const layout& l, const device_outputs& out, int team_log2) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  const team_grid g = team_grid::of(team_log2);
  const int team = g.team, team_lane = g.team_lane;
  const int reduce = static_cast<int>(l.reduce);
  const B* base = static_cast<const B*>(l.data);
  for (std::int64_t first = g.warp * g.teams_per_warp; first < l.outputs; first += g.warps * g.teams_per_warp) {
    const std::int64_t o = first + g.team_in_warp;
    auto best = position_best<K, int>::seeded(reduce, l.ties_last);
    const B* slice = base;
    if (o < l.outputs) {
      slice = base + l.slice_offset(o);
      scan_elements<D, int>(l, slice, 0, reduce, team_lane, team, best);
    }
    device::warp_reduce_groups(best.key, best.pos, team, l.ties_last);
    if (o < l.outputs && team_lane == 0) store_answer<D>(l, out, o, slice, candidate<K>{best.key, best.pos});
  }
}

/// A block per (slice, split): positions [s * chunk, (s + 1) * chunk) of the slice each.
template <dtype D>
__device__ __forceinline__ void element_block_items(const layout& l, const device_outputs& out,
                                                    const workspace_ptrs& ws, std::int64_t splits, std::int64_t chunk,
                                                    block_meeting<dtype_key_t<D>>& meet) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  const B* base = static_cast<const B*>(l.data);
  const std::int64_t items = l.outputs * splits;
  for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
    const std::int64_t o = item / splits, s = item - o * splits;
    const std::int64_t begin = s * chunk, end = begin + chunk < l.reduce ? begin + chunk : l.reduce;
    const B* slice = base + l.slice_offset(o);
    auto best = position_best<K, std::int64_t>::seeded(l.reduce, l.ties_last);
    scan_elements<D, std::int64_t>(l, slice, begin, end, threadIdx.x, blockDim.x, best);
    candidate<K> c{best.key, best.pos};
    c = device::block_argmax<K, std::int64_t>(meet.fold).reduce(c, l.ties_last);
    if (pieces_meet(c, ws, o, splits, item, seed<K>(l.reduce, l.ties_last), l.ties_last, meet) && threadIdx.x == 0)
      store_answer<D>(l, out, o, slice, c);
  }
}

}  // namespace argx::detail::gpu
