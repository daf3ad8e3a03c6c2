// One rank's view of a distributed reduction: this rank's arguments validated against the
// whole tensor, the outputs this rank holds, and how its positions map to the whole's.
// Purely local: whether the ranks agree is agreement.hpp's job.
#pragma once

#include <cstdint>

#include <argx/order.hpp>
#include <argx/detail/plan.hpp>
#include <argx/shard.hpp>

#include "position.hpp"

namespace argx::distributed {

struct shard_plan {
  int split = 0;                        ///< the split dim, counted from the front
  bool split_reduced = false;           ///< candidates must be combined across ranks
  std::uint32_t reduced_mask = 0;       ///< bit d: dim d is reduced
  detail::plan outputs;                 ///< this rank's outputs (out_extents, outputs, type, index)
  std::int64_t global_reduce_size = 0;  ///< positions in one slice of the whole tensor
  std::int64_t local_reduce_size = 0;   ///< positions in one of this rank's slices (0: it holds none)
  position_map positions;               ///< this rank's positions -> the whole tensor's
  key_params keys{};
  bool ties_last = false;
  bool is_float = false;

  /// True when this rank reduces anything locally (false for an empty range of a reduced dim).
  bool reduces_locally() const noexcept { return !split_reduced || local_reduce_size > 0; }
};

/// Validates this rank's shard and spec against the whole tensor's shape (argx::error:
/// bad_shape, bad_dim, empty_reduction, index_overflow, ...) and plans its part.
shard_plan make_shard_plan(op o, const shard& x, const spec& s);

}  // namespace argx::distributed
