// CUDA runtime glue: errors, device facts, allocation, workspaces, staging, and the public
// device queries (argx::gpus, built_with_cuda) and locate().
#include "runtime.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <argx/devices.hpp>
#include <argx/error.hpp>

#include "../common/backend.hpp"

namespace argx {

bool built_with_cuda() noexcept { return true; }

std::vector<gpu_info> gpus() {
  std::vector<gpu_info> out;
  if (!detail::cuda_usable()) return out;
  int n = 0;
  detail::gpu::check(cudaGetDeviceCount(&n), "counting CUDA devices");
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp prop{};
    detail::gpu::check(cudaGetDeviceProperties(&prop, i), "reading device properties");
    out.push_back(gpu_info{i, prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                           static_cast<std::uint64_t>(prop.totalGlobalMem)});
  }
  return out;
}

namespace detail {

bool cuda_usable() noexcept {
  static const bool usable = [] {
    int n = 0;
    const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
    cudaGetLastError();  // "no device" must not linger as the thread's last error
    return ok;
  }();
  return usable;
}

// Managed memory is host-readable, so it counts as host here: CPU backends may read it.
memory_space locate(const void* ptr) noexcept {
  if (ptr == nullptr || !cuda_usable()) return memory_space::host;
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
    cudaGetLastError();
    return memory_space::host;
  }
  return a.type == cudaMemoryTypeDevice ? memory_space::device : memory_space::host;
}

namespace gpu {

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

namespace {

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

// ---- workspaces ------------------------------------------------------------------------------

namespace {

struct workspace_block {
  char* base = nullptr;
  std::size_t counters = 0, slots = 0, partials = 0;  // capacities
};

std::size_t grow(std::size_t have, std::size_t need) {
  std::size_t n = std::max<std::size_t>(have, 256);
  while (n < need) n *= 2;
  return n;
}

std::size_t round256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace

workspace_ptrs workspace(int device, cudaStream_t stream, std::size_t counters, std::size_t slots, std::size_t partials) {
  static std::mutex m;
  static std::map<std::pair<int, cudaStream_t>, workspace_block> blocks;
  std::lock_guard<std::mutex> lock(m);
  workspace_block& w = blocks[{device, stream}];
  if (w.base == nullptr || counters > w.counters || slots > w.slots || partials > w.partials) {
    workspace_block next;
    next.counters = grow(w.counters, counters);
    next.slots = grow(w.slots, slots);
    next.partials = grow(w.partials, partials);
    // Counters and slots first, both zeroed once here; every kernel leaves them zero.
    const std::size_t zeroed = round256(next.counters * sizeof(unsigned)) + round256(next.slots * 8);
    next.base = static_cast<char*>(device_alloc(zeroed + next.partials * partial_bytes, stream, "allocating the workspace"));
    const cudaError_t e = cudaMemsetAsync(next.base, 0, zeroed, stream);
    if (e != cudaSuccess) {
      device_free(next.base, stream);
      check(e, "clearing the workspace counters");
    }
    device_free(w.base, stream);  // after the launches already queued on this stream
    w = next;
  }
  const std::size_t cbytes = round256(w.counters * sizeof(unsigned)), sbytes = round256(w.slots * 8);
  return workspace_ptrs{reinterpret_cast<unsigned*>(w.base), reinterpret_cast<unsigned long long*>(w.base + cbytes),
                        w.base + cbytes + sbytes};
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

}  // namespace gpu
}  // namespace detail
}  // namespace argx
