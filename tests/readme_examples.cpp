// The API examples of README.md, compiled and asserted. Each TEST_CASE body between the
// "README" markers is pasted verbatim into the README; keep them short and real.
// The snippets use assert() as a user would; keep it active in release builds too.
#undef NDEBUG
#include <cassert>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <argx/argx.hpp>
#include <argx/testing.hpp>

#include "device_memory.hpp"

// README example: the opening one, at namespace scope as a reader would paste it (argx.hpp is
// already included above, so its #include line changes nothing here).
namespace opening {
// README begin opening
#include <argx/argx.hpp>

std::vector<float> m = {1, 7, 7, 2,
                        NAN, 0, 9, 9};
auto x = argx::make_view(m, {2, 4});
auto r = argx::argmax(argx::automatic, x, {.dims = {1}});
// r.indices == {1, 0}: the first 7 (ties go to the first), then the NaN (NaN propagates)
// README end opening
}  // namespace opening

TEST_CASE("README: the opening example") { CHECK(opening::r.indices == std::vector<std::int64_t>{1, 0}); }

// README example: GPU. Runs where argx has CUDA and a GPU; compiles everywhere.
// README begin gpu
// d_x: rows*cols floats in GPU memory, d_idx: rows int64 in GPU memory, stream: a
// cudaStream_t (nullptr for the default stream). Asynchronous on the stream.
void row_argmax_on_gpu(const float* d_x, std::int64_t* d_idx, std::int64_t rows, std::int64_t cols,
                       void* stream) {
  auto x = argx::make_view(d_x, {rows, cols}, argx::memory_space::device);
  auto out = argx::make_output(d_idx, {rows}, argx::memory_space::device);
  argx::argmax(argx::cuda.on(stream), x, out, {.dims = {1}});
}
// README end gpu

TEST_CASE("README: argmax of a vector, NaN and ties") {
  // README begin vector
  std::vector<float> v = {3.0f, NAN, 1.0f, 5.0f, 5.0f};

  argx::result r = argx::argmax(argx::seq, argx::make_view(v));
  assert(r.indices[0] == 1);  // NaN wins, as in numpy.argmax

  r = argx::argmax(argx::seq, argx::make_view(v), {.nan = argx::nan_policy::ignore});
  assert(r.indices[0] == 3);  // numpy.nanargmax; ties go to the first
  assert(r.value<float>(0) == 5.0f);

  r = argx::argmin(argx::seq, argx::make_view(v), {.nan = argx::nan_policy::ignore, .ties = argx::tie_break::last});
  assert(r.indices[0] == 2);
  // README end vector
  CHECK(r.indices[0] == 2);
}

TEST_CASE("README: along a dim, into caller-owned buffers") {
  // README begin dim
  std::vector<double> m = {1, 9, 3,
                           7, 2, 7};  // 2 rows, 3 columns
  std::vector<std::int64_t> idx(2);
  std::vector<double> val(2);

  argx::argmax(argx::automatic, argx::make_view(m, {2, 3}), argx::make_output(idx.data(), {2}),
               argx::make_output(val.data(), {2}), {.dims = {1}});
  assert((idx == std::vector<std::int64_t>{1, 0}) && (val == std::vector<double>{9, 7}));

  // Views cost nothing: the columns are the rows of the transposed view.
  auto cols = argx::argmin(argx::par, argx::make_view(m, {2, 3}).transposed(0, 1), {.dims = {1}});
  assert((cols.indices == std::vector<std::int64_t>{0, 1, 0}));
  // README end dim
  CHECK(idx == std::vector<std::int64_t>{1, 0});
  CHECK(cols.indices == std::vector<std::int64_t>{0, 1, 0});
}

TEST_CASE("README: several dims, keepdim, unravel") {
  // README begin dims
  std::vector<std::int32_t> t(2 * 3 * 4, 0);
  t[1 * 12 + 2 * 4 + 3] = 7;  // t[1][2][3]

  auto r = argx::argmax(argx::seq, argx::make_view(t, {2, 3, 4}), {.dims = {0, 2}, .keepdim = true});
  assert((r.extents == argx::shape{1, 3, 1}));
  // An index over several dims is row-major over those dims (here dims 0 and 2).
  assert(r.indices[2] == 1 * 4 + 3);
  assert((argx::unravel(r.indices[2], {2, 4}) == argx::shape{1, 3}));
  // README end dims
  CHECK(r.indices == std::vector<std::int64_t>{0, 0, 7});
}

TEST_CASE("README: errors") {
  // README begin errors
  std::vector<float> m(6);
  try {
    argx::argmax(argx::seq, argx::make_view(m, {2, 3}), {.dims = {2}});
    assert(false);
  } catch (const argx::error& e) {
    assert(e.code() == argx::errc::bad_dim);  // e.what(): "argx: dim 2 is out of range ..."
  }
  // README end errors
  CHECK_THROWS_AS(argx::argmax(argx::seq, argx::make_view(m, {2, 3}), {.dims = {2}}), argx::error);
}

TEST_CASE("README: checking your own implementation") {
  // README begin testing
  std::vector<float> x = {1, 7, 7, 2,
                          0, NAN, 3, 3};
  std::vector<std::int64_t> mine = {2, 2};  // e.g. from your kernel: last of the ties, NaN missed

  argx::testing::report r =
      argx::testing::compare(argx::make_view(x, {2, 4}), argx::op::argmax, {.dims = {1}}, std::span(mine));
  assert(!r && r.differing == 2 && r.output == 0);
  // r.to_string(): "argx::testing: 2 of 2 outputs differ (indices); first at output (0):
  //                 argx index 1 (x[0, 1]), actual index 2 (x[0, 2])"
  // README end testing
  CHECK(r.to_string().find("2 of 2 outputs differ") != std::string::npos);
}

TEST_CASE("README: GPU") {
  if (!argx::available(argx::backend::cuda)) {
    MESSAGE("no usable GPU: the GPU example is compiled, not run");
    return;
  }
  const std::vector<float> host = {1, 4, 4, 0, -2, NAN};
  argx_test::device_buffer dx(host.size() * sizeof(float)), didx(2 * sizeof(std::int64_t));
  dx.upload(host.data(), host.size() * sizeof(float));
  row_argmax_on_gpu(static_cast<const float*>(dx.data()), static_cast<std::int64_t*>(didx.data()), 2, 3, nullptr);
  argx_test::device_synchronize();
  std::vector<std::int64_t> idx(2);
  didx.download(idx.data(), idx.size() * sizeof(std::int64_t));
  CHECK(idx == std::vector<std::int64_t>{1, 2});
}
