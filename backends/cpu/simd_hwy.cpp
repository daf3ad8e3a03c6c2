// The Highway kernel table: both halves (floats, integers), filled once on first use.
#include "simd_hwy.hpp"

namespace argx::detail::cpu::simd {

const kernel_table& kernels() {
  static const kernel_table t = [] {
    kernel_table k{};
    put_float_kernels(k);
    put_integer_kernels(k);
    return k;
  }();
  return t;
}

}  // namespace argx::detail::cpu::simd
