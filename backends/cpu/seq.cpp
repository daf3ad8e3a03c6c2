// seq: the scalar reference backend, the oracle every other backend must match bit for
// bit. Deliberately plain: each output's candidates are combined one by one, in position
// order, with the shared order. Two loop orders, whichever reads memory in order:
//  - slice by slice, positions inside, when the reduced elements lie closer together than
//    the outputs (rows, flat, most general views);
//  - a tile of outputs at a time, outputs inside, when the outputs lie closer together
//    (e.g. dim 0 of a matrix): each position is visited for every output of the tile, which
//    keeps one running best per output. Walking a column instead would touch a new cache
//    line, often a new page, for every element.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "../common/visit_dtype.hpp"
#include "slice.hpp"

namespace argx::detail {
namespace {

// Outputs per tile: each position's run of contiguous outputs is then a page of int8 (or
// more), while the tile's running bests (64 KiB) stay in L2. On dim 0 of 65540x65536 int8
// (2-core x86-64) 1024 outputs took 15 s, 4096 took 7.7 s, 16384 took 9.1 s.
constexpr std::int64_t tile_outputs = 4096;

// True when neighbouring outputs are closer in memory than neighbouring positions.
bool outputs_inside(const plan& p) {
  if (p.kept_extents.empty()) return false;
  // make_plan refuses INT64_MIN strides, so the magnitudes fit.
  return std::llabs(p.kept_strides[p.kept_extents.size() - 1]) <
         std::llabs(p.reduced_strides[p.reduced_extents.size() - 1]);
}

template <dtype D>
void slice_by_slice(const plan& p, const outputs& out) {
  for (std::int64_t o = 0; o < p.outputs; ++o) {
    const std::int64_t start = kept_offset(p, o);
    cpu::store_winner<D>(p, out, o, start, cpu::reduce_positions<D>(p, start, 0, p.reduce_size));
  }
}

template <dtype D>
void tile_by_tile(const plan& p, const outputs& out) {
  using cand = candidate<dtype_key_t<D>>;
  // On the heap: a caller's thread may have a small stack.
  std::vector<std::int64_t> start(static_cast<std::size_t>(std::min(tile_outputs, p.outputs)));
  std::vector<cand> best(start.size());
  for (std::int64_t first = 0; first < p.outputs; first += tile_outputs) {
    const std::int64_t n = std::min(tile_outputs, p.outputs - first);
    for (std::int64_t i = 0; i < n; ++i) {
      start[i] = kept_offset(p, first + i);
      best[i] = seed<dtype_key_t<D>>(p.reduce_size, p.ties_last);
    }
    cpu::for_each_position(p, 0, p.reduce_size, [&](std::int64_t pos, std::int64_t off) {
      for (std::int64_t i = 0; i < n; ++i) best[i] = combine(best[i], cpu::candidate_at<D>(p, start[i] + off, pos), p.ties_last);
    });
    for (std::int64_t i = 0; i < n; ++i) cpu::store_winner<D>(p, out, first + i, start[i], best[i]);
  }
}


void run_seq(const plan& p, const outputs& out, stream_handle) {
  visit_dtype(p.type, [&](auto d) {
    constexpr dtype D = decltype(d)::value;
    if (outputs_inside(p))
      tile_by_tile<D>(p, out);
    else
      slice_by_slice<D>(p, out);
  });
}

}  // namespace

const backend_entry seq_entry{backend::seq, true, always_usable, no_reason, run_seq};

}  // namespace argx::detail
