// Work-item level of the staged rows kernel: slices of one short forward run ("rows" of
// 5 to 9 aligned 16-byte slots, tuning.hpp) of plain reductions, a thread a row. A block
// takes a tile of a row a thread: it copies every slot of the tile's rows into shared
// memory with asynchronous copies (all in flight at once, none held in registers), then
// each thread folds its row from there. The window kernel gives such rows a team of 2-4
// lanes of a power-of-two number of slots each (16 slots for a row of 9, the rest
// predicated off), and agrees on the winner by shuffles; a thread a row wastes no lane and
// needs no shuffle. The __global__ entry is in kernels.cuh.
#pragma once

#include <cstdint>

#include "elements.cuh"
#include "layout.hpp"
#include "store.cuh"
#include "tuning.hpp"

namespace argx::detail::gpu {

/// Shared memory of a block of the staged rows kernel besides its dynamic tile of slots:
/// the first byte of each row of the tile (a row a thread).
struct staged_rows_table {
  std::uintptr_t low[tune::threads];
};

/// A shared-memory slot read as one 16-byte load.
template <dtype D>
__device__ __forceinline__ vec<D> staged_slot(const uint4* p) {
  const uint4 raw = *p;
  return vec<D>{{raw.x, raw.y, raw.z, raw.w}};
}

/// How a launch's rows are laid out: the bytes of a row, the most slots it touches, and
/// division by that (a copy's row in the tile).
struct staged_rows_shape {
  std::uint32_t row_bytes;
  int row_slots, stride;  ///< stride: slots from one row of the tile to the next
  divisor32 by_slots;
};

/// Copies every slot of the tile of rows from output `first` (row r to tile[r * stride ...])
/// and waits for them. The tensor's first and last slots, which reach past its bytes, are
/// read element by element.
template <dtype D>
__device__ __forceinline__ void stage_rows(const layout& l, const staged_rows_shape& shape, std::int64_t first, int rows,
                                           uint4* tile, staged_rows_table& table) {
  using B = dtype_bits_t<D>;
  constexpr int elem = sizeof(B);
  if (static_cast<int>(threadIdx.x) < rows)
    table.low[threadIdx.x] = reinterpret_cast<std::uintptr_t>(l.data) +
                             static_cast<std::uintptr_t>(l.slice_offset(first + threadIdx.x) * elem);
  __syncthreads();
  const int copies = rows * shape.row_slots;
  for (int i = threadIdx.x; i < copies; i += blockDim.x) {
    const int r = static_cast<int>(shape.by_slots.div(static_cast<std::uint32_t>(i))), k = i - r * shape.row_slots;
    const std::uintptr_t low = table.low[r], at = (low & ~std::uintptr_t(15)) + (static_cast<std::uintptr_t>(k) << 4);
    if (at >= low + shape.row_bytes) continue;  // past the row's last slot
    const auto* from = reinterpret_cast<const B*>(at);
    if (vec_inside(from, l.span_begin, l.span_end)) {
      copy_vec_async(tile + r * shape.stride + k, from);
    } else {
      const vec<D> x = load_vec_in<D>(from, l.span_begin, l.span_end);
      tile[r * shape.stride + k] = make_uint4(x.w[0], x.w[1], x.w[2], x.w[3]);
    }
  }
  async_copies_wait_all();
  __syncthreads();
}

/// Folds the row `low` points to (staged at `row`) and returns the winner: its largest
/// key in the value domain, then its first (last) position holding it.
template <dtype D>
__device__ __forceinline__ candidate<dtype_key_t<D>> fold_staged_row(const layout& l, const uint4* row,
                                                                     std::uintptr_t low, std::uintptr_t row_bytes) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  using P = value_ops<D>;
  constexpr int V = vec_elems<D>, elem = sizeof(B);
  const B f = P::flip(l.keys.argmin);
  const key_params kp = loop_keys<true>(l.keys);
  const std::uintptr_t last_byte = low + row_bytes - 1;
  const int lo = static_cast<int>(low & 15u), tail = static_cast<int>(last_byte & 15u) + 1;
  const int last = static_cast<int>((last_byte >> 4) - (low >> 4));
  // Bytes of the first and last slot that are not the row's become the lowest value, which
  // can tie a real element but never beat one; the search looks at the row's bytes only.
  const vec<D> filler = splat<D>(static_cast<B>(lowest_bits<D>() ^ f));
  vec<D> x = staged_slot<D>(row);
  keep_bytes(x.w, lo, last == 0 ? tail : 16, filler.w);
  B best = P::best(x, f);
  for (int s = 1; s < last; ++s) best = P::better(best, P::best(staged_slot<D>(row + s), f), f);
  if (last > 0) {
    x = staged_slot<D>(row + last);
    keep_bytes(x.w, 0, tail, filler.w);
    best = P::better(best, P::best(x, f), f);
  }
  const K key = order_key<D>(best, kp);
  const bool ties_last = l.ties_last;
  int pos = 0;
  for (int s = ties_last ? last : 0; ties_last ? s >= 0 : s <= last; s += ties_last ? -1 : 1) {
    const int j = vec_find_key_in<D>(staged_slot<D>(row + s), key, kp, s == 0 ? lo / elem : 0,
                                     s == last ? tail / elem : V, ties_last);
    if (j >= 0) {
      pos = s * V + j - lo / elem;
      break;
    }
  }
  return candidate<K>{key, pos};
}

/// The block's tiles of a row a thread: tile blockIdx.x and every gridDim.x-th after it.
template <dtype D>
__device__ __forceinline__ void staged_row_items(const layout& l, const device_outputs& out,
                                                 const staged_rows_shape& shape, uint4* tile,
                                                 staged_rows_table& table) {
  using B = dtype_bits_t<D>;
  for (std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x; first < l.outputs;
       first += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const int rows = l.outputs - first < blockDim.x ? static_cast<int>(l.outputs - first) : static_cast<int>(blockDim.x);
    stage_rows<D>(l, shape, first, rows, tile, table);
    if (static_cast<int>(threadIdx.x) < rows) {
      const std::uintptr_t low = table.low[threadIdx.x];
      const uint4* row = tile + threadIdx.x * shape.stride;
      const candidate<dtype_key_t<D>> c = fold_staged_row<D>(l, row, low, shape.row_bytes);
      B value = 0;
      if (out.values) value = reinterpret_cast<const B*>(reinterpret_cast<const char*>(row) + (low & 15u))[c.pos];
      store_found<D>(l, out, first + threadIdx.x, answer_index<D>(l, c), value);
    }
    __syncthreads();  // the tile and its table are read before the next tile's copies
  }
}

}  // namespace argx::detail::gpu
