// Kernel level: thin __global__ kernels, one per kernel family of launch.hpp, each a loop
// over its work items calling the tile level; and enqueue<D>, which launches the one a
// launch_config names.
#pragma once

#include "enqueue.hpp"
#include "tile.cuh"

namespace argx::detail::gpu {

/// 16-byte loads per batch in the contiguous and strided loops. The contiguous loop keeps
/// one batch in flight while it folds the previous one.
template <dtype D>
inline constexpr int contiguous_unroll = 4;
inline constexpr int team_unroll = 2;
template <dtype D>
inline constexpr int strided_unroll = vec_elems<D> >= 16 ? 2 : vec_elems<D> == 8 ? 4 : 8;
/// Most threads per block each kernel family is compiled for (its register budget follows).
inline constexpr int team_max_threads = 256;
/// Blocks of the register-rows kernel a multiprocessor should hold (8 vectors a lane in
/// flight: 96 KiB per multiprocessor at three blocks).
inline constexpr int register_rows_min_resident = 3;
inline constexpr int block_max_threads = 256;
/// Blocks of the block kernel a multiprocessor should hold: its register budget is sized
/// for two batches of four 16-byte loads per thread.
inline constexpr int block_min_resident = 3;
inline constexpr int strided_max_threads = 256;

/// Short aligned rows (whole 16-byte vectors, at most W per lane): each team takes 8 / W
/// rows at a time, all their loads in flight before any is folded, and keeps them in
/// registers until the winner is found.
template <dtype D, int W, bool Plain, bool TiesLast>
__device__ __forceinline__ void team_register_rows(const plan& p, const device_outputs& out, int team_log2,
                                                   std::int64_t stride) {
  using K = dtype_key_t<D>;
  using B = dtype_bits_t<D>;
  constexpr int R = 8 / W;  // rows per team at a time: 8 loads per lane in flight
  const int team = 1 << team_log2;
  const int lane = threadIdx.x & 31, rank = lane & (team - 1);
  const std::int64_t teams_per_warp = 32 >> team_log2;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const int nv = static_cast<int>(p.reduce_size) / vec_elems<D>;
  const B* base = static_cast<const B*>(p.data);
  for (std::int64_t first = R * warp * teams_per_warp; first < p.outputs; first += R * warps * teams_per_warp) {
    register_row<D, W, Plain, TiesLast> rows[R];
    std::int64_t o[R];
    bool ok[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {  // neighbouring teams take neighbouring rows
      o[r] = first + r * teams_per_warp + (lane >> team_log2);
      ok[r] = o[r] < p.outputs;
      rows[r].load(base + (ok[r] ? o[r] * stride : 0), ok[r], nv, rank, team);
    }
#pragma unroll
    for (int r = 0; r < R; ++r) rows[r].fold(ok[r], nv, rank, team, p.keys);
    K team_key[R];
#pragma unroll
    for (int r = 0; r < R; ++r) team_key[r] = rows[r].key;
    for (int step = team / 2; step > 0; step /= 2)
#pragma unroll
      for (int r = 0; r < R; ++r) team_key[r] = team_max_key(team_key[r], step);
#pragma unroll
    for (int r = 0; r < R; ++r) rows[r].locate(team_key[r], ok[r], nv, rank, team, p.keys);
    for (int step = team / 2; step > 0; step /= 2)
#pragma unroll
      for (int r = 0; r < R; ++r) rows[r].pos = team_pick_pos<TiesLast>(rows[r].pos, step);
#pragma unroll
    for (int r = 0; r < R; ++r)
      if (ok[r] && rank == 0) {
        const B* row = base + o[r] * stride;
        store_winner<D>(p, out, o[r], row + rows[r].pos, candidate<K>{rows[r].key, rows[r].pos});
      }
  }
}

/// Any rows of fewer than 2^31 positions (General: any strides), one slice per team at a
/// time; the team's first lane stores the winner.
template <dtype D, bool General, bool Plain, bool TiesLast>
__device__ __forceinline__ void team_rows(const plan& p, const device_outputs& out, int team_log2) {
  using K = dtype_key_t<D>;
  using B = dtype_bits_t<D>;
  const int team = 1 << team_log2;
  const int lane = threadIdx.x & 31, rank = lane & (team - 1);
  const std::int64_t teams_per_warp = 32 >> team_log2;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const int reduce = static_cast<int>(p.reduce_size);
  const B* base = static_cast<const B*>(p.data);
  // The loop bound is the same for the whole warp, so every lane reaches the shuffles.
  for (std::int64_t first = warp * teams_per_warp; first < p.outputs; first += warps * teams_per_warp) {
    const std::int64_t o = first + (lane >> team_log2);
    auto best = ascending_best<K, int>::seeded(reduce, p.ties_last);
    const B* slice = base;
    if (o < p.outputs) {
      slice = base + slice_start(p, o);
      if constexpr (General)
        scan_general<D, int>(p, slice, 0, reduce, rank, team, best);
      else
        scan_contiguous<D, team_unroll, Plain, TiesLast, int>(slice, 0, reduce, rank, team, p.keys, best);
    }
    device::warp_reduce_groups(best.key, best.pos, team, p.ties_last);
    if (o < p.outputs && rank == 0)
      store_winner<D>(p, out, o, slice + position_offset<General>(p, best.pos), candidate<K>{best.key, best.pos});
  }
}

/// team: aligned groups of 2^team_log2 lanes, each reducing one slice at a time.
template <dtype D, bool General, bool Plain>
__global__ void __launch_bounds__(team_max_threads) team_kernel(const plan p, const device_outputs out, const int team_log2) {
  if constexpr (General)
    team_rows<D, true, false, false>(p, out, team_log2);  // run-time tie rule inside
  else if (p.ties_last)
    team_rows<D, false, Plain, true>(p, out, team_log2);
  else
    team_rows<D, false, Plain, false>(p, out, team_log2);
}

/// team, short aligned rows held in registers (at most W vectors per lane).
template <dtype D, int W, bool Plain>
__global__ void __launch_bounds__(team_max_threads, register_rows_min_resident) register_rows_kernel(const plan p, const device_outputs out,
                                                                         const int team_log2) {
  const std::int64_t stride = p.kept_extents.size() == 1 ? p.kept_strides[0] : 0;
  if (p.ties_last)
    team_register_rows<D, W, Plain, true>(p, out, team_log2, stride);
  else
    team_register_rows<D, W, Plain, false>(p, out, team_log2, stride);
}

/// The items of a block kernel: one (slice, split) at a time.
template <dtype D, bool General, bool Plain, bool TiesLast>
__device__ __forceinline__ void block_items(const plan& p, const device_outputs& out, const workspace_ptrs& ws,
                                            std::int64_t splits, std::int64_t chunk,
                                            typename device::block_argmax<dtype_key_t<D>, std::int64_t>::storage& tmp,
                                            bool& last_flag) {
  using K = dtype_key_t<D>;
  using B = dtype_bits_t<D>;
  const std::int64_t reduce = p.reduce_size, items = p.outputs * splits;
  const B* base = static_cast<const B*>(p.data);
  auto* parts = static_cast<partial<K>*>(ws.partials);
  for (std::int64_t w = blockIdx.x; w < items; w += gridDim.x) {
    const std::int64_t o = w / splits, s = w - o * splits;
    const std::int64_t begin = s * chunk, end = begin + chunk < reduce ? begin + chunk : reduce;
    const B* slice = base + slice_start(p, o);
    auto best = ascending_best<K, std::int64_t>::seeded(reduce, p.ties_last);
    if constexpr (General)
      scan_general<D, std::int64_t>(p, slice, begin, end, threadIdx.x, blockDim.x, best);
    else
      scan_contiguous<D, contiguous_unroll<D>, Plain, TiesLast, std::int64_t>(slice, begin, end, threadIdx.x,
                                                                             blockDim.x, p.keys, best);
    candidate<K> c = device::block_argmax<K, std::int64_t>(tmp).reduce(candidate<K>{best.key, best.pos}, p.ties_last);
    if (splits == 1) {
      if (threadIdx.x == 0) store_winner<D>(p, out, o, slice + position_offset<General>(p, c.pos), c);
      continue;
    }
    if (threadIdx.x == 0) store_partial(parts, w, c);
    if (!arrive_last(ws.counters + o, static_cast<unsigned>(splits), last_flag)) continue;
    c = seed<K>(reduce, p.ties_last);
    for (std::int64_t i = threadIdx.x; i < splits; i += blockDim.x)
      c = combine(c, load_partial(parts, o * splits + i), p.ties_last);
    c = device::block_argmax<K, std::int64_t>(tmp).reduce(c, p.ties_last);
    if (threadIdx.x == 0) store_winner<D>(p, out, o, slice + position_offset<General>(p, c.pos), c);
  }
}

/// block: one block per (slice, split). With one split the block stores the winner; with
/// several, each block leaves a partial and the last of a slice's blocks to finish combines
/// them, so a whole reduction takes one launch.
template <dtype D, bool General, bool Plain>
__global__ void __launch_bounds__(block_max_threads, block_min_resident) block_kernel(const plan p, const device_outputs out,
                                                                     const workspace_ptrs ws, const std::int64_t splits,
                                                                     const std::int64_t chunk) {
  __shared__ typename device::block_argmax<dtype_key_t<D>, std::int64_t>::storage tmp;
  __shared__ bool last_flag;
  if (General || !p.ties_last)
    block_items<D, General, Plain, false>(p, out, ws, splits, chunk, tmp, last_flag);
  else
    block_items<D, General, Plain, true>(p, out, ws, splits, chunk, tmp, last_flag);
}

/// Best of each of a lane's columns over reduced rows first, first + step, ... < r1,
/// positions relative to r0. Accumulators start from argx's seed for the split (key 0 at
/// its first row, or its last with ties_last: a real row, so a lane with no row changes no
/// answer; see column_best). Rows are loaded Unroll at a time, all in flight before any is
/// folded.
/// `col` points at row 0 of the first column; rows are `rs` elements apart.
template <dtype D, int Unroll, bool Plain, bool TiesLast, bool Vector>
__device__ __forceinline__ void scan_columns(const dtype_bits_t<D>* col, std::int64_t rs, std::int64_t r0, std::int64_t first,
                                             std::int64_t step, std::int64_t r1, std::int64_t split_end, int ncols,
                                             key_params kp,
                                             ascending_best<dtype_key_t<D>, unsigned> (&best)[vec_elems<D>]) {
  using B = dtype_bits_t<D>;
  constexpr int V = vec_elems<D>;
  column_best<D, Plain, TiesLast> acc[V];
#pragma unroll
  for (int j = 0; j < V; ++j) acc[j].start(TiesLast ? static_cast<unsigned>(split_end - 1 - r0) : 0u, kp);
  auto load_row = [&](std::int64_t r) {
    const B* row = col + r * rs;
    if constexpr (Vector) {
      return load_vec<D>(row);
    } else {
      vec<D> x{{0, 0, 0, 0}};
      B e[V];
#pragma unroll
      for (int j = 0; j < V; ++j) e[j] = j < ncols ? __ldg(row + j) : B(0);
      std::memcpy(x.w, e, 16);
      return x;
    }
  };
  for (std::int64_t r = first; r < r1; r += Unroll * step) {
    vec<D> x[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (r + u * step < r1) x[u] = load_row(r + u * step);
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (r + u * step < r1)
#pragma unroll
        for (int j = 0; j < V; ++j) acc[j].take(x[u].at(j), static_cast<unsigned>(r + u * step - r0), kp);
  }
#pragma unroll
  for (int j = 0; j < V; ++j) best[j] = acc[j].finish(kp);
}

/// Where a strided kernel lane's column group lives: its first output and element offset.
/// Kept dims [outer, inner] (the usual case) avoid the general offset walk.
__device__ __forceinline__ void column_group(const plan& p, std::int64_t g, std::int64_t per_outer, std::int64_t inner,
                                             int V, std::int64_t& first_out, std::int64_t& offset, int& ncols) {
  std::int64_t outer, c0;
  if (g < (std::int64_t(1) << 31) && per_outer < (std::int64_t(1) << 31)) {
    const unsigned q = static_cast<unsigned>(g) / static_cast<unsigned>(per_outer);
    outer = q;
    c0 = (g - static_cast<std::int64_t>(q) * per_outer) * V;
  } else {
    outer = g / per_outer;
    c0 = (g - outer * per_outer) * V;
  }
  first_out = outer * inner + c0;
  offset = p.kept_extents.size() == 2 ? outer * p.kept_strides[0] + c0 : kept_offset(p, first_out);
  ncols = inner - c0 < V ? static_cast<int>(inner - c0) : V;
}

/// The warp items of the strided kernel.
template <dtype D, bool Plain, bool TiesLast>
__device__ __forceinline__ void strided_items(const plan& p, const device_outputs& out, const workspace_ptrs& ws,
                                              std::int64_t splits, std::int64_t chunk, int col_log2, bool vector_ok) {
  using K = dtype_key_t<D>;
  using B = dtype_bits_t<D>;
  constexpr int V = vec_elems<D>;
  const std::int64_t inner = p.kept_extents[p.kept_extents.size() - 1], reduce = p.reduced_extents[0];
  const std::int64_t rs = p.reduced_strides[0];
  const std::int64_t per_outer = (inner + V - 1) / V, groups = (p.outputs / inner) * per_outer;
  const int lane = threadIdx.x & 31, cols = 1 << col_log2;
  const int tx = lane & (cols - 1), ty = lane >> col_log2, row_lanes = 32 >> col_log2;
  const std::int64_t tiles = (groups + cols - 1) / cols;
  const std::int64_t w = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  if (w >= tiles * splits) return;  // the whole warp leaves together
  // Neighbouring warps take neighbouring tiles of the same rows: one block reads long
  // contiguous runs of each row rather than scattered 16-byte columns.
  const std::int64_t s = w / tiles, tile = w - s * tiles;
  const std::int64_t r0 = s * chunk, r1 = r0 + chunk < reduce ? r0 + chunk : reduce;
  const std::int64_t g = tile * cols + tx;
  const bool active = g < groups;
  std::int64_t o0 = 0, offset = 0;
  int ncols = 0;
  if (active) column_group(p, g, per_outer, inner, V, o0, offset, ncols);
  const B* col = static_cast<const B*>(p.data) + offset;
  ascending_best<K, unsigned> best[V];
  if (vector_ok)  // two loops, so the choice of load is not made again for every row
    scan_columns<D, strided_unroll<D>, Plain, TiesLast, true>(col, rs, r0, r0 + ty, row_lanes, active ? r1 : r0, r1,
                                                              ncols, p.keys, best);
  else
    scan_columns<D, strided_unroll<D>, Plain, TiesLast, false>(col, rs, r0, r0 + ty, row_lanes, active ? r1 : r0, r1,
                                                               ncols, p.keys, best);
  // Fold the row lanes of each column: lanes tx, tx + cols, ... differ in the high bits.
  for (int off = cols; off < 32; off <<= 1)
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const K k = __shfl_xor_sync(device::full_warp, best[j].key, off);
      const unsigned q = __shfl_xor_sync(device::full_warp, best[j].pos, off);
      if (beats(k, static_cast<std::int64_t>(q), best[j].key, static_cast<std::int64_t>(best[j].pos), p.ties_last))
        best[j] = {k, q};
    }
  const bool writer = active && ty == 0;
  if (splits == 1) {
    if (writer)
#pragma unroll
      for (int j = 0; j < V; ++j)
        if (j < ncols) {
          const candidate<K> c{best[j].key, best[j].pos};
          store_winner<D>(p, out, o0 + j, col + c.pos * rs + j, c);
        }
    return;
  }
  auto* parts = static_cast<partial<K>*>(ws.partials);
  if (writer)
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (j < ncols) store_partial(parts, s * p.outputs + o0 + j, candidate<K>{best[j].key, r0 + best[j].pos});
  if (!warp_arrive_last(ws.counters + tile, static_cast<unsigned>(splits), writer)) return;
  // The last warp of the tile: lane (tx, ty) folds splits ty, ty + row_lanes, ... of its
  // columns, four loads in flight, then the row-lane fold again.
  candidate<K> c[V];
#pragma unroll
  for (int j = 0; j < V; ++j) c[j] = seed<K>(reduce, p.ties_last);
  if (active) {
    for (std::int64_t q = ty; q < splits; q += 4 * row_lanes) {
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        const std::int64_t qs = q + u * row_lanes;
        if (qs < splits)
#pragma unroll
          for (int j = 0; j < V; ++j)
            if (j < ncols) c[j] = combine(c[j], load_partial(parts, qs * p.outputs + o0 + j), p.ties_last);
      }
    }
  }
  for (int off = cols; off < 32; off <<= 1)
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const K k = __shfl_xor_sync(device::full_warp, c[j].key, off);
      const std::int64_t q = __shfl_xor_sync(device::full_warp, c[j].pos, off);
      c[j] = combine(c[j], candidate<K>{k, q}, p.ties_last);
    }
  if (writer)
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (j < ncols) store_winner<D>(p, out, o0 + j, col + c[j].pos * rs + j, c[j]);
}

/// strided: [outer, R, inner] with inner contiguous. Work comes in warp items (tile,
/// split): a tile is 2^col_log2 groups of 16/sizeof(T) neighbouring columns, one group per
/// lane, the warp's other lanes taking every (32 >> col_log2)-th row of the split. Lanes
/// fold their rows with shuffles; with several splits, the last warp of a tile to finish
/// combines the splits' partials, its lanes sharing the splits the same way.
template <dtype D, bool Plain>
__global__ void __launch_bounds__(strided_max_threads) strided_kernel(const plan p, const device_outputs out,
                                                                      const workspace_ptrs ws, const std::int64_t splits,
                                                                      const std::int64_t chunk, const int col_log2,
                                                                      const bool vector_ok) {
  if (p.ties_last)
    strided_items<D, Plain, true>(p, out, ws, splits, chunk, col_log2, vector_ok);
  else
    strided_items<D, Plain, false>(p, out, ws, splits, chunk, col_log2, vector_ok);
}

template <dtype D>
void fill_residency(tuning& t) {
  int n = 0;
  t.team.threads = t.team.threads < team_max_threads ? t.team.threads : team_max_threads;
  t.block.threads = t.block.threads < block_max_threads ? t.block.threads : block_max_threads;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, team_kernel<D, false, true>, t.team.threads, 0) == cudaSuccess)
    t.team.blocks_per_multiprocessor = n > 0 ? n : 1;
  t.registers.threads = t.registers.threads < team_max_threads ? t.registers.threads : team_max_threads;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, register_rows_kernel<D, 4, true>, t.registers.threads, 0) ==
      cudaSuccess)
    t.registers.blocks_per_multiprocessor = n > 0 ? n : 1;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, block_kernel<D, false, true>, t.block.threads, 0) == cudaSuccess)
    t.block.blocks_per_multiprocessor = n > 0 ? n : 1;
  if (t.strided.threads > strided_max_threads) t.strided.threads = strided_max_threads;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, strided_kernel<D, true>, t.strided.threads, 0) == cudaSuccess)
    t.strided.blocks_per_multiprocessor = n > 0 ? n : 1;
  cudaGetLastError();  // a failed query leaves the defaults; clear its error
}

template <dtype D, int W>
void launch_register_rows(const launch_config& c, const plan& p, const device_outputs& out, bool plain, dim3 grid,
                          dim3 block, cudaStream_t stream) {
  if (plain)
    register_rows_kernel<D, W, true><<<grid, block, 0, stream>>>(p, out, c.team_log2);
  else
    register_rows_kernel<D, W, false><<<grid, block, 0, stream>>>(p, out, c.team_log2);
}

template <dtype D>
void enqueue_register_rows(const launch_config& c, const plan& p, const device_outputs& out, bool plain, dim3 grid,
                           dim3 block, cudaStream_t stream) {
  switch (c.register_vectors) {
    case 2: launch_register_rows<D, 2>(c, p, out, plain, grid, block, stream); break;
    case 4: launch_register_rows<D, 4>(c, p, out, plain, grid, block, stream); break;
    default: launch_register_rows<D, 8>(c, p, out, plain, grid, block, stream); break;
  }
}

template <dtype D>
void enqueue(const launch_config& c, const plan& p, const device_outputs& out, const workspace_ptrs& ws,
             cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(c.blocks)), block(static_cast<unsigned>(c.threads));
  // Plain loops (abs and nan ignore off) are compiled with those flags known; general
  // strides always use the run-time flags.
  const bool plain = !p.keys.abs && !p.keys.nan_ignore;
  switch (c.kernel) {
    case kernel_kind::team:
      if (c.general)
        team_kernel<D, true, false><<<grid, block, 0, stream>>>(p, out, c.team_log2);
      else if (c.register_vectors > 0)
        enqueue_register_rows<D>(c, p, out, plain, grid, block, stream);
      else if (plain)
        team_kernel<D, false, true><<<grid, block, 0, stream>>>(p, out, c.team_log2);
      else
        team_kernel<D, false, false><<<grid, block, 0, stream>>>(p, out, c.team_log2);
      break;
    case kernel_kind::block:
      if (c.general)
        block_kernel<D, true, false><<<grid, block, 0, stream>>>(p, out, ws, c.splits, c.chunk);
      else if (plain)
        block_kernel<D, false, true><<<grid, block, 0, stream>>>(p, out, ws, c.splits, c.chunk);
      else
        block_kernel<D, false, false><<<grid, block, 0, stream>>>(p, out, ws, c.splits, c.chunk);
      break;
    case kernel_kind::strided:
      if (plain)
        strided_kernel<D, true><<<grid, block, 0, stream>>>(p, out, ws, c.splits, c.chunk, c.team_log2, c.vector);
      else
        strided_kernel<D, false><<<grid, block, 0, stream>>>(p, out, ws, c.splits, c.chunk, c.team_log2, c.vector);
      break;
  }
}

}  // namespace argx::detail::gpu
