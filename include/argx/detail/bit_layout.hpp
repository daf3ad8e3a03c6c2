// Each dtype's bit layout as run-time data, and the special elements it defines: NaN,
// infinities, signed zeros, subnormals and the extremes. The masks are dtype_traits'
// (order.hpp), in the form code needs that holds the dtype in a variable: the random
// inputs of the tests, the CLI's fuzz cases and the CPU self-check.
#pragma once

#include "../config.hpp"  // first: the C++20 check

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include "../dtype.hpp"
#include "../order.hpp"

namespace argx::detail {

/// Where the fields of one dtype's elements lie, as zero-extended 64-bit masks.
struct bit_layout {
  int bytes = 0;
  bool is_float = false, is_signed = false, is_bool = false;
  std::uint64_t sign_mask = 0;  ///< the sign bit of floats and signed integers (0 otherwise)
  std::uint64_t exp_mask = 0;   ///< floats: the exponent field (0 otherwise)

  constexpr std::uint64_t width_mask() const {
    return bytes == 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * bytes)) - 1;
  }
  /// Floats: the fraction field (0 otherwise).
  constexpr std::uint64_t frac_mask() const { return is_float ? (sign_mask - 1) & ~exp_mask : 0; }
  constexpr int exp_bits() const { return std::popcount(exp_mask); }
  constexpr int frac_bits() const { return std::popcount(frac_mask()); }
  /// Floats: the fraction's top bit, the one a quiet NaN has set.
  constexpr std::uint64_t quiet_bit() const { return (frac_mask() + 1) >> 1; }

  constexpr std::uint64_t sign(bool negative) const { return negative ? sign_mask : 0; }
  /// Floats: the NaN with fraction `frac` (non-zero, within frac_mask).
  constexpr std::uint64_t nan(bool negative, std::uint64_t frac) const { return sign(negative) | exp_mask | frac; }
  constexpr std::uint64_t inf(bool negative) const { return sign(negative) | exp_mask; }
  constexpr std::uint64_t zero(bool negative) const { return sign(negative); }
  constexpr std::uint64_t max_finite(bool negative) const {
    return sign(negative) | (exp_mask - (frac_mask() + 1)) | frac_mask();
  }
  /// Integers and bool: the bits of the lowest and the highest value.
  constexpr std::uint64_t int_min() const { return sign_mask; }
  constexpr std::uint64_t int_max() const { return is_bool ? 1 : width_mask() ^ sign_mask; }
};

template <dtype D>
constexpr bit_layout bit_layout_of() {
  using tr = dtype_traits<D>;
  return {static_cast<int>(sizeof(typename tr::bits_type)), tr::is_float, tr::is_signed, D == dtype::boolean,
          tr::sign_mask, tr::exp_mask};
}

namespace layouts {
template <std::size_t... Code>
constexpr std::array<bit_layout, dtype_count> by_code(std::index_sequence<Code...>) {
  return {bit_layout_of<static_cast<dtype>(Code)>()...};
}
inline constexpr std::array<bit_layout, dtype_count> table = by_code(std::make_index_sequence<dtype_count>{});
}  // namespace layouts

/// The layout of dtype t (all zero for a code that is no dtype).
constexpr bit_layout bit_layout_of(dtype t) {
  const auto code = static_cast<std::size_t>(t);
  return code < layouts::table.size() ? layouts::table[code] : bit_layout{};
}

}  // namespace argx::detail
