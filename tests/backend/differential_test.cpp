// Property tests: the backend under test against seq, bit for bit (indices, values, and
// the error raised), on reproducible random cases. Every answer is also checked against
// the naive reference oracle, which is all the seq executable checks (a backend is never
// compared with itself).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "element_bits.hpp"
#include "harness.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

std::string first_difference(const outcome& want, const outcome& got, dtype t) {
  for (std::size_t i = 0; i < want.indices.size() && i < got.indices.size(); ++i) {
    if (want.indices[i] != got.indices[i])
      return "output " + std::to_string(i) + ": index " + std::to_string(got.indices[i]) + ", seq says " +
             std::to_string(want.indices[i]);
    if (i < got.value_bits.size() && want.value_bits[i] != got.value_bits[i])
      return "output " + std::to_string(i) + ": value " + hex_bits(t, got.value_bits[i]) + ", seq says " +
             hex_bits(t, want.value_bits[i]);
  }
  if (want.indices.size() != got.indices.size()) return "different output sizes";
  return {};
}

// One case: the same answer (or the same error) as seq, and the reference's answer.
void check_case(const host_tensor& x, argx::op o, const argx::spec& s, const run_options& opt, const std::string& label) {
  std::string how = label + ": " + describe(x) + "; " + describe(o, s);
  if (!opt.values) how += "; no values";
  if (opt.result_form) how += "; result form";
  if (opt.memory == placement::host) how += "; host memory";
  INFO(how);
  const bool against_seq = backend_under_test() != argx::backend::seq;
  outcome want, got;
  std::string want_error = "no error";
  if (against_seq) want_error = error_of([&] { want = reduce_on(argx::backend::seq, o, x, s); });
  const std::string got_error = error_of([&] { got = run(o, x, s, opt); });
  if (against_seq) {
    REQUIRE(got_error == want_error);
    if (got_error != "no error") return;
    REQUIRE(to_string(got.extents) == to_string(want.extents));
    const std::string diff = first_difference(want, got, x.type());
    CHECK_MESSAGE(diff.empty(), diff);
  } else {
    // seq: the reference check inside run() is the test; an error must be a real one.
    REQUIRE((got_error == "no error" || got_error == "empty_reduction"));
  }
}

argx::op random_op(rng& r) { return r.chance(0.5) ? argx::op::argmax : argx::op::argmin; }

run_options random_options(rng& r) {
  run_options opt;
  opt.values = r.chance(0.8);
  opt.result_form = r.chance(0.1);
  if (is_gpu(backend_under_test()) && r.chance(0.1)) opt.memory = placement::host;
  return opt;
}

// Element mixes: the default, all ties, mostly NaN, and wide random bits.
fill_profile random_profile(rng& r) {
  fill_profile f;
  switch (r.below(5)) {
    case 0: f.tie_rate = 1.0; f.pool_size = 1; f.nan_rate = 0.0; f.special_rate = 0.0; break;
    case 1: f.nan_rate = 0.6; break;
    case 2: f.tie_rate = 0.0; f.special_rate = 0.01; f.nan_rate = 0.002; break;
    default: break;
  }
  return f;
}

}  // namespace

TEST_CASE("differential: random shapes of rank 0 to 5, views, dtypes and specs") {
  rng r(20240611);
  for (int i = 0; i < 1500; ++i) {
    const dtype t = r.pick(all_dtypes());
    const int rank = static_cast<int>(r.below(6));
    const std::int64_t cap = r.chance(0.04) ? (std::int64_t(1) << 17) + 19 : 4096;
    const host_tensor base = random_tensor(r, t, random_extents(r, rank, cap, 0.03), random_profile(r));
    std::string how;
    const host_tensor x = random_view(r, base, &how);
    check_case(x, random_op(r), random_spec(r, x.rank()), random_options(r), "case " + std::to_string(i) + " view " + how);
  }
}

TEST_CASE("differential: every subset of the dims of a rank-4 tensor") {
  rng r(4);
  for (dtype t : all_dtypes()) {
    const host_tensor base = random_tensor(r, t, {3, 5, 4, 6});
    const std::vector<std::pair<std::string, host_tensor>> views = {
        {"contiguous", base},
        {"transpose(0,3) flip(1)", base.transposed(0, 3).flipped(1)},
        {"slice(2,1,4) flip(0) flip(3)", base.sliced(2, 1, 4).flipped(0).flipped(3)},
        {"slice(1,2,3) broadcast(1,3) slice(3,0,6,2)", base.sliced(1, 2, 3).broadcast(1, 3).sliced(3, 0, 6, 2)},
    };
    for (const auto& [name, x] : views) {
      for (int mask = 0; mask < 16; ++mask) {  // mask 0: no dims given, i.e. all of them
        for (bool keepdim : {false, true}) {
          for (argx::op o : {argx::op::argmax, argx::op::argmin}) {
            argx::spec s = random_spec(r, 4);
            s.dims = {};
            for (int d = 0; d < 4; ++d)
              if (mask & (1 << d)) s.dims.push_back(d);
            s.keepdim = keepdim;
            check_case(x, o, s, random_options(r), std::string(argx::name(t)) + " " + name);
          }
        }
      }
    }
  }
}

TEST_CASE("differential: slices long enough to split across threads and chunks") {
  // Sizes cross TBB's serial cutoff (2^15 elements) and grain (2^14), and par's chunk
  // (2^16), for one long slice, a few long rows, long columns, and several reduced dims.
  const std::vector<argx::shape> shapes = {
      {(1 << 17) + 3}, {3, (1 << 16) + 5}, {(1 << 16) + 5, 3}, {2, 300, 257},
      {7, (1 << 15) + 1}, {9, (1 << 14) + 1}, {600, 130}, {(1 << 15) + 7, 1, 2},
  };
  const std::vector<dtype> dtypes = {dtype::f32, dtype::f16, dtype::bf16, dtype::f64,
                                     dtype::i8,  dtype::u16, dtype::i64, dtype::boolean};
  rng r(65536);
  for (const auto& e : shapes) {
    std::vector<argx::dim_list> dim_sets = {{}};
    for (int d = 0; d < e.size(); ++d) dim_sets.push_back({d});
    if (e.size() == 3) {
      dim_sets.push_back({0, 2});
      dim_sets.push_back({1, 2});
    }
    for (dtype t : dtypes) {
      const host_tensor base = random_tensor(r, t, e);
      std::vector<std::pair<std::string, host_tensor>> views = {{"contiguous", base}, {"flip(0)", base.flipped(0)}};
      if (e.size() >= 2) views.push_back({"transpose(0,last)", base.transposed(0, e.size() - 1)});
      for (const auto& [name, x] : views) {
        for (const auto& dims : dim_sets) {
          argx::spec s = random_spec(r, x.rank());
          s.dims = dims;
          check_case(x, random_op(r), s, random_options(r), std::string(argx::name(t)) + " " + name);
        }
      }
    }
  }
}

TEST_CASE("differential: lane blocks with reduced dims inside (whole, chunked, with a rest)") {
  // Layouts the tbb backend reduces as lanes with reduced dims in the block: a short
  // contiguous kept dim, then a reduced dim joined whole (133: chunks would leave a rest)
  // with the kept dim after it in the block too, then the outer reduced dim split over the
  // threads; a reduced dim cut into chunks that divide it (2130 = 142 x 15) or that leave
  // a rest (4001), one unit per item or one for all.
  struct layout_case {
    argx::shape extents;
    argx::dim_list dims;
  };
  const std::vector<layout_case> cases = {
      {{700, 9, 133, 2}, {0, 2}}, {{40, 2130, 2}, {1}}, {{3, 4001, 5}, {1}}, {{4001, 19, 3}, {0}},
  };
  const std::vector<dtype> dtypes = {dtype::f16, dtype::bf16, dtype::f32, dtype::f64, dtype::i16, dtype::u64};
  rng r(2394);
  for (const auto& c : cases) {
    for (dtype t : dtypes) {
      const host_tensor base = random_tensor(r, t, c.extents, random_profile(r));
      for (const auto& [name, x] : std::vector<std::pair<std::string, host_tensor>>{{"contiguous", base},
                                                                                   {"flip(1)", base.flipped(1)}}) {
        for (argx::op o : {argx::op::argmax, argx::op::argmin}) {
          argx::spec s = random_spec(r, x.rank());
          s.dims = c.dims;
          check_case(x, o, s, random_options(r), std::string(argx::name(t)) + " " + name);
        }
      }
    }
  }
}
