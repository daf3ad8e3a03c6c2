// Thread level of the column kernel (vector_axis::column): a thread owns a group of 16
// bytes' worth of neighbouring outputs (columns) and walks reduced rows, keeping one best
// per column. Rows whose columns do not start on a 16-byte boundary are read as two
// aligned vectors and shifted. One- and two-byte elements of plain reductions are compared
// four or two at a time, with the row of each column's best kept as a byte or half-word
// count; wider ones and the other reductions one column at a time.
#pragma once

#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "elements.cuh"
#include "layout.hpp"

namespace argx::detail::gpu {

/// A thread's column group: compact outputs first .. first + cols - 1, whose row-0 elements
/// start at `col`.
template <dtype D>
struct column_group {
  std::int64_t first = 0;
  const dtype_bits_t<D>* col = nullptr;
  int cols = 0;

  /// Group g of a layout (groups run along the column axis, then the outer kept axes).
  __device__ static column_group of(const layout& l, std::int64_t g, std::int64_t per_outer) {
    constexpr int V = vec_elems<D>;
    const std::int64_t C = l.column_axis().extent, outer = g / per_outer, c0 = (g - outer * per_outer) * V;
    const std::int64_t off = l.kept.outer_offset_of(outer);
    column_group c;
    c.first = outer * C + c0;
    c.col = static_cast<const dtype_bits_t<D>*>(l.data) + off + c0;
    c.cols = C - c0 < V ? static_cast<int>(C - c0) : V;
    return c;
  }
};

/// Input offset of reduced row t.
__device__ __forceinline__ std::int64_t row_offset(const layout& l, std::int64_t t) {
  if (l.red.n == 1) return t * l.red.at[0].stride;
  if (l.red.n == 2) {
    const std::int64_t e = l.red.at[1].extent, a = t / e;
    return a * l.red.at[0].stride + (t - a * e) * l.red.at[1].stride;
  }
  return l.red.offset_of(t);
}

/// One best per column, column by column: plain float32/float64 compare values (NaN above
/// every number, ±0 equal), everything else compares keys. k is the thread's row count.
template <dtype D, bool Plain, bool Values = Plain && (D == dtype::f32 || D == dtype::f64)>
struct column_bests {
  static constexpr int V = vec_elems<D>;
  dtype_key_t<D> key[V];
  unsigned at[V];
  bool ties_last;
  __device__ __forceinline__ void start(key_params, bool tl) {
    ties_last = tl;
#pragma unroll
    for (int j = 0; j < V; ++j) key[j] = 0, at[j] = 0;
  }
  __device__ __forceinline__ void take(const vec<D>& x, unsigned k, key_params kp) {
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const dtype_key_t<D> kk = order_key<D>(x.at(j), loop_keys<Plain>(kp));
      const bool b = later_beats(kk, key[j], ties_last);
      key[j] = b ? kk : key[j];
      at[j] = b ? k : at[j];
    }
  }
  __device__ __forceinline__ void get(int j, key_params, dtype_key_t<D>& k, unsigned& row) const {
    k = key[j];
    row = at[j];
  }
};
template <dtype D, bool Plain>
struct column_bests<D, Plain, true> {
  static constexpr int V = vec_elems<D>;
  using B = dtype_bits_t<D>;
  B bits[V];
  unsigned at[V];
  B flip;
  bool ties_last;
  __device__ __forceinline__ void start(key_params kp, bool tl) {
    ties_last = tl;
    flip = value_ops<D>::flip(kp.argmin);
#pragma unroll
    for (int j = 0; j < V; ++j) bits[j] = static_cast<B>(lowest_bits<D>() ^ flip), at[j] = 0;
  }
  __device__ __forceinline__ void take(const vec<D>& x, unsigned k, key_params) {
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const B e = x.at(j);
      const bool b = ties_last ? value_ops<D>::template later_beats<true>(e, bits[j], flip)
                               : value_ops<D>::template later_beats<false>(e, bits[j], flip);
      bits[j] = b ? e : bits[j];
      at[j] = b ? k : at[j];
    }
  }
  __device__ __forceinline__ void get(int j, key_params kp, dtype_key_t<D>& k, unsigned& row) const {
    k = order_key<D>(bits[j], loop_keys<true>(kp));
    row = at[j];
  }
};

/// Packed bests of a plain reduction of one- or two-byte elements: four (two) columns per
/// 32-bit word, compared in one instruction, their rows kept as byte (half-word) counts.
/// A thread may take at most 256 (65536) rows. Values are kept in a compare domain:
/// argmin flips them so that the largest wins; bool becomes 0 or 1.
template <dtype D>
struct packed_bests {
  static constexpr int size = sizeof(dtype_bits_t<D>);
  static constexpr bool half_float = D == dtype::f16 || D == dtype::bf16;
  static constexpr std::uint32_t ones = size == 1 ? 0x01010101u : 0x00010001u;
  std::uint32_t best[4], at[4], flip;
  bool ties_last;

  __device__ __forceinline__ void start(key_params kp, bool tl) {
    ties_last = tl;
    flip = D == dtype::boolean ? (kp.argmin ? 0x01010101u : 0u) : value_ops<D>::flip(kp.argmin) * ones;
    const std::uint32_t low = D == dtype::boolean ? 0u : static_cast<std::uint32_t>(lowest_bits<D>()) * ones;
#pragma unroll
    for (int i = 0; i < 4; ++i) best[i] = low, at[i] = 0;
  }
  // Lanes (bytes or halves) where c beats the best: a larger value (NaN above every number),
  // or an equal one with ties = last.
  __device__ __forceinline__ std::uint32_t beats(std::uint32_t c, std::uint32_t b) const {
    if constexpr (half_float) {
      using T2 = std::conditional_t<D == dtype::f16, __half2, __nv_bfloat162>;
      const T2 x = value_ops_detail::from_bits<T2>(c), y = value_ops_detail::from_bits<T2>(b);
      const std::uint32_t nan_x = __hneu2_mask(x, x);
      return ties_last ? __hge2_mask(x, y) | nan_x : __hgt2_mask(x, y) | (nan_x & ~__hneu2_mask(y, y));
    } else if constexpr (size == 1) {
      if constexpr (dtype_traits<D>::is_signed) return ties_last ? __vcmpges4(c, b) : __vcmpgts4(c, b);
      return ties_last ? __vcmpgeu4(c, b) : __vcmpgtu4(c, b);
    } else {
      if constexpr (dtype_traits<D>::is_signed) return ties_last ? __vcmpges2(c, b) : __vcmpgts2(c, b);
      return ties_last ? __vcmpgeu2(c, b) : __vcmpgtu2(c, b);
    }
  }
  __device__ __forceinline__ void take(const vec<D>& x, unsigned k, key_params) {
    const std::uint32_t kk = k * ones;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      std::uint32_t c = x.w[i];
      if constexpr (D == dtype::boolean) c = __vcmpne4(c, 0u) & 0x01010101u;
      c ^= flip;
      const std::uint32_t m = beats(c, best[i]);
      best[i] = (c & m) | (best[i] & ~m);
      at[i] = (kk & m) | (at[i] & ~m);
    }
  }
  __device__ __forceinline__ void get(int j, key_params kp, dtype_key_t<D>& key, unsigned& row) const {
    constexpr int per_word = 4 / size, bits = 8 * size;
    const int word = j / per_word, shift = bits * (j % per_word);
    const std::uint32_t mask = size == 1 ? 0xffu : 0xffffu;
    const auto raw = static_cast<dtype_bits_t<D>>(((best[word] ^ flip) >> shift) & mask);
    key = order_key<D>(raw, loop_keys<true>(kp));
    row = (at[word] >> shift) & mask;
  }
};

/// The offsets of rows first, first + step, ... of one or two reduced axes, kept up to date
/// as the walk moves on (no division per row): row t = a * e1 + b lies at a * s0 + b * s1.
template <bool TwoAxes>
struct row_walk {
  std::int64_t off;         ///< the current row's offset
  std::int64_t b, e1;       ///< its index along the inner axis, and that axis' extent
  std::int64_t d_off, d_b;  ///< what one step adds to off and to b, before a carry
  std::int64_t carry_off;   ///< what a carry (b reaching e1) adds to off

  __device__ __forceinline__ static row_walk of(const layout& l, std::int64_t first, std::int64_t step) {
    row_walk w;
    const axis& outer = l.red.at[0];
    if constexpr (!TwoAxes) {
      w.off = first * outer.stride;
      w.b = 0;
      w.e1 = 1;
      w.d_off = step * outer.stride;
      w.d_b = 0;
      w.carry_off = 0;
      return w;
    }
    const axis& inner = l.red.at[1];
    w.e1 = inner.extent;
    const std::int64_t a = first / w.e1, q = step / w.e1;
    w.b = first - a * w.e1;
    w.d_b = step - q * w.e1;
    w.off = a * outer.stride + w.b * inner.stride;
    w.d_off = q * outer.stride + w.d_b * inner.stride;
    w.carry_off = outer.stride - w.e1 * inner.stride;
    return w;
  }
  __device__ __forceinline__ void next() {
    off += d_off;
    if constexpr (TwoAxes) {
      b += d_b;
      if (b >= e1) {
        b -= e1;
        off += carry_off;
      }
    }
  }
};

/// Whether every row of the slice of a column group (all its reduced positions) can be read
/// without a test: the vectors its 16-byte windows touch lie inside the tensor's bytes.
/// False only for the groups at the tensor's two ends, which take the careful walk.
template <dtype D, bool Aligned>
__device__ __forceinline__ bool rows_inside(const layout& l, const column_group<D>& g) {
  std::int64_t lo = 0, hi = 0;
  ARGX_AXIS_LOOP
  for (int d = 0; d < l.red.n; ++d) {
    const std::int64_t reach = (l.red.at[d].extent - 1) * l.red.at[d].stride;
    (reach < 0 ? lo : hi) += reach;
  }
  constexpr std::int64_t elem = sizeof(dtype_bits_t<D>);
  const std::uintptr_t col = reinterpret_cast<std::uintptr_t>(g.col);
  const std::uintptr_t first = (col + static_cast<std::uintptr_t>(lo * elem)) & ~std::uintptr_t(15);
  const std::uintptr_t last = ((col + static_cast<std::uintptr_t>(hi * elem)) & ~std::uintptr_t(15)) + (Aligned ? 16 : 32);
  return first >= l.span_begin && last <= l.span_end;
}

/// The 16 bytes at p (aligned to the element size), whose first `need` bytes are wanted, as
/// one or two aligned vectors shifted; both vectors are known to lie inside the tensor.
template <dtype D>
__device__ __forceinline__ vec<D> load_window(const dtype_bits_t<D>* p, int need, bool ok) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const int phase = static_cast<int>(at & 15u);
  const auto* a = reinterpret_cast<const dtype_bits_t<D>*>(at - phase);
  const vec<D> lo = load_vec_if<D>(a, ok);
  const vec<D> hi = load_vec_if<D>(a + vec_elems<D>, ok && phase + need > 16);
  vec<D> out;
  funnel<static_cast<int>(sizeof(dtype_bits_t<D>))>(lo.w, hi.w, phase, out.w);
  return out;
}

/// scan_columns for a group whose rows all lie inside the tensor, over one or two reduced
/// axes: whole batches of Unroll rows are loaded without any test, then one last batch
/// with each row's load predicated on being in range.
template <dtype D, int Unroll, bool Aligned, bool TwoAxes, class Acc>
__device__ __forceinline__ void scan_columns_inside(const layout& l, const column_group<D>& g, std::int64_t first,
                                                    std::int64_t end, std::int64_t step, key_params kp, Acc& acc) {
  if (first >= end) return;
  const int need = g.cols * static_cast<int>(sizeof(dtype_bits_t<D>));
  const std::int64_t rows = (end - first + step - 1) / step;  // rows this thread walks
  row_walk<TwoAxes> w = row_walk<TwoAxes>::of(l, first, step);
  auto load = [&](bool ok) {
    const vec<D> x = Aligned ? load_vec_if<D>(g.col + w.off, ok) : load_window<D>(g.col + w.off, need, ok);
    w.next();
    return x;
  };
  unsigned k = 0;
  for (std::int64_t left = rows; left >= Unroll; left -= Unroll) {
    vec<D> x[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) x[u] = load(true);
#pragma unroll
    for (int u = 0; u < Unroll; ++u) acc.take(x[u], k + u, kp);
    k += Unroll;
  }
  const int tail = static_cast<int>(rows % Unroll);
  if (tail == 0) return;
  vec<D> x[Unroll];
#pragma unroll
  for (int u = 0; u < Unroll; ++u) x[u] = load(u < tail);
#pragma unroll
  for (int u = 0; u < Unroll; ++u)
    if (u < tail) acc.take(x[u], k + u, kp);
}

/// scan_columns for the groups at the tensor's ends (or of three and more reduced axes):
/// each row's vectors are checked against the tensor's bytes, those reaching past its ends
/// read element by element.
template <dtype D, int Unroll, bool Aligned, class Acc>
__device__ __forceinline__ void scan_columns_careful(const layout& l, const column_group<D>& g, std::int64_t first,
                                                     std::int64_t end, std::int64_t step, key_params kp, Acc& acc) {
  using B = dtype_bits_t<D>;
  const int need = g.cols * static_cast<int>(sizeof(B));
  unsigned k = 0;
  for (std::int64_t t = first; t < end; t += Unroll * step) {
    vec<D> x[Unroll];
    unsigned outside = 0;  // rows whose vectors reach past the tensor's ends: read again below
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const bool ok = t + u * step < end;
      const B* p = g.col + (ok ? row_offset(l, t + u * step) : 0);
      bool out = false;
      if constexpr (Aligned) {
        out = ok && !vec_inside(p, l.span_begin, l.span_end);
        x[u] = load_vec_if<D>(p, ok && !out);
      } else {
        x[u] = load_window_fast<D>(p, need, l.span_begin, l.span_end, ok, out);
      }
      outside |= static_cast<unsigned>(out) << u;
    }
    if (outside != 0)  // rare: the tensor's first or last 16 bytes
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if (outside >> u & 1u) {
          const B* p = g.col + row_offset(l, t + u * step);
          x[u] = Aligned ? load_vec_in<D>(p, l.span_begin, l.span_end) : load_window_in<D>(p, need, l.span_begin, l.span_end);
        }
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (t + u * step < end) acc.take(x[u], k + u, kp);
    k += Unroll;
  }
}

/// Folds rows first, first + step, ... < end of a column group into `acc` (the thread's
/// k-th row is first + k * step); Unroll rows are loaded before any is folded. The row
/// tests of the careful walk cost as many instructions as the fold itself, so every group
/// whose rows all lie inside the tensor skips them.
template <dtype D, int Unroll, bool Aligned, class Acc>
__device__ __forceinline__ void scan_columns(const layout& l, const column_group<D>& g, std::int64_t first,
                                             std::int64_t end, std::int64_t step, key_params kp, Acc& acc) {
  if (l.red.n <= 2 && rows_inside<D, Aligned>(l, g)) {
    if (l.red.n == 1)
      scan_columns_inside<D, Unroll, Aligned, false>(l, g, first, end, step, kp, acc);
    else
      scan_columns_inside<D, Unroll, Aligned, true>(l, g, first, end, step, kp, acc);
  } else {
    scan_columns_careful<D, Unroll, Aligned>(l, g, first, end, step, kp, acc);
  }
}

}  // namespace argx::detail::gpu
