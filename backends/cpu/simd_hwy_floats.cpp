// SIMD kernels for f16, bf16, f32 and f64, compiled once per instruction set of
// simd_targets.h (AVX2, AVX-512, NEON, SVE, ...); the best one this CPU runs
// is chosen on first use (Highway's dynamic dispatch).
#include "simd_targets.h"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backends/cpu/simd_hwy_floats.cpp"  // from the project root, which Meson puts on the include path
#include <hwy/foreach_target.h>                   // re-includes this file once per target

#include <hwy/highway.h>
#include <hwy/targets.h>

#include "simd_entry-inl.h"
#include "simd_hwy.hpp"

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {

void put_floats(kernel_table& t) {
  t.target = hwy::TargetName(HWY_TARGET);
  put_kernels_of<dtype::f16, dtype::bf16, dtype::f32, dtype::f64>(t);
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace argx::detail::cpu::simd {

HWY_EXPORT(put_floats);

void put_float_kernels(kernel_table& t) { HWY_DYNAMIC_DISPATCH(put_floats)(t); }

}  // namespace argx::detail::cpu::simd
#endif
