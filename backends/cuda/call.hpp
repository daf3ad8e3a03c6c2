// One reduction's dealings with CUDA memory, for the cuda and thrust backends alike:
// checks that every pointer is where the caller declared it, picks the device and checks
// argx has kernels for it, stages a host input to the GPU, gives the kernels aligned device
// outputs, and on finish() copies results back and synchronizes when host memory is involved.
// On a stream being captured into a CUDA graph, every temporary buffer belongs to the
// graph (graph_memory.hpp), nothing is synchronized, and pageable host memory is refused.
#pragma once

#include <cstddef>

#include <argx/detail/plan.hpp>
#include <argx/policy.hpp>

#include "../common/backend.hpp"
#include "runtime.hpp"

namespace argx::detail::gpu {

class gpu_call {
 public:
  /// Validates memory spaces (throws wrong_memory_space / backend_unavailable) and stages.
  gpu_call(const plan& p, const outputs& out, stream_handle stream, const char* backend);
  ~gpu_call();
  gpu_call(const gpu_call&) = delete;
  gpu_call& operator=(const gpu_call&) = delete;

  int device() const noexcept { return device_; }
  cudaStream_t stream() const noexcept { return stream_; }
  /// The graph the stream is being captured into, or null.
  cudaGraph_t graph() const noexcept { return graph_; }
  /// The plan with its data in device-readable memory, aligned to the element size.
  const plan& input() const noexcept { return input_; }
  /// Where kernels write indices and values (device-readable, aligned).
  const device_outputs& targets() const noexcept { return targets_; }

  /// Queues copies into the caller's buffers where kernels wrote elsewhere; if any of the
  /// caller's memory is host memory, waits for the stream, so the call is complete on return.
  void finish();

 private:
  struct redirect {
    void* temp = nullptr;   // where the kernel writes
    void* final = nullptr;  // the caller's buffer
    std::size_t bytes = 0;
  };
  void release() noexcept;
  void* scratch(std::size_t bytes, const char* what);
  void drop(void*& scratch) noexcept;
  void* target_for(void* ptr, memory_space declared, std::size_t elem, std::size_t bytes, const char* what,
                   redirect& r);

  const char* backend_;
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  int device_ = 0, previous_device_ = -1;
  bool host_memory_ = false;
  plan input_;
  device_outputs targets_;
  void* staged_input_ = nullptr;
  redirect index_redirect_, value_redirect_;
};

}  // namespace argx::detail::gpu
