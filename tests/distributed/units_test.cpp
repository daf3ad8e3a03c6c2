// The local pieces of the distributed reductions, without MPI or NCCL: the position map,
// the position words (they must order exactly as argx::beats), packing, the shard plan,
// argx::output_shape of a shard, and the agreement verdicts on made-up reports.
#include <doctest/doctest.h>

#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

#include "../../distributed/common/agreement.hpp"
#include "../../distributed/common/position.hpp"
#include "../../distributed/common/shard_plan.hpp"
#include "error_of.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using namespace argx::distributed;

TEST_CASE("units: a local position maps to the whole tensor's and back to its owner") {
  // Reduced dims (4, 10, 3) of the whole tensor, split along the 10 at [6, 9).
  const position_map m{3, 3, 10, 6};
  for (std::int64_t outer = 0; outer < 4; ++outer)
    for (std::int64_t c = 0; c < 3; ++c)
      for (std::int64_t i = 0; i < 3; ++i) {
        const std::int64_t local = (outer * 3 + c) * 3 + i, global = (outer * 10 + 6 + c) * 3 + i;
        CHECK(m.to_global(local) == global);
        CHECK(m.owns(global));
      }
  CHECK_FALSE(m.owns(5 * 3));
  CHECK_FALSE(m.owns(9 * 3 + 2));
  CHECK(m.owns(30 + 6 * 3));
  CHECK(winner_position(-1, 12, false) == 0);
  CHECK(winner_position(-1, 12, true) == 11);
  CHECK(winner_position(4, 12, true) == 4);
}

TEST_CASE("units: position words order as argx::beats, and 0 is below every position") {
  rng r(9);
  const std::int64_t edges32[] = {0, 1, 2, 0x7fffffff, 0x80000000ll, 0xfffffffdll, 0xfffffffell};
  const std::int64_t edges64[] = {0, 1, 0xffffffffll, 0x100000000ll, 0x7ffffffffffffffell, 0x7fffffffffffffffll};
  for (bool last : {false, true}) {
    auto check_pair = [&](auto zero, std::int64_t a, std::int64_t b) {
      using W = decltype(zero);
      const W wa = position_word<W>(a, last), wb = position_word<W>(b, last);
      CHECK(wa > W(0));
      CHECK(word_position(wa, last) == a);
      if (a != b) CHECK((wa > wb) == argx::beats<std::uint32_t>(7, a, 7, b, last));
    };
    for (auto a : edges32)
      for (auto b : edges32) check_pair(std::uint32_t(0), a, b);
    for (auto a : edges64)
      for (auto b : edges64) check_pair(std::uint64_t(0), a, b);
    for (int i = 0; i < 2000; ++i) {
      const auto a = static_cast<std::int64_t>(r.below(max_packed_positions)),
                 b = static_cast<std::int64_t>(r.below(max_packed_positions));
      check_pair(std::uint32_t(0), a, b);
      const std::uint32_t ka = static_cast<std::uint32_t>(r.below(3)), kb = static_cast<std::uint32_t>(r.below(3));
      if (a != b) CHECK((pack(ka, a, last) > pack(kb, b, last)) == argx::beats(ka, a, kb, b, last));
      const auto back = unpack(pack(ka, a, last), last);
      CHECK(back.key == ka);
      CHECK(back.pos == a);
    }
  }
}

TEST_CASE("units: shard plans and output shapes") {
  std::vector<float> data(2 * 3 * 5);
  const argx::tensor_view local = argx::make_view(data.data(), {2, 3, 5});
  // Split along dim 1 at [4, 7) of 9.
  const argx::shard x = argx::make_shard(local, {2, 9, 5}, 1, 4);
  CHECK(x.end == 7);
  CHECK(to_string(argx::output_shape(x, {.dims = {1}})) == "(2,5)");
  CHECK(to_string(argx::output_shape(x, {.dims = {0}})) == "(3,5)");  // kept: this rank's slab
  CHECK(to_string(argx::output_shape(x, {.dims = {0}, .keepdim = true})) == "(1,3,5)");
  CHECK(to_string(argx::output_shape(x, {.dims = {2, 0}})) == "(3)");
  CHECK(to_string(argx::output_shape(x)) == "()");

  const shard_plan sp = make_shard_plan(argx::op::argmin, x, {.dims = {2, 1}, .ties = argx::tie_break::last});
  CHECK(sp.split == 1);
  CHECK(sp.split_reduced);
  CHECK(sp.reduced_mask == 6u);
  CHECK(sp.local_reduce_size == 15);
  CHECK(sp.positions.inner == 5);
  CHECK(sp.positions.to_global(14) == (4 + 2) * 5 + 4);
  CHECK(sp.keys.argmin);
  CHECK(sp.ties_last);
  CHECK(sp.outputs.outputs == 2);

  const argx::shard empty = argx::make_shard(argx::make_view(data.data(), {2, 0, 5}), {2, 9, 5}, -2, 9);
  const shard_plan ep = make_shard_plan(argx::op::argmax, empty, {.dims = {1}});
  CHECK_FALSE(ep.reduces_locally());
  CHECK(make_shard_plan(argx::op::argmax, empty, {.dims = {0}}).reduces_locally());

  CHECK(error_of([&] { (void)make_shard_plan(argx::op::argmax, x, {.dims = {3}}); }) == "bad_dim");
  // The error of planning `local` as the part of a tensor of extents `global` split along
  // `dim` from `begin`.
  auto plan_error = [&](const argx::shape& global, int dim, std::int64_t begin) {
    return error_of([&] { (void)make_shard_plan(argx::op::argmax, argx::make_shard(local, global, dim, begin), {}); });
  };
  CHECK(plan_error({2, 9}, 1, 4) == "bad_shape");
  CHECK(plan_error({2, 9, 5}, 1, 7) == "bad_shape");
  CHECK(plan_error({2, 9, 6}, 1, 4) == "bad_shape");
  CHECK(plan_error({2, 9, 5}, 3, 4) == "bad_dim");
  CHECK(plan_error({2, 9, 0}, 1, 4) == "empty_reduction");
  const float scalar = 1;  // a rank-0 tensor has no dim to split
  CHECK(error_of([&] { (void)argx::output_shape(argx::make_shard(argx::make_view(&scalar, {}), {}, 0, 0)); }) ==
        "bad_dim");
  CHECK(error_of([&] { (void)argx::even_split(10, 0, 0); }) == "bad_argument");
  CHECK(argx::even_split(10, 4, 0) == std::pair<std::int64_t, std::int64_t>{0, 3});
  CHECK(argx::even_split(10, 4, 3) == std::pair<std::int64_t, std::int64_t>{8, 10});
}

namespace {

std::vector<rank_report> reports_of(const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges,
                                    const argx::spec& s = {.dims = {1}}) {
  std::vector<float> data(100);
  std::vector<rank_report> out;
  for (auto [b, e] : ranges)
    out.push_back(make_report(argx::op::argmax,
                              argx::make_shard(argx::make_view(data.data(), {2, e - b}), {2, 10}, 1, b), s, true,
                              rank_status{}));
  return out;
}

std::string verdict(const std::vector<rank_report>& all) {
  try {
    agree(all);
  } catch (const argx::error& e) {
    return std::string(argx::to_string(e.code())) + ": " + e.what();
  }
  return "agreed";
}

}  // namespace

TEST_CASE("units: the agreement verdicts") {
  CHECK(verdict(reports_of({{0, 4}, {4, 10}})) == "agreed");
  CHECK(verdict(reports_of({{4, 10}, {10, 10}, {0, 4}, {3, 3}})) == "agreed");  // any order, empty ranges anywhere
  CHECK(verdict(reports_of({{0, 4}, {5, 10}})) == "bad_shape: argx: no rank holds [4, 5) of dim 1 (extent 10)");
  CHECK(verdict(reports_of({{0, 4}, {3, 10}})) ==
        "bad_shape: argx: the ranks' ranges of dim 1 (extent 10) overlap: rank 0 has [0, 4) and rank 1 has [3, 10)");
  CHECK(verdict(reports_of({{0, 4}, {4, 9}})) == "bad_shape: argx: no rank holds [9, 10) of dim 1 (extent 10)");

  auto all = reports_of({{0, 4}, {4, 10}, {10, 10}});
  all[2].status = status_of(std::make_exception_ptr(argx::error(argx::errc::bad_dim, "dim 7 is out of range")), "step");
  all[1].status = status_of(std::make_exception_ptr(std::bad_alloc()), "step");
  CHECK(verdict(all) == "out_of_memory: argx: rank 1: step: host memory is exhausted");  // the lowest failing rank
  all[1].status = rank_status{};
  CHECK(verdict(all) == "bad_dim: argx: rank 2: dim 7 is out of range");
  all[1].status = status_of(std::make_exception_ptr(std::logic_error("boom")), "step");  // not argx's: a bug
  CHECK(verdict(all) == "internal: argx: rank 1: step: unexpected boom");
  all[1].status = status_of(std::make_exception_ptr(42), "step");
  CHECK(verdict(all) == "internal: argx: rank 1: step: an unexpected exception of unknown type");
  all[1].status = rank_status{};
  all[2].status =
      status_of(std::make_exception_ptr(argx::error(argx::errc::bad_dim, std::string(1000, 'x'))), "step");
  CHECK(std::strlen(all[2].status.message) == sizeof all[2].status.message - 1);  // truncated, terminated

  all = reports_of({{0, 4}, {4, 10}});
  all[1].keepdim = 1;
  all[1].abs = 1;
  CHECK(verdict(all) ==
        "bad_argument: argx: ranks disagree on the spec: rank 0 has dims=(1) nan=propagate ties=first "
        "index=int64, rank 1 has dims=(1) keepdim nan=propagate ties=first abs index=int64");
  all = reports_of({{0, 4}, {4, 10}});
  all[1].extents[0] = 3;
  CHECK(verdict(all) == "bad_shape: argx: ranks disagree on the global extents: rank 0 has (2,10), rank 1 has (3,10)");
  all = reports_of({{0, 4}, {4, 10}});
  all[1].layout ^= 1;
  CHECK(verdict(all).rfind("bad_argument: argx: rank 1 runs a different argx build", 0) == 0);
  all = reports_of({{0, 4}, {4, 10}}, {});
  CHECK(verdict(all) == "agreed");
  all[0].values = 0;
  CHECK(verdict(all) ==
        "bad_output: argx: ranks disagree on the values output: rank 0 has no values, rank 1 has values");
}
