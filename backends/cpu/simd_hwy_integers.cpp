// SIMD kernels for the integer and bool dtypes, compiled once per instruction set of
// simd_targets.h; the best one this CPU runs is chosen on first use.
#include "simd_targets.h"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/cpu/simd_hwy_integers.cpp"  // from the project root, which Meson puts on the include path
#include <hwy/foreach_target.h>                     // re-includes this file once per target

#include <hwy/highway.h>

#include "simd_entry-inl.h"
#include "simd_hwy.hpp"

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {

void put_integers(kernel_table& t) {
  put_kernels_of<dtype::i8, dtype::i16, dtype::i32, dtype::i64, dtype::u8, dtype::u16, dtype::u32, dtype::u64,
                 dtype::boolean>(t);
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace argx::detail::cpu::simd {

HWY_EXPORT(put_integers);

void put_integer_kernels(kernel_table& t) { HWY_DYNAMIC_DISPATCH(put_integers)(t); }

}  // namespace argx::detail::cpu::simd
#endif
