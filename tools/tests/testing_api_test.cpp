// argx/testing.hpp: reports name the first differing output exactly, with both indices,
// the input coordinates they point at and the elements' bits.
#include <doctest/doctest.h>

#include <argx/testing.hpp>

#include <limits>

namespace t = argx::testing;

namespace {
constexpr float nan_ = std::numeric_limits<float>::quiet_NaN();
// Row 1 holds a NaN: numpy's argmax (and argx's) picks it.
const std::vector<float> x = {1, 7, 7, 2, -0.0f, 0.0f, nan_, 5, -1, -3, -1, -2};
const argx::tensor_view v = argx::make_view(x, {3, 4});
}  // namespace

TEST_CASE("agreeing answers give an equal report") {
  const std::vector<std::int64_t> right = {1, 2, 0};
  const t::report r = t::compare(v, argx::op::argmax, {.dims = {1}}, std::span(right));
  CHECK(r);
  CHECK(r.outputs == 3);
  CHECK(r.differing == 0);
  CHECK(r.to_string() == "argx::testing: all 3 outputs agree (indices)");
  const std::vector<std::int32_t> right32 = {1, 2, 0};
  CHECK(t::compare(v, argx::op::argmax, {.dims = {1}}, std::span(right32)));
}

TEST_CASE("a NaN-blind implementation is caught at the right output") {
  const std::vector<std::int64_t> blind = {1, 3, 0};  // skipped the NaN in row 1
  const t::report r = t::compare(v, argx::op::argmax, {.dims = {1}}, std::span(blind));
  CHECK(!r);
  CHECK(r.differing == 1);
  CHECK(r.output == 1);
  CHECK(r.position == argx::shape{1});
  CHECK(r.expected_index == 2);
  CHECK(r.actual_index == 3);
  CHECK(r.expected_element == argx::shape{1, 2});
  CHECK(r.actual_element == argx::shape{1, 3});
  CHECK(r.to_string() ==
        "argx::testing: 1 of 3 outputs differ (indices); first at output (1): argx index 2 (x[1, 2]), actual index 3 (x[1, 3])");
}

TEST_CASE("values are compared bit for bit: -0 is not +0") {
  const std::vector<float> xs = {-0.0f, 0.0f};
  const std::vector<std::int64_t> idx = {0};
  const std::vector<float> wrong_value = {0.0f};  // the right index, the other zero's bits
  const t::report r = t::compare(argx::make_view(xs, {2}), argx::op::argmax, {.dims = {0}}, std::span(idx),
                                 std::span(wrong_value));
  CHECK(!r);
  CHECK(r.values_compared);
  CHECK(r.expected_bits == 0x80000000u);
  CHECK(r.actual_bits == 0);
  CHECK(r.to_string() ==
        "argx::testing: 1 of 1 outputs differ (indices and values); first at output (): argx index 0 (x[0] = -0 "
        "[0x80000000]), actual index 0 (x[0] = 0 [0x00000000])");
  const std::vector<float> right_value = {-0.0f};
  CHECK(t::compare(argx::make_view(xs, {2}), argx::op::argmax, {.dims = {0}}, std::span(idx), std::span(right_value)));
}

TEST_CASE("multi-dim reductions, keepdim and all-NaN slices map back to input coordinates") {
  // argmin over dims 0 and 2 of a (2, 2, 3) int16 tensor; output (1, 2, 1) with keepdim.
  const std::vector<std::int16_t> a = {5, 4, 3, 9, 9, 9, 2, 8, 2, -7, 0, 1};
  const auto av = argx::make_view(a, {2, 2, 3});
  const argx::spec s{.dims = {0, 2}, .keepdim = true};
  const std::vector<std::int64_t> wrong = {5, 4};  // right: {3 (a[1,0,0]=2), 3 (a[1,1,0]=-7)}
  const t::report r = t::compare(av, argx::op::argmin, s, std::span(wrong));
  CHECK(r.differing == 2);
  CHECK(r.position == argx::shape{0, 0, 0});
  CHECK(r.expected_index == 3);
  CHECK(r.expected_element == argx::shape{1, 0, 0});
  CHECK(r.actual_element == argx::shape{1, 0, 2});

  const std::vector<float> all_nan = {nan_, nan_};
  const std::vector<std::int64_t> zero = {0};
  const t::report n = t::compare(argx::make_view(all_nan, {2}), argx::op::argmax, {.nan = argx::nan_policy::ignore},
                                 std::span(zero));
  CHECK(n.expected_index == -1);
  CHECK(n.expected_element.empty());
  CHECK(n.to_string().find("argx index -1, actual index 0 (x[0])") != std::string::npos);
}

TEST_CASE("wrong sizes are reported, invalid reductions throw like argx") {
  const std::vector<std::int64_t> too_few = {1, 2};
  const t::report r = t::compare(v, argx::op::argmax, {.dims = {1}}, std::span(too_few));
  CHECK(!r);
  CHECK(r.to_string() == "argx::testing: actual has 2 indices but the output shape (3) needs 3");
  const std::vector<float> none;
  const std::vector<std::int64_t> empty;
  CHECK_THROWS_AS(t::compare(argx::make_view(none, {0}), argx::op::argmax, {}, std::span(empty)), argx::error);
  try {
    (void)t::compare(v, argx::op::argmax, {.dims = {2}}, std::span(too_few));
  } catch (const argx::error& e) {
    CHECK(e.code() == argx::errc::bad_dim);
  }
  const std::vector<double> wrong_type = {1, 2, 3};
  const std::vector<std::int64_t> three = {1, 2, 0};
  CHECK_THROWS_AS(t::compare(v, argx::op::argmax, {.dims = {1}}, std::span(three), std::span(wrong_type)), argx::error);
}

TEST_CASE("format_element shows value and bits for every dtype family") {
  CHECK(t::format_element(argx::dtype::f32, 0x3fc00000u) == "1.5 [0x3fc00000]");
  CHECK(t::format_element(argx::dtype::f16, 0x3c00u) == "1 [0x3c00]");
  CHECK(t::format_element(argx::dtype::f16, 0x0001u) == "5.9604645e-08 [0x0001]");
  CHECK(t::format_element(argx::dtype::bf16, 0xff80u) == "-inf [0xff80]");
  CHECK(t::format_element(argx::dtype::f64, 0x7ff8000000000000ull) == "nan [0x7ff8000000000000]");
  CHECK(t::format_element(argx::dtype::i8, 0x80u) == "-128 [0x80]");
  CHECK(t::format_element(argx::dtype::u64, ~0ull) == "18446744073709551615 [0xffffffffffffffff]");
  CHECK(t::format_element(argx::dtype::boolean, 1) == "true [0x01]");
}
