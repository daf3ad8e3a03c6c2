// Every shape class and kernel path of the cuda backend, every dtype, against seq bit for
// bit, with NaN (both signs, payloads), ±0, ±inf, subnormals and dense ties injected;
// sizes around the warp, team, block and split boundaries.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "../../backends/cuda/dispatch.hpp"
#include "../../backends/cuda/tuning.hpp"
#include "cases.hpp"
#include "compare.hpp"
#include "element_bits.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using namespace argx_gpu_test;
using argx::dtype;

TEST_CASE("classes: every case and dtype matches seq; every kernel path is taken") {
  rng r(20251101);
  std::set<std::string> paths;
  const auto cs = cases();
  for (std::size_t ci = 0; ci < cs.size(); ++ci) {
    const shape_case& c = cs[ci];
    for (std::size_t ti = 0; ti < all_dtypes().size(); ++ti) {
      const dtype t = all_dtypes()[ti];
      if (is_large(c) && (quick() || !(t == dtype::f32 || t == dtype::bf16 || t == dtype::u8 || t == dtype::f64))) continue;
      if (quick() && ti % 3 != ci % 3) continue;
      INFO("case: ", c.name, ", dtype ", argx::name(t));
      const host_tensor x = make_case(r, t, c);
      require_two_variants_same_as_seq(x, c.dims, static_cast<int>((ci * 13 + ti) % 16), !is_large(c), paths);
    }
  }
  MESSAGE("kernel paths taken: ", listed(paths));
  if (quick()) return;  // the large cases hold some of the paths
  for (const std::string& want : kernel_paths())
    CHECK_MESSAGE(paths.count(want) == 1, "kernel path not exercised: ", want);
}

TEST_CASE("classes: all 16 option combinations on every path (float32, bfloat16)") {
  rng r(7);
  for (const shape_case& c : cases()) {
    if (quick() && is_large(c)) continue;
    for (dtype t : {dtype::f32, dtype::bf16}) {
      INFO("case: ", c.name, ", dtype ", argx::name(t));
      const host_tensor x = make_case(r, t, c);
      for (int v = 0; v < 16; ++v) require_same_as_seq(op_variant(v), x, spec_variant(v, c.dims));
    }
  }
}

TEST_CASE("classes: ties and NaN exactly at the split points the launch chose") {
  // Two equal maxima on either side of each boundary between two blocks' shares.
  std::set<std::string> answer_teams;  // float64 columns: the answers kernel's teams
  for (dtype t : {dtype::f32, dtype::f16, dtype::u8, dtype::f64}) {
    // Columns: tiles of warps along the rows, splits meeting through atomic maxima offered
    // through shared memory (float32), or (float64) partials folded by the answers kernel,
    // a block an output or a team of 32, 16, 8, 4, 2 or 1 lanes (the shapes in that order
    // from {1, 20000, 64}).
    for (argx::shape e : {argx::shape{(3 << 20) + 5}, argx::shape{3, 1 << 20}, argx::shape{1, 20000, 64},
                          argx::shape{1, 20000, 129}, argx::shape{1, 2000, 500}, argx::shape{1, 1000, 500},
                          argx::shape{1, 3000, 1100}, argx::shape{1, 400, 3000}, argx::shape{1, 200, 3000},
                          argx::shape{1, 100, 1000}}) {
      if (quick() && e.size() != 3) continue;
      const bool strided = e.size() == 3;
      const argx::spec s = spec_variant(0, strided ? argx::dim_list{1} : e.size() == 2 ? argx::dim_list{1} : argx::dim_list{});
      host_tensor x = make_filled(t, encode(t, 0), e);
      argx::detail::plan p = argx::detail::make_plan(x.view, argx::op::argmax, s);
      p.data = reinterpret_cast<const void*>(std::uintptr_t(0x10000));
      const auto cfg = argx::detail::gpu::launch_for(p);
      INFO(argx::name(t), " ", to_string(e), " launch ", argx::detail::gpu::describe(cfg));
      REQUIRE(cfg.splits > 1);
      if (cfg.answer_blocks > 0)
        answer_teams.insert(cfg.answers_by_block ? "block" : std::to_string(1 << cfg.answer_team_log2));
      const std::int64_t inner = strided ? e[2] : 1;
      const std::int64_t row = e.size() == 2 ? e[1] : 0;  // put the peaks in the last row
      // Pieces are rows of columns, or of a one-run slice, every splits-th stretch of a
      // block's 16-byte slots: boundaries between neighbouring pieces and, past the
      // last piece's first stretch, where the first piece takes over again.
      const std::int64_t unit = strided ? 1 : 16 / static_cast<std::int64_t>(argx::size_of(t));
      const std::int64_t stretch = strided ? cfg.chunk : argx::detail::gpu::tune::threads;
      const std::int64_t boundaries = strided ? cfg.splits : 2 * cfg.splits + 1;
      if (!strided) REQUIRE(cfg.kernel == argx::detail::gpu::kernel_kind::runs_block);
      std::vector<std::int64_t> ks;
      for (std::int64_t k = 1; k < boundaries; k += (boundaries + 6) / 7) ks.push_back(k);
      if (!strided) ks.push_back(cfg.splits);  // the last piece's first stretch, then the first piece's second
      for (const std::int64_t k : ks) {
        const std::int64_t b = k * stretch * unit;
        host_tensor y = make_filled(t, encode(t, 0), e);
        const std::int64_t base = e.size() == 2 ? (e[0] - 1) * row : 0;
        set_flat(y, base + (b - 1) * inner, encode(t, 1));
        set_flat(y, base + b * inner, encode(t, 1));
        argx::spec last = s;
        last.ties = argx::tie_break::last;
        for (argx::backend bk : {argx::backend::cuda, argx::backend::thrust}) {
          const auto first_o = reduce_on(bk, argx::op::argmax, y, s);
          const auto last_o = reduce_on(bk, argx::op::argmax, y, last);
          const std::size_t o = e.size() == 2 ? first_o.indices.size() - 1 : 0;
          CHECK(first_o.indices[o] == b - 1);
          CHECK(last_o.indices[o] == b);
        }
        if (argx::is_floating(t) && b + 1 < e[e.size() == 3 ? 1 : e.size() - 1]) {  // a NaN after the boundary wins
          set_flat(y, base + (b + 1) * inner, nan_bits(t, true, 3));
          CHECK(reduce_on(argx::backend::cuda, argx::op::argmin, y, s).indices[e.size() == 2 ? e[0] - 1 : 0] == b + 1);
        }
      }
    }
  }
  if (!quick()) CHECK(answer_teams == std::set<std::string>{"block", "32", "16", "8", "4", "2", "1"});
}

TEST_CASE("classes: folded columns of several reduced axes: ties and NaN at every fold's edges") {
  // Dims {0, 2} of A x K x R x 2: columns of two elements whose rows (dim 2) follow one
  // another, read `fold` rows at a time for every index of dim 0; the rows past the last
  // whole fold of each (R % fold of them, none for R = 4096) are the answers kernel's, by a
  // block or a team of lanes an output. Equal maxima on either side of the last fold's end,
  // and of one index of dim 0's end and the next one's start; a NaN in a tail; then random
  // elements with dense ties and NaN, every spec variant.
  rng r(20261129);
  fill_profile dense_ties;
  dense_ties.tie_rate = 0.9;
  int variant = 0;
  std::set<std::string> answers;
  const argx::shape few{48, 3, 4133, 2}, whole{40, 3, 4096, 2}, many{6, 300, 4133, 2};
  for (auto [t, e] : std::vector<std::pair<dtype, argx::shape>>{{dtype::f16, few},
                                                                {dtype::f16, whole},
                                                                {dtype::f16, many},
                                                                {dtype::bf16, few},
                                                                {dtype::i16, many},
                                                                {dtype::u8, many},
                                                                {dtype::u8, argx::shape{2, 1000, 4133, 2}}}) {
    const argx::spec s = spec_variant(0, argx::dim_list{0, 2});
    const host_tensor x = make_filled(t, encode(t, 0), e);
    argx::detail::plan p = argx::detail::make_plan(x.view, argx::op::argmax, s);
    p.data = reinterpret_cast<const void*>(std::uintptr_t(0x10000));
    const auto cfg = argx::detail::gpu::launch_for(p);
    INFO(argx::name(t), " ", to_string(e), " launch ", argx::detail::gpu::describe(cfg));
    REQUIRE(cfg.virt.fold > 1);
    answers.insert(cfg.answers_by_block ? "block" : "team");
    const std::int64_t outer = e[0], kept = e[1], rows = e[2], tail = rows % cfg.virt.fold, out = 1 * 2 + 1;
    auto flat = [&](std::int64_t u, std::int64_t q) { return ((u * kept + 1) * rows + q) * 2 + 1; };  // output (1, 1)
    argx::spec last = s;
    last.ties = argx::tie_break::last;
    // Equal maxima at traversal positions u * rows + q and the next one (the last fold of
    // index outer - 2 and the first tail row after it; the last row of one index and the
    // first of the next).
    for (auto [u, q] : std::vector<std::pair<std::int64_t, std::int64_t>>{{outer - 2, rows - tail - 1}, {outer / 2 - 1, rows - 1}}) {
      host_tensor y = make_filled(t, encode(t, 0), e);
      const std::int64_t a = u * rows + q;
      set_flat(y, flat(u, q), encode(t, 1));
      set_flat(y, q + 1 < rows ? flat(u, q + 1) : flat(u + 1, 0), encode(t, 1));
      CHECK(reduce_on(argx::backend::cuda, argx::op::argmax, y, s).indices[out] == a);
      CHECK(reduce_on(argx::backend::cuda, argx::op::argmax, y, last).indices[out] == a + 1);
      if (argx::is_floating(t)) {  // a NaN in the tail of index 1 of dim 0 wins
        set_flat(y, flat(1, rows - 1), nan_bits(t, true, 3));
        CHECK(reduce_on(argx::backend::cuda, argx::op::argmin, y, s).indices[out] == 2 * rows - 1);
      }
    }
    const host_tensor z = random_tensor(r, t, e, dense_ties);
    for (int k = 0; k < 4; ++k, ++variant)
      require_same_as_seq(op_variant(variant % 16), z, spec_variant(variant % 16, argx::dim_list{0, 2}));
  }
  CHECK(answers == std::set<std::string>{"block", "team"});
}

TEST_CASE("classes: every column of split tiles met through atomic maxima") {
  // The last block of a split column tile reads every column's atomic maximum: in batches
  // (column_meeting_batch slots a thread at once) for uint8 and float16 tiles, one by one
  // for float32's; last tiles and outer rows end mid-batch and mid-group. Every output
  // checked, random elements with NaN and dense ties, all 16 spec variants spread over the
  // shapes.
  rng r(20261128);
  fill_profile dense_ties;
  dense_ties.tie_rate = 0.9;
  int variant = 0;
  for (dtype t : {dtype::u8, dtype::f16, dtype::f32}) {
    for (argx::shape e : {argx::shape{2, 128, 4097}, argx::shape{2, 1024, 4097}, argx::shape{1, 3000, 9151}}) {
      const host_tensor x = random_tensor(r, t, e, dense_ties);
      for (int k = 0; k < 3; ++k, ++variant) {
        const argx::spec s = spec_variant(variant % 16, argx::dim_list{1});
        argx::detail::plan p = argx::detail::make_plan(x.view, op_variant(variant % 16), s);
        p.data = reinterpret_cast<const void*>(std::uintptr_t(0x10000));
        const auto cfg = argx::detail::gpu::launch_for(p);
        INFO(argx::name(t), " ", to_string(e), " variant ", variant % 16, " launch ", argx::detail::gpu::describe(cfg));
        REQUIRE((cfg.splits > 1 && cfg.packed_meet));
        require_same_as_seq(op_variant(variant % 16), x, s);
      }
    }
  }
}

TEST_CASE("classes: ties and NaN at every run and piece boundary of a walk across runs") {
  // Slices of 6 runs of about 700 slots (dims 0 and 2 of 6 x 2 x C), split 8 ways: a
  // piece's slots are one range across its runs, each lane moving to the next run where
  // its slot passes a run's end. Two equal peaks on either side of every run boundary and
  // of every piece boundary (the first element of a piece's first slot and the one before
  // it), in output 0, whose runs start 16-byte aligned or (C odd) anywhere in a slot, and
  // run forwards or (dim 2 reversed) backwards; in floats a NaN after them.
  for (dtype t : {dtype::f32, dtype::f16, dtype::u8, dtype::f64}) {
    const std::int64_t elem = static_cast<std::int64_t>(argx::size_of(t)), per_vec = 16 / elem;
    for (std::int64_t extra : {0, 3})
      for (bool backwards : {false, true}) {
        const std::int64_t runs = 6, outs = 2, len = 700 * per_vec + extra;
        const argx::shape e{runs, outs, len};
        const argx::spec s = spec_variant(0, argx::dim_list{0, 2});
        auto view_of = [&](const host_tensor& x) { return backwards ? x.flipped(2) : x; };
        const host_tensor x = view_of(make_filled(t, encode(t, 0), e));
        argx::detail::plan p = argx::detail::make_plan(x.view, argx::op::argmax, s);
        p.data = reinterpret_cast<const void*>(std::uintptr_t(0x10000) + static_cast<std::uintptr_t>(x.data_offset()));
        const auto cfg = argx::detail::gpu::launch_for(p);
        INFO(argx::name(t), " ", to_string(e), backwards ? " dim 2 reversed" : "", " launch ",
             argx::detail::gpu::describe(cfg));
        REQUIRE(cfg.run_across);
        REQUIRE(cfg.splits > 1);
        // Position pos of output 0 (run a, view index c: pos = a * len + c) and its element
        // of the contiguous tensor.
        auto flat = [&](std::int64_t pos) {
          const std::int64_t a = pos / len, c = pos % len;
          return a * outs * len + (backwards ? len - 1 - c : c);
        };
        std::vector<std::int64_t> bounds;
        for (std::int64_t a = 1; a < runs; ++a) bounds.push_back(a * len);
        for (std::int64_t k = cfg.chunk; k < runs * cfg.run_slots; k += cfg.chunk) {
          // Slot v of run q, counted from the run's view index 0: its first view index.
          const std::int64_t q = k / cfg.run_slots, v = k % cfg.run_slots;
          const std::int64_t skew = flat(q * len) * elem % 16;  // of view index 0's byte in its vector
          const std::int64_t first = backwards ? (skew + 16 * (v - 1)) / elem + 1 : (16 * v - skew + elem - 1) / elem;
          if (v > 0 && first > 0 && first < len) bounds.push_back(q * len + first);
        }
        REQUIRE(bounds.size() > static_cast<std::size_t>(runs));
        for (const std::int64_t b : bounds) {
          INFO("peaks at ", b - 1, " and ", b);
          host_tensor y = make_filled(t, encode(t, 0), e);
          set_flat(y, flat(b - 1), encode(t, 1));
          set_flat(y, flat(b), encode(t, 1));
          argx::spec last = s;
          last.ties = argx::tie_break::last;
          for (argx::backend bk : {argx::backend::cuda, argx::backend::thrust}) {
            CHECK(reduce_on(bk, argx::op::argmax, view_of(y), s).indices[0] == b - 1);
            CHECK(reduce_on(bk, argx::op::argmax, view_of(y), last).indices[0] == b);
          }
          if (argx::is_floating(t)) {  // a NaN after the peaks wins
            set_flat(y, flat(b + 1), nan_bits(t, true, 3));
            CHECK(reduce_on(argx::backend::cuda, argx::op::argmin, view_of(y), s).indices[0] == b + 1);
          }
        }
      }
  }
}

TEST_CASE("classes: slices made only of the value every running best starts from") {
  // The kernels seed running bests below every value (or, for float32/float64 columns, at
  // the lowest value itself): slices holding nothing else must still answer the first (or
  // last) position, on every path.
  struct slice_case {
    argx::shape extents;
    argx::dim_list dims;
  };
  const std::vector<slice_case> shapes = {
      {{1, 20000, 64}, {1}},  // strided, reduced dim split across warps
      {{5, 300, 1000}, {1}},  // strided, one warp per column tile
      {{1, 5000, 129}, {1}},  // strided, rows not 16-byte aligned (shuffled or shifted reads), split
      {{3000, 8}, {1}},       // short rows held in registers, 2..8 vectors a lane
      {{3000, 32}, {1}},
      {{300, 256}, {1}},
      {{3, 34000, 5}, {0, 2}},  // tiny slices: a thread each, over several runs
      {{1024}, {}},           // flat in one warp
      {{(1 << 20) + 3}, {}},  // flat, blocks meeting in one launch
  };
  for (dtype t : {dtype::f32, dtype::f64, dtype::bf16, dtype::i32, dtype::u8, dtype::i64}) {
    // The lowest and highest value's bits: -inf and inf, or the integer type's limits.
    const bool fl = argx::is_floating(t);
    const std::uint64_t lo = fl ? encode(t, -HUGE_VAL) : t == dtype::i32 ? 0x80000000u : t == dtype::i64 ? 1ull << 63 : 0;
    const std::uint64_t hi = fl ? encode(t, HUGE_VAL) : t == dtype::i32 ? 0x7fffffffu : t == dtype::i64 ? ~(1ull << 63) : 0xff;
    for (const slice_case& c : shapes) {
      for (int v : {0, 1, 4, 5}) {  // argmax / argmin, ties first / last
        const argx::op o = op_variant(v);
        const std::uint64_t bits = o == argx::op::argmax ? lo : hi;
        INFO(argx::name(t), " ", to_string(c.extents), " variant ", v);
        require_same_as_seq(o, make_filled(t, bits, c.extents), spec_variant(v, c.dims));
      }
    }
  }
}

TEST_CASE("classes: ties and NaN on either side of every slot boundary in staged rows") {
  // The staged rows kernel folds each row (5-9 slots of 16 bytes, starting anywhere in its
  // first) in a thread, slot after slot. Two equal peaks at neighbouring positions that
  // move along the rows fall on every slot boundary and on the row's edges; in every third
  // row of floats a NaN follows them. Rows the window kernel keeps are checked too.
  for (dtype t : {dtype::f32, dtype::f16, dtype::u8, dtype::f64}) {
    const std::int64_t elem = static_cast<std::int64_t>(argx::size_of(t));
    int staged = 0;
    for (std::int64_t bytes : {72, 80, 96, 100, 128, 144}) {  // rows of 5 to 10 slots
      const std::int64_t len = bytes / elem, rows = 1200;
      for (std::int64_t skip : {0, 1}) {  // rows starting on 16 bytes, or one element after
        host_tensor x = make_filled(t, encode(t, 0), argx::shape{rows, len + skip});
        for (std::int64_t r = 0; r < rows; ++r) {
          const std::int64_t p = skip + (r * 37) % (len - 1);
          set_flat(x, r * (len + skip) + p, encode(t, 1));
          set_flat(x, r * (len + skip) + p + 1, encode(t, 1));
          if (argx::is_floating(t) && r % 3 == 0 && p + 2 < len + skip) set_flat(x, r * (len + skip) + p + 2, nan_bits(t));
        }
        const host_tensor v = skip ? x.sliced(1, 1, len + 1) : x;
        argx::detail::plan p = argx::detail::make_plan(v.view, argx::op::argmax, spec_variant(0, {1}));
        p.data = reinterpret_cast<const void*>(std::uintptr_t(0x10000) + static_cast<std::uintptr_t>(v.data_offset()));
        const auto cfg = argx::detail::gpu::launch_for(p);
        INFO(argx::name(t), " rows of ", len, " skip ", skip, " launch ", argx::detail::gpu::describe(cfg));
        staged += cfg.kernel == argx::detail::gpu::kernel_kind::staged_rows;
        for (int variant : {0, 1, 4, 5})  // argmax / argmin, ties first / last
          require_same_as_seq(op_variant(variant), v, spec_variant(variant, {1}));
      }
    }
    INFO(argx::name(t));
    CHECK(staged >= 3);
  }
}
