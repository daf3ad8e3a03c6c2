// The SIMD scan of contiguous elements (flat ranges, rows), once per instruction set.
//
// A range is cut into blocks of about 16 KiB. Each block is first summarized with one or
// two integer min/max reductions of its raw bits (simd_lanes-inl.h); the summary names
// the block's best element value exactly, whose key (order_key) is compared with the
// running best. Only when the block wins is it searched again, inside the block only, for
// the first (or last) element equal to that value. On random data that search is rare,
// so the scan costs about two vector instructions per vector of input.
//
// Which reductions pin down the best element:
//  - integers: max (argmax) or min (argmin) as signed/unsigned, of x or of |x| (abs);
//  - float |x|: unsigned max/min of the bits without the sign (+ max to see NaN);
//  - float x: signed max (largest non-negative; positive NaN shows above +inf) and
//    unsigned max (most negative; negative NaN shows above -inf). A block without
//    non-negative elements (argmax) or without negative ones (argmin) is decided by signed
//    min instead; after such a block the scan expects more of them (all-negative
//    log-probabilities, all-positive distances) and summarizes with signed min and max,
//    which also see NaN there, until a block of both signs sends it back.
// A block with NaN is scanned with exact lane-wise keys instead (keyer).

#if defined(ARGX_CPU_SIMD_CONTIG_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ARGX_CPU_SIMD_CONTIG_INL_H_
#undef ARGX_CPU_SIMD_CONTIG_INL_H_
#else
#define ARGX_CPU_SIMD_CONTIG_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "simd.hpp"
#include "simd_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Bytes per block: large enough to hide the per-block summary, small enough that a
/// winning block is searched again from L1.
inline constexpr size_t block_bytes = 16384;
/// Bytes of a scan's first block (the next ones double up to block_bytes).
inline constexpr size_t first_block_bytes = 512;

/// Scans contiguous ranges of dtype D under one order; keeps what it learns about the
/// data (whether blocks have one sign) from one block and range to the next.
template <dtype D>
class contig_scan {
 public:
  using T = dtype_bits_t<D>;
  using K = typename dtype_traits<D>::key_type;
  using S = std::make_signed_t<T>;
  using tr = dtype_traits<D>;
  using DU = hn::ScalableTag<T>;

  explicit contig_scan(order_params o) : o_(o), top_(top_key<D>(o.keys)) {}

  /// Best of the n >= 1 elements at p; positions 0..n-1.
  candidate<K> run(const T* HWY_RESTRICT p, size_t n) { return run(p, n, candidate<K>{order_key<D>(p[0], o_.keys), 0}); }

  /// Best of `start` and the n >= 1 elements at p (positions 0..n-1); start is a real
  /// element at a position before p's elements (-1) or p[0] itself.
  candidate<K> run(const T* HWY_RESTRICT p, size_t n, candidate<K> start) {
    const DU du;
    const size_t L = hn::Lanes(du);
    candidate<K> best = start;
    if (!o_.ties_last && best.key == top_) return best;  // nothing can beat it
    end_ = p + n;
    if (n < L) {
      for (size_t i = start.pos < 0 ? 0 : 1; i < n; ++i) consider(best, order_key<D>(p[i], o_.keys), i);
      return best;
    }
    // Blocks grow from first_block_bytes to block_bytes while the scans of this object
    // stop early (at the top key), so that such a scan does not read a whole block first;
    // after a scan that read its range to the end, the next starts at block_bytes (short
    // blocks cost a summary each: rows of a few KiB would pay it several times).
    size_t block = small_first_ ? first_block_bytes / sizeof(T) : block_bytes / sizeof(T);
    for (size_t b = 0; b < n;) {
      size_t len = std::min(block, n - b);
      if (n - b - len < L) len = n - b;  // never leave a tail shorter than a vector
      scan_block(best, p + b, len, b);
      if (!o_.ties_last && best.key == top_) {  // nothing can beat it any more
        mark(D, path::contig_stop);
        small_first_ = true;
        return best;
      }
      b += len;
      block = std::min(2 * block, block_bytes / sizeof(T));
    }
    small_first_ = false;
    return best;
  }

 private:
  /// Takes (key, pos) when it beats best; pos is never before best.pos.
  HWY_INLINE void consider(candidate<K>& best, K key, size_t pos) const {
    if (later_beats(key, best.key, o_.ties_last)) best = candidate<K>{key, static_cast<std::int64_t>(pos)};
  }

  void scan_block(candidate<K>& best, const T* HWY_RESTRICT p, size_t n, size_t base) {
    const DU du;
    mark(D, path::contig_summary);
    T rep;  // bits of an element equal (under the order) to the block's best
    if constexpr (tr::is_float) {
      const mag_view<DU> mag(du);
      constexpr T sign = tr::sign_mask, exp = tr::exp_mask;
      if (o_.keys.abs) {
        T top_mag;
        if (o_.keys.argmin) {
          const auto s = summarize<umin | umax>(du, p, n, mag, end_);
          top_mag = s.umax;
          rep = s.umin;
        } else {
          const auto s = summarize<umax>(du, p, n, mag, end_);
          top_mag = rep = s.umax;
        }
        if (top_mag > exp) return scan_block_keyed(best, p, n, base);
        // Every element with the same |x| has the same key.
        return take_if_better(best, rep, p, n, base, [&](auto v) { return hn::Eq(mag(v), hn::Set(du, rep)); });
      }
      if (one_sign_) {
        // The last block had one sign only: signed min and max serve such a block alone.
        mark(D, path::contig_one_sign);
        const summary<T> s = summarize<smin | smax>(du, p, n, raw_view{}, end_);
        const bool still = o_.keys.argmin ? static_cast<S>(s.smin) >= 0 : static_cast<S>(s.smax) < 0;
        if (still) {
          // All negative (argmax): a negative NaN has the largest signed bits. All
          // non-negative (argmin): a NaN is above +inf. Either way signed min is the best.
          if (static_cast<S>(s.smax) > static_cast<S>(o_.keys.argmin ? exp : T(sign | exp)))
            return scan_block_keyed(best, p, n, base);
          rep = s.smin;
        } else {
          one_sign_ = false;  // both signs again: the two-sign summary, from the start
          return scan_block(best, p, n, base);
        }
      } else {
        const summary<T> s = summarize<smax | umax>(du, p, n, raw_view{}, end_);
        if (static_cast<S>(s.smax) > static_cast<S>(exp) || s.umax > T(sign | exp))
          return scan_block_keyed(best, p, n, base);
        // argmax wants the largest non-negative (signed max), argmin the most negative
        // (unsigned max); without one, the block has one sign and signed min decides.
        if (o_.keys.argmin ? s.umax >= sign : static_cast<S>(s.smax) >= 0) {
          rep = o_.keys.argmin ? s.umax : s.smax;
        } else {
          rep = summarize<smin>(du, p, n, raw_view{}, end_).smin;
          one_sign_ = true;
        }
      }
      if (static_cast<T>(rep & ~sign) == 0)  // +-0: both zeros share the key
        return take_if_better(best, rep, p, n, base, [&](auto v) { return hn::Eq(mag(v), hn::Zero(du)); });
      return take_if_better(best, rep, p, n, base, [&](auto v) { return hn::Eq(v, hn::Set(du, rep)); });
    } else if constexpr (D == dtype::boolean) {
      rep = o_.keys.argmin ? summarize<umin>(du, p, n, raw_view{}, end_).umin : summarize<umax>(du, p, n, raw_view{}, end_).umax;
      if (rep != 0)  // every non-zero byte is true
        return take_if_better(best, rep, p, n, base, [&](auto v) { return hn::Not(hn::Eq(v, hn::Zero(du))); });
      return take_if_better(best, rep, p, n, base, [&](auto v) { return hn::Eq(v, hn::Zero(du)); });
    } else if constexpr (tr::is_signed) {
      if (o_.keys.abs) {
        const iabs_view<DU> iabs;
        rep = o_.keys.argmin ? summarize<umin>(du, p, n, iabs, end_).umin : summarize<umax>(du, p, n, iabs, end_).umax;
        return take_if_better(best, rep, p, n, base, [&](auto v) { return hn::Eq(iabs(v), hn::Set(du, rep)); });
      }
      rep = o_.keys.argmin ? summarize<smin>(du, p, n, raw_view{}, end_).smin : summarize<smax>(du, p, n, raw_view{}, end_).smax;
      return take_if_better(best, rep, p, n, base, [&](auto v) { return hn::Eq(v, hn::Set(du, rep)); });
    } else {
      rep = o_.keys.argmin ? summarize<umin>(du, p, n, raw_view{}, end_).umin : summarize<umax>(du, p, n, raw_view{}, end_).umax;
      return take_if_better(best, rep, p, n, base, [&](auto v) { return hn::Eq(v, hn::Set(du, rep)); });
    }
  }

  /// The block's best has the key of `rep`; when that beats the running best, find the
  /// block's first (last) element that `match`es it.
  template <class Match>
  HWY_INLINE void take_if_better(candidate<K>& best, T rep, const T* HWY_RESTRICT p, size_t n, size_t base,
                                 const Match& match) {
    const K key = order_key<D>(rep, o_.keys);
    if (!later_beats(key, best.key, o_.ties_last)) return;
    const DU du;
    const size_t i = o_.ties_last ? find_last(du, p, n, match) : find_first(du, p, n, match);
    best = candidate<K>{key, static_cast<std::int64_t>(base + i)};
  }

  /// A block with NaN: exact lane-wise keys, their maximum, and its first (last) lane.
  void scan_block_keyed(candidate<K>& best, const T* HWY_RESTRICT p, size_t n, size_t base) {
    const DU du;
    mark(D, path::contig_keyed);
    with_keyer<D>(du, o_.keys, [&](const auto& key) {
      const T kmax = summarize<umax>(du, p, n, key).umax;
      const auto match = [&](auto v) { return hn::Eq(key(v), hn::Set(du, kmax)); };
      const size_t i = o_.ties_last ? find_last(du, p, n, match) : find_first(du, p, n, match);
      consider(best, order_key<D>(p[i], o_.keys), base + i);
    });
  }

  order_params o_;
  K top_;
  const T* end_ = nullptr;  // end of the range being scanned (summaries prefetch up to it)
  bool one_sign_ = false;  // floats: the last block had only the sign that needs signed min
  bool small_first_ = true;  // the next scan starts with a short block (the last one stopped early)
};

/// Best of n contiguous elements and an earlier floor (kernel entry point).
template <dtype D>
cand contig(const void* data, std::int64_t n, std::int64_t pos0, order_params o, cand floor) {
  contig_scan<D> scan(o);
  return contig_from<D>(data, pos0, o, floor,
                        [&](const dtype_bits_t<D>* p, auto start) { return scan.run(p, static_cast<size_t>(n), start); });
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
