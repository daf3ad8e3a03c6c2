// Inputs of more than 2^31 and 2^32 elements: indices past 32 bits, ties across 2^31,
// every shape class, on both GPU backends. Built on the GPU with cudaMemset plus a few
// planted elements, so the expected answers are known without a CPU pass.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include <cuda_runtime.h>

#include <argx/argx.hpp>

#include "device_memory.hpp"
#include "error_of.hpp"

using argx_test::device_buffer;
using argx_test::error_of;

namespace {

constexpr std::int64_t two31 = std::int64_t(1) << 31, two32 = std::int64_t(1) << 32;

template <class T>
void put(device_buffer& b, std::int64_t i, T v) {
  REQUIRE(cudaMemcpy(static_cast<char*>(b.data()) + i * sizeof(T), &v, sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
}

}  // namespace

TEST_CASE("large: more than 2^32 uint8 elements, every shape class") {
  const std::int64_t n = two32 + 4100, half = n / 2;
  device_buffer buf(static_cast<std::size_t>(n));
  REQUIRE(cudaMemset(buf.data(), 7, static_cast<std::size_t>(n)) == cudaSuccess);
  // Two equal maxima and two equal minima, one below and one above 2^32 (all at odd
  // positions, so the strided case finds them in column 1).
  const std::int64_t a = two31 + 5, b = two32 + 17, c = two31 - 1, d = two32 + 3;
  put<std::uint8_t>(buf, a, 200);
  put<std::uint8_t>(buf, b, 200);
  put<std::uint8_t>(buf, c, 3);
  put<std::uint8_t>(buf, d, 3);
  const auto* data = static_cast<const std::uint8_t*>(buf.data());
  const auto first = argx::tie_break::first, last = argx::tie_break::last;

  for (argx::policy pol : {argx::policy(argx::cuda), argx::policy(argx::thrust)}) {
    INFO("backend ", argx::name(pol.kind));
    const auto flat = argx::make_view(data, {n}, argx::memory_space::device);
    auto r = argx::argmax(pol, flat, argx::spec{.ties = first});
    CHECK(r.indices[0] == a);
    CHECK(r.value<std::uint8_t>(0) == 200);
    CHECK(argx::argmax(pol, flat, argx::spec{.ties = last}).indices[0] == b);
    CHECK(argx::argmin(pol, flat, argx::spec{.ties = first}).indices[0] == c);
    CHECK(argx::argmin(pol, flat, argx::spec{.ties = last}).indices[0] == d);
    argx::spec i32;
    i32.index = argx::index_type::int32;
    CHECK(error_of([&] { argx::argmax(pol, flat, i32); }) == "index_overflow");

    // rows: [2, half], each row longer than 2^31
    const auto rows = argx::make_view(data, {2, half}, argx::memory_space::device);
    r = argx::argmax(pol, rows, argx::spec{.dims = {1}, .ties = first});
    CHECK(r.indices[0] == a);
    CHECK(r.indices[1] == b - half);
    r = argx::argmin(pol, rows, argx::spec{.dims = {1}, .ties = last});
    CHECK(r.indices[0] == c);
    CHECK(r.indices[1] == d - half);

    // strided: [half, 2] reduced over dim 0 (R > 2^31, two columns)
    const auto cols = argx::make_view(data, {half, 2}, argx::memory_space::device);
    r = argx::argmax(pol, cols, argx::spec{.dims = {0}, .ties = first});
    CHECK(r.indices[0] == 0);
    CHECK(r.indices[1] == (a - 1) / 2);
    r = argx::argmax(pol, cols, argx::spec{.dims = {0}, .ties = last});
    CHECK(r.indices[0] == half - 1);
    CHECK(r.indices[1] == (b - 1) / 2);
    r = argx::argmin(pol, cols, argx::spec{.dims = {0}, .ties = last});
    CHECK(r.indices[1] == (d - 1) / 2);

    // general: the transpose of rows, all dims (flat position i * 2 + j of element (j, i))
    const auto t = rows.transposed(0, 1);
    CHECK(argx::argmax(pol, t, argx::spec{.ties = first}).indices[0] == 2 * (b - half) + 1);
    CHECK(argx::argmax(pol, t, argx::spec{.ties = last}).indices[0] == 2 * a);
    CHECK(argx::argmin(pol, t, argx::spec{.ties = first}).indices[0] == 2 * (d - half) + 1);
    CHECK(argx::argmin(pol, t, argx::spec{.ties = last}).indices[0] == 2 * c);
  }
}

TEST_CASE("large: more than 2^31 float32 elements (16-byte loads past 2^31)") {
  const std::int64_t n = two31 + 7;
  device_buffer buf(static_cast<std::size_t>(n) * 4);
  REQUIRE(cudaMemset(buf.data(), 0, static_cast<std::size_t>(n) * 4) == cudaSuccess);
  put<float>(buf, two31 + 3, 1.0f);
  put<float>(buf, 5, -0.0f);  // equal to +0.0: changes no answer
  const auto x = argx::make_view(static_cast<const float*>(buf.data()), {n}, argx::memory_space::device);
  for (argx::policy pol : {argx::policy(argx::cuda), argx::policy(argx::thrust)}) {
    INFO("backend ", argx::name(pol.kind));
    CHECK(argx::argmax(pol, x).indices[0] == two31 + 3);
    argx::spec last;
    last.ties = argx::tie_break::last;
    CHECK(argx::argmin(pol, x, last).indices[0] == n - 1);
  }
  const std::uint32_t nan = 0xFFC00001u;  // negative quiet NaN with a payload
  float nanf;
  std::memcpy(&nanf, &nan, 4);
  put<float>(buf, two31 + 6, nanf);
  argx::spec ignore;
  ignore.nan = argx::nan_policy::ignore;
  for (argx::policy pol : {argx::policy(argx::cuda), argx::policy(argx::thrust)}) {
    const auto r = argx::argmax(pol, x);
    CHECK(r.indices[0] == two31 + 6);
    std::uint32_t bits;
    std::memcpy(&bits, r.values.data(), 4);
    CHECK(bits == nan);
    CHECK(argx::argmax(pol, x, ignore).indices[0] == two31 + 3);
  }
}
