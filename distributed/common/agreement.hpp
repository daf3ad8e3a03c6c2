// Collective validation: every rank reports what it was asked to do and whether its own
// part failed; every rank then reads all the reports and reaches the same verdict, so a
// failure or a disagreement raises the same argx::error on every rank and no rank is left
// waiting in a later collective.
#pragma once

#include <cstdint>
#include <exception>
#include <span>

#include <argx/shard.hpp>

namespace argx::distributed {

/// Whether a rank's own part succeeded: the argx::error it raised, as plain bytes.
struct rank_status {
  std::int32_t code = -1;  ///< the errc, or -1 when the rank succeeded
  char message[236] = {};  ///< the error's message (without "argx: "), truncated, NUL-terminated

  bool failed() const noexcept { return code >= 0; }
};

/// The status of a rank whose part (in `where`) threw `failure` (null: it succeeded): an
/// argx::error keeps its code; any other exception becomes the error the public entry points
/// raise for it (detail::rethrow_as_error: out_of_memory, or internal for the unexpected).
rank_status status_of(const std::exception_ptr& failure, const char* where);

/// Throws, on the calling rank, the error of the lowest rank whose status failed, as
/// "rank R: <its message>" with its code. Returns when every rank succeeded.
void raise_first_failure(std::span<const rank_status> all);

/// What one rank reports: trivially copyable, exchanged as bytes between ranks (which run
/// the same argx build: `layout` guards against mixing builds).
struct rank_report {
  std::uint32_t layout = 0;
  rank_status status;
  std::int32_t op = 0, type = 0, rank = 0, split = 0;
  std::uint32_t reduced_mask = 0;
  std::uint8_t keepdim = 0, nan = 0, ties = 0, abs = 0, index = 0, values = 0, reserved[2] = {};
  std::int64_t extents[max_rank] = {};
  std::int64_t begin = 0, end = 0;
};

/// This rank's report: its arguments as given (the split dim wrapped when it is in range),
/// `values`: whether it asked for the winning elements, and how its own part went.
rank_report make_report(op o, const shard& x, const spec& s, bool values, const rank_status& status);

/// The verdict, identical on every rank given the same reports (in rank order): the first
/// failing rank's error; else a disagreement on the op, dtype, global extents, split dim,
/// spec or values output (bad_shape for shapes, bad_output for the values output,
/// bad_argument otherwise); else ranges that
/// do not tile the split dim exactly (bad_shape). Returns when all is well.
void agree(std::span<const rank_report> all);

}  // namespace argx::distributed
