// Turns a run-time dtype into a compile-time one: visit_dtype(t, f) calls
// f(std::integral_constant<dtype, D>{}) for the matching D.
#pragma once

#include <type_traits>

#include <argx/dtype.hpp>
#include <argx/error.hpp>

namespace argx::detail {

template <dtype D>
using dtype_constant = std::integral_constant<dtype, D>;

template <class F>
decltype(auto) visit_dtype(dtype t, F&& f) {
  switch (t) {
    case dtype::f16: return f(dtype_constant<dtype::f16>{});
    case dtype::bf16: return f(dtype_constant<dtype::bf16>{});
    case dtype::f32: return f(dtype_constant<dtype::f32>{});
    case dtype::f64: return f(dtype_constant<dtype::f64>{});
    case dtype::i8: return f(dtype_constant<dtype::i8>{});
    case dtype::i16: return f(dtype_constant<dtype::i16>{});
    case dtype::i32: return f(dtype_constant<dtype::i32>{});
    case dtype::i64: return f(dtype_constant<dtype::i64>{});
    case dtype::u8: return f(dtype_constant<dtype::u8>{});
    case dtype::u16: return f(dtype_constant<dtype::u16>{});
    case dtype::u32: return f(dtype_constant<dtype::u32>{});
    case dtype::u64: return f(dtype_constant<dtype::u64>{});
    case dtype::boolean: return f(dtype_constant<dtype::boolean>{});
  }
  throw error(errc::unsupported_dtype, "unknown dtype code " + std::to_string(static_cast<int>(t)));
}

}  // namespace argx::detail
