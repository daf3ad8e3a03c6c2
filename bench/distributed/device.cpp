#include "device.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace argx_bench {
namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
}  // namespace

device_bytes::device_bytes(std::size_t n) : n_(n) { check(cudaMalloc(&p_, n ? n : 1), "cudaMalloc"); }
device_bytes::~device_bytes() {
  if (p_) cudaFree(p_);
}
device_bytes& device_bytes::operator=(device_bytes&& o) noexcept {
  std::swap(p_, o.p_);
  std::swap(n_, o.n_);
  return *this;
}
void device_bytes::upload(const void* host, std::size_t n) { check(cudaMemcpy(p_, host, n, cudaMemcpyHostToDevice), "upload"); }
void device_bytes::download(void* host, std::size_t n) const {
  check(cudaMemcpy(host, p_, n, cudaMemcpyDeviceToHost), "download");
}

}  // namespace argx_bench
