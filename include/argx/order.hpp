// The total order every backend reduces with: an element's bits become an unsigned key,
// larger key wins, equal keys go to the lower position (or the higher, with ties = last).
//
// Keys are computed from raw bits with integer operations only, so host code, device code
// and SIMD lanes cannot disagree: no float compare, no rounding, no flush-to-zero.
// The combine is associative and commutative, so any split of the work gives one answer.
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstdint>
#include <type_traits>

#include "dtype.hpp"

namespace argx {

/// Per-dtype facts the order needs: raw bits type, key type, and float layout.
template <dtype D> struct dtype_traits;

namespace detail {
template <class Bits, class Key, bool Float, bool Signed, Bits SignMask, Bits ExpMask>
struct traits_base {
  using bits_type = Bits;        ///< the element's storage, read as an unsigned integer
  using key_type = Key;          ///< uint32 for elements up to 4 bytes, uint64 above
  static constexpr bool is_float = Float;
  static constexpr bool is_signed = Signed;
  static constexpr Bits sign_mask = SignMask;  ///< top bit (0 for unsigned and bool)
  static constexpr Bits exp_mask = ExpMask;    ///< exponent bits of a float (0 otherwise)
};
}  // namespace detail

template <> struct dtype_traits<dtype::f16> : detail::traits_base<std::uint16_t, std::uint32_t, true, true, 0x8000u, 0x7C00u> {};
template <> struct dtype_traits<dtype::bf16> : detail::traits_base<std::uint16_t, std::uint32_t, true, true, 0x8000u, 0x7F80u> {};
template <> struct dtype_traits<dtype::f32> : detail::traits_base<std::uint32_t, std::uint32_t, true, true, 0x80000000u, 0x7F800000u> {};
template <> struct dtype_traits<dtype::f64> : detail::traits_base<std::uint64_t, std::uint64_t, true, true, 0x8000000000000000ull, 0x7FF0000000000000ull> {};
template <> struct dtype_traits<dtype::i8> : detail::traits_base<std::uint8_t, std::uint32_t, false, true, 0x80u, 0> {};
template <> struct dtype_traits<dtype::i16> : detail::traits_base<std::uint16_t, std::uint32_t, false, true, 0x8000u, 0> {};
template <> struct dtype_traits<dtype::i32> : detail::traits_base<std::uint32_t, std::uint32_t, false, true, 0x80000000u, 0> {};
template <> struct dtype_traits<dtype::i64> : detail::traits_base<std::uint64_t, std::uint64_t, false, true, 0x8000000000000000ull, 0> {};
template <> struct dtype_traits<dtype::u8> : detail::traits_base<std::uint8_t, std::uint32_t, false, false, 0, 0> {};
template <> struct dtype_traits<dtype::u16> : detail::traits_base<std::uint16_t, std::uint32_t, false, false, 0, 0> {};
template <> struct dtype_traits<dtype::u32> : detail::traits_base<std::uint32_t, std::uint32_t, false, false, 0, 0> {};
template <> struct dtype_traits<dtype::u64> : detail::traits_base<std::uint64_t, std::uint64_t, false, false, 0, 0> {};
template <> struct dtype_traits<dtype::boolean> : detail::traits_base<std::uint8_t, std::uint32_t, false, false, 0, 0> {};

/// The storage bits and the key type of dtype D.
template <dtype D>
using dtype_bits_t = typename dtype_traits<D>::bits_type;
template <dtype D>
using dtype_key_t = typename dtype_traits<D>::key_type;

/// How keys are formed for one reduction. Plain data: copied into kernels by value.
struct key_params {
  bool argmin = false;      ///< smaller value wins (keys are complemented)
  bool abs = false;         ///< compare |x|; the element itself is still what is returned
  bool nan_ignore = false;  ///< NaN gets the lowest key instead of the highest
};

/// The key of an element given its raw bits. For every dtype and params:
///  - a NaN (any sign, any payload) has key all-ones (propagate) or 0 (ignore);
///  - every other element has a key strictly between 0 and all-ones for floats;
///  - -0.0 and +0.0 have the same key; keys order as the values they encode.
template <dtype D>
ARGX_HOST_DEVICE constexpr typename dtype_traits<D>::key_type order_key(
    typename dtype_traits<D>::bits_type bits, key_params p) {
  using tr = dtype_traits<D>;
  using B = typename tr::bits_type;
  using K = typename tr::key_type;
  constexpr B all = static_cast<B>(~B(0));
  B mono;  // monotone image of the value in B: unsigned compare == value compare
  if constexpr (tr::is_float) {
    const B mag = static_cast<B>(bits & ~tr::sign_mask);
    if (mag > tr::exp_mask) return p.nan_ignore ? K(0) : static_cast<K>(~K(0));
    if (mag == 0 || p.abs) {
      mono = static_cast<B>(mag | tr::sign_mask);  // +-0 -> +0; |x| is never negative
    } else {
      mono = (bits & tr::sign_mask) ? static_cast<B>(~bits) : static_cast<B>(bits | tr::sign_mask);
    }
  } else if constexpr (D == dtype::boolean) {
    mono = bits != 0 ? B(1) : B(0);
  } else if constexpr (tr::is_signed) {
    if (p.abs) {
      // |x| as an unsigned magnitude: exact even for the most negative value.
      mono = (bits & tr::sign_mask) ? static_cast<B>(B(0) - bits) : bits;
    } else {
      mono = static_cast<B>(bits ^ tr::sign_mask);
    }
  } else {
    mono = bits;
  }
  if (p.argmin) mono = static_cast<B>(mono ^ all);
  return static_cast<K>(mono);
}

/// Key of the winner of an ignore-NaN reduction whose every element was NaN.
template <class K>
ARGX_HOST_DEVICE constexpr bool is_all_nan_key(K key, key_params p, bool is_float) {
  return is_float && p.nan_ignore && key == K(0);
}

/// A candidate answer: an element's key and its position in the reduced slice.
template <class K>
struct candidate {
  K key;
  std::int64_t pos;
};

/// True when (ka, pa) beats (kb, pb): larger key, then lower position (higher with
/// ties_last). Positions of two different elements never compare equal.
template <class K>
ARGX_HOST_DEVICE constexpr bool beats(K ka, std::int64_t pa, K kb, std::int64_t pb, bool ties_last) {
  return ka > kb || (ka == kb && (ties_last ? pa > pb : pa < pb));
}

/// beats() for a candidate met after the best in position order, as a scan meets them: a
/// larger key, or an equal one when ties go to the last position.
template <class K>
ARGX_HOST_DEVICE constexpr bool later_beats(K key, K best_key, bool ties_last) {
  return key > best_key || (ties_last && key == best_key);
}

/// The combine: the better of two candidates. Associative and commutative.
template <class K>
ARGX_HOST_DEVICE constexpr candidate<K> combine(candidate<K> a, candidate<K> b, bool ties_last) {
  return beats(a.key, a.pos, b.key, b.pos, ties_last) ? a : b;
}

/// The seed for an accumulator over a slice of `count` positions: the lowest key at the
/// position that wins ties. Any real element of the slice beats it or ties it at that very
/// position, so it can never be returned unless the answer is that position anyway.
template <class K>
ARGX_HOST_DEVICE constexpr candidate<K> seed(std::int64_t count, bool ties_last) {
  return candidate<K>{K(0), ties_last ? count - 1 : 0};
}

/// The index an output reports for a winner: its position, or -1 for an all-NaN slice
/// under nan_policy::ignore.
template <class K>
ARGX_HOST_DEVICE constexpr std::int64_t reported_index(candidate<K> winner, key_params p, bool is_float) {
  return is_all_nan_key(winner.key, p, is_float) ? std::int64_t(-1) : winner.pos;
}

}  // namespace argx
