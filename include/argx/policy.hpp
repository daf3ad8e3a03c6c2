// Execution policies: which backend runs a reduction, in the style of std::execution.
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <cstdint>
#include <optional>
#include <string_view>

namespace argx {

/// The backends. `automatic` chooses one per call from where the memory is.
enum class backend : std::uint8_t { seq, par, tbb, cuda, thrust, automatic };

/// Every backend, in a fixed order (for tools and tests).
inline constexpr backend all_backends[] = {backend::seq, backend::par, backend::tbb,
                                           backend::cuda, backend::thrust, backend::automatic};

/// Runtime name: "seq", "par", "tbb", "cuda", "thrust", "auto".
constexpr std::string_view name(backend b) noexcept {
  switch (b) {
    case backend::seq: return "seq";
    case backend::par: return "par";
    case backend::tbb: return "tbb";
    case backend::cuda: return "cuda";
    case backend::thrust: return "thrust";
    case backend::automatic: return "auto";
  }
  return "?";
}

/// Inverse of name().
constexpr std::optional<backend> parse_backend(std::string_view s) noexcept {
  for (backend b : all_backends)
    if (s == name(b)) return b;
  return std::nullopt;
}

/// A CUDA stream as an opaque handle (a cudaStream_t cast to void*); nullptr is the
/// default stream. Keeps the public headers free of CUDA.
using stream_handle = void*;

/// A backend choice with its settings. Every policy object below converts to this.
struct policy {
  argx::backend kind = backend::seq;
  stream_handle stream = nullptr;  ///< cuda, thrust: the stream work is queued on
  bool allow_transfer = false;     ///< automatic: host memory may be copied to a GPU

  /// The policy a runtime name stands for; nullopt for an unknown name.
  static constexpr std::optional<policy> from_name(std::string_view s) noexcept {
    auto b = parse_backend(s);
    if (!b) return std::nullopt;
    return policy{*b};
  }
};

/// Scalar reference backend: the oracle every other backend is tested against.
struct seq_policy {
  constexpr operator policy() const noexcept { return {backend::seq}; }
};
/// The C++17 parallel algorithms (std::execution::par_unseq).
struct par_policy {
  constexpr operator policy() const noexcept { return {backend::par}; }
};
/// oneTBB task parallelism with SIMD kernels: the fast CPU path.
struct tbb_policy {
  constexpr operator policy() const noexcept { return {backend::tbb}; }
};
/// Custom CUDA kernels: the fast GPU path. Asynchronous on `stream` for device memory.
struct cuda_policy {
  stream_handle stream = nullptr;
  constexpr cuda_policy on(stream_handle s) const noexcept { return {s}; }
  constexpr operator policy() const noexcept { return {backend::cuda, stream}; }
};
/// Thrust algorithms with argx's order: a second GPU opinion and a baseline.
struct thrust_policy {
  stream_handle stream = nullptr;
  constexpr thrust_policy on(stream_handle s) const noexcept { return {s}; }
  constexpr operator policy() const noexcept { return {backend::thrust, stream}; }
};
/// Device memory goes to cuda; host memory stays on the CPU (tbb, else par, else seq)
/// unless transfers are allowed and a GPU is usable.
struct automatic_policy {
  bool allow_transfer = false;
  stream_handle stream = nullptr;
  constexpr automatic_policy allowing_transfer(bool allow = true) const noexcept { return {allow, stream}; }
  constexpr automatic_policy on(stream_handle s) const noexcept { return {allow_transfer, s}; }
  constexpr operator policy() const noexcept { return {backend::automatic, stream, allow_transfer}; }
};

inline constexpr seq_policy seq{};
inline constexpr par_policy par{};
inline constexpr tbb_policy tbb{};
inline constexpr cuda_policy cuda{};
inline constexpr thrust_policy thrust{};
inline constexpr automatic_policy automatic{};

/// Whether a backend was built into this library and can run here (for cuda and thrust:
/// built with CUDA and a GPU is present). `automatic` and `seq` are always available.
ARGX_API bool available(backend b);
inline bool available(const policy& p) { return available(p.kind); }

}  // namespace argx
