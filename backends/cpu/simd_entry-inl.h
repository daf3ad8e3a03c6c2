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
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard toggle
