// The Highway kernels are compiled in two translation units, floats and integers, so that
// a parallel build compiles them side by side with half the memory each; each fills its
// dtypes' entries of the kernel table for the instruction set Highway chose.
#pragma once

#include "simd.hpp"

namespace argx::detail::cpu::simd {

/// Fills the f16, bf16, f32 and f64 entries and the target name (simd_hwy_floats.cpp).
void put_float_kernels(kernel_table& t);
/// Fills the integer and bool entries (simd_hwy_integers.cpp).
void put_integer_kernels(kernel_table& t);

}  // namespace argx::detail::cpu::simd
