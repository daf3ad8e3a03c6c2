// One dtype's kernel entry points as a row of the kernel table, once per instruction set.

#if defined(ARGX_CPU_SIMD_ENTRY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ARGX_CPU_SIMD_ENTRY_INL_H_
#undef ARGX_CPU_SIMD_ENTRY_INL_H_
#else
#define ARGX_CPU_SIMD_ENTRY_INL_H_
#endif

#include <hwy/highway.h>

#include "simd.hpp"
#include "simd_contig-inl.h"
#include "simd_rows-inl.h"
#include "simd_strided-inl.h"

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {

template <dtype D>
void put_kernels(kernel_table& t) {
  t.by_dtype[static_cast<int>(D)] = dtype_kernels{&contig<D>, &rows<D>, &lanes<D>};
  constexpr bool is_float = dtype_traits<D>::is_float;
  using T = dtype_bits_t<D>;
  std::uint64_t p = path_bit(path::contig_summary) | path_bit(path::contig_stop) | path_bit(path::rows_scan) |
                    path_bit(path::rows_single) | path_bit(path::rows_interleaved) | path_bit(path::lanes_stop) |
                    path_bit(path::lanes_few_rows) | path_bit(sizeof(T) >= 4 ? path::lanes_wide : path::lanes_narrow);
  // Lanes too few for a vector: a lane block has two or more, and vectors of two lanes
  // take two (8-byte elements in 128 bits).
  if (hn::Lanes(hn::CappedTag<T, 16 / sizeof(T)>()) > 2) p |= path_bit(path::lanes_scalar);
  if (sizeof(T) < 4) p |= path_bit(path::lanes_one_chunk);
  if (is_float) p |= path_bit(path::contig_keyed) | path_bit(path::contig_one_sign);
  if (has_ladder) p |= path_bit(path::rows_across);
  // Rows shorter than a vector but longer than one element need vectors of three lanes or more.
  if (has_ladder && hn::Lanes(hn::CappedTag<T, 32 / sizeof(T)>()) > 2)
    p |= path_bit(path::rows_across_short);
  if (has_ladder && is_float) p |= path_bit(path::rows_special);
  if (has_ladder && !is_float) p |= path_bit(path::rows_stop);
  t.paths[static_cast<int>(D)] = p;
}

/// put_kernels for each of the dtypes Ds.
template <dtype... Ds>
void put_kernels_of(kernel_table& t) {
  (put_kernels<Ds>(t), ...);
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
