// The SIMD strided reduce, once per instruction set: reduce one dim of stride `row_stride`
// while the kept innermost dim is contiguous ([.., R, inner] reduced over R).
//
// Lanes run along the contiguous dim, so every load is contiguous; each lane keeps its own
// running best (exact lane-wise key and row number) and rows are visited in order, which
// makes the tie rule a plain > or >= per lane. Keys of 1- and 2-byte elements are widened
// to 32 bits (zero extension keeps their order) so that row numbers fit beside them.

#if defined(ARGX_CPU_SIMD_STRIDED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ARGX_CPU_SIMD_STRIDED_INL_H_
#undef ARGX_CPU_SIMD_STRIDED_INL_H_
#else
#define ARGX_CPU_SIMD_STRIDED_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>
#include <hwy/cache_control.h>

#include "simd.hpp"
#include "simd_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// The pass over the rows for n >= L lanes; calls finish(lane, row) for every lane.
template <dtype D, bool TiesLast, class Key, class DW, class DE, class Finish>
HWY_INLINE void strided_rows(const dtype_bits_t<D>* base, size_t n, std::int64_t count, std::int64_t row_stride,
                             const Key& key, DW dw, DE de, const Finish& finish) {
  using T = dtype_bits_t<D>;
  using W = hn::TFromD<DW>;
  const size_t L = hn::Lanes(dw);
  auto load_key = [&](const T* q) {
    const auto k = key(hn::LoadU(de, q));
    if constexpr (sizeof(T) < sizeof(W)) return hn::PromoteTo(dw, k);
    else return k;
  };
  // One slot per full vector of lanes, plus one for a last vector that overlaps the
  // previous one (its shared lanes get identical results in both slots).
  const size_t full = n / L, slots = full + (n % L != 0 ? 1 : 0);
  auto slot_lane = [&](size_t s) { return s < full ? s * L : n - L; };
  HWY_ALIGN W bk[strided_max_lanes + HWY_MAX_BYTES];  // running best key per slot lane
  HWY_ALIGN W bp[strided_max_lanes + HWY_MAX_BYTES];  // and its row

  for (size_t s = 0; s < slots; ++s) {
    hn::Store(load_key(base + slot_lane(s)), dw, bk + s * L);
    hn::Store(hn::Zero(dw), dw, bp + s * L);
  }
  // Rows are far apart, so the hardware sees a new short stream per row; prefetching a
  // row or two ahead (about 8 KiB) keeps memory busy while this row is compared.
  const std::int64_t row_bytes = static_cast<std::int64_t>(n * sizeof(T));
  const std::int64_t ahead = std::clamp<std::int64_t>(8192 / row_bytes, 1, 64);
  const size_t slots_per_line = std::max<size_t>(1, 64 / (sizeof(T) * L));
  // One step of a lane's running best: row kv with key kk against (key, row).
  auto step = [](auto& key, auto& row, auto kk, auto kv) {
    const auto m = hn::Max(key, kk);
    // ties first: a row wins only with a larger key; ties last: also with an equal one.
    row = TiesLast ? hn::IfThenElse(hn::Eq(m, kk), kv, row) : hn::IfThenElse(hn::Eq(m, key), row, kv);
    key = m;
  };
  // Two rows per visit of a slot's running best, which halves its loads and stores.
  std::int64_t k = 1;
  for (; k + 1 < count; k += 2) {
    const T* r0 = base + k * row_stride;
    const T* r1 = r0 + row_stride;
    const T* pf = k + 1 + ahead < count ? r1 + ahead * row_stride : r1;
    const auto kv0 = hn::Set(dw, static_cast<W>(k)), kv1 = hn::Set(dw, static_cast<W>(k + 1));
    for (size_t s = 0; s < slots; ++s) {
      if (s % slots_per_line == 0) {
        hwy::Prefetch(pf + slot_lane(s));
        hwy::Prefetch(pf - row_stride + slot_lane(s));
      }
      auto key = hn::Load(dw, bk + s * L), row = hn::Load(dw, bp + s * L);
      step(key, row, load_key(r0 + slot_lane(s)), kv0);
      step(key, row, load_key(r1 + slot_lane(s)), kv1);
      hn::Store(key, dw, bk + s * L);
      hn::Store(row, dw, bp + s * L);
    }
  }
  if (k < count) {  // the last row when the count after row 0 is odd
    const T* r = base + k * row_stride;
    const auto kv = hn::Set(dw, static_cast<W>(k));
    for (size_t s = 0; s < slots; ++s) {
      auto key = hn::Load(dw, bk + s * L), row = hn::Load(dw, bp + s * L);
      step(key, row, load_key(r + slot_lane(s)), kv);
      hn::Store(key, dw, bk + s * L);
      hn::Store(row, dw, bp + s * L);
    }
  }
  for (size_t j = 0; j < n; ++j) {
    const size_t at = j < full * L ? j : full * L + (j - (n - L));
    finish(j, static_cast<std::int64_t>(bp[at]));
  }
}

/// Strided reduce (kernel entry point); see dtype_kernels::strided.
template <dtype D>
void strided(const void* data, std::int64_t lanes, std::int64_t count, std::int64_t row_stride, std::int64_t pos0,
             order_params o, cand* best, bool merge) {
  using T = dtype_bits_t<D>;
  using K = typename dtype_traits<D>::key_type;
  using W = std::conditional_t<sizeof(T) <= 4, std::uint32_t, std::uint64_t>;  // key and row lanes
  const hn::ScalableTag<W> dw;
  const hn::Rebind<T, decltype(dw)> de;  // as many element lanes as key lanes
  const size_t L = hn::Lanes(dw);
  const T* base = static_cast<const T*>(data);
  const size_t n = static_cast<size_t>(lanes);

  auto finish = [&](size_t j, std::int64_t row) {
    const cand c{order_key<D>(base[row * row_stride + static_cast<std::int64_t>(j)], o.keys), pos0 + row};
    best[j] = merge ? combine(best[j], c, o.ties_last) : c;
  };

  if (n < L) {  // too narrow for one vector: plain per-lane bests
    K key[HWY_MAX_BYTES];
    std::int64_t row[HWY_MAX_BYTES];
    for (size_t j = 0; j < n; ++j) key[j] = order_key<D>(base[j], o.keys), row[j] = 0;
    for (std::int64_t k = 1; k < count; ++k) {
      const T* r = base + k * row_stride;
      for (size_t j = 0; j < n; ++j) {
        const K kk = order_key<D>(r[j], o.keys);
        if (kk > key[j] || (o.ties_last && kk == key[j])) key[j] = kk, row[j] = k;
      }
    }
    for (size_t j = 0; j < n; ++j) finish(j, row[j]);
    return;
  }

  with_keyer<D>(de, o.keys, [&](const auto& key) {
    if (o.ties_last)
      strided_rows<D, true>(base, n, count, row_stride, key, dw, de, finish);
    else
      strided_rows<D, false>(base, n, count, row_stride, key, dw, de, finish);
  });
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
