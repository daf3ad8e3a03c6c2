// choose_launch: the kernel family, grid and splits of a layout, as plain host code.
//
// Every choice below sizes the launch in bytes in flight (tuning.hpp): a launch must offer
// the GPU enough independent 16-byte loads, and when the outputs alone cannot (few long
// slices, few column tiles), the reduced positions are cut into splits, one wave of blocks
// at most, whose candidates meet in the same launch. Each chooser takes the tuning T of
// the device's architecture.
#include "launch.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "kernel_types.hpp"
#include "tuning.hpp"

namespace argx::detail::gpu {
namespace {

// column_read_forced: -1, or the read every column launch of this thread takes.
thread_local int forced_column_read = -1;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

int log2_ceil(std::int64_t x) {
  int l = 0;
  while ((std::int64_t(1) << l) < x) ++l;
  return l;
}

std::int64_t pow2_ceil(std::int64_t x) { return std::int64_t(1) << log2_ceil(x); }

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Every stride of the list but the one at `skip` moves by whole 16-byte vectors.
bool strides_aligned(const axis_list& a, std::int64_t elem, int skip) {
  for (int d = 0; d < a.n; ++d)
    if (d != skip && (a.at[d].stride * elem) % 16 != 0) return false;
  return true;
}

constexpr std::int64_t int32_max = std::numeric_limits<std::int32_t>::max();

// Pieces to cut each slice of `slice_bytes` into so that `target` blocks (one wave) have
// work: as many as the outputs leave room for, none shorter than min_split_bytes.
template <class T>
std::int64_t wave_splits(std::int64_t target, std::int64_t outputs, std::int64_t slice_bytes) {
  const std::int64_t splits = std::max<std::int64_t>(1, target / outputs);
  return std::min(splits, std::max<std::int64_t>(1, slice_bytes / T::min_split_bytes));
}

// A block per (slice, piece): each slice's `units` (slots, runs or positions) cut into at
// most `splits` equal pieces. The pieces of a split slice meet through an arrival counter
// and a partial each (the last block to arrive combines them).
void split_slices(launch_config& c, const layout& l, std::int64_t units, std::int64_t splits) {
  c.chunk = ceil_div(units, splits);
  c.splits = ceil_div(units, c.chunk);
  c.blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(l.outputs * c.splits, 0x7fffffff));
  if (c.splits > 1) {
    c.counters = static_cast<std::size_t>(l.outputs);
    c.partials = static_cast<std::size_t>(l.outputs * c.splits);
  }
}

// Distinct values among the n first of v (sorted in place: by insertion, as a warp's
// lines mostly come in order already).
int distinct(std::int64_t* v, int n) {
  int count = n > 0;
  for (int i = 1; i < n; ++i) {
    const std::int64_t x = v[i];
    int k = i;
    for (; k > 0 && v[k - 1] > x; --k) v[k] = v[k - 1];
    v[k] = x;
  }
  for (int i = 1; i < n; ++i) count += v[i] != v[i - 1];
  return count;
}

// What a warp of a thread an output costs, from compact output `first` (32 of them): the
// 128-byte lines each of its loads (one a position, the first positions_max of them) and
// its index stores touch. Each line of an instruction is a pass of the load/store unit and
// a request to the L2; where neighbouring threads read bytes far apart, most of each
// line's sectors are fetched for bytes that other warps read much later (NOTES v6.16).
std::int64_t tiny_order_cost(const layout& l, std::int64_t first) {
  constexpr int warp = 32, positions_max = 8;
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  const std::int64_t index_bytes = l.index == index_type::int64 ? 8 : 4;
  const std::int64_t base = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(l.data));
  const std::int64_t positions = std::min<std::int64_t>(l.reduce, positions_max);
  std::int64_t slice[warp], line[warp];
  // The warp's slices and outputs, an odometer over the kept axes from `first` on.
  std::int64_t idx[max_rank], rest = first, off = l.slice_offset(first), out = l.output_of(first);
  for (int d = l.kept.n - 1; d >= 0; --d) idx[d] = rest % l.kept.at[d].extent, rest /= l.kept.at[d].extent;
  for (int k = 0; k < warp; ++k) {
    slice[k] = off;
    line[k] = out * index_bytes >> 7;
    for (int d = l.kept.n - 1; d >= 0; --d) {
      const axis& a = l.kept.at[d];
      off += a.stride, out += a.weight;
      if (++idx[d] < a.extent) break;
      off -= a.extent * a.stride, out -= a.extent * a.weight, idx[d] = 0;
    }
  }
  std::int64_t cost = distinct(line, warp);
  for (std::int64_t j = 0; j < positions; ++j) {
    const std::int64_t at = l.element_offset(j);
    for (int k = 0; k < warp; ++k) line[k] = (base + (slice[k] + at) * elem) >> 7;
    cost += distinct(line, warp);
  }
  return cost;
}

// Whether a thread an output should take the outputs in memory order: the compact order
// is not memory order, and the model above says memory order costs at most
// memory_order_max_pct of it (summed over two warps: the first and one in the middle).
template <class T>
bool memory_order_pays(const layout& l) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  if (kept_in_memory_order(l) || l.outputs < 64 || l.outputs * l.reduce * elem < T::memory_order_min_bytes) return false;
  // A warp within the innermost kept axis, the one of the smallest stride in both orders:
  // the orders differ only outside it.
  const axis& inner = l.kept.at[l.kept.n - 1];
  bool smallest = true;
  for (int d = 0; d + 1 < l.kept.n; ++d) smallest = smallest && std::abs(l.kept.at[d].stride) > std::abs(inner.stride);
  if (smallest && inner.extent >= 32) return false;
  const layout m = with_kept_in_memory_order(l);
  std::int64_t now = 0, then = 0;
  for (std::int64_t first : {std::int64_t(0), l.outputs / 64 * 32}) {
    now += tiny_order_cost(l, first);
    then += tiny_order_cost(m, first);
  }
  return 100 * then <= T::memory_order_max_pct * now;
}

// A thread a slice: waves of resident blocks, their threads taking slices in turn.
template <class T>
launch_config tiny_launch(const layout& l, const residency& r, const device_limits& d, kernel_kind kind) {
  launch_config c;
  c.threads = tune::threads;
  c.kernel = kind;
  c.memory_order = memory_order_pays<T>(l);
  const std::int64_t waves = static_cast<std::int64_t>(d.multiprocessors) * r.tiny_rows * T::tiny_rows_waves;
  c.blocks = std::max<std::int64_t>(1, std::min(ceil_div(l.outputs, c.threads), waves));
  return c;
}

// Slices of a few positions in traversal order (the kernel compares them in that order),
// and enough of them to give every multiprocessor threads.
template <class T>
bool tiny_slices_fill(const layout& l, const device_limits& d) {
  return l.ordered && l.reduce <= T::tiny_slice_max &&
         l.outputs >= static_cast<std::int64_t>(d.multiprocessors) * T::tiny_slice_min_outputs_per_sm;
}

// Slices of one short forward run held in registers, window_loads loads a lane in flight.
template <class T>
launch_config window_launch(const layout& l, const residency& r, const device_limits& d, std::int64_t run_slots) {
  launch_config c;
  c.threads = tune::threads;
  c.run_slots = run_slots;
  c.kernel = kernel_kind::windows;
  c.window_slots = run_slots > T::window_slots_w8 ? 8 : run_slots > T::window_slots_w4 ? 4 : 2;
  c.team_log2 = std::min(5, log2_ceil(ceil_div(run_slots, c.window_slots)));
  const std::int64_t rows_per_block = (c.threads / 32) * (32 >> c.team_log2) * (T::window_loads / c.window_slots);
  c.blocks = std::max<std::int64_t>(
      1, std::min(ceil_div(l.outputs, rows_per_block), static_cast<std::int64_t>(d.multiprocessors) * r.windows));
  return c;
}

// Slices of one short forward run, a thread each, a tile of a row a thread in shared memory.
// Rows lie an odd number of slots apart: the 8 threads of a phase of 16-byte shared loads
// then read 8 different banks' quarters.
template <class T>
launch_config staged_rows_launch(const layout& l, const residency& r, const device_limits& d, std::int64_t run_slots) {
  launch_config c;
  c.threads = tune::threads;
  c.kernel = kernel_kind::staged_rows;
  c.run_slots = run_slots;
  c.stage_stride = static_cast<int>(run_slots | 1);
  c.blocks = std::max<std::int64_t>(
      1, std::min(ceil_div(l.outputs, c.threads), static_cast<std::int64_t>(d.multiprocessors) * r.staged_rows));
  return c;
}

template <class T>
launch_config choose_runs(const layout& l, const residency& r, const device_limits& d) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  const std::int64_t len = l.run_length(), runs = l.reduce / len, run_bytes = len * elem;
  // Slots (aligned vectors) a run can touch: exact when every run starts on a boundary,
  // else as many as a run starting at the last element of a vector touches.
  const bool whole = aligned16(l.data) && l.run_dir > 0 && run_bytes % 16 == 0 &&
                     (runs == 1 || strides_aligned(l.red, elem, l.red.n - 1)) && strides_aligned(l.kept, elem, -1);
  const std::int64_t run_slots = whole ? run_bytes / 16 : (run_bytes + 31 - elem) / 16;
  const std::int64_t slice_slots = runs * run_slots;
  const std::int64_t resident_threads = static_cast<std::int64_t>(d.multiprocessors) * d.max_threads_per_multiprocessor;
  launch_config c;
  c.threads = tune::threads;
  c.run_slots = run_slots;  // the run kernels' (a stream's slots a run; long runs' pieces)

  // One run of a few elements per slice: a thread each.
  if (l.ordered && runs == 1 && len <= T::tiny_row_max) return tiny_launch<T>(l, r, d, kernel_kind::tiny_rows);

  // A few positions a slice over several runs, or one short run, and outputs enough for a
  // thread each.
  if ((runs > 1 || len <= T::tiny_row_slice_max) && tiny_slices_fill<T>(l, d))
    return tiny_launch<T>(l, r, d, kernel_kind::tiny_slices);

  // One short forward run per slice, plain keys: held in registers (window_loads loads a
  // lane in flight), or, rows of a few slots that the window kernel's team would hold
  // with many idle slots, staged in shared memory a thread each.
  if (l.plain() && l.ordered && runs == 1 && l.run_dir > 0 && run_slots <= T::window_max_slots) {
    const launch_config w = window_launch<T>(l, r, d, run_slots);
    const std::int64_t held = (std::int64_t(1) << w.team_log2) * w.window_slots;
    const bool staged = run_slots >= T::staged_min_slots && run_slots <= T::staged_max_slots &&
                        100 * (held - run_slots) >= T::staged_min_idle_pct * held;
    return staged ? staged_rows_launch<T>(l, r, d, run_slots) : w;
  }

  // A team of lanes per slice, when the slices fill the GPU with teams or a warp covers
  // one in a pass; a team walks short runs as one stream of slots.
  const int team_log2 = std::min(5, log2_ceil(ceil_div(slice_slots, T::team_slots_per_lane)));
  const bool teams_fill = l.outputs * (std::int64_t(1) << team_log2) >= resident_threads;
  const bool warp_covers = slice_slots <= 32 * T::team_slots_per_lane;
  // Slices a warp walks in a few batches, and enough of them for the warps' loads alone
  // to keep the memory busy: a block a slice would run wave after wave of blocks, each
  // paying its block-wide meeting for a few loads a thread. One run, or short runs that a
  // warp streams: a warp walks longer runs one at a time, each a batch of its own.
  const bool warp_streams = runs == 1 || run_slots <= T::stream_max_slots_per_lane * 32;
  const bool warps_suffice = warp_streams && slice_slots <= 32 * T::team_max_slots_per_lane &&
                             l.outputs * 32 * 2 * T::run_unroll * 16 >=
                                 static_cast<std::int64_t>(d.multiprocessors) * T::bytes_in_flight_per_sm;
  if (l.ordered && l.reduce <= int32_max && (teams_fill || warp_covers || warps_suffice)) {
    c.kernel = kernel_kind::runs_team;
    // Slices of up to a few KiB: teams of half those lanes, twice the slots a lane in
    // flight and two slices a warp folded at once (a team's fold and store are a chain of
    // instructions a slice that nothing else overlaps).
    c.team_log2 = team_log2 > 0 && slice_slots <= T::team_halved_max_slots ? team_log2 - 1 : team_log2;
    // And half as many again up to a few thousand slots, while the narrower teams' blocks
    // still give every multiprocessor one (fewer slices than that: the lanes are the
    // parallelism).
    if (c.team_log2 > 0 && slice_slots <= T::team_narrowed_max_slots &&
        ceil_div(l.outputs, c.threads >> (c.team_log2 - 1)) >= d.multiprocessors)
      --c.team_log2;
    c.run_stream = run_slots <= T::stream_max_slots_per_lane << c.team_log2;
    const std::int64_t teams_per_block = c.threads >> c.team_log2;
    const std::int64_t waves = static_cast<std::int64_t>(d.multiprocessors) * r.runs_team * T::runs_team_waves;
    c.blocks = std::max<std::int64_t>(1, std::min(ceil_div(l.outputs, teams_per_block), waves));
    return c;
  }

  // Blocks per slice: few long slices are cut into splits (whole runs, or slots of a
  // one-run slice) whose partials the last block to finish combines. At most one wave of
  // resident blocks, each with one equal share (a second, partial wave would leave most
  // of the GPU idle while it runs).
  c.kernel = l.ordered ? kernel_kind::runs_block : kernel_kind::runs_unordered;
  c.run_stream = !l.dense && run_slots <= T::stream_max_slots_per_lane * c.threads;  // dense: one long run
  // Ordered walks only: the unordered kernel walks run after run (NOTES v6.25).
  c.run_across = l.ordered && !c.run_stream && runs > 1 && run_slots <= T::across_max_slots_per_lane * c.threads;
  const std::int64_t target = static_cast<std::int64_t>(d.multiprocessors) * r.runs_block;
  const std::int64_t slice_bytes = l.reduce * elem;
  std::int64_t splits = wave_splits<T>(target, l.outputs, slice_bytes);
  if (slice_bytes <= T::max_unsplit_bytes) splits = 1;
  // A piece of a slice of long runs is a range of its slots, run after run; of short runs,
  // a range of whole runs.
  const std::int64_t units = c.run_stream ? runs : runs * run_slots;
  split_slices(c, l, units, std::min(splits, units));
  return c;
}

// Most splits of `outputs` whose partials (one an output and split) stay within
// 1 / virtual_partial_share of the input's bytes and virtual_max_partial_bytes (0: not one).
template <class T>
std::int64_t partial_splits_max(std::int64_t outputs, std::int64_t input_bytes) {
  const std::int64_t split_bytes = outputs * static_cast<std::int64_t>(partial_bytes);
  return std::min(input_bytes / (T::virtual_partial_share * split_bytes), T::virtual_max_partial_bytes / split_bytes);
}

// A column launch whose pieces leave a partial for every (split, column of the walk), the
// answers kernel then folding each output's `per_output` of them a split. A team of lanes
// an output, each lane about answer_loads_per_lane of its partials (one batch of loads):
// a thread where an output has a few (the threads of a warp then read neighbouring
// outputs' partials), up to a warp; a block where a warp would fold more than
// virtual_fold_warp_max (a warp's chain of loads would be long), or where the outputs are
// fewer than the multiprocessors and a warp would need more than one batch (warps that
// few would leave most of the GPU idle while they wait on their loads).
template <class T>
void answers_from_partials(launch_config& c, std::int64_t outputs, std::int64_t per_output, const residency& r,
                           const device_limits& d) {
  c.packed_meet = false;
  c.slots = c.counters = 0;
  c.partials = static_cast<std::size_t>(outputs * per_output * c.splits);  // the walk's columns, every split
  const std::int64_t n = c.splits * per_output;
  c.answer_team_log2 = std::min(5, log2_ceil(ceil_div(n, T::answer_loads_per_lane)));
  c.answers_by_block =
      n > T::virtual_fold_warp_max || (outputs < d.multiprocessors && n > 32 * T::answer_loads_per_lane);
  const std::int64_t teams_per_block = c.answers_by_block ? 1 : tune::threads >> c.answer_team_log2;
  c.answer_blocks = std::max<std::int64_t>(
      1, std::min(ceil_div(outputs, teams_per_block), static_cast<std::int64_t>(d.multiprocessors) * r.tiny_rows));
}

/// How a column launch shares each tile's rows: among warps of a block (meeting in shared
/// memory) and among splits, pieces of `chunk` rows that blocks of their own read.
struct column_shares {
  int row_warps_log2 = 0;
  std::int64_t tiles = 1, splits = 1, chunk = 1, row_lanes = 1;
};

/// The splits of `tiles` column tiles whose rows `row_lanes` lanes a block share: when the
/// tiles cannot fill a wave, or fill their last wave poorly, each thread still walking a
/// few rows.
template <class T>
column_shares column_splits(const layout& l, const residency& r, const device_limits& d, std::int64_t rows,
                            std::int64_t row_lanes, std::int64_t tiles, int row_warps_log2, bool atomic_meet,
                            bool packed) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  const std::int64_t target = static_cast<std::int64_t>(d.multiprocessors) * r.columns;  // one wave
  std::int64_t most = std::max<std::int64_t>(1, rows / (row_lanes * T::column_min_rows_per_thread));
  if (!atomic_meet)
    most = std::min(most, std::max<std::int64_t>(1, partial_splits_max<T>(l.outputs, l.outputs * rows * elem)));
  std::int64_t splits = std::min(std::max<std::int64_t>(1, target / tiles), most);
  // Tiles that fit one wave, each thread's rows one batch of loads: every load of the
  // launch is in flight at once already, and splits would only add their meeting.
  if (tiles <= target && ceil_div(rows, row_lanes) <= T::column_unroll) splits = 1;
  auto fill_pct = [&](std::int64_t s) { return 100 * tiles * s / (ceil_div(tiles * s, target) * target); };
  while (tiles * splits > target && fill_pct(splits) < T::column_min_wave_fill_pct && 2 * splits <= most &&
         rows / (2 * splits * row_lanes) >= T::column_wave_fill_min_rows)
    splits *= 2;
  if (packed)  // a thread counts its rows in a byte (half-word)
    splits = std::max(splits, ceil_div(rows, row_lanes * packed_column_rows_max(elem)));
  splits = std::max(splits, ceil_div(rows, std::int64_t(1) << 31));  // positions relative to a split fit 32 bits
  column_shares s;
  s.row_warps_log2 = row_warps_log2;
  s.tiles = tiles;
  s.row_lanes = row_lanes;
  s.chunk = ceil_div(rows, splits);
  s.splits = ceil_div(rows, s.chunk);
  return s;
}

/// A column launch's cost in bytes read at the memory pipe's full rate: the input over
/// the share of the pipe that its resident blocks' loads in flight fill (Little's law:
/// bytes_in_flight_per_sm on every multiprocessor) and over its waves' fill, plus
/// column_meeting_read_bytes for every output and piece where the rows are split.
template <class T>
double column_cost(const column_shares& s, const layout& l, const residency& r, const device_limits& d,
                   int threads) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  const std::int64_t wave = static_cast<std::int64_t>(d.multiprocessors) * r.columns;
  const std::int64_t blocks = s.tiles * s.splits, waves = ceil_div(blocks, wave);
  // A thread's loads come in batches, each waited for before the next: on average half
  // a batch is in flight.
  const std::int64_t loads = std::min<std::int64_t>(T::column_unroll, ceil_div(s.chunk, s.row_lanes));
  const double in_flight = static_cast<double>(std::min(blocks, wave)) * threads * loads * 8;
  const double pipe = std::min(1.0, in_flight / (static_cast<double>(d.multiprocessors) * T::bytes_in_flight_per_sm));
  const double fill = waves > 1 ? static_cast<double>(blocks) / static_cast<double>(waves * wave) : 1.0;
  const double input = static_cast<double>(l.outputs) * static_cast<double>(l.reduce) * static_cast<double>(elem);
  const double meeting = s.splits > 1 ? static_cast<double>(l.outputs) * static_cast<double>(s.splits) *
                                            static_cast<double>(T::column_meeting_read_bytes)
                                      : 0.0;
  return input / (pipe * fill) + meeting;
}

/// The column launch with a given way of reading rows.
template <class T>
launch_config columns_with(const layout& l, const residency& r, const device_limits& d, column_read read,
                           bool weigh_row_warps) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type)), vec = 16 / elem;
  const std::int64_t width = l.column_axis().extent, per_outer = ceil_div(width, vec);
  const std::int64_t groups = (l.outputs / width) * per_outer, rows = l.reduce;
  launch_config c;
  c.kernel = kernel_kind::columns;
  c.threads = tune::threads;
  c.read = read;
  c.packed = elem <= 2 && l.plain();
  // A warp: as many lanes along the columns as there are groups (a row of a warp reads up
  // to 512 contiguous bytes), the others along the rows. A block: its warps along the
  // columns (one block reads up to 4 KiB of each row: DRAM pages stay open), along the
  // rows (meeting in shared memory) when the columns cannot fill one block or where that
  // fills a wave at less cost than splits of the rows. Shuffled reads: a warp's 31 groups
  // lie in one outer row (warp tiles per outer row: ceil(per_outer / 31)).
  // Lanes along the columns reach the next outer row after per_outer groups: when outer
  // rows are at most 64 bytes wide and lie further apart than the reduced rows do, a warp's
  // lanes go along the rows of one outer row instead (its loads then read nearby bytes, not
  // up to 32 places), if each lane gets rows enough to pay for the row lanes' meeting.
  const bool shuffled = read == column_read::shuffled;
  const std::int64_t row_bytes = std::abs(l.red.at[l.red.n - 1].stride) * elem;
  const std::int64_t outer_bytes = l.kept.n >= 2 ? std::abs(l.kept.at[l.kept.n - 2].stride) * elem : 0;
  const bool along_rows = !shuffled && per_outer <= T::column_rows_first_max_groups && groups > per_outer &&
                          row_bytes < outer_bytes &&
                          rows >= (32 / pow2_ceil(per_outer)) * T::column_rows_first_min_rows_per_lane;
  const std::int64_t cols = shuffled     ? 32
                            : along_rows ? pow2_ceil(per_outer)
                                         : std::min<std::int64_t>(pow2_ceil(groups), 32);
  const std::int64_t lanes_y = 32 / cols;
  const std::int64_t warp_tiles =
      shuffled ? (l.outputs / width) * ceil_div(per_outer, column_shuffle_groups) : ceil_div(groups, cols);
  const std::int64_t warps = c.threads / 32;
  const std::int64_t target = static_cast<std::int64_t>(d.multiprocessors) * r.columns;  // one wave
  // Pieces meet through 64-bit atomic maxima of a packed key and position where both fit
  // (32-bit keys, rows below 2^32 - 1), else through partials (16 bytes an output and
  // piece) that the answers kernel folds: as many as stay a small share of the input.
  const bool atomic_meet = elem < 8 && rows < (std::int64_t(1) << 32) - 1;
  // Warps of a block along the rows where the columns cannot fill it; beyond that, every
  // count of row warps (each thread still walking column_min_rows_per_thread rows) is
  // weighed against splits of the rows (column_cost).
  int fewest = 0;
  while ((1 << fewest) < warps && (warp_tiles << fewest) < warps &&
         rows >= lanes_y * (2 << fewest) * T::column_min_rows_per_thread)
    ++fewest;
  column_shares share;
  double share_cost = 0;
  for (int rw = fewest; (1 << rw) <= warps && (weigh_row_warps || rw == fewest); ++rw) {
    // (More row warps only to fill a first wave: past it, narrower tiles read less of each
    // DRAM page a row, and splits fill the last wave.)
    if (rw > fewest && (rows < lanes_y * (1 << rw) * T::column_min_rows_per_thread ||
                        ceil_div(warp_tiles, warps >> (rw - 1)) >= target))
      break;
    const column_shares at = column_splits<T>(l, r, d, rows, lanes_y << rw, ceil_div(warp_tiles, warps >> rw), rw,
                                              atomic_meet, c.packed);
    const double cost = column_cost<T>(at, l, r, d, c.threads);
    if (rw == fewest || cost < share_cost) share = at, share_cost = cost;
  }
  c.column_lanes_log2 = log2_ceil(cols);
  c.row_warps_log2 = share.row_warps_log2;
  const std::int64_t tiles = share.tiles;
  c.chunk = share.chunk;
  c.splits = share.splits;
  c.blocks = tiles * c.splits;
  if (c.splits > 1 && atomic_meet) {
    c.packed_meet = true;
    c.counters = static_cast<std::size_t>(tiles);
    c.slots = static_cast<std::size_t>(l.outputs);
  } else if (c.splits > 1) {
    answers_from_partials<T>(c, l.outputs, 1, r, d);
  }
  return c;
}

// Every row of the layout's columns starts on 16 bytes.
bool rows_aligned(const layout& l) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  return aligned16(l.data) && strides_aligned(l.kept, elem, l.kept.n - 1) && strides_aligned(l.red, elem, -1);
}

// A forced read (column_read_forced) that this layout's rows allow, or -1.
int forced_read_for(const layout& l) {
  return forced_column_read >= 0 && (rows_aligned(l) || forced_column_read != static_cast<int>(column_read::aligned))
             ? forced_column_read
             : -1;
}

/// The column kernel's launch: how rows are read.
template <class T>
launch_config column_launch(const layout& l, const residency& r, const device_limits& d, bool weigh_row_warps = true) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  const int forced = forced_read_for(l);
  if (forced >= 0) return columns_with<T>(l, r, d, static_cast<column_read>(forced), weigh_row_warps);
  if (rows_aligned(l)) return columns_with<T>(l, r, d, column_read::aligned, weigh_row_warps);
  // Rows that start anywhere. Shuffled reads (one load a row, not two) where they measured
  // faster (NOTES.md v6.4): outer rows of at least column_shuffle_min_groups groups whose
  // warps are at least 3/4 full (a warp's groups lie in one outer row), threads that walk
  // at least column_shuffle_min_rows rows (below that a lane's setup costs more than the
  // second load), and loads enough in flight within one wave; else the two vectors.
  const std::int64_t per_outer = ceil_div(l.column_axis().extent, 16 / elem);
  const std::int64_t shuffle_warps = ceil_div(per_outer, column_shuffle_groups);
  if (per_outer >= T::column_shuffle_min_groups && 4 * per_outer >= 3 * column_shuffle_groups * shuffle_warps) {
    const launch_config c = columns_with<T>(l, r, d, column_read::shuffled, weigh_row_warps);
    const std::int64_t wave = static_cast<std::int64_t>(d.multiprocessors) * r.columns;
    const std::int64_t row_lanes = std::int64_t(1) << c.row_warps_log2;  // one row lane a warp
    const std::int64_t in_flight = std::min(c.blocks, wave) * c.threads * T::column_unroll * 16;
    if (c.chunk / row_lanes >= T::column_shuffle_min_rows &&
        in_flight >= static_cast<std::int64_t>(d.multiprocessors) * T::bytes_in_flight_per_sm)
      return c;
  }
  return columns_with<T>(l, r, d, column_read::shifted, weigh_row_warps);
}

template <class T>
launch_config choose_columns(const layout& l, const residency& r, const device_limits& d) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  // Few rows of narrow column groups, and outputs enough for a thread each: a lane's
  // 16-byte window a row would hold a few useful bytes; a warp of threads reading one row
  // element each reads 32 neighbouring outputs' bytes.
  if (l.reduce <= T::tiny_column_max_rows && l.column_axis().extent * elem < T::tiny_column_group_bytes &&
      tiny_slices_fill<T>(l, d))
    return tiny_launch<T>(l, r, d, kernel_kind::tiny_slices);
  // Small inputs of few rows: a thread an output too (tuning.hpp: small_column_bytes).
  if (forced_read_for(l) < 0 && l.ordered && l.reduce <= T::small_column_max_rows &&
      l.outputs * l.reduce * elem < T::small_column_bytes &&
      (elem <= 4 || l.reduce <= T::small_column_wide_rows || l.outputs >= T::small_column_wide_outputs))
    return tiny_launch<T>(l, r, d, kernel_kind::tiny_slices);
  return column_launch<T>(l, r, d);
}

// A walk of virtual columns (layout.hpp) instead of `full`'s own: the walk's column launch,
// its partials, and the answers' kernel. Only while the partials (16 bytes each virtual
// column and split, written and read again) stay under 1 / virtual_partial_share of the
// input's bytes and virtual_max_partial_bytes (the workspace is kept per stream). Fewer
// splits than the walk wants are no way out: capped, the small inputs of few rows that
// would then take the walk ran 1.5-2.2x slower than without it (NOTES.md v6.11). Nor
// where the walk wants more than `splits_max` splits (a caller's own bound).
template <class T>
bool virtual_launch(const layout& full, const layout& walk, const residency& r, const device_limits& d,
                    launch_config& c, std::int64_t splits_max = int32_max) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(full.type));
  const std::int64_t most_splits =
      std::min(splits_max, partial_splits_max<T>(walk.outputs, walk.outputs * walk.reduce * elem));
  launch_config w = column_launch<T>(walk, r, d);
  if (w.splits > most_splits) return false;
  // A walk that leaves multiprocessors without a block: the runs kernels, whose blocks
  // fill the GPU, were faster (NOTES v6.22: 1.27-1.82x on walks of 70-125 blocks). So
  // were they on windows long enough for their vectors where only warps along the rows
  // brought the walk's splits within bounds (float16 windows of 144 1.73x, bfloat16 of
  // 256 1.09x; windows of 2-30 bytes 0.09-0.80x): those walks are taken only where the
  // walk without them was.
  if (w.blocks < d.multiprocessors) return false;
  if (walk.virt.window * elem > T::window_column_row_warps_max_bytes &&
      column_launch<T>(walk, r, d, false).splits > most_splits)
    return false;
  answers_from_partials<T>(w, full.outputs, walk.virt.per_output(), r, d);
  w.virt = walk.virt;
  c = w;
  return true;
}

// Slices of short windows that a kept axis steps over (layout.hpp: windowed_layouts): the
// runs kernels would read windows of a few bytes one by one; as columns, a row of windows
// is read with whole vectors. For inputs of at least virtual_min_bytes (below, the second
// launch weighs) and windows of at most window_column_max_bytes.
template <class T>
bool windowed_launch(const layout& l, const residency& r, const device_limits& d, launch_config& c) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  if (l.outputs * l.reduce * elem < T::virtual_min_bytes || l.run_axis().extent * elem > T::window_column_max_bytes)
    return false;
  layout full, walk;
  return windowed_layouts(l, full, walk) && virtual_launch<T>(full, walk, r, d, c);
}

// Columns of a few bytes whose rows follow one another (layout.hpp: folded_layouts): a
// lane's 16-byte load a row would hold a few useful bytes; folded, a row of the walk is
// fold_row_bytes of neighbouring rows (or fewer, where that many needs too many partials).
// Columns of up to a vector, where the walk splits its rows a few ways at most.
template <class T>
bool folded_launch(const layout& l, const residency& r, const device_limits& d, launch_config& c) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  std::int64_t width = 1;
  contiguous_kept_tail(l, width);
  const std::int64_t width_bytes = width * elem;
  const std::int64_t rows = l.red.at[l.red.n - 1].extent;  // (a fold takes rows of the last reduced axis)
  if (l.outputs * l.reduce * elem < T::virtual_min_bytes || width_bytes > T::fold_wide_column_max_bytes) return false;
  // Rows of one aligned vector: each lane's load holds 16 useful bytes already (float64
  // columns of 2: 1.06x the time folded).
  if (width_bytes == 16 && rows_aligned(l)) return false;
  const std::int64_t most_splits = width_bytes > T::fold_column_max_bytes ? T::fold_wide_max_splits : int32_max;
  for (std::int64_t row_bytes = T::fold_row_bytes; row_bytes >= T::fold_row_min_bytes; row_bytes /= 4) {
    const std::int64_t fold = ceil_div(row_bytes, width_bytes);
    if (fold < 2 || rows < fold * T::fold_min_rows) continue;
    layout full, walk;
    if (folded_layouts(l, fold, full, walk) && virtual_launch<T>(full, walk, r, d, c, most_splits)) return true;
  }
  return false;
}

template <class T>
launch_config choose_elements(const layout& l, const residency& r, const device_limits& d) {
  if (tiny_slices_fill<T>(l, d)) return tiny_launch<T>(l, r, d, kernel_kind::tiny_slices);
  launch_config c;
  c.threads = tune::threads;
  const std::int64_t per_lane = T::element_positions_per_lane;
  const int lanes_log2 = std::min(5, log2_ceil(ceil_div(l.reduce, per_lane)));
  const std::int64_t resident_threads = static_cast<std::int64_t>(d.multiprocessors) * d.max_threads_per_multiprocessor;
  const bool teams_fill = l.outputs * (std::int64_t(1) << lanes_log2) >= resident_threads;
  if (l.reduce <= int32_max && (teams_fill || l.reduce <= 32 * per_lane)) {
    c.kernel = kernel_kind::elements_team;
    c.team_log2 = lanes_log2;
    c.blocks = std::max<std::int64_t>(1, std::min(ceil_div(l.outputs, c.threads >> lanes_log2),
                                                  static_cast<std::int64_t>(d.multiprocessors) * r.elements));
    return c;
  }
  c.kernel = kernel_kind::elements_block;
  const std::int64_t target = static_cast<std::int64_t>(d.multiprocessors) * r.elements;
  const std::int64_t elem = static_cast<std::int64_t>(size_of(l.type));
  split_slices(c, l, l.reduce, wave_splits<T>(target, l.outputs, l.reduce * elem));
  return c;
}

template <class T>
launch_config choose_for(const layout& l, const residency& r, const device_limits& d) {
  switch (l.vec) {
    case vector_axis::run: {
      launch_config c;
      return windowed_launch<T>(l, r, d, c) ? c : choose_runs<T>(l, r, d);
    }
    case vector_axis::column: {
      launch_config c;
      return folded_launch<T>(l, r, d, c) ? c : choose_columns<T>(l, r, d);
    }
    case vector_axis::none: break;
  }
  return choose_elements<T>(l, r, d);
}

}  // namespace

launch_config choose_launch(const layout& l, const residency& r, const device_limits& d) {
  return tune::with_arch(d.compute_capability, [&](auto t) { return choose_for<decltype(t)>(l, r, d); });
}

launch_config windows_launch(const layout& l, const residency& r, const device_limits& d) {
  return tune::with_arch(d.compute_capability, [&](auto t) {
    using T = decltype(t);
    const launch_config staged = choose_for<T>(l, r, d);
    return staged.kernel == kernel_kind::staged_rows ? window_launch<T>(l, r, d, staged.run_slots) : staged;
  });
}

launch_config thread_per_slice_launch(const layout& l, const residency& r, const device_limits& d) {
  return tune::with_arch(d.compute_capability,
                         [&](auto t) { return tiny_launch<decltype(t)>(l, r, d, kernel_kind::tiny_slices); });
}

column_read_forced::column_read_forced(column_read read) { forced_column_read = static_cast<int>(read); }
column_read_forced::~column_read_forced() { forced_column_read = -1; }

std::string describe(const launch_config& c) {
  static const char* names[] = {"tiny_rows", "windows", "staged_rows", "runs_team", "runs_block", "runs_unordered", "columns", "elements_team",
                                "elements_block", "tiny_slices"};
  std::string s = names[static_cast<int>(c.kernel)];
  switch (c.kernel) {
    case kernel_kind::tiny_rows:
    case kernel_kind::tiny_slices: s += c.memory_order ? " memory_order" : ""; break;
    case kernel_kind::windows:
      s += " lanes=" + std::to_string(1 << c.team_log2) + " slots=" + std::to_string(c.window_slots);
      break;
    case kernel_kind::staged_rows: s += " stride=" + std::to_string(c.stage_stride); break;
    case kernel_kind::runs_team:
      s += " lanes=" + std::to_string(1 << c.team_log2) + (c.run_stream ? " stream" : "");
      break;
    case kernel_kind::runs_block:
    case kernel_kind::runs_unordered: s += c.run_stream ? " stream" : c.run_across ? " across" : ""; break;
    case kernel_kind::columns:
      s += std::string(" ") + to_string(c.read) + (c.packed ? " packed" : "") +
           " lanes=" + std::to_string(1 << c.column_lanes_log2) + " row_warps=" + std::to_string(1 << c.row_warps_log2);
      if (c.virt.window > 1) s += " window=" + std::to_string(c.virt.window);
      if (c.virt.fold > 1) s += " fold=" + std::to_string(c.virt.fold);
      if (c.answer_blocks > 0)
        s += c.answers_by_block ? " answers=block" : " answers=" + std::to_string(1 << c.answer_team_log2) + "lanes";
      break;
    case kernel_kind::elements_team: s += " lanes=" + std::to_string(1 << c.team_log2); break;
    case kernel_kind::elements_block: break;
  }
  s += " blocks=" + std::to_string(c.blocks);
  if (c.splits > 1)
    s += " splits=" + std::to_string(c.splits) + " chunk=" + std::to_string(c.chunk) + (c.packed_meet ? " atomic" : "");
  return s;
}

}  // namespace argx::detail::gpu
