// Which paths of the tbb backend (its kernels and its traversals) have run, per dtype.
// Each path marks itself as it runs, once per block, group of rows or call: after the
// first time a mark is one relaxed load. The randomized self-check (tests/cpu) reads the
// marks, so that it cannot pass without having compared every path with seq.
#pragma once

#include <atomic>
#include <cstdint>

#include <argx/dtype.hpp>

namespace argx::detail::cpu {

enum class path : unsigned {
  // contig kernel: flat ranges, long rows, runs
  contig_summary,   ///< a block summarized by min/max, searched only when it wins
  contig_keyed,     ///< a block with NaN, scanned with exact lane keys
  contig_one_sign,  ///< floats of one sign, summarized by signed min and max
  contig_stop,      ///< a scan that stopped at the top key
  // rows kernel
  rows_across,        ///< rows of a vector or more, vectorised across rows
  rows_across_short,  ///< rows shorter than a vector, vectorised across rows
  rows_special,       ///< a row of an across group with NaN, scanned alone
  rows_stop,          ///< an across group whose rows (nearly all) hold the top key in their first vector
  rows_scan,          ///< a long row, scanned alone
  rows_single,        ///< rows of one element
  rows_interleaved,   ///< dense rows of 2 to 4 elements, loaded deinterleaved
  // lanes kernel
  lanes_wide,    ///< 4- and 8-byte lanes
  lanes_narrow,  ///< 1- and 2-byte lanes at full width, rows counted in chunks
  lanes_one_chunk,  ///< 1- and 2-byte lanes, a walk of one chunk: emitted without widening
  lanes_scalar,  ///< fewer lanes than a vector
  lanes_stop,    ///< every lane at the top key: the rows left are not read
  lanes_few_rows,  ///< walks of a few rows: every item of a call at once, bests kept in registers
  // tbb traversals
  flat_split,        ///< one contiguous slice split over the cores
  rows_split,        ///< a few long rows, each split over the cores
  rows_lead,         ///< long rows that may stop early: the first ones read on the calling thread
  rows_along,        ///< rows walked along a longer kept dim than a short innermost one
  repeated_outputs,  ///< kept dims of stride 0: each answer reduced once and copied
  lanes_whole,       ///< lanes that are whole outputs, stored by the kernel
  lanes_combined,    ///< lane blocks with reduced dims, combined by position
  lanes_rest,        ///< the rows a split reduced dim's chunks miss
  lanes_split_rows,  ///< a few lane tiles with many rows, the rows split over the cores
  rows_merge,        ///< rows along a contiguous reduced dim, for many outputs, merged over the other reduced dims
  runs,              ///< runs along a contiguous reduced dim
  runs_backwards,    ///< runs along a reversed contiguous reduced dim
  gathers,           ///< no contiguous dim: elements gathered into a buffer
  gathered_rows,     ///< no contiguous dim, short slices: gathered as rows of a buffer
  lanes_buffered,    ///< whole lanes whose outputs are not one apart: runs of items buffered, copied out
  gathered_lanes,    ///< no contiguous dim, short slices interleaved along a unit-stride kept dim: lanes of a buffer
  rows_merge_lanes,  ///< rows along a contiguous reduced dim, 64 B to a lanes call long: lanes down the other reduced dims
  count
};

constexpr std::uint64_t path_bit(path p) { return std::uint64_t(1) << static_cast<unsigned>(p); }

namespace paths_detail {
extern std::atomic<std::uint64_t> seen[dtype_count];
}

/// Marks path p as run for dtype t.
inline void mark(dtype t, path p) noexcept {
  std::atomic<std::uint64_t>& s = paths_detail::seen[static_cast<int>(t)];
  if ((s.load(std::memory_order_relaxed) & path_bit(p)) == 0) s.fetch_or(path_bit(p), std::memory_order_relaxed);
}

/// The paths run for dtype t since the last reset.
std::uint64_t paths_seen(dtype t) noexcept;
void reset_paths() noexcept;
/// The paths this build's kernels and traversals have for dtype t on this CPU: those a
/// thorough test must see run.
std::uint64_t paths_available(dtype t) noexcept;
/// A path's name, for messages.
const char* path_name(path p) noexcept;

}  // namespace argx::detail::cpu
