// choose_launch over the plans of the random-shape sweep (bench/sweep), on the device
// limits of an H100/H200 (132 multiprocessors): the invariants that make a launch fast on
// any shape. Plain C++: runs without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "../../backends/cuda/launch.hpp"
#include "../../backends/cuda/tuning.hpp"
#include "../../bench/sweep/sweep_cases.hpp"

using namespace argx::detail::gpu;

namespace {

constexpr std::int64_t mib = 1 << 20;
using hopper_tuning = tune::for_arch<90>;  // what choose_launch uses on the device below

// 16-byte loads a thread of each kernel keeps in flight.
int loads_per_thread(const launch_config& c, argx::dtype t) {
  switch (c.kernel) {
    case kernel_kind::tiny_rows:
    case kernel_kind::tiny_slices: return 0;  // element by element: not sized by this rule
    case kernel_kind::windows: return hopper_tuning::window_loads;
    case kernel_kind::staged_rows:  // a tile's copies (a row a thread), all in flight at once
      return static_cast<int>(c.run_slots);
    case kernel_kind::runs_team:
    case kernel_kind::runs_block:
    case kernel_kind::runs_unordered:  // a stream of short runs' slots, or long runs double-buffered
      return c.run_stream ? hopper_tuning::short_run_unroll : 2 * hopper_tuning::run_unroll;
    case kernel_kind::columns: return hopper_tuning::column_unroll;
    case kernel_kind::elements_team:
    case kernel_kind::elements_block: return 0;  // element by element: not sized by this rule
  }
  return 0;
}

/// Share of its waves' room (in percent) that a launch of `blocks` fills.
std::int64_t wave_fill_pct(std::int64_t blocks, std::int64_t wave) { return 100 * blocks / ((blocks + wave - 1) / wave * wave); }

int resident_blocks(const launch_config& c, const residency& r) {
  switch (c.kernel) {
    case kernel_kind::tiny_rows:
    case kernel_kind::tiny_slices: return r.tiny_rows;
    case kernel_kind::windows: return r.windows;
    case kernel_kind::staged_rows: return r.staged_rows;
    case kernel_kind::runs_team: return r.runs_team;
    case kernel_kind::runs_block:
    case kernel_kind::runs_unordered: return r.runs_block;
    case kernel_kind::columns: return r.columns;
    default: return r.elements;
  }
}

}  // namespace

TEST_CASE("launch: every sweep plan gets a full, bounded launch") {
  const device_limits hopper{132, 2048, 90};
  const residency r;
  auto cases = argx::sweep::make_sweep(13, 320);
  argx::sweep::sweep_limits small;
  small.min_bytes = 4 << 10;
  small.max_bytes = (1 << 20) - 1;
  small.max_span_bytes = 2 << 20;
  for (const auto& c : argx::sweep::make_sweep(14, 60, small)) cases.push_back(c);
  int checked = 0, split = 0, shuffled = 0, windowed = 0, folded = 0, staged = 0, answered = 0, memory_ordered = 0,
      across = 0;
  for (const auto& sc : cases) {
    // As in device memory: allocations are 256-byte aligned, views start where they start.
    const argx::tensor_view x = sc.view_of(reinterpret_cast<const void*>(std::uintptr_t(1) << 20), argx::memory_space::device);
    const argx::detail::plan p = argx::detail::make_plan(x, sc.op, sc.spec());
    const layout l = make_layout(p);
    const launch_config c = choose_launch(l, r, hopper);
    INFO(sc.describe(), " -> ", describe(l), " -> ", describe(c));
    REQUIRE(c.threads == tune::threads);
    // sm_80's tuning is Hopper's (not measured separately): the same device at 8.0 gets
    // the same launch.
    CHECK(describe(choose_launch(l, r, device_limits{132, 2048, 80})) == describe(c));
    REQUIRE(c.blocks >= 1);
    REQUIRE(c.blocks <= 0x7fffffff);
    // The workspace stays small: it is per stream and kept.
    CHECK(c.counters * 4 + c.slots * 8 + c.partials * 16 <= static_cast<std::size_t>(64 * mib));
    if (c.kernel == kernel_kind::columns && c.packed) {  // a thread's row count fits its counter
      const std::int64_t row_lanes = (32 >> c.column_lanes_log2) << c.row_warps_log2;
      const std::int64_t rows_per_thread = (c.chunk + row_lanes - 1) / row_lanes;
      CHECK(rows_per_thread <= (argx::size_of(l.type) == 1 ? 256 : 65536));
    }
    if (c.kernel == kernel_kind::columns && c.splits > 1 && c.packed_meet) CHECK(c.chunk < (std::int64_t(1) << 32));
    // A dense slice is one long run, read by the dense kernel (never as a stream of slots).
    if (l.dense) CHECK((c.kernel == kernel_kind::runs_unordered && !c.run_stream));
    // A walk across runs: block walks of several runs of more than a stream's slots a lane
    // and at most across_max_slots_per_lane; a lane moves at most one run a step.
    if (c.run_across) {
      CHECK(c.kernel == kernel_kind::runs_block);
      CHECK(!c.run_stream);
      CHECK(l.reduce > l.run_length());
      CHECK(c.run_slots >= c.threads);
      CHECK(c.run_slots <= hopper_tuning::across_max_slots_per_lane * c.threads);
      ++across;
    }
    if (c.kernel == kernel_kind::columns && c.read == column_read::shuffled) {
      // Shuffled reads: whole warps along the columns, each thread walking long enough to
      // pay for its lane's setup (NOTES.md v6.4).
      CHECK(c.column_lanes_log2 == 5);
      CHECK((c.chunk >> c.row_warps_log2) >= hopper_tuning::column_shuffle_min_rows);
      ++shuffled;
    }
    if (c.kernel == kernel_kind::staged_rows) {  // a tile of rows in shared memory, a thread a row
      CHECK(staged_tile_bytes(c) <= static_cast<std::size_t>(hopper_tuning::staged_tile_bytes));
      CHECK(c.stage_stride >= c.run_slots);
      CHECK(c.stage_stride % 2 == 1);  // a phase's 8 rows in 8 different banks
      ++staged;
    }
    // Split slices of the block run kernels: only slices longer than max_unsplit_bytes,
    // each piece at least min_split_bytes (a piece: chunk slots, or chunk runs of a
    // stream, 16 bytes a slot).
    if ((c.kernel == kernel_kind::runs_block || c.kernel == kernel_kind::runs_unordered) && c.splits > 1) {
      const std::int64_t slice_bytes = l.reduce * static_cast<std::int64_t>(argx::size_of(l.type));
      CHECK(slice_bytes > hopper_tuning::max_unsplit_bytes);
      CHECK(c.chunk * (c.run_stream ? c.run_slots : 1) * 16 >= hopper_tuning::min_split_bytes);
    }
    // At most one wave of split blocks, whatever the input's size: a second, partial wave
    // would leave most of the GPU idle while it runs.
    const std::int64_t wave = static_cast<std::int64_t>(hopper.multiprocessors) * resident_blocks(c, r);
    if (c.splits > 1 && c.kernel != kernel_kind::columns) CHECK(l.outputs * c.splits <= wave);
    if (c.virt.any()) ++(c.virt.window > 1 ? windowed : folded);
    // Folds of columns up to a vector; those wider than fold_column_max_bytes split their
    // rows a few ways at most (the answers kernel reads every split's fold partials).
    if (c.virt.fold > 1) {
      const std::int64_t width_bytes = c.virt.width * static_cast<std::int64_t>(argx::size_of(l.type));
      CHECK(width_bytes <= hopper_tuning::fold_wide_column_max_bytes);
      if (width_bytes > hopper_tuning::fold_column_max_bytes) CHECK(c.splits <= hopper_tuning::fold_wide_max_splits);
    }
    if (c.memory_order) {
      MESSAGE("memory order: ", sc.describe(), " -> ", describe(c));
      CHECK(!kept_in_memory_order(l));
      ++memory_ordered;
    }
    // Split columns meet through atomic maxima where a key and a position pack into 64
    // bits, else (and walks of virtual columns, whatever their splits) through partials
    // that the answers kernel folds, a small share of the input.
    if (c.kernel == kernel_kind::columns && c.splits > 1)
      CHECK(c.packed_meet == (argx::size_of(l.type) < 8 && !c.virt.any()));
    if (c.answer_blocks > 0) {
      CHECK(c.kernel == kernel_kind::columns);
      CHECK((c.virt.any() || (c.splits > 1 && argx::size_of(l.type) == 8)));
      CHECK(!c.packed_meet);
      CHECK(c.counters == 0);
      CHECK(c.partials * 16 * hopper_tuning::virtual_partial_share <= static_cast<std::size_t>(sc.bytes()));
      // A team of lanes an output, each lane one batch of its partials, up to a warp.
      const std::int64_t n = c.splits * c.virt.per_output(), lanes = std::int64_t(1) << c.answer_team_log2;
      if (!c.answers_by_block) {
        CHECK((lanes * hopper_tuning::answer_loads_per_lane >= n || lanes == 32));
        CHECK((lanes == 1 || lanes / 2 * hopper_tuning::answer_loads_per_lane < n));
      }
      ++answered;
    }
    if (sc.bytes() < 16 * mib) continue;
    ++checked;
    split += c.splits > 1;
    const int loads = loads_per_thread(c, l.type);
    if (loads == 0) continue;
    // One full wave of resident blocks, or as many as there is work for, with enough
    // bytes in flight to keep every multiprocessor's memory pipe busy.
    const std::int64_t blocks = std::min(c.blocks, wave);
    CHECK(blocks >= hopper.multiprocessors);
    // (Unsplit column launches that give every multiprocessor a block may stop short by a
    // quarter: splits to make up the rest would cost more in their meeting, column_cost.)
    const bool unsplit_columns = c.kernel == kernel_kind::columns && c.splits == 1;
    CHECK(blocks * c.threads * loads * 16 * (unsplit_columns ? 4 : 3) >=
          3 * hopper.multiprocessors * hopper_tuning::bytes_in_flight_per_sm);
    // Few outputs: the reduced positions are split so that the blocks still fill most of
    // a wave (a slice too short to split is read by one block).
    if (c.kernel == kernel_kind::runs_block && l.reduce * static_cast<std::int64_t>(argx::size_of(l.type)) >= 4 * mib)
      CHECK(l.outputs * c.splits >= wave / 2);
    // Column launches of more than a wave fill their last wave (the rows split further)
    // unless their threads' walks are already as short as that allows (1- and 2-byte and
    // 64-bit columns have splits bounded by their counters and partials).
    const std::int64_t row_lanes = (32 >> c.column_lanes_log2) << c.row_warps_log2;
    if (c.kernel == kernel_kind::columns && c.blocks > wave && !c.packed && argx::size_of(l.type) != 8 &&
        c.chunk / row_lanes >= 2 * std::max(hopper_tuning::column_min_rows_per_thread, hopper_tuning::column_wave_fill_min_rows))
      CHECK(wave_fill_pct(c.blocks, wave) >= hopper_tuning::column_min_wave_fill_pct);
  }
  MESSAGE(checked, " plans of at least 16 MiB, ", split, " of them split; ", shuffled, " column launches read shuffled; ",
          windowed, " windowed, ", folded, " folded, ", staged, " staged rows; ", answered,
          " column launches leave partials to the answers kernel; ", memory_ordered, " threads an output in memory order; ",
          across, " block run walks across runs");
  CHECK(windowed > 0);
  CHECK(staged > 0);
  CHECK(folded > 0);
  CHECK(answered > windowed + folded);  // 64-bit split columns too
  CHECK(shuffled > 0);
  CHECK(memory_ordered > 0);
  CHECK(across > 0);
  CHECK(checked > 150);
}

TEST_CASE("launch: a column launch of a few waves splits its rows to fill the last one") {
  // float32 dim 1 of 128 x 4096 x 4095 (KernelBench level 1, problems 51 and 52): 544
  // tiles of long walks in waves of 264 blocks; unsplit, the third wave held 16 blocks.
  const device_limits hopper{132, 2048, 90};
  const residency r;
  const argx::shape ext{128, 4096, 4095};
  const argx::tensor_view x = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t(1) << 20), argx::dtype::f32, ext,
                                              argx::contiguous_strides(ext), argx::memory_space::device);
  for (argx::op o : {argx::op::argmax, argx::op::argmin}) {
    argx::spec s;
    s.dims = {1};
    const launch_config c = choose_launch(make_layout(argx::detail::make_plan(x, o, s)), r, hopper);
    INFO(describe(c));
    REQUIRE(c.kernel == kernel_kind::columns);
    const std::int64_t wave = static_cast<std::int64_t>(hopper.multiprocessors) * r.columns;
    CHECK(c.splits > 1);
    CHECK(wave_fill_pct(c.blocks, wave) >= hopper_tuning::column_min_wave_fill_pct);
    CHECK(c.chunk >= hopper_tuning::column_wave_fill_min_rows);
  }
}

TEST_CASE("launch: column tiles fill a wave with warps along the rows before splits") {
  // int32 dim 1 of 12 x R x 10000: 938 warps of 32 column groups, 118 tiles of 8 of them.
  // Rows of 64 or 384: two warps along the rows (235 tiles, meeting in shared memory) and
  // no split; they were cut into two pieces, each paying an atomic maximum for every
  // output. Rows of 4 cannot feed two row warps, nor two pieces: unsplit.
  const device_limits hopper{132, 2048, 90};
  const residency r;
  for (std::int64_t rows : {4, 64, 384}) {
    const argx::shape ext{12, rows, 10000};
    const argx::tensor_view x = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t(1) << 20), argx::dtype::i32, ext,
                                                argx::contiguous_strides(ext), argx::memory_space::device);
    argx::spec s;
    s.dims = {1};
    const launch_config c = choose_launch(make_layout(argx::detail::make_plan(x, argx::op::argmax, s)), r, hopper);
    INFO(rows, " rows: ", describe(c));
    REQUIRE(c.kernel == kernel_kind::columns);
    CHECK(c.splits == 1);
    CHECK(c.row_warps_log2 == (rows > 4 ? 1 : 0));
    CHECK(c.blocks == (rows > 4 ? 235 : 118));
  }
}

TEST_CASE("launch: columns of up to a vector fold where the walk splits its rows a few ways at most") {
  // int32 dims {0, 2} of 1025 x 127 x 2138 x 2: columns of 8 bytes, each lane's 16-byte
  // load a row held 8 useful bytes; folded for every index of dim 0 (64 rows a walk row,
  // 4 splits). uint32 dim 0 of 6645712 x 3: folded, 132 splits whose partials the answers
  // kernel read (1.55x the time): not folded.
  const device_limits hopper{132, 2048, 90};
  const residency r;
  struct shape_case {
    argx::dtype type;
    argx::shape ext;
    argx::dim_list dims;
    bool folds;
  };
  for (const shape_case& sc : {shape_case{argx::dtype::i32, {1025, 127, 2138, 2}, {0, 2}, true},
                               shape_case{argx::dtype::u32, {6645712, 3}, {0}, false}}) {
    const argx::tensor_view x = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t(1) << 20), sc.type, sc.ext,
                                                argx::contiguous_strides(sc.ext), argx::memory_space::device);
    argx::spec s;
    s.dims = sc.dims;
    const layout l = make_layout(argx::detail::make_plan(x, argx::op::argmax, s));
    const launch_config c = choose_launch(l, r, hopper);
    INFO(argx::name(sc.type), " ", describe(l), ": ", describe(c));
    REQUIRE(c.kernel == kernel_kind::columns);
    CHECK((c.virt.fold > 1) == sc.folds);
    if (sc.folds) {
      CHECK(l.red.n == 2);
      CHECK(c.virt.rows == sc.ext[2]);
      CHECK(c.splits <= hopper_tuning::fold_wide_max_splits);
    }
  }
}

TEST_CASE("launch: short rows are staged in shared memory where the window kernel's team would idle") {
  // Rows of 5-9 slots whose window team (2-4 lanes x 4 slots) would hold at least a fifth
  // of its slots outside the row take staged_rows; rows that fill their team do not.
  const device_limits hopper{132, 2048, 90};
  const residency r;
  struct row_case {
    std::int64_t len, skip;
    bool staged;
  };
  // float32 rows: 32 elements aligned are 8 slots (2 x 4, none idle); one element past 16
  // bytes, 9 slots (4 x 4, 7 idle); 20 aligned 5 slots (2 x 4, 3 idle); 28 aligned 7 slots
  // (1 of 8 idle); 16 aligned 4 slots (a lane of 4); 60 aligned 15 slots (more than 9).
  // 20000 rows: too few for a thread a row of the tiny kernel.
  for (const row_case& rc : {row_case{32, 0, false}, row_case{32, 1, true}, row_case{20, 0, true}, row_case{28, 0, false},
                             row_case{16, 0, false}, row_case{60, 0, false}}) {
    argx::tensor_view x;
    x.data = reinterpret_cast<const void*>((std::uintptr_t(1) << 20) + 4 * rc.skip);
    x.type = argx::dtype::f32;
    x.extents = argx::shape{20000, rc.len + rc.skip};
    x.strides = argx::shape{rc.len + rc.skip, 1};
    x.space = argx::memory_space::device;
    x = x.sliced(1, 0, rc.len);
    argx::spec s;
    s.dims = {1};
    const layout l = make_layout(argx::detail::make_plan(x, argx::op::argmax, s));
    const launch_config c = choose_launch(l, r, hopper);
    INFO("rows of ", rc.len, " float32, ", rc.skip, " element(s) past 16 bytes: ", describe(c));
    CHECK((c.kernel == kernel_kind::staged_rows) == rc.staged);
  }
}

TEST_CASE("launch: split 64-bit columns leave partials to the answers kernel and fill a wave") {
  // dim 0 of 511 x 2049: 33 column tiles of 8 warps along the rows. 32-bit keys meet
  // through packed atomic maxima; 64-bit keys cannot pack with a position, so their pieces
  // leave partials that a second kernel folds, and split as far as the 32-bit ones (when
  // the tile's last block read them all, int64 was held to 8 splits of 5 full-width
  // tiles, 40 blocks).
  const device_limits hopper{132, 2048, 90};
  const residency r;
  const argx::shape ext{511, 2049};
  for (argx::dtype t : {argx::dtype::f32, argx::dtype::i64, argx::dtype::f64}) {
    const argx::tensor_view x = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t(1) << 20), t, ext,
                                                argx::contiguous_strides(ext), argx::memory_space::device);
    argx::spec s;
    s.dims = {0};
    const layout l = make_layout(argx::detail::make_plan(x, argx::op::argmax, s));
    const launch_config c = choose_launch(l, r, hopper);
    INFO(argx::name(t), ": ", describe(c));
    REQUIRE(c.kernel == kernel_kind::columns);
    const bool wide = argx::size_of(t) == 8;
    CHECK(c.packed_meet == !wide);
    CHECK((c.answer_blocks > 0) == wide);
    CHECK(c.blocks * 10 >= 9 * static_cast<std::int64_t>(hopper.multiprocessors) * r.columns);
    if (wide) {
      CHECK(c.partials == static_cast<std::size_t>(l.outputs * c.splits));
      CHECK(c.counters == 0);
      CHECK(c.slots == 0);
      CHECK(c.answer_team_log2 == 1);  // 2049 outputs of 8 partials: 2 lanes of 4 loads each
      CHECK(!c.answers_by_block);
    }
  }
  // float64 dim 0 of 256 x 8448: 132 tiles of 8 row warps, 8448 outputs of two partials,
  // a thread each (a warp each idled 30 of its lanes and read partials 16 x outputs bytes
  // apart).
  const argx::shape few{256, 8448};
  const argx::tensor_view x = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t(1) << 20), argx::dtype::f64,
                                              few, argx::contiguous_strides(few), argx::memory_space::device);
  argx::spec s;
  s.dims = {0};
  const launch_config c = choose_launch(make_layout(argx::detail::make_plan(x, argx::op::argmin, s)), r, hopper);
  INFO(describe(c));
  REQUIRE(c.answer_blocks > 0);
  CHECK(c.splits == 2);
  CHECK(c.splits <= hopper_tuning::answer_loads_per_lane);
  CHECK(c.answer_team_log2 == 0);
  CHECK(!c.answers_by_block);
}

TEST_CASE("launch: a thread an output takes outputs in memory order where their compact order scatters reads") {
  const device_limits hopper{132, 2048, 90};
  const residency r;
  struct order_case {
    argx::dtype type;
    argx::shape extents;  ///< of the contiguous tensor
    bool reversed;        ///< the view reverses its dims
    int dim;              ///< reduced, of the view
    bool memory_order;
  };
  // float64 dim 4 of the reversed 5 x 1573 x 227 x 23 x 2: compact neighbours 16 bytes
  // each, 10442 elements apart. uint8 dim 2 of the reversed 3000709 x 8 x 2 x 2: a warp's
  // compact outputs read half of each 4-byte group. Not reordered: contiguous rows of 5;
  // uint32 dim 2 of the reversed 8760 x 30 x 7 x 2 x 4, whose compact warp reads 16 of
  // every 32 bytes in 8 lines a load while memory order would store to 32 lines (it took
  // 1.16x the time in memory order, NOTES v6.16).
  for (const order_case& oc : {order_case{argx::dtype::f64, {5, 1573, 227, 23, 2}, true, 4, true},
                               order_case{argx::dtype::u8, {3000709, 8, 2, 2}, true, 2, true},
                               order_case{argx::dtype::f32, {300000, 5}, false, 1, false},
                               order_case{argx::dtype::u32, {8760, 30, 7, 2, 4}, true, 2, false}}) {
    argx::tensor_view x = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t(1) << 20), oc.type, oc.extents,
                                          argx::contiguous_strides(oc.extents), argx::memory_space::device);
    const int last = static_cast<int>(oc.extents.size()) - 1;
    if (oc.reversed)
      for (int d = 0; d < last - d; ++d) x = x.transposed(d, last - d);
    argx::spec s;
    s.dims = {oc.dim};
    const layout l = make_layout(argx::detail::make_plan(x, argx::op::argmax, s));
    const launch_config c = choose_launch(l, r, hopper);
    INFO(argx::name(oc.type), " ", describe(l), " -> ", describe(c));
    REQUIRE((c.kernel == kernel_kind::tiny_slices || c.kernel == kernel_kind::tiny_rows));
    CHECK(c.memory_order == oc.memory_order);
  }
  // rows of 6 of a transposed 6000 x 40 x 6: compact neighbours 240 elements apart, a line
  // each a load.
  const argx::shape ext{6000, 40, 6};
  for (argx::dtype t : {argx::dtype::f32, argx::dtype::i64}) {
    argx::tensor_view x = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t(1) << 20), t, ext,
                                          argx::contiguous_strides(ext), argx::memory_space::device);
    x = x.transposed(0, 1);
    argx::spec s;
    s.dims = {2};
    const launch_config c = choose_launch(make_layout(argx::detail::make_plan(x, argx::op::argmin, s)), r, hopper);
    INFO(argx::name(t), ": ", describe(c));
    CHECK(c.kernel == kernel_kind::tiny_rows);
    CHECK(c.memory_order);
  }
}
