// Work-item level of the run kernels (vector_axis::run): how a team of lanes or a block
// takes its slices, or pieces of one, in turn, walks them with the thread level
// (run_scan.cuh), agrees on the winner by shuffles or the block building block, and stores
// it or leaves it for the meeting of the pieces (store.cuh). The __global__ entries are in
// kernels.cuh.
#pragma once

#include <cstdint>

#include <argx/device/block_argmax.cuh>

#include "general_scan.cuh"
#include "run_scan.cuh"
#include "store.cuh"
#include "teams.cuh"
#include "tuning.hpp"

namespace argx::detail::gpu {

// ---- windows: slices of one short forward run, in registers ---------------------------------

/// Each team takes window_loads / W slices at a time, all their loads in flight before any
/// is folded. Plain reductions only: their slots fold in the value domain.
template <dtype D, int W, bool Plain>
__device__ __forceinline__ void window_items(const layout& l, const device_outputs& out, int team_log2) {
  using B = dtype_bits_t<D>;
  constexpr int R = tune::compiled_arch::window_loads / W;
  const team_grid g = team_grid::of(team_log2);
  const int team = g.team, team_lane = g.team_lane;
  const std::int64_t len = l.run_axis().extent;
  const B* base = static_cast<const B*>(l.data);
  for (std::int64_t first = R * g.warp * g.teams_per_warp; first < l.outputs; first += R * g.warps * g.teams_per_warp) {
    window_row<D, W, Plain> rows[R];
    std::int64_t o[R];
    const B* slice[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {  // neighbouring teams take neighbouring slices
      o[r] = first + r * g.teams_per_warp + g.team_in_warp;
      const bool ok = o[r] < l.outputs;
      slice[r] = base + (ok ? l.slice_offset(o[r]) : 0);
      rows[r].load(slice[r], len, ok, team_lane, team, l);
    }
#pragma unroll
    for (int r = 0; r < R; ++r) rows[r].fold(team_lane, team, l.keys);
    dtype_key_t<D> team_key[R];
#pragma unroll
    for (int r = 0; r < R; ++r) team_key[r] = rows[r].key;
    for (int step = team / 2; step > 0; step /= 2)
#pragma unroll
      for (int r = 0; r < R; ++r) team_key[r] = team_max_key(team_key[r], step);
#pragma unroll
    for (int r = 0; r < R; ++r) rows[r].locate(team_key[r], team_lane, team, l.keys, l.ties_last);
    for (int step = team / 2; step > 0; step /= 2)
#pragma unroll
      for (int r = 0; r < R; ++r) rows[r].pos = team_pick_pos(rows[r].pos, step, l.ties_last);
#pragma unroll
    for (int r = 0; r < R; ++r)
      if (o[r] < l.outputs && team_lane == 0)
        store_answer<D>(l, out, o[r], slice[r], candidate<dtype_key_t<D>>{rows[r].key, rows[r].pos});
  }
}

// ---- slices of runs: a team of lanes each ------------------------------------------------------

template <dtype D, bool Plain>
__device__ __forceinline__ void run_team_items(const layout& l, const device_outputs& out, int team_log2,
                                               bool stream, std::int64_t slots_per_run) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  const team_grid g = team_grid::of(team_log2);
  const int team = g.team, team_lane = g.team_lane;
  const run_walk w = run_walk::of(l);
  const B* base = static_cast<const B*>(l.data);
  // The loop bound is the same for the whole warp, so every lane reaches the shuffles.
  for (std::int64_t first = g.warp * g.teams_per_warp; first < l.outputs; first += g.warps * g.teams_per_warp) {
    const std::int64_t o = first + g.team_in_warp;
    candidate<K> c = seed<K>(l.reduce, l.ties_last);
    const B* slice = base;
    if (o < l.outputs) {
      slice = base + l.slice_offset(o);
      slot_best<K> best{0, nullptr, 0, l.ties_last};
      scan_runs<D, Plain>(l, w, slice, 0, w.runs, team_lane, team, stream, slots_per_run, l.keys, best);
      c = locate_best<D, Plain>(l, w, slice, best, l.keys);
    }
    device::warp_reduce_groups(c.key, c.pos, team, l.ties_last);
    if (o < l.outputs && team_lane == 0) store_answer<D>(l, out, o, slice, c);
  }
}

// ---- slices of runs: a block per (slice, split) --------------------------------------------------

/// Bounds of the interleaved pieces of a one-run slice (run_block_items): scan_run counts
/// slots and its stride in int.
inline constexpr std::int64_t interleaved_run_max_slots = std::int64_t(1) << 30;
inline constexpr std::int64_t interleaved_run_max_splits = std::int64_t(1) << 18;

/// How a block walk keeps its best. Ordered walks (positions rise with the walk) keep the
/// best slot and find the element at the end, in traversal indices with the layout's tie
/// rule; unordered ones (the unit-stride axis moved last) search each slot that can win and
/// keep reported positions, compared with the caller's tie rule.
template <dtype D, bool Plain>
struct ordered_walk {
  using K = dtype_key_t<D>;
  static constexpr bool reported = false;
  __device__ static bool ties_last(const layout& l) { return l.ties_last; }
  __device__ static candidate<K> none(const layout& l) { return seed<K>(l.reduce, l.ties_last); }
  __device__ static slot_best<K> start(const layout& l, const run_walk&) {
    return slot_best<K>{0, nullptr, 0, l.ties_last};
  }
  __device__ static candidate<K> finish(const layout& l, const run_walk& w, const dtype_bits_t<D>* slice,
                                        const slot_best<K>& b) {
    return locate_best<D, Plain>(l, w, slice, b, l.keys);
  }
};
template <dtype D, bool Plain, bool Dense = false>
struct unordered_walk {
  using K = dtype_key_t<D>;
  static constexpr bool reported = true;
  __device__ static bool ties_last(const layout& l) { return l.view_ties_last; }
  __device__ static candidate<K> none(const layout& l) { return seed<K>(l.view_reduce, l.view_ties_last); }
  __device__ static exact_best<D, Plain, Dense> start(const layout& l, const run_walk& w) {
    return exact_best<D, Plain, Dense>(l, w, l.keys);
  }
  __device__ static candidate<K> finish(const layout&, const run_walk&, const dtype_bits_t<D>*,
                                        const exact_best<D, Plain, Dense>& b) {
    return b.c;
  }
};

/// With one split the block stores the answer; with several, each block leaves a partial
/// and the last of a slice's blocks to finish combines them. Long runs are walked by the
/// whole block one after another, or (Across, ordered walks: runs of a few slots a lane) a
/// piece's slots as one range across its runs; short ones as one stream of slots (Short).
template <dtype D, bool Plain, bool Short, class Walk, bool Across = false>
__device__ __forceinline__ void run_block_items(const layout& l, const device_outputs& out, const workspace_ptrs& ws,
                                                std::int64_t splits, std::int64_t chunk, std::int64_t slots_per_run,
                                                block_meeting<dtype_key_t<D>>& meet) {
  static_assert(!Across || (!Short && !Walk::reported), "walks across runs: ordered walks of long runs");
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  using arch = tune::compiled_arch;
  const run_walk w = run_walk::of(l);
  const B* base = static_cast<const B*>(l.data);
  const bool ties_last = Walk::ties_last(l);
  const std::int64_t items = l.outputs * splits;
  for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
    const std::int64_t o = item / splits, s = item - o * splits;
    const B* slice = base + l.slice_offset(o);
    auto best = Walk::start(l, w);
    if constexpr (Across) {  // slots [k0, k1), one range across the runs
      const std::int64_t all = w.runs * slots_per_run, k0 = s * chunk, k1 = k0 + chunk < all ? k0 + chunk : all;
      scan_slot_range<D, arch::across_unroll, Plain>(l, w, slice, k0, k1, threadIdx.x, blockDim.x, slots_per_run,
                                                     l.keys, best);
    } else if constexpr (!Short) {  // long runs
      const std::int64_t all = w.runs * slots_per_run;
      if (w.runs == 1 && splits > 1 && all <= interleaved_run_max_slots && splits <= interleaved_run_max_splits) {
        // A slice of one run: piece s takes every splits-th stretch of a block's slots, so
        // that its blocks read the run together, front to back (contiguous shares, each
        // block streaming its own, read 5-6% slower: NOTES v6.17).
        scan_run<D, arch::run_unroll, Plain>(run_slots<D>::at(slice, l, w, 0), 0, 0, all,
                                             static_cast<int>(s) * blockDim.x + threadIdx.x,
                                             static_cast<int>(splits) * blockDim.x, l.keys, best);
      } else {  // slots [k0, k1), run after run
        const std::int64_t k0 = s * chunk, k1 = k0 + chunk < all ? k0 + chunk : all;
        for (std::int64_t q = k0 / slots_per_run; q * slots_per_run < k1; ++q) {
          const std::int64_t v0 = k0 > q * slots_per_run ? k0 - q * slots_per_run : 0, v1 = k1 - q * slots_per_run;
          scan_run<D, arch::run_unroll, Plain>(run_slots<D>::at(slice, l, w, q), q, v0, v1, threadIdx.x, blockDim.x,
                                               l.keys, best);
        }
      }
    } else {
      const std::int64_t q1 = (s + 1) * chunk < w.runs ? (s + 1) * chunk : w.runs;
      scan_short_runs<D, arch::short_run_unroll, Plain>(l, w, slice, s * chunk, q1, threadIdx.x, blockDim.x,
                                                        slots_per_run, l.keys, best);
    }
    candidate<K> c = Walk::finish(l, w, slice, best);
    c = device::block_argmax<K, std::int64_t>(meet.fold).reduce(c, ties_last);
    if (pieces_meet(c, ws, o, splits, item, Walk::none(l), ties_last, meet) && threadIdx.x == 0)
      store_answer<D, Walk::reported>(l, out, o, slice, c);
  }
}

}  // namespace argx::detail::gpu
