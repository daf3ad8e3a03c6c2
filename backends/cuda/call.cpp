// gpu_call: memory-space checks, device choice, staging and copy-back.
#include "call.hpp"

#include <cstdint>
#include <string>

#include <argx/error.hpp>

#include "archs.hpp"
#include "context.hpp"
#include "graph_memory.hpp"

namespace argx::detail::gpu {
namespace {

bool aligned(const void* p, std::size_t elem) { return reinterpret_cast<std::uintptr_t>(p) % elem == 0; }

std::string space_error(const char* backend, const char* what, const char* declared, const char* actual) {
  return std::string(what) + " is declared " + declared + " memory but is " + actual + " memory (backend " + backend + ")";
}

// Lowest and highest element offsets the plan touches, relative to plan::data.
void span_of(const plan& p, std::int64_t& lo, std::int64_t& hi) {
  lo = hi = 0;
  auto add = [&](const shape& ext, const shape& str) {
    for (int d = 0; d < ext.size(); ++d) {
      const std::int64_t reach = (ext[d] - 1) * str[d];
      (reach < 0 ? lo : hi) += reach;
    }
  };
  add(p.kept_extents, p.kept_strides);
  add(p.reduced_extents, p.reduced_strides);
}

// A CUDA graph reads host memory through a copy node, which pageable memory cannot be.
std::string capture_error(const char* backend, const char* what) {
  return std::string(what) + " is pageable host memory, which a CUDA graph cannot copy (the stream is being captured; "
                             "backend " + backend + "): pass device memory, or pinned host memory (cudaHostAlloc)";
}

}  // namespace

gpu_call::gpu_call(const plan& p, const outputs& out, stream_handle stream, const char* backend)
    : backend_(backend), stream_(static_cast<cudaStream_t>(stream)), input_(p) {
  if (!devices_present())
    throw error(errc::backend_unavailable, std::string("backend ") + backend + ": no CUDA device is present");
  cudaGetLastError();  // start from a clean error state

  int current = 0;
  check(cudaGetDevice(&current), "querying the current device");
  const pointer_info in = inspect(p.data);
  if (p.space == memory_space::device && !in.device_readable())
    throw error(errc::wrong_memory_space, space_error(backend, "input", "device", "host"));
  if (p.space == memory_space::host && in.type == cudaMemoryTypeDevice)
    throw error(errc::wrong_memory_space, space_error(backend, "input", "host", "device"));
  device_ = in.type == cudaMemoryTypeDevice ? in.device : current;
  if (device_ != current) {
    check(cudaSetDevice(device_), "selecting the input's device");
    previous_device_ = current;
  }

  try {
    require_kernel_image(device_, backend);
    graph_ = capture_graph(stream_);
    if (graph_ == nullptr) free_released_graph_memory();
    const std::size_t elem = size_of(p.type);
    const std::size_t index_elem = p.index == index_type::int64 ? 8 : 4;
    const auto n = static_cast<std::size_t>(p.outputs);
    targets_.indices = target_for(out.indices, out.indices_space, index_elem, n * index_elem, "index output",
                                  index_redirect_);
    if (out.values)
      targets_.values = target_for(out.values, out.values_space, elem, n * elem, "values output", value_redirect_);

    // Inputs the kernels cannot read in place: host memory (staged), or device memory not
    // aligned to its element size (copied to an aligned buffer).
    if (!in.device_readable() || !aligned(p.data, elem)) {
      if (graph_ && in.type == cudaMemoryTypeUnregistered) throw error(errc::wrong_memory_space, capture_error(backend, "input"));
      std::int64_t lo, hi;
      span_of(p, lo, hi);
      const std::size_t bytes = static_cast<std::size_t>(hi - lo + 1) * elem;
      const char* first = static_cast<const char*>(p.data) + lo * static_cast<std::int64_t>(elem);
      staged_input_ = scratch(bytes, "allocating GPU memory for the input");
      if (in.device_readable()) {
        check(cudaMemcpyAsync(staged_input_, first, bytes, cudaMemcpyDefault, stream_), "aligning the input");
      } else {
        host_memory_ = graph_ == nullptr;
        copy_host_to_device(staged_input_, first, bytes, in.type == cudaMemoryTypeHost, stream_, device_);
      }
      input_.data = static_cast<const char*>(staged_input_) - lo * static_cast<std::int64_t>(elem);
      input_.space = memory_space::device;
    }
  } catch (...) {
    release();
    throw;
  }
}

void* gpu_call::target_for(void* ptr, memory_space declared, std::size_t elem, std::size_t bytes, const char* what,
                           redirect& r) {
  const pointer_info info = inspect(ptr);
  if (declared == memory_space::device && !info.device_readable())
    throw error(errc::wrong_memory_space, space_error(backend_, what, "device", "host"));
  if (declared == memory_space::host && info.type == cudaMemoryTypeDevice)
    throw error(errc::wrong_memory_space, space_error(backend_, what, "host", "device"));
  if (info.type == cudaMemoryTypeDevice && info.device != device_)
    throw error(errc::wrong_memory_space, std::string(what) + " is on GPU " + std::to_string(info.device) +
                                              " but the input is on GPU " + std::to_string(device_));
  if (graph_ && info.type == cudaMemoryTypeUnregistered) throw error(errc::wrong_memory_space, capture_error(backend_, what));
  if (declared == memory_space::host && graph_ == nullptr) host_memory_ = true;
  if (info.device_readable() && aligned(ptr, elem)) return ptr;
  r.final = ptr;
  r.bytes = bytes;
  r.temp = scratch(bytes, "allocating GPU memory for an output");
  return r.temp;
}

// Temporary device memory of this call: stream-ordered, or owned by the graph being captured.
void* gpu_call::scratch(std::size_t bytes, const char* what) {
  return graph_ ? graph_alloc(graph_, bytes, false, what) : device_alloc(bytes, stream_, what);
}

void gpu_call::drop(void*& p) noexcept {
  if (graph_ == nullptr) device_free(p, stream_);  // a graph frees its own when it is destroyed
  p = nullptr;
}

void gpu_call::finish() {
  for (redirect* r : {&index_redirect_, &value_redirect_}) {
    if (r->temp == nullptr) continue;
    check(cudaMemcpyAsync(r->final, r->temp, r->bytes, cudaMemcpyDefault, stream_), "copying results back");
    drop(r->temp);
  }
  drop(staged_input_);
  if (host_memory_) {
    host_memory_ = false;
    check(cudaStreamSynchronize(stream_), "waiting for the GPU");
  }
}

gpu_call::~gpu_call() { release(); }

void gpu_call::release() noexcept {
  // Error paths: give back what is still held, in stream order, and never throw.
  drop(index_redirect_.temp);
  drop(value_redirect_.temp);
  drop(staged_input_);
  if (host_memory_) cudaStreamSynchronize(stream_);  // the caller's host memory may go away
  host_memory_ = false;
  if (previous_device_ >= 0) cudaSetDevice(previous_device_);
  previous_device_ = -1;
  cudaGetLastError();
}

}  // namespace argx::detail::gpu
