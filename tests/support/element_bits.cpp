#include "element_bits.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace argx_test {

using argx::dtype;

argx::detail::bit_layout float_layout_of(dtype t) {
  const argx::detail::bit_layout l = argx::detail::bit_layout_of(t);
  if (!l.is_float)
    throw std::invalid_argument("float_layout_of: " + std::string(argx::name(t)) + " is not a float dtype");
  return l;
}

std::uint64_t width_mask(dtype t) { return argx::detail::bit_layout_of(t).width_mask(); }

namespace {

std::invalid_argument inexact(dtype t, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return std::invalid_argument(std::string("encode: ") + buf + " is not exactly representable in " +
                               std::string(argx::name(t)));
}

std::uint64_t encode_float(dtype t, double v) {
  const argx::detail::bit_layout L = float_layout_of(t);
  const std::uint64_t sign = std::signbit(v) ? L.sign_mask : 0;
  if (std::isnan(v)) return nan_bits(t, std::signbit(v));
  if (std::isinf(v)) return sign | L.exp_mask;
  const double a = std::fabs(v);
  if (a == 0) return sign;
  const int bias = (1 << (L.exp_bits() - 1)) - 1;
  int e;
  std::frexp(a, &e);  // a = m * 2^e with m in [0.5, 1): the unbiased exponent is e - 1
  const int biased = e - 1 + bias;
  if (biased >= (1 << L.exp_bits()) - 1) throw inexact(t, v);
  double frac;
  std::uint64_t exp_field;
  if (biased >= 1) {
    frac = std::ldexp(a, L.frac_bits() - (e - 1)) - std::ldexp(1.0, L.frac_bits());
    exp_field = static_cast<std::uint64_t>(biased);
  } else {  // subnormal: a = frac * 2^(1 - bias - frac_bits)
    frac = std::ldexp(a, L.frac_bits() + bias - 1);
    exp_field = 0;
  }
  if (frac != std::floor(frac) || frac < 0 || frac >= std::ldexp(1.0, L.frac_bits())) throw inexact(t, v);
  return sign | (exp_field << L.frac_bits()) | static_cast<std::uint64_t>(frac);
}

std::uint64_t encode_int(dtype t, double v) {
  if (std::isnan(v) || v != std::floor(v)) throw inexact(t, v);
  if (t == dtype::boolean) {
    if (v != 0 && v != 1) throw inexact(t, v);
    return v != 0;
  }
  const int bits = static_cast<int>(argx::size_of(t)) * 8;
  const bool is_signed = t == dtype::i8 || t == dtype::i16 || t == dtype::i32 || t == dtype::i64;
  const double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hi = is_signed ? std::ldexp(1.0, bits - 1) : std::ldexp(1.0, bits);  // exclusive
  if (v < lo || v >= hi || std::fabs(v) > std::ldexp(1.0, 53)) throw inexact(t, v);
  const std::uint64_t u = v < 0 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(v))
                                : static_cast<std::uint64_t>(v);
  return u & width_mask(t);
}

}  // namespace

std::uint64_t encode(dtype t, double v) { return argx::is_floating(t) ? encode_float(t, v) : encode_int(t, v); }

bool is_nan(dtype t, std::uint64_t bits) {
  if (!argx::is_floating(t)) return false;
  const argx::detail::bit_layout L = float_layout_of(t);
  return (bits & L.exp_mask) == L.exp_mask && (bits & L.frac_mask()) != 0;
}

double float_value(dtype t, std::uint64_t bits) {
  if (!argx::is_floating(t)) {
    const bool is_signed = t == dtype::i8 || t == dtype::i16 || t == dtype::i32 || t == dtype::i64;
    return is_signed ? static_cast<double>(signed_value(t, bits)) : static_cast<double>(unsigned_value(t, bits));
  }
  const argx::detail::bit_layout L = float_layout_of(t);
  if (is_nan(t, bits)) throw std::invalid_argument("float_value: NaN has no value");
  const double sign = (bits & L.sign_mask) ? -1.0 : 1.0;
  const std::uint64_t exp_field = (bits & L.exp_mask) >> L.frac_bits();
  const std::uint64_t frac = bits & L.frac_mask();
  const int bias = (1 << (L.exp_bits() - 1)) - 1;
  if (exp_field == (std::uint64_t(1) << L.exp_bits()) - 1) return sign * HUGE_VAL;
  if (exp_field == 0) return sign * std::ldexp(static_cast<double>(frac), 1 - bias - L.frac_bits());
  return sign * std::ldexp(static_cast<double>(frac | (std::uint64_t(1) << L.frac_bits())),
                           static_cast<int>(exp_field) - bias - L.frac_bits());
}

std::int64_t signed_value(dtype t, std::uint64_t bits) {
  const int width = static_cast<int>(argx::size_of(t)) * 8;
  if (width == 64) return static_cast<std::int64_t>(bits);
  const std::uint64_t sign = std::uint64_t(1) << (width - 1);
  bits &= width_mask(t);
  return (bits & sign) ? static_cast<std::int64_t>(bits | ~width_mask(t)) : static_cast<std::int64_t>(bits);
}

std::uint64_t unsigned_value(dtype t, std::uint64_t bits) { return bits & width_mask(t); }

std::uint64_t nan_bits(dtype t, bool negative, std::uint64_t payload, bool quiet) {
  const argx::detail::bit_layout l = float_layout_of(t);
  std::uint64_t frac = payload & (l.quiet_bit() - 1);
  if (quiet) frac |= l.quiet_bit();
  if (frac == 0) frac = 1;
  return l.nan(negative, frac);
}
std::uint64_t inf_bits(dtype t, bool negative) { return float_layout_of(t).inf(negative); }
std::uint64_t zero_bits(dtype t, bool negative) { return float_layout_of(t).zero(negative); }
std::uint64_t min_subnormal_bits(dtype t, bool negative) { return zero_bits(t, negative) | 1; }
std::uint64_t max_subnormal_bits(dtype t, bool negative) {
  return zero_bits(t, negative) | float_layout_of(t).frac_mask();
}
std::uint64_t max_finite_bits(dtype t, bool negative) { return float_layout_of(t).max_finite(negative); }

// Floats have no integer extremes: 0 and all ones, as for unsigned integers.
std::uint64_t int_min_bits(dtype t) { return argx::is_floating(t) ? 0 : argx::detail::bit_layout_of(t).int_min(); }
std::uint64_t int_max_bits(dtype t) {
  return argx::is_floating(t) ? width_mask(t) : argx::detail::bit_layout_of(t).int_max();
}

std::uint64_t load_bits(dtype t, const void* p) {
  switch (argx::size_of(t)) {
    case 1: { std::uint8_t v; std::memcpy(&v, p, 1); return v; }
    case 2: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { std::uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

void store_bits(dtype t, void* p, std::uint64_t bits) {
  switch (argx::size_of(t)) {
    case 1: { auto v = static_cast<std::uint8_t>(bits); std::memcpy(p, &v, 1); break; }
    case 2: { auto v = static_cast<std::uint16_t>(bits); std::memcpy(p, &v, 2); break; }
    case 4: { auto v = static_cast<std::uint32_t>(bits); std::memcpy(p, &v, 4); break; }
    default: std::memcpy(p, &bits, 8); break;
  }
}

std::string hex_bits(dtype t, std::uint64_t bits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(argx::size_of(t) * 2),
                static_cast<unsigned long long>(bits & width_mask(t)));
  return buf;
}

}  // namespace argx_test
