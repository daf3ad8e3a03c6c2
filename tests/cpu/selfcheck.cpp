// argx_cpu_selfcheck: randomized differential check of the par and tbb backends against
// seq (the oracle), bit for bit: indices (int64 and int32) and value bits.
//
// Inputs are built to hit what fast kernels get wrong: NaN of both signs and any payload,
// -0.0 next to +0.0, infinities, subnormals, dense ties, ascending data (every block wins),
// all-negative and all-non-negative floats, winners and NaN on block, vector and task
// boundaries, and every shape class (flat, rows, strided, general) with transposed,
// sliced, reversed and broadcast views. Every 16-bit pattern of f16/bf16 is also reduced.
// For every dtype, shapes and data made to lead to each path of the tbb backend's kernels
// and traversals (backends/cpu/paths.hpp) are reduced too; with oneTBB, the check then
// asserts that every path this build and CPU have ran for every dtype; half and bfloat16
// take every path under each combination of op, NaN policy, tie rule and abs. It runs the tbb
// backend in an arena of two threads, so that the paths that split work over the cores
// run on a machine of one core too.
//
//   argx_cpu_selfcheck [--part K/N] [trials [seed]]  exit status 0 = all agree (and every
//                                                    path ran), 1 = a mismatch or a path
//                                                    that did not run, 2 = bad arguments
// --part K/N runs part K of N (1 <= K <= N): the dtypes whose number is K - 1 modulo N, each
// checked in full (patterns, path trials, the random trials that draw it, its paths), so
// that N processes share the check (the sanitizer build's takes minutes).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <argx/argx.hpp>
#include <argx/detail/bit_layout.hpp>

#if ARGX_SELFCHECK_PATHS
#include <oneapi/tbb/task_arena.h>

#include "../../backends/cpu/paths.hpp"
#include "../../backends/cpu/simd.hpp"
#endif

namespace {

using bytes = std::vector<unsigned char>;

std::mt19937_64 rng;
std::uint64_t draw(std::uint64_t n) { return n == 0 ? 0 : rng() % n; }
bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

/// Exponent bits of a float dtype (0 for the others).
std::uint64_t exponent_mask(argx::dtype t) { return argx::detail::bit_layout_of(t).exp_mask; }

/// Element bits that matter for dtype t (raw, width size_of(t)).
std::vector<std::uint64_t> specials(argx::dtype t) {
  const int w = static_cast<int>(argx::size_of(t)) * 8;
  const std::uint64_t all = w == 64 ? ~0ull : (1ull << w) - 1, sign = 1ull << (w - 1);
  std::vector<std::uint64_t> v = {0, 1, 2, all, sign, sign | 1, all >> 1, (all >> 1) - 1};
  const std::uint64_t exp = exponent_mask(t);
  if (exp != 0) {
    const std::uint64_t quiet = (exp >> 1) & ~exp;  // top mantissa bit
    for (std::uint64_t s : {std::uint64_t(0), sign}) {
      v.push_back(s | exp);                // +-inf
      v.push_back(s | exp | quiet);        // quiet NaN
      v.push_back(s | exp | 1);            // signalling NaN, payload 1
      v.push_back(s | exp | (quiet - 1));  // NaN with a long payload
      v.push_back(s | (exp - 1));          // largest finite
      v.push_back(s | (exp >> 1));         // about 1.0 and 2.0
      v.push_back(s | ((exp >> 1) + 1));
      v.push_back(s | 3);                  // subnormals
    }
  }
  return v;
}

void put(bytes& buf, std::size_t i, std::uint64_t bits, std::size_t w) { std::memcpy(buf.data() + i * w, &bits, w); }

/// Fills n elements of dtype t with one of several patterns. Float data is mostly free
/// of NaN (random bits would put a NaN in nearly every block) with NaN put on purpose.
void fill(bytes& buf, std::size_t n, argx::dtype t, int forced_pattern = -1) {
  const std::size_t w = argx::size_of(t);
  buf.assign(n * w, 0);
  const auto sp = specials(t);
  const std::uint64_t exp = exponent_mask(t);
  const std::uint64_t sign = 1ull << (w * 8 - 1), mask = w == 8 ? ~0ull : (1ull << (w * 8)) - 1;
  const bool no_nan = forced_pattern >= 0 || chance(0.8);
  const int pattern = forced_pattern >= 0 ? forced_pattern : static_cast<int>(draw(8));
  const std::uint64_t side = chance(0.5) ? sign : 0;  // pattern 6: the sign of the non-zeros
  std::vector<std::uint64_t> palette;
  for (int k = 0, m = 1 + static_cast<int>(draw(5)); k < m; ++k)
    palette.push_back(chance(0.6) ? sp[draw(sp.size())] : rng() & mask);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t b = 0;
    switch (pattern) {
      case 0: b = rng(); break;                                      // random bits
      case 1: b = palette[draw(palette.size())]; break;              // dense ties
      case 2: b = exp != 0 ? ((i >> 1) + 1) & (sign - 1) : i; break; // ascending, pairs tie
      case 3: b = rng() | sign; break;                               // all negative
      case 4: b = rng() & ~sign; break;                              // all non-negative
      case 5: b = palette[0]; break;                                 // all equal
      case 6: b = chance(0.5) ? (chance(0.5) ? 0 : sign) : (rng() & ~sign) | side; break;  // +-0 win
      default: b = (rng() & 0x3F) | (chance(0.5) ? sign : 0); break;  // small values, many ties
    }
    b &= mask;
    if (no_nan && exp != 0 && (b & exp) == exp && (b & ~(exp | sign)) != 0) b ^= exp & ~(exp << 1);  // NaN -> finite
    put(buf, i, b, w);
  }
  // Specials (NaN, zeros, extremes) on block boundaries (16 KiB), task boundaries, anywhere.
  if (forced_pattern < 0 && chance(0.5)) {
    const std::size_t block = 16384 / w;
    for (int k = 0, m = 1 + static_cast<int>(draw(4)); k < m && n > 0; ++k) {
      std::size_t at = draw(n);
      if (chance(0.6)) at = std::min(n - 1, (1 + draw(n / block + 1)) * block - draw(2));
      put(buf, at, sp[draw(sp.size())], w);
    }
  }
}

struct trial {
  argx::dtype type;
  argx::shape extents, strides;  // the view
  std::int64_t offset;           // of element (0,..,0) in the buffer, in elements
  argx::spec s;
  argx::op o;
};

std::string describe(const trial& t) {
  std::string d = std::string(argx::name(t.type)) + " extents=(";
  for (auto e : t.extents) d += std::to_string(e) + ",";
  d += ") strides=(";
  for (auto e : t.strides) d += std::to_string(e) + ",";
  d += ") dims=(";
  for (auto e : t.s.dims) d += std::to_string(e) + ",";
  d += std::string(") ") + (t.o == argx::op::argmin ? "argmin" : "argmax") +
       (t.s.nan == argx::nan_policy::ignore ? " nan=ignore" : "") + (t.s.ties == argx::tie_break::last ? " ties=last" : "") +
       (t.s.abs ? " abs" : "") + (t.s.keepdim ? " keepdim" : "") + (t.s.index == argx::index_type::int32 ? " int32" : "");
  return d;
}

int failures = 0;

/// Whether pol, asked for t's indices alone (index type I, no values), gives want's.
template <class I>
bool indices_only(const argx::policy& pol, const trial& t, const argx::tensor_view& x, const argx::result& want) {
  std::vector<I> idx(want.size(), -7);
  argx::reduce(pol, t.o, x, argx::make_output(idx.data(), want.extents), nullptr, t.s);
  for (std::size_t i = 0; i < idx.size(); ++i)
    if (idx[i] != want.indices[i]) return false;
  return true;
}

/// Runs t on seq, par and tbb (the result form, the caller-buffer forms with and without
/// values) and compares every bit.
void check(const trial& t, const bytes& buf, const char* label) {
  const argx::tensor_view x =
      argx::make_view(buf.data() + t.offset * argx::size_of(t.type), t.type, t.extents, t.strides);
  const argx::result want = argx::reduce(argx::seq, t.o, x, t.s);
  for (argx::backend b : {argx::backend::par, argx::backend::tbb}) {
    if (!argx::available(b)) continue;
    const argx::policy pol{b};
    const argx::result got = argx::reduce(pol, t.o, x, t.s);
    bool same = got.indices == want.indices && got.values == want.values;
    if (same && t.s.index == argx::index_type::int32) {  // the caller-buffer form with int32 indices
      std::vector<std::int32_t> idx(want.size(), -7);
      bytes vals(want.values.size(), 0xAB);
      const argx::output_view vals_out = argx::make_output(static_cast<void*>(vals.data()), t.type, want.extents);
      argx::reduce(pol, t.o, x, argx::make_output(idx.data(), want.extents), &vals_out, t.s);
      for (std::size_t i = 0; i < idx.size(); ++i) same = same && idx[i] == want.indices[i];
      same = same && vals == want.values;
    }
    if (same) {  // indices alone: the kernels' index-only stores (and what they then need not read)
      same = t.s.index == argx::index_type::int32 ? indices_only<std::int32_t>(pol, t, x, want)
                                                  : indices_only<std::int64_t>(pol, t, x, want);
    }
    if (!same) {
      ++failures;
      std::size_t i = 0;
      while (i < want.size() && got.indices[i] == want.indices[i]) ++i;
      std::printf("MISMATCH [%s] %s vs seq: %s", label, std::string(argx::name(b)).c_str(), describe(t).c_str());
      if (i < want.size())
        std::printf(" output %zu: got %lld want %lld", i, static_cast<long long>(got.indices[i]),
                    static_cast<long long>(want.indices[i]));
      std::printf("\n");
    }
  }
}

void random_spec(trial& t) {
  t.o = chance(0.5) ? argx::op::argmax : argx::op::argmin;
  t.s.nan = chance(0.5) ? argx::nan_policy::propagate : argx::nan_policy::ignore;
  t.s.ties = chance(0.5) ? argx::tie_break::first : argx::tie_break::last;
  t.s.abs = chance(0.3);
  t.s.keepdim = chance(0.2);
  t.s.index = chance(0.2) ? argx::index_type::int32 : argx::index_type::int64;
}

/// A size that often sits on a block or vector boundary.
std::int64_t some_size(std::int64_t esize, std::int64_t cap) {
  const std::int64_t block = 16384 / esize;
  std::int64_t n;
  switch (draw(4)) {
    case 0: n = 1 + static_cast<std::int64_t>(draw(80)); break;
    case 1: n = block * (1 + static_cast<std::int64_t>(draw(3))) + static_cast<std::int64_t>(draw(7)) - 3; break;
    case 2: n = 1 + static_cast<std::int64_t>(draw(static_cast<std::uint64_t>(cap))); break;
    default: n = 1 + static_cast<std::int64_t>(draw(3000)); break;
  }
  return std::clamp<std::int64_t>(n, 1, cap);
}

/// The part of the dtypes this process checks (K/N on the command line).
int part_k = 0, part_n = 1;
bool in_part(argx::dtype t) { return static_cast<int>(t) % part_n == part_k; }

/// One random reduction of a random shape class.
void random_trial(int number) {
  trial t;
  t.type = static_cast<argx::dtype>(draw(argx::dtype_count));
  if (!in_part(t.type)) return;
  random_spec(t);
  const std::int64_t es = static_cast<std::int64_t>(argx::size_of(t.type));
  const std::int64_t cap = (std::int64_t(1) << 20) / es;  // about 1 MiB of input at most
  argx::shape storage;
  switch (draw(4)) {
    case 0: storage = {some_size(es, cap)}; break;  // flat
    case 1: {                                       // rows
      const std::int64_t r = some_size(es, 5000);
      storage = {std::max<std::int64_t>(1, cap / r / (1 + static_cast<std::int64_t>(draw(8)))), r};
      break;
    }
    case 2: {  // strided: [outer, R, inner]
      const std::int64_t inner = chance(0.5) ? 1 + static_cast<std::int64_t>(draw(40)) : 1000 + static_cast<std::int64_t>(draw(100));
      const std::int64_t r = 1 + static_cast<std::int64_t>(draw(static_cast<std::uint64_t>(std::max<std::int64_t>(1, cap / inner))));
      storage = {1 + static_cast<std::int64_t>(draw(3)), r, inner};
      break;
    }
    default: {  // general: rank 1..4
      const int rank = 1 + static_cast<int>(draw(4));
      for (int d = 0; d < rank; ++d) storage.push_back(1 + static_cast<std::int64_t>(draw(rank == 1 ? 5000 : 24)));
      break;
    }
  }
  std::int64_t count = 1;
  for (auto e : storage) count *= e;
  bytes buf;
  fill(buf, static_cast<std::size_t>(count), t.type);
  argx::tensor_view v = argx::make_view(static_cast<const void*>(buf.data()), t.type, storage, argx::contiguous_strides(storage));
  // View transforms: transpose, slice, flip, broadcast.
  const int rank = v.rank();
  if (rank > 1 && chance(0.25)) v = v.transposed(static_cast<int>(draw(rank)), static_cast<int>(draw(rank)));
  if (chance(0.2)) {
    const int d = static_cast<int>(draw(rank));
    const std::int64_t n = v.extents[d], b = static_cast<std::int64_t>(draw(static_cast<std::uint64_t>(n)));
    v = v.sliced(d, b, n, 1 + static_cast<std::int64_t>(draw(3)));
  }
  if (chance(0.2)) v = v.flipped(static_cast<int>(draw(rank)));
  if (chance(0.1) && v.rank() < argx::max_rank) {  // a broadcast dim (stride 0)
    v.extents.push_back(1 + static_cast<std::int64_t>(draw(4)));
    v.strides.push_back(0);
  }
  t.extents = v.extents;
  t.strides = v.strides;
  t.offset = (static_cast<const unsigned char*>(v.data) - buf.data()) / es;
  // dims: a single dim most often, sometimes all, sometimes a subset.
  const int r2 = v.rank();
  const auto roll = draw(10);
  if (roll < 5) {
    t.s.dims = {static_cast<int>(draw(r2)) - (chance(0.2) ? r2 : 0)};
  } else if (roll < 8) {
    for (int d = 0; d < r2; ++d)
      if (chance(0.5)) t.s.dims.push_back(d);
  }
  check(t, buf, ("random #" + std::to_string(number)).c_str());
}

/// Every bit pattern of a 16-bit float (or 8-bit type), shuffled, under every spec.
void every_pattern(argx::dtype type) {
  const std::size_t w = argx::size_of(type), n = std::size_t(1) << (8 * w);
  std::vector<std::uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  bytes buf(n * w * 3);
  for (std::size_t i = 0; i < 3 * n; ++i) put(buf, i, order[i % n], w);
  for (int m = 0; m < 32; ++m) {
    trial t;
    t.type = type;
    t.o = (m & 1) ? argx::op::argmin : argx::op::argmax;
    t.s.nan = (m & 2) ? argx::nan_policy::ignore : argx::nan_policy::propagate;
    t.s.ties = (m & 4) ? argx::tie_break::last : argx::tie_break::first;
    t.s.abs = (m & 8) != 0;
    t.offset = 0;
    if (m & 16) {  // as rows of 1000
      t.extents = {static_cast<std::int64_t>(3 * n / 1000), 1000};
      t.strides = {1000, 1};
      t.s.dims = {1};
    } else {
      t.extents = {static_cast<std::int64_t>(3 * n)};
      t.strides = {1};
    }
    check(t, buf, ("every pattern of " + std::string(argx::name(type))).c_str());
  }
}

// ---- path trials -------------------------------------------------------------------------

/// The bits of an element nothing beats under t's op and spec (ties going first): seq's
/// winner among the specials, which hold every dtype's extremes.
std::uint64_t top_bits(const trial& t) {
  const auto sp = specials(t.type);
  const std::size_t w = argx::size_of(t.type);
  bytes buf(sp.size() * w);
  for (std::size_t i = 0; i < sp.size(); ++i) put(buf, i, sp[i], w);
  argx::spec s = t.s;
  s.dims = {};
  s.keepdim = false;
  const auto r = argx::reduce(argx::seq, t.o, argx::make_view(buf.data(), t.type, {std::int64_t(sp.size())}, {1}), s);
  return sp[static_cast<std::size_t>(r.indices[0] < 0 ? 0 : r.indices[0])];
}

/// What a path trial's data holds.
enum class data { any, nan, many_nan, one_sign, top_somewhere, all_top, rows_start_top };
/// The view a path trial takes of its C-order buffer.
enum class view { contiguous, fortran, flipped, flipped_middle, every_second, every_fourth, every_second_inner, repeated };

/// A shape, view and data that lead the tbb backend to some of its paths.
struct recipe {
  const char* leads_to;
  argx::shape storage;
  view v;
  std::vector<int> dims;  // empty: all
  data d;
};

/// Most lanes of one call of the tbb backend's lanes kernel (any size without oneTBB).
std::int64_t cpu_lanes_max(std::int64_t esize) {
#if ARGX_SELFCHECK_PATHS
  return argx::detail::cpu::simd::lanes_max(esize);
#else
  return 4096 / esize;
#endif
}

/// Recipes for dtype t (sizes in elements of t, from bytes where the size matters).
std::vector<recipe> recipes(argx::dtype t) {
  const std::int64_t e = static_cast<std::int64_t>(argx::size_of(t));
  auto elems = [&](std::int64_t bytes) { return bytes / e; };
  return {
      {"flat_split contig_summary", {elems(300 << 10) + 3}, view::contiguous, {}, data::any},
      {"contig_keyed", {elems(300 << 10) + 5}, view::contiguous, {}, data::nan},
      {"contig_one_sign", {elems(300 << 10) + 7}, view::contiguous, {}, data::one_sign},
      {"contig_stop", {elems(64 << 10) + 1}, view::contiguous, {}, data::top_somewhere},
      {"rows_single", {6000, 1}, view::contiguous, {1}, data::any},
      {"rows_across_short", {6001, 6}, view::every_second_inner, {1}, data::any},
      {"rows_interleaved", {6001, 3}, view::contiguous, {1}, data::any},
      {"rows_interleaved", {6001, 2}, view::contiguous, {1}, data::nan},
      {"rows_interleaved", {6001, 4}, view::contiguous, {1}, data::any},
      // Rows of 5, 7 and 8 (AVX-512, 4- and 8-byte elements: columns permuted from the
      // vectors that hold them; else across rows).
      {"rows_interleaved", {6001, 5}, view::contiguous, {1}, data::any},
      {"rows_interleaved", {6001, 7}, view::contiguous, {1}, data::nan},
      {"rows_interleaved", {6001, 8}, view::contiguous, {1}, data::any},
      {"rows_across", {3001, 40}, view::contiguous, {1}, data::any},
      // Rows of three 32-byte vectors (a walk compiled for that count): the last one
      // overlapping the one before, or not.
      {"rows_across (three vectors a row)", {3001, elems(88)}, view::contiguous, {1}, data::any},
      {"rows_special (three vectors a row)", {3001, elems(96)}, view::contiguous, {1}, data::nan},
      {"rows_special", {3001, 40}, view::contiguous, {1}, data::nan},
      {"rows_scan", {301, elems(2048) + 5}, view::contiguous, {1}, data::any},
      {"rows_split", {2, elems(200 << 10) + 3}, view::contiguous, {1}, data::any},
      {"rows_lead", {60, elems(4 << 10) + 3}, view::contiguous, {1}, data::all_top},
      {"rows_stop", {3001, 100}, view::contiguous, {1}, data::all_top},
      {"rows_stop (a few rows scanned alone)", {3001, 100}, view::contiguous, {1}, data::rows_start_top},
      // Rows along dim 0 of the column-major buffer; the kept dims do not merge and the
      // innermost of them (extent 5 or 7) is short: calls go along the other one.
      {"rows_along", {3, 2000, 5}, view::fortran, {0}, data::any},
      {"rows_along (split over the cores)", {3, 30000, 7}, view::fortran, {0}, data::any},
      {"repeated_outputs (rows)", {2000, 40}, view::repeated, {2}, data::any},
      {"repeated_outputs (columns)", {300, 70}, view::repeated, {1}, data::nan},
      {"lanes_whole lanes_wide lanes_narrow", {300, 2000}, view::contiguous, {0}, data::any},
      {"lanes_stop", {300, 2000}, view::contiguous, {0}, data::all_top},
      // Lanes along dim 0 of the column-major buffer, whose outputs are 20 apart.
      {"lanes_buffered", {300, 7, 20}, view::fortran, {1}, data::any},
      {"lanes_one_chunk", {200, 40}, view::contiguous, {0}, data::any},
      // Walks of a few rows: every item of a call at once (one output a lane), and lanes
      // meeting in one output whose rows are 64 positions apart.
      {"lanes_few_rows (items of 5 rows)", {3000, 5, 13}, view::contiguous, {1}, data::many_nan},
      {"lanes_few_rows (16 rows)", {700, 16, 20}, view::contiguous, {1}, data::any},
      {"lanes_few_rows (rows 64 positions apart)", {4, 50, 64}, view::contiguous, {0, 2}, data::nan},
      {"lanes_few_rows lanes_buffered (3 rows)", {300, 40, 3}, view::fortran, {2}, data::many_nan},
      // Buffered lanes whose kept dims continue one another in the outputs: one run of 21
      // items a lane, a call per coordinate of dim 1; 1100 lanes whose items follow them in
      // memory (whole tiles); 1100 lanes in narrower tiles (about 370 lanes) whose runs of
      // 91 items take two batches, the second starting inside a row.
      {"lanes_buffered (a run over two kept dims)", {300, 7, 3, 3}, view::fortran, {3}, data::any},
      {"lanes_buffered (items next to the lanes in memory)", {1100, 13, 7, 2}, view::fortran, {3}, data::nan},
      {"lanes_buffered (narrower tiles, runs split inside a row)", {1100, 2, 13, 7}, view::fortran, {1}, data::nan},
      // Lanes 12 outputs apart and runs of 12: still buffered (dims 2 and 3 make the run).
      {"lanes_buffered (lanes as many outputs apart as a run)", {16, 5, 4, 3}, view::fortran, {1}, data::any},
      {"lanes_narrow (chunks joined)", {1500, 40}, view::contiguous, {0}, data::any},
      {"lanes_scalar (the last tile)", {20, cpu_lanes_max(e) + 3}, view::contiguous, {0}, data::any},
      {"lanes_combined lanes_rest", {2001, 3}, view::contiguous, {0}, data::any},
      // A reversed reduced dim next to the lanes: chunks of it walked backwards in memory.
      {"lanes_combined lanes_rest (a reversed reduced dim)", {40, 700, 2}, view::flipped_middle, {1}, data::any},
      {"lanes_split_rows", {4000, 100}, view::contiguous, {0}, data::any},
      {"rows_merge (rows too few for lanes)", {12, 200, 40}, view::contiguous, {0, 2}, data::any},
      {"rows_merge_lanes", {40, 70, 181}, view::contiguous, {0, 2}, data::any},
      {"rows_merge_lanes (the contiguous dim first: positions 20 apart)", {97, 70, 20}, view::fortran, {0, 2}, data::nan},
      {"runs", {2000, 50}, view::fortran, {}, data::any},
      // Three outputs of five runs of 40000 (slices of 200000 elements): the pieces of
      // every output met in one parallel region.
      {"runs (a few large slices)", {40000, 3, 5}, view::fortran, {0, 2}, data::any},
      {"runs_backwards", {100001}, view::flipped, {}, data::any},
      {"gathers", {100001}, view::every_second, {}, data::any},
      {"gathers (every fourth element)", {100003}, view::every_fourth, {}, data::nan},
      {"gathers (runs of every second element, across buffers)", {7, 3001}, view::every_second_inner, {}, data::any},
      {"gathered_rows", {30001, 6}, view::every_second_inner, {1}, data::any},
      {"gathered_lanes", {3001, 2, 4, 7, 3}, view::contiguous, {1, 3}, data::any},
      {"gathered_lanes (pairs)", {3, 4001, 2, 2}, view::contiguous, {0, 2}, data::nan},
      // Groups of 5 and 7 elements: copied as two overlapping moves where narrower than 16
      // bytes (5, 7, 10 and 14 bytes; wider groups are the lanes engine's).
      {"gathered_lanes (groups of 5)", {1001, 3, 2, 4, 5}, view::contiguous, {1, 3}, data::any},
      {"gathered_lanes (groups of 7)", {801, 2, 3, 5, 7}, view::contiguous, {1, 3}, data::nan},
  };
}

/// Spec k of the 16 combinations of op, NaN policy, tie rule and abs (keepdim and the
/// index type stay random).
void numbered_spec(trial& t, int k) {
  random_spec(t);
  t.o = (k & 1) ? argx::op::argmin : argx::op::argmax;
  t.s.nan = (k & 2) ? argx::nan_policy::ignore : argx::nan_policy::propagate;
  t.s.ties = (k & 4) ? argx::tie_break::last : argx::tie_break::first;
  t.s.abs = (k & 8) != 0;
}

/// Reduces recipe r of dtype t under `specs` random specs, or (every_spec) under each of
/// the 16 of numbered_spec.
void path_trial(argx::dtype t, const recipe& r, int specs, bool every_spec = false) {
  std::int64_t count = 1;
  for (auto x : r.storage) count *= x;
  const std::int64_t w = static_cast<std::int64_t>(argx::size_of(t));
  const bool floating = exponent_mask(t) != 0;
  for (int k = 0; k < (every_spec ? 16 : specs); ++k) {
    trial tr;
    tr.type = t;
    if (every_spec) numbered_spec(tr, k);
    else random_spec(tr);
    if (r.d == data::top_somewhere || r.d == data::all_top || r.d == data::rows_start_top) tr.s.ties = argx::tie_break::first;  // so that a scan may stop
    if (r.d == data::one_sign) tr.s.abs = false;
    bytes buf;
    fill(buf, static_cast<std::size_t>(count), t, r.d == data::one_sign ? 3 + k % 2 : -1);
    if (r.d == data::nan && floating) {  // quiet NaN, of either sign, in a few places
      const std::uint64_t exp = exponent_mask(t), nan = exp | ((exp >> 1) & ~exp);
      for (int m = 0; m < 3; ++m) put(buf, draw(count), nan | (chance(0.5) ? 1ull << (8 * w - 1) : 0), w);
    }
    if (r.d == data::many_nan && floating) {  // half the elements NaN: short slices often all NaN
      const std::uint64_t exp = exponent_mask(t), frac = (exp >> 1) & ~exp;
      for (std::int64_t i = 0; i < count; ++i)
        if (chance(0.5)) put(buf, i, exp | (rng() & (2 * frac - 1)) | 1 | (chance(0.5) ? 1ull << (8 * w - 1) : 0), w);
    }
    if (r.d == data::top_somewhere) put(buf, draw(count / 2), top_bits(tr), w);
    if (r.d == data::all_top)
      for (std::int64_t i = 0; i < count; ++i) put(buf, i, top_bits(tr), w);
    if (r.d == data::rows_start_top)  // rows of the storage's last dim; one in ten without
      for (std::int64_t i = 0; i < count; i += r.storage[r.storage.size() - 1])
        if (!chance(0.1)) put(buf, i + draw(2), top_bits(tr), w);
    argx::tensor_view v = argx::make_view(static_cast<const void*>(buf.data()), t, r.storage, argx::contiguous_strides(r.storage));
    switch (r.v) {
      case view::contiguous: break;
      case view::fortran: {  // the buffer read as column-major
        argx::shape st;
        std::int64_t s = 1;
        for (auto x : r.storage) st.push_back(s), s *= x;
        v = argx::make_view(static_cast<const void*>(buf.data()), t, r.storage, st);
        break;
      }
      case view::flipped: v = v.flipped(0); break;
      case view::flipped_middle: v = v.flipped(1); break;
      case view::every_second: v = v.sliced(0, 0, r.storage[0], 2); break;
      case view::every_fourth: v = v.sliced(0, 1, r.storage[0], 4); break;
      case view::every_second_inner: v = v.sliced(v.rank() - 1, 0, r.storage[r.storage.size() - 1], 2); break;
      case view::repeated: {  // a leading dim of 3 copies (stride 0): a kept dim that repeats every answer
        argx::shape e{3}, st{0};
        for (int d = 0; d < v.rank(); ++d) e.push_back(v.extents[d]), st.push_back(v.strides[d]);
        v = argx::make_view(v.data, t, e, st);
        break;
      }
    }
    tr.extents = v.extents;
    tr.strides = v.strides;
    tr.offset = (static_cast<const unsigned char*>(v.data) - buf.data()) / w;
    for (int d : r.dims) tr.s.dims.push_back(d);
    check(tr, buf, (std::string("path trial ") + r.leads_to).c_str());
  }
}

#if ARGX_SELFCHECK_PATHS
/// The paths of this build that did not run for some dtype, printed; their count.
int paths_not_run() {
  namespace cpu = argx::detail::cpu;
  int missing = 0;
  for (int i = 0; i < argx::dtype_count; ++i) {
    const auto t = static_cast<argx::dtype>(i);
    if (!in_part(t)) continue;
    const std::uint64_t left = cpu::paths_available(t) & ~cpu::paths_seen(t);
    for (unsigned p = 0; p < static_cast<unsigned>(cpu::path::count); ++p)
      if ((left >> p) & 1) {
        std::printf("PATH NOT RUN: %s for %s\n", cpu::path_name(static_cast<cpu::path>(p)), std::string(argx::name(t)).c_str());
        ++missing;
      }
  }
  return missing;
}
#endif

/// Every check of the program; returns the failures.
int run_all(int trials) {
  for (argx::dtype t : {argx::dtype::f16, argx::dtype::bf16, argx::dtype::i8, argx::dtype::u8, argx::dtype::boolean})
    if (in_part(t)) every_pattern(t);
  for (int i = 0; i < argx::dtype_count; ++i)
    if (in_part(static_cast<argx::dtype>(i)))
      for (const recipe& r : recipes(static_cast<argx::dtype>(i))) path_trial(static_cast<argx::dtype>(i), r, 4);
  // half and bfloat16 keys are the most involved (sign and magnitude, NaN): every spec on
  // every path.
  for (argx::dtype t : {argx::dtype::f16, argx::dtype::bf16})
    if (in_part(t))
      for (const recipe& r : recipes(t)) path_trial(t, r, 0, true);
  for (int i = 0; i < trials; ++i) random_trial(i);
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  // `--part K/N` first, then the positional trials and seed.
  int first = 1;
  if (argc > 2 && std::strcmp(argv[1], "--part") == 0) {
    if (std::sscanf(argv[2], "%d/%d", &part_k, &part_n) != 2 || part_n < 1 || part_k < 1 || part_k > part_n) {
      std::fprintf(stderr, "argx_cpu_selfcheck: the part is K/N with 1 <= K <= N, not %s\n", argv[2]);
      return 2;
    }
    first = 3;
  }
  const int trials = argc > first ? std::atoi(argv[first]) : 1500;
  const unsigned long long seed = argc > first + 1 ? std::strtoull(argv[first + 1], nullptr, 10) : 20240611ull;
  --part_k;  // from here on 0-based
  rng.seed(seed);
  int missing = 0;
#if ARGX_SELFCHECK_PATHS
  argx::detail::cpu::reset_paths();
  tbb::task_arena two(2);
  two.execute([&] { run_all(trials); });
  missing = paths_not_run();
#else
  run_all(trials);
#endif
  std::string checked;
  for (argx::backend b : {argx::backend::par, argx::backend::tbb})
    if (argx::available(b)) checked += std::string(checked.empty() ? "" : " and ") + std::string(argx::name(b));
  const std::string part = part_n > 1 ? " (dtypes of part " + std::to_string(part_k + 1) + "/" + std::to_string(part_n) + ")" : "";
  std::printf("argx_cpu_selfcheck: %d random trials (seed %llu) + every 8/16-bit pattern + path trials%s: %s%s%s\n",
              trials, seed, part.c_str(), checked.c_str(), failures == 0 ? " agree with seq" : ": MISMATCHES",
              missing == 0 ? "" : "; some paths did not run");
  return failures == 0 && missing == 0 ? 0 : 1;
}
