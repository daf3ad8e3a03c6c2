// Element level: raw bits, 16-byte vector loads, keys, and the value-domain shortcut of
// plain reductions (value_ops). Included by the thread level (the scans).
//
// The shortcut: with abs and nan_ignore off ("plain"), order_key orders non-NaN values
// exactly as the values order (±0 equal) and puts every NaN above them. So the element of
// a vector with the largest key can be found with the hardware's NaN-propagating max (min
// for argmin), a packed instruction for two halves; order_key is then taken of that one
// element, and keys decide everything else (which vector, ties, reported index). The
// result is the same bits as evaluating order_key on every element; the oracle tests
// check it.
#pragma once

#include <cstdint>
#include <cstring>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <argx/order.hpp>

#include "bytes.hpp"

namespace argx::detail::gpu {

/// Elements in one 16-byte vector load (4 floats, 8 halves, 16 bytes...).
template <dtype D>
inline constexpr int vec_elems = static_cast<int>(16 / sizeof(dtype_bits_t<D>));

/// 16 bytes of elements as four 32-bit words; at(j) is element j's bits.
template <dtype D>
struct vec {
  std::uint32_t w[4];

  __device__ __forceinline__ dtype_bits_t<D> at(int j) const {
    constexpr int size = sizeof(dtype_bits_t<D>);
    if constexpr (size == 8) return w[2 * j] | (static_cast<std::uint64_t>(w[2 * j + 1]) << 32);
    if constexpr (size == 4) return w[j];
    if constexpr (size == 2) return static_cast<dtype_bits_t<D>>(w[j / 2] >> (16 * (j % 2)));
    if constexpr (size == 1) return static_cast<dtype_bits_t<D>>(w[j / 4] >> (8 * (j % 4)));
  }
};

/// One 16-byte load (p must be 16-byte aligned), through the read-only path.
template <dtype D>
__device__ __forceinline__ vec<D> load_vec(const dtype_bits_t<D>* p) {
  const uint4 raw = __ldg(reinterpret_cast<const uint4*>(p));
  return vec<D>{{raw.x, raw.y, raw.z, raw.w}};
}

/// Copies the aligned 16-byte vector at `from` (global memory) to `to` (shared memory)
/// without holding it in registers: an asynchronous copy (sm_80 and later), complete once
/// async_copies_wait_all returns; older architectures load and store it at once.
__device__ __forceinline__ void copy_vec_async(void* to, const void* from) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned shared = static_cast<unsigned>(__cvta_generic_to_shared(to));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared), "l"(from) : "memory");
#else
  *static_cast<uint4*>(to) = __ldg(static_cast<const uint4*>(from));
#endif
}

/// Waits until every copy_vec_async copy of this thread has landed (a barrier then makes
/// them the block's).
__device__ __forceinline__ void async_copies_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

/// The key parameters a loop is compiled for: plain loops know abs and nan_ignore are off,
/// so order_key folds to a few instructions; argmin stays a run-time flag.
template <bool Plain>
__device__ __forceinline__ key_params loop_keys(key_params kp) {
  if constexpr (Plain) return key_params{kp.argmin, false, false};
  return kp;
}

// ---- the value-domain shortcut of plain reductions -------------------------------------------

namespace value_ops_detail {

// The larger of a and b, or the canonical NaN (0x7fffffff) when either is NaN.
__device__ __forceinline__ float max_nan(float a, float b) {
#if __CUDA_ARCH__ >= 800
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else  // max.NaN needs sm_80: fmaxf (the same on numbers, ±0 included) after a NaN test
  return a != a || b != b ? __int_as_float(0x7fffffff) : fmaxf(a, b);
#endif
}

template <class T>
__device__ __forceinline__ T from_bits(std::uint32_t w) {
  T t;
  std::memcpy(&t, &w, 4);
  return t;
}
template <class T>
__device__ __forceinline__ std::uint32_t to_bits(T t) {
  std::uint32_t w;
  std::memcpy(&w, &t, 4);
  return w;
}

// Packed halves (T2 = __half2 or __nv_bfloat162): NaN-propagating max of 8 elements.
template <class T2>
__device__ __forceinline__ std::uint16_t best_of_halves(const std::uint32_t (&w)[4], std::uint32_t flip2) {
  const T2 a = __hmax2_nan(from_bits<T2>(w[0] ^ flip2), from_bits<T2>(w[1] ^ flip2));
  const T2 b = __hmax2_nan(from_bits<T2>(w[2] ^ flip2), from_bits<T2>(w[3] ^ flip2));
  const std::uint32_t m = to_bits(__hmax2_nan(a, b));
  const T2 lo = from_bits<T2>(m & 0xffffu), hi = from_bits<T2>(m >> 16);
  return static_cast<std::uint16_t>(to_bits(__hmax2_nan(lo, hi)) & 0xffffu);
}

// The larger (NaN-propagating) of two packed halves a, b, as the bits of one half.
template <class T2>
__device__ __forceinline__ std::uint16_t better_of_halves(std::uint16_t a, std::uint16_t b, std::uint16_t flip) {
  const std::uint32_t two = (static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b) << 16) ^ (flip * 0x10001u);
  const T2 m = from_bits<T2>(two);
  return static_cast<std::uint16_t>(to_bits(__hmax2_nan(m, __lowhigh2highlow(m))) & 0xffffu) ^ flip;
}

// A half's value as a float (exact).
template <dtype D>
__device__ __forceinline__ float half_to_float(std::uint16_t h) {
  if constexpr (D == dtype::f16) return __half2float(__ushort_as_half(h));
  return __uint_as_float(static_cast<std::uint32_t>(h) << 16);
}

// Two 64-bit elements as one 16-byte vector, so a vector's best serves for a pair.
template <dtype D>
__device__ __forceinline__ vec<D> two_elements(std::uint64_t a, std::uint64_t b) {
  return vec<D>{{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32), static_cast<std::uint32_t>(b),
                 static_cast<std::uint32_t>(b >> 32)}};
}

}  // namespace value_ops_detail

/// Value-domain operations of a plain reduction of dtype D (abs and nan_ignore off):
///  flip(argmin): a mask that, xor-ed into the bits, turns "smallest" into "largest";
///  best(x, f):   bits of an element of x with the largest key (a canonical NaN if any is NaN);
///  better(a, b, f): bits of whichever of two elements has the larger key (either on a tie);
///  f32 and f64 also: later_beats (value compares for a running best over ascending
///  positions: order.hpp's later_beats in the value domain);
///  same_key(a, b): order_key(a) == order_key(b).
template <dtype D>
struct value_ops;

template <>
struct value_ops<dtype::f32> {
  static __device__ __forceinline__ std::uint32_t flip(bool argmin) { return argmin ? 0x80000000u : 0u; }
  static __device__ __forceinline__ std::uint32_t best(const vec<dtype::f32>& x, std::uint32_t f) {
    using value_ops_detail::max_nan;
    const float m = max_nan(max_nan(__uint_as_float(x.w[0] ^ f), __uint_as_float(x.w[1] ^ f)),
                            max_nan(__uint_as_float(x.w[2] ^ f), __uint_as_float(x.w[3] ^ f)));
    return __float_as_uint(m) ^ f;
  }
  static __device__ __forceinline__ std::uint32_t better(std::uint32_t a, std::uint32_t b, std::uint32_t f) {
    return __float_as_uint(value_ops_detail::max_nan(__uint_as_float(a ^ f), __uint_as_float(b ^ f))) ^ f;
  }
  /// Whether x, at a later position than b, replaces it: a larger key, or an equal one
  /// with ties_last (NaN above every value, ±0 equal).
  template <bool TiesLast>
  static __device__ __forceinline__ bool later_beats(std::uint32_t x, std::uint32_t b, std::uint32_t f) {
    const float xf = __uint_as_float(x ^ f), bf = __uint_as_float(b ^ f);
    if constexpr (TiesLast) return xf >= bf || xf != xf;
    return !(xf <= bf) && bf == bf;
  }
  static __device__ __forceinline__ bool same_key(std::uint32_t a, std::uint32_t b) {
    const float x = __uint_as_float(a), y = __uint_as_float(b);
    return x == y || (x != x && y != y);
  }
};

template <>
struct value_ops<dtype::f64> {
  static __device__ __forceinline__ std::uint64_t flip(bool argmin) { return argmin ? 0x8000000000000000ull : 0ull; }
  static __device__ __forceinline__ std::uint64_t best(const vec<dtype::f64>& x, std::uint64_t f) {
    const double a = __longlong_as_double(static_cast<long long>(x.at(0) ^ f));
    const double b = __longlong_as_double(static_cast<long long>(x.at(1) ^ f));
    if (a != a || b != b) return 0x7ff8000000000000ull;
    return static_cast<std::uint64_t>(__double_as_longlong(fmax(a, b))) ^ f;
  }
  template <bool TiesLast>
  static __device__ __forceinline__ bool later_beats(std::uint64_t x, std::uint64_t b, std::uint64_t f) {
    const double xf = __longlong_as_double(static_cast<long long>(x ^ f)), bf = __longlong_as_double(static_cast<long long>(b ^ f));
    if constexpr (TiesLast) return xf >= bf || xf != xf;
    return !(xf <= bf) && bf == bf;
  }
  static __device__ __forceinline__ std::uint64_t better(std::uint64_t a, std::uint64_t b, std::uint64_t f) {
    return best(value_ops_detail::two_elements<dtype::f64>(a, b), f);
  }
  static __device__ __forceinline__ bool same_key(std::uint64_t a, std::uint64_t b) {
    const double x = __longlong_as_double(static_cast<long long>(a)), y = __longlong_as_double(static_cast<long long>(b));
    return x == y || (x != x && y != y);
  }
};

// Halves (f16, bf16): packed pairs (T2 = __half2 or __nv_bfloat162), two elements an
// instruction.
template <dtype D, class T2>
struct half_value_ops {
  static __device__ __forceinline__ std::uint16_t flip(bool argmin) { return argmin ? 0x8000u : 0u; }
  static __device__ __forceinline__ std::uint16_t best(const vec<D>& x, std::uint16_t f) {
    return value_ops_detail::best_of_halves<T2>(x.w, f * 0x10001u) ^ f;
  }
  static __device__ __forceinline__ std::uint16_t better(std::uint16_t a, std::uint16_t b, std::uint16_t f) {
    return value_ops_detail::better_of_halves<T2>(a, b, f);
  }
  static __device__ __forceinline__ bool same_key(std::uint16_t a, std::uint16_t b) {
    const float x = value_ops_detail::half_to_float<D>(a), y = value_ops_detail::half_to_float<D>(b);
    return x == y || (x != x && y != y);
  }
};
template <> struct value_ops<dtype::f16> : half_value_ops<dtype::f16, __half2> {};
template <> struct value_ops<dtype::bf16> : half_value_ops<dtype::bf16, __nv_bfloat162> {};

// Integers: xor with all-ones reverses the order (signed and unsigned alike), so argmin is
// a max of flipped bits.
template <dtype D, bool Signed>
struct int_value_ops {
  using B = dtype_bits_t<D>;
  static constexpr int size = sizeof(B);
  static __device__ __forceinline__ B flip(bool argmin) { return argmin ? static_cast<B>(~B(0)) : B(0); }
  static __device__ __forceinline__ std::uint32_t vmax(std::uint32_t a, std::uint32_t b) {
    if constexpr (size == 4) return Signed ? static_cast<std::uint32_t>(max(static_cast<int>(a), static_cast<int>(b))) : max(a, b);
    if constexpr (size == 2) return Signed ? __vmaxs2(a, b) : __vmaxu2(a, b);
    if constexpr (size == 1) return Signed ? __vmaxs4(a, b) : __vmaxu4(a, b);
  }
  static __device__ __forceinline__ B best(const vec<D>& x, B f) {
    const std::uint32_t f4 = static_cast<std::uint32_t>(f) * (size == 4 ? 1u : size == 2 ? 0x10001u : 0x1010101u);
    std::uint32_t m = vmax(vmax(x.w[0] ^ f4, x.w[1] ^ f4), vmax(x.w[2] ^ f4, x.w[3] ^ f4));
    if constexpr (size <= 2) m = vmax(m, m >> 16);
    if constexpr (size == 1) m = vmax(m, m >> 8);
    return static_cast<B>(static_cast<B>(m) ^ f);
  }
  static __device__ __forceinline__ B better(B a, B b, B f) {
    const std::uint32_t m = vmax(static_cast<std::uint32_t>(static_cast<B>(a ^ f)), static_cast<std::uint32_t>(static_cast<B>(b ^ f)));
    return static_cast<B>(static_cast<B>(m) ^ f);
  }
  static __device__ __forceinline__ bool same_key(B a, B b) { return a == b; }
};

template <> struct value_ops<dtype::i8> : int_value_ops<dtype::i8, true> {};
template <> struct value_ops<dtype::i16> : int_value_ops<dtype::i16, true> {};
template <> struct value_ops<dtype::i32> : int_value_ops<dtype::i32, true> {};
template <> struct value_ops<dtype::u8> : int_value_ops<dtype::u8, false> {};
template <> struct value_ops<dtype::u16> : int_value_ops<dtype::u16, false> {};
template <> struct value_ops<dtype::u32> : int_value_ops<dtype::u32, false> {};

// bool: keys are (b != 0); the largest byte is non-zero exactly when some element is.
template <>
struct value_ops<dtype::boolean> : int_value_ops<dtype::boolean, false> {
  static __device__ __forceinline__ bool same_key(std::uint8_t a, std::uint8_t b) { return (a != 0) == (b != 0); }
};

template <dtype D, bool Signed>
struct int64_value_ops {
  static __device__ __forceinline__ std::uint64_t flip(bool argmin) { return argmin ? ~0ull : 0ull; }
  static __device__ __forceinline__ std::uint64_t best(const vec<D>& x, std::uint64_t f) {
    const std::uint64_t a = x.at(0) ^ f, b = x.at(1) ^ f;
    const bool a_wins = Signed ? static_cast<long long>(a) > static_cast<long long>(b) : a > b;
    return (a_wins ? a : b) ^ f;
  }
  static __device__ __forceinline__ std::uint64_t better(std::uint64_t a, std::uint64_t b, std::uint64_t f) {
    return best(value_ops_detail::two_elements<D>(a, b), f);
  }
  static __device__ __forceinline__ bool same_key(std::uint64_t a, std::uint64_t b) { return a == b; }
};
template <> struct value_ops<dtype::i64> : int64_value_ops<dtype::i64, true> {};
template <> struct value_ops<dtype::u64> : int64_value_ops<dtype::u64, false> {};

/// The largest key among a vector's elements: in the value domain for plain loops,
/// order_key on every element otherwise.
template <dtype D, bool Plain>
__device__ __forceinline__ dtype_key_t<D> vec_max_key(const vec<D>& x, key_params kp) {
  if constexpr (Plain) {
    return order_key<D>(value_ops<D>::best(x, value_ops<D>::flip(kp.argmin)), loop_keys<true>(kp));
  } else {
    dtype_key_t<D> m = order_key<D>(x.at(0), kp);
#pragma unroll
    for (int j = 1; j < vec_elems<D>; ++j) {
      const dtype_key_t<D> k = order_key<D>(x.at(j), kp);
      m = k > m ? k : m;
    }
    return m;
  }
}

// ---- parts of vectors: slices that start or end inside one, windows across two ---------

/// Bits of the lowest value of dtype D (its key is at most every other value's key): what
/// the elements of a vector outside a slice become in plain reductions.
template <dtype D>
__host__ __device__ constexpr dtype_bits_t<D> lowest_bits() {
  using tr = dtype_traits<D>;
  if constexpr (D == dtype::f32) return 0xff800000u;
  else if constexpr (D == dtype::f64) return 0xfff0000000000000ull;
  else if constexpr (D == dtype::f16) return 0xfc00u;
  else if constexpr (D == dtype::bf16) return 0xff80u;
  else if constexpr (tr::is_signed) return tr::sign_mask;
  else return 0;
}

/// A vector of element bits e, repeated.
template <dtype D>
__device__ __forceinline__ vec<D> splat(dtype_bits_t<D> e) {
  constexpr int size = sizeof(dtype_bits_t<D>);
  vec<D> v;
  if constexpr (size == 8) {
    v.w[0] = v.w[2] = static_cast<std::uint32_t>(e);
    v.w[1] = v.w[3] = static_cast<std::uint32_t>(e >> 32);
  } else {
    const std::uint32_t word = static_cast<std::uint32_t>(e) * (size == 4 ? 1u : size == 2 ? 0x10001u : 0x1010101u);
    v.w[0] = v.w[1] = v.w[2] = v.w[3] = word;
  }
  return v;
}

/// The largest key among the bytes [lo, hi) of x (whole elements; the others are not part
/// of the slice). Plain reductions replace the others with the lowest value, which can tie
/// a real element but never beat one; callers locate the element among [lo, hi) only.
template <dtype D, bool Plain>
__device__ __forceinline__ dtype_key_t<D> masked_max_key(vec<D> x, int lo, int hi, key_params kp) {
  if (lo == 0 && hi == 16) return vec_max_key<D, Plain>(x, kp);
  if constexpr (Plain) {
    const auto f = value_ops<D>::flip(kp.argmin);
    keep_bytes(x.w, lo, hi, splat<D>(static_cast<dtype_bits_t<D>>(lowest_bits<D>() ^ f)).w);
    return order_key<D>(value_ops<D>::best(x, f), loop_keys<true>(kp));
  } else {
    constexpr int size = sizeof(dtype_bits_t<D>);
    dtype_key_t<D> m = 0;
#pragma unroll
    for (int j = 0; j < vec_elems<D>; ++j) {
      const dtype_key_t<D> k = j * size >= lo && j * size < hi ? order_key<D>(x.at(j), kp) : dtype_key_t<D>(0);
      m = k > m ? k : m;
    }
    return m;
  }
}

/// 1- and 2-byte integers and bool: with abs off, order_key is the bits xor order_key(0)
/// (for bool: zero or not), so the elements holding a key are found by packed compares.
template <dtype D>
inline constexpr bool packed_find = sizeof(dtype_bits_t<D>) <= 2 && !dtype_traits<D>::is_float;

/// Bit j set where element j of x has key `key` (packed_find types, abs off): a packed
/// compare a 32-bit word, its per-element results gathered by a multiply.
template <dtype D>
__device__ __forceinline__ unsigned key_matches(const vec<D>& x, dtype_key_t<D> key, key_params kp) {
  constexpr int size = sizeof(dtype_bits_t<D>);
  const std::uint32_t t = static_cast<std::uint32_t>(key ^ order_key<D>(0, kp));  // the bits holding `key`
  unsigned mask = 0;
#pragma unroll
  for (int w = 0; w < 4; ++w) {
    if constexpr (size == 1) {
      std::uint32_t m;
      if constexpr (D == dtype::boolean)
        m = t != 0 ? __vcmpne4(x.w[w], 0u) : __vcmpeq4(x.w[w], 0u);
      else
        m = __vcmpeq4(x.w[w], t * 0x01010101u);
      mask |= (((m & 0x01010101u) * 0x01020408u) >> 24) << (4 * w);  // byte k's bit -> bit k
    } else {
      const std::uint32_t m = __vcmpeq2(x.w[w], t * 0x10001u) & 0x00010001u;
      mask |= ((m | m >> 15) & 3u) << (2 * w);
    }
  }
  return mask;
}

/// The elements among [lo, hi) (element indices) of x whose key is `key`, a bit each.
template <dtype D>
__device__ __forceinline__ unsigned vec_key_mask(const vec<D>& x, dtype_key_t<D> key, key_params kp, int lo, int hi) {
  const unsigned range = ((1u << hi) - 1u) & ~((1u << lo) - 1u);
  if constexpr (packed_find<D>) {
    if (!kp.abs) return key_matches<D>(x, key, kp) & range;
  }
  unsigned m = 0;
#pragma unroll
  for (int j = 0; j < vec_elems<D>; ++j)
    if (order_key<D>(x.at(j), kp) == key) m |= 1u << j;
  return m & range;
}

/// The element among [lo, hi) of x whose key is `key`: the first, or the last with `last`;
/// -1 when none holds it.
template <dtype D>
__device__ __forceinline__ int vec_find_key_in(const vec<D>& x, dtype_key_t<D> key, key_params kp, int lo, int hi,
                                                bool last) {
  const unsigned m = vec_key_mask<D>(x, key, kp, lo, hi);
  return last ? 31 - __clz(m) : __ffs(m) - 1;  // -1 when none
}

/// The aligned 16-byte vector at p, of which only the bytes in [begin, end) (the tensor's
/// span) are read: one 16-byte load inside the span, element by element at its two ends (the
/// others are zero), so that no byte outside the tensor is touched. Not inlined: it is the
/// rare path, and its registers would otherwise weigh on every loop that may take it.
template <dtype D>
__device__ __noinline__ vec<D> load_vec_in(const dtype_bits_t<D>* p, std::uintptr_t begin, std::uintptr_t end) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  if (at >= begin && at + 16 <= end) return load_vec<D>(p);
  dtype_bits_t<D> e[vec_elems<D>];
#pragma unroll
  for (int j = 0; j < vec_elems<D>; ++j) {
    const std::uintptr_t a = at + j * sizeof(dtype_bits_t<D>);
    e[j] = a >= begin && a < end ? __ldg(p + j) : dtype_bits_t<D>(0);
  }
  vec<D> x;
  std::memcpy(x.w, e, 16);
  return x;
}

/// The aligned 16-byte vector at p when `ok`, zeros otherwise: a predicated load, so that a
/// batch of them is issued back to back (a branch around each would serialize them).
template <dtype D>
__device__ __forceinline__ vec<D> load_vec_if(const dtype_bits_t<D>* p, bool ok) {
  uint4 raw = {0, 0, 0, 0};
  if (ok) raw = __ldg(reinterpret_cast<const uint4*>(p));
  return vec<D>{{raw.x, raw.y, raw.z, raw.w}};
}

/// Whether the aligned 16-byte vector at p lies wholly in the tensor's bytes [begin, end).
__device__ __forceinline__ bool vec_inside(const void* p, std::uintptr_t begin, std::uintptr_t end) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  return at >= begin && at + 16 <= end;
}

/// A window of 16 bytes at p (aligned to the element size only), of which the first `need`
/// bytes are in the tensor, read as one or two aligned vectors and shifted. Loads are
/// predicated; a vector that would reach outside [begin, end) (only at the tensor's two
/// ends) is not read here: `outside` is set and the caller reads the window again with
/// load_window_in after its batch.
template <dtype D>
__device__ __forceinline__ vec<D> load_window_fast(const dtype_bits_t<D>* p, int need, std::uintptr_t begin,
                                                   std::uintptr_t end, bool ok, bool& outside) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const int phase = static_cast<int>(at & 15u);
  const auto* a = reinterpret_cast<const dtype_bits_t<D>*>(at - phase);
  const bool two = phase + need > 16;
  const bool in_a = vec_inside(a, begin, end), in_b = !two || vec_inside(a + vec_elems<D>, begin, end);
  outside = ok && !(in_a && in_b);
  const vec<D> lo = load_vec_if<D>(a, ok && in_a && in_b);
  const vec<D> hi = load_vec_if<D>(a + vec_elems<D>, ok && two && in_a && in_b);
  vec<D> out;
  funnel<static_cast<int>(sizeof(dtype_bits_t<D>))>(lo.w, hi.w, phase, out.w);
  return out;
}

/// Whether every vector the windows from `lo` to `hi` (rows of one batch, lo lowest) read
/// lies in [begin, end): an aligned vector each (Aligned), or two.
template <bool Aligned, class B>
__device__ __forceinline__ bool batch_inside(const B* lo, const B* hi, std::uintptr_t begin, std::uintptr_t end) {
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(lo) & ~std::uintptr_t(15);
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(hi) & ~std::uintptr_t(15);
  return first >= begin && last + (Aligned ? 16 : 32) <= end;
}

/// load_window_fast for a window known to lie inside the tensor (batch_inside): no tests.
template <dtype D>
__device__ __forceinline__ vec<D> load_window_inside(const dtype_bits_t<D>* p, int need) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const int phase = static_cast<int>(at & 15u);
  const auto* a = reinterpret_cast<const dtype_bits_t<D>*>(at - phase);
  const vec<D> lo = load_vec_if<D>(a, true);
  const vec<D> hi = load_vec_if<D>(a + vec_elems<D>, phase + need > 16);
  vec<D> out;
  funnel<static_cast<int>(sizeof(dtype_bits_t<D>))>(lo.w, hi.w, phase, out.w);
  return out;
}

/// The same window, never touching a byte outside [begin, end) (element by element at the
/// tensor's ends).
template <dtype D>
__device__ __forceinline__ vec<D> load_window_in(const dtype_bits_t<D>* p, int need, std::uintptr_t begin,
                                                 std::uintptr_t end) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const int phase = static_cast<int>(at & 15u);
  const auto* a = reinterpret_cast<const dtype_bits_t<D>*>(at - phase);
  const vec<D> lo = load_vec_in<D>(a, begin, end);
  vec<D> hi{{0, 0, 0, 0}};
  if (phase + need > 16) hi = load_vec_in<D>(a + vec_elems<D>, begin, end);
  vec<D> out;
  funnel<static_cast<int>(sizeof(dtype_bits_t<D>))>(lo.w, hi.w, phase, out.w);
  return out;
}

}  // namespace argx::detail::gpu
