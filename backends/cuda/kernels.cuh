// Kernel level: the __global__ kernels, one per kernel family of launch.hpp, each a loop
// over its work items (slices, pieces of slices, column tiles) that calls the thread level
// (run_scan, column_scan, general_scan), folds a team's or block's candidates with the
// warp and block building blocks, and stores through store.cuh. The tie rule is a run-time
// flag turned into a template parameter once per kernel.
#pragma once

#include <argx/device/block_argmax.cuh>

#include "column_scan.cuh"
#include "general_scan.cuh"
#include "run_scan.cuh"
#include "store.cuh"
#include "tuning.hpp"

namespace argx::detail::gpu {

/// Input offset of compact output o's slice (its element at traversal index 0).
__device__ __forceinline__ std::int64_t slice_start(const layout& l, std::int64_t o) {
  return l.kept.n == 1 ? o * l.kept.at[0].stride : l.kept.offset_of(o);
}

/// Team-wide maximum (of keys) and min/max (of positions) by xor shuffles within aligned
/// groups of `step * 2` lanes and more.
template <class K>
__device__ __forceinline__ K team_max_key(K k, int step) {
  using S = std::conditional_t<sizeof(K) == 8, unsigned long long, unsigned>;
  const K o = static_cast<K>(__shfl_xor_sync(device::full_warp, static_cast<S>(k), step));
  return o > k ? o : k;
}
__device__ __forceinline__ int team_pick_pos(int pos, int step, bool ties_last) {
  const int o = __shfl_xor_sync(device::full_warp, pos, step);
  return ties_last ? (o > pos ? o : pos) : (o < pos ? o : pos);
}

// ---- windows: slices of one short forward run, in registers ---------------------------------

/// Each team takes 8 / W slices at a time, all their loads in flight before any is folded.
template <dtype D, int W, bool Plain>
__device__ __forceinline__ void window_items(const layout& l, const device_outputs& out, int team_log2) {
  using B = dtype_bits_t<D>;
  constexpr int R = 8 / W;
  const int team = 1 << team_log2;
  const int lane = threadIdx.x & 31, rank = lane & (team - 1);
  const std::int64_t teams_per_warp = 32 >> team_log2;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const std::int64_t len = l.run_axis().extent;
  const B* base = static_cast<const B*>(l.data);
  for (std::int64_t first = R * warp * teams_per_warp; first < l.outputs; first += R * warps * teams_per_warp) {
    window_row<D, W, Plain> rows[R];
    std::int64_t o[R];
    const B* slice[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {  // neighbouring teams take neighbouring slices
      o[r] = first + r * teams_per_warp + (lane >> team_log2);
      const bool ok = o[r] < l.outputs;
      slice[r] = base + (ok ? slice_start(l, o[r]) : 0);
      rows[r].load(slice[r], len, ok, rank, team, l);
    }
#pragma unroll
    for (int r = 0; r < R; ++r) rows[r].fold(rank, team, l.keys);
    dtype_key_t<D> team_key[R];
#pragma unroll
    for (int r = 0; r < R; ++r) team_key[r] = rows[r].key;
    for (int step = team / 2; step > 0; step /= 2)
#pragma unroll
      for (int r = 0; r < R; ++r) team_key[r] = team_max_key(team_key[r], step);
#pragma unroll
    for (int r = 0; r < R; ++r) rows[r].locate(team_key[r], rank, team, l.keys, l.ties_last);
    for (int step = team / 2; step > 0; step /= 2)
#pragma unroll
      for (int r = 0; r < R; ++r) rows[r].pos = team_pick_pos(rows[r].pos, step, l.ties_last);
#pragma unroll
    for (int r = 0; r < R; ++r)
      if (o[r] < l.outputs && rank == 0)
        store_answer<D>(l, out, o[r], slice[r], candidate<dtype_key_t<D>>{rows[r].key, rows[r].pos});
  }
}

/// Plain reductions only: their slots fold in the value domain.
template <dtype D, int W, bool Plain>
__global__ void __launch_bounds__(tune::threads, tune::window_min_resident)
    windows_kernel(const layout l, const device_outputs out, const int team_log2) {
  window_items<D, W, Plain>(l, out, team_log2);
}

// ---- slices of runs: a team of lanes each ------------------------------------------------------

template <dtype D, bool Plain>
__device__ __forceinline__ void run_team_items(const layout& l, const device_outputs& out, int team_log2,
                                               int run_lanes) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  const int team = 1 << team_log2;
  const int lane = threadIdx.x & 31, rank = lane & (team - 1);
  const std::int64_t teams_per_warp = 32 >> team_log2;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const run_walk w = run_walk::of(l);
  const B* base = static_cast<const B*>(l.data);
  // The loop bound is the same for the whole warp, so every lane reaches the shuffles.
  for (std::int64_t first = warp * teams_per_warp; first < l.outputs; first += warps * teams_per_warp) {
    const std::int64_t o = first + (lane >> team_log2);
    candidate<K> c = seed<K>(l.reduce, l.ties_last);
    const B* slice = base;
    if (o < l.outputs) {
      slice = base + slice_start(l, o);
      slot_best<K> best{0, nullptr, 0, l.ties_last};
      scan_runs<D, Plain>(l, w, slice, 0, w.runs, rank, team, run_lanes, l.keys, best);
      c = locate_best<D, Plain>(l, w, slice, best, l.keys);
    }
    device::warp_reduce_groups(c.key, c.pos, team, l.ties_last);
    if (o < l.outputs && rank == 0) store_answer<D>(l, out, o, slice, c);
  }
}

template <dtype D, bool Plain>
__global__ void __launch_bounds__(tune::threads, tune::runs_team_min_resident)
    runs_team_kernel(const layout l, const device_outputs out, const int team_log2, const int run_lanes) {
  run_team_items<D, Plain>(l, out, team_log2, run_lanes);
}

// ---- slices of runs: a block per (slice, split) --------------------------------------------------

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
  __device__ static slot_best<K> start(const layout& l, const run_walk&) { return slot_best<K>{0, nullptr, 0, l.ties_last}; }
  __device__ static candidate<K> finish(const layout& l, const run_walk& w, const dtype_bits_t<D>* slice,
                                        const slot_best<K>& b) {
    return locate_best<D, Plain>(l, w, slice, b, l.keys);
  }
};
template <dtype D, bool Plain>
struct unordered_walk {
  using K = dtype_key_t<D>;
  static constexpr bool reported = true;
  __device__ static bool ties_last(const layout& l) { return l.view_ties_last; }
  __device__ static candidate<K> none(const layout& l) { return candidate<K>{K(0), l.view_ties_last ? l.view_reduce - 1 : 0}; }
  __device__ static exact_best<D, Plain> start(const layout& l, const run_walk& w) { return exact_best<D, Plain>(l, w, l.keys); }
  __device__ static candidate<K> finish(const layout&, const run_walk&, const dtype_bits_t<D>*, const exact_best<D, Plain>& b) {
    return b.c;
  }
};

/// With one split the block stores the answer; with several, each block leaves a partial
/// and the last of a slice's blocks to finish combines them. Long runs are walked by the
/// whole block one after another, short ones by groups of lanes (Short).
template <dtype D, bool Plain, bool Short, class Walk>
__device__ __forceinline__ void run_block_items(const layout& l, const device_outputs& out, const workspace_ptrs& ws,
                                                std::int64_t splits, std::int64_t chunk, int run_lanes,
                                                std::int64_t slots_per_run,
                                                typename device::block_argmax<dtype_key_t<D>, std::int64_t>::storage& tmp,
                                                bool& last_flag) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  const run_walk w = run_walk::of(l);
  const B* base = static_cast<const B*>(l.data);
  auto* parts = static_cast<partial<K>*>(ws.partials);
  const bool ties_last = Walk::ties_last(l);
  const std::int64_t items = l.outputs * splits;
  for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
    const std::int64_t o = item / splits, s = item - o * splits;
    const B* slice = base + slice_start(l, o);
    auto best = Walk::start(l, w);
    if constexpr (!Short) {  // long runs: slots [k0, k1), run after run
      const std::int64_t all = w.runs * slots_per_run, k0 = s * chunk, k1 = k0 + chunk < all ? k0 + chunk : all;
      for (std::int64_t q = k0 / slots_per_run; q * slots_per_run < k1; ++q) {
        const std::int64_t v0 = k0 > q * slots_per_run ? k0 - q * slots_per_run : 0, v1 = k1 - q * slots_per_run;
        scan_run<D, tune::run_unroll, Plain>(run_slots<D>::at(slice, l, w, q), q, v0, v1, threadIdx.x, blockDim.x,
                                             l.keys, best);
      }
    } else {
      const std::int64_t q1 = (s + 1) * chunk < w.runs ? (s + 1) * chunk : w.runs;
      scan_short_runs<D, tune::short_run_unroll, Plain>(l, w, slice, s * chunk, q1, threadIdx.x, blockDim.x, run_lanes,
                                                        l.keys, best);
    }
    candidate<K> c = Walk::finish(l, w, slice, best);
    c = device::block_argmax<K, std::int64_t>(tmp).reduce(c, ties_last);
    if (splits == 1) {
      if (threadIdx.x == 0) store_answer<D, Walk::reported>(l, out, o, slice, c);
      continue;
    }
    if (threadIdx.x == 0) store_partial(parts, item, c);
    if (!arrive_last(ws.counters + o, static_cast<unsigned>(splits), last_flag)) continue;
    c = Walk::none(l);
    for (std::int64_t i = threadIdx.x; i < splits; i += blockDim.x)
      c = combine(c, load_partial(parts, o * splits + i), ties_last);
    c = device::block_argmax<K, std::int64_t>(tmp).reduce(c, ties_last);
    if (threadIdx.x == 0) store_answer<D, Walk::reported>(l, out, o, slice, c);
  }
}

template <dtype D, bool Plain>
__global__ void __launch_bounds__(tune::threads, tune::runs_block_min_resident)
    runs_block_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                      const std::int64_t chunk, const int run_lanes, const std::int64_t slots_per_run) {
  __shared__ typename device::block_argmax<dtype_key_t<D>, std::int64_t>::storage tmp;
  __shared__ bool last_flag;
  run_block_items<D, Plain, false, ordered_walk<D, Plain>>(l, out, ws, splits, chunk, run_lanes, slots_per_run, tmp,
                                                           last_flag);
}

/// Short runs, a group of lanes each: their own register budget (a run's edges are loaded
/// for every run, four runs at a time).
template <dtype D, bool Plain>
__global__ void __launch_bounds__(tune::threads, tune::runs_short_min_resident)
    runs_short_block_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                            const std::int64_t chunk, const int run_lanes, const std::int64_t slots_per_run) {
  __shared__ typename device::block_argmax<dtype_key_t<D>, std::int64_t>::storage tmp;
  __shared__ bool last_flag;
  run_block_items<D, Plain, true, ordered_walk<D, Plain>>(l, out, ws, splits, chunk, run_lanes, slots_per_run, tmp,
                                                          last_flag);
}

/// The same for unordered walks (choose_launch sends them here whatever their size).
template <dtype D, bool Plain>
__global__ void __launch_bounds__(tune::threads)
    runs_unordered_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                          const std::int64_t chunk, const int run_lanes, const std::int64_t slots_per_run) {
  __shared__ typename device::block_argmax<dtype_key_t<D>, std::int64_t>::storage tmp;
  __shared__ bool last_flag;
  if (run_lanes == static_cast<int>(blockDim.x))
    run_block_items<D, Plain, false, unordered_walk<D, Plain>>(l, out, ws, splits, chunk, run_lanes, slots_per_run, tmp,
                                                               last_flag);
  else
    run_block_items<D, Plain, true, unordered_walk<D, Plain>>(l, out, ws, splits, chunk, run_lanes, slots_per_run, tmp,
                                                              last_flag);
}

// ---- columns: a block per (column tile, split of the rows) ----------------------------------------

/// Where the row warps of a block meet: each row warp's candidates for every column of the
/// block's tile, row warp after row warp (at most a warp's 32 groups of V columns for each
/// of the block's warps).
template <dtype D>
struct column_meeting {
  static constexpr int size = tune::threads * vec_elems<D>;
  dtype_key_t<D> key[size];
  unsigned pos[size];  ///< relative to the split's first row
  bool last;
};

/// A warp is 2^col_log2 column groups (a lane each, 16 bytes of neighbouring outputs) times
/// 32 >> col_log2 row lanes; a block's 8 warps are 2^row_warps_log2 warps along the rows
/// times the rest along the columns. Row lanes take every row_lanes-th row of the split.
/// The row lanes of a warp meet by shuffles; row warps in shared memory; with several
/// splits the tile's blocks meet through 64-bit atomic maxima (32-bit keys) or partials,
/// and the last block to arrive stores the answers.
template <dtype D, class Acc, bool Aligned>
__device__ __forceinline__ void column_items(const layout& l, const device_outputs& out, const workspace_ptrs& ws,
                                             std::int64_t splits, std::int64_t chunk, int col_log2, int row_warps_log2,
                                             bool packed_meet, column_meeting<D>& meet) {
  using K = dtype_key_t<D>;
  using S = std::conditional_t<sizeof(K) == 8, unsigned long long, unsigned>;
  constexpr int V = vec_elems<D>;
  const bool ties_last = l.ties_last;
  const int cols = 1 << col_log2, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int row_warps = 1 << row_warps_log2, wr = warp & (row_warps - 1), wc = warp >> row_warps_log2;
  const int tx = lane & (cols - 1), ty = lane >> col_log2, lanes_y = 32 >> col_log2;
  const int y = wr * lanes_y + ty, row_lanes = row_warps * lanes_y;
  const int tile_groups = cols * ((blockDim.x >> 5) >> row_warps_log2), tile_cols = tile_groups * V;
  const std::int64_t width = l.column_axis().extent, per_outer = (width + V - 1) / V;
  const std::int64_t groups = (l.outputs / width) * per_outer, tiles = (groups + tile_groups - 1) / tile_groups;
  const std::int64_t items = tiles * splits;
  // The answer of column j of group `grp`: stored, or left for the meeting.
  auto finish_in = [&](const column_group<D>& grp, std::int64_t s, std::int64_t r0, int j, K key, unsigned rel) {
    if (j >= grp.cols) return;
    const std::int64_t o = grp.first + j;
    const candidate<K> c{key, r0 + static_cast<std::int64_t>(rel)};
    if (splits == 1)
      store_answer<D>(l, out, o, grp.col + j, c);
    else if (packed_meet)
      atomicMax(ws.slots + o, pack_candidate(static_cast<std::uint32_t>(c.key), c.pos, ties_last));
    else
      store_partial(static_cast<partial<K>*>(ws.partials), s * l.outputs + o, c);
  };
  // The same for column (group gi of the tile, element j).
  auto finish = [&](std::int64_t tile, std::int64_t s, std::int64_t r0, int gi, int j, K key, unsigned rel) {
    const std::int64_t g = tile * tile_groups + gi;
    if (g < groups) finish_in(column_group<D>::of(l, g, per_outer), s, r0, j, key, rel);
  };
  for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
    // Neighbouring blocks take neighbouring tiles of the same rows: long runs of each row.
    const std::int64_t s = item / tiles, tile = item - s * tiles;
    const std::int64_t r0 = s * chunk, r1 = r0 + chunk < l.reduce ? r0 + chunk : l.reduce;
    const std::int64_t g = tile * tile_groups + wc * cols + tx;
    const bool active = g < groups;
    column_group<D> grp;
    if (active) grp = column_group<D>::of(l, g, per_outer);
    Acc acc;
    acc.start(l.keys, ties_last);
    const std::int64_t first = r0 + y;
    if (active) scan_columns<D, tune::column_unroll, Aligned>(l, grp, first, r1, row_lanes, l.keys, acc);
    const bool has_rows = active && first < r1;
    // This lane's candidate of each column: (key, row relative to r0); the split's seed
    // (key 0 at its first row, or its last with ties = last) when it walked no row.
    K key[V];
    unsigned rel[V];
#pragma unroll
    for (int j = 0; j < V; ++j) {
      unsigned k = 0;
      acc.get(j, l.keys, key[j], k);
      rel[j] = static_cast<unsigned>(y) + k * static_cast<unsigned>(row_lanes);
      if (!has_rows) {
        key[j] = 0;
        rel[j] = ties_last ? static_cast<unsigned>(r1 - 1 - r0) : 0u;
      }
    }
    for (int off = cols; off < 32; off <<= 1)  // the row lanes of a warp: higher lane bits
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const K k = static_cast<K>(__shfl_xor_sync(device::full_warp, static_cast<S>(key[j]), off));
        const unsigned p = __shfl_xor_sync(device::full_warp, rel[j], off);
        if (beats(k, static_cast<std::int64_t>(p), key[j], static_cast<std::int64_t>(rel[j]), ties_last)) {
          key[j] = k;
          rel[j] = p;
        }
      }
    if (row_warps == 1) {  // each warp's first row lanes own their columns
      if (ty == 0 && active)  // the lane's own group, found before its walk
#pragma unroll
        for (int j = 0; j < V; ++j) finish_in(grp, s, r0, j, key[j], rel[j]);
    } else {  // the row warps meet in shared memory: then a thread a column
      if (ty == 0)
#pragma unroll
        for (int j = 0; j < V; ++j) {
          meet.key[wr * tile_cols + (wc * cols + tx) * V + j] = key[j];
          meet.pos[wr * tile_cols + (wc * cols + tx) * V + j] = rel[j];
        }
      __syncthreads();
      for (int c = threadIdx.x; c < tile_cols; c += blockDim.x) {
        K best_key = meet.key[c];
        unsigned best_rel = meet.pos[c];
        for (int wi = 1; wi < row_warps; ++wi) {
          const K k = meet.key[wi * tile_cols + c];
          const unsigned p = meet.pos[wi * tile_cols + c];
          if (beats(k, static_cast<std::int64_t>(p), best_key, static_cast<std::int64_t>(best_rel), ties_last)) {
            best_key = k;
            best_rel = p;
          }
        }
        finish(tile, s, r0, c / V, c % V, best_key, best_rel);
      }
      __syncthreads();  // the meeting area is reused by the next item
    }
    if (splits == 1) continue;
    // The tile's last block to arrive reads what every block left.
    if (threadIdx.x == 0) __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
      const bool is_last = atomicAdd(ws.counters + tile, 1u) == static_cast<unsigned>(splits) - 1;
      if (is_last) ws.counters[tile] = 0;
      meet.last = is_last;
    }
    __syncthreads();
    const bool is_last = meet.last;
    __syncthreads();
    if (!is_last) continue;
    __threadfence();
    if (packed_meet) {
      for (int c = threadIdx.x; c < tile_cols; c += blockDim.x) {
        const std::int64_t cg = tile * tile_groups + c / V;
        if (cg >= groups) continue;
        const column_group<D> grp = column_group<D>::of(l, cg, per_outer);
        const int j = c % V;
        if (j >= grp.cols) continue;
        const std::int64_t o = grp.first + j;
        const unsigned long long word = *static_cast<volatile unsigned long long*>(ws.slots + o);
        ws.slots[o] = 0;  // zero again for the next launch
        const candidate<std::uint32_t> u = unpack_candidate(word, ties_last);
        store_answer<D>(l, out, o, grp.col + j, candidate<K>{static_cast<K>(u.key), u.pos});
      }
      continue;
    }
    // Partials: a group of `per` lanes a column, each lane taking every per-th split, four
    // loads in flight; then the group's lanes meet by shuffles.
    int per = 32;
    while (per > 1 && per * tile_cols > static_cast<int>(blockDim.x)) per >>= 1;
    const int sub = threadIdx.x & (per - 1);
    const auto* parts = static_cast<const partial<K>*>(ws.partials);
    for (int base = 0; base < tile_cols; base += static_cast<int>(blockDim.x) / per) {  // uniform bounds
      const int c = base + static_cast<int>(threadIdx.x) / per;
      const std::int64_t cg = tile * tile_groups + c / V;
      bool has = false;
      column_group<D> grp;
      if (c < tile_cols && cg < groups) {
        grp = column_group<D>::of(l, cg, per_outer);
        has = c % V < grp.cols;
      }
      const std::int64_t o = has ? grp.first + c % V : 0;
      candidate<K> pc = seed<K>(l.reduce, ties_last);
      if (has)
        for (std::int64_t q = sub; q < splits; q += 4 * per) {
          candidate<K> got[4];
#pragma unroll
          for (int u = 0; u < 4; ++u)
            got[u] = q + u * per < splits ? load_partial(parts, (q + u * per) * l.outputs + o) : seed<K>(l.reduce, ties_last);
#pragma unroll
          for (int u = 0; u < 4; ++u) pc = combine(pc, got[u], ties_last);
        }
      for (int off = 1; off < per; off <<= 1) {
        const K k = static_cast<K>(__shfl_xor_sync(device::full_warp, static_cast<S>(pc.key), off));
        const std::int64_t p = __shfl_xor_sync(device::full_warp, pc.pos, off);
        pc = combine(pc, candidate<K>{k, p}, ties_last);
      }
      if (has && sub == 0) store_answer<D>(l, out, o, grp.col + c % V, pc);
    }
  }
}

template <dtype D, bool Plain, bool Packed, bool Aligned>
__global__ void __launch_bounds__(tune::threads, tune::column_min_resident)
    columns_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                   const std::int64_t chunk, const int col_log2, const int row_warps_log2, const bool packed_meet) {
  __shared__ column_meeting<D> meet;
  if constexpr (Packed)
    column_items<D, packed_bests<D>, Aligned>(l, out, ws, splits, chunk, col_log2, row_warps_log2, packed_meet, meet);
  else
    column_items<D, column_bests<D, Plain>, Aligned>(l, out, ws, splits, chunk, col_log2, row_warps_log2, packed_meet,
                                                     meet);
}

// ---- no unit stride: element by element ------------------------------------------------------------

template <dtype D>
__global__ void __launch_bounds__(tune::threads) elements_team_kernel(const layout l, const device_outputs out,
                                                                      const int team_log2) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  const int team = 1 << team_log2;
  const int lane = threadIdx.x & 31, rank = lane & (team - 1);
  const std::int64_t teams_per_warp = 32 >> team_log2;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const int reduce = static_cast<int>(l.reduce);
  const B* base = static_cast<const B*>(l.data);
  for (std::int64_t first = warp * teams_per_warp; first < l.outputs; first += warps * teams_per_warp) {
    const std::int64_t o = first + (lane >> team_log2);
    auto best = position_best<K, int>::seeded(reduce, l.ties_last);
    const B* slice = base;
    if (o < l.outputs) {
      slice = base + slice_start(l, o);
      scan_elements<D, int>(l, slice, 0, reduce, rank, team, best);
    }
    device::warp_reduce_groups(best.key, best.pos, team, l.ties_last);
    if (o < l.outputs && rank == 0) store_answer<D>(l, out, o, slice, candidate<K>{best.key, best.pos});
  }
}

template <dtype D>
__global__ void __launch_bounds__(tune::threads)
    elements_block_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                          const std::int64_t chunk) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  __shared__ typename device::block_argmax<K, std::int64_t>::storage tmp;
  __shared__ bool last_flag;
  const B* base = static_cast<const B*>(l.data);
  auto* parts = static_cast<partial<K>*>(ws.partials);
  const std::int64_t items = l.outputs * splits;
  for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
    const std::int64_t o = item / splits, s = item - o * splits;
    const std::int64_t begin = s * chunk, end = begin + chunk < l.reduce ? begin + chunk : l.reduce;
    const B* slice = base + slice_start(l, o);
    auto best = position_best<K, std::int64_t>::seeded(l.reduce, l.ties_last);
    scan_elements<D, std::int64_t>(l, slice, begin, end, threadIdx.x, blockDim.x, best);
    candidate<K> c = device::block_argmax<K, std::int64_t>(tmp).reduce(candidate<K>{best.key, best.pos}, l.ties_last);
    if (splits == 1) {
      if (threadIdx.x == 0) store_answer<D>(l, out, o, slice, c);
      continue;
    }
    if (threadIdx.x == 0) store_partial(parts, item, c);
    if (!arrive_last(ws.counters + o, static_cast<unsigned>(splits), last_flag)) continue;
    c = seed<K>(l.reduce, l.ties_last);
    for (std::int64_t i = threadIdx.x; i < splits; i += blockDim.x)
      c = combine(c, load_partial(parts, o * splits + i), l.ties_last);
    c = device::block_argmax<K, std::int64_t>(tmp).reduce(c, l.ties_last);
    if (threadIdx.x == 0) store_answer<D>(l, out, o, slice, c);
  }
}

}  // namespace argx::detail::gpu
