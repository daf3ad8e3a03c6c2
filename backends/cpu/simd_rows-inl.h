// Short contiguous rows (L elements to 1 KiB, L = lanes per vector), once per instruction
// set: vectorised across rows. A group of L rows is summarized row by row (vertical
// min/max over the row's few vectors), then the L summary vectors are transposed and
// reduced together (the "ladder": interleave, reduce, repeat), giving one vector whose
// lane i summarizes row i. The decision which element wins is then made for L rows at
// once; only the final search for the winner's position is per row, over a handful of
// vectors and without branches. A per-row horizontal reduction would cost more than the
// row itself.
//
// The summaries and their meaning are those of simd_contig-inl.h. Rows with NaN (rare)
// and groups the ladder cannot serve go through contig_scan, one row at a time.

#if defined(ARGX_CPU_SIMD_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ARGX_CPU_SIMD_ROWS_INL_H_
#undef ARGX_CPU_SIMD_ROWS_INL_H_
#else
#define ARGX_CPU_SIMD_ROWS_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <hwy/highway.h>
#include <hwy/cache_control.h>

#include "simd.hpp"
#include "simd_contig-inl.h"
#include "simd_lanes-inl.h"

// The ladder needs interleaves within 128-bit blocks (x86, NEON); elsewhere rows go
// through contig_scan.
#if (HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128) || HWY_TARGET == HWY_NEON
#define ARGX_CPU_LADDER 1
#else
#define ARGX_CPU_LADDER 0
#endif

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Whether this instruction set has the across-rows kernel.
inline constexpr bool has_ladder = ARGX_CPU_LADDER;


#if ARGX_CPU_LADDER

/// One ladder step at lane width W bytes: pairs of vectors (2j, 2j+1) interleaved at
/// granularity W and reduced, halving the vector count m; then the next width.
template <size_t W, class D, class Op>
HWY_INLINE void ladder_level(D d, hn::TFromD<D>* HWY_RESTRICT tile, size_t& m, const Op& op) {
  const size_t L = hn::Lanes(d);
  using TW = hwy::UnsignedFromSize<W>;
  const hn::Repartition<TW, D> dw;
  for (size_t j = 0; j < m / 2; ++j) {
    const auto a = hn::BitCast(dw, hn::Load(d, tile + 2 * j * L));
    const auto b = hn::BitCast(dw, hn::Load(d, tile + (2 * j + 1) * L));
    hn::Store(op(hn::BitCast(d, hn::InterleaveLower(dw, a, b)), hn::BitCast(d, hn::InterleaveUpper(dw, a, b))), d,
              tile + j * L);
  }
  m /= 2;
  if constexpr (W < 8) ladder_level<2 * W>(d, tile, m, op);
}

/// The L vectors in `tile` (vector i at tile + i * L) become one vector whose lane i is
/// op over all lanes of vector i. Vectors are at most two 128-bit blocks.
template <class D, class Op>
HWY_INLINE hn::Vec<D> ladder(D d, hn::TFromD<D>* HWY_RESTRICT tile, const Op& op) {
  const size_t L = hn::Lanes(d);
  size_t m = L;
  ladder_level<sizeof(hn::TFromD<D>)>(d, tile, m, op);  // within 128-bit blocks
  if (m == 2) {                                          // across the two blocks
    const auto a = hn::Load(d, tile), b = hn::Load(d, tile + L);
    return op(hn::ConcatLowerLower(d, b, a), hn::ConcatUpperUpper(d, b, a));
  }
  return hn::Load(d, tile);
}

/// Groups of L rows of n elements, C = ceil(n / L) vectors each (C = 0: any, known only
/// at run time; the common small counts are compiled with the count fixed). Looks: each
/// group is first looked at for rows that stop at the top key (rows_looking).
template <dtype D, size_t C, bool Looks>
class rows_across {
 public:
  using T = dtype_bits_t<D>;
  using S = std::make_signed_t<T>;
  using tr = dtype_traits<D>;
  using DU = hn::CappedTag<T, 32 / sizeof(T)>;  // at most 256 bits: two blocks
  using DI = hn::RebindToSigned<DU>;

  rows_across(order_params o, size_t n) : o_(o), n_(n) {}

  /// Rows [0, count) of the run (count a multiple of L is not required; the remainder
  /// goes through `scan`). Row r's winner becomes output out.at(r).
  void run(const T* data, std::int64_t count, std::int64_t row_stride, const sink& out, contig_scan<D>& scan) {
    const DU du;
    const std::int64_t L = static_cast<std::int64_t>(hn::Lanes(du));
    // Rows shorter than a vector are loaded whole with what follows them: only where
    // that stays below the end of the run's last row (the rest go through `scan`).
    std::int64_t groups_end = count;
    if (static_cast<std::int64_t>(n_) < L)
      groups_end = row_stride <= 0 ? 0 : std::max<std::int64_t>(0, count - (L - std::int64_t(n_) + row_stride - 1) / row_stride);
    std::int64_t r = 0;
    // Short rows go by fast: prefetching about 4 KiB ahead keeps memory busy meanwhile.
    const std::int64_t row_bytes = static_cast<std::int64_t>(n_ * sizeof(T));
    const std::int64_t ahead = L * std::clamp<std::int64_t>(4096 / (L * row_bytes), 1, 8);  // rows
    if constexpr (Looks) r = groups_looking(data, groups_end, count, row_stride, ahead, out, scan);
    for (; r + L <= groups_end; r += L) {
      if (r + ahead + L <= count)
        for (std::int64_t i = r + ahead; i < r + ahead + L; ++i)
          for (std::int64_t b = 0; b < row_bytes; b += 64) hwy::Prefetch(reinterpret_cast<const char*>(data + i * row_stride) + b);
      group(data + r * row_stride, row_stride, out, r, scan);
    }
    for (; r < count; ++r) {
      const T* row = data + r * row_stride;
      const auto c = scan.run(row, n_);
      store<D>(out, out.at(r), cand{c.key, c.pos}, row[c.pos], o_.keys);
    }
  }

 private:
  /// Vectors per row, and where vector j starts (the last one ends at the row's end and
  /// may overlap its neighbour: min, max and match bits do not mind).
  HWY_INLINE size_t chunks() const { return C != 0 ? C : (n_ + hn::Lanes(DU()) - 1) / hn::Lanes(DU()); }
  HWY_INLINE size_t chunk_at(size_t j) const {
    return j + 1 < chunks() || n_ < hn::Lanes(DU()) ? j * hn::Lanes(DU()) : n_ - hn::Lanes(DU());
  }
  /// A row's first vector; a row shorter than a vector has its other lanes filled with its
  /// first element (min and max do not mind a repeat).
  HWY_INLINE hn::Vec<DU> first_vector(const T* p) const {
    const DU du;
    const auto v = hn::LoadU(du, p);
    return n_ < hn::Lanes(du) ? hn::IfThenElse(hn::FirstN(du, n_), v, hn::Set(du, p[0])) : v;
  }

  // Reductions R of a view over each row of a group, laddered: lane i = row i's result.
  // Reductions G (smax or umax) are only needed for the group as a whole: they stay
  // vertical, one vector per group in group_ (any lane may hold any row's value).
  template <unsigned R, unsigned G = 0, class View>
  HWY_INLINE void summarize_rows(const T* rows, std::int64_t stride, const View& view) {
    const DU du;
    const DI di;
    const size_t L = hn::Lanes(du);
    constexpr unsigned A = R | G;  // reductions taken along each row
    for (size_t i = 0; i < L; ++i) {
      const T* p = rows + static_cast<std::int64_t>(i) * stride;
      auto v = view(first_vector(p));
      auto sx = hn::BitCast(di, v), sn = sx;
      auto ux = v, un = v;
      for (size_t j = 1; j < chunks(); ++j) {
        const auto a = view(hn::LoadU(du, p + chunk_at(j)));
        if constexpr ((A & smax) != 0) sx = hn::Max(sx, hn::BitCast(di, a));
        if constexpr ((A & smin) != 0) sn = hn::Min(sn, hn::BitCast(di, a));
        if constexpr ((A & umax) != 0) ux = hn::Max(ux, a);
        if constexpr ((A & umin) != 0) un = hn::Min(un, a);
      }
      if constexpr ((G & smax) != 0) group_[0] = i == 0 ? sx : hn::Max(group_[0], sx);
      if constexpr ((G & umax) != 0) group_[1] = i == 0 ? hn::BitCast(di, ux) : hn::BitCast(di, hn::Max(hn::BitCast(du, group_[1]), ux));
      if constexpr ((R & smax) != 0) hn::Store(hn::BitCast(du, sx), du, tile_[0] + i * L);
      if constexpr ((R & smin) != 0) hn::Store(hn::BitCast(du, sn), du, tile_[1] + i * L);
      if constexpr ((R & umax) != 0) hn::Store(ux, du, tile_[2] + i * L);
      if constexpr ((R & umin) != 0) hn::Store(un, du, tile_[3] + i * L);
    }
    if constexpr ((R & smax) != 0)
      res_[0] = ladder(du, tile_[0], [&](auto a, auto b) { return hn::BitCast(du, hn::Max(hn::BitCast(di, a), hn::BitCast(di, b))); });
    if constexpr ((R & smin) != 0)
      res_[1] = ladder(du, tile_[1], [&](auto a, auto b) { return hn::BitCast(du, hn::Min(hn::BitCast(di, a), hn::BitCast(di, b))); });
    if constexpr ((R & umax) != 0) res_[2] = ladder(du, tile_[2], [](auto a, auto b) { return hn::Max(a, b); });
    if constexpr ((R & umin) != 0) res_[3] = ladder(du, tile_[3], [](auto a, auto b) { return hn::Min(a, b); });
  }

  /// run's groups [0, groups_end) when rows may stop at the top key: each group is looked
  /// at for it first, every group while that ends groups, else after 1, 2, 4 ... 64 groups
  /// (a look costs a load, a compare and a mask a row: part of a summary); rows are
  /// prefetched `ahead` rows ahead, only their first line while groups stop. Returns the
  /// first row left.
  std::int64_t groups_looking(const T* data, std::int64_t groups_end, std::int64_t count, std::int64_t row_stride,
                              std::int64_t ahead, const sink& out, contig_scan<D>& scan) {
    const std::int64_t L = static_cast<std::int64_t>(hn::Lanes(DU()));
    const std::int64_t row_bytes = static_cast<std::int64_t>(n_ * sizeof(T));
    bool stopping = false;  // the last look ended its group
    unsigned skip = 0, wait = 1;
    std::int64_t r = 0;
    for (; r + L <= groups_end; r += L) {
      const std::int64_t fetch = stopping ? 64 : row_bytes;
      if (r + ahead + L <= count)
        for (std::int64_t i = r + ahead; i < r + ahead + L; ++i)
          for (std::int64_t b = 0; b < fetch; b += 64) hwy::Prefetch(reinterpret_cast<const char*>(data + i * row_stride) + b);
      if (skip > 0) {
        --skip;
      } else {
        stopping = stopped_early(data + r * row_stride, row_stride, out, r, scan);
        if (stopping) {
          wait = 1;
          continue;
        }
        skip = wait;
        wait = std::min(2 * wait, 64u);
      }
      group(data + r * row_stride, row_stride, out, r, scan);
    }
    return r;
  }

  /// Rows i of a group whose first vector holds the top key end there (their first such
  /// element wins). When all do, or all but a few (those are scanned alone, which may stop
  /// too), the group is done without its summary: returns true.
  HWY_NOINLINE bool stopped_early(const T* rows, std::int64_t stride, const sink& out, std::int64_t first_row, contig_scan<D>& scan) {
    const DU du;
    const size_t L = hn::Lanes(du);
    const auto top = hn::Set(du, top_bits<D>(o_.keys));
    std::uint32_t pos[HWY_MAX_BYTES / sizeof(T)];
    std::uint64_t missed = 0;  // rows without the top key in their first vector
    for (size_t i = 0; i < L; ++i) {
      const auto v = first_vector(rows + static_cast<std::int64_t>(i) * stride);
      // bool: any nonzero byte is true, so argmax's top is "not zero".
      const auto hit = D == dtype::boolean && !o_.keys.argmin ? hn::Not(hn::Eq(v, hn::Zero(du))) : hn::Eq(v, top);
      const std::uint64_t bits = mask_bits(du, hit);
      missed |= std::uint64_t(bits == 0) << i;
      pos[i] = static_cast<std::uint32_t>(__builtin_ctzll(bits | (std::uint64_t(1) << 63)));
    }
    if (static_cast<size_t>(__builtin_popcountll(missed)) > L / 4) return false;
    mark(D, path::rows_stop);
    for (size_t i = 0; i < L; ++i) {
      const T* row = rows + static_cast<std::int64_t>(i) * stride;
      const std::int64_t o = out.at(first_row + static_cast<std::int64_t>(i));
      if ((missed >> i) & 1) {  // as a group's special rows
        const auto c = scan.run(row, n_);
        store<D>(out, o, cand{c.key, c.pos}, row[c.pos], o_.keys);
      } else {
        store<D>(out, o, cand{1, pos[i]}, row[pos[i]], o_.keys);
      }
    }
    return true;
  }

  /// L rows: decide every row's winning value together, then find each one's position.
  void group(const T* rows, std::int64_t stride, const sink& out, std::int64_t first_row, contig_scan<D>& scan) {
    const DU du;
    const DI di;
    const size_t L = hn::Lanes(du);
    mark(D, n_ < L ? path::rows_across_short : path::rows_across);
    hn::Vec<DU> rep;                          // lane i: bits of row i's winning value
    auto special = hn::FirstN(du, 0);         // lanes (rows) left to contig_scan
    if constexpr (tr::is_float) {
      const mag_view<DU> mag(du);
      const auto exp = hn::Set(du, T(tr::exp_mask));
      if (o_.keys.abs) {
        if (o_.keys.argmin) {
          summarize_rows<umin | umax>(rows, stride, mag);
          rep = res_[3];
        } else {
          summarize_rows<umax>(rows, stride, mag);
          rep = res_[2];
        }
        special = hn::Gt(res_[2], exp);  // NaN
      } else {
        bool decided = false;
        if (one_sign_) {  // the last group's rows had one sign only (see simd_contig-inl.h)
          summarize_rows<smin | smax>(rows, stride, raw_view{});
          const auto sx = hn::BitCast(di, res_[0]), sn = hn::BitCast(di, res_[1]);
          const auto still = o_.keys.argmin ? hn::RebindMask(du, hn::Not(hn::Lt(sn, hn::Zero(di))))
                                            : hn::RebindMask(du, hn::Lt(sx, hn::Zero(di)));
          if (hn::AllTrue(du, still)) {
            const T nan_above = o_.keys.argmin ? T(tr::exp_mask) : T(tr::sign_mask | tr::exp_mask);
            special = hn::RebindMask(du, hn::Gt(sx, hn::Set(di, static_cast<hn::TFromD<DI>>(nan_above))));
            rep = res_[1];
            decided = true;
          } else {
            one_sign_ = false;
          }
        }
        if (!decided) {
          // Each row needs one reduction laddered (signed max for argmax, unsigned max for
          // argmin); the other only shows NaN, which a group-wide check rules out first.
          const T neg_nan = T(tr::exp_mask | tr::sign_mask);
          bool full;
          if (o_.keys.argmin) {
            summarize_rows<umax, smax>(rows, stride, raw_view{});
            full = max_lane(di, group_[0]) > static_cast<hn::TFromD<DI>>(tr::exp_mask);
          } else {
            summarize_rows<smax, umax>(rows, stride, raw_view{});
            full = max_lane(du, hn::BitCast(du, group_[1])) > neg_nan;
          }
          if (full) summarize_rows<smax | umax>(rows, stride, raw_view{});  // NaN somewhere: per row
          special = o_.keys.argmin || full ? hn::Gt(res_[2], hn::Set(du, neg_nan)) : hn::FirstN(du, 0);
          if (!o_.keys.argmin || full)
            special = hn::Or(special, hn::RebindMask(du, hn::Gt(hn::BitCast(di, res_[0]), hn::BitCast(di, exp))));
          // Rows whose first choice is missing need signed min (see simd_contig-inl.h).
          const auto need_min = o_.keys.argmin ? hn::Lt(res_[2], hn::Set(du, T(tr::sign_mask)))
                                               : hn::RebindMask(du, hn::Lt(hn::BitCast(di, res_[0]), hn::Zero(di)));
          rep = o_.keys.argmin ? res_[2] : res_[0];
          if (!hn::AllFalse(du, hn::AndNot(special, need_min))) {
            summarize_rows<smin>(rows, stride, raw_view{});
            rep = hn::IfThenElse(need_min, res_[1], rep);
            one_sign_ = hn::AllTrue(du, need_min);
          }
        }
      }
    } else if constexpr (tr::is_signed) {
      if (o_.keys.abs) {
        if (o_.keys.argmin) {
          summarize_rows<umin>(rows, stride, iabs_view<DU>{});
          rep = res_[3];
        } else {
          summarize_rows<umax>(rows, stride, iabs_view<DU>{});
          rep = res_[2];
        }
      } else if (o_.keys.argmin) {
        summarize_rows<smin>(rows, stride, raw_view{});
        rep = res_[1];
      } else {
        summarize_rows<smax>(rows, stride, raw_view{});
        rep = res_[0];
      }
    } else {  // unsigned, and bool (whose rows' max/min byte says whether a true is there)
      if (o_.keys.argmin) {
        summarize_rows<umin>(rows, stride, raw_view{});
        rep = res_[3];
      } else {
        summarize_rows<umax>(rows, stride, raw_view{});
        rep = res_[2];
      }
    }
    HWY_ALIGN T reps[HWY_MAX_BYTES / sizeof(T)];
    hn::Store(rep, du, reps);
    const std::uint64_t specials = mask_bits(du, special);
    // Positions first, outputs after: the stores cannot then stall the searches.
    std::uint32_t pos[HWY_MAX_BYTES / sizeof(T)];
    for (size_t i = 0; i < L; ++i)
      pos[i] = (specials >> i) & 1 ? 0 : static_cast<std::uint32_t>(locate(rows + static_cast<std::int64_t>(i) * stride, reps[i]));
    for (size_t i = 0; i < L; ++i) {
      const T* row = rows + static_cast<std::int64_t>(i) * stride;
      const std::int64_t o = out.at(first_row + static_cast<std::int64_t>(i));
      if ((specials >> i) & 1) {
        mark(D, path::rows_special);
        const auto c = scan.run(row, n_);
        store<D>(out, o, cand{c.key, c.pos}, row[c.pos], o_.keys);
      } else {  // no NaN in the row, so its key is not the all-NaN key: index = position
        store<D>(out, o, cand{1, pos[i]}, row[pos[i]], o_.keys);
      }
    }
  }

  /// Position of the first (last) element of the row with the key of `rep`: a bit mask
  /// of matches over the whole row, then one bit scan, no branches.
  size_t locate(const T* row, T rep) const {
    const DU du;
    if constexpr (tr::is_float) {
      const mag_view<DU> mag(du);
      if (o_.keys.abs || static_cast<T>(rep & ~T(tr::sign_mask)) == 0)  // |x| decides, or +-0
        return first_or_last(row, [&](auto v) { return hn::Eq(mag(v), hn::Set(du, static_cast<T>(rep & ~T(tr::sign_mask)))); });
      return first_or_last(row, [&](auto v) { return hn::Eq(v, hn::Set(du, rep)); });
    } else if constexpr (D == dtype::boolean) {
      if (rep != 0) return first_or_last(row, [&](auto v) { return hn::Not(hn::Eq(v, hn::Zero(du))); });
      return first_or_last(row, [&](auto v) { return hn::Eq(v, hn::Zero(du)); });
    } else if constexpr (tr::is_signed) {
      if (o_.keys.abs) return first_or_last(row, [&](auto v) { return hn::Eq(iabs_view<DU>{}(v), hn::Set(du, rep)); });
      return first_or_last(row, [&](auto v) { return hn::Eq(v, hn::Set(du, rep)); });
    } else {
      return first_or_last(row, [&](auto v) { return hn::Eq(v, hn::Set(du, rep)); });
    }
  }

  /// The lanes of a mask as bits (lane j = bit j; at most 32 lanes here).
  static HWY_INLINE std::uint64_t mask_bits(DU du, hn::Mask<DU> m) {
#if HWY_TARGET == HWY_AVX2
    (void)du;
    return hn::detail::BitsFromMask(m);  // movemask, no trip through memory
#else
    std::uint8_t bytes[8];
    hn::StoreMaskBits(du, m, bytes);
    if constexpr (32 / sizeof(T) <= 8) {
      return bytes[0];
    } else {  // read back with a load of the size stored, so the store forwards
      std::uint32_t w;
      if (hn::Lanes(du) <= 16) {
        std::uint16_t h;
        std::memcpy(&h, bytes, 2);
        w = h;
      } else {
        std::memcpy(&w, bytes, 4);
      }
      return w;
    }
#endif
  }

  /// First (last) element of the row that matches: up to 64 elements, a bit mask of the
  /// whole row and one bit scan, no branches; longer rows, vector by vector until a hit.
  template <class Match>
  HWY_INLINE size_t first_or_last(const T* row, const Match& match) const {
    const DU du;
    if (n_ <= 64) {
      std::uint64_t bits = 0;
      for (size_t j = 0; j < chunks(); ++j) {
        const size_t s = chunk_at(j);
        bits |= mask_bits(du, match(hn::LoadU(du, row + s))) << s;
      }
      if (n_ < 64) bits &= (std::uint64_t(1) << n_) - 1;  // a short row's vector holds more than it
      return o_.ties_last ? 63 - static_cast<size_t>(__builtin_clzll(bits)) : static_cast<size_t>(__builtin_ctzll(bits));
    }
    // A hit in the overlap of the last vector and the one before is found in whichever
    // is looked at first, so the first hit seen is the row's first (last).
    if (!o_.ties_last) {
      for (size_t j = 0;; ++j) {
        const std::uint64_t bits = mask_bits(du, match(hn::LoadU(du, row + chunk_at(j))));
        if (bits != 0 || j + 1 == chunks()) return chunk_at(j) + static_cast<size_t>(__builtin_ctzll(bits));
      }
    }
    for (size_t j = chunks(); j-- > 0;) {
      const std::uint64_t bits = mask_bits(du, match(hn::LoadU(du, row + chunk_at(j))));
      if (bits != 0 || j == 0) return chunk_at(j) + 63 - static_cast<size_t>(__builtin_clzll(bits));
    }
    return 0;
  }

  order_params o_;
  size_t n_;
  bool one_sign_ = false;  // floats: the last group's rows all had the sign that needs signed min
  HWY_ALIGN T tile_[4][(32 / sizeof(T)) * (32 / sizeof(T))];  // smax, smin, umax, umin
  hn::Vec<DU> res_[4];
  hn::Vec<DI> group_[2];  // group-wide signed max, unsigned max (as signed lanes)
};

#endif  // ARGX_CPU_LADDER

// AVX-512 gathers a column of a vector's worth of dense rows from the vectors that hold
// them with two-table permutes (Highway has no deinterleaving load past 4 elements).
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
#define ARGX_CPU_PERMUTED_ROWS 1
#else
#define ARGX_CPU_PERMUTED_ROWS 0
#endif

/// The longest dense rows rows_interleaved takes: 4 elements (deinterleaving loads), or,
/// where the permutes below are compiled, 8 of 4 bytes and 6 of 8 bytes. Rows of 96 MiB
/// against the across kernel: 4-byte rows of 5-8 0.31-0.82x the time; 8-byte rows of 5
/// and 6 0.46-0.90x, of 7 and 8 1.04x and 1.15x (a column of 8 rows then takes four
/// permutes and three blends).
template <class T>
constexpr size_t interleaved_max() {
  return !ARGX_CPU_PERMUTED_ROWS || sizeof(T) < 4 ? 4 : sizeof(T) == 4 ? 8 : 6;
}

#if ARGX_CPU_PERMUTED_ROWS
/// Dense rows of n = 5..8 elements of 4 or 8 bytes, a vector's worth (L rows) at a time:
/// the n vectors that hold them are permuted into n columns, column c's lane r element c of
/// row r. Row r's element c lies in the pair of vectors q = (n r + c) / 2L; a column takes
/// one two-table permute a pair, blended by the rows each pair holds.
template <class T>
class row_columns {
 public:
  static constexpr size_t L = 64 / sizeof(T);

  /// Rows of n elements (n <= 4: nothing to set up, the deinterleaving loads take them).
  explicit row_columns(size_t n) : n_(n), pairs_((n + 1) / 2) {
    if (n <= 4) return;
    for (size_t c = 0; c < n; ++c)
      for (size_t q = 0; q < pairs_; ++q) {
        alignas(64) T lane[L] = {};
        unsigned m = 0;
        for (size_t r = 0; r < L; ++r) {
          const size_t e = n * r + c;
          if (e / (2 * L) != q) continue;
          lane[r] = static_cast<T>(e - 2 * L * q);
          m |= 1u << r;
        }
        idx_[c][q] = _mm512_load_si512(lane);
        rows_[c][q] = m;
      }
  }

  /// The n columns of the L rows at p.
  template <class V>
  HWY_INLINE void load(const T* p, V* col) const {
    __m512i v[8];
    for (size_t i = 0; i < n_; ++i) v[i] = _mm512_loadu_si512(p + i * L);
    for (size_t c = 0; c < n_; ++c) {
      __m512i x = permute(v[0], idx_[c][0], v[1]);
      for (size_t q = 1; q < pairs_; ++q)
        x = blend(rows_[c][q], x, permute(v[2 * q], idx_[c][q], v[std::min(2 * q + 1, n_ - 1)]));
      col[c].raw = x;
    }
  }

 private:
  static HWY_INLINE __m512i permute(__m512i a, __m512i i, __m512i b) {
    if constexpr (sizeof(T) == 4) return _mm512_permutex2var_epi32(a, i, b);
    return _mm512_permutex2var_epi64(a, i, b);
  }
  static HWY_INLINE __m512i blend(unsigned m, __m512i a, __m512i b) {
    if constexpr (sizeof(T) == 4) return _mm512_mask_blend_epi32(static_cast<__mmask16>(m), a, b);
    return _mm512_mask_blend_epi64(static_cast<__mmask8>(m), a, b);
  }

  size_t n_, pairs_;
  __m512i idx_[8][4];
  unsigned rows_[8][4];
};
#endif

/// Dense rows of n = 2 to interleaved_max elements (rows one after the other): a vector's
/// worth of rows is loaded deinterleaved (or permuted: row_columns), so that vector i
/// holds element i of every row, and each row (lane) keeps its running best over the n
/// vectors, the tie rule a plain > or >=. Returns how many rows it took (whole vectors of
/// rows; the caller takes the rest).
template <dtype D>
std::int64_t rows_interleaved(const dtype_bits_t<D>* data, std::int64_t count, size_t n, order_params o, const sink& out) {
  using T = dtype_bits_t<D>;
  const hn::ScalableTag<T> dk;
  const std::int64_t L = static_cast<std::int64_t>(hn::Lanes(dk));
  std::int64_t r = 0;
  if (count < L) return 0;
  mark(D, path::rows_interleaved);
#if ARGX_CPU_PERMUTED_ROWS
  using columns = std::conditional_t<sizeof(T) >= 4, row_columns<T>, int>;
  [[maybe_unused]] const columns cols(n);
#endif
  // Indices one after the other, none of them -1 (only an all-NaN row under nan ignore has
  // that): the indices are all there is to store.
  const bool indices_only = !out.values && out.step == 1 && !(dtype_traits<D>::is_float && o.keys.nan_ignore);
  with_keyer<D>(dk, o.keys, [&](const auto& key) {
    // The row loop once per tie rule, so that each step in it is branch-free.
    auto groups = [&](auto ties_last) {
      // Zeroed once: GCC cannot see that each vector's Store fills the lanes read after it.
      HWY_ALIGN T keys[HWY_MAX_BYTES / sizeof(T)] = {}, idx[HWY_MAX_BYTES / sizeof(T)] = {};
      for (; r + L <= count; r += L) {
        const T* p = data + r * static_cast<std::int64_t>(n);
        hn::Vec<decltype(dk)> v[interleaved_max<T>()];
        if (n == 2) hn::LoadInterleaved2(dk, p, v[0], v[1]);
        else if (n == 3) hn::LoadInterleaved3(dk, p, v[0], v[1], v[2]);
        else if (interleaved_max<T>() == 4 || n == 4) hn::LoadInterleaved4(dk, p, v[0], v[1], v[2], v[3]);
#if ARGX_CPU_PERMUTED_ROWS
        else if constexpr (sizeof(T) >= 4) cols.load(p, v);
#endif
        auto best = key(v[0]), at = hn::Zero(dk);
        for (size_t i = 1; i < n; ++i)
          lane_step<decltype(ties_last)::value>(best, at, key(v[i]), hn::Set(dk, static_cast<T>(i)));
        hn::Store(at, dk, idx);
        if (indices_only) {  // widened in a loop that vectorises
          with_index_array(out.indices, out.index, [&](auto* indices) {
            // The count from the tag, not L, so that it stays a constant after inlining; dst
            // is taken first, since the stores may alias `out`.
            auto* dst = indices + out.at(r);
            for (size_t i = 0; i < hn::Lanes(dk); ++i) dst[i] = idx[i];
          });
          continue;
        }
        hn::Store(best, dk, keys);
        // The lane key is 0 exactly for the all-NaN key, as order_key's: store reads only that.
        for (std::int64_t i = 0; i < L; ++i)
          store<D>(out, out.at(r + i), cand{keys[i], static_cast<std::int64_t>(idx[i])},
                   p[i * static_cast<std::int64_t>(n) + idx[i]], o.keys);
      }
    };
    if (o.ties_last)
      groups(std::true_type{});
    else
      groups(std::false_type{});
  });
  return r;
}

/// Rows of n contiguous elements each: deinterleaved when dense and of 2 to
/// interleaved_max elements (unless `interleaved_done`: those rows are taken), across rows
/// when short, one contig_scan per row otherwise.
template <dtype D>
void rows_from(const void* data, std::int64_t count, std::int64_t row_stride, std::int64_t n, order_params o,
               const sink& out, bool interleaved_done) {
  using T = dtype_bits_t<D>;
  if (row_stride < 0 && count > 1) {  // rows going down in memory: taken up, outputs backwards
    sink up = out;
    up.first = out.at(count - 1);
    up.step = -out.step;
    return rows_from<D>(static_cast<const T*>(data) + (count - 1) * row_stride, count, -row_stride, n, o, up, interleaved_done);
  }
  contig_scan<D> scan(o);
  const T* base = static_cast<const T*>(data);
  if (n == 1) {  // every row's winner is its element (index -1 only for an ignored NaN)
    mark(D, path::rows_single);
    // Every index is 0 unless an ignored NaN makes it -1: when only indices are asked
    // for and no NaN can be ignored, nothing needs reading (the outputs are the traffic).
    if (out.keys == nullptr && out.values == nullptr && !(dtype_traits<D>::is_float && o.keys.nan_ignore)) {
      with_index_array(out.indices, out.index, [&](auto* dst) {
        for (std::int64_t r = 0; r < count; ++r) dst[out.at(r)] = 0;
      });
      return;
    }
    for (std::int64_t r = 0; r < count; ++r) {
      const T v = base[r * row_stride];
      store<D>(out, out.at(r), cand{order_key<D>(v, o.keys), 0}, v, o.keys);
    }
    return;
  }
  if (row_stride == n && n <= static_cast<std::int64_t>(interleaved_max<T>()) && out.keys == nullptr && !interleaved_done) {
    const std::int64_t done = rows_interleaved<D>(base, count, static_cast<size_t>(n), o, out);
    if (done == count) return;
    sink rest = out;
    rest.first = out.at(done);
    return rows_from<D>(base + done * n, count - done, row_stride, n, o, rest, true);
  }
#if ARGX_CPU_LADDER
  const size_t L = hn::Lanes(hn::CappedTag<T, 32 / sizeof(T)>());
  const size_t len = static_cast<size_t>(n), chunks = (len + L - 1) / L;
  if (len >= 2 && len * sizeof(T) <= static_cast<size_t>(short_row_bytes)) {
    auto across = [&](auto c) {
      rows_across<D, decltype(c)::value, false> a(o, len);
      a.run(base, count, row_stride, out, scan);
    };
    // 64-bit rows of three vectors (9-12 elements) compiled with the count too: in the
    // walk of any count they took 1.4-1.6x the time (float64 rows of 11). Not for the
    // other sizes here: a fourth count in their rows_from laid out their short rows' loop
    // anew (uint16 rows of 6 1.25x slower, int16 rows of 3 1.10x). rows_looking, a function of
    // its own, has it for every size.
    if constexpr (sizeof(T) == 8)
      if (chunks == 3) return across(std::integral_constant<size_t, 3>{});
    switch (chunks) {
      case 1: return across(std::integral_constant<size_t, 1>{});
      case 2: return across(std::integral_constant<size_t, 2>{});
      case 4: return across(std::integral_constant<size_t, 4>{});
      default: return across(std::integral_constant<size_t, 0>{});
    }
  }
#endif
  // A row's scan pauses reading while it searches its winning block; the next row
  // (when short enough) is prefetched first so that memory stays busy meanwhile. A scan
  // that stopped at the top key read little of its row: then only the next row's start.
  const std::int64_t row_bytes = n * static_cast<std::int64_t>(sizeof(T));
  const std::int64_t prefetch_bytes = row_bytes <= 16384 ? row_bytes : 0;
  const auto top = top_key<D>(o.keys);
  std::int64_t ahead = prefetch_bytes;
  mark(D, path::rows_scan);
  const T* row = base;
  for (std::int64_t r = 0; r < count; ++r, row += row_stride) {
    if (r + 1 < count)
      for (std::int64_t b = 0; b < ahead; b += 64) hwy::Prefetch(reinterpret_cast<const char*>(row + row_stride) + b);
    const auto c = scan.run(row, static_cast<size_t>(n));
    store<D>(out, out.at(r), cand{c.key, c.pos}, row[c.pos], o.keys);
    ahead = !o.ties_last && c.key == top ? std::min<std::int64_t>(prefetch_bytes, 64) : prefetch_bytes;
  }
}

#if ARGX_CPU_LADDER
/// Rows for the across kernel that may stop at the top key (see rows_across's Looks).
/// A function apart from rows_from: with the looking loop inside it, rows that cannot stop
/// ran 1.2-1.5x slower (int64 rows of 2, uint64 rows of 22: the compiler laid out the
/// common loop differently).
template <dtype D>
HWY_NOINLINE void rows_looking(const dtype_bits_t<D>* base, std::int64_t count, std::int64_t row_stride, size_t len,
                               order_params o, const sink& out) {
  if (row_stride < 0 && count > 1) {  // taken up, outputs backwards (as rows_from)
    sink up = out;
    up.first = out.at(count - 1);
    up.step = -out.step;
    return rows_looking<D>(base + (count - 1) * row_stride, count, -row_stride, len, o, up);
  }
  contig_scan<D> scan(o);
  auto across = [&](auto c) {
    rows_across<D, decltype(c)::value, true> a(o, len);
    a.run(base, count, row_stride, out, scan);
  };
  switch ((len + hn::Lanes(hn::CappedTag<dtype_bits_t<D>, 32 / sizeof(dtype_bits_t<D>)>()) - 1) /
          hn::Lanes(hn::CappedTag<dtype_bits_t<D>, 32 / sizeof(dtype_bits_t<D>)>())) {
    case 1: return across(std::integral_constant<size_t, 1>{});
    case 2: return across(std::integral_constant<size_t, 2>{});
    case 3: return across(std::integral_constant<size_t, 3>{});
    case 4: return across(std::integral_constant<size_t, 4>{});
    default: return across(std::integral_constant<size_t, 0>{});
  }
}
#endif

/// Rows kernel entry point; see dtype_kernels::rows.
template <dtype D>
void rows(const void* data, std::int64_t count, std::int64_t row_stride, std::int64_t n, order_params o,
          const sink& out) {
#if ARGX_CPU_LADDER
  // Rows may stop at the top key: integers and bool with ties going first (for floats
  // that is NaN or an infinity, too rare in a row's first vector to look for). Rows within
  // a cache line or two save no reads by stopping, and calls of a few groups (rows_along)
  // would pay a look each.
  const std::int64_t row_bytes = n * static_cast<std::int64_t>(sizeof(dtype_bits_t<D>));
  if constexpr (!dtype_traits<D>::is_float)
    if (!o.ties_last && row_bytes > 64 && row_bytes <= short_row_bytes)
      return rows_looking<D>(static_cast<const dtype_bits_t<D>*>(data), count, row_stride, static_cast<size_t>(n), o, out);
#endif
  rows_from<D>(data, count, row_stride, n, o, out, false);
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#undef ARGX_CPU_LADDER
#undef ARGX_CPU_PERMUTED_ROWS

#endif  // include guard toggle
