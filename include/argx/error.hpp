// argx::error: the one exception type every argx function throws.
#pragma once

#include "config.hpp"  // first: the C++20 check

#include <stdexcept>
#include <string>
#include <utility>

namespace argx {

/// What went wrong. Every code but `internal` is raised by some input and tested.
///
/// bad_npy and io_failure are raised by argx's .npy reader and writer (tools/npy), not by
/// the library, which reads no files. They are here because errc is the one set of codes
/// that crosses every boundary: the CLI prints it ("[io_failure]"), the Python package maps
/// each code to an exception class in this order (BadNpyError, IOFailureError), argx::mpi
/// carries a rank's failure to every rank by its code, and the numbers are stable (codes
/// are only appended), so moving the two out would renumber internal and comm_failure.
enum class errc {
  empty_reduction,      ///< a reduced extent is 0 (numpy: "attempt to get argmax of an empty sequence")
  bad_dim,              ///< a dim is out of range for the tensor's rank
  duplicate_dim,        ///< the same dim (after wrapping negatives) is named twice
  bad_shape,            ///< negative extent, or rank over argx::max_rank
  unsupported_dtype,    ///< a dtype argx cannot reduce
  shape_overflow,       ///< element count or byte size does not fit in 64 bits
  index_overflow,       ///< int32 indices were asked for but an index could exceed 2^31-1
  bad_output,           ///< output view of the wrong shape, dtype, memory space, or null
  bad_argument,         ///< any other invalid argument (null data, bad policy name, ...)
  backend_unavailable,  ///< backend not built into this library, or no device present
  wrong_memory_space,   ///< memory is not where the chosen backend can read it
  cuda_failure,         ///< a CUDA call failed; the message holds CUDA's error text
  out_of_memory,        ///< host or device allocation failed
  bad_npy,              ///< malformed, truncated or inconsistent .npy data
  io_failure,           ///< a file could not be read or written
  internal,             ///< an exception argx did not expect (a bug); the message holds its text
  comm_failure,         ///< an MPI or NCCL call failed; the message holds its error text
};

/// Short stable name of an error code ("empty_reduction", ...).
constexpr const char* to_string(errc c) noexcept {
  switch (c) {
    case errc::empty_reduction: return "empty_reduction";
    case errc::bad_dim: return "bad_dim";
    case errc::duplicate_dim: return "duplicate_dim";
    case errc::bad_shape: return "bad_shape";
    case errc::unsupported_dtype: return "unsupported_dtype";
    case errc::shape_overflow: return "shape_overflow";
    case errc::index_overflow: return "index_overflow";
    case errc::bad_output: return "bad_output";
    case errc::bad_argument: return "bad_argument";
    case errc::backend_unavailable: return "backend_unavailable";
    case errc::wrong_memory_space: return "wrong_memory_space";
    case errc::cuda_failure: return "cuda_failure";
    case errc::out_of_memory: return "out_of_memory";
    case errc::bad_npy: return "bad_npy";
    case errc::io_failure: return "io_failure";
    case errc::internal: return "internal";
    case errc::comm_failure: return "comm_failure";
  }
  return "unknown";
}

/// The exception argx throws. what() reads "argx: <message>"; the message names the
/// offending argument.
class ARGX_API error : public std::runtime_error {
 public:
  error(errc code, const std::string& message)
      : std::runtime_error("argx: " + message), code_(code) {}
  /// The machine-readable reason.
  errc code() const noexcept { return code_; }

 private:
  errc code_;
};

namespace detail {

/// Rethrows the exception being handled as an argx::error: an argx::error unchanged,
/// std::bad_alloc and std::length_error as out_of_memory, anything else as internal (with
/// its text). Call it only inside a catch block. Defined in the library.
[[noreturn]] ARGX_API void rethrow_as_error(const char* where);

/// Runs f() and lets only argx::error leave it. Every public entry point that allocates or
/// runs a backend goes through this, so callers catch one type.
template <class F>
decltype(auto) with_argx_errors(const char* where, F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (...) {
    rethrow_as_error(where);
  }
}

}  // namespace detail

}  // namespace argx
