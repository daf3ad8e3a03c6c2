// A copy whose whole 64-byte destination lines bypass the caches (non-temporal stores):
// for outputs larger than the last-level cache, where a cached store would first read
// the line it fills. Plain C++ wherever the target has no such stores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace argx::detail::cpu {

/// Copies n bytes from `from` to `to`: the destination's whole 64-byte lines with
/// non-temporal stores, the bytes before and after them as a plain copy. Call
/// stream_fence() before another thread may read the destination.
inline void copy_streaming(char* to, const char* from, std::int64_t n) {
#if defined(__SSE2__)
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(to) & 63);
  const std::int64_t head = std::min<std::int64_t>(n, (64 - misaligned) & 63);
  std::memcpy(to, from, static_cast<std::size_t>(head));
  std::int64_t i = head;
  for (; i + 64 <= n; i += 64)
    for (int q = 0; q < 64; q += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(to + i + q),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + q)));
  std::memcpy(to + i, from + i, static_cast<std::size_t>(n - i));
#else
  std::memcpy(to, from, static_cast<std::size_t>(n));
#endif
}

/// Orders the non-temporal stores before what follows (they are weakly ordered).
inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace argx::detail::cpu
