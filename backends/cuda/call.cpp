// gpu_call: memory-space checks, device choice, staging and copy-back.
#include "call.hpp"

#include <cstdint>
#include <string>

#include <argx/error.hpp>

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

}  // namespace

gpu_call::gpu_call(const plan& p, const outputs& out, stream_handle stream, const char* backend)
    : backend_(backend), stream_(static_cast<cudaStream_t>(stream)), input_(p) {
  if (!cuda_usable())
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
      std::int64_t lo, hi;
      span_of(p, lo, hi);
      const std::size_t bytes = static_cast<std::size_t>(hi - lo + 1) * elem;
      const char* first = static_cast<const char*>(p.data) + lo * static_cast<std::int64_t>(elem);
      staged_input_ = device_alloc(bytes, stream_, "allocating GPU memory for the input");
      if (in.device_readable()) {
        check(cudaMemcpyAsync(staged_input_, first, bytes, cudaMemcpyDefault, stream_), "aligning the input");
      } else {
        host_memory_ = true;
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
  if (declared == memory_space::host) host_memory_ = true;
  if (info.device_readable() && aligned(ptr, elem)) return ptr;
  r.final = ptr;
  r.bytes = bytes;
  r.temp = device_alloc(bytes, stream_, "allocating GPU memory for an output");
  return r.temp;
}

void gpu_call::finish() {
  for (redirect* r : {&index_redirect_, &value_redirect_}) {
    if (r->temp == nullptr) continue;
    check(cudaMemcpyAsync(r->final, r->temp, r->bytes, cudaMemcpyDefault, stream_), "copying results back");
    device_free(r->temp, stream_);
    r->temp = nullptr;
  }
  device_free(staged_input_, stream_);
  staged_input_ = nullptr;
  if (host_memory_) {
    host_memory_ = false;
    check(cudaStreamSynchronize(stream_), "waiting for the GPU");
  }
}

gpu_call::~gpu_call() { release(); }

void gpu_call::release() noexcept {
  // Error paths: give back what is still held, in stream order, and never throw.
  device_free(index_redirect_.temp, stream_);
  device_free(value_redirect_.temp, stream_);
  device_free(staged_input_, stream_);
  index_redirect_.temp = value_redirect_.temp = staged_input_ = nullptr;
  if (host_memory_) cudaStreamSynchronize(stream_);  // the caller's host memory may go away
  host_memory_ = false;
  if (previous_device_ >= 0) cudaSetDevice(previous_device_);
  previous_device_ = -1;
  cudaGetLastError();
}

}  // namespace argx::detail::gpu
