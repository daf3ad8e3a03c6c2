// Elements as raw bits, for writing test inputs and reading answers bit for bit.
//
// Test vectors are written as doubles and encoded exactly into each dtype (an inexact
// value is a test-writing mistake and throws). Special values (NaN payloads, -0.0,
// subnormals, infinities) are built from their bit layout, not from arithmetic.
#pragma once

#include <cstdint>
#include <string>

#include <argx/detail/bit_layout.hpp>
#include <argx/dtype.hpp>

namespace argx_test {

/// Bit layout of f16, bf16, f32 or f64 (throws for other dtypes).
argx::detail::bit_layout float_layout_of(argx::dtype t);

/// The bits of `v` in dtype `t`. Exact only: throws std::invalid_argument when `v` is not
/// representable (or is NaN for an integer type). NaN encodes as the quiet NaN with
/// zero payload and the NaN's sign (so -NAN gives a NaN with the sign bit set).
std::uint64_t encode(argx::dtype t, double v);

/// True when `bits` is a NaN of floating dtype `t` (false for integer dtypes).
bool is_nan(argx::dtype t, std::uint64_t bits);
/// The value of non-NaN bits as a double: exact for every float dtype and for integers
/// up to 2^53 in magnitude (use signed_value/unsigned_value for wide integers).
double float_value(argx::dtype t, std::uint64_t bits);
/// Integer dtypes: the value, sign-extended or zero-extended.
std::int64_t signed_value(argx::dtype t, std::uint64_t bits);
std::uint64_t unsigned_value(argx::dtype t, std::uint64_t bits);

// ---- special bit patterns of floating dtypes ----------------------------------------
/// A NaN: quiet or signalling, with the given sign and payload (payload is masked to the
/// fraction, and a signalling NaN with zero payload gets payload 1 so it stays a NaN).
std::uint64_t nan_bits(argx::dtype t, bool negative = false, std::uint64_t payload = 0, bool quiet = true);
std::uint64_t inf_bits(argx::dtype t, bool negative = false);
std::uint64_t zero_bits(argx::dtype t, bool negative = false);
/// Smallest or largest subnormal magnitude.
std::uint64_t min_subnormal_bits(argx::dtype t, bool negative = false);
std::uint64_t max_subnormal_bits(argx::dtype t, bool negative = false);
std::uint64_t max_finite_bits(argx::dtype t, bool negative = false);

/// Integer dtypes: the bits of the minimum and maximum value.
std::uint64_t int_min_bits(argx::dtype t);
std::uint64_t int_max_bits(argx::dtype t);

/// All-ones mask of size_of(t) bytes.
std::uint64_t width_mask(argx::dtype t);

/// Reads / writes one element of `t` at byte address `p` as zero-extended bits.
std::uint64_t load_bits(argx::dtype t, const void* p);
void store_bits(argx::dtype t, void* p, std::uint64_t bits);

/// "0x7fc0" style hex of the element's bits, for failure messages.
std::string hex_bits(argx::dtype t, std::uint64_t bits);

}  // namespace argx_test
