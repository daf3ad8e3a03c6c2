// Kernel level: the __global__ kernels alone, one per kernel family of launch.hpp and
// compile-time variant, each giving its work-item loop (tiny_items, run_items,
// staged_items, column_items, element_items) its shared memory and its register budget:
// __launch_bounds__ from the tuning of the architecture being compiled (tuning.hpp).
// Included by enqueue.cuh.
#pragma once

#include <cstdint>

#include "column_items.cuh"
#include "element_items.cuh"
#include "run_items.cuh"
#include "staged_items.cuh"
#include "tiny_items.cuh"
#include "tuning.hpp"

namespace argx::detail::gpu {

/// Slices of a few elements, a thread each: one run (OneRun), or positions over any
/// reduced axes at offsets the block tabulates.
template <dtype D, bool OneRun>
__global__ void __launch_bounds__(tune::threads) tiny_kernel(const layout l, const device_outputs out) {
  __shared__ std::int64_t offsets[OneRun ? 1 : tune::compiled_arch::tiny_slice_max];
  tiny_slice_items<D, OneRun>(l, out, offsets);
}

/// Slices of one short forward run held in registers, W slots a lane (plain reductions).
template <dtype D, int W, bool Plain>
__global__ void __launch_bounds__(tune::threads, tune::compiled_arch::window_min_resident)
    windows_kernel(const layout l, const device_outputs out, const int team_log2) {
  window_items<D, W, Plain>(l, out, team_log2);
}

/// Slices of one short forward run, a thread each, a tile of them staged in shared memory
/// (plain reductions): the dynamic shared memory holds a row of shape.stride slots a thread.
template <dtype D>
__global__ void __launch_bounds__(tune::threads, tune::compiled_arch::staged_min_resident)
    staged_rows_kernel(const layout l, const device_outputs out, const staged_rows_shape shape) {
  extern __shared__ uint4 staged_slots[];
  __shared__ staged_rows_table table;
  staged_row_items<D>(l, out, shape, staged_slots, table);
}

/// Slices of runs, a team of lanes each.
template <dtype D, bool Plain>
__global__ void __launch_bounds__(tune::threads, tune::compiled_arch::runs_team_min_resident)
    runs_team_kernel(const layout l, const device_outputs out, const int team_log2, const bool stream,
                     const std::int64_t slots_per_run) {
  run_team_items<D, Plain>(l, out, team_log2, stream, slots_per_run);
}

/// Slices of runs, a block per (slice, split), ordered walks: long runs walked by the whole
/// block, or short ones as one stream of slots (Short), each with its own register budget
/// (every slot of a short run is located and masked on its own, four at a time); runs of a
/// few slots a lane as one range of slots across them (Across): a kernel of its own, so
/// that the others' registers stay as they were.
template <dtype D, bool Plain, bool Short, bool Across = false>
__global__ void __launch_bounds__(tune::threads, Short ? tune::compiled_arch::runs_short_min_resident
                                                       : tune::compiled_arch::runs_block_min_resident)
    runs_block_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                      const std::int64_t chunk, const std::int64_t slots_per_run) {
  __shared__ block_meeting<dtype_key_t<D>> meet;
  run_block_items<D, Plain, Short, ordered_walk<D, Plain>, Across>(l, out, ws, splits, chunk, slots_per_run, meet);
}

/// The same for unordered walks, long and short runs in one kernel (choose_launch sends
/// them here whatever their size). Dense slices (one long run in memory order) have their
/// own kernel: their per-slot search would weigh on the others' loop.
template <dtype D, bool Plain>
__global__ void __launch_bounds__(tune::threads)
    runs_unordered_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                          const std::int64_t chunk, const bool stream, const std::int64_t slots_per_run) {
  __shared__ block_meeting<dtype_key_t<D>> meet;
  using walk = unordered_walk<D, Plain>;
  if (stream)
    run_block_items<D, Plain, true, walk>(l, out, ws, splits, chunk, slots_per_run, meet);
  else
    run_block_items<D, Plain, false, walk>(l, out, ws, splits, chunk, slots_per_run, meet);
}
template <dtype D, bool Plain>
__global__ void __launch_bounds__(tune::threads)
    runs_dense_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                      const std::int64_t chunk, const std::int64_t slots_per_run) {
  __shared__ block_meeting<dtype_key_t<D>> meet;
  run_block_items<D, Plain, false, unordered_walk<D, Plain, true>>(l, out, ws, splits, chunk, slots_per_run, meet);
}

/// Columns of neighbouring outputs, a block per (column tile, split of the rows): Packed
/// compares four (two) narrow columns at once, Read says how a group's rows are read;
/// leave_partials: the answers kernel folds the pieces' partials.
template <dtype D, bool Plain, bool Packed, column_read Read>
__global__ void __launch_bounds__(tune::threads, tune::compiled_arch::column_min_resident)
    columns_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                   const std::int64_t chunk, const int column_lanes_log2, const int row_warps_log2,
                   const bool leave_partials) {
  __shared__ column_meeting<D> meet;
  if constexpr (Packed)
    column_items<D, packed_bests<D>, Read>(l, out, ws, splits, chunk, column_lanes_log2, row_warps_log2,
                                           leave_partials, meet);
  else
    column_items<D, column_bests<D, Plain>, Read>(l, out, ws, splits, chunk, column_lanes_log2, row_warps_log2,
                                                  leave_partials, meet);
}

/// The answers from a column launch's partials (column_items.cuh: virtual_answer_items).
template <dtype D, bool Block>
__global__ void __launch_bounds__(tune::threads)
    virtual_answers_kernel(const layout l, const device_outputs out, const workspace_ptrs ws,
                           const std::int64_t splits, const int team_log2) {
  __shared__ typename device::block_argmax<dtype_key_t<D>>::storage fold;
  virtual_answer_items<D, Block>(l, out, ws, splits, team_log2, fold);
}

/// No unit stride, a team of lanes per slice.
template <dtype D>
__global__ void __launch_bounds__(tune::threads) elements_team_kernel(const layout l, const device_outputs out,
                                                                      const int team_log2) {
  element_team_items<D>(l, out, team_log2);
}

/// No unit stride, a block per (slice, split).
template <dtype D>
__global__ void __launch_bounds__(tune::threads)
    elements_block_kernel(const layout l, const device_outputs out, const workspace_ptrs ws, const std::int64_t splits,
                          const std::int64_t chunk) {
  __shared__ block_meeting<dtype_key_t<D>> meet;
  element_block_items<D>(l, out, ws, splits, chunk, meet);
}

}  // namespace argx::detail::gpu
