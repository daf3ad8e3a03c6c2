// The kernel table without SIMD (argx built with -Dsimd=disabled or without Highway):
// plain loops over order_key, with the same contracts as the SIMD kernels, so the tbb
// backend partitions work the same way on every build.
#include "../common/visit_dtype.hpp"
#include "simd.hpp"

namespace argx::detail::cpu::simd {
namespace {

/// Best of `start` and the n >= 1 contiguous elements at p (positions 0..n-1; start is
/// p[0] or an element before them, at -1), stopping early at the top key.
template <dtype D>
candidate<dtype_key_t<D>> scan(const dtype_bits_t<D>* p, std::int64_t n, order_params o, dtype_key_t<D> top,
                                 candidate<dtype_key_t<D>> start) {
  candidate<dtype_key_t<D>> best = start;
  for (std::int64_t i = start.pos < 0 ? 0 : 1; i < n; ++i) {
    const dtype_key_t<D> k = order_key<D>(p[i], o.keys);
    if (later_beats(k, best.key, o.ties_last)) {
      best = {k, i};
      if (!o.ties_last && k == top) {
        mark(D, path::contig_stop);
        break;
      }
    }
  }
  return best;
}

template <dtype D>
cand contig(const void* data, std::int64_t n, std::int64_t pos0, order_params o, cand floor) {
  mark(D, path::contig_summary);
  return contig_from<D>(data, pos0, o, floor,
                        [&](const dtype_bits_t<D>* p, auto start) { return scan<D>(p, n, o, top_key<D>(o.keys), start); });
}

template <dtype D>
void rows(const void* data, std::int64_t count, std::int64_t row_stride, std::int64_t n, order_params o,
          const sink& out) {
  const dtype_key_t<D> top = top_key<D>(o.keys);
  mark(D, path::rows_scan);
  const dtype_bits_t<D>* row = static_cast<const dtype_bits_t<D>*>(data);
  for (std::int64_t r = 0; r < count; ++r, row += row_stride) {
    const auto c = scan<D>(row, n, o, top, candidate<dtype_key_t<D>>{order_key<D>(row[0], o.keys), 0});
    store<D>(out, out.at(r), cand{c.key, c.pos}, row[c.pos], o.keys);
  }
}

template <dtype D>
void lanes(const void* data, std::int64_t lanes, const row_walk& w, std::int64_t first, std::int64_t last,
           order_params o, const lane_sink& out) {
  // Row by row (contiguous reads), one running best per lane.
  mark(D, path::lanes_scalar);
  out.each_item(static_cast<const dtype_bits_t<D>*>(data), [&](const dtype_bits_t<D>* base, const lane_sink& s) {
    lanes_one_by_one<D, lanes_max_any>(base, lanes, w, first, last, o, s,
                                       [&](dtype_bits_t<D> bits) { return order_key<D>(bits, o.keys); });
  });
}

kernel_table make_table() {
  kernel_table t{"plain", {}, {}};
  for (int i = 0; i < dtype_count; ++i)
    visit_dtype(static_cast<dtype>(i), [&](auto d) {
      constexpr dtype D = decltype(d)::value;
      t.by_dtype[i] = dtype_kernels{&contig<D>, &rows<D>, &lanes<D>};
      t.paths[i] = path_bit(path::contig_summary) | path_bit(path::contig_stop) | path_bit(path::rows_scan) |
                   path_bit(path::lanes_scalar);
    });
  return t;
}

}  // namespace

const kernel_table& kernels() {
  static const kernel_table t = make_table();
  return t;
}

}  // namespace argx::detail::cpu::simd
