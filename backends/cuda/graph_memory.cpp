// Graph-owned scratch: cudaMalloc outside the graph, a CUDA user object retained by the
// graph whose destructor hands the pointer back, and the free on argx's next uncaptured call.
#include "graph_memory.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime.hpp"

namespace argx::detail::gpu {
namespace {

std::mutex released_mutex;
std::vector<void*> released;          // memory of destroyed graphs, not yet freed
std::atomic<bool> any_released{false};
std::atomic<std::size_t> held{0};

// The user object's destructor: runs on a CUDA thread once the graph and its executables
// are gone and their launches have finished. It may not call CUDA, so it only queues.
void on_graph_destroyed(void* ptr) {
  std::lock_guard<std::mutex> lock(released_mutex);
  released.push_back(ptr);
  any_released = true;
}

}  // namespace

cudaGraph_t capture_graph(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t graph = nullptr;
  check(cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph), "querying the stream's capture state");
  if (status == cudaStreamCaptureStatusInvalidated)
    check(cudaErrorStreamCaptureInvalidated, "capturing into a CUDA graph");
  return status == cudaStreamCaptureStatusActive ? graph : nullptr;
}

cudaStream_t private_stream(int device) {
  static std::mutex m;
  static std::map<int, cudaStream_t> streams;
  std::lock_guard<std::mutex> lock(m);
  cudaStream_t& s = streams[device];
  if (s == nullptr) check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating argx's stream");
  return s;
}

void* graph_alloc(cudaGraph_t graph, std::size_t bytes, bool zeroed, const char* what) {
  int device = 0;
  check(cudaGetDevice(&device), "querying the current device");
  void* p = nullptr;
  {
    relaxed_capture_mode relaxed;
    check(cudaMalloc(&p, bytes == 0 ? 1 : bytes), what);
    if (zeroed) {
      // On argx's own stream and waited for here: the captured stream cannot wait for work
      // outside the graph, and the graph's kernels expect zeros from their first replay.
      cudaStream_t s = private_stream(device);
      cudaError_t e = cudaMemsetAsync(p, 0, bytes, s);
      if (e == cudaSuccess) e = cudaStreamSynchronize(s);
      if (e != cudaSuccess) {
        cudaFree(p);
        check(e, "clearing graph scratch memory");
      }
    }
  }
  ++held;
  cudaUserObject_t owner = nullptr;
  cudaError_t e = cudaUserObjectCreate(&owner, p, on_graph_destroyed, 1, cudaUserObjectNoDestructorSync);
  if (e != cudaSuccess) {
    relaxed_capture_mode relaxed;
    cudaFree(p);
    --held;
    check(e, "tying scratch memory to the CUDA graph");
  }
  // The graph takes our one reference: the destructor runs when the graph lets it go.
  e = cudaGraphRetainUserObject(graph, owner, 1, cudaGraphUserObjectMove);
  if (e != cudaSuccess) {
    cudaUserObjectRelease(owner, 1);  // runs the destructor: the memory is freed later
    check(e, "tying scratch memory to the CUDA graph");
  }
  return p;
}

void free_released_graph_memory() noexcept {
  if (!any_released.load(std::memory_order_relaxed)) return;
  std::vector<void*> now;
  {
    std::lock_guard<std::mutex> lock(released_mutex);
    now.swap(released);
    any_released = false;
  }
  relaxed_capture_mode relaxed;
  for (void* p : now) cudaFree(p);
  held -= now.size();
  cudaGetLastError();
}

std::size_t graph_allocations_held() noexcept { return held.load(); }

}  // namespace argx::detail::gpu
