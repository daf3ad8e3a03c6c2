// Byte-level helpers of 16-byte vectors (four 32-bit words), for host and device: keeping
// the bytes of a vector that belong to a slice, and reading 16 bytes that start anywhere
// from the two aligned vectors around them. Plain C++ with a device fast path, so the host
// tests check the very code the kernels run.
#pragma once

#include <cstdint>

#include <argx/config.hpp>

// Loops the device compiler unrolls (host compilers do as they see fit).
#if defined(__CUDA_ARCH__)
#define ARGX_BYTES_UNROLL _Pragma("unroll")
#else
#define ARGX_BYTES_UNROLL
#endif

namespace argx::detail::gpu {

/// Bytes [lo, hi) of 32-bit word k of a 16-byte vector as a mask (0xff per byte kept).
ARGX_HOST_DEVICE inline std::uint32_t word_mask(int k, int lo, int hi) {
  int a = lo - 4 * k, b = hi - 4 * k;
  a = a < 0 ? 0 : a > 4 ? 4 : a;
  b = b < 0 ? 0 : b > 4 ? 4 : b;
  if (b <= a) return 0u;
  const std::uint64_t top = (std::uint64_t(1) << (8 * b)) - 1, bottom = (std::uint64_t(1) << (8 * a)) - 1;
  return static_cast<std::uint32_t>(top & ~bottom);
}

/// Keeps bytes [lo, hi) of the vector w and puts the bytes of `fill` (a vector of the
/// filler element) in the others.
ARGX_HOST_DEVICE inline void keep_bytes(std::uint32_t (&w)[4], int lo, int hi, const std::uint32_t (&fill)[4]) {
ARGX_BYTES_UNROLL
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t m = word_mask(k, lo, hi);
    w[k] = (w[k] & m) | (fill[k] & ~m);
  }
}

/// Bytes s..s+3 of the 8-byte value hi:lo (s in 0..3): the hardware's byte permute.
ARGX_HOST_DEVICE inline std::uint32_t shift_bytes(std::uint32_t lo, std::uint32_t hi, int s) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(lo, hi, 0x3210u + 0x1111u * static_cast<unsigned>(s));
#else
  const std::uint64_t v = (static_cast<std::uint64_t>(hi) << 32) | lo;
  return static_cast<std::uint32_t>(v >> (8 * s));
#endif
}

/// The 16 bytes that start `phase` bytes (0..15) into the aligned vector a and continue
/// into the next one, b. Elem is the element size: phases are multiples of it, so wider
/// elements need no byte shifts.
template <int Elem>
ARGX_HOST_DEVICE inline void funnel(const std::uint32_t (&a)[4], const std::uint32_t (&b)[4], int phase,
                                    std::uint32_t (&out)[4]) {
  const std::uint32_t w[8] = {a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]};
  // Whole words first (two selects per word: by 2, then by 1), then the bytes within one.
  std::uint32_t t[6], u[5];
  const int q = phase >> 2;
ARGX_BYTES_UNROLL
  for (int i = 0; i < 6; ++i) t[i] = (q & 2) ? w[i + 2] : w[i];
ARGX_BYTES_UNROLL
  for (int i = 0; i < 5; ++i) u[i] = (q & 1) ? t[i + 1] : t[i];
  if constexpr (Elem >= 4) {
ARGX_BYTES_UNROLL
    for (int i = 0; i < 4; ++i) out[i] = u[i];
  } else {
    const int s = phase & 3;
ARGX_BYTES_UNROLL
    for (int i = 0; i < 4; ++i) out[i] = shift_bytes(u[i], u[i + 1], s);
  }
}

}  // namespace argx::detail::gpu
