// libargx_sweep: what sweep.py times from Python (through ctypes), on the very arrays numpy
// holds: argx::tbb on a view given as pointer, dtype, extents and strides, and the read
// ceiling over a byte range. Each call runs a batch and returns its wall time, so that
// the driver can interleave argx, numpy and the ceiling batch by batch.
#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <vector>

#include <memory>

#include <oneapi/tbb/global_control.h>

#include <argx/argx.hpp>

#include "../../backends/cpu/paths.hpp"
#include "read_ceiling.hpp"

namespace {

/// Bits of the `flags` argument.
enum : int { flag_argmin = 1, flag_nan_ignore = 2, flag_abs = 4 };

argx::tensor_view view_of(const void* data, int type, int rank, const std::int64_t* extents,
                          const std::int64_t* strides) {
  argx::shape e, s;
  for (int d = 0; d < rank; ++d) e.push_back(extents[d]), s.push_back(strides[d]);
  return argx::make_view(data, static_cast<argx::dtype>(type), e, s);
}

argx::spec spec_of(int ndims, const int* dims, int flags) {
  argx::spec s;
  for (int i = 0; i < ndims; ++i) s.dims.push_back(dims[i]);
  if (flags & flag_nan_ignore) s.nan = argx::nan_policy::ignore;
  s.abs = (flags & flag_abs) != 0;
  return s;
}

argx::op op_of(int flags) { return (flags & flag_argmin) ? argx::op::argmin : argx::op::argmax; }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

extern "C" {

/// The plan's shape class (argx::detail::shape_class as an int), or -1 when argx refuses the input.
int argx_sweep_class(const void* data, int type, int rank, const std::int64_t* extents, const std::int64_t* strides,
                     int ndims, const int* dims, int flags) {
  try {
    return static_cast<int>(argx::detail::make_plan(view_of(data, type, rank, extents, strides), op_of(flags),
                                            spec_of(ndims, dims, flags)).kind);
  } catch (const std::exception&) {
    return -1;
  }
}

/// Runs the reduction `calls` times on backend `backend` ("seq", "par", "tbb") into
/// `indices` (int64, one per output); returns the seconds they took, or -1 on an error.
double argx_sweep_run(const char* backend, const void* data, int type, int rank, const std::int64_t* extents,
                      const std::int64_t* strides, int ndims, const int* dims, int flags, std::int64_t calls,
                      std::int64_t* indices) {
  try {
    const std::optional<argx::policy> pol = argx::policy::from_name(backend);
    if (!pol) return -1;
    const argx::tensor_view x = view_of(data, type, rank, extents, strides);
    const argx::spec s = spec_of(ndims, dims, flags);
    const argx::output_view out = argx::make_output(indices, argx::output_shape(x, s));
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t i = 0; i < calls; ++i) argx::reduce(*pol, op_of(flags), x, out, nullptr, s);
    return seconds_since(t0);
  } catch (const std::exception&) {
    return -1;
  }
}

/// Reads the `bytes` bytes at p `calls` times on `threads` threads; returns the seconds.
double argx_sweep_read(const void* p, std::uint64_t bytes, int threads, std::int64_t calls) {
  std::uint64_t sink = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < calls; ++i) sink += argx_bench::read_sum_threads(p, bytes, threads);
  const double t = seconds_since(t0);
  argx_bench::keep(sink);
  return t;
}

/// Runs the reduction once on tbb and returns the tbb backend's paths it took (a bit set
/// of argx::detail::cpu::path); names[i] gets path i's name (up to `max_names`).
std::uint64_t argx_sweep_paths(const void* data, int type, int rank, const std::int64_t* extents,
                               const std::int64_t* strides, int ndims, const int* dims, int flags, std::int64_t* indices,
                               const char** names, int max_names) {
  namespace cpu = argx::detail::cpu;
  for (int i = 0; i < max_names && i < static_cast<int>(cpu::path::count); ++i) names[i] = cpu::path_name(static_cast<cpu::path>(i));
  cpu::reset_paths();
  if (argx_sweep_run("tbb", data, type, rank, extents, strides, ndims, dims, flags, 1, indices) < 0) return 0;
  return cpu::paths_seen(static_cast<argx::dtype>(type));
}

/// Reads the `bytes` bytes at p, then writes `words` 64-bit words at out (the minimum a
/// reduction with that many int64 outputs moves), `calls` times on `threads` threads;
/// returns the seconds.
double argx_sweep_read_write(const void* p, std::uint64_t bytes, std::uint64_t* out, std::uint64_t words, int threads,
                             std::int64_t calls) {
  std::uint64_t sink = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < calls; ++i) {
    sink += argx_bench::read_sum_threads(p, bytes, threads);
    argx_bench::write_words_threads(out, words, threads);
  }
  const double t = seconds_since(t0);
  argx_bench::keep(sink + out[0]);
  return t;
}

/// Limits the threads argx (oneTBB) may use to `threads` (0: no limit).
void argx_sweep_set_threads(int threads) {
  static std::unique_ptr<tbb::global_control> limit;
  limit.reset();
  if (threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
}

/// Instruction sets of argx's kernels and of the read ceiling.
const char* argx_sweep_simd_target() { return argx::cpu_simd_target(); }
const char* argx_sweep_read_target() { return argx_bench::read_target(); }

}  // extern "C"
