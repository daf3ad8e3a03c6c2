// Context-free driver queries, and locate(): classify a pointer for the CPU backends
// without creating a CUDA context when none exists.
#include "context.hpp"

#include <atomic>

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <argx/devices.hpp>

namespace argx::detail {
namespace gpu {
namespace {

// Driver functions reached through the runtime's entry-point query (which creates no
// context), so the library needs no link to libcuda.
struct driver_api {
  PFN_cuDeviceGet_v2000 device_get = nullptr;
  PFN_cuDevicePrimaryCtxGetState_v7000 primary_state = nullptr;
  PFN_cuCtxGetCurrent_v4000 current = nullptr;
  PFN_cuPointerGetAttributes_v7000 pointer_attributes = nullptr;
  bool complete() const { return device_get && primary_state && current && pointer_attributes; }
};

template <class F>
void entry(const char* name, int version, F& into) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &found) == cudaSuccess &&
      found == cudaDriverEntryPointSuccess)
    into = reinterpret_cast<F>(fn);
  cudaGetLastError();
}

const driver_api& driver() {
  static const driver_api api = [] {
    driver_api a;
    entry("cuDeviceGet", 2000, a.device_get);
    entry("cuDevicePrimaryCtxGetState", 7000, a.primary_state);
    entry("cuCtxGetCurrent", 4000, a.current);
    entry("cuPointerGetAttributes", 7000, a.pointer_attributes);
    return a;
  }();
  return api;
}

int device_count() noexcept {
  static const int n = [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
    cudaGetLastError();  // "no device" must not linger as the thread's last error
    return count;
  }();
  return n;
}

// The driver's word on ptr: device memory (not managed), host memory, or unknown.
enum class driver_answer { device, host, unknown };

driver_answer driver_space(const void* ptr) noexcept {
  const driver_api& d = driver();
  if (!d.complete()) return driver_answer::unknown;
  unsigned int type = 0;
  unsigned long long managed = 0;  // a bool as the driver writes it, read through a wider zeroed word
  CUpointer_attribute which[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED};
  void* into[2] = {&type, &managed};
  // Unlike the singular query, this one answers for unregistered host memory with zeros.
  if (d.pointer_attributes(2, which, into, reinterpret_cast<CUdeviceptr>(ptr)) != CUDA_SUCCESS)
    return driver_answer::unknown;
  return type == CU_MEMORYTYPE_DEVICE && managed == 0 ? driver_answer::device : driver_answer::host;
}

}  // namespace

bool devices_present() noexcept { return device_count() > 0; }

bool context_exists() noexcept {
  static std::atomic<bool> seen{false};  // once a context existed, device pointers may outlive it
  if (seen.load(std::memory_order_relaxed)) return true;
  const driver_api& d = driver();
  if (!d.complete()) return true;  // cannot tell: ask about pointers as before
  CUcontext current = nullptr;
  bool exists = d.current(&current) == CUDA_SUCCESS && current != nullptr;
  for (int i = 0; i < device_count() && !exists; ++i) {
    CUdevice dev = 0;
    unsigned int flags = 0;
    int active = 0;
    exists = d.device_get(&dev, i) == CUDA_SUCCESS && d.primary_state(dev, &flags, &active) == CUDA_SUCCESS && active;
  }
  if (exists) seen = true;
  return exists;
}

}  // namespace gpu

}  // namespace argx::detail

// Managed memory is host-readable, so it counts as host here: CPU backends may read it.
argx::memory_space argx::locate(const void* ptr) noexcept {
  using namespace argx::detail;
  if (ptr == nullptr || !gpu::devices_present() || !gpu::context_exists()) return memory_space::host;
  switch (gpu::driver_space(ptr)) {
    case gpu::driver_answer::device: return memory_space::device;
    case gpu::driver_answer::host: return memory_space::host;
    case gpu::driver_answer::unknown: break;
  }
  cudaPointerAttributes a{};  // the runtime's answer (a context exists already)
  if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
    cudaGetLastError();
    return memory_space::host;
  }
  return a.type == cudaMemoryTypeDevice ? memory_space::device : memory_space::host;
}
