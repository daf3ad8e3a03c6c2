// Distributed reductions against argx::seq on the whole tensor, bit for bit, on every rank:
// random shapes, views, specs and cuts for every dtype; ties and NaN exactly at the shard
// boundaries; all-NaN slices spread over ranks; empty shards; the split dim kept.
// Collective: every rank runs every case, in the same order, from the same seed.
#include <doctest/doctest.h>

#include "element_bits.hpp"
#include "sharded.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

// Like check_sharded, but when seq refuses the whole tensor (an empty reduction) every rank
// must raise the same error code.
void check_or_same_error(argx::op o, const host_tensor& whole, int dim, const std::vector<range>& ranges,
                         const argx::spec& s, bool values) {
  try {
    (void)argx::reduce(argx::seq, o, whole.view, s);
  } catch (const argx::error& e) {
    const std::string got = collective_error([&] { (void)run_sharded(part_of(o, whole, dim, ranges, s, values)); });
    CHECK(got.rfind(std::string(argx::to_string(e.code())) + ":", 0) == 0);
    return;
  }
  check_sharded(o, whole, dim, ranges, s, values);
}

// Every combination of op, NaN policy, ties and abs, with and without values.
template <class F>
void for_each_rule(F&& f) {
  for (argx::op o : {argx::op::argmax, argx::op::argmin})
    for (auto nan : {argx::nan_policy::propagate, argx::nan_policy::ignore})
      for (auto ties : {argx::tie_break::first, argx::tie_break::last})
        for (bool abs : {false, true}) f(o, argx::spec{.nan = nan, .ties = ties, .abs = abs});
}

int world_size() { return the_world().size; }

}  // namespace

TEST_CASE("distributed: random shapes, views, specs and cuts, every dtype") {
  rng r(20260101);
  for (dtype t : all_dtypes()) {
    for (int k = 0; k < 30; ++k) {
      const int rank = 1 + static_cast<int>(r.below(4));
      host_tensor whole = random_tensor(r, t, random_extents(r, rank, 2500, 0.04));
      if (r.chance(0.4)) whole = random_view(r, whole);
      argx::spec s = random_spec(r, rank);
      int dim = static_cast<int>(r.below(static_cast<std::uint64_t>(rank)));
      if (k % 3 == 0 && !s.dims.empty()) {  // make sure the split dim is reduced in many cases
        bool named = false;
        for (int d : s.dims) named |= d == dim || d == dim - rank;
        if (!named) s.dims.clear();
      }
      if (r.chance(0.3)) dim -= rank;
      const auto ranges = random_ranges(r, whole.view.extents[dim < 0 ? dim + rank : dim], world_size());
      check_or_same_error(r.chance(0.5) ? argx::op::argmax : argx::op::argmin, whole, dim, ranges, s, r.chance(0.8));
    }
  }
}

TEST_CASE("distributed: ties and NaN exactly at shard boundaries") {
  const int p = world_size();
  for (dtype t : all_dtypes()) {
    // Rows of 5 columns per rank, cut every 5 columns: the boundary pairs (5k-1, 5k) hold
    // equal peaks (row 0), two NaNs of different payloads (row 1), a NaN right after a
    // boundary and +inf / the maximum elsewhere (row 2), the minimum on both sides (row 3).
    const std::int64_t n = 5 * p;
    host_tensor whole = make_filled(t, argx::is_floating(t) ? encode(t, 1.0) : encode(t, 1), {4, n});
    const std::uint64_t hi = argx::is_floating(t) ? inf_bits(t) : int_max_bits(t);
    const std::uint64_t lo = argx::is_floating(t) ? inf_bits(t, true) : int_min_bits(t);
    for (int k = 1; k < p; ++k) {
      const std::int64_t c = 5 * k;
      set_flat(whole, 0 * n + c - 1, hi);
      set_flat(whole, 0 * n + c, hi);
      set_flat(whole, 3 * n + c - 1, lo);
      set_flat(whole, 3 * n + c, lo);
      if (argx::is_floating(t)) {
        set_flat(whole, 1 * n + c - 1, nan_bits(t, true, 5));
        set_flat(whole, 1 * n + c, nan_bits(t, false, 9));
        set_flat(whole, 2 * n + c, nan_bits(t, k % 2 == 0, 3, false));
      }
    }
    set_flat(whole, 2 * n + n - 1, hi);
    std::vector<std::int64_t> cuts;
    for (int k = 1; k < p; ++k) cuts.push_back(5 * k);
    const auto ranges = ranges_at(n, cuts);
    for_each_rule([&](argx::op o, argx::spec s) {
      s.dims = {1};
      check_sharded(o, whole, 1, ranges, s);
      s.dims = {};  // flat index over both dims, still split along dim 1
      check_sharded(o, whole, 1, ranges, s);
    });
    // The same tensor split along the rows (the kept dim) and cut after row 1.
    std::vector<range> rows(static_cast<std::size_t>(p), range{4, 4});
    rows[0] = {0, 2};
    if (p > 1)
      rows[p - 1] = {2, 4};
    else
      rows[0] = {0, 4};
    check_sharded(argx::op::argmax, whole, 0, rows, argx::spec{.dims = {1}});
    check_sharded(argx::op::argmin, whole, 0, rows,
                  argx::spec{.dims = {1}, .keepdim = true, .ties = argx::tie_break::last});
  }
}

TEST_CASE("distributed: all-NaN slices spread over ranks, nan=ignore") {
  const int p = world_size();
  rng r(77);
  for (dtype t : float_dtypes()) {
    // Rows 0 and 2: NaN everywhere, of both signs and many payloads. Row 1: NaN except one
    // number on the last rank. Row 3: NaN except -inf in the first rank's part.
    const std::int64_t n = 3 * p + 1;
    std::vector<std::uint64_t> bits;
    for (std::int64_t i = 0; i < 4 * n; ++i) bits.push_back(nan_bits(t, r.chance(0.5), r.next(), r.chance(0.7)));
    bits[static_cast<std::size_t>(1 * n + n - 1)] = encode(t, -2.0);
    bits[static_cast<std::size_t>(3 * n + 1)] = inf_bits(t, true);
    const host_tensor whole = make_tensor_bits(t, bits, {4, n});
    const auto ranges = random_ranges(r, n, p, false);
    for (auto ties : {argx::tie_break::first, argx::tie_break::last})
      for (argx::op o : {argx::op::argmax, argx::op::argmin}) {
        check_sharded(o, whole, 1, ranges, argx::spec{.dims = {1}, .nan = argx::nan_policy::ignore, .ties = ties});
        check_sharded(o, whole, 1, ranges, argx::spec{.dims = {1}, .nan = argx::nan_policy::propagate, .ties = ties});
        check_sharded(o, whole, 1, ranges,
                      argx::spec{.dims = {1},
                                 .keepdim = true,
                                 .nan = argx::nan_policy::ignore,
                                 .ties = ties,
                                 .index = argx::index_type::int32});
      }
  }
}

TEST_CASE("distributed: empty shards") {
  const int p = world_size();
  rng r(5);
  for (dtype t : {dtype::f32, dtype::bf16, dtype::i64, dtype::f64, dtype::boolean}) {
    const host_tensor whole = random_tensor(r, t, {3, 11, 4});
    for (int holder : {0, p - 1, p / 2}) {
      // One rank holds the whole split dim; every other range is empty (placed at 0 or n).
      for (int split : {0, 1, 2}) {
        const std::int64_t n = whole.view.extents[split];
        std::vector<range> ranges;
        for (int k = 0; k < p; ++k)
          ranges.push_back(k == holder ? range{0, n} : (k < holder ? range{0, 0} : range{n, n}));
        for_each_rule([&](argx::op o, argx::spec s) {
          if (s.abs) return;  // abs is covered elsewhere; keep this case quick
          s.dims = {1};
          check_sharded(o, whole, split, ranges, s);
          s.dims = {};
          s.index = argx::index_type::int32;
          check_sharded(o, whole, split, ranges, s);
          s.dims = {0, 2};
          s.keepdim = true;
          check_sharded(o, whole, split, ranges, s, false);
        });
      }
    }
  }
  // An empty output: a kept dim of extent 0, the split dim reduced.
  const host_tensor empty_rows = random_tensor(r, dtype::f32, {0, 6});
  check_sharded(argx::op::argmax, empty_rows, 1, random_ranges(r, 6, p), argx::spec{.dims = {1}});
  // ... and split along that kept dim of extent 0.
  check_sharded(argx::op::argmax, empty_rows, 0, random_ranges(r, 0, p), argx::spec{.dims = {1}});
}

TEST_CASE("distributed: several reduced dims with the split dim among them, views and keepdim") {
  const int p = world_size();
  rng r(11);
  for (dtype t : {dtype::f16, dtype::f32, dtype::i8, dtype::u32}) {
    const host_tensor base = random_tensor(r, t, {3, 9, 7, 2});
    for (const host_tensor& whole : {base, base.transposed(1, 2), base.flipped(2), base.sliced(1, 1, 9, 2)}) {
      for (int split : {1, 2, 3}) {
        const auto ranges = random_ranges(r, whole.view.extents[split], p);
        for (bool keepdim : {false, true})
          for (const argx::dim_list& dims :
               {argx::dim_list{1, 2, 3}, argx::dim_list{2, 1}, argx::dim_list{-1, 1}, argx::dim_list{0, 2}})
            check_sharded(r.chance(0.5) ? argx::op::argmax : argx::op::argmin, whole, split, ranges,
                          argx::spec{.dims = dims, .keepdim = keepdim, .nan = argx::nan_policy::ignore});
      }
    }
  }
}

TEST_CASE("distributed: positions beyond 32 bits (GPU engines only)") {
  if (!engine_on_gpu()) return;  // seq and the CPU backends would take minutes over 2^32 elements
  // A (2^31 + 3, 2) view of the two float32 elements {1, 5} (row stride 0): 5 at every odd
  // flat position, 1 at every even one, 2^32 + 6 positions in all.
  const host_tensor pair = make_tensor(dtype::f32, {1.0, 5.0}, {1, 2});
  const std::int64_t rows = (std::int64_t(1) << 31) + 3;
  const host_tensor whole = pair.broadcast(0, rows);
  rng r(32);
  const auto ranges = random_ranges(r, rows, world_size());
  for (argx::op o : {argx::op::argmax, argx::op::argmin})
    for (auto ties : {argx::tie_break::first, argx::tie_break::last}) {
      const bool max = o == argx::op::argmax, last = ties == argx::tie_break::last;
      // All dims: a flat index past 2^32 with ties = last (the two-step combine).
      sharded_outcome got = run_sharded(part_of(o, whole, 0, ranges, argx::spec{.ties = ties}));
      CHECK(got.indices == std::vector<std::int64_t>{(last ? 2 * rows - 2 : 0) + (max ? 1 : 0)});
      CHECK(got.value_bits == std::vector<std::uint64_t>{encode(dtype::f32, max ? 5.0 : 1.0)});
      // Along the rows: every element of a column ties; 2^31 + 3 positions (packed words).
      got = run_sharded(part_of(o, whole, 0, ranges, argx::spec{.dims = {0}, .ties = ties}));
      CHECK(got.indices == std::vector<std::int64_t>{last ? rows - 1 : 0, last ? rows - 1 : 0});
      CHECK(got.value_bits == std::vector<std::uint64_t>{encode(dtype::f32, 1.0), encode(dtype::f32, 5.0)});
    }
}
