// The interface between the frontend and the backends (internal, not installed): what the
// frontend knows of a backend, kept with the backend, and the outputs it writes.
#pragma once

#include <string>

#include <argx/detail/plan.hpp>
#include <argx/policy.hpp>

namespace argx::detail {

/// Output buffers of one reduction, already checked against the plan. `values` may be
/// null. For CPU backends both are host memory; the GPU backends accept either space.
struct outputs {
  void* indices = nullptr;
  void* values = nullptr;
  memory_space indices_space = memory_space::host;
  memory_space values_space = memory_space::host;
};

/// Everything the frontend needs of one backend. Each built backend defines its entry next
/// to its code; src/backend_table.cpp lists them by tag and stands in for the ones this
/// build lacks, so no other file asks which backends were built.
struct backend_entry {
  argx::backend tag;
  bool host_only;                     ///< runs on the CPU: input and outputs must be host memory
  bool (*usable)() noexcept;          ///< built into this library and able to run here
  std::string (*unusable_reason)();   ///< why usable() is false (the backend_unavailable message)
  void (*run)(const plan& p, const outputs& out, stream_handle stream);  ///< queue or run the reduction
};

extern const backend_entry seq_entry;     // backends/cpu/seq.cpp
extern const backend_entry par_entry;     // backends/cpu/par.cpp
extern const backend_entry tbb_entry;     // backends/cpu/tbb.cpp
extern const backend_entry cuda_entry;    // backends/cuda/dispatch.cpp
extern const backend_entry thrust_entry;  // backends/cuda/thrust.cu

/// The entry of a backend tag; null for `automatic` and for codes outside the enum.
const backend_entry* find_entry(backend b) noexcept;

/// For entries: always usable, with no reason to give.
inline bool always_usable() noexcept { return true; }
inline std::string no_reason() { return {}; }

}  // namespace argx::detail
