// Work-item level of the column kernel (vector_axis::column): how a block takes its
// column tiles, or splits of their rows, in turn, walks them with the thread level
// (column_scan.cuh), and how the row lanes, the row warps and the blocks of a split tile
// meet (shuffles, shared memory, store.cuh). The __global__ entry is in kernels.cuh.
#pragma once

#include <cstdint>
#include <type_traits>

#include <argx/device/warp_argmax.cuh>

#include "column_scan.cuh"
#include "launch.hpp"
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
  dtype_bits_t<D> value[size];  ///< staged answers' elements, when values are asked for
  bool last;
};

/// Which column group each slot of a block's tile holds (a slot: a lane along the columns
/// of one of the block's warps along the columns). Groups run along the column axis, then
/// the outer kept axes. Plain tiles hold groups in order, tile after tile. Shuffled tiles
/// are made of warp tiles: a warp's first 31 slots hold 31 groups of one outer row, the
/// 32nd none (its lane reads the vector after them), and no warp tile straddles two outer
/// rows, so neighbouring lanes read neighbouring vectors.
template <dtype D, bool Shuffled>
struct column_tiles {
  static constexpr int V = vec_elems<D>;
  std::int64_t width, per_outer, outers, warp_tiles_per_outer;
  int tile_groups, warps;  ///< slots of a tile; warps of a tile along the columns

  __device__ column_tiles(const layout& l, int tile_groups_, int warps_)
      : width(l.column_axis().extent), per_outer((width + V - 1) / V), outers(l.outputs / width),
        warp_tiles_per_outer((per_outer + column_shuffle_groups - 1) / column_shuffle_groups),
        tile_groups(tile_groups_), warps(warps_) {}

  __device__ std::int64_t count() const {
    if constexpr (Shuffled) return (outers * warp_tiles_per_outer + warps - 1) / warps;
    return (outers * per_outer + tile_groups - 1) / tile_groups;
  }
  /// Whether warp w (along the columns) of tile `tile` holds any group (shuffled tiles).
  __device__ bool warp_holds(std::int64_t tile, int w) const {
    return tile * warps + w < outers * warp_tiles_per_outer;
  }
  /// The group in slot `slot` of tile `tile`, or -1.
  __device__ std::int64_t group(std::int64_t tile, int slot) const {
    if constexpr (!Shuffled) {
      const std::int64_t g = tile * tile_groups + slot;
      return g < outers * per_outer ? g : -1;
    }
    std::int64_t outer, kk;
    place(tile, slot, outer, kk);
    return held(slot, outer, kk);
  }
  /// Shuffled tiles: the group at index kk of outer row `outer` if slot `slot` holds one
  /// (not a warp's 32nd slot, not past the outer row or the last outer row), or -1.
  __device__ std::int64_t held(int slot, std::int64_t outer, std::int64_t kk) const {
    return (slot & 31) < column_shuffle_groups && outer < outers && kk < per_outer ? outer * per_outer + kk : -1;
  }
  /// Shuffled tiles: the outer row of slot `slot` and its index along that row, in groups
  /// (for the 32nd slot of a warp, the vector after the warp's groups).
  __device__ void place(std::int64_t tile, int slot, std::int64_t& outer, std::int64_t& kk) const {
    const std::int64_t wt = tile * warps + (slot >> 5);
    outer = wt / warp_tiles_per_outer;
    kk = (wt - outer * warp_tiles_per_outer) * column_shuffle_groups + (slot & 31);
  }
  /// What the lane of slot `slot` reads (shuffled tiles; its warp holds groups), and its
  /// group (-1: none).
  __device__ shuffled_lane<D> lane(const layout& l, std::int64_t tile, int slot, std::int64_t& group) const {
    constexpr int elem = static_cast<int>(sizeof(dtype_bits_t<D>));
    std::int64_t outer, kk;
    place(tile, slot, outer, kk);
    group = held(slot, outer, kk);
    shuffled_lane<D> c;
    c.col = static_cast<const dtype_bits_t<D>*>(l.data) + l.kept.outer_offset_of(outer) + kk * V;
    c.loads = kk < per_outer;
    if (group >= 0) c.need = static_cast<int>(width - kk * V < V ? width - kk * V : V) * elem;
    if (kk == per_outer) c.tail_need = static_cast<int>(width - (per_outer - 1) * V) * elem;
    return c;
  }
};

/// A warp is 2^column_lanes_log2 column groups (a lane each, 16 bytes of neighbouring
/// outputs) times 32 >> column_lanes_log2 row lanes; a block's 8 warps are 2^row_warps_log2
/// warps along the rows times the rest along the columns. Row lanes take every
/// row_lanes-th row of the split.
/// The row lanes of a warp meet by shuffles; row warps in shared memory; with several
/// splits the tile's blocks meet through 64-bit atomic maxima (32-bit keys), the last
/// block to arrive storing the answers, or leave partials (leave_partials: 64-bit keys,
/// and a walk of virtual columns whatever its splits) that the answers kernel folds.
template <dtype D, class Acc, column_read Read>
__device__ __forceinline__ void column_items(const layout& l, const device_outputs& out, const workspace_ptrs& ws,
                                             std::int64_t splits, std::int64_t chunk, int column_lanes_log2,
                                             int row_warps_log2, bool leave_partials, column_meeting<D>& meet) {
  using K = dtype_key_t<D>;
  using S = std::conditional_t<sizeof(K) == 8, unsigned long long, unsigned>;
  constexpr int V = vec_elems<D>;
  const bool ties_last = l.ties_last;
  const int cols = 1 << column_lanes_log2, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int row_warps = 1 << row_warps_log2, wr = warp & (row_warps - 1), wc = warp >> row_warps_log2;
  const int tx = lane & (cols - 1), ty = lane >> column_lanes_log2, lanes_y = 32 >> column_lanes_log2;
  const int y = wr * lanes_y + ty, row_lanes = row_warps * lanes_y;
  constexpr bool shuffled = Read == column_read::shuffled;
  const int warps_c = (blockDim.x >> 5) >> row_warps_log2;
  const int tile_groups = cols * warps_c, tile_cols = tile_groups * V;
  const column_tiles<D, shuffled> tiling(l, tile_groups, warps_c);
  const std::int64_t per_outer = tiling.per_outer, tiles = tiling.count();
  const std::int64_t items = tiles * splits;
  // Answers stored through shared memory (see below), with one row warp: one split (the
  // answers, to the outputs the layout maps them to: in compact order, reversed, or with
  // replicas, a store instruction still writes neighbouring words where those outputs are
  // neighbours), or splits meeting through atomic maxima (the candidates, at their
  // outputs' slots).
  const bool staged = !leave_partials && row_warps == 1;
  // The answer of column j of group `grp`: stored, or left for the meeting.
  auto finish_in = [&](const column_group<D>& grp, std::int64_t s, std::int64_t r0, int j, K key, unsigned rel) {
    if (j >= grp.cols) return;
    const std::int64_t o = grp.first + j;
    const candidate<K> c{key, r0 + static_cast<std::int64_t>(rel)};
    if (leave_partials)  // at its traversal index in the full layout (of a walk of virtual columns)
      store_partial(static_cast<partial<K>*>(ws.partials), s * l.outputs + o, candidate<K>{c.key, l.virt.position(c.pos, o)});
    else if (splits == 1)
      store_answer<D>(l, out, o, grp.col + j, c);
    else
      atomicMax(ws.slots + o, pack_candidate(static_cast<std::uint32_t>(c.key), c.pos, ties_last));
  };
  // The same for column (group gi of the tile, element j).
  auto finish = [&](std::int64_t tile, std::int64_t s, std::int64_t r0, int gi, int j, K key, unsigned rel) {
    const std::int64_t g = tiling.group(tile, gi);
    if (g >= 0) finish_in(column_group<D>::of(l, g, per_outer), s, r0, j, key, rel);
  };
  for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
    // Neighbouring blocks take neighbouring tiles of the same rows: long runs of each row.
    const std::int64_t s = item / tiles, tile = item - s * tiles;
    const std::int64_t r0 = s * chunk, r1 = r0 + chunk < l.reduce ? r0 + chunk : l.reduce;
    // The lane's group (-1: none), and its walk. Shuffled tiles: the whole warp walks (one
    // row lane a warp, so its lanes walk the same rows) if it holds any group.
    std::int64_t g = -1;
    shuffled_lane<D> reads;
    const bool walks = shuffled ? tiling.warp_holds(tile, wc) : true;
    if constexpr (shuffled) {
      if (walks) reads = tiling.lane(l, tile, wc * cols + tx, g);
    } else {
      g = tiling.group(tile, wc * cols + tx);
    }
    const bool active = g >= 0;
    column_group<D> grp;
    if (active) grp = column_group<D>::of(l, g, per_outer);
    Acc acc;
    acc.start(l.keys);
    const std::int64_t first = r0 + y;
    // The tie rule: a constant of the walk (std::bool_constant) where the accumulator
    // compiles it in, else a run-time bool.
    auto walk = [&](auto ties) {
      constexpr int unroll = tune::compiled_arch::column_unroll;
      if constexpr (shuffled) {
        if (walks) scan_columns_shuffled<D, unroll>(l, reads, first, r1, row_lanes, l.keys, acc, ties);
      } else if (active) {
        scan_columns<D, unroll, Read == column_read::aligned>(l, grp, first, r1, row_lanes, l.keys, acc, ties);
      }
    };
    if constexpr (!Acc::ties_compiled)
      walk(ties_last);
    else if (ties_last)
      walk(std::true_type{});
    else
      walk(std::false_type{});
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
    if (staged) {
      // A warp's groups are consecutive, and so are their outputs: the warp's first row
      // lanes leave their candidates in its part of the meeting area, then every lane
      // stores (or offers to the atomic maximum) every 32nd output of the range, so that
      // one instruction writes 32 neighbouring words instead of 32 words a group apart.
      const std::int64_t g0 = tiling.group(tile, wc * cols);  // the warp's first group (lane 0's)
      if (g0 >= 0) {
        const int base = warp * 32 * V;
        const std::int64_t first_out = __shfl_sync(device::full_warp, grp.first, 0);
        std::int64_t end_out = ty == 0 && active ? grp.first + grp.cols : first_out;
        for (int off = 16; off > 0; off >>= 1) {
          const std::int64_t e = __shfl_xor_sync(device::full_warp, end_out, off);
          end_out = e > end_out ? e : end_out;
        }
        if (ty == 0 && active)
#pragma unroll
          for (int j = 0; j < V; ++j)
            if (j < grp.cols) {
              const int m = static_cast<int>(grp.first - first_out) + j;
              meet.key[base + m] = key[j];
              meet.pos[base + m] = rel[j];
              if (splits == 1 && out.values)  // (split tiles: the last block reads the winners)
                meet.value[base + m] = grp.col[j + l.element_offset(r0 + static_cast<std::int64_t>(rel[j]))];
            }
        __syncwarp();
        const int n = static_cast<int>(end_out - first_out);
        auto met = [&](int m) { return candidate<K>{meet.key[base + m], r0 + static_cast<std::int64_t>(meet.pos[base + m])}; };
        // One loop per kind of store, the test outside it: where rows are few, these stores
        // are most of the kernel's work.
        if (splits > 1) {
          for (int m = lane; m < n; m += 32) {
            const candidate<K> c = met(m);
            atomicMax(ws.slots + first_out + m, pack_candidate(static_cast<std::uint32_t>(c.key), c.pos, ties_last));
          }
        } else if (l.identity_outputs) {
          for (int m = lane; m < n; m += 32) {
            store_index(out.indices, l.index, first_out + m, answer_index<D>(l, met(m)));
            if (out.values) store_value(out.values, first_out + m, meet.value[base + m]);
          }
        } else {
          for (int m = lane; m < n; m += 32)
            store_found<D>(l, out, first_out + m, answer_index<D>(l, met(m)),
                           out.values ? meet.value[base + m] : dtype_bits_t<D>{});
        }
        __syncwarp();  // the warp's area is reused by its next item
      }
    } else if (row_warps == 1) {  // each warp's first row lanes own their columns
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
    if (splits == 1 || leave_partials) continue;
    // The tile's last block to arrive reads the atomic maxima every block left.
    if (!arrive_last(ws.counters + tile, static_cast<unsigned>(splits), meet.last)) continue;
    // Column c's output (-1: none) and its elements.
    auto column_at = [&](int c, const dtype_bits_t<D>*& col) -> std::int64_t {
      const std::int64_t cg = c < tile_cols ? tiling.group(tile, c / V) : -1;
      if (cg < 0) return -1;
      const column_group<D> grp = column_group<D>::of(l, cg, per_outer);
      const int j = c % V;
      if (j >= grp.cols) return -1;
      col = grp.col + j;
      return grp.first + j;
    };
    auto answer = [&](std::int64_t o, const dtype_bits_t<D>* col, unsigned long long word) {
      ws.slots[o] = 0;  // zero again for the next launch
      const candidate<std::uint32_t> u = unpack_candidate(word, ties_last);
      store_answer<D>(l, out, o, col, candidate<K>{static_cast<K>(u.key), u.pos});
    };
    const int step = static_cast<int>(blockDim.x);
    constexpr int batch = tune::compiled_arch::column_meeting_batch;
    if constexpr (V >= batch) {
      // 1- and 2-byte columns, where there are at least as many outputs as a tile has
      // columns (a full-width tile: 8 or 16 columns a thread): one slot read at a time,
      // each waited for its trip to L2, took 43% of the stall samples of a uint8 launch of
      // 4096-column tiles met by two splits (ncu, sweep case 88). A thread reads a batch at
      // once, from an unrolled loop that only reads; finding the columns and storing the
      // answers stay rolled (unrolled, their code outgrew the instruction cache). Fewer
      // outputs and wider types keep the plain loop: there the batch's bookkeeping cost
      // more than it saved. Narrow tiles (lanes < 32) pass this test with one column a
      // thread or none, for no gain (NOTES v6.21).
      if (l.outputs >= tile_cols) {
        for (int c0 = threadIdx.x; c0 < tile_cols; c0 += batch * step) {
          std::int64_t o[batch];
          const dtype_bits_t<D>* col[batch];
#pragma unroll 1
          for (int b = 0; b < batch; ++b) o[b] = column_at(c0 + b * step, col[b]);
          unsigned long long word[batch];
#pragma unroll
          for (int b = 0; b < batch; ++b) word[b] = o[b] >= 0 ? __ldcg(ws.slots + o[b]) : 0;  // from L2, past the L1
#pragma unroll 1
          for (int b = 0; b < batch; ++b)
            if (o[b] >= 0) answer(o[b], col[b], word[b]);
        }
        continue;
      }
    }
    for (int c = threadIdx.x; c < tile_cols; c += step) {
      const dtype_bits_t<D>* col = nullptr;
      const std::int64_t o = column_at(c, col);
      if (o >= 0) answer(o, col, *static_cast<volatile unsigned long long*>(ws.slots + o));
    }
  }
}

/// The answers from a column launch's partials (a walk of virtual columns: layout.hpp),
/// `l` the full layout: a team (2^team_log2 lanes of a warp, or the whole block where the
/// partials an output are many) folds each output's partials, those its columns left in
/// every split, each lane every team-th of them, four loads in flight, and, in a folded
/// walk, the rows past the last whole fold of each block of rows; then the team meets.
template <dtype D, bool Block>
__device__ __forceinline__ void virtual_answer_items(const layout& l, const device_outputs& out,
                                                     const workspace_ptrs& ws, std::int64_t splits, int team_log2,
                                                     typename device::block_argmax<dtype_key_t<D>>::storage& fold) {
  using K = dtype_key_t<D>;
  using B = dtype_bits_t<D>;
  const auto* parts = static_cast<const partial<K>*>(ws.partials);
  const virtual_columns v = l.virt;
  const std::int64_t per = v.per_output(), per_split = l.outputs * per, n = splits * per;
  // The rows no fold holds: rows % fold of each index of the other reduced axes.
  const std::int64_t tail = v.tail_rows(), tails = tail > 0 ? l.reduce / v.rows * tail : 0;
  const int team = Block ? static_cast<int>(blockDim.x) : 1 << team_log2;
  const int rank = Block ? static_cast<int>(threadIdx.x) : static_cast<int>(threadIdx.x) & (team - 1);
  const std::int64_t teams_per_block = Block ? 1 : static_cast<std::int64_t>(blockDim.x >> team_log2);
  // The same bounds in every thread of the block (the team's lanes meet by shuffles).
  for (std::int64_t o0 = blockIdx.x * teams_per_block; o0 < l.outputs; o0 += gridDim.x * teams_per_block) {
    const std::int64_t o = o0 + (Block ? 0 : static_cast<std::int64_t>(threadIdx.x >> team_log2));
    const bool has = o < l.outputs;
    const B* slice = static_cast<const B*>(l.data) + (has ? l.slice_offset(o) : 0);
    candidate<K> c = seed<K>(l.reduce, l.ties_last);
    if (has) {
      for (std::int64_t i = rank; i < n; i += 4 * team) {
        candidate<K> got[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) {
          const std::int64_t k = i + u * team, s = k / per;
          got[u] = k < n ? load_partial(parts, s * per_split + v.column(o, k - s * per)) : seed<K>(l.reduce, l.ties_last);
        }
#pragma unroll
        for (int u = 0; u < 4; ++u) c = combine(c, got[u], l.ties_last);
      }
      for (std::int64_t m = rank; m < tails; m += team) {
        const std::int64_t t = v.tail_position(m);
        c = combine(c, candidate<K>{order_key<D>(slice[l.element_offset(t)], l.keys), t}, l.ties_last);
      }
    }
    if constexpr (Block) {
      c = device::block_argmax<K>(fold).reduce(c, l.ties_last);
    } else {
      std::int64_t pos = c.pos;
      device::warp_reduce_groups(c.key, pos, team, l.ties_last);
      c.pos = pos;
    }
    if (has && rank == 0) store_answer<D>(l, out, o, slice, c);
  }
}

}  // namespace argx::detail::gpu
