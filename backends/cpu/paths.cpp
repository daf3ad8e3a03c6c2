// The path marks of the tbb backend (paths.hpp).
#include "paths.hpp"

#include "simd.hpp"

namespace argx::detail::cpu {

namespace paths_detail {
std::atomic<std::uint64_t> seen[dtype_count];
}

std::uint64_t paths_seen(dtype t) noexcept { return paths_detail::seen[static_cast<int>(t)].load(std::memory_order_relaxed); }

void reset_paths() noexcept {
  for (auto& s : paths_detail::seen) s.store(0, std::memory_order_relaxed);
}

std::uint64_t paths_available(dtype t) noexcept {
  // Every traversal runs for every dtype but gathered_lanes, whose neighbouring elements
  // are fewer than 16 bytes (wider blocks are the lanes engine's: two 8-byte elements
  // already are); the kernels' paths depend on the kernel set.
  std::uint64_t p = 0;
  for (path q : {path::flat_split, path::rows_split, path::rows_lead, path::rows_along, path::repeated_outputs, path::lanes_whole, path::lanes_buffered, path::lanes_combined, path::lanes_rest,
                 path::lanes_split_rows, path::rows_merge, path::rows_merge_lanes, path::runs, path::runs_backwards, path::gathers,
                 path::gathered_rows})
    p |= path_bit(q);
  if (size_of(t) < 8) p |= path_bit(path::gathered_lanes);
  return p | simd::kernels().paths[static_cast<int>(t)];
}

const char* path_name(path p) noexcept {
  static const char* const names[] = {
      "contig_summary",    "contig_keyed",      "contig_one_sign",   "contig_stop",       "rows_across",
      "rows_across_short", "rows_special",      "rows_stop",         "rows_scan",         "rows_single",
      "rows_interleaved",  "lanes_wide",        "lanes_narrow",      "lanes_one_chunk",   "lanes_scalar",
      "lanes_stop",        "lanes_few_rows",    "flat_split",        "rows_split",        "rows_lead",
      "rows_along",        "repeated_outputs",  "lanes_whole",       "lanes_combined",    "lanes_rest",
      "lanes_split_rows",  "rows_merge",        "runs",              "runs_backwards",    "gathers",
      "gathered_rows",     "lanes_buffered",    "gathered_lanes",    "rows_merge_lanes"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<unsigned>(path::count));
  return p < path::count ? names[static_cast<unsigned>(p)] : "?";
}

}  // namespace argx::detail::cpu
