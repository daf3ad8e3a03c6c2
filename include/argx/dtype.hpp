// Element types argx reduces, and the plain storage types for half and bfloat16.
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace argx {

/// Every element type argx accepts.
enum class dtype : std::uint8_t { f16, bf16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, boolean };

/// Number of dtypes, for tables and loops.
inline constexpr int dtype_count = 13;

/// IEEE 754 binary16, as raw bits. argx compares it exactly from the bits; no arithmetic.
struct half {
  std::uint16_t bits;
};
/// bfloat16 (the top half of a binary32), as raw bits.
struct bfloat16 {
  std::uint16_t bits;
};

/// Size of one element in bytes.
constexpr std::size_t size_of(dtype t) noexcept {
  switch (t) {
    case dtype::f16: case dtype::bf16: case dtype::i16: case dtype::u16: return 2;
    case dtype::f32: case dtype::i32: case dtype::u32: return 4;
    case dtype::f64: case dtype::i64: case dtype::u64: return 8;
    case dtype::i8: case dtype::u8: case dtype::boolean: return 1;
  }
  return 0;
}

/// True for f16, bf16, f32, f64 (the types that have NaN).
constexpr bool is_floating(dtype t) noexcept {
  return t == dtype::f16 || t == dtype::bf16 || t == dtype::f32 || t == dtype::f64;
}

/// Short name, as numpy spells it ("float32", "bfloat16", "bool", ...).
constexpr std::string_view name(dtype t) noexcept {
  switch (t) {
    case dtype::f16: return "float16";
    case dtype::bf16: return "bfloat16";
    case dtype::f32: return "float32";
    case dtype::f64: return "float64";
    case dtype::i8: return "int8";
    case dtype::i16: return "int16";
    case dtype::i32: return "int32";
    case dtype::i64: return "int64";
    case dtype::u8: return "uint8";
    case dtype::u16: return "uint16";
    case dtype::u32: return "uint32";
    case dtype::u64: return "uint64";
    case dtype::boolean: return "bool";
  }
  return "?";
}

/// Inverse of name(); also accepts the short forms f16, bf16, f32, f64, i8.., u8.., bool.
constexpr std::optional<dtype> parse_dtype(std::string_view s) noexcept {
  constexpr std::string_view shorts[dtype_count] = {"f16", "bf16", "f32", "f64", "i8",  "i16", "i32",
                                                     "i64", "u8",   "u16", "u32", "u64", "bool"};
  for (int i = 0; i < dtype_count; ++i) {
    auto t = static_cast<dtype>(i);
    if (s == name(t) || s == shorts[i]) return t;
  }
  return std::nullopt;
}

/// dtype_of<T>: the dtype of a C++ element type (half, bfloat16, float, double, the
/// fixed-width integers, bool).
template <class T> struct dtype_of;
template <> struct dtype_of<half> { static constexpr dtype value = dtype::f16; };
template <> struct dtype_of<bfloat16> { static constexpr dtype value = dtype::bf16; };
template <> struct dtype_of<float> { static constexpr dtype value = dtype::f32; };
template <> struct dtype_of<double> { static constexpr dtype value = dtype::f64; };
template <> struct dtype_of<std::int8_t> { static constexpr dtype value = dtype::i8; };
template <> struct dtype_of<std::int16_t> { static constexpr dtype value = dtype::i16; };
template <> struct dtype_of<std::int32_t> { static constexpr dtype value = dtype::i32; };
template <> struct dtype_of<std::int64_t> { static constexpr dtype value = dtype::i64; };
template <> struct dtype_of<std::uint8_t> { static constexpr dtype value = dtype::u8; };
template <> struct dtype_of<std::uint16_t> { static constexpr dtype value = dtype::u16; };
template <> struct dtype_of<std::uint32_t> { static constexpr dtype value = dtype::u32; };
template <> struct dtype_of<std::uint64_t> { static constexpr dtype value = dtype::u64; };
template <> struct dtype_of<bool> { static constexpr dtype value = dtype::boolean; };
template <class T> inline constexpr dtype dtype_of_v = dtype_of<T>::value;

/// True when T is an element type argx knows.
template <class T>
concept element = requires { dtype_of<T>::value; };

}  // namespace argx
