// Work-item level of the column kernel (vector_axis::column): how a block takes its
// column tiles, or splits of their rows, in turn, walks them with the thread level
// (column_scan.cuh), and how the row lanes, the row warps and the blocks of a split tile
// meet (shuffles, shared memory, store.cuh). The __global__ entry is in kernels.cuh.
#pragma once

#include <cstdint>
#include <type_traits>

#include <argx/device/warp_argmax.cuh>

#include "column_scan.cuh"
#include "store.cuh"
#include "tuning.hpp"

namespace argx::detail::gpu {

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

/// A warp is 2^column_lanes_log2 column groups (a lane each, 16 bytes of neighbouring
/// outputs) times 32 >> column_lanes_log2 row lanes; a block's 8 warps are 2^row_warps_log2
/// warps along the rows times the rest along the columns. Row lanes take every
/// row_lanes-th row of the split.
/// The row lanes of a warp meet by shuffles; row warps in shared memory; with several
/// splits the tile's blocks meet through 64-bit atomic maxima (32-bit keys) or partials,
/// and the last block to arrive stores the answers.
template <dtype D, class Acc, bool Aligned>
__device__ __forceinline__ void column_items(const layout& l, const device_outputs& out, const workspace_ptrs& ws,
                                             std::int64_t splits, std::int64_t chunk, int column_lanes_log2,
                                             int row_warps_log2, bool packed_meet, column_meeting<D>& meet) {
  using K = dtype_key_t<D>;
  using S = std::conditional_t<sizeof(K) == 8, unsigned long long, unsigned>;
  constexpr int V = vec_elems<D>;
  const bool ties_last = l.ties_last;
  const int cols = 1 << column_lanes_log2, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int row_warps = 1 << row_warps_log2, wr = warp & (row_warps - 1), wc = warp >> row_warps_log2;
  const int tx = lane & (cols - 1), ty = lane >> column_lanes_log2, lanes_y = 32 >> column_lanes_log2;
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
    if (active) scan_columns<D, tune::compiled_arch::column_unroll, Aligned>(l, grp, first, r1, row_lanes, l.keys, acc);
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
    if (!arrive_last(ws.counters + tile, static_cast<unsigned>(splits), meet.last)) continue;
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

}  // namespace argx::detail::gpu
