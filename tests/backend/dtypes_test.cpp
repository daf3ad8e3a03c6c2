// Per-dtype rules: integers and bool compare as values, abs (including the most negative
// integer and -0.0), half/bfloat16/float/double compared exactly (no value may be rounded
// into a tie with its neighbour, no subnormal flushed), and values returned bit for bit
// (NaN payloads, signalling NaNs and signs included).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "element_bits.hpp"
#include "harness.hpp"

using namespace argx_test;
using argx::dtype;

namespace {

using idx = std::int64_t;

argx::spec options(bool abs, argx::tie_break ties = argx::tie_break::first,
                   argx::nan_policy nan = argx::nan_policy::propagate) {
  argx::spec s;
  s.abs = abs;
  s.ties = ties;
  s.nan = nan;
  return s;
}
const argx::spec plain = options(false);
const argx::spec last = options(false, argx::tie_break::last);
const argx::spec abs_ = options(true);
const argx::spec abs_last = options(true, argx::tie_break::last);

idx max_index(const host_tensor& x, const argx::spec& s = plain) { return argmax(x, s).indices.at(0); }
idx min_index(const host_tensor& x, const argx::spec& s = plain) { return argmin(x, s).indices.at(0); }

bool is_signed(dtype t) { return t == dtype::i8 || t == dtype::i16 || t == dtype::i32 || t == dtype::i64; }

}  // namespace

TEST_CASE("dtypes: integers compare as their values") {
  for (dtype t : integer_dtypes()) {
    if (t == dtype::boolean) continue;
    INFO(name_of(t));
    const std::uint64_t lo = int_min_bits(t), hi = int_max_bits(t);
    const host_tensor x = make_tensor_bits(t, {encode(t, 1), lo, hi, encode(t, 0), hi, lo});
    CHECK(max_index(x) == 2);
    CHECK(max_index(x, last) == 4);
    CHECK(min_index(x) == 1);
    CHECK(min_index(x, last) == 5);
    if (is_signed(t)) {
      const host_tensor neg = make_tensor(t, {-3, -1, -2, -1});
      CHECK(max_index(neg) == 1);
      CHECK(max_index(neg, last) == 3);
      CHECK(min_index(neg) == 0);
    }
  }
}

TEST_CASE("dtypes: bool") {
  const host_tensor x = make_tensor(dtype::boolean, {0, 1, 1, 0});
  CHECK(max_index(x) == 1);
  CHECK(max_index(x, last) == 2);
  CHECK(min_index(x) == 0);
  CHECK(min_index(x, last) == 3);
  CHECK(max_index(x, abs_) == 1);
  // Any nonzero byte is true (as numpy reads it): 2 and 1 tie, and the byte comes back as is.
  const host_tensor odd = make_tensor_bits(dtype::boolean, {0, 2, 1});
  const outcome r = argmax(odd);
  CHECK(r.indices[0] == 1);
  CHECK(r.value_bits[0] == 2);
  CHECK(max_index(odd, last) == 2);
}

TEST_CASE("dtypes: wide integers are compared exactly, not through floating point") {
  const std::uint64_t p53 = std::uint64_t(1) << 53;
  CHECK(max_index(make_tensor_bits(dtype::i64, {p53 + 1, p53, p53 + 1}, {3})) == 0);
  CHECK(max_index(make_tensor_bits(dtype::i64, {p53, p53 + 1})) == 1);
  CHECK(min_index(make_tensor_bits(dtype::i64, {p53 + 1, p53})) == 1);
  CHECK(max_index(make_tensor_bits(dtype::u64, {~std::uint64_t(1), ~std::uint64_t(0), ~std::uint64_t(2)})) == 1);
  CHECK(min_index(make_tensor_bits(dtype::u64, {~std::uint64_t(1), ~std::uint64_t(0), ~std::uint64_t(2)})) == 2);
  CHECK(max_index(make_tensor_bits(dtype::i64, {int_max_bits(dtype::i64) - 1, int_max_bits(dtype::i64)})) == 1);
  CHECK(min_index(make_tensor_bits(dtype::i64, {int_min_bits(dtype::i64) + 1, int_min_bits(dtype::i64)})) == 1);
  // 2^24 + 1 rounds to 2^24 in float.
  CHECK(max_index(make_tensor(dtype::i32, {16777216, 16777217})) == 1);
  CHECK(max_index(make_tensor(dtype::u32, {16777216, 16777217})) == 1);
}

TEST_CASE("dtypes: abs on signed integers, including the most negative value") {
  for (dtype t : integer_dtypes()) {
    INFO(name_of(t));
    if (!is_signed(t)) {  // abs is the identity for unsigned and bool
      const host_tensor u = make_tensor(t, {0, 1, 1, 0});
      CHECK(max_index(u, abs_) == 1);
      CHECK(min_index(u, abs_last) == 3);
      continue;
    }
    const std::uint64_t lo = int_min_bits(t), hi = int_max_bits(t);
    // |MIN| = MAX + 1: the most negative value has the largest magnitude.
    const host_tensor x = make_tensor_bits(t, {hi, lo, hi});
    const outcome r = argmax(x, abs_);
    CHECK(r.indices[0] == 1);
    CHECK(r.value_bits[0] == lo);  // the element itself, not its magnitude
    CHECK(min_index(x, abs_) == 0);
    CHECK(min_index(x, abs_last) == 2);
    // |-3| = |3| ties, |-2| = |2| ties.
    const host_tensor y = make_tensor(t, {-3, 2, -2, 3});
    CHECK(max_index(y, abs_) == 0);
    CHECK(max_index(y, abs_last) == 3);
    CHECK(min_index(y, abs_) == 1);
    CHECK(min_index(y, abs_last) == 2);
    CHECK(argmin(y, abs_last).value_bits[0] == encode(t, -2));
    // Without abs the same data orders by sign.
    CHECK(max_index(y) == 3);
    CHECK(min_index(y) == 0);
  }
}

TEST_CASE("dtypes: abs on floats") {
  for (dtype t : float_dtypes()) {
    INFO(name_of(t));
    const host_tensor z = make_tensor_bits(t, {zero_bits(t, true), zero_bits(t, false)});
    outcome r = argmax(z, abs_);
    CHECK(r.indices[0] == 0);
    CHECK(r.value_bits[0] == zero_bits(t, true));
    CHECK(min_index(z, abs_last) == 1);

    const host_tensor x = make_tensor(t, {-5, 3, 5, -0.5, 0.5});
    r = argmax(x, abs_);
    CHECK(r.indices[0] == 0);
    CHECK(r.value_bits[0] == encode(t, -5));
    CHECK(max_index(x, abs_last) == 2);
    CHECK(min_index(x, abs_) == 3);
    CHECK(min_index(x, abs_last) == 4);

    const host_tensor inf = make_tensor_bits(t, {max_finite_bits(t), inf_bits(t, true), inf_bits(t)});
    r = argmax(inf, abs_);
    CHECK(r.indices[0] == 1);
    CHECK(r.value_bits[0] == inf_bits(t, true));
    CHECK(min_index(inf, abs_) == 0);

    // NaN is still NaN under abs: it wins (propagate) or never wins (ignore).
    const host_tensor n = make_tensor_bits(t, {inf_bits(t, true), nan_bits(t, true), encode(t, 1)});
    CHECK(max_index(n, abs_) == 1);
    CHECK(min_index(n, abs_) == 1);
    CHECK(max_index(n, options(true, argx::tie_break::first, argx::nan_policy::ignore)) == 0);
    CHECK(min_index(n, options(true, argx::tie_break::first, argx::nan_policy::ignore)) == 2);
  }
}

TEST_CASE("dtypes: half and bfloat16 compare exactly from their bits") {
  const dtype h = dtype::f16, b = dtype::bf16;
  // ±0 are distinct bit patterns with equal values: a tie.
  for (dtype t : {h, b}) {
    CHECK(max_index(make_tensor_bits(t, {0x8000, 0x0000})) == 0);
    CHECK(max_index(make_tensor_bits(t, {0x8000, 0x0000}), last) == 1);
    CHECK(min_index(make_tensor_bits(t, {0x0000, 0x8000}), last) == 1);
  }
  // Neighbours one ulp apart are never a tie.
  CHECK(max_index(make_tensor_bits(h, {0x3C00, 0x3C01, 0x3C00})) == 1);  // 1.0, 1.0009765625
  CHECK(min_index(make_tensor_bits(h, {0x3C01, 0x3C00, 0x3C01})) == 1);
  CHECK(max_index(make_tensor_bits(b, {0x3F80, 0x3F81, 0x3F80})) == 1);  // 1.0, 1.0078125
  CHECK(min_index(make_tensor_bits(b, {0xBF80, 0xBF81})) == 1);           // -1.0, -1.0078125
  CHECK(max_index(make_tensor_bits(h, {0x7BFE, 0x7BFF})) == 1);           // 65472, 65504 (largest)
  CHECK(max_index(make_tensor_bits(h, {0x7BFF, 0x7C00})) == 1);           // 65504 < inf
  CHECK(max_index(make_tensor_bits(b, {0x7F7E, 0x7F7F})) == 1);           // the two largest bf16
  // f16 values that would tie after rounding to bfloat16 (8 bits of precision).
  CHECK(max_index(make_tensor(h, {1.0, 1.001953125, 1.0009765625})) == 1);
  CHECK(min_index(make_tensor(h, {1.001953125, 1.0, 1.0009765625})) == 1);
  // bf16 values far outside the f16 range still order exactly.
  CHECK(max_index(make_tensor(b, {std::ldexp(1.0, 100), std::ldexp(1.0078125, 100)})) == 1);
  CHECK(min_index(make_tensor(b, {std::ldexp(1.0, -120), std::ldexp(1.0078125, -120)})) == 0);
  // Subnormals are values: the smallest beats zero, and neighbours differ.
  for (dtype t : float_dtypes()) {
    INFO(name_of(t));
    CHECK(max_index(make_tensor_bits(t, {zero_bits(t), min_subnormal_bits(t)})) == 1);
    CHECK(min_index(make_tensor_bits(t, {zero_bits(t, true), min_subnormal_bits(t, true)})) == 1);
    CHECK(max_index(make_tensor_bits(t, {min_subnormal_bits(t) + 1, min_subnormal_bits(t)})) == 0);
    CHECK(max_index(make_tensor_bits(t, {max_subnormal_bits(t), max_subnormal_bits(t) + 1})) == 1);
    CHECK(min_index(make_tensor_bits(t, {max_subnormal_bits(t, true), max_subnormal_bits(t, true) + 1})) == 1);
  }
  // Doubles one ulp apart that are equal as floats.
  CHECK(max_index(make_tensor(dtype::f64, {1.0, 1.0 + std::ldexp(1.0, -52), 1.0})) == 1);
  CHECK(min_index(make_tensor(dtype::f32, {1.0f, 1.0 - std::ldexp(1.0, -24)})) == 1);
}

TEST_CASE("dtypes: values come back bit for bit") {
  for (dtype t : float_dtypes()) {
    INFO(name_of(t));
    // Signalling NaNs must not be quieted and payloads must survive.
    const std::uint64_t snan = nan_bits(t, false, 1, false), qnan_neg = nan_bits(t, true, 3);
    const host_tensor x = make_tensor_bits(t, {encode(t, 2), snan, qnan_neg, min_subnormal_bits(t, true)});
    outcome r = argmax(x);
    CHECK(hex_bits(t, r.value_bits[0]) == hex_bits(t, snan));
    r = argmin(x, last);
    CHECK(r.indices[0] == 2);
    CHECK(hex_bits(t, r.value_bits[0]) == hex_bits(t, qnan_neg));
    argx::spec ign = options(false, argx::tie_break::first, argx::nan_policy::ignore);
    r = argmin(x, ign);
    CHECK(r.indices[0] == 3);
    CHECK(hex_bits(t, r.value_bits[0]) == hex_bits(t, min_subnormal_bits(t, true)));
    // All NaN, ignore: index -1 (also as int32) and the first NaN's bits.
    const host_tensor all = make_tensor_bits(t, {snan, qnan_neg}, {1, 2});
    ign.dims = {1};
    ign.index = argx::index_type::int32;
    r = argmax(all, ign);
    CHECK(r.indices[0] == -1);
    CHECK(hex_bits(t, r.value_bits[0]) == hex_bits(t, snan));
  }
  for (dtype t : integer_dtypes()) {
    INFO(name_of(t));
    const host_tensor x = make_tensor_bits(t, {int_max_bits(t), int_min_bits(t)});
    CHECK(argmax(x).value_bits[0] == int_max_bits(t));
    CHECK(argmin(x).value_bits[0] == int_min_bits(t));
  }
}
