// Thread level of the column kernel (vector_axis::column): a thread owns a group of 16
// bytes' worth of neighbouring outputs (columns) and walks reduced rows, keeping one best
// per column. Rows whose columns do not start on a 16-byte boundary are read as two
// aligned vectors and shifted. One- and two-byte elements of plain reductions are compared
// four or two at a time, with the row of each column's best kept as a byte or half-word
// count; wider ones and the other reductions one column at a time. Wide groups of rows that
// start anywhere can be read shuffled instead: a lane loads one aligned vector and takes the
// next one from its neighbour lane, so a row costs one load, not two.
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
    if (l.red.small) {
      std::uint32_t j = static_cast<std::uint32_t>(t);
      const std::int64_t k = l.red.at[1].take_index(j);
      return j * l.red.at[0].stride + k * l.red.at[1].stride;
    }
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
  static constexpr bool ties_compiled = false;  ///< compiled in: within noise (NOTES v6.15)
  dtype_key_t<D> key[V];
  unsigned at[V];
  __device__ __forceinline__ void start(key_params) {
#pragma unroll
    for (int j = 0; j < V; ++j) key[j] = 0, at[j] = 0;
  }
  template <class Ties>
  __device__ __forceinline__ void take(const vec<D>& x, unsigned k, key_params kp, Ties ties_last) {
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const dtype_key_t<D> kk = order_key<D>(x.at(j), loop_keys<Plain>(kp));
      const bool b = later_beats(kk, key[j], static_cast<bool>(ties_last));
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
  static constexpr bool ties_compiled = false;  ///< compiled in: within noise (NOTES v6.15)
  B bits[V];
  unsigned at[V];
  B flip;
  __device__ __forceinline__ void start(key_params kp) {
    flip = value_ops<D>::flip(kp.argmin);
#pragma unroll
    for (int j = 0; j < V; ++j) bits[j] = static_cast<B>(lowest_bits<D>() ^ flip), at[j] = 0;
  }
  template <class Ties>
  __device__ __forceinline__ void take(const vec<D>& x, unsigned k, key_params, Ties ties_last) {
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
  /// The walk is compiled once per tie rule: known only at run time, both packed compares
  /// of every word were issued, one predicated off (a quarter of a packed row's instructions).
  static constexpr bool ties_compiled = true;
  std::uint32_t best[4], at[4], flip;

  __device__ __forceinline__ void start(key_params kp) {
    flip = D == dtype::boolean ? (kp.argmin ? 0x01010101u : 0u) : value_ops<D>::flip(kp.argmin) * ones;
    const std::uint32_t low = D == dtype::boolean ? 0u : static_cast<std::uint32_t>(lowest_bits<D>()) * ones;
#pragma unroll
    for (int i = 0; i < 4; ++i) best[i] = low, at[i] = 0;
  }
  // Lanes (bytes or halves) where c beats the best: a larger value (NaN above every number),
  // or an equal one with ties = last.
  template <class Ties>
  __device__ __forceinline__ static std::uint32_t beats(std::uint32_t c, std::uint32_t b, Ties ties_last) {
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
  template <class Ties>
  __device__ __forceinline__ void take(const vec<D>& x, unsigned k, key_params, Ties ties_last) {
    const std::uint32_t kk = k * ones;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      std::uint32_t c = x.w[i];
      if constexpr (D == dtype::boolean) c = __vcmpne4(c, 0u) & 0x01010101u;
      c ^= flip;
      const std::uint32_t m = beats(c, best[i], ties_last);
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

/// scan_columns for one reduced axis (OneAxis) or several.
template <dtype D, int Unroll, bool Aligned, bool OneAxis, class Acc, class Ties>
__device__ __forceinline__ void scan_columns_on(const layout& l, const column_group<D>& g, std::int64_t first,
                                                std::int64_t end, std::int64_t step, key_params kp, Acc& acc,
                                                Ties ties_last) {
  using B = dtype_bits_t<D>;
  const int need = g.cols * static_cast<int>(sizeof(B));
  // One reduced axis: the row's offset moves by a constant (no division per row).
  const std::int64_t stride = l.red.at[0].stride, jump = step * stride;
  auto offset = [&](std::int64_t t) { return OneAxis ? t * stride : row_offset(l, t); };
  const B* row = g.col + offset(first);
  unsigned k = 0;
  for (std::int64_t t = first; t < end; t += Unroll * step) {
    if constexpr (OneAxis) {
      // A whole batch whose vectors all lie inside the tensor (every batch but those at
      // its two ends): read without a test per row.
      const B* last = row + (Unroll - 1) * jump;
      if (t + (Unroll - 1) * step < end && batch_inside<Aligned>(jump >= 0 ? row : last, jump >= 0 ? last : row,
                                                                  l.span_begin, l.span_end)) {
        vec<D> x[Unroll];
#pragma unroll
        for (int u = 0; u < Unroll; ++u) x[u] = Aligned ? load_vec_if<D>(row + u * jump, true) : load_window_inside<D>(row + u * jump, need);
#pragma unroll
        for (int u = 0; u < Unroll; ++u) acc.take(x[u], k + u, kp, ties_last);
        k += Unroll;
        row += Unroll * jump;
        continue;
      }
    }
    vec<D> x[Unroll];
    unsigned outside = 0;  // rows whose vectors reach past the tensor's ends: read again below
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const bool ok = t + u * step < end;
      const B* p = OneAxis ? row + u * jump : g.col + (ok ? offset(t + u * step) : 0);
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
          const B* p = g.col + offset(t + u * step);
          x[u] = Aligned ? load_vec_in<D>(p, l.span_begin, l.span_end) : load_window_in<D>(p, need, l.span_begin, l.span_end);
        }
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (t + u * step < end) acc.take(x[u], k + u, kp, ties_last);
    k += Unroll;
    if constexpr (OneAxis) row += Unroll * jump;
  }
}

/// Folds rows first, first + step, ... < end of a column group into `acc` (the thread's
/// k-th row is first + k * step); Unroll rows are loaded before any is folded.
template <dtype D, int Unroll, bool Aligned, class Acc, class Ties>
__device__ __forceinline__ void scan_columns(const layout& l, const column_group<D>& g, std::int64_t first,
                                             std::int64_t end, std::int64_t step, key_params kp, Acc& acc,
                                             Ties ties_last) {
  if (l.red.n == 1)
    scan_columns_on<D, Unroll, Aligned, true>(l, g, first, end, step, kp, acc, ties_last);
  else
    scan_columns_on<D, Unroll, Aligned, false>(l, g, first, end, step, kp, acc, ties_last);
}

/// What a lane of a shuffled warp (column_read::shuffled) reads of each row: the 16 bytes
/// at `col` (row 0) are the window of its group, if it holds one (`need` bytes of it), and
/// the vector its left neighbour's window continues into: a lane that holds no group still
/// reads them when they start inside the outer row's groups (`loads`), or, right after its
/// last group (of `tail_need` bytes), when that group's window reaches them.
template <dtype D>
struct shuffled_lane {
  const dtype_bits_t<D>* col = nullptr;
  int need = 0;
  int tail_need = 0;
  bool loads = false;
};

/// A shuffled lane's window: its aligned vector `x` continued by its neighbour lane's,
/// shifted by `phase` bytes (every lane of the warp calls it; the last lane's is unused).
template <dtype D>
__device__ __forceinline__ vec<D> window_from_neighbour(const vec<D>& x, int phase) {
  vec<D> next, w;
#pragma unroll
  for (int i = 0; i < 4; ++i) next.w[i] = __shfl_down_sync(0xffffffffu, x.w[i], 1);
  funnel<static_cast<int>(sizeof(dtype_bits_t<D>))>(x.w, next.w, phase, w.w);
  return w;
}

/// scan_columns for a shuffled lane, one reduced axis (OneAxis) or several. Every lane of
/// the warp takes part (the shuffles need them all) and walks the same rows; a batch's
/// loads are all issued before its rows are shifted and folded.
template <dtype D, int Unroll, bool OneAxis, class Acc, class Ties>
__device__ __forceinline__ void scan_columns_shuffled_on(const layout& l, const shuffled_lane<D>& lane,
                                                         std::int64_t first, std::int64_t end, std::int64_t step,
                                                         key_params kp, Acc& acc, Ties ties_last) {
  using B = dtype_bits_t<D>;
  static_assert(Unroll <= 8, "a row's phase is kept in 4 bits of one word");
  const std::int64_t stride = l.red.at[0].stride, jump = step * stride;
  auto row = [&](std::int64_t t) { return lane.col + (OneAxis ? t * stride : row_offset(l, t)); };
  auto inside = [&](const B* p) { return vec_inside(p, l.span_begin, l.span_end); };
  unsigned k = 0;
  for (std::int64_t t = first; t < end; t += Unroll * step, k += Unroll) {
    const B* base = OneAxis ? row(t) : nullptr;
    if constexpr (OneAxis) {
      // A whole batch inside the tensor for every lane (as in scan_columns_on; the warp
      // decides together, its shuffles need every lane): no test per row.
      const B* last = base + (Unroll - 1) * jump;
      if (__all_sync(0xffffffffu, t + (Unroll - 1) * step < end &&
                                      batch_inside<false>(jump >= 0 ? base : last, jump >= 0 ? last : base,
                                                          l.span_begin, l.span_end))) {
        vec<D> x[Unroll];
        unsigned phases = 0;
#pragma unroll
        for (int u = 0; u < Unroll; ++u) {
          const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(base + u * jump);
          const int phase = static_cast<int>(at & 15u);
          x[u] = load_vec_if<D>(reinterpret_cast<const B*>(at - phase), lane.loads || phase + lane.tail_need > 16);
          phases |= static_cast<unsigned>(phase) << (4 * u);
        }
#pragma unroll
        for (int u = 0; u < Unroll; ++u)
          acc.take(window_from_neighbour<D>(x[u], static_cast<int>(phases >> (4 * u) & 15u)), k + u, kp, ties_last);
        continue;
      }
    }
    vec<D> x[Unroll];
    unsigned outside = 0, phases = 0;  // rows read again below; each row's byte phase, 4 bits a row
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const bool ok = t + u * step < end;
      const B* p = OneAxis ? base + u * jump : (ok ? row(t + u * step) : lane.col);
      const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
      const int phase = static_cast<int>(at & 15u);
      const auto* a = reinterpret_cast<const B*>(at - phase);
      const bool in_a = inside(a), wanted = lane.loads || phase + lane.tail_need > 16;
      x[u] = load_vec_if<D>(a, ok && wanted && in_a);
      // The window reaches a vector outside the tensor (its first or last).
      const bool out = ok && lane.need > 0 && (!in_a || (phase + lane.need > 16 && !inside(a + vec_elems<D>)));
      outside |= static_cast<unsigned>(out) << u;
      phases |= static_cast<unsigned>(phase) << (4 * u);
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) x[u] = window_from_neighbour<D>(x[u], static_cast<int>(phases >> (4 * u) & 15u));
    if (outside != 0)  // rare: the tensor's first or last 16 bytes, read element by element
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if (outside >> u & 1u) x[u] = load_window_in<D>(row(t + u * step), lane.need, l.span_begin, l.span_end);
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      if (t + u * step < end) acc.take(x[u], k + u, kp, ties_last);
  }
}

/// Folds rows first, first + step, ... < end of a shuffled lane's group into `acc`.
template <dtype D, int Unroll, class Acc, class Ties>
__device__ __forceinline__ void scan_columns_shuffled(const layout& l, const shuffled_lane<D>& lane, std::int64_t first,
                                                      std::int64_t end, std::int64_t step, key_params kp, Acc& acc,
                                                      Ties ties_last) {
  if (l.red.n == 1)
    scan_columns_shuffled_on<D, Unroll, true>(l, lane, first, end, step, kp, acc, ties_last);
  else
    scan_columns_shuffled_on<D, Unroll, false>(l, lane, first, end, step, kp, acc, ties_last);
}


}  // namespace argx::detail::gpu
