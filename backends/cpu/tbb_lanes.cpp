// The lanes engine of the tbb backend: layouts with a contiguous dim are reduced by the
// lanes kernel, vectors along that dim, rows along the reduced dims.
//
// The layout: a block of dense dims starting at the contiguous one holds the lanes (lane
// l is row-major over them, innermost fastest); the reduced dims outside the block are
// the rows, walked in position order; the kept dims outside it are the items. Usually
// the block is the contiguous kept dim alone (the strided class: each lane is a whole
// output, which the kernel stores itself). When that dim is short, the block grows over
// the dense dims around it until a row of lanes fills a few vectors; a reduced dim there
// (or a chunk of it, whose leftover rows take a second pass) makes several lanes meet in
// one output, combined at the end by position. A short contiguous reduced dim starts a
// block too, when many rows remain (several reduced dims, Fortran-order reductions).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include "stream_copy.hpp"
#include "tbb_job.hpp"

namespace argx::detail::tbb_backend {
namespace {

using cpu::simd::lane_sink;
using cpu::simd::row_walk;

/// One dim as a layout sees it. weight: its position stride (reduced) or output stride (kept).
struct axis {
  std::int64_t extent = 1, stride = 0, weight = 0;
  bool reduced = false;
};

void push(row_walk& w, const axis& a) {
  w.extents[w.rank] = a.extent;
  w.strides[w.rank] = a.stride;
  w.pos_strides[w.rank++] = a.weight;
}

/// Longest contiguous reduced dim that starts a block; longer ones are runs (tbb_general.cpp).
constexpr std::int64_t long_run = 1024;
/// Most lanes whose bests the driver combines itself: as many as a lanes call takes (a
/// whole row of a few thousand bytes, see make_layout). Its arrays live in thread-local
/// scratch (lane_scratch) and in parallel_reduce's bodies, off the calling thread's stack.
constexpr std::int64_t partial_lanes = cpu::simd::lanes_max_any;
/// Buffered whole layouts: most lanes a tile, and most outputs a buffer holds (lanes
/// times items; 128 KiB of int64 indices, within the L2 of one core).
constexpr std::int64_t buffered_lanes = 2048, buffered_outputs = 32768;
/// Items a buffered unit wants at least: a 64-byte line of int64 indices a lane.
constexpr std::int64_t buffered_min_items = 8;
/// Outputs a buffered lane's run should hold where the items allow (tiles are narrowed
/// for it): runs of 16 took 1.4x the time of runs of 64 (bfloat16 4661 lanes of 3 rows).
constexpr std::int64_t buffered_run = 64;
/// Widest gap between the outputs of whole lanes that a batch of items fills directly.
constexpr std::int64_t dense_gap = 16;

struct layout {
  axis block[max_rank];  // innermost first
  int block_rank = 0;
  std::int64_t lanes = 1, inner_lanes = 1;  // all block lanes; those of the dims below the last
  std::int64_t tile = 1;                    // lanes per call: a multiple of inner_lanes
  std::int64_t base_offset = 0, base_out = 0;  // of lane 0 (a reversed first dim moves them)
  std::int64_t base_pos = 0;  // position of lane 0 in its slice (a reversed reduced dim moves it)
  row_walk walk;
  axis item_dims[max_rank];  // innermost first
  int item_rank = 0;
  std::int64_t items = 1;
  // Buffered layouts: item_dims[0] may stand for the first `run_rank` kept dims whose
  // outputs continue one another (run_dims, innermost first), so that a lane's run of
  // outputs goes on past a short innermost dim; its stride is run_dims[0]'s.
  axis run_dims[max_rank];
  int run_rank = 1;
  // Whole layouts: a unit takes up to `batch` items along the innermost item dim.
  std::int64_t batch = 1;
  // The rows a split reduced dim's chunks miss (fewer than a chunk): a second pass whose
  // lanes are those rows' inner lanes side by side (contiguous like a chunk's), over the
  // walk without the split dim.
  std::int64_t rest = 0;  // the rows missed
  row_walk rest_walk;
  std::int64_t rest_offset = 0, rest_pos = 0;

  /// Each lane is one whole output (the block holds kept dims only): the kernel stores
  /// the winners itself.
  bool whole() const {
    for (int b = 0; b < block_rank; ++b)
      if (block[b].reduced) return false;
    return true;
  }
  /// Whole lanes whose outputs are not one apart (a transposed or several-dim block): the
  /// kernel stores them into a buffer, a run of `batch` items a lane, and the driver copies
  /// them out; with the item dim's outputs one apart, each lane's run lands in one piece and
  /// an output line is written whole and once. Not when the lanes are at most
  /// `dense_gap` outputs apart and the items fill the gaps: a batch of that many items
  /// stores a dense range of outputs directly.
  bool buffered() const {
    if (!whole()) return false;
    if (block_rank > 1 || run_rank > 1) return true;  // (a run of items is only made for a buffered layout)
    const std::int64_t gap = block[0].weight < 0 ? -block[0].weight : block[0].weight;
    return gap > 1 && !(item_rank > 0 && item_dims[0].weight == 1 && gap <= std::min(item_dims[0].extent, dense_gap));
  }
  std::int64_t per_tile() const { return tile / inner_lanes; }
  std::int64_t tiles() const { return (block[block_rank - 1].extent + per_tile() - 1) / per_tile(); }
  std::int64_t batches() const { return item_rank == 0 ? 1 : (item_dims[0].extent + batch - 1) / batch; }
  std::int64_t units() const { return (item_rank == 0 ? 1 : items / item_dims[0].extent) * batches() * tiles(); }
  /// Memory offset of coordinate c of item_dims[0] (of the dims it stands for).
  std::int64_t item0_offset(std::int64_t c) const {
    if (run_rank == 1) return c * item_dims[0].stride;
    std::int64_t off = 0;
    for (int d = 0; d < run_rank; ++d) {
      off += (c % run_dims[d].extent) * run_dims[d].stride;
      c /= run_dims[d].extent;
    }
    return off;
  }
  /// Items of item_dims[0] from coordinate c on that one kernel call takes: those within
  /// the innermost dim it stands for.
  std::int64_t items_in_row(std::int64_t c) const {
    return run_rank == 1 ? item_dims[0].extent - c : run_dims[0].extent - c % run_dims[0].extent;
  }
};

/// Lays out the plan for the lanes engine with tiles of at most `max_lanes` lanes; false
/// when it has no contiguous dim that suits it.
bool make_layout(const job& j, std::int64_t max_lanes, layout& l) {
  l = layout{};
  max_lanes = std::min(max_lanes, cpu::simd::lanes_max(j.esize));  // what a lanes call takes
  const plan& p = j.p;
  axis all[2 * max_rank];  // kept dims innermost first, then reduced dims innermost first
  int n = 0;
  std::int64_t w = 1;
  for (int d = p.kept_extents.size() - 1; d >= 0; --d, ++n) {
    all[n] = axis{p.kept_extents[d], p.kept_strides[d], w, false};
    w *= p.kept_extents[d];
  }
  const int kept = n;
  w = 1;
  for (int d = p.reduced_extents.size() - 1; d >= 0; --d, ++n) {
    all[n] = axis{p.reduced_extents[d], p.reduced_strides[d], w, true};
    w *= p.reduced_extents[d];
  }
  // The contiguous dim: a kept one first (its lanes are outputs), else a reduced one.
  int u = -1;
  for (int i = 0; i < n && u < 0; ++i)
    if (all[i].extent > 1 && (all[i].stride == 1 || (all[i].stride == -1 && !all[i].reduced))) u = i;
  if (u < 0) return false;
  if (all[u].reduced && all[u].extent > long_run) return false;  // long runs: the runs engine
  bool used[2 * max_rank] = {};
  used[u] = true;
  axis a = all[u];
  if (a.stride < 0) {  // a reversed kept dim: lane c is coordinate extent-1-c
    l.base_offset = -(a.extent - 1);
    l.base_out = (a.extent - 1) * a.weight;
    a.stride = 1;
    a.weight = -a.weight;
  }
  l.block[l.block_rank++] = a;
  l.lanes = a.extent;
  // A row of lanes should fill a few vectors: grow over the dense dims next to the block
  // (the last one may be tiled, kept or not). A reduced dim joins it only while 16 rows or
  // more remain to spread the combine over.
  const std::int64_t target = std::max<std::int64_t>(16, 256 / j.esize);
  std::int64_t rows = p.reduce_size / (a.reduced ? a.extent : 1);  // of the walk, so far
  int split = -1;  // the reduced dim whose chunk closes the block
  while (true) {
    int v = -1;
    for (int i = 0; i < n && v < 0; ++i)
      if (!used[i] && all[i].extent > 1 && (all[i].stride == l.lanes || all[i].stride == -l.lanes)) v = i;
    if (v < 0) break;
    axis b = all[v];
    // Past the target, a block that holds a whole reduced dim takes the dense kept dims
    // after it too, within what the driver combines: their coordinates would be items, each
    // walking every row for a piece of it, and pieces of a few hundred bytes rows
    // thousands apart read at half the speed of whole rows (float16 dims {2,3} of
    // 16307x133 under 2x9 kept: lanes 2x133 0.52 of the read ceiling, 2x133x9 0.93).
    if (l.lanes >= target && (b.reduced || l.whole() || l.lanes * b.extent > max_lanes || rows < 16)) break;
    // With few rows a slice, writing the outputs costs more than reading: once a row of
    // whole lanes fills a vector, the outputs' innermost dim stays an item, whose batches
    // give every lane a run of outputs (buffered, the block being transposed).
    if (!b.reduced && (b.weight == 1 || b.weight == -1) && l.whole() && l.lanes * j.esize >= 16 && rows < 16) break;
    used[v] = true;
    const bool reversed = b.stride < 0;
    // A reduced dim whose chunks would leave a rest joins whole while the lanes stay within
    // what the driver combines: the rest's second pass walks every row again for a few
    // lanes, re-fetching the lines the chunks ended in (float16 2x133 lanes of rows 4788
    // bytes apart, dims {2,3} of 16307x133: 0.36 of the read ceiling with a rest of 5 rows).
    const std::int64_t whole_cap = b.extent % std::max<std::int64_t>(1, target / l.lanes) != 0
                                       ? std::min(partial_lanes, max_lanes)  // one tile: the reduced dim cannot be tiled
                                       : 2 * target;
    if (!b.reduced || (l.lanes * b.extent <= whole_cap && rows / b.extent >= 16)) {
      if (reversed) {  // lane c is coordinate extent-1-c: outputs or positions fall along it
        l.base_offset += (b.extent - 1) * b.stride;
        (b.reduced ? l.base_pos : l.base_out) += (b.extent - 1) * b.weight;
        b.stride = -b.stride;
        b.weight = -b.weight;
      }
      l.block[l.block_rank++] = b;
      l.lanes *= b.extent;
      if (b.reduced) rows /= b.extent;
      continue;
    }
    // A long reduced dim: chunks of g of its rows are lanes, the chunk number a row. A
    // chunk up to an eighth shorter that divides the dim and whose row of lanes spans as
    // many 64-byte lines leaves no rest, a second pass per unit (float64 2x2130 slices of
    // 3332 units: chunks of 16 rows and a rest of 2, 0.61 of the read ceiling, or of 15
    // and none); more rows or fewer lines a row would cost more than the rest (float32 35
    // lanes against 60 and a rest of one row: 1.25x the time).
    std::int64_t g = target / l.lanes;
    const auto lines = [&](std::int64_t c) { return (l.lanes * c * j.esize + 63) / 64; };
    for (std::int64_t d = g; d >= 2 && 8 * d >= 7 * g && lines(d) == lines(g); --d)
      if (b.extent % d == 0) {
        g = d;
        break;
      }
    if (g < 2 || rows / g < 16) {
      used[v] = false;
      break;
    }
    split = v;
    if (reversed) {  // chunk k (coordinates kg .. kg+g-1) runs forward in memory from its last
      l.base_offset += (g - 1) * b.stride;
      l.base_pos += (g - 1) * b.weight;
      l.block[l.block_rank++] = axis{g, -b.stride, -b.weight, true};
    } else {
      l.block[l.block_rank++] = axis{g, b.stride, b.weight, true};
    }
    l.lanes *= g;
    break;
  }
  l.inner_lanes = l.lanes / l.block[l.block_rank - 1].extent;
  // The walk: the reduced dims outside the block, outermost first (position order).
  for (int i = n - 1; i >= kept; --i) {
    if (i == split) {
      const axis& b = all[i];
      const std::int64_t g = l.block[l.block_rank - 1].extent, q = b.extent / g, r = b.extent % g;
      push(l.walk, axis{q, b.stride * g, b.weight * g, true});  // position order (backwards in memory if reversed)
      // The rest's lanes start at its first row, or its last when reversed (like a chunk's);
      // offsets from the main block's lane 0, positions in the slice.
      const std::int64_t shift = b.stride < 0 ? g - 1 : 0, first = b.stride < 0 ? q * g + r - 1 : q * g;
      l.rest = r;
      l.rest_offset = (first - shift) * b.stride;
      l.rest_pos = l.base_pos + (first - shift) * b.weight;
      continue;
    }
    if (used[i] || all[i].extent == 1) continue;
    push(l.walk, all[i]);
    push(l.rest_walk, all[i]);
  }
  for (int i = 0; i < kept; ++i)
    if (!used[i] && all[i].extent > 1) l.item_dims[l.item_rank++] = all[i], l.items *= all[i].extent;
  if (l.buffered()) {
    // Kept dims whose outputs continue the innermost one's make one run of items: a lane's
    // run of outputs would otherwise end with a short innermost dim, in the middle of a
    // line that another unit completes later (bfloat16 4661 lanes of 3 rows, items 6 x 511
    // one after the other in the outputs: runs of 6 outputs took 13 ms).
    axis merged = l.item_dims[0];
    int m = 1;
    while (m < l.item_rank && l.item_dims[m].weight == merged.extent * merged.weight)
      merged.extent *= l.item_dims[m++].extent;
    if (m > 1) {
      std::copy(l.item_dims, l.item_dims + m, l.run_dims);
      l.run_rank = m;
      l.item_dims[0] = merged;
      std::copy(l.item_dims + m, l.item_dims + l.item_rank, l.item_dims + 1);
      l.item_rank -= m - 1;
    }
  }
  // Lanes too few for a vector of 128 bits: gathering the slices into buffers
  // (tbb_general.cpp) reads them faster than one lane key at a time.
  if (l.lanes * j.esize < 16) return false;
  // Tiles: the whole block, or runs of its last dim (a kept one) with all the dims below.
  if (!l.whole()) max_lanes = std::min(max_lanes, partial_lanes);
  if (l.buffered()) max_lanes = std::min(max_lanes, buffered_lanes);
  if (l.lanes <= max_lanes) {
    l.tile = l.lanes;
  } else {
    if (l.block[l.block_rank - 1].reduced || l.inner_lanes > max_lanes) return false;
    l.tile = (max_lanes / l.inner_lanes) * l.inner_lanes;
  }
  // Positions of one kernel call must span less than 2^31.
  return p.reduce_size < (std::int64_t(1) << 31);
}

/// Lanes of a tile when the block's last dim is cut into `pieces` tiles of even widths,
/// each a whole number of 64-byte lines of a row where the dims below allow.
std::int64_t even_tile(const layout& l, std::int64_t esize, std::int64_t pieces) {
  const std::int64_t per = (l.block[l.block_rank - 1].extent + pieces - 1) / pieces;
  const std::int64_t vec = std::max<std::int64_t>(1, 64 / (esize * l.inner_lanes));
  return ((per + vec - 1) / vec) * vec * l.inner_lanes;
}

/// Where unit `unit` (a tile of a batch of items) starts: memory offset, first output,
/// the range [c0, c1) of the block's last dim it covers, and its items (along
/// item_dims[0], from coordinate item0).
struct unit_place {
  std::int64_t offset, out, c0, c1, items;
  std::int64_t item0 = 0;  // coordinate of the first item along item_dims[0]

  /// The coordinates of block dim b the unit covers: all of it, or [c0, c1) of the last.
  std::int64_t extent(const layout& l, int b) const { return b == l.block_rank - 1 ? c1 - c0 : l.block[b].extent; }
};

unit_place place(const layout& l, std::int64_t unit) {
  const std::int64_t t = unit % l.tiles();
  std::int64_t rest = unit / l.tiles();
  unit_place u{l.base_offset, l.base_out, t * l.per_tile(), 0, 1};
  for (int d = 0; d < l.item_rank; ++d) {
    std::int64_t c;
    if (d == 0) {  // the batch's first item
      c = (rest % l.batches()) * l.batch;
      rest /= l.batches();
      u.items = std::min(l.batch, l.item_dims[0].extent - c);
      u.item0 = c;
      u.offset += l.item0_offset(c);
    } else {
      c = rest % l.item_dims[d].extent;
      rest /= l.item_dims[d].extent;
      u.offset += c * l.item_dims[d].stride;
    }
    u.out += c * l.item_dims[d].weight;
  }
  const axis& last = l.block[l.block_rank - 1];
  u.c1 = std::min(last.extent, u.c0 + l.per_tile());
  u.offset += u.c0 * last.stride;
  if (!last.reduced) u.out += u.c0 * last.weight;
  return u;
}

/// Per-lane bests of one unit over a range of rows, for parallel_reduce: in the object
/// for a few lanes, on the heap beyond (a few thousand lanes' worth is too much for a
/// caller's stack).
struct lane_results {
  static constexpr std::int64_t inline_lanes = 256;
  const job* j;
  const layout* l;
  std::int64_t offset, lanes;
  const void* next = nullptr;  // the data of the unit this thread runs next (lane_sink::next)
  bool has = false;
  std::uint64_t key_inline[inline_lanes];
  std::int64_t pos_inline[inline_lanes];
  std::unique_ptr<std::uint64_t[]> key_store;
  std::unique_ptr<std::int64_t[]> pos_store;
  std::uint64_t* key = key_inline;
  std::int64_t* pos = pos_inline;

  lane_results(const job& jb, const layout& lo, std::int64_t off, std::int64_t n)
      : j(&jb), l(&lo), offset(off), lanes(n) {
    if (n > inline_lanes) {
      key_store.reset(new std::uint64_t[n]), pos_store.reset(new std::int64_t[n]);
      key = key_store.get(), pos = pos_store.get();
    }
  }
  lane_results(lane_results& o, ::tbb::split) : lane_results(*o.j, *o.l, o.offset, o.lanes) {}

  void operator()(const ::tbb::blocked_range<std::int64_t>& r) {
    if (!has) {
      j->k.lanes(j->at(offset), lanes, l->walk, r.begin(), r.end(), j->o,
                 lane_sink{nullptr, 1, key, pos, 1, 0, 0, next});
      has = true;
      return;
    }
    lane_scratch& s = scratch();
    j->k.lanes(j->at(offset), lanes, l->walk, r.begin(), r.end(), j->o, lane_sink{nullptr, 1, s.key, s.pos});
    merge(s.key, s.pos);
  }
  void merge(const std::uint64_t* k2, const std::int64_t* p2) {
    for (std::int64_t i = 0; i < lanes; ++i) {
      const cand c = j->better(cand{key[i], pos[i]}, cand{k2[i], p2[i]});
      key[i] = c.key, pos[i] = c.pos;
    }
  }
  void join(const lane_results& o) {
    if (!o.has) return;
    if (!has) {
      std::copy(o.key, o.key + lanes, key), std::copy(o.pos, o.pos + lanes, pos), has = true;
      return;
    }
    merge(o.key, o.pos);
  }
};

/// Combines the lanes of a unit (bests in key/pos, positions relative to `pos_base`) into
/// its outputs: acc[slot], slot being row-major over the unit's kept block coordinates;
/// out_of[slot] is that output's number. `rest`: the lanes of the second pass, whose last
/// block dim (a split reduced dim) has l.rest coordinates.
void combine_lanes(const job& j, const layout& l, const unit_place& u, const std::uint64_t* key, const std::int64_t* pos,
                   std::int64_t pos_base, bool rest, cand* acc, std::int64_t* out_of) {
  const int rank = l.block_rank;
  std::int64_t count[max_rank], slot_w[max_rank], c[max_rank] = {};
  for (int b = 0, s = 1; b < rank; ++b) {
    count[b] = rest && b == rank - 1 ? l.rest : u.extent(l, b);
    slot_w[b] = l.block[b].reduced ? 0 : s;
    if (!l.block[b].reduced) s *= count[b];
  }
  std::int64_t lanes = 1;
  for (int b = 0; b < rank; ++b) lanes *= count[b];
  std::int64_t slot = 0, out = u.out, lane_pos = pos_base;
  auto move = [&](int b, std::int64_t k) {  // coordinate b moves by k
    if (l.block[b].reduced) {
      lane_pos += k * l.block[b].weight;
    } else {
      slot += k * slot_w[b];
      out += k * l.block[b].weight;
    }
  };
  for (std::int64_t i = 0; i < lanes; ++i) {
    acc[slot] = j.better(acc[slot], cand{key[i], pos[i] + lane_pos});
    out_of[slot] = out;
    for (int b = 0; b < rank; ++b) {  // the next lane
      move(b, 1);
      if (++c[b] < count[b]) break;
      move(b, -c[b]);
      c[b] = 0;
    }
  }
}

/// A buffered unit's winners: the kernel leaves lane i's run of `items` outputs at entries
/// [i * items, (i + 1) * items) of these (per thread, grown once).
struct output_buffer {
  std::vector<unsigned char> indices, values;
};
thread_local output_buffer unit_outputs;

/// Lanes whose outputs copy_entries asks the caches for ahead of the copy, where lanes'
/// outputs lie a line or more apart: each lane's run then lands in other lines, which the
/// hardware does not fetch before the stores reach them, and a store that misses holds up
/// those after it. Into L2 (locality 2), whose queue holds more misses than L1's.
constexpr std::int64_t copy_ahead = 16;

/// Outputs of at least this many bytes (beyond a last-level cache) take the copy's whole
/// 64-byte lines with non-temporal stores (stream_copy.hpp): a cached store first reads
/// the line it fills.
constexpr std::int64_t stream_min_bytes = std::int64_t(32) << 20;

/// Entries of `size` bytes, lane i's `items` ones from buf[i * items] to out[at[i] + k * step];
/// `stream`: runs of two lines or more (step 1) go past the caches (copy_streaming).
template <class U>
void copy_entries(void* out, const void* buf, const std::int64_t* at, std::int64_t lanes, std::int64_t items,
                  std::int64_t step, bool stream) {
  U* o = static_cast<U*>(out);
  const U* b = static_cast<const U*>(buf);
  constexpr std::int64_t size = sizeof(U);
  if (stream && step == 1 && items * size >= 128) {
    for (std::int64_t i = 0; i < lanes; ++i, b += items)
      cpu::copy_streaming(reinterpret_cast<char*>(o + at[i]), reinterpret_cast<const char*>(b), items * size);
    return;
  }
  const bool far = lanes > copy_ahead && std::abs(at[1] - at[0]) * size >= 64;
  // A lane's lines: those of its entries' span (`lo` to `hi` bytes from its first entry),
  // or each entry's own when they lie a line or more apart.
  const bool spread = std::abs(step) * size >= 64;
  const std::int64_t last = (items - 1) * step * size;
  const std::int64_t lo = std::min<std::int64_t>(0, last), hi = std::max<std::int64_t>(0, last) + size - 1;
  for (std::int64_t i = 0; i < lanes; ++i, b += items) {
    // Written out here: inside a lambda, GCC 12 drops the prefetches as a call without effects.
    if (far && i + copy_ahead < lanes) {
      const char* next = reinterpret_cast<const char*>(o + at[i + copy_ahead]);
      if (spread) {
        for (std::int64_t k = 0; k < items; ++k) __builtin_prefetch(next + k * step * size, 1, 2);
      } else {
        for (std::int64_t line = lo; line < hi; line += 64) __builtin_prefetch(next + line, 1, 2);
        __builtin_prefetch(next + hi, 1, 2);
      }
    }
    if (items == 1) {
      o[at[i]] = *b;
    } else if (step == 1) {  // one block copy
      std::memcpy(o + at[i], b, items * sizeof(U));
    } else {
      for (std::int64_t k = 0; k < items; ++k) o[at[i] + k * step] = b[k];
    }
  }
}
void copy_entries(std::int64_t size, void* out, const void* buf, const std::int64_t* at, std::int64_t lanes,
                  std::int64_t items, std::int64_t step, bool stream) {
  switch (size) {
    case 1: return copy_entries<std::uint8_t>(out, buf, at, lanes, items, step, stream);
    case 2: return copy_entries<std::uint16_t>(out, buf, at, lanes, items, step, stream);
    case 4: return copy_entries<std::uint32_t>(out, buf, at, lanes, items, step, stream);
    default: return copy_entries<std::uint64_t>(out, buf, at, lanes, items, step, stream);
  }
}

/// Copies a buffered unit's winners to the outputs: lane i's first item goes to the output
/// of its block coordinates, the next ones the item dim's weight apart.
void copy_runs(const job& j, const layout& l, const unit_place& u, const unsigned char* indices,
               const unsigned char* values) {
  std::int64_t count[max_rank], c[max_rank] = {};
  std::int64_t lanes = 1;
  for (int b = 0; b < l.block_rank; ++b)
    count[b] = u.extent(l, b), lanes *= count[b];
  std::int64_t at[buffered_lanes];
  for (std::int64_t i = 0, out = u.out; i < lanes; ++i) {
    at[i] = out;
    for (int b = 0; b < l.block_rank; ++b) {  // the next lane
      out += l.block[b].weight;
      if (++c[b] < count[b]) break;
      out -= c[b] * l.block[b].weight;
      c[b] = 0;
    }
  }
  const std::int64_t step = l.item_rank > 0 ? l.item_dims[0].weight : 1;
  const std::int64_t isize = index_bytes(j.p);
  const bool stream_indices = j.p.outputs * isize >= stream_min_bytes,
             stream_values = j.out.values && j.p.outputs * j.esize >= stream_min_bytes;
  copy_entries(isize, j.out.indices, indices, at, lanes, u.items, step, stream_indices);
  if (j.out.values) copy_entries(j.esize, j.out.values, values, at, lanes, u.items, step, stream_values);
  // Non-temporal stores are ordered before the unit's end is published (no fence without them).
  if (stream_indices || stream_values) cpu::stream_fence();
}

/// Runs one unit; `split_rows` spreads its rows over the cores. `next`: the unit this
/// thread runs after it (-1: none), whose first rows the kernel prefetches at its end.
void run_unit(const job& j, const layout& l, std::int64_t unit, bool split_rows, std::int64_t next = -1) {
  const char* next_data = next >= 0 ? j.at(place(l, next).offset) : nullptr;
  const unit_place u = place(l, unit);
  const std::int64_t lanes = (u.c1 - u.c0) * l.inner_lanes, rows = l.walk.rows();
  if (l.whole() && !split_rows) {
    mark(j.p.type, path::lanes_whole);
    const axis item = l.item_rank > 0 ? l.item_dims[0] : axis{};
    if (!l.buffered()) {
      const cpu::simd::sink s = j.sink_from(u.out);
      j.k.lanes(j.at(u.offset), lanes, l.walk, 0, rows, j.o,
                lane_sink{&s, l.block[0].weight, nullptr, nullptr, u.items, item.stride, item.weight, next_data});
      return;
    }
    mark(j.p.type, path::lanes_buffered);
    output_buffer& buf = unit_outputs;
    const std::int64_t n = lanes * u.items, isize = index_bytes(j.p);
    if (std::int64_t(buf.indices.size()) < n * isize) buf.indices.resize(n * isize);
    if (j.out.values && std::int64_t(buf.values.size()) < n * j.esize) buf.values.resize(n * j.esize);
    // Lane i, item k: entry i * items + k. A call a row of the innermost dim of the run.
    const std::int64_t unit_base = u.offset - l.item0_offset(u.item0);
    for (std::int64_t k = 0; k < u.items;) {
      const std::int64_t take = std::min(u.items - k, l.items_in_row(u.item0 + k));
      const cpu::simd::sink s{buf.indices.data(), j.out.values ? buf.values.data() : nullptr, k, j.p.index};
      const char* then = k + take < u.items ? j.at(unit_base + l.item0_offset(u.item0 + k + take)) : next_data;
      j.k.lanes(j.at(unit_base + l.item0_offset(u.item0 + k)), lanes, l.walk, 0, rows, j.o,
                lane_sink{&s, u.items, nullptr, nullptr, take, item.stride, 1, then});
      k += take;
    }
    copy_runs(j, l, u, buf.indices.data(), buf.values.data());
    return;
  }
  lane_results r(j, l, u.offset, lanes);
  if (!split_rows) r.next = next_data;
  mark(j.p.type, split_rows ? path::lanes_split_rows : path::lanes_combined);
  if (split_rows) {
    // Each piece ends in a combine per lane: it should read a few KiB per lane before.
    const std::int64_t grain = std::max(grain_bytes / (lanes * j.esize), 4096 / j.esize);
    ::tbb::parallel_reduce(::tbb::blocked_range<std::int64_t>(0, rows, grain), r);
  } else {
    r(::tbb::blocked_range<std::int64_t>(0, rows));
  }
  // Outputs of the unit, one slot each.
  std::int64_t slots = 1;
  for (int b = 0; b < l.block_rank; ++b)
    if (!l.block[b].reduced) slots *= u.extent(l, b);
  lane_scratch& sc = scratch();
  cand* acc = sc.acc;
  std::int64_t* out_of = sc.out_of;
  std::fill(acc, acc + slots, j.seed_for(j.p.reduce_size));
  combine_lanes(j, l, u, r.key, r.pos, l.base_pos, false, acc, out_of);
  if (l.rest != 0) {
    mark(j.p.type, path::lanes_rest);
    std::uint64_t* key = sc.key;
    std::int64_t* pos = sc.pos;
    j.k.lanes(j.at(u.offset + l.rest_offset), l.inner_lanes * l.rest, l.rest_walk, 0, l.rest_walk.rows(), j.o,
              lane_sink{nullptr, 1, key, pos});
    combine_lanes(j, l, u, key, pos, l.rest_pos, true, acc, out_of);
  }
  for (std::int64_t s = 0; s < slots; ++s) {
    const std::int64_t o = out_of[s];
    j.put(o, acc[s], j.out.values ? j.at(kept_offset(j.p, o) + reduced_offset(j.p, acc[s].pos)) : nullptr);
  }
}

}  // namespace

lane_scratch& scratch() {
  static thread_local std::unique_ptr<lane_scratch> s;
  if (!s) s = std::make_unique<lane_scratch>();
  return *s;
}

bool run_lanes(const job& j) {
  layout l;
  if (!make_layout(j, cpu::simd::lanes_max(j.esize), l)) return false;
  if (l.buffered() && l.item_rank > 0 && l.block_rank == 1) {
    // Runs of buffered_run outputs a lane where the items allow, in narrower tiles of even
    // widths; not where an item dim continues the lanes in memory (a narrower tile would
    // cut the lines it shares with the next item: int8 tiles of 512 of 1504 lanes, 2.1x).
    bool adjacent = false;
    for (int d = 0; d < l.item_rank; ++d) adjacent = adjacent || l.item_dims[d].stride == l.lanes;
    if (l.run_rank > 1)
      for (int d = 0; d < l.run_rank; ++d) adjacent = adjacent || l.run_dims[d].stride == l.lanes;
    const std::int64_t want = std::min(l.item_dims[0].extent, buffered_run);
    if (!adjacent && l.tile * want > buffered_outputs) {
      const std::int64_t tile = even_tile(l, j.esize, (l.lanes * want + buffered_outputs - 1) / buffered_outputs);
      if (tile < l.tile && !make_layout(j, tile, l)) return false;
    }
  }
  const std::int64_t rows = l.walk.rows();
  // Buffered layouts: at most buffered_outputs a unit.
  const std::int64_t buffered_items = l.item_rank > 0 ? std::min(l.item_dims[0].extent, buffered_outputs / l.tile) : 1;
  if (!j.parallel(j.p.outputs * j.p.reduce_size * j.esize)) {
    if (l.whole() && l.item_rank > 0)  // one call per tile and run of items
      l.batch = l.buffered() ? buffered_items : l.item_dims[0].extent;
    for (std::int64_t i = 0; i < l.units(); ++i) run_unit(j, l, i, false, i + 1 < l.units() ? i + 1 : -1);
    return true;
  }
  if (l.units() < 4 * workers() && l.whole()) {
    // Narrower tiles, for units enough to keep the cores busy, down to rows of 512 bytes.
    const std::int64_t tile = even_tile(l, j.esize, (4 * workers() + l.items - 1) / l.items);
    if (tile * j.esize >= 512 && tile < l.tile && !make_layout(j, tile, l)) return false;
  }
  if (l.whole() && l.item_rank > 0) {
    // Units of several items each when one is small (a call's setup is spread over
    // them), while enough units remain for the cores.
    const std::int64_t item_bytes = std::max<std::int64_t>(1, l.tile * rows * j.esize);
    const std::int64_t spare = std::max<std::int64_t>(1, l.units() / (16 * workers()));
    l.batch = std::clamp<std::int64_t>(grain_bytes / item_bytes, 1, std::min(spare, l.item_dims[0].extent));
    if (l.buffered())  // runs of a line or more each, within the buffer
      l.batch = std::clamp<std::int64_t>(l.batch, std::min(buffered_min_items, l.item_dims[0].extent), buffered_items);
    else  // lanes a few outputs apart: items enough to fill the gaps
      l.batch = std::max(l.batch, std::abs(l.block[0].weight));
  }
  const std::int64_t unit_bytes = l.tile * rows * j.esize * l.batch;
  if (l.units() >= 4 * workers() || unit_bytes <= serial_bytes) {
    const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / std::max<std::int64_t>(1, unit_bytes));
    ::tbb::parallel_for(::tbb::blocked_range<std::int64_t>(0, l.units(), grain),
                        [&](const ::tbb::blocked_range<std::int64_t>& r) {
                          for (std::int64_t i = r.begin(); i < r.end(); ++i)
                            run_unit(j, l, i, false, i + 1 < r.end() ? i + 1 : -1);
                        });
    return true;
  }
  // Few units with many rows each: split the rows, in tiles the driver can combine.
  if (!make_layout(j, partial_lanes, l)) return false;
  for (std::int64_t i = 0; i < l.units(); ++i) run_unit(j, l, i, true);
  return true;
}

}  // namespace argx::detail::tbb_backend
