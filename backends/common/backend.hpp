// The interface between the frontend and the backends (internal, not installed).
// Every backend receives a validated plan and checked output buffers.
#pragma once

#include <string>

#include <argx/plan.hpp>
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

// CPU backends (backends/cpu). run_tbb throws backend_unavailable when built without oneTBB.
void run_seq(const plan& p, const outputs& out);
void run_par(const plan& p, const outputs& out);
void run_tbb(const plan& p, const outputs& out);
bool tbb_built() noexcept;

// GPU backends (backends/cuda). Without CUDA they throw backend_unavailable.
void run_cuda(const plan& p, const outputs& out, stream_handle stream);
void run_thrust(const plan& p, const outputs& out, stream_handle stream);
/// Built with CUDA, a GPU is present and argx has kernels the current GPU can run.
bool cuda_usable() noexcept;
/// Why cuda_usable() is false ("" when it is true): no CUDA, no GPU, or the GPU's
/// architecture and the gpu_archs value to add.
std::string cuda_unavailable_reason();
/// The memory space a pointer lives in, as the CUDA driver reports it (host without CUDA).
memory_space locate(const void* ptr) noexcept;

}  // namespace argx::detail
