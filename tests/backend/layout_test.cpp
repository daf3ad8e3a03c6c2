// Dims, keepdim, multi-dim positions and views (transposed, sliced, reversed, broadcast)
// on one small tensor whose answers are worked out by hand, plus rank 0 and zero extents.
// Each case also runs through the result form, without values, with int32 indices and,
// for GPU backends, with host pointers the backend has to stage.
#include <doctest/doctest.h>

#include <vector>

#include "element_bits.hpp"
#include "harness.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

// x[i][j][k], shape (2, 3, 4). Maxima tie (9 three times, 7 and 5 in pairs), as do minima (0).
const std::vector<double> x_values = {1, 9, 3, 9,  4, 2, 8, 0,  7, 7, 1, 5,
                                      6, 0, 9, 2,  3, 5, 5, 1,  8, 4, 0, 7};

using idx = std::vector<std::int64_t>;

argx::spec dims_spec(argx::dim_list dims, bool keepdim = false, argx::tie_break ties = argx::tie_break::first) {
  argx::spec s;
  s.dims = dims;
  s.keepdim = keepdim;
  s.ties = ties;
  return s;
}

// Every way a test case can be run; the answers must not depend on it.
std::vector<run_options> run_variants() {
  std::vector<run_options> v = {{}, {.values = false}, {.result_form = true}};
  if (is_gpu(backend_under_test())) {
    v.push_back({.memory = placement::host});
    v.push_back({.memory = placement::host, .result_form = true});
  }
  return v;
}

// The indices of one reduction, checked to be the same in every run variant and with
// int32 indices.
idx indices_of(argx::op o, const host_tensor& x, argx::spec s, argx::shape* extents = nullptr) {
  const auto variants = run_variants();
  const outcome first = run(o, x, s, variants[0]);
  for (std::size_t i = 1; i < variants.size(); ++i) {
    INFO("run variant ", i);
    const outcome r = run(o, x, s, variants[i]);
    CHECK(r.indices == first.indices);
    CHECK(to_string(r.extents) == to_string(first.extents));
  }
  s.index = argx::index_type::int32;
  CHECK(run(o, x, s).indices == first.indices);
  if (extents) *extents = first.extents;
  return first.indices;
}
idx max_of(const host_tensor& x, argx::spec s, argx::shape* extents = nullptr) {
  return indices_of(argx::op::argmax, x, s, extents);
}
idx min_of(const host_tensor& x, argx::spec s, argx::shape* extents = nullptr) {
  return indices_of(argx::op::argmin, x, s, extents);
}

}  // namespace

TEST_CASE("layout: each single dim, non-last dims, negative dims") {
  for (dtype t : {dtype::f32, dtype::bf16, dtype::i16, dtype::u64}) {
    INFO(name_of(t));
    const host_tensor x = make_tensor(t, x_values, {2, 3, 4});
    argx::shape e;
    CHECK(max_of(x, dims_spec({2}), &e) == idx{1, 2, 0, 2, 1, 0});
    CHECK(to_string(e) == "(2,3)");
    CHECK(max_of(x, dims_spec({-1})) == idx{1, 2, 0, 2, 1, 0});
    CHECK(max_of(x, dims_spec({1}), &e) == idx{2, 0, 1, 0, 2, 1, 0, 2});
    CHECK(to_string(e) == "(2,4)");
    CHECK(max_of(x, dims_spec({0}), &e) == idx{1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1});
    CHECK(max_of(x, dims_spec({-3})) == idx{1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1});
    CHECK(to_string(e) == "(3,4)");
    CHECK(max_of(x, dims_spec({2}, false, argx::tie_break::last)) == idx{3, 2, 1, 2, 2, 0});
    CHECK(min_of(x, dims_spec({2})) == idx{0, 3, 2, 1, 3, 2});
  }
}

TEST_CASE("layout: all dims and several dims (row-major over the reduced dims)") {
  const host_tensor x = make_tensor(dtype::f64, x_values, {2, 3, 4});
  argx::shape e;
  CHECK(max_of(x, {}, &e) == idx{1});
  CHECK(to_string(e) == "()");
  CHECK(max_of(x, dims_spec({}, false, argx::tie_break::last)) == idx{14});
  CHECK(min_of(x, {}) == idx{7});
  CHECK(min_of(x, dims_spec({}, false, argx::tie_break::last)) == idx{22});
  CHECK(max_of(x, dims_spec({0, 1, 2})) == idx{1});

  // dims {0, 2}: position = i * 4 + k for each j.
  const idx r02 = max_of(x, dims_spec({0, 2}), &e);
  CHECK(r02 == idx{1, 2, 4});
  CHECK(to_string(e) == "(3)");
  CHECK(max_of(x, dims_spec({2, 0})) == r02);  // the order dims are named in does not matter
  CHECK(max_of(x, dims_spec({-1, 0})) == r02);
  CHECK(max_of(x, dims_spec({0, 2}, false, argx::tie_break::last)) == idx{6, 2, 4});
  CHECK(argx::unravel(r02[2], argx::shape{2, 4}) == argx::shape{1, 0});  // x[1][2][0] = 8
  CHECK(argx::unravel(r02[0], argx::shape{2, 4}) == argx::shape{0, 1});  // x[0][0][1] = 9

  CHECK(max_of(x, dims_spec({1, 2})) == idx{1, 2});
  CHECK(max_of(x, dims_spec({0, 1})) == idx{5, 0, 3, 0});
  CHECK(argx::unravel(5, argx::shape{2, 3}) == argx::shape{1, 2});
}

TEST_CASE("layout: keepdim shapes") {
  const host_tensor x = make_tensor(dtype::i32, x_values, {2, 3, 4});
  argx::shape e;
  CHECK(max_of(x, dims_spec({1}, true), &e) == idx{2, 0, 1, 0, 2, 1, 0, 2});
  CHECK(to_string(e) == "(2,1,4)");
  CHECK(max_of(x, dims_spec({0, 2}, true), &e) == idx{1, 2, 4});
  CHECK(to_string(e) == "(1,3,1)");
  CHECK(max_of(x, dims_spec({}, true), &e) == idx{1});
  CHECK(to_string(e) == "(1,1,1)");
  CHECK(to_string(argx::output_shape(x.view, dims_spec({-1}, true))) == "(2,3,1)");
}

TEST_CASE("layout: transposed, sliced, reversed and broadcast views") {
  for (dtype t : {dtype::f16, dtype::f32, dtype::i8, dtype::u32}) {
    INFO(name_of(t));
    const host_tensor x = make_tensor(t, x_values, {2, 3, 4});
    // y[k][j][i] = x[i][j][k]: reducing y's dim 0 is reducing x's dim 2, outputs transposed.
    const host_tensor y = x.transposed(0, 2);
    CHECK(max_of(y, dims_spec({0})) == idx{1, 2, 2, 1, 0, 0});
    // The flat index follows y's row-major order, not memory order: the 9s of y sit at
    // y[1][0][0], y[3][0][0] and y[2][0][1], so the first is position 1 * 6 = 6.
    CHECK(max_of(y, {}) == idx{6});

    // Reversed last dim (negative stride): a first tie in the view is a last tie in x.
    const host_tensor f = x.flipped(2);
    CHECK(max_of(f, dims_spec({2})) == idx{0, 1, 2, 1, 1, 3});
    CHECK(max_of(x.flipped(0), dims_spec({0})) == idx{0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0});
    // Reversed in every dim: the flat answer counts from the end.
    const host_tensor all_rev = x.flipped(0).flipped(1).flipped(2);
    CHECK(max_of(all_rev, {}) == idx{23 - 14});
    CHECK(max_of(all_rev, dims_spec({}, false, argx::tie_break::last)) == idx{23 - 1});

    // Every second element of the last dim, starting at 1: k in {1, 3}.
    const host_tensor s = x.sliced(2, 1, 4, 2);
    CHECK(max_of(s, dims_spec({2})) == idx{0, 0, 0, 1, 0, 1});
    // A sliced middle dim (j in {1, 2}) reduced together with dim 0.
    CHECK(max_of(x.sliced(1, 1, 3), dims_spec({0, 1})) == idx{3, 1, 0, 3});

    // Zero stride: x[:, 0:1, :] repeated 5 times along dim 1.
    const host_tensor b = x.sliced(1, 0, 1).broadcast(1, 5);
    CHECK(max_of(b, dims_spec({1})) == idx(8, 0));
    CHECK(max_of(b, dims_spec({1}, false, argx::tie_break::last)) == idx(8, 4));
    CHECK(max_of(b, {}) == idx{1});
    CHECK(max_of(b, dims_spec({}, false, argx::tie_break::last)) == idx{1 * 20 + 4 * 4 + 2});
    // A whole tensor that is one element seen many times.
    const host_tensor one = x.sliced(0, 1, 2).sliced(1, 2, 3).sliced(2, 3, 4).broadcast(0, 3).broadcast(2, 7);
    CHECK(min_of(one, {}) == idx{0});
    CHECK(min_of(one, dims_spec({}, false, argx::tie_break::last)) == idx{3 * 7 - 1});
  }
}

TEST_CASE("layout: rank 0") {
  for (dtype t : all_dtypes()) {
    INFO(name_of(t));
    const host_tensor x = make_tensor(t, {1}, argx::shape{});
    argx::shape e;
    CHECK(max_of(x, {}, &e) == idx{0});
    CHECK(to_string(e) == "()");
    CHECK(min_of(x, dims_spec({}, true), &e) == idx{0});
    CHECK(to_string(e) == "()");
  }
  const host_tensor nan0 = make_tensor_bits(dtype::f32, {nan_bits(dtype::f32, true, 9)}, argx::shape{});
  argx::spec ignore;
  ignore.nan = argx::nan_policy::ignore;
  const outcome r = argmax(nan0, ignore);
  CHECK(r.indices == idx{-1});
  CHECK(r.value_bits[0] == nan_bits(dtype::f32, true, 9));
}

TEST_CASE("layout: a zero extent among the kept dims gives an empty output") {
  for (dtype t : {dtype::f32, dtype::u8}) {
    const host_tensor x = make_tensor(t, {}, {0, 3});
    argx::shape e;
    CHECK(max_of(x, dims_spec({1}), &e).empty());
    CHECK(to_string(e) == "(0)");
    CHECK(max_of(x, dims_spec({1}, true), &e).empty());
    CHECK(to_string(e) == "(0,1)");
    const host_tensor y = make_tensor(t, {}, {4, 0, 2});
    CHECK(min_of(y, dims_spec({0, 2}), &e).empty());
    CHECK(to_string(e) == "(0)");
    // Null output pointers are fine when there is nothing to write.
    CHECK(error_of([&] {
            argx::argmax(policy_for(backend_under_test()), x.view,
                         argx::make_output(static_cast<std::int64_t*>(nullptr), argx::shape{0}), dims_spec({1}));
          }) == "no error");
  }
}

TEST_CASE("layout: a zero reduced extent is an error on every backend") {
  const host_tensor x = make_tensor(dtype::f32, {}, {0, 3});
  for (argx::op o : {argx::op::argmax, argx::op::argmin}) {
    CHECK(error_of([&] { run(o, x, dims_spec({0})); }) == "empty_reduction");
    CHECK(error_of([&] { run(o, x, dims_spec({})); }) == "empty_reduction");
    CHECK(error_of([&] { run(o, x, dims_spec({0}), {.result_form = true}); }) == "empty_reduction");
    CHECK(error_of([&] { run(o, x.transposed(0, 1), dims_spec({1}, true)); }) == "empty_reduction");
  }
}
