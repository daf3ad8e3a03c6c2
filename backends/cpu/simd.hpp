// The kernels the tbb backend drives: one set per dtype, chosen once at run time for the
// best instruction set of this CPU (Highway's dynamic dispatch, simd_hwy.cpp), or the plain
// C++ kernels (simd_plain.cpp) when argx is built without SIMD. Both sets return exactly
// what seq returns: they differ only in how many elements they look at per instruction.
//
// Every kernel works on one contiguous or uniformly strided piece of work; splitting the
// work over threads, walking kept dims and combining partial results is tbb.cpp's job.
#pragma once

#include <cstdint>
#include <type_traits>

#include <argx/config.hpp>
#include <argx/detail/answer.hpp>
#include <argx/dtype.hpp>
#include <argx/order.hpp>
#include <argx/spec.hpp>

#include "paths.hpp"

namespace argx::detail::cpu::simd {

/// A candidate with its key widened to 64 bits (zero extension keeps the order), so one
/// type serves every dtype.
using cand = candidate<std::uint64_t>;

/// How elements are ordered: the plan's key params and tie rule.
struct order_params {
  key_params keys;
  bool ties_last;
};

/// Where a kernel stores the winners of outputs first, first + step, first + 2 step, ...
struct sink {
  void* indices;       ///< one per output, of type `index`
  void* values;        ///< the winning element's bits per output, or null
  std::int64_t first;  ///< output number of the kernel's first result
  index_type index;    ///< the indices' type
  std::int64_t step = 1;
  /// When set, results go here instead: result r's order key to keys[at(r)] and the
  /// position of its element within its row to positions[at(r)] (for a caller to combine).
  std::uint64_t* keys = nullptr;
  std::int64_t* positions = nullptr;

  /// Output number of result r.
  std::int64_t at(std::int64_t r) const { return first + r * step; }
};

/// Largest `lanes` one lanes call takes for elements of `esize` bytes (its per-lane state
/// lives on the stack): 8 KiB of each row, at most 4096 lanes. Long enough runs for the
/// memory system, while the running bests stay in L1 (measured on f32, 4096x16384 axis 0:
/// 1024 lanes 18.6 GB/s, 2048 20.8, 4096 14.2).
constexpr std::int64_t lanes_max(std::int64_t esize) { return esize >= 2 ? 8192 / esize : 4096; }
inline constexpr std::int64_t lanes_max_any = 4096;

/// The rows a lanes call visits: reduced positions walked in position order, as an
/// odometer over `rank` dims (outermost first; rank 0 is a single row). Each step of dim d
/// moves `strides[d]` elements in memory and `pos_strides[d]` positions in the slice.
struct row_walk {
  int rank = 0;
  std::int64_t extents[max_rank] = {}, strides[max_rank] = {}, pos_strides[max_rank] = {};

  std::int64_t rows() const {
    std::int64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= extents[d];
    return n;
  }
  /// Memory offset of the row whose positions start at `pos` (a sum of pos_strides
  /// multiples, as row_cursor::pos gives).
  std::int64_t offset_of_pos(std::int64_t pos) const {
    std::int64_t off = 0;
    for (int d = 0; d < rank; ++d) {
      const std::int64_t c = pos / pos_strides[d];
      pos -= c * pos_strides[d];
      off += c * strides[d];
    }
    return off;
  }
};

/// The odometer over a row_walk: where row k starts (`off`) and its position (`pos`).
struct row_cursor {
  const row_walk* w;
  std::int64_t idx[max_rank];
  std::int64_t off = 0, pos = 0;

  row_cursor(const row_walk& walk, std::int64_t k) : w(&walk) {
    for (int d = walk.rank - 1; d >= 0; --d) {
      idx[d] = k % walk.extents[d];
      k /= walk.extents[d];
      off += idx[d] * walk.strides[d];
      pos += idx[d] * walk.pos_strides[d];
    }
  }
  void next() {
    for (int d = w->rank - 1; d >= 0; --d) {
      off += w->strides[d];
      pos += w->pos_strides[d];
      if (++idx[d] < w->extents[d]) return;
      off -= idx[d] * w->strides[d];
      pos -= idx[d] * w->pos_strides[d];
      idx[d] = 0;
    }
  }
};

/// Where a lanes call leaves each lane's best. Final: lane j is a whole slice, its winner
/// is output out->first + j * step; the call may then cover `items` items, the same
/// lanes and rows `item_stride` elements further each, whose outputs are `item_step`
/// further. Partial (one item): lane j's key and position go to key[j] and pos[j] for
/// the caller to combine (keys are lane keys: ordered like order_key, equal where it is
/// equal, 0 exactly for the all-NaN key under nan ignore).
struct lane_sink {
  const sink* out = nullptr;
  std::int64_t step = 1;
  std::uint64_t* key = nullptr;
  std::int64_t* pos = nullptr;
  std::int64_t items = 1, item_stride = 0, item_step = 0;
  /// The data of the call this thread makes next over the same lanes and rows (another
  /// unit), or null. Row prefetches that run past the last row fetch its first rows
  /// instead, so that a walk of a few dozen KiB does not start on cold lines.
  const void* next = nullptr;

  /// Calls one(data of item i, the sink of item i) for every item (the next item is the
  /// one that follows each).
  template <class T, class One>
  void each_item(const T* data, const One& one) const {
    if (items == 1) return one(data, *this);
    sink s = *out;
    lane_sink ls = *this;
    ls.out = &s;
    for (std::int64_t i = 0; i < items; ++i, s.first += item_step) {
      ls.next = i + 1 < items ? static_cast<const void*>(data + (i + 1) * item_stride) : next;
      one(data + i * item_stride, ls);
    }
  }
};

/// Longest row the rows kernel takes across rows, in bytes; longer rows are scanned one by
/// one (they amortize a per-row scan: its summary's horizontal reduction and branches).
inline constexpr std::int64_t short_row_bytes = 1024;

struct dtype_kernels {
  /// Best of the n >= 1 contiguous elements at `data` (positions pos0, pos0+1, ...) and
  /// `floor`, a candidate from earlier in the slice when floor.pos < pos0 (ignored
  /// otherwise). Starting from what is already known spares the search of a first block
  /// that cannot win.
  cand (*contig)(const void* data, std::int64_t n, std::int64_t pos0, order_params o, cand floor);
  /// Reduces `rows` rows of n >= 1 contiguous elements each (row r starts `row_stride`
  /// elements after row r-1) and stores row r's winner as output out.at(r).
  void (*rows)(const void* data, std::int64_t rows, std::int64_t row_stride, std::int64_t n, order_params o,
               const sink& out);
  /// Per-lane bests of `lanes` (1..lanes_max) contiguous columns over rows [first, last)
  /// of a walk: lane j of row k is the element offset(k) + j after `data`, at position
  /// pos(k) of lane j's slice (positions of one call span less than 2^31). Rows are
  /// visited in order, so a lane's ties go to its first (last) row.
  void (*lanes)(const void* data, std::int64_t lanes, const row_walk& walk, std::int64_t first, std::int64_t last,
                order_params o, const lane_sink& out);
};

struct kernel_table {
  const char* target;  ///< instruction set in use, e.g. "AVX2", or "plain"
  dtype_kernels by_dtype[dtype_count];
  std::uint64_t paths[dtype_count];  ///< the kernel paths (paths.hpp) each dtype's kernels have
};

/// The kernels for this CPU (resolved on first use; thread-safe).
const kernel_table& kernels();

// ---- scalar helpers shared by every kernel set ------------------------------------------

/// The bits of an element with the largest key any element of dtype D can have under p.
/// A running best holding that key cannot be beaten (with ties = first), so a scan may
/// stop there.
template <dtype D>
constexpr dtype_bits_t<D> top_bits(key_params p) {
  using tr = dtype_traits<D>;
  using B = typename tr::bits_type;
  // The extremes of every dtype's order are among these bit patterns: zero, all ones, the
  // sign bit alone and its complement (integer extremes), +-inf and a NaN (floats).
  const B probes[] = {B(0),
                      static_cast<B>(~B(0)),
                      tr::sign_mask,
                      static_cast<B>(~tr::sign_mask),
                      tr::exp_mask,
                      static_cast<B>(tr::exp_mask | tr::sign_mask),
                      static_cast<B>(tr::exp_mask | B(1))};
  B top = probes[0];
  for (B b : probes)
    if (order_key<D>(b, p) > order_key<D>(top, p)) top = b;
  return top;
}

/// The largest key any element of dtype D can have under p (the key of top_bits).
template <dtype D>
constexpr typename dtype_traits<D>::key_type top_key(key_params p) {
  return order_key<D>(top_bits<D>(p), p);
}

/// The lane key of the SIMD lanes kernel (simd_strided-inl.h: keyer, or float_lane_keyer
/// for floats without abs) for one element: ordered like order_key and equal where it is
/// equal, in the element's width, 0 exactly for NaN under nan ignore.
template <dtype D>
constexpr dtype_bits_t<D> lane_key(dtype_bits_t<D> bits, key_params p) {
  using tr = dtype_traits<D>;
  using B = dtype_bits_t<D>;
  if constexpr (tr::is_float) {
    const B all = static_cast<B>(~B(0)), m = static_cast<B>(bits & ~tr::sign_mask);
    if (p.abs) {  // keyer's: the magnitude, sign-biased and complemented for argmin
      if (m > tr::exp_mask) return p.nan_ignore ? B(0) : all;
      return static_cast<B>(m ^ tr::sign_mask ^ (p.argmin ? all : B(0)));
    }
    // float_lane_keyer's: numbers at v + E in [0, 2E] (v the value as an integer, negated
    // for argmin), NaN at 2E + 1 (propagate) or 0 (ignore, numbers one higher).
    constexpr B E = static_cast<B>(tr::exp_mask);
    if (m > E) return p.nan_ignore ? B(0) : static_cast<B>(2 * E + 1);
    const B v = (bits & tr::sign_mask) ? static_cast<B>(B(0) - m) : m;  // -0 and +0 both 0
    const B u = static_cast<B>((p.argmin ? static_cast<B>(B(0) - v) : v) + E);
    return static_cast<B>(u + (p.nan_ignore ? 1 : 0));
  } else {
    return static_cast<B>(order_key<D>(bits, p));
  }
}

/// dtype_kernels::contig in terms of a kernel set's scan: scan(p, start) returns the best of
/// `start` and the elements at p (positions 0..n-1), where start is p[0] itself (position 0)
/// or an element before them (position -1). Here: which start `floor` allows, and the
/// result at the slice's positions.
template <dtype D, class Scan>
inline cand contig_from(const void* data, std::int64_t pos0, order_params o, cand floor, const Scan& scan) {
  using K = typename dtype_traits<D>::key_type;
  const auto* p = static_cast<const typename dtype_traits<D>::bits_type*>(data);
  const bool earlier = floor.pos < pos0;
  const candidate<K> c = scan(p, earlier ? candidate<K>{static_cast<K>(floor.key), -1}
                                         : candidate<K>{order_key<D>(p[0], o.keys), 0});
  return c.pos < 0 ? floor : cand{c.key, pos0 + c.pos};
}

/// Stores output o of a sink: the reported index of `c` and the element's bits `v`.
template <dtype D>
inline void store(const sink& out, std::int64_t o, cand c, typename dtype_traits<D>::bits_type v, key_params p) {
  if (out.keys) {
    out.keys[o] = order_key<D>(v, p);
    out.positions[o] = c.pos;
    return;
  }
  store_index(out.indices, out.index, o, reported_index(c, p, dtype_traits<D>::is_float));
  if (out.values) store_value(out.values, o, v);
}

/// Leaves the bests of lanes [0, n) in a lane_sink: lane j's key is key[j], its position
/// pos0 + pos[j]; elem(j, position) gives the bits of its element (read only when values
/// are asked for). Plain loops over arrays, so that the stores vectorise.
template <dtype D, class K, class P, class ElemAt>
inline void emit_lanes(const lane_sink& s, std::int64_t n, key_params p, const K* key, const P* pos, std::int64_t pos0,
                       const ElemAt& elem) {
  if (s.out == nullptr) {
    for (std::int64_t j = 0; j < n; ++j) s.key[j] = key[j];
    for (std::int64_t j = 0; j < n; ++j) s.pos[j] = pos0 + static_cast<std::int64_t>(pos[j]);
    return;
  }
  const sink& out = *s.out;
  const std::int64_t step = s.step;
  // Only a float under nan ignore can have the all-NaN key (0), reported as index -1.
  const bool nan_index = dtype_traits<D>::is_float && p.nan_ignore;
  with_index_array(out.indices, out.index, [&](auto* indices) {
    using I = std::remove_pointer_t<decltype(indices)>;
    I* idx = indices + out.first;
    if (nan_index)
      for (std::int64_t j = 0; j < n; ++j) idx[j * step] = key[j] == 0 ? I(-1) : static_cast<I>(pos0 + static_cast<std::int64_t>(pos[j]));
    else
      for (std::int64_t j = 0; j < n; ++j) idx[j * step] = static_cast<I>(pos0 + static_cast<std::int64_t>(pos[j]));
  });
  if (out.values) {
    for (std::int64_t j = 0; j < n; ++j) {
      const dtype_bits_t<D> v = elem(j, pos0 + static_cast<std::int64_t>(pos[j]));
      store_value(out.values, out.first + j * step, v);
    }
  }
}

/// Per-lane bests of n lanes (at most MaxLanes) over rows [first, last) of a walk, one lane
/// at a time: the lanes kernel without vectors (the plain set), and the SIMD kernels' for
/// fewer lanes than a vector. key_of(bits) is the key a lane keeps (order_key or lane_key).
template <dtype D, std::int64_t MaxLanes, class KeyOf>
inline void lanes_one_by_one(const dtype_bits_t<D>* base, std::int64_t n, const row_walk& w, std::int64_t first,
                             std::int64_t last, order_params o, const lane_sink& out, const KeyOf& key_of) {
  using K = decltype(key_of(dtype_bits_t<D>{}));
  K key[MaxLanes];
  std::int64_t pos[MaxLanes];
  row_cursor cur(w, first);
  for (std::int64_t j = 0; j < n; ++j) key[j] = key_of(base[cur.off + j]), pos[j] = cur.pos;
  for (std::int64_t k = first + 1; k < last; ++k) {
    cur.next();
    const dtype_bits_t<D>* row = base + cur.off;
    for (std::int64_t j = 0; j < n; ++j) {
      const K kk = key_of(row[j]);
      if (later_beats(kk, key[j], o.ties_last)) key[j] = kk, pos[j] = cur.pos;
    }
  }
  emit_lanes<D>(out, n, o.keys, key, pos, 0,
                [&](std::int64_t j, std::int64_t p) { return base[w.offset_of_pos(p) + j]; });
}

}  // namespace argx::detail::cpu::simd
