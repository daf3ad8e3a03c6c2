// The options of argmax/argmin as Python passes them (dim, keepdim, nan, ties, abs,
// backend, stream), turned into argx's spec and policy. Bad values are argx::errors.
#pragma once

#include <cstdint>
#include <optional>

#include <nanobind/nanobind.h>

#include <argx/argx.hpp>

namespace argx::python {

namespace nb = nanobind;

/// `dim`: None (every dim), an int, or a tuple or list of ints (numpy integers too).
argx::spec make_spec(nb::handle dim, bool keepdim, nb::handle nan, nb::handle ties, bool abs);

/// "auto", "seq", "par", "tbb", "cuda" or "thrust", on `stream` (cuda and thrust).
argx::policy make_policy(nb::handle backend, std::uintptr_t stream);

/// A CUDA stream given by the caller: None (nullopt), an int handle, a torch.cuda.Stream
/// (its cuda_stream) or a cupy.cuda.Stream (its ptr).
std::optional<std::uintptr_t> caller_stream(nb::handle stream);

/// Python's truth value of a flag (keepdim=1, abs=np.True_, ...).
bool truth(nb::handle flag);

/// argx's op from its Python name ("argmax", "argmin").
argx::op make_op(nb::handle name);

}  // namespace argx::python
