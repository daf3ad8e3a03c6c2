// Every tuning knob of the cuda backend, with what chose it. Plain C++: the launch chooser
// (launch.cpp) and the kernels (kernels.cuh) read these; bench/cuda/NOTES.md holds the
// measurements behind them (H200, 132 multiprocessors, ~4.1-4.5 TB/s read ceiling).
//
// The sizing rule is Little's law in bytes: a Hopper part needs about 30-40 KiB of loads
// outstanding per multiprocessor to keep its memory busy (4.5 TB/s x ~1 us / 132). A
// thread with U 16-byte loads in flight holds 16 U bytes, so a multiprocessor needs
// ~2,048-2,560 such loads in flight: two or three blocks of 256 threads with 4 to 8 each.
#pragma once

#include <cstdint>

#include <argx/dtype.hpp>

namespace argx::detail::gpu::tune {

/// Threads per block of every kernel (their register budgets are compiled for it).
inline constexpr int threads = 256;

/// Bytes of loads a multiprocessor should have in flight (Little's law, above).
inline constexpr std::int64_t bytes_in_flight_per_sm = 36 << 10;

/// Run kernels: 16-byte loads in flight per thread while the previous batch is folded
/// (double-buffered, so 2 x 4 in registers). Measured (v4, flat 2^28 and 64 x 4M rows):
/// 4 at 3 blocks/SM beat 2 at 4 and 8 at 2; 6-8 blocks/SM spill.
inline constexpr int run_unroll = 4;
/// Short runs (a group of lanes per run): runs of a group loaded before any is folded.
inline constexpr int short_run_unroll = 4;
/// Blocks of the team-per-slice run kernel a multiprocessor keeps: its teams wait on one
/// slice each, so residency is what keeps loads in flight.
inline constexpr int runs_team_min_resident = 2;
/// Blocks of the block-per-slice run kernel a multiprocessor keeps (register budget): 2
/// blocks of double-buffered 4-load batches are 64 KiB in flight; at 3 (80 registers) the
/// walk over runs with masked edges spilled inside its load loop.
inline constexpr int runs_block_min_resident = 2;
/// The same for slices of short runs (each run's edge slots, four runs at a time, need
/// more registers: at 3 blocks they spilled).
inline constexpr int runs_short_min_resident = 2;
/// Window kernel (short slices held in registers): 8 loads a lane in flight (8 / W rows of
/// W slots). W from a sweep of row lengths (v5): rows of <= 2 slots W = 2 (16M x 8: 167 us
/// vs 199 with 4), up to 32 slots W = 4 (4M x 32: 157 vs 173 with 8), longer W = 8
/// (1M x 256: 268 vs 279 with 4).
inline constexpr int window_min_resident = 3;
inline constexpr int window_slots_w4 = 2;   ///< rows of more slots than this take W = 4
inline constexpr int window_slots_w8 = 32;  ///< rows of more slots than this take W = 8
inline constexpr int window_max_slots = 8 * 32;

/// Column kernel: rows loaded before any is folded (two vectors a row when the row is not
/// 16-byte aligned): 8 at 2 blocks of 256 a multiprocessor is 64 KiB in flight.
inline constexpr int column_unroll = 8;
inline constexpr int column_min_resident = 2;
/// Fewest rows a thread of the column kernel should walk in one split.
inline constexpr std::int64_t column_min_rows_per_thread = 4;
/// Partials the last block of a column tile may read when the pieces meet through partials
/// (64-bit keys): 16 per thread, with several loads in flight; more when the rows are many
/// (launch.cpp: up to sqrt(rows / 8) splits). The bound alone left int64 dim 0 of
/// 283854 x 227 at 16 blocks, 3.4% of the ceiling (H200 sweep).
inline constexpr std::int64_t column_max_partial_reads = 16 * threads;

/// A team of lanes per slice when a warp covers a slice with this many 16-byte loads per
/// lane or fewer, or when the slices fill the GPU with teams anyway.
inline constexpr int team_slots_per_lane = 2;
/// Fewest bytes in one block's share of a split slice: below that the meeting (fence,
/// arrival atomic, partial reads) costs more than the split saves (v5 sweep: 2^14 floats
/// unsplit 8.7 us, split 9.5-10.1 us).
inline constexpr std::int64_t min_split_bytes = 32 << 10;
inline constexpr std::int64_t max_unsplit_bytes = 64 << 10;

}  // namespace argx::detail::gpu::tune
