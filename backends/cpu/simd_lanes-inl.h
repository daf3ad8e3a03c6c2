// Lane-wise building blocks of the SIMD kernels, compiled once per instruction set
// (included by simd_hwy.cpp through Highway's foreach_target).
//
// Exactness rests on integer lanes only: an element is looked at as its raw bits, never
// as a float, so flush-to-zero modes, NaN payloads and -0.0 cannot change an answer.
//  - summarize(): min/max reductions of the raw bits (or of |x|) over a block. For each
//    dtype a small set of them pins down the block's best element exactly (the driver in
//    simd_contig-inl.h picks the set and turns the result into a key with order_key).
//  - keyer: a lane-wise key that orders exactly like order_key (the same key up to a
//    monotone relabelling), for blocks with NaN and for the strided kernel.
//  - find_first/find_last: the first/last lane of a block that matches a winner.

#if defined(ARGX_CPU_SIMD_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ARGX_CPU_SIMD_LANES_INL_H_
#undef ARGX_CPU_SIMD_LANES_INL_H_
#else
#define ARGX_CPU_SIMD_LANES_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>
#include <hwy/cache_control.h>

#include "simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Keeps the compiler from folding one load into every instruction that reads it (GCC
/// otherwise re-reads memory once per reduction, which halves the throughput).
template <class V>
HWY_INLINE V opaque(V v) {
#if HWY_ARCH_X86 && HWY_COMPILER_GCC && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  asm("" : "+v"(v.raw));
#endif
  return v;
}

// ---- element transforms a reduction looks through -----------------------------------------

/// The bits as they are.
struct raw_view {
  template <class V>
  HWY_INLINE V operator()(V v) const { return v; }
};
/// The bits without the sign bit: |x| of a float, still ordered as an unsigned integer.
template <class DU>
struct mag_view {
  hn::Vec<DU> mask;
  explicit mag_view(DU du) : mask(hn::Set(du, static_cast<hn::TFromD<DU>>(~(hn::TFromD<DU>(1) << (sizeof(hn::TFromD<DU>) * 8 - 1))))) {}
  HWY_INLINE hn::Vec<DU> operator()(hn::Vec<DU> v) const { return hn::And(v, mask); }
};
/// |x| of a two's complement integer as an unsigned magnitude (exact for the minimum too).
template <class DU>
struct iabs_view {
  HWY_INLINE hn::Vec<DU> operator()(hn::Vec<DU> v) const {
    const hn::RebindToSigned<DU> di;
    return hn::BitCast(DU(), hn::Abs(hn::BitCast(di, v)));
  }
};

/// A lane-wise key with the order of order_key<D>: key(a) < key(b) exactly when
/// order_key(a) < order_key(b), and equal exactly when those are equal. It is an unsigned
/// integer of the element's width; for floats, NaN maps to all ones (propagate) or zero
/// (ignore) and every number lies strictly between. (order_key itself differs only in
/// that negative floats sit one lower, which no comparison can see.)
template <dtype D, class DU, bool Abs>
struct keyer {
  using T = hn::TFromD<DU>;
  using tr = dtype_traits<D>;
  static_assert(sizeof(T) == sizeof(dtype_bits_t<D>));
  hn::Vec<DU> flip;     ///< xor applied last: the sign bias and argmin's complement
  hn::Vec<DU> nan_key;  ///< floats: the key every NaN gets
  hn::Vec<DU> mag;      ///< floats: all bits but the sign

  keyer(DU du, key_params p)
      : flip(hn::Set(du, static_cast<T>(bias() ^ (p.argmin ? T(~T(0)) : T(0))))),
        nan_key(hn::Set(du, p.nan_ignore ? T(0) : T(~T(0)))),
        mag(hn::Set(du, static_cast<T>(~T(tr::sign_mask)))) {}

  static constexpr T bias() {
    // Signed values (float values, signed integers) are biased into unsigned order by the
    // sign bit; magnitudes (abs) are already unsigned, floats' are kept signed-biased.
    if constexpr (tr::is_float) return T(tr::sign_mask);
    else if constexpr (tr::is_signed) return Abs ? T(0) : T(tr::sign_mask);
    else return T(0);
  }

  HWY_INLINE hn::Vec<DU> operator()(hn::Vec<DU> x) const {
    const DU du;
    const hn::RebindToSigned<DU> di;
    if constexpr (tr::is_float) {
      const auto m = hn::And(x, mag);
      hn::Vec<DU> val = m;
      if constexpr (!Abs) {  // sign-magnitude to two's complement: -0.0 and +0.0 both become 0
        const auto s = hn::BitCast(du, hn::BroadcastSignBit(hn::BitCast(di, x)));
        val = hn::Sub(hn::Xor(m, s), s);
      }
      const auto is_nan = hn::RebindMask(du, hn::Gt(hn::BitCast(di, m), hn::Set(di, static_cast<hn::TFromD<decltype(di)>>(tr::exp_mask))));
      return hn::IfThenElse(is_nan, nan_key, hn::Xor(val, flip));
    } else if constexpr (D == dtype::boolean) {
      return hn::Xor(hn::IfThenZeroElse(hn::Eq(x, hn::Zero(du)), hn::Set(du, T(1))), flip);
    } else if constexpr (tr::is_signed && Abs) {
      return hn::Xor(iabs_view<DU>{}(x), flip);
    } else {
      return hn::Xor(x, flip);
    }
  }
};

/// Calls f(keyer) with the keyer for p (abs is a compile-time choice inside it).
template <dtype D, class DU, class F>
HWY_INLINE void with_keyer(DU du, key_params p, const F& f) {
  if constexpr (dtype_traits<D>::is_signed) {
    if (p.abs) return f(keyer<D, DU, true>(du, p));
  }
  f(keyer<D, DU, false>(du, p));
}

// ---- running bests -----------------------------------------------------------------------

/// One step of running bests, lane by lane: (kk, kv), met later in position order, replaces
/// (key, row) where it beats it (later_beats of order.hpp). Through Max and Eq, which cost
/// less than an unsigned compare on x86.
template <bool TiesLast, class V, class VR>
HWY_INLINE void lane_step(V& key, VR& row, V kk, VR kv) {
  const auto m = hn::Max(key, kk);
  // ties first: a row wins only with a larger key; ties last: also with an equal one.
  row = TiesLast ? hn::IfThenElse(hn::Eq(m, kk), kv, row) : hn::IfThenElse(hn::Eq(m, key), row, kv);
  key = m;
}

// ---- block reductions --------------------------------------------------------------------

/// Which min/max reductions summarize() computes (a bit set).
enum reduction : unsigned { smax = 1, smin = 2, umax = 4, umin = 8 };

/// Results of summarize(), each as the lane's bits (smax/smin hold signed values' bits).
template <class T>
struct summary {
  T smax, smin, umax, umin;
};

/// Largest (smallest) lane of v. 8-bit lanes have no MaxOfLanes here: they are reduced
/// as the 16-bit lanes their pairs make (low bytes and high bytes apart), in the unsigned
/// order (signed lanes are biased into it and back).
template <bool Max, class D>
HWY_INLINE hn::TFromD<D> extreme_lane(D d, hn::Vec<D> v) {
#if HWY_TARGET == HWY_SCALAR
  (void)d;
  return hn::GetLane(v);
#else
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == 1) {
    const hn::Repartition<std::uint16_t, D> d16;
    const hn::RebindToUnsigned<D> du;
    constexpr std::uint8_t bias = std::is_signed_v<T> ? 0x80 : 0;
    const auto w = hn::BitCast(d16, hn::Xor(hn::BitCast(du, v), hn::Set(du, bias)));
    const auto lo = hn::And(w, hn::Set(d16, std::uint16_t(0xFF))), hi = hn::ShiftRight<8>(w);
    const std::uint16_t r = Max ? hn::GetLane(hn::MaxOfLanes(d16, hn::Max(lo, hi)))
                                : hn::GetLane(hn::MinOfLanes(d16, hn::Min(lo, hi)));
    return static_cast<T>(static_cast<std::uint8_t>(r) ^ bias);
  } else {
    return Max ? hn::GetLane(hn::MaxOfLanes(d, v)) : hn::GetLane(hn::MinOfLanes(d, v));
  }
#endif
}
template <class D>
HWY_INLINE hn::TFromD<D> max_lane(D d, hn::Vec<D> v) { return extreme_lane<true>(d, v); }
template <class D>
HWY_INLINE hn::TFromD<D> min_lane(D d, hn::Vec<D> v) { return extreme_lane<false>(d, v); }

/// Bytes ahead of its loads that summarize asks the caches for, within the range being
/// read: the hardware alone keeps too few lines in flight where a summary takes two
/// reductions (floats), which fell 10-20% short of the read ceiling there.
inline constexpr std::uintptr_t summary_prefetch = 2048;

/// The reductions R of view(x) over the n >= Lanes(du) elements at p. Four loads per
/// step feed two accumulators per reduction; a last partial vector overlaps the previous
/// one (min and max do not mind seeing an element twice). The range read goes on to
/// `range_end` (null: it ends with these elements), whose lines are prefetched ahead.
template <unsigned R, class DU, class View>
HWY_INLINE summary<hn::TFromD<DU>> summarize(DU du, const hn::TFromD<DU>* HWY_RESTRICT p, size_t n, const View& view,
                                             const hn::TFromD<DU>* range_end = nullptr) {
  using T = hn::TFromD<DU>;
  const hn::RebindToSigned<DU> di;
  const size_t L = hn::Lanes(du);
  // Addresses as integers: a prefetch may name a line past the elements it is given.
  const std::uintptr_t prefetch_stop = reinterpret_cast<std::uintptr_t>(range_end);
  const auto v0 = view(hn::LoadU(du, p));
  auto sx0 = hn::BitCast(di, v0), sx1 = sx0, sn0 = sx0, sn1 = sx0;
  auto ux0 = v0, ux1 = v0, un0 = v0, un1 = v0;
  // The reductions on lanes of either type (signed ones through a bit cast).
  const auto smax_of = [&](auto x, auto y) { return hn::Max(hn::BitCast(di, x), hn::BitCast(di, y)); };
  const auto smin_of = [&](auto x, auto y) { return hn::Min(hn::BitCast(di, x), hn::BitCast(di, y)); };
  const auto umax_of = [](auto x, auto y) { return hn::Max(x, y); };
  const auto umin_of = [](auto x, auto y) { return hn::Min(x, y); };
  // Folds into the first and the second accumulator of each reduction what in0(op) and
  // in1(op) give: a vector, or op of two.
  auto feed = [&](const auto& in0, const auto& in1) {
    const auto fold = [&](auto& acc0, auto& acc1, const auto& op) {
      acc0 = op(acc0, in0(op));
      acc1 = op(acc1, in1(op));
    };
    if constexpr ((R & smax) != 0) fold(sx0, sx1, smax_of);
    if constexpr ((R & smin) != 0) fold(sn0, sn1, smin_of);
    if constexpr ((R & umax) != 0) fold(ux0, ux1, umax_of);
    if constexpr ((R & umin) != 0) fold(un0, un1, umin_of);
  };
  size_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    const std::uintptr_t ahead = reinterpret_cast<std::uintptr_t>(p + i) + summary_prefetch;
    if (ahead + 4 * L * sizeof(T) <= prefetch_stop)
      for (size_t line = 0; line < 4 * L * sizeof(T); line += 64) hwy::Prefetch(reinterpret_cast<const char*>(ahead + line));
    const auto a = view(opaque(hn::LoadU(du, p + i)));
    const auto b = view(opaque(hn::LoadU(du, p + i + L)));
    const auto c = view(opaque(hn::LoadU(du, p + i + 2 * L)));
    const auto e = view(opaque(hn::LoadU(du, p + i + 3 * L)));
    // Pairwise first: one dependent step per accumulator per two vectors.
    feed([&](const auto& op) { return op(a, c); }, [&](const auto& op) { return op(b, e); });
  }
  for (; i + L <= n; i += L) {
    const auto a = view(hn::LoadU(du, p + i));
    feed([&](const auto&) { return a; }, [&](const auto&) { return a; });
  }
  if (i < n) {
    const auto a = view(hn::LoadU(du, p + n - L));
    feed([&](const auto&) { return a; }, [&](const auto&) { return a; });
  }
  summary<T> s{};
  if constexpr ((R & smax) != 0) s.smax = static_cast<T>(max_lane(di, hn::Max(sx0, sx1)));
  if constexpr ((R & smin) != 0) s.smin = static_cast<T>(min_lane(di, hn::Min(sn0, sn1)));
  if constexpr ((R & umax) != 0) s.umax = max_lane(du, hn::Max(ux0, ux1));
  if constexpr ((R & umin) != 0) s.umin = min_lane(du, hn::Min(un0, un1));
  return s;
}

// ---- finding the winner's lane -----------------------------------------------------------

/// Index of the last true lane of a mask with at least one true lane.
template <class D>
HWY_INLINE size_t last_true(D d, hn::Mask<D> m) {
  std::uint8_t bits[(HWY_MAX_BYTES + 7) / 8 + 8] = {};
  hn::StoreMaskBits(d, m, bits);
  for (size_t j = hn::Lanes(d); j-- > 0;)
    if ((bits[j / 8] >> (j % 8)) & 1) return j;
  return 0;
}

/// Lowest i < n with match(load at p + i) true; such an i must exist and n >= Lanes(du).
/// Four vectors are tested per branch.
template <class DU, class Match>
HWY_INLINE size_t find_first(DU du, const hn::TFromD<DU>* HWY_RESTRICT p, size_t n, const Match& match) {
  const size_t L = hn::Lanes(du);
  size_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    const auto m0 = match(hn::LoadU(du, p + i)), m1 = match(hn::LoadU(du, p + i + L));
    const auto m2 = match(hn::LoadU(du, p + i + 2 * L)), m3 = match(hn::LoadU(du, p + i + 3 * L));
    if (hn::AllFalse(du, hn::Or(hn::Or(m0, m1), hn::Or(m2, m3)))) continue;
    if (!hn::AllFalse(du, m0)) return i + hn::FindKnownFirstTrue(du, m0);
    if (!hn::AllFalse(du, m1)) return i + L + hn::FindKnownFirstTrue(du, m1);
    if (!hn::AllFalse(du, m2)) return i + 2 * L + hn::FindKnownFirstTrue(du, m2);
    return i + 3 * L + hn::FindKnownFirstTrue(du, m3);
  }
  for (; i + L <= n; i += L) {
    const auto m = match(hn::LoadU(du, p + i));
    if (!hn::AllFalse(du, m)) return i + hn::FindKnownFirstTrue(du, m);
  }
  // The overlapping last vector: its lanes below i did not match, so the first hit is new.
  return n - L + hn::FindKnownFirstTrue(du, match(hn::LoadU(du, p + n - L)));
}

/// Highest i < n with match(load at p + i) true; such an i must exist and n >= Lanes(du).
/// Walks back from the end, four vectors per branch.
template <class DU, class Match>
HWY_INLINE size_t find_last(DU du, const hn::TFromD<DU>* HWY_RESTRICT p, size_t n, const Match& match) {
  const size_t L = hn::Lanes(du);
  size_t end = n;  // lanes [end, n) are known not to match
  for (; end >= 4 * L; end -= 4 * L) {
    const size_t i = end - 4 * L;
    const auto m0 = match(hn::LoadU(du, p + i)), m1 = match(hn::LoadU(du, p + i + L));
    const auto m2 = match(hn::LoadU(du, p + i + 2 * L)), m3 = match(hn::LoadU(du, p + i + 3 * L));
    if (hn::AllFalse(du, hn::Or(hn::Or(m0, m1), hn::Or(m2, m3)))) continue;
    if (!hn::AllFalse(du, m3)) return i + 3 * L + last_true(du, m3);
    if (!hn::AllFalse(du, m2)) return i + 2 * L + last_true(du, m2);
    if (!hn::AllFalse(du, m1)) return i + L + last_true(du, m1);
    return i + last_true(du, m0);
  }
  for (; end >= L; end -= L) {
    const auto m = match(hn::LoadU(du, p + end - L));
    if (!hn::AllFalse(du, m)) return end - L + last_true(du, m);
  }
  // The overlapping first vector: its lanes at or above `end` did not match.
  return last_true(du, match(hn::LoadU(du, p)));
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
