// Built architectures, the kernel-image check of a device, and the public device queries
// that depend on them: built_with_cuda, cuda_archs, gpus, cuda_usable and its reason.
#include "archs.hpp"

#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include <cuda_runtime_api.h>

#include <argx/devices.hpp>
#include <argx/error.hpp>

#include "../common/backend.hpp"
#include "context.hpp"
#include "runtime.hpp"

#ifndef ARGX_CUDA_SASS
#error "backends/cuda/meson.build defines ARGX_CUDA_SASS and ARGX_CUDA_PTX from the gpu_archs option"
#endif

namespace argx::detail::gpu {
namespace {

struct arch {
  int number = 0;      // 90 for sm_90
  std::string suffix;  // "a" for sm_90a: that exact capability only
  std::string text;    // "90a"
};

std::vector<arch> parse(const char* list) {
  std::vector<arch> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    arch a;
    a.text = item;
    std::size_t i = 0;
    while (i < item.size() && item[i] >= '0' && item[i] <= '9') a.number = a.number * 10 + (item[i++] - '0');
    a.suffix = item.substr(i);
    out.push_back(a);
  }
  return out;
}

const std::vector<arch>& sass() {
  static const std::vector<arch> v = parse(ARGX_CUDA_SASS);
  return v;
}
const std::vector<arch>& ptx() {
  static const std::vector<arch> v = parse(ARGX_CUDA_PTX);
  return v;
}

std::string capability(int device, int& major, int& minor) {
  major = minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  cudaGetLastError();
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace

const std::string& built_archs() {
  static const std::string s = [] {
    std::string out;
    for (const arch& a : sass()) out += (out.empty() ? "sm_" : " sm_") + a.text;
    for (const arch& a : ptx()) out += (out.empty() ? "compute_" : " compute_") + a.text;
    return out;
  }();
  return s;
}

bool archs_cover(int major, int minor) {
  const int cc = major * 10 + minor;
  for (const arch& a : sass())
    if (a.number / 10 == major && (a.suffix.empty() ? a.number % 10 <= minor : a.number == cc)) return true;
  for (const arch& a : ptx())
    if (a.suffix.empty() && a.number <= cc) return true;
  return false;
}

const std::string& kernel_image_problem(int device) {
  static std::mutex m;
  static std::map<int, std::string> known;
  std::lock_guard<std::mutex> lock(m);
  auto it = known.find(device);
  if (it != known.end()) return it->second;
  int previous = 0;
  check(cudaGetDevice(&previous), "querying the current device");
  if (previous != device) check(cudaSetDevice(device), "selecting a device");
  const auto e = static_cast<cudaError_t>(probe_kernel_image());
  if (previous != device) cudaSetDevice(previous);
  std::string problem;
  if (e != cudaSuccess) {
    int major = 0, minor = 0;
    const std::string cc = capability(device, major, minor);
    cudaDeviceProp prop{};
    const std::string name = cudaGetDeviceProperties(&prop, device) == cudaSuccess ? prop.name : "?";
    cudaGetLastError();
    const std::string gpu = "GPU " + std::to_string(device) + " (" + name + ", compute capability " + cc + ")";
    const std::string add = std::to_string(major * 10 + minor);
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction)
      problem = gpu + " has no argx kernel image: argx was built for " + built_archs() + "; add " + add +
                " to the gpu_archs option (meson setup --reconfigure -Dgpu_archs=" + add + ",...) and rebuild";
    else if (e == cudaErrorUnsupportedPtxVersion || e == cudaErrorInvalidPtx || e == cudaErrorJitCompilerNotFound ||
             e == cudaErrorJitCompilationDisabled)
      problem = gpu + " cannot compile argx's PTX (" + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) +
                "; argx was built for " + built_archs() + "): update the driver, or add " + add +
                " to the gpu_archs option and rebuild";
    else
      problem = gpu + " cannot load argx's kernels: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  }
  return known.emplace(device, problem).first->second;
}

void require_kernel_image(int device, const char* backend) {
  const std::string& problem = kernel_image_problem(device);
  if (!problem.empty()) throw error(errc::backend_unavailable, std::string("backend ") + backend + ": " + problem);
}

}  // namespace argx::detail::gpu

namespace argx {

bool built_with_cuda() noexcept { return true; }

const char* cuda_archs() noexcept { return detail::gpu::built_archs().c_str(); }

std::vector<gpu_info> gpus() {
  std::vector<gpu_info> out;
  if (!detail::gpu::devices_present()) return out;
  int n = 0;
  detail::gpu::check(cudaGetDeviceCount(&n), "counting CUDA devices");
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp prop{};
    detail::gpu::check(cudaGetDeviceProperties(&prop, i), "reading device properties");
    out.push_back(gpu_info{i, prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                           static_cast<std::uint64_t>(prop.totalGlobalMem),
                           detail::gpu::archs_cover(prop.major, prop.minor)});
  }
  return out;
}

namespace detail {

std::string cuda_unavailable_reason() {
  if (!gpu::devices_present()) return "no CUDA device is present";
  int current = 0;
  if (cudaGetDevice(&current) != cudaSuccess) {
    cudaGetLastError();
    return "no CUDA device is present";
  }
  return gpu::kernel_image_problem(current);
}

bool cuda_usable() noexcept {
  try {
    return cuda_unavailable_reason().empty();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace detail
}  // namespace argx
