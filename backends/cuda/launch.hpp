// Launch settings as data: which kernel serves a plan, with how many threads and blocks,
// how a slice is split across blocks, and the workspace that needs. Plain C++ (no CUDA):
// the choice depends only on the plan and a few device properties, so it can be read,
// printed and tested without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <argx/plan.hpp>

namespace argx::detail::gpu {

/// The device properties the choice depends on.
struct device_limits {
  int multiprocessors = 1;
  int max_threads_per_multiprocessor = 2048;

  std::int64_t resident_threads() const noexcept {
    return static_cast<std::int64_t>(multiprocessors) * max_threads_per_multiprocessor;
  }
};

/// Settings of one kernel family: threads per block, and how many of its blocks a
/// multiprocessor keeps resident (filled in from the occupancy of the compiled kernel).
struct kernel_settings {
  int threads = 256;
  int blocks_per_multiprocessor = 8;
};

/// Per-device (and per-dtype, as residency depends on the kernel's registers) tuning: one
/// kernel_settings per kernel family plus the split thresholds.
struct tuning {
  kernel_settings team{256, 8};     ///< rows / general slices, a team of 1..32 lanes per slice
  kernel_settings block{256, 8};    ///< flat, long rows, few general slices: blocks per slice
  kernel_settings strided{256, 8};  ///< strided reduce: threads along the contiguous inner dim
  kernel_settings registers{256, 8};  ///< team kernel for short rows held in registers
  int team_vectors_per_lane = 2;         ///< 16-byte loads a team lane should get per slice
  int register_wide_rows = 32;  ///< short rows held in registers: rows of more vectors than this
                                ///< take 8 per lane, shorter ones 4 (2 for rows of 1 or 2)
  std::int64_t min_split_elements = 8192;  ///< fewest elements in one block's share of a slice
  std::int64_t max_unsplit_elements = 16384;  ///< slices up to this size take one block: meeting
                                              ///< across blocks costs more than it saves
  std::int64_t min_split_rows = 16;        ///< strided: fewest reduced rows per lane in one split

  static tuning for_device(const device_limits& d);
};

enum class kernel_kind : std::uint8_t {
  team,     ///< aligned groups of 2^team_log2 lanes, one slice per group at a time
  block,    ///< one block per (slice, split); the last block of a slice combines the splits
  strided,  ///< per warp: 2^team_log2 lanes along the inner dim (16/sizeof(T) columns each)
            ///< times the rest along R; optional split of R across warps
};

/// Everything a launch needs, chosen by choose_launch.
struct launch_config {
  kernel_kind kernel = kernel_kind::team;
  bool general = false;       ///< team/block: walk the reduced dims with an odometer
  int threads = 256;          ///< per block
  std::int64_t blocks = 1;    ///< grid
  int team_log2 = 5;          ///< team: lanes per slice; strided: lanes along the columns
  int register_vectors = 0;   ///< team: short aligned rows held in registers, at most this
                              ///< many 16-byte vectors per lane (2, 4 or 8); 0: streamed
  std::int64_t splits = 1;    ///< block/strided: pieces each slice (or column) is cut into
  std::int64_t chunk = 0;     ///< block/strided: positions per piece
  bool vector = false;        ///< strided: every column group starts 16-byte aligned
  std::size_t counters = 0;   ///< workspace: arrival counters (zero between launches)
  std::size_t partials = 0;   ///< workspace: candidates (16 bytes each)
};

/// Where kernels write: device memory, aligned to the element sizes.
struct device_outputs {
  void* indices = nullptr;
  void* values = nullptr;  ///< null when values are not wanted
};

/// Per-stream scratch: arrival counters (zero between launches) and partial candidates.
struct workspace_ptrs {
  unsigned* counters = nullptr;
  void* partials = nullptr;
};

/// Bytes of one partial candidate in the workspace (key padded to 8 bytes, int64 position).
inline constexpr std::size_t partial_bytes = 16;

/// The launch for a plan of class flat, rows, strided or general on a device. The data
/// pointer must be aligned to the element size (the caller copies misaligned inputs).
launch_config choose_launch(const plan& p, const tuning& t, const device_limits& d);

/// Human-readable summary ("team lanes=8 blocks=1056 threads=256"), for tools and tests.
std::string describe(const launch_config& c);

}  // namespace argx::detail::gpu
