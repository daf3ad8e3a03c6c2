// Work-item level of the tiny kernels: slices of a few elements, a thread each, read
// element by element (a 16-byte window, a team or an odometer a slice would cost more than
// the slice's bytes). Used for one run of at most 8 elements a slice (tiny rows) and for a
// few positions in any layout (tiny slices: several short runs, rows of up to 24 elements,
// no unit stride, or few rows of narrow columns; launch.cpp says which). The __global__
// entries are in kernels.cuh.
#pragma once

#include <cstdint>

#include "general_scan.cuh"
#include "store.cuh"
#include "tuning.hpp"

namespace argx::detail::gpu {

/// Each thread takes slices in turn: loads of tune::tiny_row_max positions issued
/// together, then their keys compared in position order, batch after batch. Neighbouring
/// threads take neighbouring outputs, so a warp's loads of position j cover its slices'
/// bytes together.
///
/// OneRun: the slice is one run (stride run_dir), position j at j * run_dir. Otherwise
/// position j lies at `offsets[j]` (the block's table, filled here) while the slice has at
/// most tune::tiny_slice_max positions, else where the reduced axes put it.
template <dtype D, bool OneRun>
__device__ __forceinline__ void tiny_slice_items(const layout& l, const device_outputs& out, std::int64_t* offsets) {
  using B = dtype_bits_t<D>;
  using K = dtype_key_t<D>;
  constexpr int batch = tune::compiled_arch::tiny_row_max;
  constexpr int table = tune::compiled_arch::tiny_slice_max;
  const int len = static_cast<int>(l.reduce);
  const bool tabled = !OneRun && len <= table;
  if (tabled) {  // every slice's positions lie at the same offsets from its start
    for (int j = threadIdx.x; j < len; j += blockDim.x) offsets[j] = l.element_offset(j);
    __syncthreads();
  }
  const B* base = static_cast<const B*>(l.data);
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t o = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < l.outputs; o += step) {
    const B* slice = base + l.slice_offset(o);
    auto best = position_best<K, int>::seeded(len, l.ties_last);
    if constexpr (OneRun) {
      // One batch: choose_launch sends rows of at most `batch` elements here (a loop over
      // batches costs registers, and so resident threads, that these latency-bound rows need).
      const std::int64_t dir = l.run_dir;
      B e[batch];
#pragma unroll
      for (int k = 0; k < batch; ++k) e[k] = k < len ? __ldg(slice + k * dir) : B(0);
#pragma unroll
      for (int k = 0; k < batch; ++k)
        if (k < len) best.take(order_key<D>(e[k], l.keys), k, l.ties_last);
      for (int j = batch; j < len; ++j)  // longer rows (another architecture's choice), one by one
        best.take(order_key<D>(__ldg(slice + j * dir), l.keys), j, l.ties_last);
    } else {
      for (int first = 0; first < len; first += batch) {
        B e[batch];
#pragma unroll
        for (int k = 0; k < batch; ++k) {
          const int j = first + k;
          e[k] = j < len ? __ldg(slice + (tabled ? offsets[j] : l.element_offset(j))) : B(0);
        }
#pragma unroll
        for (int k = 0; k < batch; ++k)
          if (first + k < len) best.take(order_key<D>(e[k], l.keys), first + k, l.ties_last);
      }
    }
    store_answer<D>(l, out, o, slice, candidate<K>{best.key, best.pos});
  }
}

}  // namespace argx::detail::gpu
