// Compiler glue shared by every argx header (each includes it first): the C++20 check, and
// the mark of functions usable on host and device.
#pragma once

// One clear message for a consumer compiling with an older standard, instead of a page of
// errors from the C++20 code below (the missing include stops the compiler here).
#if __cplusplus < 202002L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 202002L)
#error "argx needs C++20: compile with -std=c++20 (or later)"
#include <argx/stop_here_argx_needs_cxx20>
#endif

#if defined(__CUDACC__)
#define ARGX_HOST_DEVICE __host__ __device__
#else
#define ARGX_HOST_DEVICE
#endif

// The library is built with hidden visibility: only declarations marked ARGX_API are
// exported, so the ABI is the public API and nothing of argx::detail.
#if defined(__GNUC__) || defined(__clang__)
#define ARGX_API __attribute__((visibility("default")))
#else
#define ARGX_API
#endif

namespace argx {
/// Highest tensor rank argx accepts (inputs and outputs).
inline constexpr int max_rank = 16;
}  // namespace argx
