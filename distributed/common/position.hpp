// Positions of a rank's candidates in the whole tensor, and the unsigned words that order
// them: host and device code (the NCCL kernels) share these, so they cannot disagree.
#pragma once

#include <cstdint>

#include <argx/config.hpp>
#include <argx/order.hpp>

namespace argx::distributed {

/// Maps a position in this rank's reduced slice to the position in the whole tensor's.
/// Positions are row-major over the reduced dims, so the split dim cuts a position into
/// (outer, c, inner); this rank's c becomes begin + c and nothing else moves.
struct position_map {
  std::int64_t inner = 1;     ///< positions per step of the split dim (reduced extents after it)
  std::int64_t local_n = 1;   ///< this rank's extent of the split dim
  std::int64_t global_n = 1;  ///< the whole tensor's extent of the split dim
  std::int64_t begin = 0;     ///< this rank's first index along the split dim

  ARGX_HOST_DEVICE std::int64_t to_global(std::int64_t local) const {
    const std::int64_t lo = local % inner, rest = local / inner;
    return ((rest / local_n) * global_n + begin + rest % local_n) * inner + lo;
  }
  /// True when the whole tensor's position `global` lies in this rank's range.
  ARGX_HOST_DEVICE bool owns(std::int64_t global) const {
    const std::int64_t c = (global / inner) % global_n;
    return c >= begin && c < begin + local_n;
  }
};

/// The position a local reduction's reported index stands for: -1 (an all-NaN slice under
/// nan_policy::ignore) is every element tying at the lowest key, won by the first position
/// (the last with ties = last) of the `local_size` positions.
ARGX_HOST_DEVICE inline std::int64_t winner_position(std::int64_t reported, std::int64_t local_size, bool ties_last) {
  return reported >= 0 ? reported : (ties_last ? local_size - 1 : 0);
}

/// A position as an unsigned word that orders like beats() on equal keys: for two
/// positions a, b of one slice, position_word(a) > position_word(b) exactly when a beats
/// b. Every word is >= 1, so 0 is below every real candidate: the identity of a max
/// combine, contributed by a rank that holds no element. Positions must be at most
/// 2^32 - 2 for W = uint32 (and any int64 position for W = uint64).
template <class W>
ARGX_HOST_DEVICE constexpr W position_word(std::int64_t pos, bool ties_last) {
  return ties_last ? static_cast<W>(static_cast<W>(pos) + 1) : static_cast<W>(~static_cast<W>(pos));
}
/// Inverse of position_word.
template <class W>
ARGX_HOST_DEVICE constexpr std::int64_t word_position(W word, bool ties_last) {
  return static_cast<std::int64_t>(ties_last ? static_cast<W>(word - 1) : static_cast<W>(~word));
}

/// Largest reduced slice whose positions all fit position_word<uint32_t>.
inline constexpr std::int64_t max_packed_positions = (std::int64_t(1) << 32) - 1;

/// A candidate packed into one word whose unsigned order is the argx order: the key (at
/// most 32 bits) above the position word. Needs positions below max_packed_positions.
ARGX_HOST_DEVICE constexpr std::uint64_t pack(std::uint32_t key, std::int64_t pos, bool ties_last) {
  return static_cast<std::uint64_t>(key) << 32 | position_word<std::uint32_t>(pos, ties_last);
}
ARGX_HOST_DEVICE constexpr candidate<std::uint32_t> unpack(std::uint64_t word, bool ties_last) {
  return {static_cast<std::uint32_t>(word >> 32), word_position(static_cast<std::uint32_t>(word), ties_last)};
}

}  // namespace argx::distributed
