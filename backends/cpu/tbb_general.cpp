// The general traversals of the tbb backend, for the layouts the lanes engine does not
// take (flat and rows have their own, in tbb.cpp):
//  - runs: a contiguous reduced dim (forwards or backwards) whatever its place among the
//    reduced dims; each run goes to the contig kernel and its winner's position is put
//    back together from the run's place and the element's;
//  - gathers: anything else (no dim with stride +-1: sliced with a step, repeated, ...);
//    the elements of a slice are copied, in position order, into a small buffer on the
//    stack, which the contig kernel scans.
// Both stop at the top key where positions are visited in order.
#include <algorithm>
#include <cstring>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include "slice.hpp"
#include "tbb_job.hpp"

namespace argx::detail::tbb_backend {
namespace {

using cpu::simd::row_cursor;
using cpu::simd::row_walk;

/// f(first, last) over units [0, count) of `unit_bytes` each: on the calling thread where
/// the work is small, else over the cores in ranges of about grain_bytes.
template <class F>
void over_ranges(const job& j, std::int64_t count, std::int64_t unit_bytes, const F& f) {
  if (!j.parallel(count * unit_bytes)) return f(0, count);
  const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / unit_bytes);
  ::tbb::parallel_for(::tbb::blocked_range<std::int64_t>(0, count, grain),
                      [&](const ::tbb::blocked_range<std::int64_t>& r) { f(r.begin(), r.end()); });
}

/// Outputs whose pieces one parallel region of run_outputs meets.
constexpr std::int64_t met_outputs = 32;

/// A slice's positions [first, last) as a function of the piece of work, reduced into a
/// candidate; `run_outputs` spreads outputs, or the pieces of a few large slices, over the cores.
template <class Range>
void run_outputs(const job& j, std::int64_t pieces, const Range& range) {
  const plan& p = j.p;
  auto one = [&](std::int64_t o) {
    const std::int64_t start = kept_offset(p, o);
    const cand c = range(start, 0, pieces);
    j.put(o, c, j.at(start + reduced_offset(p, c.pos)));
  };
  const std::int64_t slice_bytes = p.reduce_size * j.esize;
  if (!j.parallel(p.outputs * slice_bytes)) {
    for (std::int64_t o = 0; o < p.outputs; ++o) one(o);
  } else if (p.outputs >= 4 * workers() || slice_bytes <= serial_bytes) {
    const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / slice_bytes);
    ::tbb::parallel_for(::tbb::blocked_range<std::int64_t>(0, p.outputs, grain),
                        [&](const ::tbb::blocked_range<std::int64_t>& r) {
                          for (std::int64_t o = r.begin(); o < r.end(); ++o) one(o);
                        });
  } else {
    // Few large slices: the pieces of up to met_outputs outputs in one parallel region
    // (one region an output left a core idle at each output's end: 5 slices of 5 pieces
    // ran 3 pieces to 2), a task's share of them met output by output.
    struct bests {
      cand c[met_outputs];
    };
    const std::int64_t grain = std::max<std::int64_t>(1, pieces * grain_bytes / slice_bytes);
    for (std::int64_t o0 = 0; o0 < p.outputs; o0 += met_outputs) {
      const std::int64_t n = std::min(met_outputs, p.outputs - o0);
      std::int64_t starts[met_outputs];
      bests seeds{};
      for (std::int64_t i = 0; i < n; ++i) starts[i] = kept_offset(p, o0 + i), seeds.c[i] = j.seed_for(p.reduce_size);
      const bests met = ::tbb::parallel_reduce(
          ::tbb::blocked_range<std::int64_t>(0, n * pieces, grain), seeds,
          [&](const ::tbb::blocked_range<std::int64_t>& r, bests acc) {
            for (std::int64_t k = r.begin(); k < r.end();) {
              const std::int64_t i = k / pieces, end = std::min(r.end(), (i + 1) * pieces);
              acc.c[i] = j.better(acc.c[i], range(starts[i], k - i * pieces, end - i * pieces));
              k = end;
            }
            return acc;
          },
          [&](bests a, const bests& b) {
            for (std::int64_t i = 0; i < n; ++i) a.c[i] = j.better(a.c[i], b.c[i]);
            return a;
          });
      for (std::int64_t i = 0; i < n; ++i) j.put(o0 + i, met.c[i], j.at(starts[i] + reduced_offset(p, met.c[i].pos)));
    }
  }
}

// ---- runs ---------------------------------------------------------------------------------

/// The reduced dim with stride +-1 the runs follow, and the walk over the other reduced
/// dims (position order); false when no reduced dim is contiguous or its runs are short.
bool runs_layout(const plan& p, int& u, row_walk& w) {
  const int rank = p.reduced_extents.size();
  u = -1;
  for (int d = 0; d < rank; ++d)
    if ((p.reduced_strides[d] == 1 || p.reduced_strides[d] == -1) && p.reduced_extents[d] >= 16) u = d;
  if (u < 0) return false;
  std::int64_t ps = 1;
  std::int64_t pos_strides[max_rank];
  for (int d = rank - 1; d >= 0; --d) pos_strides[d] = ps, ps *= p.reduced_extents[d];
  for (int d = 0; d < rank; ++d) {
    if (d == u) continue;
    w.extents[w.rank] = p.reduced_extents[d];
    w.strides[w.rank] = p.reduced_strides[d];
    w.pos_strides[w.rank++] = pos_strides[d];
  }
  return true;
}

void run_runs(const job& j, int u, const row_walk& w) {
  const plan& p = j.p;
  const std::int64_t n = p.reduced_extents[u];
  std::int64_t pos_u = 1;
  for (int d = p.reduced_extents.size() - 1; d > u; --d) pos_u *= p.reduced_extents[d];
  const bool backwards = p.reduced_strides[u] < 0;
  // Runs in position order with consecutive positions: what is known carries over
  // (the floor spares searches, and the top key ends the slice).
  const bool in_order = pos_u == 1 && !backwards;
  cpu::simd::order_params o = j.o;
  if (backwards) o.ties_last = !o.ties_last;  // memory order is position order reversed
  mark(p.type, backwards ? path::runs_backwards : path::runs);
  // Few long runs are cut into parts, so that the cores share them.
  const std::int64_t rows = w.rows();
  const std::int64_t parts =
      j.parallel(p.outputs * p.reduce_size * j.esize) && p.outputs * rows < 4 * workers()
          ? std::clamp<std::int64_t>(n * j.esize / grain_bytes, 1, 16 * workers())
          : 1;
  const std::int64_t part = (n + parts - 1) / parts;
  run_outputs(j, rows * parts, [&](std::int64_t start, std::int64_t k0, std::int64_t k1) {
    cand best = j.seed_for(p.reduce_size);
    row_cursor cur(w, k0 / parts);
    for (std::int64_t k = k0; k < k1; ++k) {
      if (k != k0 && k % parts == 0) cur.next();
      const std::int64_t i0 = (k % parts) * part, i1 = std::min(n, i0 + part);
      if (i0 >= i1) continue;
      if (in_order) {
        if (j.stops(best)) break;
        best = j.better(best, j.k.contig(j.at(start + cur.off + i0), i1 - i0, cur.pos + i0, o, best));
        continue;
      }
      // Coordinates [i0, i1) of the run: forwards from i0, or backwards from i1 - 1. Runs
      // read backwards in position order go in steps, so that a top key ends them.
      const std::int64_t step = backwards && pos_u == 1 ? std::max<std::int64_t>(1, 16384 / j.esize) : i1 - i0;
      for (std::int64_t a = i0; a < i1 && !(backwards && pos_u == 1 && j.stops(best)); a += step) {
        const std::int64_t b = std::min(i1, a + step);
        const std::int64_t at = start + cur.off + (backwards ? -(b - 1) : a);
        const cand c = j.k.contig(j.at(at), b - a, 0, o, cand{0, 0});
        const std::int64_t i = backwards ? b - 1 - c.pos : a + c.pos;
        best = j.better(best, cand{c.key, cur.pos + i * pos_u});
      }
      if (backwards && pos_u == 1 && j.stops(best)) break;
    }
    return best;
  });
}

// ---- rows, merged ------------------------------------------------------------------------

/// Outputs [o0, o1) of a rows-merge layout: their rows along the contiguous reduced dim
/// (n elements, pos_u positions apart), for each position of the other reduced dims (the
/// walk, in position order), given to the rows kernel in runs along the innermost kept
/// dim, and the winners merged by position.
void rows_merge_range(const job& j, std::int64_t n, std::int64_t pos_u, const row_walk& w, std::int64_t o0,
                      std::int64_t o1) {
  constexpr std::int64_t most = 1024;
  const plan& p = j.p;
  const int last = p.kept_extents.size() - 1;
  const std::int64_t extent = p.kept_extents[last], stride = p.kept_strides[last];
  cand acc[most];
  std::uint64_t keys[most];
  std::int64_t positions[most];
  for (std::int64_t c0 = o0; c0 < o1; c0 += most) {
    const std::int64_t c1 = std::min(o1, c0 + most);
    std::fill(acc, acc + (c1 - c0), j.seed_for(p.reduce_size));
    for (std::int64_t o = c0; o < c1;) {
      const std::int64_t run = std::min(extent - o % extent, c1 - o);
      const std::int64_t start = kept_offset(p, o);
      cpu::simd::sink s{nullptr, nullptr, 0, index_type::int64, 1, keys, positions};
      row_cursor cur(w, 0);
      for (std::int64_t r = 0, rows = w.rows(); r < rows; ++r, cur.next()) {
        j.k.rows(j.at(start + cur.off), run, stride, n, j.o, s);
        for (std::int64_t i = 0; i < run; ++i)
          acc[o - c0 + i] = j.better(acc[o - c0 + i], cand{keys[i], cur.pos + positions[i] * pos_u});
      }
      o += run;
    }
    for (std::int64_t o = c0; o < c1; ++o) {
      const cand c = acc[o - c0];
      j.put(o, c, j.out.values ? j.at(kept_offset(p, o) + reduced_offset(p, c.pos)) : nullptr);
    }
  }
}

/// Outputs [o0, o1) of a rows-merge layout whose rows (n elements, pos_u positions apart)
/// are 64 bytes to one lanes call long: each output's rows are the rows of one lanes call
/// (a lane a position along them, walked down the other reduced dims in position order),
/// and its lanes' bests are merged by position. The rows kernel would reduce each short row
/// across, paying a horizontal reduction a row.
void rows_merge_lanes(const job& j, std::int64_t n, std::int64_t pos_u, const row_walk& w, std::int64_t o0,
                      std::int64_t o1) {
  const plan& p = j.p;
  lane_scratch& sc = scratch();  // the lanes' bests (64 KiB: too much for a worker's stack frame)
  std::uint64_t* key = sc.key;
  std::int64_t* pos = sc.pos;
  for (std::int64_t o = o0; o < o1; ++o) {
    const std::int64_t start = kept_offset(p, o);
    j.k.lanes(j.at(start), n, w, 0, w.rows(), j.o, cpu::simd::lane_sink{nullptr, 1, key, pos});
    cand best = j.seed_for(p.reduce_size);
    for (std::int64_t i = 0; i < n; ++i) best = j.better(best, cand{key[i], pos[i] + i * pos_u});
    j.put(o, best, j.out.values ? j.at(start + reduced_offset(p, best.pos)) : nullptr);
  }
}

// ---- gathers ------------------------------------------------------------------------------

/// Bytes of the buffer a slice's elements are gathered into.
constexpr std::int64_t gather_bytes = 16384;

/// Copies every Step-th element: a stride known to the compiler becomes vector loads and
/// shuffles (stride 2: 3-12x the elements a second of a stride known only at run time).
template <std::int64_t Step, class B>
void copy_every(B* __restrict d, const B* __restrict s, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k) d[k] = s[k * Step];
}

/// Copies the elements of positions [first, first + n) of the slice at `src` (any
/// strides) to `dst`, in position order; contiguous runs as one copy.
template <class B>
void gather(const plan& p, const B* src, std::int64_t first, std::int64_t n, B* dst) {
  const std::int64_t inner_s = p.reduced_strides[p.reduced_extents.size() - 1];
  cpu::for_each_run(p, first, first + n, [&](std::int64_t pos, std::int64_t off, std::int64_t run) {
    B* d = dst + (pos - first);
    const B* s = src + off;
    if (inner_s == 1)
      std::memcpy(d, s, static_cast<std::size_t>(run) * sizeof(B));
    else if (inner_s == 2)  // e.g. a slice with step 2
      copy_every<2>(d, s, run);
    else if (inner_s == 4)
      copy_every<4>(d, s, run);
    else
      for (std::int64_t k = 0; k < run; ++k) d[k] = s[k * inner_s];
  });
}

/// The first `dims` kept dims as an odometer of slice starts.
row_walk kept_walk(const plan& p, int dims) {
  row_walk w;
  for (int d = 0; d < dims; ++d) {
    w.extents[w.rank] = p.kept_extents[d];
    w.strides[w.rank++] = p.kept_strides[d];
  }
  return w;
}

/// The offset of each of the n positions of a slice, from the slice's start.
void position_offsets(const plan& p, std::int64_t n, std::int64_t* offset) {
  for (std::int64_t i = 0; i < n; ++i) offset[i] = reduced_offset(p, i);
}

/// Outputs [o0, o1) of short slices: each slice gathered into a row of the buffer, and a
/// buffer of rows given to the rows kernel, which stores the winners.
template <class B>
void gathered_rows(const job& j, std::int64_t o0, std::int64_t o1) {
  const plan& p = j.p;
  constexpr std::int64_t chunk = gather_bytes / std::int64_t(sizeof(B));
  const std::int64_t n = p.reduce_size, per = chunk / n;
  const row_walk kept = kept_walk(p, p.kept_extents.size());
  B buf[chunk];
  std::int64_t offset[chunk / 16];
  position_offsets(p, n, offset);
  row_cursor cur(kept, o0);
  for (std::int64_t c0 = o0; c0 < o1; c0 += per) {
    const std::int64_t c1 = std::min(o1, c0 + per);
    for (std::int64_t o = c0; o < c1; ++o, cur.next()) {
      const B* src = reinterpret_cast<const B*>(j.at(cur.off));
      B* dst = buf + (o - c0) * n;
      for (std::int64_t i = 0; i < n; ++i) dst[i] = src[offset[i]];
    }
    j.k.rows(buf, c1 - c0, n, n, j.o, j.sink_from(c0));
  }
}

/// Copies `count` groups, from the cursor's on, into neighbouring columns of a buffer whose
/// rows are `row` elements apart: each of a group's n positions (at `offset` elements from
/// the group's start) `w` elements wide, as one move of `Move` bytes (w elements exactly),
/// two that overlap (Two: Move < the group's bytes < 2 * Move), or (Move = 0) one move of
/// the group's bytes.
template <std::int64_t Move, bool Two, class B>
void gather_groups(const job& j, row_cursor& cur, std::int64_t count, B* buf, std::int64_t w,
                   const std::int64_t* offset, std::int64_t n, std::int64_t row) {
  const std::int64_t bytes = w * std::int64_t(sizeof(B));
  for (std::int64_t g = 0; g < count; ++g, cur.next()) {
    const B* src = reinterpret_cast<const B*>(j.at(cur.off));
    B* col = buf + g * w;
    for (std::int64_t i = 0; i < n; ++i) {
      B* to = col + i * row;
      const B* from = src + offset[i];
      if constexpr (Move == 0) {
        std::memcpy(to, from, static_cast<std::size_t>(bytes));
      } else {
        std::memcpy(to, from, Move);
        if constexpr (Two)
          std::memcpy(reinterpret_cast<char*>(to) + bytes - Move, reinterpret_cast<const char*>(from) + bytes - Move, Move);
      }
    }
  }
}

/// gather_groups with its moves chosen once per buffer, not per position (a jump table on
/// the group's width at every position took about a tenth of gathered_lanes' time, around
/// a 12-byte copy).
template <class B>
void gather_groups_of(const job& j, row_cursor& cur, std::int64_t count, B* buf, std::int64_t w,
                      const std::int64_t* offset, std::int64_t n, std::int64_t row) {
  const std::int64_t bytes = w * std::int64_t(sizeof(B));
  switch (bytes) {  // the common widths as one move each
    case 2: return gather_groups<2, false>(j, cur, count, buf, w, offset, n, row);
    case 4: return gather_groups<4, false>(j, cur, count, buf, w, offset, n, row);
    case 6: return gather_groups<6, false>(j, cur, count, buf, w, offset, n, row);
    case 8: return gather_groups<8, false>(j, cur, count, buf, w, offset, n, row);
    case 12: return gather_groups<12, false>(j, cur, count, buf, w, offset, n, row);
    case 3: return gather_groups<2, true>(j, cur, count, buf, w, offset, n, row);
    case 5:
    case 7: return gather_groups<4, true>(j, cur, count, buf, w, offset, n, row);
  }
  // Groups of 16 bytes or more are the lanes engine's (its blocks start at 16 bytes); a
  // move of the group's size keeps this correct for any other.
  if (bytes < 16) return gather_groups<8, true>(j, cur, count, buf, w, offset, n, row);
  gather_groups<0, false>(j, cur, count, buf, w, offset, n, row);
}

/// Groups [g0, g1) of short slices whose last kept dim has unit stride: group g is the `w`
/// outputs g * w ... that differ only along it, whose slices interleave element by element
/// (position i of the group's k-th output lies k elements after its first's). A group's
/// positions are copied w neighbouring elements at a time into the columns of a buffer of
/// one row a position, and a buffer of groups goes to the lanes kernel, a lane an output
/// (gathered_rows would copy them one element at a time, then reduce rows of a few
/// elements each).
template <class B>
void gathered_lanes(const job& j, std::int64_t w, std::int64_t g0, std::int64_t g1) {
  const plan& p = j.p;
  constexpr std::int64_t chunk = gather_bytes / std::int64_t(sizeof(B));
  const std::int64_t n = p.reduce_size;
  const std::int64_t per = std::min(chunk / (n * w), cpu::simd::lanes_max(sizeof(B)) / w);  // groups a call
  const row_walk groups = kept_walk(p, p.kept_extents.size() - 1);  // of group starts
  B buf[chunk];
  std::int64_t offset[chunk / 16];
  position_offsets(p, n, offset);
  row_cursor cur(groups, g0);
  for (std::int64_t c0 = g0; c0 < g1; c0 += per) {
    const std::int64_t c1 = std::min(g1, c0 + per), lanes = (c1 - c0) * w;
    gather_groups_of(j, cur, c1 - c0, buf, w, offset, n, lanes);
    row_walk rows;  // position i is row i of the buffer
    rows.rank = 1;
    rows.extents[0] = n;
    rows.strides[0] = lanes;
    rows.pos_strides[0] = 1;
    const cpu::simd::sink s = j.sink_from(c0 * w);
    j.k.lanes(buf, lanes, rows, 0, n, j.o, cpu::simd::lane_sink{&s, 1});
  }
}

template <class B>
void run_gathers(const job& j) {
  const plan& p = j.p;
  constexpr std::int64_t chunk = gather_bytes / std::int64_t(sizeof(B));
  const std::int64_t chunks = (p.reduce_size + chunk - 1) / chunk;
  mark(p.type, path::gathers);
  const int kept = p.kept_extents.size();
  const std::int64_t w = kept > 0 && p.kept_strides[kept - 1] == 1 ? p.kept_extents[kept - 1] : 0;
  if (p.reduce_size * 16 <= chunk) {  // short slices
    if (w >= 2 && p.reduce_size * w <= chunk && w <= cpu::simd::lanes_max(j.esize) && p.outputs / w >= 16) {
      // interleaved in groups along a unit-stride kept dim: lanes of a buffer
      mark(p.type, path::gathered_lanes);
      return over_ranges(j, p.outputs / w, p.reduce_size * w * j.esize,
                         [&](std::int64_t g0, std::int64_t g1) { gathered_lanes<B>(j, w, g0, g1); });
    }
    if (p.outputs >= 16) {  // many: rows of a buffer
      mark(p.type, path::gathered_rows);
      return over_ranges(j, p.outputs, p.reduce_size * j.esize,
                         [&](std::int64_t o0, std::int64_t o1) { gathered_rows<B>(j, o0, o1); });
    }
  }
  run_outputs(j, chunks, [&](std::int64_t start, std::int64_t c0, std::int64_t c1) {
    B buf[chunk];
    cand best = j.seed_for(p.reduce_size);
    for (std::int64_t c = c0; c < c1 && !j.stops(best); ++c) {
      const std::int64_t first = c * chunk, n = std::min(chunk, p.reduce_size - first);
      gather(p, reinterpret_cast<const B*>(j.at(start)), first, n, buf);
      best = j.better(best, j.k.contig(buf, n, first, j.o, best));
    }
    return best;
  });
}

}  // namespace

bool run_rows_merge(const job& j) {
  const plan& p = j.p;
  if (p.outputs < 64) return false;  // few outputs: the other traversals split the reduced dims
  for (int d = 0; d < p.kept_extents.size(); ++d)
    if (p.kept_strides[d] == 1 || p.kept_strides[d] == -1) return false;  // lanes along it instead
  int u = -1;
  for (int d = 0; d < p.reduced_extents.size(); ++d)
    if (p.reduced_strides[d] == 1) u = d;
  if (u < 0) return false;
  const std::int64_t n = p.reduced_extents[u], rows = p.reduce_size / n;
  if (n < 16 && rows >= 16) return false;  // short rows, many of them: lane blocks do better
  row_walk w;
  std::int64_t ps = 1, pos_strides[max_rank];
  for (int d = p.reduced_extents.size() - 1; d >= 0; --d) pos_strides[d] = ps, ps *= p.reduced_extents[d];
  for (int d = 0; d < p.reduced_extents.size(); ++d) {
    if (d == u) continue;
    w.extents[w.rank] = p.reduced_extents[d];
    w.strides[w.rank] = p.reduced_strides[d];
    w.pos_strides[w.rank++] = pos_strides[d];
  }
  // Lanes where rows are a vector or more and many: the lanes' merge (a few ns a lane)
  // stays under the rows kernel's horizontal reduction (tens of ns a row) it replaces.
  const std::int64_t row_bytes = n * j.esize;
  if (row_bytes >= 64 && n <= cpu::simd::lanes_max(j.esize) && rows >= 16 && rows * 8 >= n &&
      p.reduce_size < (std::int64_t(1) << 31)) {
    mark(p.type, path::rows_merge_lanes);
    over_ranges(j, p.outputs, p.reduce_size * j.esize,
                [&](std::int64_t o0, std::int64_t o1) { rows_merge_lanes(j, n, pos_strides[u], w, o0, o1); });
    return true;
  }
  mark(p.type, path::rows_merge);
  over_ranges(j, p.outputs, p.reduce_size * j.esize,
              [&](std::int64_t o0, std::int64_t o1) { rows_merge_range(j, n, pos_strides[u], w, o0, o1); });
  return true;
}

void run_general(const job& j) {
  int u;
  row_walk w;
  if (runs_layout(j.p, u, w)) return run_runs(j, u, w);
  switch (j.esize) {
    case 1: return run_gathers<std::uint8_t>(j);
    case 2: return run_gathers<std::uint16_t>(j);
    case 4: return run_gathers<std::uint32_t>(j);
    default: return run_gathers<std::uint64_t>(j);
  }
}

}  // namespace argx::detail::tbb_backend
