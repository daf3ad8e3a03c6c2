// Warp-level argmax / argmin on (key, position) pairs, in argx's exact order.
//
// CUDA-only, opt-in header (include it from .cu files compiled by nvcc with
// --expt-relaxed-constexpr). It lets a kernel of your own fold elements with the same order
// every argx backend uses: larger key wins, equal keys go to the lower position (the higher
// with ties_last), NaN handled by key_params. Ties are always broken on the positions the
// caller supplies, never on lane ids, so the answer does not depend on which lane holds what.
//
//   __global__ void k(const float* x, int n, long long* index, float* value) {
//     int i = threadIdx.x;                                  // one warp, n <= 32
//     auto w = argx::device::warp_argmax(i < n ? x[i] : 0.0f, i, i < n);
//     if (i == 0) { *index = w.pos; *value = w.value; }     // w.found: some lane had one
//   }
#pragma once

#include <cstdint>
#include <cstring>

#include "../order.hpp"

namespace argx::device {

/// Every lane of a warp.
inline constexpr unsigned full_warp = 0xffffffffu;

/// The key type argx uses for elements of type T (std::uint32_t up to 4 bytes, else std::uint64_t).
template <class T>
using key_of_t = typename dtype_traits<dtype_of_v<T>>::key_type;

/// The order key of an element (T: float, double, the fixed-width integers, bool,
/// argx::half, argx::bfloat16). `p` selects argmin, abs and the NaN policy.
template <class T>
__host__ __device__ inline key_of_t<T> element_key(T value, key_params p = {}) {
  using bits_type = typename dtype_traits<dtype_of_v<T>>::bits_type;
  static_assert(sizeof(bits_type) == sizeof(T), "element type and its bits differ in size");
  bits_type bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return order_key<dtype_of_v<T>>(bits, p);
}

/// The candidate of element `value` at position `pos`.
template <class T>
__host__ __device__ inline candidate<key_of_t<T>> make_candidate(T value, std::int64_t pos, key_params p = {}) {
  return candidate<key_of_t<T>>{element_key(value, p), pos};
}

/// argx's seed for a slice of `count` positions: every element of the slice beats it or
/// ties it at the seed's own position, so folding it in never changes the slice's answer.
/// Give it to lanes that hold no element when the candidates belong to one whole slice.
template <class T>
__host__ __device__ constexpr candidate<key_of_t<T>> slice_seed(std::int64_t count, bool ties_last = false) {
  return seed<key_of_t<T>>(count, ties_last);
}

/// Folds (key, pos) over each aligned group of `Width` lanes (a power of two, at most 32):
/// afterwards every lane of a group holds the group's winner. Every lane named in `mask`
/// must call it with the same Width; a group must lie inside the mask. P is any integer
/// type of positions (std::int32_t is cheaper to shuffle when positions fit).
template <int Width = 32, class K, class P>
__device__ inline void warp_reduce(K& key, P& pos, bool ties_last = false, unsigned mask = full_warp) {
  static_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0, "Width must be a power of two <= 32");
#pragma unroll
  for (int step = Width / 2; step > 0; step /= 2) {
    const K other_key = __shfl_xor_sync(mask, key, step, Width);
    const P other_pos = __shfl_xor_sync(mask, pos, step, Width);
    if (beats(other_key, static_cast<std::int64_t>(other_pos), key, static_cast<std::int64_t>(pos), ties_last)) {
      key = other_key;
      pos = other_pos;
    }
  }
}

/// As warp_reduce, with the group width known only at run time (`width`: 1, 2, 4, 8, 16 or 32).
template <class K, class P>
__device__ inline void warp_reduce_groups(K& key, P& pos, int width, bool ties_last = false,
                                          unsigned mask = full_warp) {
  for (int step = width / 2; step > 0; step /= 2) {
    const K other_key = __shfl_xor_sync(mask, key, step);
    const P other_pos = __shfl_xor_sync(mask, pos, step);
    if (beats(other_key, static_cast<std::int64_t>(other_pos), key, static_cast<std::int64_t>(pos), ties_last)) {
      key = other_key;
      pos = other_pos;
    }
  }
}

/// The winner of the warp's (or each Width-lane group's) candidates, in every lane.
template <int Width = 32, class K>
__device__ inline candidate<K> warp_argmax(candidate<K> c, bool ties_last = false, unsigned mask = full_warp) {
  warp_reduce<Width>(c.key, c.pos, ties_last, mask);
  return c;
}

/// An element and where it was: what the value-level helpers return.
template <class T>
struct located {
  T value;            ///< the winning element, bit for bit (meaningful when found)
  std::int64_t pos;   ///< its position, as the caller numbered it
  key_of_t<T> key;    ///< its key (for argx::reported_index and further combines)
  bool found;         ///< false when no lane of the group had an element
};

/// Folds a located<T> per lane over aligned groups of Width lanes. Lanes with found =
/// false never win; among the others the order decides.
template <int Width = 32, class T>
__device__ inline located<T> warp_reduce_located(located<T> x, bool ties_last = false, unsigned mask = full_warp) {
  using bits_type = typename dtype_traits<dtype_of_v<T>>::bits_type;
  bits_type bits;
  std::memcpy(&bits, &x.value, sizeof(bits));
#pragma unroll
  for (int step = Width / 2; step > 0; step /= 2) {
    const auto other_key = __shfl_xor_sync(mask, x.key, step, Width);
    const auto other_pos = __shfl_xor_sync(mask, x.pos, step, Width);
    const auto other_bits =
        static_cast<bits_type>(__shfl_xor_sync(mask, static_cast<key_of_t<T>>(bits), step, Width));
    const bool other_found = __shfl_xor_sync(mask, static_cast<int>(x.found), step, Width) != 0;
    if (other_found && (!x.found || beats(other_key, other_pos, x.key, x.pos, ties_last))) {
      x.key = other_key;
      x.pos = other_pos;
      x.found = true;
      bits = other_bits;
    }
  }
  std::memcpy(&x.value, &bits, sizeof(bits));
  return x;
}

/// argmax over one element per lane (`value` at position `pos`; lanes without an element
/// pass has_value = false). Every lane of the group gets the winner and its value. For
/// argmin set p.argmin or call warp_argmin.
template <int Width = 32, class T>
__device__ inline located<T> warp_argmax(T value, std::int64_t pos, bool has_value = true, key_params p = {},
                                         bool ties_last = false, unsigned mask = full_warp) {
  located<T> x{value, pos, element_key(value, p), has_value};
  return warp_reduce_located<Width>(x, ties_last, mask);
}

/// warp_argmax with the smallest element winning.
template <int Width = 32, class T>
__device__ inline located<T> warp_argmin(T value, std::int64_t pos, bool has_value = true, key_params p = {},
                                         bool ties_last = false, unsigned mask = full_warp) {
  p.argmin = true;
  return warp_argmax<Width>(value, pos, has_value, p, ties_last, mask);
}

}  // namespace argx::device
