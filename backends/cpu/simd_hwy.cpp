// The SIMD kernel table, compiled once per instruction set Highway knows for this
// architecture (SSE4, AVX2, AVX-512, NEON, SVE, ...); the best one this CPU runs is
// chosen on first use (Highway's dynamic dispatch).
// SSSE3-only CPUs (before 2008) take the scalar target: one target less to compile.
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS HWY_SSSE3
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_hwy.cpp"  // found through the -I meson.build adds
#include <hwy/foreach_target.h>            // re-includes this file once per target

#include <hwy/highway.h>
#include <hwy/targets.h>

#include "../common/visit_dtype.hpp"
#include "simd.hpp"
#include "simd_contig-inl.h"
#include "simd_lanes-inl.h"
#include "simd_rows-inl.h"
#include "simd_strided-inl.h"

HWY_BEFORE_NAMESPACE();
namespace argx::detail::cpu::simd::HWY_NAMESPACE {

template <dtype D>
constexpr dtype_kernels kernels_for() {
  return dtype_kernels{&contig<D>, &rows<D>, &strided<D>};
}

kernel_table make_table() {
  kernel_table t{hwy::TargetName(HWY_TARGET), {}};
  for (int i = 0; i < dtype_count; ++i)
    visit_dtype(static_cast<dtype>(i), [&](auto d) { t.by_dtype[i] = kernels_for<decltype(d)::value>(); });
  return t;
}

/// This target's table.
const kernel_table* table() {
  static const kernel_table t = make_table();
  return &t;
}

}  // namespace argx::detail::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace argx::detail::cpu::simd {

HWY_EXPORT(table);

const kernel_table& kernels() {
  static const kernel_table* const t = HWY_DYNAMIC_DISPATCH(table)();
  return *t;
}

}  // namespace argx::detail::cpu::simd
#endif
