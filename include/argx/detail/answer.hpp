// Writing one output's answer: the reported index in the plan's index type and the winning
// element's bits. Every backend (CPU, CUDA, Thrust, distributed) writes through these, on
// host and device, so an index is converted and a value copied the same way everywhere.
#pragma once

#include "../config.hpp"  // first: the C++20 check

#include <cstdint>
#include <cstring>

#include "../spec.hpp"

namespace argx::detail {

/// Writes `index` (a position, or -1 for an all-NaN slice) as output `at` of an index
/// buffer of type `t`. An int32 buffer only ever receives indices the plan checked fit.
ARGX_HOST_DEVICE inline void store_index(void* indices, index_type t, std::int64_t at, std::int64_t index) {
  if (t == index_type::int64)
    static_cast<std::int64_t*>(indices)[at] = index;
  else
    static_cast<std::int32_t*>(indices)[at] = static_cast<std::int32_t>(index);
}

/// Writes the winning element's raw bits as output `at` of a values buffer. On the host
/// through memcpy (one plain store), so a buffer that is not aligned to its element type
/// stays defined behaviour; on the device a typed store (the GPU backends stage or check
/// their outputs).
template <class Bits>
ARGX_HOST_DEVICE inline void store_value(void* values, std::int64_t at, Bits bits) {
#if defined(__CUDA_ARCH__)
  static_cast<Bits*>(values)[at] = bits;
#else
  std::memcpy(static_cast<unsigned char*>(values) + at * static_cast<std::int64_t>(sizeof(Bits)), &bits, sizeof(Bits));
#endif
}

/// Calls f(p) with the index buffer as the array it is, std::int64_t* or std::int32_t*: for
/// host loops that write many indices and should vectorise, where store_index would decide
/// the type once per index.
template <class F>
inline void with_index_array(void* indices, index_type t, F&& f) {
  if (t == index_type::int64)
    f(static_cast<std::int64_t*>(indices));
  else
    f(static_cast<std::int32_t*>(indices));
}

}  // namespace argx::detail
