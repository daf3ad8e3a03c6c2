// The SIMD lanes reduce, once per instruction set: contiguous columns ("lanes") reduced
// over rows that a row_walk visits in position order. It serves the strided class
// ([.., R, inner] over R: lanes along inner, rows along R) and every layout whose
// memory-innermost dims the tbb backend can lay out as lanes.
//
// Each lane keeps its own running best (an exact lane-wise key and the row's position),
// and rows are visited in order, which makes the tie rule a plain > or >= per lane.
//  - 4- and 8-byte elements: keys and positions in lanes of the element's width.
//  - 1- and 2-byte elements, at full vector width: keys stay in the element's width and
//    rows are counted in it too, in chunks of rows short enough for that count (255
//    rows of 1-byte elements, 1024 of 2-byte ones). After each chunk its lane bests join
//    32-bit running bests, the positions of its rows looked up by row number.
//  - Walks of a few rows (any element size): each vector of lanes keeps its best in
//    registers over its rows, and one call serves every item it is given.
// With ties going first, a longer walk stops early once every lane holds the top key.

#if defined(ARGX_CPU_SIMD_STRIDED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ARGX_CPU_SIMD_STRIDED_INL_H_
#undef ARGX_CPU_SIMD_STRIDED_INL_H_
#else
#define ARGX_CPU_SIMD_STRIDED_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <hwy/highway.h>
#include <hwy/cache_control.h>

#include "simd.hpp"
#include "simd_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// The lanes kernel's key for floats without abs: another key than keyer's, ordered and
/// equal exactly where order_key is (lane_key is its scalar twin), in fewer operations. The element's value as
/// a two's complement integer v = (m ^ s) - s (m its bits without the sign, s the sign
/// spread: -0 and +0 both 0), negated for argmin, is shifted by the exponent mask E so
/// that numbers lie in [0, 2E] and NaNs (|v| > E) above; then propagate clamps every NaN
/// to 2E + 1 (a min) and ignore rotates the NaNs to the bottom and saturates them to 0
/// (numbers 1 .. 2E + 1). Five operations a vector (six for ignore on 4- and 8-byte
/// floats) where keyer takes seven: float16 rows of 114 lanes, nan=ignore, ran 0.67 of the
/// read ceiling against int16's 0.93 on the same layout (0.74 with this key).
template <dtype D, class DU, bool Argmin, bool Ignore>
struct float_lane_keyer {
  using T = hn::TFromD<DU>;
  using tr = dtype_traits<D>;
  static constexpr T E = T(tr::exp_mask), N = T(2 * E);
  static constexpr T R = T(T(0) - N - T(2));  // ignore: numbers + 1 + R fill [R + 1, max]
  hn::Vec<DU> mag, shift, clamp;

  explicit float_lane_keyer(DU du)
      : mag(hn::Set(du, static_cast<T>(~T(tr::sign_mask)))),
        shift(hn::Set(du, static_cast<T>(Ignore ? T(E + T(1) + R) : E))),
        clamp(hn::Set(du, static_cast<T>(Ignore ? R : T(N + T(1))))) {}

  HWY_INLINE hn::Vec<DU> operator()(hn::Vec<DU> x) const {
    const DU du;
    const hn::RebindToSigned<DU> di;
    const auto s = hn::BitCast(du, hn::BroadcastSignBit(hn::BitCast(di, x)));
    const auto t = hn::Xor(hn::And(x, mag), s);
    const auto u = hn::Add(Argmin ? hn::Sub(s, t) : hn::Sub(t, s), shift);
    if constexpr (!Ignore) {
      return hn::Min(u, clamp);
    } else if constexpr (sizeof(T) <= 2) {
      return hn::SaturatedSub(u, clamp);
    } else {
      return hn::Sub(hn::Max(u, clamp), clamp);
    }
  }
};

/// Calls f(key) with the lanes kernel's key for p: float_lane_keyer for floats without abs,
/// keyer otherwise.
template <dtype D, class DU, class F>
HWY_INLINE void with_lane_keyer(DU du, key_params p, const F& f) {
  if constexpr (dtype_traits<D>::is_float) {
    if (!p.abs) {
      if (p.argmin) {
        if (p.nan_ignore) return f(float_lane_keyer<D, DU, true, true>(du));
        return f(float_lane_keyer<D, DU, true, false>(du));
      }
      if (p.nan_ignore) return f(float_lane_keyer<D, DU, false, true>(du));
      return f(float_lane_keyer<D, DU, false, false>(du));
    }
  }
  with_keyer<D>(du, p, f);
}

/// The lane key nothing can beat: that of top_bits.
template <dtype D, class DK, class Key>
HWY_INLINE hn::TFromD<DK> lane_top(DK dk, const Key& key, key_params p) {
  return hn::GetLane(key(hn::Set(dk, top_bits<D>(p))));
}

/// Walks of at most this many rows take lanes_few.
inline constexpr std::int64_t few_rows = 16;

/// Slot s of n lanes: full vectors, then one that ends at lane n (overlapping the one before).
struct slots {
  size_t n, L, full, count;
  slots(size_t lanes, size_t vec) : n(lanes), L(vec), full(lanes / vec), count(lanes / vec + (lanes % vec != 0 ? 1 : 0)) {}
  HWY_INLINE size_t lane(size_t s) const { return s < full ? s * L : n - L; }
  /// Puts slot-major state (L entries a slot, `per` lanes' worth each) into lane order:
  /// the last slot's lanes end at lane n (the lanes it shares hold the same results).
  template <class S>
  HWY_INLINE void to_lanes(S* state) const {
    if (count > full) std::memmove(state + (n - L), state + full * L, L * sizeof(S));
  }
};

/// The rows to prefetch while a pair of rows is compared: `ahead` rows later (about 8
/// KiB), since rows are far apart and the hardware sees a new short stream per row. The
/// prefetches are spread over the pair's slot loop, one per cache line of each row. Past
/// the last row, the first rows of the call that follows (`following`, lane_sink::next).
template <class T>
struct row_prefetch {
  row_cursor ahead, then;
  std::int64_t k, last;
  const T* following;
  static std::int64_t distance(size_t row_bytes) { return std::clamp<std::int64_t>(8192 / std::int64_t(row_bytes), 1, 64); }
  row_prefetch(const row_walk& w, std::int64_t first, std::int64_t end, size_t row_bytes, const void* next)
      : ahead(w, std::min(end - 1, first + 1 + distance(row_bytes))),
        then(w, first),
        k(first + 1 + distance(row_bytes)),
        last(end),
        following(static_cast<const T*>(next)) {}
  /// The next row to prefetch (`fallback`, already read, past the last row of both calls).
  HWY_INLINE const T* next(const T* base, const T* fallback) {
    if (k >= last) {
      if (following == nullptr) return fallback;
      const T* p = following + then.off;
      then.next();  // wraps to the first row again past the end: harmless
      return p;
    }
    const T* p = base + ahead.off;
    if (++k < last) ahead.next();
    return p;
  }
};

/// Prefetches the n elements at p.
template <class T>
HWY_INLINE void prefetch_row(const T* p, size_t n) {
  for (size_t b = 0; b < n * sizeof(T); b += 64) hwy::Prefetch(reinterpret_cast<const char*>(p) + b);
}

/// Two rows r0 and r1 (row tags kv0, kv1) into the slots' running bests (keys at bk, row
/// tags at bp), prefetching p0 and p1 (a cache line per `per_line` slots) meanwhile: two
/// rows per visit of a slot's running best halve its loads and stores.
template <bool TiesLast, class DK, class Key, class T = hn::TFromD<DK>>
HWY_INLINE void two_rows(DK dk, const slots& sl, size_t per_line, T* HWY_RESTRICT bk, T* HWY_RESTRICT bp, const T* r0,
                         const T* r1, const T* p0, const T* p1, hn::Vec<DK> kv0, hn::Vec<DK> kv1, const Key& key) {
  const size_t L = hn::Lanes(dk);
  for (size_t s = 0; s < sl.count; ++s) {
    if (s % per_line == 0) hwy::Prefetch(p0 + sl.lane(s)), hwy::Prefetch(p1 + sl.lane(s));
    auto kb = hn::Load(dk, bk + s * L), rb = hn::Load(dk, bp + s * L);
    lane_step<TiesLast>(kb, rb, key(hn::LoadU(dk, r0 + sl.lane(s))), kv0);
    lane_step<TiesLast>(kb, rb, key(hn::LoadU(dk, r1 + sl.lane(s))), kv1);
    hn::Store(kb, dk, bk + s * L);
    hn::Store(rb, dk, bp + s * L);
  }
}

/// 4- and 8-byte elements: keys and positions (relative to the first row's) in lanes of the
/// element's width.
template <dtype D, bool TiesLast, class DK, class Key>
HWY_INLINE void lanes_wide(DK dk, const dtype_bits_t<D>* base, size_t n, const row_walk& w, std::int64_t first,
                           std::int64_t last, const Key& key, order_params o, const lane_sink& out) {
  using T = dtype_bits_t<D>;
  const size_t L = hn::Lanes(dk);
  const slots sl(n, L);
  HWY_ALIGN T bk[lanes_max(4) + HWY_MAX_BYTES / sizeof(T)];  // running best key per slot lane
  HWY_ALIGN T bp[lanes_max(4) + HWY_MAX_BYTES / sizeof(T)];  // and its row's position
  row_cursor cur(w, first);
  const std::int64_t pos0 = cur.pos;
  const T* row = base + cur.off;
  for (size_t s = 0; s < sl.count; ++s) {
    hn::Store(key(hn::LoadU(dk, row + sl.lane(s))), dk, bk + s * L);
    hn::Store(hn::Zero(dk), dk, bp + s * L);
  }
  const T top = lane_top<D>(dk, key, o.keys);
  const auto topv = hn::Set(dk, top);
  row_prefetch<T> pf(w, first, last, n * sizeof(T), out.next);
  const size_t per_line = std::max<size_t>(1, 64 / (sizeof(T) * L));  // slots per cache line
  std::int64_t k = first + 1;
  cur.next();
  // Two rows per visit of a slot's running best (two_rows).
  while (k + 1 < last) {
    const T* r0 = base + cur.off;
    const auto kv0 = hn::Set(dk, static_cast<T>(cur.pos - pos0));
    cur.next();
    const T* r1 = base + cur.off;
    const auto kv1 = hn::Set(dk, static_cast<T>(cur.pos - pos0));
    cur.next();
    const T* p0 = pf.next(base, r0);
    const T* p1 = pf.next(base, r1);
    two_rows<TiesLast>(dk, sl, per_line, bk, bp, r0, r1, p0, p1, kv0, kv1, key);
    k += 2;
    if (!TiesLast && (k - first) % 64 < 2) {  // every lane at the top key: nothing can change
      auto all = hn::Eq(hn::Load(dk, bk), topv);
      for (size_t s = 1; s < sl.count; ++s) all = hn::And(all, hn::Eq(hn::Load(dk, bk + s * L), topv));
      if (hn::AllTrue(dk, all)) {
        mark(D, path::lanes_stop);
        break;
      }
    }
  }
  if (k < last) {  // the last row when the count after the first is odd
    const T* r = base + cur.off;
    const auto kv = hn::Set(dk, static_cast<T>(cur.pos - pos0));
    for (size_t s = 0; s < sl.count; ++s) {
      auto kb = hn::Load(dk, bk + s * L), rb = hn::Load(dk, bp + s * L);
      lane_step<TiesLast>(kb, rb, key(hn::LoadU(dk, r + sl.lane(s))), kv);
      hn::Store(kb, dk, bk + s * L);
      hn::Store(rb, dk, bp + s * L);
    }
  }
  sl.to_lanes(bk);
  sl.to_lanes(bp);
  emit_lanes<D>(out, static_cast<std::int64_t>(n), o.keys, bk, bp, pos0,
                [&](std::int64_t j, std::int64_t pos) { return base[w.offset_of_pos(pos) + j]; });
}

/// 1- and 2-byte elements at full vector width: rows counted in the element's width within
/// chunks, then joined into 32-bit running bests.
template <dtype D, bool TiesLast, class DK, class Key>
HWY_INLINE void lanes_narrow(DK dk, const dtype_bits_t<D>* base, size_t n, const row_walk& w, std::int64_t first,
                             std::int64_t last, const Key& key, order_params o, const lane_sink& out) {
  using T = dtype_bits_t<D>;
  constexpr std::int64_t chunk = sizeof(T) == 1 ? 255 : 1024;  // rows numbered 0..chunk-1 in T
  const hn::ScalableTag<std::uint32_t> d32;
  const hn::RebindToSigned<decltype(d32)> di32;
  const hn::Rebind<T, decltype(d32)> dn;  // as many element lanes as 32-bit lanes
  const size_t L = hn::Lanes(dk), L32 = hn::Lanes(d32);
  const slots sl(n, L);
  const size_t stored = sl.count * L;
  HWY_ALIGN T ck[lanes_max_any + HWY_MAX_BYTES];  // the chunk's best key per slot lane
  HWY_ALIGN T cr[lanes_max_any + HWY_MAX_BYTES];  // and its row within the chunk
  HWY_ALIGN std::uint32_t wk[lanes_max_any + HWY_MAX_BYTES];  // running best key (widened)
  HWY_ALIGN std::uint32_t wp[lanes_max_any + HWY_MAX_BYTES];  // and its position
  HWY_ALIGN std::uint32_t at[chunk + 1];                      // position of each row of the chunk
  const std::uint32_t top = lane_top<D>(dk, key, o.keys);
  const auto topn = hn::Set(dk, static_cast<T>(top));
  // The joins go L32 lanes at a time: lanes past the last slot hold the top key at row 0.
  const size_t joined = (stored + L32 - 1) / L32 * L32;
  std::fill(cr + stored, cr + joined, T(0));
  std::fill(ck + stored, ck + joined, static_cast<T>(top));
  row_cursor cur(w, first);
  const std::int64_t pos0 = cur.pos;
  row_prefetch<T> pf(w, first, last, n * sizeof(T), out.next);
  const size_t per_line = std::max<size_t>(1, 64 / (sizeof(T) * L));  // slots per cache line
  for (std::int64_t c0 = first; c0 < last; c0 += chunk) {
    const std::int64_t c1 = std::min(last, c0 + chunk);
    const T* row = base + cur.off;
    at[0] = static_cast<std::uint32_t>(cur.pos - pos0);
    for (size_t s = 0; s < sl.count; ++s) {
      hn::Store(key(hn::LoadU(dk, row + sl.lane(s))), dk, ck + s * L);
      hn::Store(hn::Zero(dk), dk, cr + s * L);
    }
    cur.next();
    prefetch_row(pf.next(base, row), n);
    std::int64_t k = c0 + 1;
    bool stopped = false;  // at the top key in every lane before c1
    for (; k + 1 < c1; k += 2) {
      const T r = static_cast<T>(k - c0);
      const T* r0 = base + cur.off;
      at[r] = static_cast<std::uint32_t>(cur.pos - pos0);
      cur.next();
      const T* r1 = base + cur.off;
      at[r + 1] = static_cast<std::uint32_t>(cur.pos - pos0);
      cur.next();
      const T* p0 = pf.next(base, r0);
      const T* p1 = pf.next(base, r1);
      const auto kv0 = hn::Set(dk, r), kv1 = hn::Set(dk, static_cast<T>(r + 1));
      two_rows<TiesLast>(dk, sl, per_line, ck, cr, r0, r1, p0, p1, kv0, kv1, key);
      if (!TiesLast && (k - c0) % 64 == 1) {  // every lane at the top key: nothing can change
        auto all = hn::Eq(hn::Load(dk, ck), topn);
        for (size_t s = 1; s < sl.count; ++s) all = hn::And(all, hn::Eq(hn::Load(dk, ck + s * L), topn));
        if (hn::AllTrue(dk, all)) {
          k += 2;
          stopped = true;
          break;
        }
      }
    }
    if (!stopped && k < c1) {
      const T r = static_cast<T>(k - c0);
      const T* r0 = base + cur.off;
      at[r] = static_cast<std::uint32_t>(cur.pos - pos0);
      cur.next();
      prefetch_row(pf.next(base, r0), n);
      const auto kv = hn::Set(dk, r);
      for (size_t s = 0; s < sl.count; ++s) {
        auto kb = hn::Load(dk, ck + s * L), rb = hn::Load(dk, cr + s * L);
        lane_step<TiesLast>(kb, rb, key(hn::LoadU(dk, r0 + sl.lane(s))), kv);
        hn::Store(kb, dk, ck + s * L);
        hn::Store(rb, dk, cr + s * L);
      }
    }
    // A walk of one chunk over consecutive positions (row r at pos0 + r): the chunk's row
    // numbers are the positions, so its bests are emitted as they are; the join into 32-bit
    // state (a gather per vector) would cost more than a few rows themselves.
    const std::int64_t end = stopped ? k : c1;  // rows [c0, end) were read
    if (c0 == first && (end == last || stopped) && at[end - c0 - 1] == static_cast<std::uint32_t>(end - c0 - 1)) {
      mark(D, path::lanes_one_chunk);
      if (stopped) mark(D, path::lanes_stop);
      sl.to_lanes(ck);
      sl.to_lanes(cr);
      return emit_lanes<D>(out, static_cast<std::int64_t>(n), o.keys, ck, cr, pos0,
                           [&](std::int64_t j, std::int64_t pos) { return base[w.offset_of_pos(pos) + j]; });
    }
    // Join the chunk's bests into the running ones (the chunk's rows come later).
    const auto topv = hn::Set(d32, top);
    auto all_top = hn::Eq(topv, topv);
    for (size_t i = 0; i < joined; i += L32) {
      const auto kc = hn::PromoteTo(d32, hn::LoadU(dn, ck + i));
      const auto pc = hn::GatherIndex(d32, at, hn::BitCast(di32, hn::PromoteTo(d32, hn::LoadU(dn, cr + i))));
      if (c0 == first) {
        hn::Store(kc, d32, wk + i);
        hn::Store(pc, d32, wp + i);
        all_top = hn::And(all_top, hn::Eq(kc, topv));
        continue;
      }
      auto kw = hn::Load(d32, wk + i), pw = hn::Load(d32, wp + i);
      lane_step<TiesLast>(kw, pw, kc, pc);
      hn::Store(kw, d32, wk + i);
      hn::Store(pw, d32, wp + i);
      all_top = hn::And(all_top, hn::Eq(kw, topv));
    }
    if (!TiesLast && hn::AllTrue(d32, all_top)) {  // every lane at the top key
      mark(D, path::lanes_stop);
      break;
    }
  }
  sl.to_lanes(wk);
  sl.to_lanes(wp);
  emit_lanes<D>(out, static_cast<std::int64_t>(n), o.keys, wk, wp, pos0,
                [&](std::int64_t j, std::int64_t pos) { return base[w.offset_of_pos(pos) + j]; });
}

/// Walks of at most few_rows rows, any element size: a slot's running best stays in
/// registers while its few rows are read (slots outer, rows inner), and the row offsets are
/// found once for all the call's items. A walk this short would otherwise spend more on
/// the per-row state traffic and the per-item setup (row odometers, prefetch, chunk
/// bookkeeping) than on its elements: many short outputs, e.g. 13 lanes of 5 rows an item.
template <dtype D, bool TiesLast, class DK, class Key>
HWY_INLINE void lanes_few(DK dk, const dtype_bits_t<D>* base, size_t n, const row_walk& w, std::int64_t first,
                          std::int64_t last, const Key& key, order_params o, const lane_sink& out) {
  using T = dtype_bits_t<D>;
  const size_t L = hn::Lanes(dk), rows = static_cast<size_t>(last - first);
  const slots sl(n, L);
  std::int64_t off[few_rows];  // memory offset of each row
  std::int64_t at[few_rows];   // its position after the first row's
  row_cursor cur(w, first);
  const std::int64_t pos0 = cur.pos;
  bool consecutive = true;  // row r at position pos0 + r: the row numbers are the positions
  for (size_t r = 0; r < rows; ++r) {
    if (r > 0) cur.next();
    off[r] = cur.off;
    at[r] = cur.pos - pos0;
    consecutive = consecutive && at[r] == static_cast<std::int64_t>(r);
  }
  HWY_ALIGN T bk[lanes_max_any + HWY_MAX_BYTES / sizeof(T)];  // best key per lane
  HWY_ALIGN T br[lanes_max_any + HWY_MAX_BYTES / sizeof(T)];  // and its row
  std::uint32_t bp[lanes_max_any];                             // positions, when not the rows
  // Items of short lanes are prefetched about 4 KiB ahead: read a hundred bytes at a time,
  // they keep too few misses in flight for the memory system.
  const size_t lane_bytes = n * sizeof(T);
  const std::int64_t ahead = lane_bytes <= 256 ? std::clamp<std::int64_t>(4096 / std::int64_t(rows * lane_bytes), 1, 64) : 0;
  mark(D, path::lanes_few_rows);
  sink s = out.out != nullptr ? *out.out : sink{};
  lane_sink item_out = out;
  if (out.out != nullptr) item_out.out = &s;
  for (std::int64_t i = 0; i < out.items; ++i, s.first += out.item_step) {
    const T* b = base + i * out.item_stride;
    if (ahead != 0 && i + ahead < out.items)
      for (size_t r = 0; r < rows; ++r) prefetch_row(b + ahead * out.item_stride + off[r], n);
    for (size_t k = 0; k < sl.count; ++k) {
      // The last slot overlaps the one before: its shared lanes get the same results.
      const T* p = b + sl.lane(k);
      auto kb = key(hn::LoadU(dk, p + off[0]));
      auto rb = hn::Zero(dk);
      for (size_t r = 1; r < rows; ++r) lane_step<TiesLast>(kb, rb, key(hn::LoadU(dk, p + off[r])), hn::Set(dk, static_cast<T>(r)));
      hn::StoreU(kb, dk, bk + sl.lane(k));
      hn::StoreU(rb, dk, br + sl.lane(k));
    }
    const auto elem = [&](std::int64_t j, std::int64_t pos) { return b[w.offset_of_pos(pos) + j]; };
    if (consecutive) {
      emit_lanes<D>(item_out, static_cast<std::int64_t>(n), o.keys, bk, br, pos0, elem);
      continue;
    }
    for (size_t j = 0; j < n; ++j) bp[j] = static_cast<std::uint32_t>(at[br[j]]);
    emit_lanes<D>(item_out, static_cast<std::int64_t>(n), o.keys, bk, bp, pos0, elem);
  }
}

/// Lanes reduce (kernel entry point); see dtype_kernels::lanes. Vectors as wide as the
/// lanes allow: full ones, 128-bit ones for fewer lanes, one lane at a time below that.
/// Walks of a few rows go through lanes_few, longer ones row by row.
template <dtype D>
void lanes(const void* data, std::int64_t lanes, const row_walk& w, std::int64_t first, std::int64_t last,
           order_params o, const lane_sink& out) {
  using T = dtype_bits_t<D>;
  const T* base = static_cast<const T*>(data);
  const size_t n = static_cast<size_t>(lanes);
  auto vectors = [&](auto dk) {
    mark(D, sizeof(T) >= 4 ? path::lanes_wide : path::lanes_narrow);
    with_lane_keyer<D>(dk, o.keys, [&](const auto& key) {
      if (last - first <= few_rows) {  // every item at once
        if (o.ties_last) return lanes_few<D, true>(dk, base, n, w, first, last, key, o, out);
        return lanes_few<D, false>(dk, base, n, w, first, last, key, o, out);
      }
      out.each_item(base, [&](const T* b, const lane_sink& s) {
        if constexpr (sizeof(T) >= 4) {
          if (o.ties_last)
            lanes_wide<D, true>(dk, b, n, w, first, last, key, o, s);
          else
            lanes_wide<D, false>(dk, b, n, w, first, last, key, o, s);
        } else {
          if (o.ties_last)
            lanes_narrow<D, true>(dk, b, n, w, first, last, key, o, s);
          else
            lanes_narrow<D, false>(dk, b, n, w, first, last, key, o, s);
        }
      });
    });
  };
  const hn::ScalableTag<T> full;
  const hn::CappedTag<T, 16 / sizeof(T)> part;
  if (n >= hn::Lanes(full)) return vectors(full);
  if (hn::Lanes(part) < hn::Lanes(full) && n >= hn::Lanes(part)) return vectors(part);
  // Fewer lanes than a vector: one lane key at a time.
  mark(D, path::lanes_scalar);
  out.each_item(base, [&](const T* b, const lane_sink& s) {
    lanes_one_by_one<D, HWY_MAX_BYTES>(b, lanes, w, first, last, o, s,
                                       [&](T bits) { return lane_key<D>(bits, o.keys); });
  });
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
