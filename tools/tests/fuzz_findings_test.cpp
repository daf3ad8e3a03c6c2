// Inputs the libFuzzer targets found, kept as regression tests.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include <argx/argx.hpp>

namespace {
argx::errc plan_error(const argx::shape& extents, const argx::shape& strides, const argx::spec& s = {}) {
  const float x[4] = {};
  try {
    (void)argx::detail::make_plan(argx::make_view(x, extents, strides), argx::op::argmax, s);
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

TEST_CASE("plan_fuzz: slicing a view that reaches below address 0 is defined, and such views are refused") {
  // Pointer 0x40, stride -40 floats: rows 1 and 2 would lie below address 0. Computing the
  // sliced view's address used to be pointer arithmetic that wraps (UBSan).
  const auto x = argx::make_view(reinterpret_cast<const void*>(std::uintptr_t{64}), argx::dtype::f32, {3, 100}, {-40, 1});
  const auto s = x.sliced(0, 2, 0, -1);  // rows 2, 1: starting 80 floats below the pointer
  CHECK(reinterpret_cast<std::uintptr_t>(s.data) == std::uintptr_t{64} - 320);  // wrapped as an integer, not UB
  CHECK(s.strides == argx::shape{40, 1});
  for (const auto& v : {x, s}) {
    try {
      (void)argx::detail::make_plan(v, argx::op::argmax, {});
      FAIL("a view outside the address space was planned");
    } catch (const argx::error& e) {
      CHECK(e.code() == argx::errc::bad_argument);
    }
  }
}
