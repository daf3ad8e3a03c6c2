// tbb: the fast CPU backend. oneTBB splits the work of each shape class over the cores;
// the SIMD kernels (simd.hpp) do the scanning; partial results meet in the shared combine.
//
// Small work runs on the calling thread (no task is created); large work is cut into
// pieces of at least grain_bytes so that both cores stay busy without drowning in tasks.
// Nothing here allocates: partial results live in TBB's task bodies or on the stack.
#include <algorithm>
#include <cstring>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/task_arena.h>

#include <argx/devices.hpp>

#include "../common/visit_dtype.hpp"
#include "simd.hpp"
#include "slice.hpp"

namespace argx::detail {
namespace {

using cpu::simd::cand;

/// Work up to this many bytes runs on the calling thread.
constexpr std::int64_t serial_bytes = std::int64_t(192) << 10;
/// Smallest piece of work one task gets.
constexpr std::int64_t grain_bytes = std::int64_t(64) << 10;

/// One reduction being run: the plan, its outputs and the kernels for its dtype.
struct job {
  const plan& p;
  const outputs& out;
  const cpu::simd::dtype_kernels& k;
  cpu::simd::order_params o;
  std::int64_t esize;  // bytes per element

  const char* at(std::int64_t offset) const { return static_cast<const char*>(p.data) + offset * esize; }
  cpu::simd::sink sink_from(std::int64_t first) const {
    return cpu::simd::sink{out.indices, out.values, first, p.index == index_type::int32};
  }
  /// Stores output o: the winner c, whose element is at `elem`.
  void put(std::int64_t o, cand c, const char* elem) const {
    const std::int64_t index = reported_index(c, p.keys, is_floating(p.type));
    if (p.index == index_type::int64)
      static_cast<std::int64_t*>(out.indices)[o] = index;
    else
      static_cast<std::int32_t*>(out.indices)[o] = static_cast<std::int32_t>(index);
    if (out.values) std::memcpy(static_cast<char*>(out.values) + o * esize, elem, static_cast<std::size_t>(esize));
  }
  cand seed_for(std::int64_t count) const { return seed<std::uint64_t>(count, o.ties_last); }
  cand better(cand a, cand b) const { return combine(a, b, o.ties_last); }
};

int workers() { return tbb::this_task_arena::max_concurrency(); }

/// Best of the contiguous elements [first, last) of the slice at `start` (positions
/// first..last-1), split over the cores when it is large.
cand contiguous(const job& j, std::int64_t start, std::int64_t first, std::int64_t last) {
  const std::int64_t n = last - first;
  if (n * j.esize <= serial_bytes || workers() == 1)
    return j.k.contig(j.at(start + first), n, first, j.o, j.seed_for(j.p.reduce_size));
  const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / j.esize);
  return tbb::parallel_reduce(
      tbb::blocked_range<std::int64_t>(first, last, grain), j.seed_for(j.p.reduce_size),
      [&](const tbb::blocked_range<std::int64_t>& r, cand acc) {
        // acc, when it comes from earlier pieces, lets the kernel skip blocks it beats.
        return j.better(acc, j.k.contig(j.at(start + r.begin()), r.end() - r.begin(), r.begin(), j.o, acc));
      },
      [&](cand a, cand b) { return j.better(a, b); });
}

// ---- flat: one contiguous slice ---------------------------------------------------------

void run_flat(const job& j) {
  const cand c = contiguous(j, 0, 0, j.p.reduce_size);
  j.put(0, c, j.at(c.pos));
}

// ---- rows: many contiguous slices -------------------------------------------------------

/// Outputs [o0, o1) of a rows plan, in runs along the innermost kept dim (uniform stride).
void rows_range(const job& j, std::int64_t o0, std::int64_t o1) {
  const plan& p = j.p;
  const int last = p.kept_extents.size() - 1;
  const std::int64_t extent = p.kept_extents[last], stride = p.kept_strides[last];
  for (std::int64_t o = o0; o < o1;) {
    const std::int64_t run = std::min(extent - o % extent, o1 - o);
    j.k.rows(j.at(kept_offset(p, o)), run, stride, p.reduce_size, j.o, j.sink_from(o));
    o += run;
  }
}

void run_rows(const job& j) {
  const plan& p = j.p;
  const std::int64_t row_bytes = p.reduce_size * j.esize;
  if (p.outputs * row_bytes <= serial_bytes || workers() == 1) return rows_range(j, 0, p.outputs);
  if (p.outputs >= 4 * workers() || row_bytes <= serial_bytes) {
    const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / row_bytes);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, p.outputs, grain),
                      [&](const tbb::blocked_range<std::int64_t>& r) { rows_range(j, r.begin(), r.end()); });
    return;
  }
  // A few long rows: split each row instead.
  for (std::int64_t o = 0; o < p.outputs; ++o) {
    const std::int64_t start = kept_offset(p, o);
    const cand c = contiguous(j, start, 0, p.reduce_size);
    j.put(o, c, j.at(start + c.pos));
  }
}

// ---- strided: [.., R, inner] reduced over R, inner contiguous ----------------------------

/// Per-lane partial results over a range of rows, for parallel_reduce.
struct lane_bests {
  const job* j;
  std::int64_t start, lanes;
  bool has = false;
  cand best[cpu::simd::strided_max_lanes];

  lane_bests(const job& jb, std::int64_t s, std::int64_t n) : j(&jb), start(s), lanes(n) {}
  lane_bests(lane_bests& o, tbb::split) : j(o.j), start(o.start), lanes(o.lanes) {}

  void operator()(const tbb::blocked_range<std::int64_t>& r) {
    const std::int64_t rs = j->p.reduced_strides[0];
    for (std::int64_t k = r.begin(); k < r.end(); k += cpu::simd::strided_max_count) {
      const std::int64_t count = std::min(cpu::simd::strided_max_count, r.end() - k);
      j->k.strided(j->at(start + k * rs), lanes, count, rs, k, j->o, best, has);
      has = true;
    }
  }
  void join(const lane_bests& o) {
    if (!o.has) return;
    for (std::int64_t l = 0; l < lanes; ++l) best[l] = has ? j->better(best[l], o.best[l]) : o.best[l];
    has = true;
  }
};

void run_strided(const job& j) {
  const plan& p = j.p;
  const std::int64_t inner = p.inner(), outer = p.outputs / inner, R = p.reduce_size;
  const std::int64_t rs = p.reduced_strides[0];
  const std::int64_t tile = cpu::simd::strided_max_lanes;
  const std::int64_t tiles = (inner + tile - 1) / tile, items = outer * tiles;
  const bool serial = p.outputs * R * j.esize <= serial_bytes || workers() == 1;

  // Item i: lanes [t0, t0 + n) of outer slice i / tiles, rows [r0, r1).
  auto item = [&](std::int64_t i, std::int64_t r0, std::int64_t r1, bool split_rows) {
    const std::int64_t t0 = (i % tiles) * tile, n = std::min(tile, inner - t0);
    const std::int64_t o0 = (i / tiles) * inner + t0;
    const std::int64_t start = kept_offset(p, o0);
    lane_bests b(j, start, n);
    if (split_rows) {
      const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / (n * j.esize));
      tbb::parallel_reduce(tbb::blocked_range<std::int64_t>(r0, r1, grain), b);
    } else {
      b(tbb::blocked_range<std::int64_t>(r0, r1));
    }
    for (std::int64_t l = 0; l < n; ++l) j.put(o0 + l, b.best[l], j.at(start + b.best[l].pos * rs + l));
  };
  if (serial) {
    for (std::int64_t i = 0; i < items; ++i) item(i, 0, R, false);
  } else if (items >= 4 * workers()) {
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, items, 1), [&](const tbb::blocked_range<std::int64_t>& r) {
      for (std::int64_t i = r.begin(); i < r.end(); ++i) item(i, 0, R, false);
    });
  } else {
    for (std::int64_t i = 0; i < items; ++i) item(i, 0, R, true);
  }
}

// ---- general: any strides, several reduced dims -----------------------------------------

/// Best of positions [first, last) of the slice at `start`. Runs along a contiguous
/// innermost reduced dim go to the SIMD kernel; other layouts use the scalar walk.
cand general_range(const job& j, std::int64_t start, std::int64_t first, std::int64_t last) {
  const plan& p = j.p;
  const int rank = p.reduced_extents.size();
  const std::int64_t run_len = p.reduced_extents[rank - 1];
  if (p.reduced_strides[rank - 1] != 1 || run_len < 16) {
    return visit_dtype(p.type, [&](auto d) {
      const auto c = cpu::reduce_positions<decltype(d)::value>(p, start, first, last);
      return cand{c.key, c.pos};
    });
  }
  cand best = j.seed_for(p.reduce_size);
  for (std::int64_t pos = first; pos < last;) {
    const std::int64_t n = std::min(run_len - pos % run_len, last - pos);
    best = j.better(best, j.k.contig(j.at(start + reduced_offset(p, pos)), n, pos, j.o, best));
    pos += n;
  }
  return best;
}

void run_general(const job& j) {
  const plan& p = j.p;
  auto one = [&](std::int64_t o) {
    const std::int64_t start = kept_offset(p, o);
    const cand c = general_range(j, start, 0, p.reduce_size);
    j.put(o, c, j.at(start + reduced_offset(p, c.pos)));
  };
  const std::int64_t slice_bytes = p.reduce_size * j.esize;
  if (p.outputs * slice_bytes <= serial_bytes || workers() == 1) {
    for (std::int64_t o = 0; o < p.outputs; ++o) one(o);
  } else if (p.outputs >= 4 * workers() || slice_bytes <= serial_bytes) {
    const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / slice_bytes);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, p.outputs, grain), [&](const tbb::blocked_range<std::int64_t>& r) {
      for (std::int64_t o = r.begin(); o < r.end(); ++o) one(o);
    });
  } else {
    for (std::int64_t o = 0; o < p.outputs; ++o) {
      const std::int64_t start = kept_offset(p, o);
      const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / j.esize);
      const cand c = tbb::parallel_reduce(
          tbb::blocked_range<std::int64_t>(0, p.reduce_size, grain), j.seed_for(p.reduce_size),
          [&](const tbb::blocked_range<std::int64_t>& r, cand acc) {
            return j.better(acc, general_range(j, start, r.begin(), r.end()));
          },
          [&](cand a, cand b) { return j.better(a, b); });
      j.put(o, c, j.at(start + reduced_offset(p, c.pos)));
    }
  }
}

}  // namespace

bool tbb_built() noexcept { return true; }

void run_tbb(const plan& p, const outputs& out) {
  const job j{p, out, cpu::simd::kernels().by_dtype[static_cast<int>(p.type)],
              cpu::simd::order_params{p.keys, p.ties_last}, static_cast<std::int64_t>(size_of(p.type))};
  switch (p.kind) {
    case shape_class::empty: return;
    case shape_class::flat: return run_flat(j);
    case shape_class::rows: return run_rows(j);
    case shape_class::strided: return run_strided(j);
    case shape_class::general: return run_general(j);
  }
}

}  // namespace argx::detail

const char* argx::cpu_simd_target() noexcept { return argx::detail::cpu::simd::kernels().target; }
