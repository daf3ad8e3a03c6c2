// Device memory that belongs to a CUDA graph: a call captured into a graph gets its
// scratch (workspace, aligned copies, redirected outputs) allocated outside the graph and
// tied to the graph's lifetime, so the graph holds no allocation node, replays any number
// of times, and the memory is freed once the graph and every executable made from it are
// destroyed.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace argx::detail::gpu {

/// The graph `stream` is being captured into, or null when it is not capturing. Throws
/// cuda_failure when the capture was invalidated (the caller's capture already failed).
cudaGraph_t capture_graph(cudaStream_t stream);

/// `bytes` of device memory on the current device, owned by `graph` (and the executable
/// graphs instantiated from it): freed after the last of them is destroyed. The memory is
/// allocated now, outside the graph (cudaMalloc with this thread's capture mode relaxed),
/// and zero-filled when `zeroed`. Throws out_of_memory / cuda_failure.
void* graph_alloc(cudaGraph_t graph, std::size_t bytes, bool zeroed, const char* what);

/// Frees the memory of graphs destroyed since the last call (CUDA forbids freeing from
/// the destruction callback). Called by argx's calls that are not being captured.
void free_released_graph_memory() noexcept;

/// Allocations graph_alloc made that are not freed yet (for tests).
std::size_t graph_allocations_held() noexcept;

/// Sets this thread's stream-capture mode to relaxed for its lifetime: cudaMalloc and
/// cudaFree may then run while a stream (of this or another thread) is being captured.
class relaxed_capture_mode {
 public:
  relaxed_capture_mode() noexcept { cudaThreadExchangeStreamCaptureMode(&previous_); }
  ~relaxed_capture_mode() { cudaThreadExchangeStreamCaptureMode(&previous_); }
  relaxed_capture_mode(const relaxed_capture_mode&) = delete;
  relaxed_capture_mode& operator=(const relaxed_capture_mode&) = delete;

 private:
  cudaStreamCaptureMode previous_ = cudaStreamCaptureModeRelaxed;
};

/// A non-blocking stream of argx's own on `device`, never captured: zero-fills memory
/// that must be ready before a capture ends, and frees workspaces in stream order.
cudaStream_t private_stream(int device);

}  // namespace argx::detail::gpu
