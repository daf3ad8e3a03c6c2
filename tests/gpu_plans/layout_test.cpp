// make_layout against the plan it lowers, by brute force on random views: every (compact
// output, traversal index) of the layout reads the element the plan puts at its real
// output and position; the real outputs are each covered once; positions follow the
// traversal in the order the layout's tie rule assumes; a broadcast copy reports the copy
// the tie rule picks. Plain C++: runs without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../../backends/cuda/layout.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using argx::detail::gpu::layout;
using argx::detail::gpu::make_layout;
using argx::detail::gpu::vector_axis;

namespace {

// Element offset (from the plan's data) of output o, position pos, as the plan defines it.
std::int64_t plan_offset(const argx::detail::plan& p, std::int64_t o, std::int64_t pos) {
  return argx::detail::kept_offset(p, o) + argx::detail::reduced_offset(p, pos);
}

// A walk of virtual columns (windowed_layouts, folded_layouts) reads, at virtual column
// virt.column(o, k) of walk row r, the element its full layout puts at output o and
// traversal index virt.position(r, that column), and that is the plan's element at the
// output and position full reports; every traversal index of every output is read once
// (a folded walk's rows past its last fold: by the answers' kernel).
void check_virtual(const argx::detail::plan& p, const layout& full, const layout& walk, std::int64_t shift) {
  INFO("virtual walk: ", argx::detail::gpu::describe(walk));
  const auto v = walk.virt;
  REQUIRE(v.any());
  CHECK(walk.vec == vector_axis::column);
  CHECK(walk.column_axis().stride == 1);
  CHECK(walk.outputs == full.outputs * v.per_output());
  CHECK(walk.data == full.data);
  // Folded: the rows of the last reduced axis past its last whole fold (for every index
  // of the other reduced axes) are the answers kernel's, tail_position's in order.
  auto walked = [&](std::int64_t t) { return v.fold == 1 || t % v.rows < v.rows / v.fold * v.fold; };
  const std::int64_t tails = v.tail_rows() > 0 ? full.reduce / v.rows * v.tail_rows() : 0;
  CHECK(walk.reduce * v.per_output() == full.reduce - tails);
  for (std::int64_t m = 0; m < tails; ++m) {
    CHECK(!walked(v.tail_position(m)));
    CHECK((m == 0 || v.tail_position(m) > v.tail_position(m - 1)));
  }
  for (std::int64_t o = 0; o < full.outputs; ++o) {
    std::vector<int> seen(static_cast<std::size_t>(full.reduce), 0);
    for (std::int64_t k = 0; k < v.per_output(); ++k) {
      const std::int64_t col = v.column(o, k);
      REQUIRE(col >= 0);
      REQUIRE(col < walk.outputs);
      for (std::int64_t r = 0; r < walk.reduce; ++r) {
        const std::int64_t t = v.position(r, col);
        REQUIRE(t >= 0);
        REQUIRE(t < full.reduce);
        CHECK(walked(t));
        ++seen[static_cast<std::size_t>(t)];
        const std::int64_t off = full.kept.offset_of(o) + full.red.offset_of(t);
        CHECK(walk.kept.offset_of(col) + walk.red.offset_of(r) == off);
        CHECK(plan_offset(p, full.output_of(o), full.position_of(t)) == shift + off);
      }
    }
    for (std::int64_t t = 0; t < full.reduce; ++t) CHECK(seen[static_cast<std::size_t>(t)] == (walked(t) ? 1 : 0));
  }
}

// The launch carries only the walk's `virt`: the kernels' layouts are made again from it.
void check_made_again(const layout& l, const layout& full, const layout& walk) {
  layout full_again, walk_again;
  REQUIRE(argx::detail::gpu::virtual_layouts(l, walk.virt, full_again, walk_again));
  CHECK(describe(full_again) == describe(full));
  CHECK(describe(walk_again) == describe(walk));
}

void check_virtual_walks(const argx::detail::plan& p, const layout& l, std::int64_t shift) {
  layout full, walk;
  if (argx::detail::gpu::windowed_layouts(l, full, walk)) {
    CHECK(full.reduce == l.reduce);
    CHECK(walk.virt.window >= 2);
    check_virtual(p, full, walk, shift);
    check_made_again(l, full, walk);
  }
  for (std::int64_t fold : {2, 3, 7}) {
    if (!argx::detail::gpu::folded_layouts(l, fold, full, walk)) continue;
    CHECK(full.reduce == l.reduce);
    check_virtual(p, full, walk, shift);
    check_made_again(l, full, walk);
  }
}

// The outputs taken in memory order (a thread an output's walk): the same slices, each
// with the same output index, in an order whose slice offsets fall with the axes' strides.
void check_memory_order(const layout& l) {
  const layout m = argx::detail::gpu::with_kept_in_memory_order(l);
  INFO("memory order: ", argx::detail::gpu::describe(m));
  CHECK(argx::detail::gpu::kept_in_memory_order(m));
  REQUIRE(m.outputs == l.outputs);
  CHECK(m.reduce == l.reduce);
  CHECK(m.data == l.data);
  std::multiset<std::pair<std::int64_t, std::int64_t>> before, after;
  for (std::int64_t o = 0; o < l.outputs; ++o) {
    before.insert({l.slice_offset(o), l.output_of(o)});
    after.insert({m.slice_offset(o), m.output_of(o)});
  }
  CHECK(before == after);
  if (argx::detail::gpu::kept_in_memory_order(l)) CHECK(describe(m) == describe(l));
}

void check_layout(const argx::detail::plan& p, const std::string& what) {
  INFO(what);
  const layout l = make_layout(p);
  INFO("layout: ", argx::detail::gpu::describe(l));
  const std::int64_t elem = static_cast<std::int64_t>(argx::size_of(p.type));
  const std::int64_t shift = (static_cast<const char*>(l.data) - static_cast<const char*>(p.data)) / elem;
  REQUIRE(l.reduce >= 1);
  REQUIRE(l.outputs * l.reps.count() == p.outputs);
  if (l.vec == vector_axis::run) CHECK((l.run_axis().stride == 1 || l.run_axis().stride == -1));
  if (l.vec == vector_axis::column) CHECK(l.column_axis().stride == 1);
  const bool flipped = l.ties_last != p.ties_last;
  CHECK(l.view_ties_last == p.ties_last);
  if (!l.ordered) CHECK(l.vec == vector_axis::run);
  std::set<std::int64_t> seen_outputs;
  for (std::int64_t o = 0; o < l.outputs; ++o) {
    const std::int64_t kept_off = l.kept.offset_of(o);
    std::vector<std::int64_t> outs;
    for (std::int64_t r = 0; r < l.reps.count(); ++r) {
      std::int64_t ignored, w;
      l.reps.locate(r, ignored, w);
      outs.push_back(l.output_of(o) + w);
    }
    for (std::int64_t ro : outs) {
      REQUIRE(ro >= 0);
      REQUIRE(ro < p.outputs);
      CHECK(seen_outputs.insert(ro).second);
    }
    // Every view position of this output, by the element it reads.
    std::map<std::int64_t, std::vector<std::int64_t>> positions_of_offset;
    for (std::int64_t pos = 0; pos < p.reduce_size; ++pos)
      positions_of_offset[plan_offset(p, outs[0], pos)].push_back(pos);
    std::int64_t previous = -1;
    for (std::int64_t t = 0; t < l.reduce; ++t) {
      const std::int64_t off = shift + kept_off + l.red.offset_of(t), pos = l.position_of(t);
      INFO("o=", o, " t=", t, " pos=", pos);
      REQUIRE(pos >= 0);
      REQUIRE(pos < p.reduce_size);
      for (std::int64_t ro : outs) CHECK(plan_offset(p, ro, pos) == off);
      // Positions rise with t (fall, when the layout walks them backwards with the tie
      // rule flipped); a repeated element reports the copy its tie rule picks.
      if (t > 0 && l.ordered) CHECK((flipped ? pos < previous : pos > previous));
      CHECK(l.offset_of_position(pos) == l.red.offset_of(t));
      // Where run t / e starts (e the last axis' extent), as the run kernels compute it.
      const std::int64_t e = l.red.at[l.red.n - 1].extent;
      if (t % e == 0) CHECK(l.red.outer_offset_of(t / e) == l.red.offset_of(t));
      previous = pos;
      const auto& copies = positions_of_offset[off];
      CHECK(pos == (p.ties_last ? copies.back() : copies.front()));
    }
  }
  CHECK(static_cast<std::int64_t>(seen_outputs.size()) == p.outputs);
  check_virtual_walks(p, l, shift);
  check_memory_order(l);
}

}  // namespace

TEST_CASE("layout: random views and dims reach the same elements, positions and outputs as the plan") {
  rng r(4242);
  int runs = 0, columns = 0, none = 0, windowed = 0, folded = 0, folded_several = 0;
  for (int i = 0; i < 600; ++i) {
    const int rank = 1 + static_cast<int>(r.below(4));
    const host_tensor base = random_tensor(r, argx::dtype::f32, random_extents(r, rank, 300));
    std::string how;
    const host_tensor x = random_view(r, base, &how);
    argx::spec s = random_spec(r, x.rank());
    argx::detail::plan p;
    try {
      p = argx::detail::make_plan(x.view, r.chance(0.5) ? argx::op::argmin : argx::op::argmax, s);
    } catch (const argx::error&) {
      continue;  // invalid dims or empty reductions: no plan to lower
    }
    if (p.kind == argx::detail::shape_class::empty) continue;
    check_layout(p, describe(x) + " " + how + " " + describe(argx::op::argmax, s));
    const layout l = make_layout(p);
    runs += l.vec == vector_axis::run;
    columns += l.vec == vector_axis::column;
    none += l.vec == vector_axis::none;
    layout full, walk;
    windowed += argx::detail::gpu::windowed_layouts(l, full, walk);
    const bool folds = argx::detail::gpu::folded_layouts(l, 2, full, walk);
    folded += folds;
    folded_several += folds && l.red.n > 1;  // a tail of rows for every index of the other reduced axes
  }
  MESSAGE("vector axis: run ", runs, ", column ", columns, ", none ", none, "; windowed walks offered ", windowed,
          ", folded ", folded, " (", folded_several, " of several reduced axes)");
  CHECK(windowed > 10);
  CHECK(folded > 10);
  CHECK(folded_several > 3);
  CHECK(runs > 50);
  CHECK(columns > 50);
  CHECK(none > 10);
}

TEST_CASE("layout: the rewrites it promises") {
  const float data[4 * 6] = {};
  SUBCASE("a broadcast reduced dim is dropped; ties = last picks its last copy") {
    auto v = argx::make_view(data, {5, 4}, {0, 1});
    argx::detail::plan p = argx::detail::make_plan(v, argx::op::argmax, {.ties = argx::tie_break::last});
    const layout l = make_layout(p);
    CHECK(l.red.n == 1);
    CHECK(l.reduce == 4);
    CHECK(l.position_of(0) == 16);
    check_layout(p, "broadcast reduced");
  }
  SUBCASE("a broadcast kept dim becomes replicas") {
    auto v = argx::make_view(data, {3, 6}, {0, 1});
    argx::detail::plan p = argx::detail::make_plan(v, argx::op::argmax, {.dims = {1}});
    const layout l = make_layout(p);
    CHECK(l.outputs == 1);
    CHECK(l.reps.count() == 3);
    check_layout(p, "broadcast kept");
  }
  SUBCASE("every reduced dim backwards: walked forwards with the tie rule flipped") {
    auto v = argx::make_view(data, {4, 6}).flipped(0).flipped(1);
    argx::detail::plan p = argx::detail::make_plan(v, argx::op::argmax, {});
    const layout l = make_layout(p);
    CHECK(l.vec == vector_axis::run);
    CHECK(l.run_dir == 1);
    CHECK(l.ties_last);
    check_layout(p, "all reversed");
  }
  SUBCASE("a long slice tiling one block of memory in another order is walked in memory order") {
    // Slices of at least tune::unordered_min_bytes: 56100 and 67840 floats.
    std::vector<float> big(67840);
    const argx::shape e4{3, 17, 11, 100};
    auto reversed = argx::make_view(big.data(), e4).transposed(0, 3).transposed(1, 2);  // strides (1, 100, 1700, 18700)
    argx::detail::plan p = argx::detail::make_plan(reversed, argx::op::argmax, {});
    layout l = make_layout(p);
    CHECK(l.dense);
    CHECK(!l.ordered);
    CHECK(l.run_length() == l.reduce);
    check_layout(p, "flat of reversed dims");
    const argx::shape e3{20, 64, 53};
    auto ends = argx::make_view(big.data(), e3).flipped(0).flipped(2);  // runs of 53, two dims backwards
    p = argx::detail::make_plan(ends, argx::op::argmin, {.ties = argx::tie_break::last});
    l = make_layout(p);
    CHECK(l.dense);
    check_layout(p, "flat with its ends reversed");
    // Runs of 4 KiB or more stay runs in the view's order.
    const argx::shape e2{16, 1060};
    p = argx::detail::make_plan(argx::make_view(big.data(), e2).flipped(0), argx::op::argmax, {});
    CHECK(!make_layout(p).dense);
    check_layout(p, "long runs, outer dim reversed");
  }
  SUBCASE("a contiguous kept dim that is not last becomes the column axis") {
    auto v = argx::make_view(data, {4, 6}).transposed(0, 1);  // (6, 4) strides (1, 6)
    argx::detail::plan p = argx::detail::make_plan(v, argx::op::argmax, {.dims = {1}});
    const layout l = make_layout(p);
    CHECK(l.vec == vector_axis::column);
    check_layout(p, "transposed rows");
  }
  SUBCASE("a reversed contiguous kept dim is walked forwards") {
    auto v = argx::make_view(data, {4, 6}).flipped(1);
    argx::detail::plan p = argx::detail::make_plan(v, argx::op::argmin, {.dims = {0}});
    const layout l = make_layout(p);
    CHECK(l.vec == vector_axis::column);
    CHECK(!l.identity_outputs);
    check_layout(p, "reversed columns");
  }
}

TEST_CASE("layout: 32-bit division by an extent is exact for every dividend below 2^31") {
  using argx::detail::gpu::divisor32;
  rng r(31);
  std::vector<std::int64_t> ds = {1, 2, 3, 5, 7, 641, 1 << 16, (1 << 16) + 1, (1 << 30) - 1, 1 << 30, (1 << 30) + 1,
                                  0x7ffffffe, 0x7fffffff};
  for (int i = 0; i < 2000; ++i) ds.push_back(1 + static_cast<std::int64_t>(r.next() % 0x7fffffff));
  for (int i = 0; i < 200; ++i) ds.push_back(1 + static_cast<std::int64_t>(r.next() % 5000));
  for (std::int64_t d : ds) {
    const divisor32 v = divisor32::of(d);
    std::vector<std::uint32_t> ns = {0, 1, static_cast<std::uint32_t>(d - 1), static_cast<std::uint32_t>(d), 0x7fffffff,
                                     0x7ffffffe};
    if (d < 0x7fffffff) ns.push_back(static_cast<std::uint32_t>(d + 1));
    for (std::int64_t m = d; m < 0x7fffffff && ns.size() < 40; m *= 3) ns.push_back(static_cast<std::uint32_t>(m - 1));
    for (int i = 0; i < 50; ++i) ns.push_back(static_cast<std::uint32_t>(r.next() % 0x80000000u));
    for (std::uint32_t n : ns) {
      INFO("n=", n, " d=", d);
      REQUIRE(v.div(n) == n / d);
    }
  }
}
