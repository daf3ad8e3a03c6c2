// CUDA runtime glue: errors, device facts, allocation and staging.
#include "runtime.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <argx/error.hpp>

namespace argx::detail::gpu {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls start clean
  const std::string text = std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  if (e == cudaErrorMemoryAllocation) throw error(errc::out_of_memory, "CUDA out of memory while " + text);
  throw error(errc::cuda_failure, "CUDA failure while " + text);
}

const device_info& device(int ordinal) {
  static std::mutex m;
  static std::map<int, std::unique_ptr<device_info>> known;
  std::lock_guard<std::mutex> lock(m);
  auto& slot = known[ordinal];
  if (!slot) {
    auto info = std::make_unique<device_info>();
    info->ordinal = ordinal;
    check(cudaDeviceGetAttribute(&info->limits.multiprocessors, cudaDevAttrMultiProcessorCount, ordinal),
          "reading the multiprocessor count");
    check(cudaDeviceGetAttribute(&info->limits.max_threads_per_multiprocessor,
                                 cudaDevAttrMaxThreadsPerMultiProcessor, ordinal),
          "reading the threads per multiprocessor");
    int major = 0, minor = 0;
    check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ordinal), "reading the compute capability");
    check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ordinal), "reading the compute capability");
    info->limits.compute_capability = major * 10 + minor;
    slot = std::move(info);
  }
  return *slot;
}

pointer_info inspect(const void* ptr) {
  cudaPointerAttributes a{};
  const cudaError_t e = cudaPointerGetAttributes(&a, ptr);
  if (e == cudaErrorInvalidValue) {  // older drivers: a plain host pointer
    cudaGetLastError();
    return {};
  }
  check(e, "inspecting a pointer");
  return pointer_info{a.type, a.device};
}

bool pools_supported(int device) {
  static std::mutex m;
  static std::map<int, bool> known;
  std::lock_guard<std::mutex> lock(m);
  auto it = known.find(device);
  if (it != known.end()) return it->second;
  int v = 0;
  const bool ok = cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, device) == cudaSuccess && v != 0;
  cudaGetLastError();
  return known[device] = ok;
}

namespace {

int current_device() {
  int d = 0;
  check(cudaGetDevice(&d), "querying the current device");
  return d;
}

}  // namespace

void* device_alloc(std::size_t bytes, cudaStream_t stream, const char* what) {
  void* p = nullptr;
  if (bytes == 0) bytes = 1;
  if (pools_supported(current_device()))
    check(cudaMallocAsync(&p, bytes, stream), what);
  else
    check(cudaMalloc(&p, bytes), what);
  return p;
}

void device_free(void* ptr, cudaStream_t stream) noexcept {
  if (ptr == nullptr) return;
  int d = 0;
  if (cudaGetDevice(&d) == cudaSuccess && pools_supported(d)) {
    if (cudaFreeAsync(ptr, stream) == cudaSuccess) return;
  } else if (cudaStreamSynchronize(stream) == cudaSuccess && cudaFree(ptr) == cudaSuccess) {
    return;
  }
  cudaGetLastError();
}

// ---- pinned staging ---------------------------------------------------------------------------

namespace {

// Two pinned buffers per device, used alternately: while one chunk's copy runs, the next
// chunk is staged into the other buffer.
struct staging_pool {
  static constexpr std::size_t chunk = std::size_t(8) << 20;
  std::mutex m;
  void* buf[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};

  void ensure() {
    for (int i = 0; i < 2; ++i) {
      if (buf[i] == nullptr) check(cudaHostAlloc(&buf[i], chunk, cudaHostAllocPortable), "allocating pinned staging memory");
      if (done[i] == nullptr) check(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming), "creating a staging event");
    }
  }
};

staging_pool& pool_for(int device) {
  static std::mutex m;
  static std::map<int, std::unique_ptr<staging_pool>> pools;
  std::lock_guard<std::mutex> lock(m);
  auto& p = pools[device];
  if (!p) p = std::make_unique<staging_pool>();
  return *p;
}

}  // namespace

void copy_host_to_device(void* dst, const void* src, std::size_t bytes, bool src_pinned, cudaStream_t stream,
                         int device) {
  if (bytes == 0) return;
  if (src_pinned) {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "copying the input to the GPU");
    return;
  }
  staging_pool& pool = pool_for(device);
  std::lock_guard<std::mutex> lock(pool.m);
  pool.ensure();
  for (std::size_t off = 0, i = 0; off < bytes; off += staging_pool::chunk, ++i) {
    const int slot = static_cast<int>(i % 2);
    const std::size_t n = std::min(staging_pool::chunk, bytes - off);
    check(cudaEventSynchronize(pool.done[slot]), "waiting for a staging buffer");
    std::memcpy(pool.buf[slot], static_cast<const char*>(src) + off, n);
    check(cudaMemcpyAsync(static_cast<char*>(dst) + off, pool.buf[slot], n, cudaMemcpyHostToDevice, stream),
          "copying the input to the GPU");
    check(cudaEventRecord(pool.done[slot], stream), "recording a staging event");
  }
}

}  // namespace argx::detail::gpu
