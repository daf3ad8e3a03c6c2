// The kernels the tbb backend drives: one set per dtype, chosen once at run time for the
// best instruction set of this CPU (Highway's dynamic dispatch, simd_hwy.cpp), or the plain
// C++ kernels (simd_plain.cpp) when argx is built without SIMD. Both sets return exactly
// what seq returns: they differ only in how many elements they look at per instruction.
//
// Every kernel works on one contiguous or uniformly strided piece of work; splitting the
// work over threads, walking kept dims and combining partial results is tbb.cpp's job.
#pragma once

#include <cstdint>
#include <cstring>

#include <argx/dtype.hpp>
#include <argx/order.hpp>

namespace argx::detail::cpu::simd {

/// A candidate with its key widened to 64 bits (zero extension keeps the order), so one
/// type serves every dtype.
using cand = candidate<std::uint64_t>;

/// How elements are ordered: the plan's key params and tie rule.
struct order_params {
  key_params keys;
  bool ties_last;
};

/// Where a kernel stores the winners of consecutive outputs first, first+1, ...
struct sink {
  void* indices;       ///< int64 (or int32) per output
  void* values;        ///< the winning element's bits per output, or null
  std::int64_t first;  ///< output number of the kernel's first result
  bool int32;          ///< index type is int32
};

/// Largest `lanes` one strided call takes (its per-lane state lives on the stack). 2048
/// floats are 8 KiB of each row: long enough runs for the memory system, while the
/// running bests (2 x 8 KiB) stay in L1 (measured: 4096x16384 axis 0, 1024 lanes 18.6
/// GB/s, 2048 20.8, 4096 14.2).
inline constexpr std::int64_t strided_max_lanes = 2048;
/// Largest `count` one strided call takes (positions are tracked in 32-bit lanes).
inline constexpr std::int64_t strided_max_count = std::int64_t(1) << 31;

struct dtype_kernels {
  /// Best of the n >= 1 contiguous elements at `data` (positions pos0, pos0+1, ...) and
  /// `floor`, a candidate from earlier in the slice when floor.pos < pos0 (ignored
  /// otherwise). Starting from what is already known spares the search of a first block
  /// that cannot win.
  cand (*contig)(const void* data, std::int64_t n, std::int64_t pos0, order_params o, cand floor);
  /// Reduces `rows` rows of n >= 1 contiguous elements each (row r starts `row_stride`
  /// elements after row r-1) and stores row r's winner as output out.first + r.
  void (*rows)(const void* data, std::int64_t rows, std::int64_t row_stride, std::int64_t n, order_params o,
               const sink& out);
  /// Strided reduce of `lanes` (1..strided_max_lanes) contiguous columns over `count`
  /// (1..strided_max_count) rows `row_stride` elements apart; row k has position pos0 + k.
  /// Column j's winner goes to best[j], combined with what best[j] holds when `merge`.
  void (*strided)(const void* data, std::int64_t lanes, std::int64_t count, std::int64_t row_stride,
                  std::int64_t pos0, order_params o, cand* best, bool merge);
};

struct kernel_table {
  const char* target;  ///< instruction set in use, e.g. "AVX2", or "plain"
  dtype_kernels by_dtype[dtype_count];
};

/// The kernels for this CPU (resolved on first use; thread-safe).
const kernel_table& kernels();

// ---- scalar helpers shared by every kernel set ------------------------------------------

/// The largest key any element of dtype D can have under p. A running best holding it
/// cannot be beaten (with ties = first), so a scan may stop there.
template <dtype D>
constexpr typename dtype_traits<D>::key_type top_key(key_params p) {
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
  typename tr::key_type top = 0;
  for (B b : probes) {
    const auto k = order_key<D>(b, p);
    if (k > top) top = k;
  }
  return top;
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
  const std::int64_t index = reported_index(c, p, dtype_traits<D>::is_float);
  if (out.int32)
    static_cast<std::int32_t*>(out.indices)[o] = static_cast<std::int32_t>(index);
  else
    static_cast<std::int64_t*>(out.indices)[o] = index;
  if (out.values) std::memcpy(static_cast<char*>(out.values) + o * static_cast<std::int64_t>(sizeof(v)), &v, sizeof(v));
}

}  // namespace argx::detail::cpu::simd
