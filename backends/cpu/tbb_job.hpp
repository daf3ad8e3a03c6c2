// The tbb backend's view of one reduction: the plan, its outputs, the kernels for its
// dtype, and the sizes that decide how work is split over the cores. Shared by the
// drivers of each traversal (tbb.cpp, tbb_lanes.cpp, tbb_general.cpp).
#pragma once

#include <cstdint>

#include <oneapi/tbb/task_arena.h>

#include <argx/detail/answer.hpp>

#include "../common/backend.hpp"
#include "../common/visit_dtype.hpp"
#include "simd.hpp"
#include "slice.hpp"

namespace argx::detail::tbb_backend {

using cpu::mark;
using cpu::path;
using cpu::simd::cand;

/// Work up to this many bytes runs on the calling thread.
inline constexpr std::int64_t serial_bytes = std::int64_t(192) << 10;
/// Smallest piece of work one task gets.
inline constexpr std::int64_t grain_bytes = std::int64_t(64) << 10;

inline int workers() { return ::tbb::this_task_arena::max_concurrency(); }

/// Bytes of one index of the plan's output.
inline std::int64_t index_bytes(const plan& p) { return p.index == index_type::int32 ? 4 : 8; }

/// One reduction being run: the plan, its outputs and the kernels for its dtype.
struct job {
  const plan& p;
  const outputs& out;
  const cpu::simd::dtype_kernels& k;
  cpu::simd::order_params o;
  std::int64_t esize;  // bytes per element
  std::uint64_t top;   // the largest key an element can have (cpu::simd::top_key)

  const char* at(std::int64_t offset) const { return static_cast<const char*>(p.data) + offset * esize; }
  cpu::simd::sink sink_from(std::int64_t first) const {
    return cpu::simd::sink{out.indices, out.values, first, p.index};
  }
  /// Stores output o: the winner c, whose element is at `elem` (read only when values are
  /// asked for; null otherwise).
  void put(std::int64_t o, cand c, const char* elem) const {
    store_index(out.indices, p.index, o, reported_index(c, p.keys, is_floating(p.type)));
    if (out.values)
      visit_dtype(p.type, [&](auto d) { store_value(out.values, o, cpu::load_bits<decltype(d)::value>(elem, 0)); });
  }
  cand seed_for(std::int64_t count) const { return seed<std::uint64_t>(count, o.ties_last); }
  cand better(cand a, cand b) const { return combine(a, b, o.ties_last); }
  /// Nothing after `best` in position order can beat it (ties go first and it has the top key).
  bool stops(cand best) const { return !o.ties_last && best.key == top; }
  /// Whether work of `bytes` is worth more than the calling thread.
  bool parallel(std::int64_t bytes) const { return bytes > serial_bytes && workers() > 1; }
};

/// A thread's scratch arrays for the lanes it combines (a lanes call's bests at most):
/// a second set of bests to merge (lane_results), the rest's bests and the unit's outputs
/// (run_unit), each output's lanes merged by position (rows_merge_lanes). No TBB call runs
/// while one is in use, so no other task on the thread can take it meanwhile.
struct lane_scratch {
  std::uint64_t key[cpu::simd::lanes_max_any];
  std::int64_t pos[cpu::simd::lanes_max_any];
  cand acc[cpu::simd::lanes_max_any];
  std::int64_t out_of[cpu::simd::lanes_max_any];
};
/// The calling thread's (tbb_lanes.cpp).
lane_scratch& scratch();

// The traversals (each file one): lanes (strided and general layouts with a contiguous
// dim of lanes), runs and gathers (the rest of general).
/// Runs the plan with the lanes engine when its layout suits it; false otherwise.
bool run_lanes(const job& j);
/// General plans whose contiguous dim is a reduced one, with many outputs: rows along it,
/// merged over the other reduced dims. False when the plan is not such.
bool run_rows_merge(const job& j);
/// General plans the other traversals do not take.
void run_general(const job& j);

}  // namespace argx::detail::tbb_backend
