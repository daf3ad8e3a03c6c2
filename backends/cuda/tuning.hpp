// Every tuning knob of the cuda backend, one struct an architecture, each knob with the
// measurement that chose it. The measurements are in bench/cuda/NOTES.md ("NOTES v5" is
// its section v5), taken on an H200 (132 multiprocessors, ~4.5 TB/s read ceiling). Plain
// C++: launch.cpp picks the struct of the device's compute capability at run time; the
// kernels take the one of the architecture they are compiled for (compiled_arch).
//
// The sizing rule is Little's law in bytes: a Hopper part needs about 30-40 KiB of loads
// outstanding per multiprocessor to keep its memory busy (4.5 TB/s x ~1 us / 132). A
// thread with U 16-byte loads in flight holds 16 U bytes, so a multiprocessor needs
// ~2,048-2,560 such loads in flight: two or three blocks of 256 threads with 4 to 8 each.
//
// The host's choice and the kernels' need not agree for correct answers (every kernel
// loops over its work items, whatever the grid), only for speed: a GPU running PTX built
// for an older architecture gets that architecture's kernels and its own launch choice.
#pragma once

#include <cstdint>
#include <type_traits>

namespace argx::detail::gpu::tune {

/// Threads per block of every kernel on every architecture: the kernels' register budgets
/// (launch bounds below) are compiled for it, and the occupancy query asks with it.
/// NOTES v4: 256 threads x 3 blocks per multiprocessor with 4 loads a batch.
inline constexpr int threads = 256;

/// Bytes of a slice from which a unit-stride reduced axis that is not the last is walked
/// last, in runs (layout.cpp: the unordered walk, whose only kernel takes a block a
/// slice); shorter slices go element by element, in order. Decided before a device is
/// known, so not per architecture; the size of sm90::max_unsplit_bytes, not measured on
/// its own.
inline constexpr std::int64_t unordered_min_bytes = 64 << 10;
/// Shorter slices of at least unordered_few_min_bytes with no unit stride last take that
/// walk too when there are at most unordered_few_slices of them: a block each is then few
/// blocks, and element by element a block walks its slice one scalar load after another.
/// Small inputs on an H100 (`gpu_sweep --small 200`, NOTES v6.10): int16 flat of a
/// transposed 951 x 33 (62 KB) 71 -> 12.6 us of GPU time, int64 flat of a transposed
/// 127 x 8 x 2 x 2 0.54x; slices that have runs already keep them (float64 flat of a
/// 6 x 2 x 4 x 127 view read in memory order took 1.12x the time of its runs of 127).
inline constexpr std::int64_t unordered_few_min_bytes = 4 << 10;
inline constexpr std::int64_t unordered_few_slices = 256;

/// Slices of at least unordered_min_bytes whose reduced axes tile one block of memory are
/// read in memory order as one run (layout.hpp: dense) unless the view's order already
/// walks them in runs of at least this many bytes. Runs of 53-116 bytes (int8 flat of a
/// 63 x 262144 x 53 view with two reversed dims, uint16 flat of a transposed 131073 x 2 x
/// 58) were walked at 24-28% of the read ceiling. Not swept.
inline constexpr std::int64_t dense_min_run_bytes = 4 << 10;

/// Hopper (sm_90), measured on an H200.
struct sm90 {
  // ---- the sizing rule ------------------------------------------------------------------

  /// Bytes of loads a multiprocessor should have in flight (Little's law, above; the plan
  /// tests check every large launch against it).
  static constexpr std::int64_t bytes_in_flight_per_sm = 36 << 10;

  // ---- kernels: loads in flight and register budgets (compile time) ----------------------

  /// Run kernels: 16-byte loads in flight per thread while the previous batch is folded
  /// (double-buffered, so 2 x 4 in registers). NOTES v4 and "After v5" (flat 2^28,
  /// 4096 x 32768, 64 x 4M): 4 loads at 3 blocks/SM beat 2 at 4 and 8 at 2; 6-8 blocks/SM
  /// spill.
  static constexpr int run_unroll = 4;
  /// Short runs (one stream of slots): slots of a lane loaded before any is folded. The
  /// same depth as run_unroll. 8 spilled in the team kernel (ptxas, float32 and uint8:
  /// 112-124 bytes) and took the unordered one to 151 registers (one block a
  /// multiprocessor); 8 in the block kernel alone (124-128 registers) measured no faster
  /// (NOTES v6.6: H200 sweep, its 17 cases of >= 16 MiB: median time 0.99x, 0.91-1.38x;
  /// ncu: these walks issue instructions, not wait on memory).
  static constexpr int short_run_unroll = 4;
  /// Runs of at most this many slots per lane of their team (or block) are walked as one
  /// stream of slots, every lane loading short_run_unroll of them at a time, whichever run
  /// they belong to; longer runs one after another, the whole team each (double-buffered
  /// run_unroll loads a lane, which a run of 2 slots a lane cannot fill).
  static constexpr std::int64_t stream_max_slots_per_lane = 2;
  /// Block walks of several runs of more than stream_max_slots_per_lane and at most this
  /// many slots a lane take their pieces as one range of slots across the runs, a lane
  /// stepping to the next run where its slot passes a run's end (runs_block_kernel with
  /// Across); longer runs run after run. NOTES v6.25 (H200, seeds 13, 41, 29, against run
  /// after run in one build): 2-5 slots a lane 0.53-0.79x the time on the large launches
  /// (bfloat16 dims {1, 3, 4} of 3371 x 10 x 2 x 8 x 6217 826 -> 440 us, float64 flat of a
  /// 15 x 10 x 63 x 1400 view with a reversed dim 86 -> 61 us), 0.93-1.00x of the GPU time
  /// on small ones; 8-13 slots a lane 1.07-1.22x (run after run, a lane's two double-
  /// buffered batches of 4 already keep loads in flight); 16 and more (--variant
  /// across-all, 11 launches) 0.90-1.58x, median 1.21x.
  static constexpr std::int64_t across_max_slots_per_lane = 7;
  /// Slots of a lane loaded before any is folded in that walk: 8 spilled (ptxas, uint8 and
  /// float32, at the block kernel's 128 registers), 4 does not.
  static constexpr int across_unroll = 4;
  /// Blocks of the team-per-slice run kernel a multiprocessor keeps: its teams wait on one
  /// slice each, so residency is what keeps loads in flight. No sweep of its own recorded;
  /// ptxas (float32, NOTES v6.17): 3 blocks spill 168-192 bytes, 4 blocks 348-364.
  static constexpr int runs_team_min_resident = 2;
  /// Blocks of the block-per-slice run kernel a multiprocessor keeps (register budget).
  /// NOTES v6, found (3): at 3 blocks (80 registers) the walk over runs with masked edges
  /// spilled inside its load loop; 2 blocks (128 registers) of double-buffered 4-load
  /// batches are 64 KiB in flight.
  static constexpr int runs_block_min_resident = 2;
  /// The same for slices of short runs, walked as one stream of slots (NOTES v6.6): 3 blocks
  /// (85 registers; uint8 spills 16 bytes) against 2, with the tighter slot bound of short
  /// runs: float16 dims {0,2} of 1025 x 1648 x 33 0.76x the time, the 17 stream block cases
  /// of >= 16 MiB 0.81-1.00x but one 1.14x (float64 dims {0,2} of 256 x 128 x 511).
  static constexpr int runs_short_min_resident = 3;
  /// Window kernel (short slices held in registers): blocks a multiprocessor keeps and
  /// loads a lane has in flight before it folds any (window_loads / W rows of W slots a
  /// team). NOTES v5 (register rows: 80 registers, 3 blocks of 256) and v6.1 (the same
  /// grid and registers, folded in the value domain: rows 1M x 256 67 -> 83%).
  static constexpr int window_min_resident = 3;
  static constexpr int window_loads = 8;
  /// Staged rows kernel: rows (slices of one short forward run) of staged_min_slots to
  /// staged_max_slots slots, which the window kernel gives a team of 2-4 lanes (W = 4),
  /// copied to shared memory a row a thread, then folded by their thread, where the window
  /// team would hold at least staged_min_idle_pct% of its slots outside the row (rows of 5,
  /// 6 and 9 slots: 37.5%, 25% and 44% idle; not 7 or 8: 12.5% and none). A block's tile
  /// (256 rows at an odd stride of at most 9 slots) stays under staged_tile_bytes, and a
  /// multiprocessor keeps staged_min_resident blocks (38 registers; five tiles and their
  /// row tables fit 228 KiB of shared memory). NOTES v6.13 (H100, against the window
  /// kernel): rows of 5, 6 and 9 slots 0.80-0.96x the time on the sweep (float32 rows of 32
  /// starting off 16 bytes, 9 slots, 0.80x; bool rows of 65 0.80x) but aligned float32 rows
  /// of 32 (8 slots, a window team of 2 x 4 with none idle) 1.48x (the benchmark table:
  /// 84.5% -> 57.5% of the ceiling); rows of 3 slots a thread 1.23x; teams of 2-32 lanes a
  /// row folding from shared memory 1.1-1.4x on most rows of 10-160 slots. Both kernels are
  /// bound by instructions, not memory, and a staged slot costs more of them (its copy,
  /// then a shared load) than one held in registers: staging pays only where the window
  /// team idles. Rows of 7 slots were not measured.
  static constexpr std::int64_t staged_min_slots = 5;
  static constexpr std::int64_t staged_max_slots = 9;
  static constexpr std::int64_t staged_min_idle_pct = 20;
  static constexpr std::int64_t staged_tile_bytes = 40 << 10;
  static constexpr int staged_min_resident = 5;
  /// Column kernel: rows loaded before any is folded (two vectors a row when the row is
  /// not 16-byte aligned), and blocks a multiprocessor keeps. NOTES v5: 4 -> 8 rows
  /// (118 registers, 2 blocks/SM) took 64 x 4096 x 256 from 107 to 95 us; the same at
  /// 3 blocks spilled ~270 bytes and was slower.
  static constexpr int column_unroll = 8;
  static constexpr int column_min_resident = 2;
  /// Split column tiles meeting through atomic maxima: slots the last block reads at once
  /// per thread, for types of at least that many columns a vector (1- and 2-byte types)
  /// and at least a tile's columns of outputs. NOTES v6.21 (H100 sweep): full-width tiles
  /// 0.68-0.96x the time (uint8 dim 2 of a reversed 11 x 5 x 45 x 9151, 503305 outputs,
  /// 50.4 -> 34.3 us); batches in emptier tiles or of 4-byte columns cost 1.02-1.10x.
  static constexpr int column_meeting_batch = 8;

  // ---- launch choice (launch.cpp, run time) -----------------------------------------------

  /// Slices of one run of at most tiny_row_max elements take a thread each, element by
  /// element: a 16-byte window per row of 2-8 elements costs a vector's loads, masking
  /// and search for a few bytes. NOTES v6.3 (H100 sweep, the 16 cases it takes): time
  /// 0.22-0.97x the windows kernel's, median 0.43x (rows of 2 uint8 3.62 -> 0.79 ms).
  /// Compile-time: the loads are unrolled.
  static constexpr int tiny_row_max = 8;
  /// Blocks of the tiny kernels: waves of their resident blocks (their threads take
  /// slices in turn). Not swept.
  static constexpr int tiny_rows_waves = 4;
  /// Slices of at most tiny_slice_max positions over several runs, or with no unit
  /// stride, take a thread each too (tiny_slices), tiny_row_max loads issued at once,
  /// when there are at least tiny_slice_min_outputs_per_sm outputs a multiprocessor
  /// (fewer slices leave most lanes idle: a team each reads them sooner). The positions'
  /// offsets are the same in every slice: a block tabulates them once (compile-time
  /// size). Before, a team of lanes walked each slice as a stream of slots (a slot a run of
  /// a few bytes) or an odometer element by element (NOTES v6.8).
  static constexpr int tiny_slice_max = 64;
  static constexpr std::int64_t tiny_slice_min_outputs_per_sm = 256;
  /// Column reductions of at most tiny_column_max_rows rows (two batches of loads) whose
  /// column groups hold fewer than tiny_column_group_bytes take the same kernel, a thread
  /// an output. NOTES v6.8 (H100 sweep, against the column kernel): groups under 64 bytes,
  /// 0.38-0.94x the time (uint8 dim 2 of a transposed 2 x 2 x 8 x 3000709 0.38x, int32 dim 2
  /// of 580477 x 5 x 3 x 4 x 2 0.43x) but int8 dim 1 of 6568762 x 32 x 5 (32 rows) 1.15x;
  /// any width: wide aligned or packed 2-byte groups 1.3-2.5x (uint16 dim 1 of
  /// 8191 x 15 x 2048 1.53x).
  static constexpr std::int64_t tiny_column_max_rows = 16;
  static constexpr std::int64_t tiny_column_group_bytes = 64;
  /// Column inputs under small_column_bytes with at most small_column_max_rows rows (four
  /// batches) take it whatever their width or number of outputs: the whole input is a few
  /// loads a thread either way, and the column kernel's fixed cost dominates (5.6-8 us of
  /// GPU time with 2-7 rows, 10-24 us for packed narrow types, against 4.6-5.7 us thread a
  /// slice; H100, `gpu_sweep --small 200 --variant tiny`, NOTES v6.10). 64-bit elements
  /// with few outputs keep the column kernel beyond small_column_wide_rows rows: a block or
  /// two of threads walking 16-31 rows one batch after another took 1.2-1.9x its time.
  static constexpr std::int64_t small_column_bytes = 1 << 20;
  static constexpr std::int64_t small_column_max_rows = 32;
  static constexpr std::int64_t small_column_wide_rows = 8;
  static constexpr std::int64_t small_column_wide_outputs = 1024;
  /// Rows (one run a slice) of up to tiny_row_slice_max elements (three batches) take it as
  /// well, instead of the window kernel. NOTES v6.8 (H100 sweep, two variants): rows of 9-23
  /// elements 0.70-1.00x the time (uint32 rows of 19 0.70x, uint16 rows of 9 0.75x, uint64
  /// rows of 11 0.78x), rows of 31-32 1.12-1.23x (float32 rows of 32 1.23x).
  static constexpr std::int64_t tiny_row_slice_max = 24;
  /// A thread an output takes the outputs in memory order (launch_config::memory_order)
  /// where that costs at most memory_order_max_pct of the compact order by the model of
  /// launch.cpp (tiny_order_cost: the 128-byte lines a warp's loads and stores touch), for
  /// inputs of at least memory_order_min_bytes (the model's host cost, 1.3-1.7 us, stays
  /// off the calls it would weigh on). H100 sweep, NOTES v6.16: int64 dims {0, 2} of a
  /// transposed 4 x 37 x 2 x 262144 0.43x the time, float64 dim 4 of a transposed
  /// 2 x 23 x 227 x 1573 x 5 0.59x; a first model, of 64-byte blocks with reads weighed 4
  /// to 1, also took uint32 dim 2 of a transposed 4 x 2 x 7 x 30 x 8760: 1.16x (as many
  /// lines either way, its stores scattered).
  static constexpr std::int64_t memory_order_min_bytes = 4 << 20;
  static constexpr std::int64_t memory_order_max_pct = 75;

  /// Window kernel: slots a lane holds, W, from a sweep of row lengths (NOTES v5): rows of
  /// <= 2 slots W = 2 (16M x 8: 167 us vs 199 with 4), up to 32 slots W = 4 (4M x 32: 157
  /// vs 173 with 8), longer W = 8 (1M x 256: 268 vs 279 with 4). Rows of more than
  /// window_max_slots (8 slots for each of 32 lanes) take the run kernels.
  static constexpr int window_slots_w4 = 2;   ///< rows of more slots than this take W = 4
  static constexpr int window_slots_w8 = 32;  ///< rows of more slots than this take W = 8
  static constexpr int window_max_slots = 8 * 32;
  /// A team of lanes per slice when a warp covers a slice with this many 16-byte loads per
  /// lane or fewer, or when the slices fill the GPU with teams anyway. No sweep recorded.
  static constexpr int team_slots_per_lane = 2;
  /// A warp per slice also when a slice is at most team_max_slots_per_lane slots a lane
  /// and the warps' double-buffered loads (outputs x 32 lanes x 2 run_unroll) reach
  /// bytes_in_flight_per_sm on every multiprocessor: a block per slice ran many waves of
  /// blocks whose block-wide meeting cost more than their few loads a thread. NOTES v6.9
  /// (H100 sweep): up to 32 slots a lane, int16 rows of 4097 x 4823 0.28x the GPU time,
  /// bool rows of 4097 0.38x; up to 128 (two runs each way), int16 rows of 27360 x 2049
  /// 0.71-0.75x, float64 rows of 5449 x 2660 0.74x, uint16 dims {1,3} of a broadcast
  /// 101 x 359 x 61 x 79 x 4 0.94-0.97x; up to 256 adds float16 dims {0,2} of
  /// 1025 x 1648 x 33 only (and would take rows of 32768 floats, 87% of the ceiling with blocks).
  static constexpr int team_max_slots_per_lane = 128;
  /// Slices of at most this many slots take teams of half the lanes the rule above gives
  /// (whichever made the team kernel take them). NOTES v6.18 (H100 sweep, every team launch
  /// halved against as chosen, two runs of the latter): slices of 18-514 slots 0.71-0.99x
  /// the GPU time (int16 rows of 2048 of a 14123 x 2 x 7 x 2048 view 440 -> 320 us, int64
  /// rows of 574 68.4 -> 58.0 us, rows of 257 slots 0.73-0.96x), of 2050-3150 slots
  /// 0.93-0.99x, of 3019-8087 slots 1.02-1.05x (int16 rows of 27360, 2049 of them, 1.05x:
  /// half the blocks); two inputs under 1 MiB of 24 and 48 slots 1.03x (0.1-0.2 us).
  static constexpr std::int64_t team_halved_max_slots = 1024;
  /// Slices of at most this many slots take teams of half the lanes again (after the
  /// halving above), where the narrower teams' blocks still number one a multiprocessor.
  /// NOTES v6.19 (H100 sweep, every team launch halved once more against as chosen, and a
  /// second run as chosen for the noise): where those blocks fill the multiprocessors,
  /// slices of 10-1024 slots 0.73-1.04x the GPU time (int16 rows of 4097 of a 53 x 13 x 7 x
  /// 4097 view 0.73x, int64 dim 0 of 574 x 2025 x 11 0.87x; int64 rows of 1024, 1.04x, its
  /// noise 1.06x), of 2048-3138 slots 0.92-0.99x; bfloat16 rows of 64687 (8086 slots)
  /// 1.05x; where they do not (1-129 blocks), 0.98-1.28x (uint8 dim 0 of 6272 x 1216 1.28x).
  static constexpr std::int64_t team_narrowed_max_slots = 4096;
  /// The team run kernel's grid: up to this many waves of its resident blocks (its teams
  /// take slices in turn). No sweep recorded.
  static constexpr int runs_team_waves = 2;
  /// Slices of up to max_unsplit_bytes take one block; longer ones are split into pieces
  /// of at least min_split_bytes. NOTES v5: below max_unsplit_bytes the meeting (fence,
  /// arrival atomic, partial reads) costs more than the split saves (2^14 floats unsplit
  /// 8.7 us, split 9.5-10.1 us; 2^13 7.9 vs 9.7); NOTES v6.20 (H100, 200 inputs under
  /// 1 MiB): once a slice is split, pieces of 8 KiB (two slots a thread) beat pieces of
  /// 32 KiB in all 18 launches whose pieces that bound set, 0.66-0.95x the GPU time (the
  /// unordered and short-run walks, whose slots cost the most instructions, gain most);
  /// flat slices of 4 MiB (128 -> 264 pieces) lose 0.5-0.7 us.
  static constexpr std::int64_t min_split_bytes = 8 << 10;
  static constexpr std::int64_t max_unsplit_bytes = 64 << 10;
  /// Rows that start anywhere are read shuffled (one aligned vector a lane, the next one
  /// taken from the neighbour lane) rather than as two vectors a lane when an outer row
  /// holds at least column_shuffle_min_groups groups of 16 bytes (a shuffled warp holds 31
  /// groups of one outer row) and each thread walks at least column_shuffle_min_rows rows.
  /// NOTES v6.4 (H200 sweep, 59 cases): at 128 rows a thread or more shuffled reads took
  /// 0.72-0.97x the time (one exception at 1.18x), below 64 mostly 1.03-1.35x.
  static constexpr std::int64_t column_shuffle_min_groups = 24;
  static constexpr std::int64_t column_shuffle_min_rows = 128;
  /// Outer rows of at most column_rows_first_max_groups column groups whose reduced rows
  /// lie closer together than the outer rows put a warp's lanes along the rows first, when
  /// each lane gets at least column_rows_first_min_rows_per_lane rows. NOTES v6.4 (H200
  /// sweep): 0.46-0.94x the time on nine cases; two with 14 and 5 rows a lane 1.29x and
  /// 1.48x (the row lanes' meeting costs more than their reads), hence the minimum.
  static constexpr std::int64_t column_rows_first_max_groups = 4;
  static constexpr std::int64_t column_rows_first_min_rows_per_lane = 16;
  /// Fewest rows a thread of the column kernel should walk in one split. No sweep recorded.
  static constexpr std::int64_t column_min_rows_per_thread = 4;
  /// Column launches of more than a wave: the rows are split further (doubling) until the
  /// blocks fill their last wave to this share of all waves' room (in percent). Every
  /// block of a column launch walks the same rows, so a last wave of a few blocks leaves
  /// the other multiprocessors idle for a whole walk: float32 dim 1 of 128 x 4096 x 4095
  /// ran 544 blocks in waves of 264 (2.06 waves, 64.5% of the ceiling; split 4 ways,
  /// 0.86x the time). Only while each thread still walks column_wave_fill_min_rows rows:
  /// shorter walks split further were slower (H200 sweep, unlimited: bool dim 2 of
  /// 128 x 75 x 129 x 263 1.65x, float32 dim 0 of 97 x 16183 x 17 1.22x, and a bfloat16
  /// walk of 303 rows lost its shuffled reads, 1.26x).
  static constexpr std::int64_t column_min_wave_fill_pct = 90;
  static constexpr std::int64_t column_wave_fill_min_rows = 512;
  /// Column launches weigh warps along the rows against splits of the rows (launch.cpp,
  /// column_cost): a split costs, for every output and piece, an atomic maximum (or a
  /// partial) that the tile's last block (or the answers kernel) reads back, about as
  /// long as reading column_meeting_read_bytes. NOTES v6.22 (H100 sweep, halving the
  /// pieces): uint8 dim 2 of a reversed 11 x 5 x 45 x 9151, 503305 outputs in 2 pieces,
  /// 49.0 -> 18.1 us unsplit (93 bytes a meeting); float16 dim 1 of 127 x 33 x 1611,
  /// 204597 outputs, 28.7 -> 12.3 us (120 bytes).
  static constexpr std::int64_t column_meeting_read_bytes = 96;
  /// Splits of a column tile whose pieces meet through partials (64-bit keys, or rows past
  /// 2^32) leave them to the answers kernel of the virtual walks, a warp or a block an
  /// output across the whole GPU, within the virtual walks' bounds on partial bytes below.
  /// NOTES v6.14: before, the tile's last block read them all, which held the splits to
  /// 16 a thread (and a square-root rule): 64-bit columns of few tiles ran 32-64 blocks.
  /// Walks of virtual columns (launch.cpp: virtual_launch): inputs of at least
  /// virtual_min_bytes, partials at most 1 / virtual_partial_share of the input's bytes and
  /// virtual_max_partial_bytes. Windowed walks: windows of at most window_column_max_bytes.
  /// Folded walks: columns of at most fold_column_max_bytes, fold_row_bytes a row of the
  /// walk (or 4x fewer, down to fold_row_min_bytes, where that needs too many partials), at
  /// least fold_min_rows of them. NOTES v6.11 (H200 sweep): columns of 4 bytes (float16 dim
  /// 0 of 80408033 x 2, bool of 4 kept elements) took 0.40-0.46x the time folded; of 8 to
  /// 107 bytes, 1.04-1.93x (their lanes' loads a row already hold most of a vector).
  static constexpr std::int64_t virtual_min_bytes = 1 << 20;
  static constexpr std::int64_t virtual_partial_share = 4;
  static constexpr std::int64_t virtual_max_partial_bytes = 32 << 20;
  static constexpr std::int64_t window_column_max_bytes = 512;
  /// Windowed walks that only warps along the rows bring within the partials' bounds:
  /// windows of at most this many bytes (NOTES v6.22: float16 windows of 144 in 145
  /// blocks 1.73x the runs kernel's time, bfloat16 of 256 in 154 blocks 1.09x; uint8
  /// windows of 2 in 174 blocks 0.20x, uint16 of 7 0.80x, uint32 of 3 0.58x).
  static constexpr std::int64_t window_column_row_warps_max_bytes = 64;
  static constexpr std::int64_t fold_column_max_bytes = 4;
  /// Folds of wider columns, up to fold_wide_column_max_bytes (not rows of one aligned
  /// vector), only where the walk splits its rows at most fold_wide_max_splits ways (NOTES
  /// v6.23, H200: columns of 8-16 bytes folded in walks of 0-4 splits 0.50-1.07x the time;
  /// of 7-264 splits 1.02-1.66x, whose partials the answers kernel reads fold times over).
  static constexpr std::int64_t fold_wide_column_max_bytes = 16;
  static constexpr std::int64_t fold_wide_max_splits = 4;
  static constexpr std::int64_t fold_row_bytes = 512;
  static constexpr std::int64_t fold_row_min_bytes = 128;  ///< then 4x fewer, down to this
  static constexpr std::int64_t fold_min_rows = 16;
  /// Partials a lane of the answers kernel folds for one output (its batch of loads): an
  /// output's team has as many lanes as that takes, up to a warp. NOTES v6.14: a warp an
  /// output whatever their number made split 64-bit columns of 2-5 partials an output
  /// 2.9-5.9x slower (float64 dim 1 of 31 x 17 x 2 x 33 x 29: 17.2 -> 100.3 us), its lanes
  /// idle and its loads 16 x outputs bytes apart. Fewer outputs than multiprocessors, of
  /// more than a warp's batch each, take a block each: int64 dims {0, 2} of
  /// 2 x 2 x 38445 x 8 (16 outputs of 264 partials) 0.74x the time of the last-block
  /// meeting, where a warp each took 1.26x; int64 rows of a transposed 31 x 6679 (31 of
  /// 103) 1.00x a warp each, 1.20x a block each.
  static constexpr std::int64_t answer_loads_per_lane = 4;
  /// Most partials a warp folds for one output of a virtual walk (16 loads a lane); more
  /// take a block an output. uint32 dims {0, 2, 4} of 15 x 2 x 2633 x 10 x 37 (20 outputs
  /// of 132 splits x 37): a warp each made the walk 1.39x slower than the runs kernel's,
  /// a block each 0.94x.
  static constexpr std::int64_t virtual_fold_warp_max = 512;
  /// Element kernels (no unit stride): positions a lane of a team should take; teams of
  /// up to 32 lanes serve slices of up to 32 times that. No sweep recorded.
  static constexpr std::int64_t element_positions_per_lane = 8;
};

/// Ampere (sm_80, and the older architectures argx builds for, down to sm_75): not
/// measured separately; Hopper's values.
struct sm80 : sm90 {};

/// The tuning of compute capability `CC` (major * 10 + minor): that of the newest tuned
/// architecture at or below it.
template <int CC>
using for_arch = std::conditional_t<(CC >= 90), sm90, sm80>;

/// f(T{}) with T the tuning of compute capability `cc`, known at run time (launch.cpp).
template <class F>
decltype(auto) with_arch(int cc, F&& f) {
  if (cc >= 90) return f(for_arch<90>{});
  return f(for_arch<80>{});
}

#if defined(__CUDA_ARCH__)
/// The tuning of the architecture the device code is being compiled for.
using compiled_arch = for_arch<__CUDA_ARCH__ / 10>;
#else
using compiled_arch = sm90;  // host code (kernel bodies are compiled in the device pass only)
#endif

}  // namespace argx::detail::gpu::tune
