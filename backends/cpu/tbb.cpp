// tbb: the fast CPU backend. oneTBB splits the work of each shape class over the cores;
// the SIMD kernels (simd.hpp) do the scanning; partial results meet in the shared combine.
//
// Small work runs on the calling thread (no task is created); large work is cut into
// pieces of at least grain_bytes, so that every core of the arena gets work while a task's
// cost stays small beside the bytes it reads.
// Nothing here allocates: partial results live in TBB's task bodies or on the stack.
#include <algorithm>
#include <atomic>
#include <memory>
#include <type_traits>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <argx/devices.hpp>

#include "../common/visit_dtype.hpp"
#include "tbb_job.hpp"

namespace argx::detail {
namespace tbb_backend {
namespace {

/// Best of the contiguous elements [first, last) of the slice at `start` (positions
/// first..last-1), split over the cores when it is large. With ties going first, a scan
/// that may stop early should not pay for tasks: the first serial_bytes are read on the
/// calling thread first; and a piece that starts after a top key found elsewhere is not
/// read (each task reads its range in steps and looks at what the others found).
cand contiguous(const job& j, std::int64_t start, std::int64_t first, std::int64_t last) {
  const std::int64_t n = last - first;
  if (!j.parallel(n * j.esize)) return j.k.contig(j.at(start + first), n, first, j.o, j.seed_for(j.p.reduce_size));
  const std::int64_t head = serial_bytes / j.esize;
  const cand lead = j.k.contig(j.at(start + first), head, first, j.o, j.seed_for(j.p.reduce_size));
  if (j.stops(lead)) return lead;
  first += head;
  mark(j.p.type, path::flat_split);
  constexpr std::int64_t stop_check_bytes = std::int64_t(256) << 10;
  // Pieces of 64 KiB to 1 MiB (16 or more), handed out one at a time: on a busy machine a
  // thread that loses its core holds back one piece, not half of the slice.
  const std::int64_t least = std::max<std::int64_t>(1, grain_bytes / j.esize);
  const std::int64_t piece = std::clamp<std::int64_t>((last - first) / 16, least, (std::int64_t(1) << 20) / j.esize);
  const std::int64_t step = stop_check_bytes / j.esize;
  std::atomic<std::int64_t> top_at{last};  // lowest position where a task found the top key
  return ::tbb::parallel_reduce(
      ::tbb::blocked_range<std::int64_t>(first, last, piece), lead,  // lead: the floor of every piece
      [&](const ::tbb::blocked_range<std::int64_t>& r, cand acc) {
        for (std::int64_t b = r.begin(); b < r.end(); b += step) {
          if ((j.stops(acc) && acc.pos < b) || top_at.load(std::memory_order_relaxed) < b) break;
          const std::int64_t e = std::min(r.end(), b + step);
          // acc, when it comes from earlier pieces, lets the kernel skip blocks it beats.
          acc = j.better(acc, j.k.contig(j.at(start + b), e - b, b, j.o, acc));
        }
        if (j.stops(acc)) {
          std::int64_t seen = top_at.load(std::memory_order_relaxed);
          while (acc.pos < seen && !top_at.compare_exchange_weak(seen, acc.pos, std::memory_order_relaxed)) {
          }
        }
        return acc;
      },
      [&](cand a, cand b) { return j.better(a, b); }, ::tbb::simple_partitioner());
}

// ---- flat: one contiguous slice ---------------------------------------------------------

void run_flat(const job& j) {
  const cand c = contiguous(j, 0, 0, j.p.reduce_size);
  j.put(0, c, j.at(c.pos));
}

// ---- rows: many contiguous slices -------------------------------------------------------

/// The kept dim a rows kernel call walks along: the innermost one, unless a call along it
/// would read a few hundred bytes at most (its fixed cost would then weigh more than its
/// rows: int16 rows of 3 along a reversed kept dim of 3 cost 27 ns a call of 3 outputs)
/// and another kept dim is at least 4 times longer with outputs at most 64 bytes apart
/// (farther apart, each index write is a cache line of its own: rows of one float16 along
/// a dim whose outputs lie 168 bytes apart ran 1.5x slower than in calls of 7).
int run_dim(const plan& p) {
  const int last = p.kept_extents.size() - 1;
  const std::int64_t row_bytes = p.reduce_size * static_cast<std::int64_t>(size_of(p.type));
  if (p.kept_extents[last] * row_bytes > 512) return last;
  int best = last;
  std::int64_t weight = 1;  // output stride of dim d (row-major over the kept dims)
  for (int d = last - 1; d >= 0; --d) {
    weight *= p.kept_extents[d + 1];
    if (weight * index_bytes(p) <= 64 && p.kept_extents[d] >= 4 * p.kept_extents[last] &&
        p.kept_extents[d] > p.kept_extents[best])
      best = d;
  }
  return best;
}

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

/// Runs [r0, r1) along kept dim `dim` (not the innermost): run r holds the outputs whose
/// other kept coordinates are r's (row-major over them), `piece` rows of it a unit, unit
/// u being piece u % pieces of run u / pieces.
void rows_along(const job& j, int dim, std::int64_t piece, std::int64_t u0, std::int64_t u1) {
  const plan& p = j.p;
  const int rank = p.kept_extents.size();
  const std::int64_t extent = p.kept_extents[dim], pieces = (extent + piece - 1) / piece;
  std::int64_t weight[max_rank];  // output stride of each kept dim (row-major)
  weight[rank - 1] = 1;
  for (int d = rank - 2; d >= 0; --d) weight[d] = weight[d + 1] * p.kept_extents[d + 1];
  for (std::int64_t u = u0; u < u1; ++u) {
    std::int64_t rest = u / pieces, o = 0, off = 0;
    for (int d = rank - 1; d >= 0; --d) {
      if (d == dim) continue;
      const std::int64_t c = rest % p.kept_extents[d];
      rest /= p.kept_extents[d];
      o += c * weight[d];
      off += c * p.kept_strides[d];
    }
    const std::int64_t c0 = (u % pieces) * piece, count = std::min(piece, extent - c0);
    cpu::simd::sink s = j.sink_from(o + c0 * weight[dim]);
    s.step = weight[dim];
    j.k.rows(j.at(off + c0 * p.kept_strides[dim]), count, p.kept_strides[dim], p.reduce_size, j.o, s);
  }
}

/// Long rows (scanned alone) that may stop early: like a flat slice's lead, the first rows
/// are read on the calling thread while each stops at the top key and what they read stays
/// under serial_bytes (17 bool rows of 18 KiB that stop at once took 1.3 us in tasks, 0.3 us
/// this way). Returns the first output left to do.
std::int64_t rows_lead(const job& j) {
  const plan& p = j.p;
  if (j.o.ties_last || p.reduce_size * j.esize <= cpu::simd::short_row_bytes) return 0;
  mark(p.type, path::rows_lead);
  std::int64_t o = 0;
  for (std::int64_t read = 0; o < p.outputs && read < serial_bytes;) {
    const std::int64_t start = kept_offset(p, o);
    const cand c = j.k.contig(j.at(start), p.reduce_size, 0, j.o, j.seed_for(p.reduce_size));
    j.put(o++, c, j.at(start + c.pos));
    if (!j.stops(c)) break;  // a row read to its end: the rest goes to the cores
    read += (c.pos + 1) * j.esize;
  }
  return o;
}

void run_rows(const job& j) {
  const plan& p = j.p;
  const std::int64_t row_bytes = p.reduce_size * j.esize;
  const int dim = run_dim(p);
  if (dim != static_cast<int>(p.kept_extents.size()) - 1) {
    mark(p.type, path::rows_along);
    const std::int64_t extent = p.kept_extents[dim], runs = p.outputs / extent;
    const bool parallel = j.parallel(p.outputs * row_bytes);
    // Pieces of a run: whole runs when they are enough for the cores, else cut so that
    // each piece still reads a grain.
    std::int64_t piece = extent;
    if (parallel && runs < 4 * workers())
      piece = std::max<std::int64_t>((extent * runs + 4 * workers() - 1) / (4 * workers()),
                                     std::max<std::int64_t>(1, grain_bytes / row_bytes));
    const std::int64_t units = runs * ((extent + piece - 1) / piece);
    if (!parallel) return rows_along(j, dim, piece, 0, units);
    const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / std::max<std::int64_t>(1, piece * row_bytes));
    ::tbb::parallel_for(::tbb::blocked_range<std::int64_t>(0, units, grain),
                        [&](const ::tbb::blocked_range<std::int64_t>& r) { rows_along(j, dim, piece, r.begin(), r.end()); });
    return;
  }
  if (p.outputs * row_bytes <= serial_bytes || workers() == 1) return rows_range(j, 0, p.outputs);
  if (p.outputs >= 4 * workers() || row_bytes <= serial_bytes) {
    const std::int64_t first = rows_lead(j);
    if (first == p.outputs) return;
    const std::int64_t grain = std::max<std::int64_t>(1, grain_bytes / row_bytes);
    ::tbb::parallel_for(::tbb::blocked_range<std::int64_t>(first, p.outputs, grain),
                        [&](const ::tbb::blocked_range<std::int64_t>& r) { rows_range(j, r.begin(), r.end()); });
    return;
  }
  // A few long rows: split each row instead.
  mark(p.type, path::rows_split);
  for (std::int64_t o = 0; o < p.outputs; ++o) {
    const std::int64_t start = kept_offset(p, o);
    const cand c = contiguous(j, start, 0, p.reduce_size);
    j.put(o, c, j.at(start + c.pos));
  }
}

// ---- repeated outputs: kept dims of stride 0 -----------------------------------------------

/// A kept dim of stride 0 (a broadcast: torch's expand, numpy's broadcast_to) repeats every
/// answer along it: the plan without those dims is reduced once, into scratch, and each
/// answer copied to its repeats (a float32 reduction under a repeated dim of 5 read its
/// 108 MiB five times). Not for slices of fewer than 24 bytes, whose answers cost less to
/// find again than to copy (int8 slices of 6: 3.8x slower that way). False when the plan
/// has no such dim or is not worth it.
void run_tbb(const plan& p, const outputs& out, stream_handle s);

bool run_repeated(const plan& p, const outputs& out, stream_handle s) {
  const int rank = p.kept_extents.size();
  bool repeated = false;
  for (int d = 0; d < rank; ++d) repeated = repeated || p.kept_strides[d] == 0;
  constexpr std::int64_t min_slice_bytes = 24;
  if (!repeated || p.outputs == 0 || p.reduce_size * static_cast<std::int64_t>(size_of(p.type)) < min_slice_bytes)
    return false;
  mark(p.type, path::repeated_outputs);
  plan q = p;
  q.kept_extents = {};
  q.kept_strides = {};
  for (int d = 0; d < rank; ++d)
    if (p.kept_strides[d] != 0) q.kept_extents.push_back(p.kept_extents[d]), q.kept_strides.push_back(p.kept_strides[d]);
  q.outputs = 1;
  for (int d = 0; d < q.kept_extents.size(); ++d) q.outputs *= q.kept_extents[d];
  q.kind = classify(q);
  const std::size_t value_bytes = size_of(p.type);
  // Scratch left uninitialized: every entry is written by the reduction.
  const std::unique_ptr<unsigned char[]> indices(new unsigned char[static_cast<std::size_t>(q.outputs * index_bytes(p))]);
  const std::unique_ptr<unsigned char[]> values(out.values ? new unsigned char[static_cast<std::size_t>(q.outputs) * value_bytes]
                                                           : nullptr);
  run_tbb(q, outputs{indices.get(), values.get()}, s);
  // Output o (row-major over p's kept dims) is q's output at the same coordinates without
  // the repeated dims: weights of 0 for those, row-major over the others. Copied a run of
  // the innermost kept dim at a time (a fill when that dim repeats).
  std::int64_t weight[max_rank], w = 1;
  for (int d = rank - 1; d >= 0; --d) {
    weight[d] = p.kept_strides[d] == 0 ? 0 : w;
    if (p.kept_strides[d] != 0) w *= p.kept_extents[d];
  }
  auto spread = [&](const unsigned char* src_bytes, auto* dst) {
    using T = std::remove_pointer_t<decltype(dst)>;
    const T* src = reinterpret_cast<const T*>(src_bytes);
    const std::int64_t run = p.kept_extents[rank - 1];
    std::int64_t c[max_rank] = {}, from = 0;
    for (std::int64_t o = 0; o < p.outputs; o += run) {
      if (weight[rank - 1] == 0)
        std::fill(dst + o, dst + o + run, src[from]);
      else
        std::copy(src + from, src + from + run, dst + o);
      for (int d = rank - 2; d >= 0; --d) {  // the next run's coordinates
        from += weight[d];
        if (++c[d] < p.kept_extents[d]) break;
        from -= c[d] * weight[d];
        c[d] = 0;
      }
    }
  };
  with_index_array(out.indices, p.index, [&](auto* dst) { spread(indices.get(), dst); });
  if (out.values)
    visit_dtype(p.type, [&](auto d) { spread(values.get(), static_cast<dtype_bits_t<decltype(d)::value>*>(out.values)); });
  return true;
}

void run_tbb(const plan& p, const outputs& out, stream_handle s) {
  if (run_repeated(p, out, s)) return;
  const std::uint64_t top = visit_dtype(p.type, [&](auto d) { return std::uint64_t(cpu::simd::top_key<decltype(d)::value>(p.keys)); });
  const job j{p, out, cpu::simd::kernels().by_dtype[static_cast<int>(p.type)],
              cpu::simd::order_params{p.keys, p.ties_last}, static_cast<std::int64_t>(size_of(p.type)), top};
  switch (p.kind) {
    case shape_class::empty: return;
    case shape_class::flat: return run_flat(j);
    case shape_class::rows: return run_rows(j);
    case shape_class::strided:
    case shape_class::general:
      if (!run_rows_merge(j) && !run_lanes(j)) run_general(j);
      return;
  }
}

}  // namespace
}  // namespace tbb_backend

const backend_entry tbb_entry{backend::tbb, true, always_usable, no_reason, tbb_backend::run_tbb};

}  // namespace argx::detail

const char* argx::cpu_simd_target() noexcept { return argx::detail::cpu::simd::kernels().target; }
