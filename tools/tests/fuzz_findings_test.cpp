// Inputs the libFuzzer targets found, kept as regression tests.
#include <doctest/doctest.h>

#include <limits>

#include <argx/argx.hpp>

namespace {
argx::errc plan_error(const argx::shape& extents, const argx::shape& strides, const argx::spec& s = {}) {
  const float x[4] = {};
  try {
    (void)argx::make_plan(argx::make_view(x, extents, strides), argx::op::argmax, s);
  } catch (const argx::error& e) {
    return e.code();
  }
  return argx::errc::bad_argument;  // accepted: not what these cases expect
}
}  // namespace

TEST_CASE("plan_fuzz: a stride of INT64_MIN is refused (its magnitude does not fit in int64)") {
  CHECK(plan_error({2}, {std::numeric_limits<std::int64_t>::min()}) == argx::errc::shape_overflow);
  CHECK(plan_error({3, 2}, {1, std::numeric_limits<std::int64_t>::min()}) == argx::errc::shape_overflow);
}

TEST_CASE("plan_fuzz: a furthest offset of INT64_MAX is refused (one past it does not fit)") {
  CHECK(plan_error({2}, {std::numeric_limits<std::int64_t>::max()}) == argx::errc::shape_overflow);
  CHECK(plan_error({2}, {-std::numeric_limits<std::int64_t>::max()}) == argx::errc::shape_overflow);
}

TEST_CASE("npy_reader_fuzz: an empty shape whose other extents overflow is refused, and views of it are safe") {
  // (0, 5, 2^61): no elements, but C strides would need 5 * 2^61 (UBSan: signed overflow).
  const argx::shape extents{0, 5, std::int64_t(1) << 61};
  const argx::shape strides = argx::contiguous_strides(extents);  // must not be undefined behaviour
  CHECK(strides[2] == 1);
  CHECK(strides[1] == std::int64_t(1) << 61);
  CHECK(plan_error(extents, strides, {.dims = {1}}) == argx::errc::shape_overflow);
}
