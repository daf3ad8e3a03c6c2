// Host level of the kernels: the residency query and the launch of the kernel a
// launch_config names, with its compile-time variant (plain keys, window slots, short
// runs, packed and aligned columns) picked from the config and the layout. Included by
// kernels/<dtype>.cu, one dtype each; dispatch.cpp sees it through enqueue.hpp.
#pragma once

#include "enqueue.hpp"
#include "kernels.cuh"

namespace argx::detail::gpu {

template <dtype D>
void fill_residency(residency& r) {
  auto query = [](const void* kernel, int& into, std::size_t shared_bytes = 0) {
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, tune::threads, shared_bytes) == cudaSuccess && n > 0)
      into = n;
  };
  constexpr bool narrow = sizeof(dtype_bits_t<D>) <= 2;
  query(reinterpret_cast<const void*>(tiny_kernel<D, true>), r.tiny_rows);
  query(reinterpret_cast<const void*>(windows_kernel<D, 4, true>), r.windows);
  // with a full tile (launches of shorter rows take less)
  query(reinterpret_cast<const void*>(staged_rows_kernel<D>), r.staged_rows, tune::compiled_arch::staged_tile_bytes);
  query(reinterpret_cast<const void*>(runs_team_kernel<D, true>), r.runs_team);
  query(reinterpret_cast<const void*>(runs_block_kernel<D, true, false>), r.runs_block);
  query(reinterpret_cast<const void*>(columns_kernel<D, true, narrow, column_read::shifted>), r.columns);
  query(reinterpret_cast<const void*>(elements_team_kernel<D>), r.elements);
  cudaGetLastError();  // a failed query leaves the default; clear its error
}

namespace enqueue_detail {

template <dtype D, bool Plain>
void windows(const launch_config& c, const layout& l, const device_outputs& out, dim3 grid, dim3 block, cudaStream_t s) {
  switch (c.window_slots) {
    case 2: windows_kernel<D, 2, Plain><<<grid, block, 0, s>>>(l, out, c.team_log2); break;
    case 4: windows_kernel<D, 4, Plain><<<grid, block, 0, s>>>(l, out, c.team_log2); break;
    default: windows_kernel<D, 8, Plain><<<grid, block, 0, s>>>(l, out, c.team_log2); break;
  }
}

template <dtype D, bool Plain, bool Packed>
void columns(const launch_config& c, const layout& l, const device_outputs& out, const workspace_ptrs& ws, dim3 grid,
             dim3 block, cudaStream_t s) {
  auto go = [&](auto kernel) {
    kernel<<<grid, block, 0, s>>>(l, out, ws, c.splits, c.chunk, c.column_lanes_log2, c.row_warps_log2,
                                  c.answer_blocks > 0);
  };
  switch (c.read) {
    case column_read::aligned: go(columns_kernel<D, Plain, Packed, column_read::aligned>); break;
    case column_read::shifted: go(columns_kernel<D, Plain, Packed, column_read::shifted>); break;
    case column_read::shuffled: go(columns_kernel<D, Plain, Packed, column_read::shuffled>); break;
  }
}

template <dtype D>
void columns_any(const launch_config& c, const layout& l, const device_outputs& out, const workspace_ptrs& ws, dim3 grid,
                 dim3 block, cudaStream_t s) {
  // Plain narrow columns are always packed (choose_launch), so that variant is not built.
  if constexpr (sizeof(dtype_bits_t<D>) <= 2) {
    if (c.packed)
      columns<D, true, true>(c, l, out, ws, grid, block, s);
    else
      columns<D, false, false>(c, l, out, ws, grid, block, s);
  } else {
    if (l.plain())
      columns<D, true, false>(c, l, out, ws, grid, block, s);
    else
      columns<D, false, false>(c, l, out, ws, grid, block, s);
  }
}

template <dtype D, bool Plain, bool Short, bool Across = false>
void runs_block(const launch_config& c, const layout& l, const device_outputs& out, const workspace_ptrs& ws,
                dim3 grid, dim3 block, cudaStream_t s) {
  runs_block_kernel<D, Plain, Short, Across><<<grid, block, 0, s>>>(l, out, ws, c.splits, c.chunk, c.run_slots);
}

}  // namespace enqueue_detail

template <dtype D>
void enqueue(const launch_config& c, const layout& l, const device_outputs& out, const workspace_ptrs& ws,
             cudaStream_t stream) {
  namespace e = enqueue_detail;
  const dim3 grid(static_cast<unsigned>(c.blocks)), block(static_cast<unsigned>(c.threads));
  // Plain loops (abs and nan ignore off) are compiled with those flags known.
  const bool plain = l.plain();
  switch (c.kernel) {
    case kernel_kind::tiny_rows:
    case kernel_kind::tiny_slices: {  // the outputs in the order the launch chose
      const layout walked = c.memory_order ? with_kept_in_memory_order(l) : l;
      if (c.kernel == kernel_kind::tiny_rows)
        tiny_kernel<D, true><<<grid, block, 0, stream>>>(walked, out);
      else
        tiny_kernel<D, false><<<grid, block, 0, stream>>>(walked, out);
      break;
    }
    case kernel_kind::windows:  // plain reductions only (choose_launch)
      e::windows<D, true>(c, l, out, grid, block, stream);
      break;
    case kernel_kind::staged_rows: {  // plain reductions only (choose_launch)
      const staged_rows_shape shape{static_cast<std::uint32_t>(l.run_axis().extent * sizeof(dtype_bits_t<D>)),
                                    static_cast<int>(c.run_slots), c.stage_stride, divisor32::of(c.run_slots)};
      staged_rows_kernel<D><<<grid, block, staged_tile_bytes(c), stream>>>(l, out, shape);
      break;
    }
    case kernel_kind::runs_team:
      if (plain)
        runs_team_kernel<D, true><<<grid, block, 0, stream>>>(l, out, c.team_log2, c.run_stream, c.run_slots);
      else
        runs_team_kernel<D, false><<<grid, block, 0, stream>>>(l, out, c.team_log2, c.run_stream, c.run_slots);
      break;
    case kernel_kind::runs_unordered:
      if (l.dense && plain)  // one long run (choose_launch: never a stream of short ones)
        runs_dense_kernel<D, true><<<grid, block, 0, stream>>>(l, out, ws, c.splits, c.chunk, c.run_slots);
      else if (l.dense)
        runs_dense_kernel<D, false><<<grid, block, 0, stream>>>(l, out, ws, c.splits, c.chunk, c.run_slots);
      else if (plain)
        runs_unordered_kernel<D, true><<<grid, block, 0, stream>>>(l, out, ws, c.splits, c.chunk, c.run_stream, c.run_slots);
      else
        runs_unordered_kernel<D, false><<<grid, block, 0, stream>>>(l, out, ws, c.splits, c.chunk, c.run_stream, c.run_slots);
      break;
    case kernel_kind::runs_block:
      if (c.run_stream) {  // short runs, one stream of slots
        if (plain)
          e::runs_block<D, true, true>(c, l, out, ws, grid, block, stream);
        else
          e::runs_block<D, false, true>(c, l, out, ws, grid, block, stream);
      } else if (c.run_across) {  // runs of a few slots a lane, one range of slots across them
        if (plain)
          e::runs_block<D, true, false, true>(c, l, out, ws, grid, block, stream);
        else
          e::runs_block<D, false, false, true>(c, l, out, ws, grid, block, stream);
      } else if (plain) {
        e::runs_block<D, true, false>(c, l, out, ws, grid, block, stream);
      } else {
        e::runs_block<D, false, false>(c, l, out, ws, grid, block, stream);
      }
      break;
    case kernel_kind::columns:
      if (c.answer_blocks > 0) {  // the columns (of a walk of virtual ones), then the answers from their partials
        layout full = l, walk = l;
        if (c.virt.any()) virtual_layouts(l, c.virt, full, walk);
        e::columns_any<D>(c, walk, out, ws, grid, block, stream);
        const dim3 answer_grid(static_cast<unsigned>(c.answer_blocks));
        if (c.answers_by_block)
          virtual_answers_kernel<D, true><<<answer_grid, block, 0, stream>>>(full, out, ws, c.splits, c.answer_team_log2);
        else
          virtual_answers_kernel<D, false><<<answer_grid, block, 0, stream>>>(full, out, ws, c.splits,
                                                                              c.answer_team_log2);
      } else {
        e::columns_any<D>(c, l, out, ws, grid, block, stream);
      }
      break;
    case kernel_kind::elements_team:
      elements_team_kernel<D><<<grid, block, 0, stream>>>(l, out, c.team_log2);
      break;
    case kernel_kind::elements_block:
      elements_block_kernel<D><<<grid, block, 0, stream>>>(l, out, ws, c.splits, c.chunk);
      break;
  }
}

}  // namespace argx::detail::gpu

/// Instantiates the host entries of dtype D (one kernels/<dtype>.cu a dtype).
#define ARGX_INSTANTIATE_KERNELS(D)                                                                           \
  namespace argx::detail::gpu {                                                                               \
  template void fill_residency<dtype::D>(residency&);                                                         \
  template void enqueue<dtype::D>(const launch_config&, const layout&, const device_outputs&, const workspace_ptrs&, \
                                  cudaStream_t);                                                              \
  }
