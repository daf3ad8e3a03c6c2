// Bad calls of a distributed reduction: whatever rank holds the mistake, every rank raises
// the same argx::error (code and message), nothing is written, and no rank hangs (main's
// watchdog and meson's timeout bound every run). A good call afterwards still works.
#include <doctest/doctest.h>

#include "element_bits.hpp"
#include "sharded.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

host_tensor seeded_tensor(std::uint64_t seed, dtype t, const argx::shape& extents) {
  rng r(seed);
  return random_tensor(r, t, extents);
}

int last_rank() { return the_world().size - 1; }
bool is_last() { return the_world().rank == last_rank(); }

// A (3, 12) float32 tensor split along dim 1 into even ranges, reduced along dim 1.
struct fixture {
  host_tensor whole = seeded_tensor(3, dtype::f32, {3, 12});
  std::vector<range> ranges = even_ranges(12);
  argx::spec spec{.dims = {1}};

  static std::vector<range> even_ranges(std::int64_t n) {
    std::vector<range> out;
    for (int k = 0; k < the_world().size; ++k) {
      const auto [b, e] = argx::even_split(n, the_world().size, k);
      out.push_back({b, e});
    }
    return out;
  }
  sharded_call call() const { return part_of(argx::op::argmax, whole, 1, ranges, spec); }
  /// call(), with `change` made to it on the last rank only.
  template <class Change>
  sharded_call call_changed_on_last(const Change& change) const {
    sharded_call c = call();
    if (is_last()) change(c);
    return c;
  }
};

// Runs `c` on every rank and checks every rank raised `code` with `text` in its message.
void expect_collective_error(const sharded_call& c, argx::errc code, const std::string& text) {
  const std::string got = collective_error([&] { (void)run_sharded(c); });
  INFO(engine_name(), ": ", got);
  CHECK(got.rfind(std::string(argx::to_string(code)) + ": ", 0) == 0);
  CHECK(got.find(text) != std::string::npos);
}

}  // namespace

TEST_CASE("distributed errors: a mistake on one rank raises the same error on every rank") {
  const fixture f;
  SUBCASE("a dim out of range on the last rank") {
    expect_collective_error(f.call_changed_on_last([](sharded_call& c) { c.spec.dims = {5}; }), argx::errc::bad_dim,
                            "rank " + std::to_string(last_rank()) + ": dim 5 is out of range");
  }
  SUBCASE("a split dim out of range on the last rank") {
    expect_collective_error(f.call_changed_on_last([](sharded_call& c) { c.dim = 2; }), argx::errc::bad_dim,
                            "split dim 2 is out of range");
  }
  SUBCASE("the shard's extents do not match the global extents") {
    expect_collective_error(f.call_changed_on_last([](sharded_call& c) { c.global = {4, 12}; }), argx::errc::bad_shape,
                            "rank " + std::to_string(last_rank()) + ": the shard has extents");
  }
  SUBCASE("a range outside the split dim") {
    expect_collective_error(f.call_changed_on_last([](sharded_call& c) { c.end = 13; }), argx::errc::bad_shape,
                            "lies outside dim 1 of extent 12");
  }
  SUBCASE("an index output of the wrong shape on the last rank") {
    expect_collective_error(f.call_changed_on_last([](sharded_call& c) { c.output_extents = argx::shape{4}; }),
                            argx::errc::bad_output, "index output has shape (4,)");
  }
  SUBCASE("outputs in memory the engine cannot write, on rank 0") {
    sharded_call c = f.call();
    if (the_world().rank == 0) c.misplaced_outputs = true;
    expect_collective_error(c, argx::errc::wrong_memory_space, "rank 0: ");
  }
  SUBCASE("an empty reduction (every rank)") {
    const host_tensor empty = seeded_tensor(1, dtype::f32, {3, 0});
    const sharded_call c = part_of(argx::op::argmax, empty, 0, fixture::even_ranges(3), argx::spec{.dims = {1}});
    expect_collective_error(c, argx::errc::empty_reduction, "rank 0: attempt to get argmax of an empty sequence");
  }
  SUBCASE("int32 indices for a reduction longer than 2^31") {
    const host_tensor one = make_filled(dtype::f32, encode(dtype::f32, 1.0), {1});
    const host_tensor huge = one.broadcast(0, (std::int64_t(1) << 31) + 7);
    const sharded_call c = part_of(argx::op::argmax, huge, 0, fixture::even_ranges((std::int64_t(1) << 31) + 7),
                                   argx::spec{.index = argx::index_type::int32});
    expect_collective_error(c, argx::errc::index_overflow, "rank 0: index_type int32 cannot hold");
  }
}

TEST_CASE("distributed errors: ranges that do not tile the split dim") {
  const fixture f;
  SUBCASE("a gap at the end") {
    std::vector<range> ranges = fixture::even_ranges(11);  // nobody holds index 11
    const sharded_call c = part_of(argx::op::argmax, f.whole, 1, ranges, f.spec);
    expect_collective_error(c, argx::errc::bad_shape, "no rank holds [11, 12) of dim 1 (extent 12)");
  }
  SUBCASE("a gap at the start") {
    std::vector<range> ranges = fixture::even_ranges(12);
    for (auto& r : ranges) r.begin = std::max<std::int64_t>(r.begin, 2), r.end = std::max(r.end, r.begin);
    const sharded_call c = part_of(argx::op::argmax, f.whole, 1, ranges, f.spec);
    expect_collective_error(c, argx::errc::bad_shape, "no rank holds [0, 2) of dim 1 (extent 12)");
  }
  if (the_world().size > 1) {
    SUBCASE("two ranks hold the same columns") {
      std::vector<range> ranges = fixture::even_ranges(12);
      ranges[1] = ranges[0];
      ranges[last_rank()].end = 12;
      const sharded_call c = part_of(argx::op::argmax, f.whole, 1, ranges, f.spec);
      expect_collective_error(c, argx::errc::bad_shape, "overlap: rank 0 has [0, ");
    }
  }
}

TEST_CASE("distributed errors: ranks that disagree") {
  if (the_world().size < 2) return;  // one rank always agrees with itself
  const fixture f;
  const std::string last = std::to_string(last_rank());
  SUBCASE("on the spec") {
    expect_collective_error(
        f.call_changed_on_last([](sharded_call& c) { c.spec.nan = argx::nan_policy::ignore; }),
        argx::errc::bad_argument,
        "ranks disagree on the spec: rank 0 has dims=(1) nan=propagate ties=first index=int64, rank " + last +
            " has dims=(1) nan=ignore");
  }
  SUBCASE("on the op") {
    expect_collective_error(f.call_changed_on_last([](sharded_call& c) { c.op = argx::op::argmin; }),
                            argx::errc::bad_argument,
                            "ranks disagree on the op: rank 0 has argmax, rank " + last + " has argmin");
  }
  SUBCASE("on the global extents") {
    const host_tensor longer = seeded_tensor(4, dtype::f32, {4, 12});
    const sharded_call c = part_of(argx::op::argmax, is_last() ? longer : f.whole, 1, f.ranges, f.spec);
    expect_collective_error(c, argx::errc::bad_shape,
                            "ranks disagree on the global extents: rank 0 has (3,12), rank " + last + " has (4,12)");
  }
  SUBCASE("on the dtype") {
    const host_tensor wide = seeded_tensor(4, dtype::f64, {3, 12});
    const sharded_call c = part_of(argx::op::argmax, is_last() ? wide : f.whole, 1, f.ranges, f.spec);
    expect_collective_error(c, argx::errc::bad_argument,
                            "ranks disagree on the dtype: rank 0 has float32, rank " + last + " has float64");
  }
  SUBCASE("on the split dim") {
    sharded_call c = f.call();
    if (is_last()) {  // a consistent shard of its own, split along the other dim
      c = part_of(argx::op::argmax, f.whole, 0, std::vector<range>(the_world().size, range{0, 3}), f.spec);
    }
    expect_collective_error(c, argx::errc::bad_argument,
                            "ranks disagree on the split dim: rank 0 has 1, rank " + last + " has 0");
  }
  SUBCASE("on whether values are asked for") {
    expect_collective_error(f.call_changed_on_last([](sharded_call& c) { c.values = false; }), argx::errc::bad_output,
                            "ranks disagree on the values output");
  }
}

TEST_CASE("distributed errors: a good call after the bad ones") {
  const fixture f;
  check_sharded(argx::op::argmax, f.whole, 1, f.ranges, f.spec);
  check_sharded(argx::op::argmin, f.whole, 0, fixture::even_ranges(3), f.spec);
}
