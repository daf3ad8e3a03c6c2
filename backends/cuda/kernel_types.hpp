// Types the kernels and the host side of the cuda backend share (plain C++): where answers
// go, the per-stream workspace, and the layout of one partial candidate in it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace argx::detail::gpu {

/// Where kernels write: device memory, aligned to the element sizes.
struct device_outputs {
  void* indices = nullptr;
  void* values = nullptr;  ///< null when values are not wanted
};

/// Per-stream scratch: arrival counters and packed candidates (all zero between launches),
/// and partial candidates.
struct workspace_ptrs {
  unsigned* counters = nullptr;
  unsigned long long* slots = nullptr;
  void* partials = nullptr;
};

/// A partial candidate as stored in the workspace: the key (4 or 8 bytes) and a position.
template <class K>
struct partial {
  K key;
  std::int64_t pos;
};

/// Bytes of one partial candidate in the workspace, whatever the key's width.
inline constexpr std::size_t partial_bytes = 16;
static_assert(sizeof(partial<std::uint32_t>) == partial_bytes && sizeof(partial<std::uint64_t>) == partial_bytes,
              "a partial candidate is 16 bytes");

}  // namespace argx::detail::gpu
