// Ties and NaN placed on both sides of the places where backends split work: warps (32),
// blocks (256, 1024), SIMD and TBB grains (2^14), TBB's serial cutoff (2^15), par's chunks
// (2^16), and the rows-vs-columns and many-short-rows shapes (N×1, N > 32767).
// (Ties across 2^31 need a GPU-sized input: tests/cuda.)
#include <doctest/doctest.h>

#include <vector>

#include "element_bits.hpp"
#include "harness.hpp"
#include "random_tensor.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

const std::vector<std::int64_t> boundaries = {32, 256, 1024, 4096, 1 << 14, 1 << 15, 1 << 16, 1 << 17};

// A dtype sample that covers every element width and both float formats of 16 bits.
const std::vector<dtype> sample_dtypes = {dtype::f16, dtype::bf16, dtype::f32, dtype::f64,
                                          dtype::i8,  dtype::u16,  dtype::i32, dtype::u64, dtype::boolean};

// The lowest and the highest of three distinct values of `t` (bool has only two).
std::uint64_t low(dtype t) { return encode(t, 0); }
std::uint64_t high(dtype t) { return encode(t, 1); }

}  // namespace

TEST_CASE("boundaries: equal maxima on both sides of a split point (flat)") {
  const std::int64_t n = (1 << 17) + 5;
  for (dtype t : sample_dtypes) {
    for (std::int64_t b : boundaries) {
      INFO(name_of(t), " boundary ", b);
      // Background low, two highs straddling the boundary: argmax ties.
      host_tensor x = make_filled(t, low(t), {n});
      set_flat(x, b - 1, high(t));
      set_flat(x, b, high(t));
      CHECK(argmax(x).indices[0] == b - 1);
      CHECK(argmax(x, argx::spec{.dims = {}, .ties = argx::tie_break::last}).indices[0] == b);
      // Background high, two lows: the same for argmin.
      host_tensor y = make_filled(t, high(t), {n});
      set_flat(y, b - 1, low(t));
      set_flat(y, b, low(t));
      CHECK(argmin(y).indices[0] == b - 1);
      CHECK(argmin(y, argx::spec{.dims = {}, .ties = argx::tie_break::last}).indices[0] == b);
      // A tie far apart: the first copy sits just after the boundary, the second at the end.
      host_tensor z = make_filled(t, low(t), {n});
      set_flat(z, b, high(t));
      set_flat(z, n - 1, high(t));
      CHECK(argmax(z).indices[0] == b);
      CHECK(argmax(z, argx::spec{.dims = {}, .ties = argx::tie_break::last}).indices[0] == n - 1);
    }
  }
}

TEST_CASE("boundaries: NaN on both sides of a split point") {
  const std::int64_t n = (1 << 17) + 5;
  for (dtype t : float_dtypes()) {
    for (std::int64_t b : boundaries) {
      INFO(name_of(t), " boundary ", b);
      host_tensor x = make_filled(t, encode(t, 2), {n});
      set_flat(x, b, nan_bits(t, true, 3));
      set_flat(x, b - 1, nan_bits(t, false, 1));
      set_flat(x, 7, inf_bits(t));
      argx::spec s;
      auto r = argmin(x, s);
      CHECK(r.indices[0] == b - 1);
      CHECK(r.value_bits[0] == nan_bits(t, false, 1));
      s.ties = argx::tie_break::last;
      r = argmax(x, s);
      CHECK(r.indices[0] == b);
      CHECK(r.value_bits[0] == nan_bits(t, true, 3));
      s.nan = argx::nan_policy::ignore;
      CHECK(argmax(x, s).indices[0] == 7);
    }
  }
}

TEST_CASE("boundaries: ties across split points in rows, columns and multi-dim slices") {
  for (dtype t : {dtype::f32, dtype::bf16, dtype::i8, dtype::u64}) {
    INFO(name_of(t));
    // Rows: 3 long rows, each with its tie straddling a different boundary.
    const std::int64_t r_len = (1 << 16) + 3;
    host_tensor rows = make_filled(t, low(t), {3, r_len});
    const std::int64_t row_b[3] = {1 << 14, 1 << 15, 1 << 16};
    for (int i = 0; i < 3; ++i) {
      set_flat(rows, i * r_len + row_b[i] - 1, high(t));
      set_flat(rows, i * r_len + row_b[i], high(t));
    }
    auto r = argmax(rows, argx::spec{.dims = {1}, .ties = argx::tie_break::first});
    CHECK(r.indices == std::vector<std::int64_t>{row_b[0] - 1, row_b[1] - 1, row_b[2] - 1});
    r = argmax(rows, argx::spec{.dims = {-1}, .ties = argx::tie_break::last});
    CHECK(r.indices == std::vector<std::int64_t>{row_b[0], row_b[1], row_b[2]});

    // Columns: reduce dim 0 of an (R, 3) matrix (a strided reduction).
    host_tensor cols = make_filled(t, low(t), {r_len, 3});
    for (int j = 0; j < 3; ++j) {
      set_flat(cols, (row_b[j] - 1) * 3 + j, high(t));
      set_flat(cols, row_b[j] * 3 + j, high(t));
    }
    r = argmax(cols, argx::spec{.dims = {0}, .ties = argx::tie_break::first});
    CHECK(r.indices == std::vector<std::int64_t>{row_b[0] - 1, row_b[1] - 1, row_b[2] - 1});
    r = argmax(cols, argx::spec{.dims = {0}, .ties = argx::tie_break::last});
    CHECK(r.indices == std::vector<std::int64_t>{row_b[0], row_b[1], row_b[2]});

    // Two reduced dims that cannot merge (dims 0 and 2 of (256, 2, 257)): positions are
    // row-major over (256, 257), and the tie straddles position 2^15.
    host_tensor g = make_filled(t, low(t), {256, 2, 257});
    const std::int64_t p0 = (1 << 15) - 1, p1 = 1 << 15;
    for (std::int64_t k = 0; k < 2; ++k) {
      set_flat(g, (p0 / 257) * 514 + k * 257 + p0 % 257, high(t));
      set_flat(g, (p1 / 257) * 514 + k * 257 + p1 % 257, high(t));
    }
    r = argmax(g, argx::spec{.dims = {0, 2}, .ties = argx::tie_break::first});
    CHECK(r.indices == std::vector<std::int64_t>{p0, p0});
    r = argmax(g, argx::spec{.dims = {2, 0}, .ties = argx::tie_break::last});
    CHECK(r.indices == std::vector<std::int64_t>{p1, p1});
  }
}

TEST_CASE("boundaries: many outputs, each split across threads or not") {
  // 9 rows of 2^14 + 1: more outputs than TBB's row split threshold, each row one grain.
  for (std::int64_t rows : {9, 17}) {
    const std::int64_t len = (1 << 14) + 1;
    host_tensor x = make_filled(dtype::f32, encode(dtype::f32, -1), {rows, len});
    std::vector<std::int64_t> want;
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t p = (i * 4099) % len;  // a different position in every row
      set_flat(x, i * len + p, encode(dtype::f32, 5));
      set_flat(x, i * len + len - 1, encode(dtype::f32, 5));
      want.push_back(p);
    }
    argx::spec s;
    s.dims = {1};
    CHECK(argmax(x, s).indices == want);
  }
}

TEST_CASE("boundaries: N×1 and 1×N with N > 32767 and > 65535") {
  for (std::int64_t n : {32768, 70001}) {
    INFO("N = ", n);
    host_tensor x = make_filled(dtype::f16, encode(dtype::f16, 1), {n, 1});
    set_flat(x, n - 2, encode(dtype::f16, 2));
    argx::spec s;
    s.dims = {0};
    CHECK(argmax(x, s).indices == std::vector<std::int64_t>{n - 2});
    s.dims = {1};
    auto r = argmax(x, s);  // n slices of one element
    CHECK(r.extents == argx::shape{n});
    CHECK(r.indices == std::vector<std::int64_t>(n, 0));
    const host_tensor xt = x.transposed(0, 1);  // 1×N
    s.dims = {1};
    CHECK(argmax(xt, s).indices == std::vector<std::int64_t>{n - 2});
    s.dims = {0};
    CHECK(argmin(xt, s).indices == std::vector<std::int64_t>(n, 0));

    // N rows of two elements: row i prefers the second element when i % 3 == 1, ties otherwise.
    std::vector<double> pairs;
    std::vector<std::int64_t> first, last;
    for (std::int64_t i = 0; i < n; ++i) {
      pairs.push_back(0);
      pairs.push_back(i % 3 == 1 ? 1 : 0);
      first.push_back(i % 3 == 1 ? 1 : 0);
      last.push_back(1);
    }
    const host_tensor p = make_tensor(dtype::u8, pairs, {n, 2});
    s.dims = {1};
    CHECK(argmax(p, s).indices == first);
    s.ties = argx::tie_break::last;
    CHECK(argmax(p, s).indices == last);
  }
}

TEST_CASE("boundaries: columns on both sides of seq's tile of 4096 outputs") {
  // Reducing a non-innermost dim, seq walks a tile of outputs per position; every output of
  // every tile (and of the partial last one) must still see its positions in order.
  rng r(16);
  for (std::int64_t cols : {4095, 4096, 4097, 8193}) {
    for (dtype t : {dtype::f32, dtype::i8, dtype::f16}) {
      INFO("cols = ", cols, ", dtype ", name_of(t));
      const host_tensor x = random_tensor(r, t, {2, 3, cols});
      for (argx::tie_break ties : {argx::tie_break::first, argx::tie_break::last})
        for (argx::nan_policy nan : {argx::nan_policy::propagate, argx::nan_policy::ignore}) {
          const argx::spec col{.dims = {1}, .nan = nan, .ties = ties};
          argmax(x, col);
          argmin(x.flipped(2), col);  // outputs at decreasing addresses
          argmax(x, argx::spec{.dims = {0, 1}, .nan = nan, .ties = ties});  // two reduced dims outside
          argmin(x.sliced(2, 1, cols, 2), argx::spec{.dims = {-3, -2}, .nan = nan, .ties = ties});  // strided outputs
        }
    }
  }
}
