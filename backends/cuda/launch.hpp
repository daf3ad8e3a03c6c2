// Launch settings as data: which kernel serves a layout, with how many blocks, how a slice
// is split across blocks, and the workspace that needs. Plain C++ (no CUDA): the choice
// depends only on the layout and a few device properties, so it is read, printed and
// tested without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "layout.hpp"

namespace argx::detail::gpu {

/// The device properties the choice depends on.
struct device_limits {
  int multiprocessors = 1;
  int max_threads_per_multiprocessor = 2048;
  int compute_capability = 90;  ///< major * 10 + minor: picks the tuning (tuning.hpp)
};

/// Blocks of each kernel family a multiprocessor keeps resident, as compiled for a dtype
/// (filled in from the kernels' occupancy on the device). The defaults stand in where that
/// query fails, and are the device the plan tests assume; they are not the launch bounds'
/// minima (tuning.hpp), which the compiled kernels may exceed.
struct residency {
  int windows = 3, staged_rows = 5, runs_team = 4, runs_block = 3, columns = 2, elements = 4,
      tiny_rows = 8;  ///< tiny_rows: both tiny kinds
};

/// How the column kernel reads a row of a column group (16 bytes of neighbouring outputs).
enum class column_read : std::uint8_t {
  aligned,   ///< every row of every group starts on 16 bytes: one vector a row
  shifted,   ///< rows start anywhere: the two aligned vectors around the window, shifted
  shuffled,  ///< rows start anywhere, groups wide: each lane reads one aligned vector and takes
             ///< the next from its neighbour lane (a warp: 31 groups of one outer row and the
             ///< vector after them)
};

/// Groups a warp of shuffled reads holds (its 32nd lane reads the vector after them).
inline constexpr int column_shuffle_groups = 31;

constexpr const char* to_string(column_read r) noexcept {
  return r == column_read::aligned ? "aligned" : r == column_read::shifted ? "shifted" : "shuffled";
}

enum class kernel_kind : std::uint8_t {
  tiny_rows,       ///< slices of one run of a few elements: a thread each, element by element
  windows,         ///< slices of one short forward run, held in registers: a team of lanes each
  staged_rows,     ///< slices of one short forward run, a block's tile of them copied to shared
                   ///< memory, then folded by a thread each
  runs_team,       ///< slices of runs: a team of lanes each, streaming
  runs_block,      ///< slices of runs: a block per (slice, split); the last block of a slice combines
  runs_unordered,  ///< runs_block for walks whose runs do not visit positions in order
  columns,         ///< neighbouring outputs in one vector: a block per (column tile, split of the rows)
  elements_team,   ///< no unit stride: a team of lanes per slice, element by element
  elements_block,  ///< no unit stride: a block per (slice, split)
  tiny_slices,     ///< slices of a few positions over any reduced axes: a thread each, element by element
};

/// Everything a launch needs, chosen by choose_launch.
struct launch_config {
  kernel_kind kernel = kernel_kind::runs_team;
  int threads = 256;        ///< per block
  std::int64_t blocks = 1;  ///< grid
  int team_log2 = 5;        ///< windows, runs_team, elements_team: lanes per slice
  int column_lanes_log2 = 0;  ///< columns: lanes of a warp along the columns (the others along the rows)
  int row_warps_log2 = 0;   ///< columns: warps of a block along the rows (the others along the columns)
  bool run_stream = false;  ///< runs: short runs, walked as one stream of slots (else run after run, the team each)
  bool run_across = false;  ///< runs_block: runs of a few slots a lane, a piece walked as one range of slots
                            ///< across its runs (else run after run)
  std::int64_t run_slots = 0;  ///< runs, staged_rows: slots a run may touch (the stream's slots a run; long runs: pieces are ranges of them)
  int window_slots = 0;     ///< windows: slots a lane holds (2, 4 or 8)
  int stage_stride = 0;     ///< staged_rows: slots from one row of the tile to the next (>= run_slots)
  std::int64_t splits = 1;  ///< block kinds and columns: pieces each slice (tile) is cut into
  std::int64_t chunk = 0;   ///< per piece: slots (long runs) or runs (short ones), rows, or positions
  column_read read = column_read::shifted;  ///< columns: how a group's rows are read
  bool packed = false;      ///< columns: four (two) narrow elements compared at once
  bool packed_meet = false; ///< columns split: pieces meet through 64-bit atomic maxima (else partials: answer_blocks)
  bool memory_order = false; ///< tiny kinds: the outputs taken in memory order (layout.hpp: with_kept_in_memory_order)
  /// columns of a walk of virtual columns (layout.hpp: windowed_layouts, folded_layouts):
  /// the column kernel reads the walk, leaving a partial for every (split, virtual column);
  /// a second kernel of answer_blocks blocks folds each output's (and a folded walk's rows
  /// past its last fold) and stores the answers, a team of 2^answer_team_log2 lanes an
  /// output, or a block (answers_by_block) where the partials an output are many. Split
  /// columns whose pieces cannot meet through atomic maxima (64-bit keys) leave partials
  /// for that kernel too (answer_blocks > 0, virt none).
  virtual_columns virt{};
  std::int64_t answer_blocks = 0;
  int answer_team_log2 = 5;
  bool answers_by_block = false;
  std::size_t counters = 0; ///< workspace: arrival counters
  std::size_t slots = 0;    ///< workspace: 64-bit packed candidates (zero between launches)
  std::size_t partials = 0; ///< workspace: 16-byte partial candidates
};

/// The launch for a layout on a device (the layout's data aligned to its element size).
launch_config choose_launch(const layout& l, const residency& r, const device_limits& d);

/// The launch of a thread a slice (tiny_slices) for an ordered layout, as choose_launch
/// sizes it where it picks that kernel; for benchmarks that weigh it against the choice.
launch_config thread_per_slice_launch(const layout& l, const residency& r, const device_limits& d);

/// The window kernel's launch for a layout that choose_launch gives the staged rows kernel
/// (for benchmarks that weigh one against the other).
launch_config windows_launch(const layout& l, const residency& r, const device_limits& d);

/// Bytes of a staged_rows block's tile (dynamic shared memory): a row a thread.
constexpr std::size_t staged_tile_bytes(const launch_config& c) noexcept {
  return static_cast<std::size_t>(c.threads) * static_cast<std::size_t>(c.stage_stride) * 16;
}

/// Most rows a thread of a packed column launch walks: it counts them in a byte (1-byte
/// elements) or a half-word (2-byte ones).
constexpr std::int64_t packed_column_rows_max(std::int64_t elem) noexcept { return elem == 1 ? 255 : 65535; }

/// Tests: while an instance lives, the column launches this thread chooses read rows as
/// `read` says (aligned only where every row is aligned: elsewhere the choice stands), so
/// that each read runs on shapes the choice would send to another.
class column_read_forced {
 public:
  explicit column_read_forced(column_read read);
  ~column_read_forced();
  column_read_forced(const column_read_forced&) = delete;
  column_read_forced& operator=(const column_read_forced&) = delete;
};

/// "runs_block lanes=256 blocks=396 splits=396 chunk=169468", for tools and tests.
std::string describe(const launch_config& c);

}  // namespace argx::detail::gpu
