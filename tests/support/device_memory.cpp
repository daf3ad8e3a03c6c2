#include "device_memory.hpp"

#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

namespace argx_test {
namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
}  // namespace

bool device_memory_built() noexcept { return true; }

device_buffer::device_buffer(std::size_t bytes) : bytes_(bytes) {
  check(cudaMalloc(&ptr_, bytes ? bytes : 1), "cudaMalloc");
}

device_buffer::~device_buffer() {
  if (ptr_) cudaFree(ptr_);
}

device_buffer& device_buffer::operator=(device_buffer&& o) noexcept {
  if (this != &o) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void device_buffer::upload(const void* host, std::size_t n) {
  if (n > bytes_) throw std::runtime_error("device_buffer::upload: more bytes than allocated");
  check(cudaMemcpy(ptr_, host, n, cudaMemcpyHostToDevice), "cudaMemcpy to device");
}

void device_buffer::download(void* host, std::size_t n) const {
  if (n > bytes_) throw std::runtime_error("device_buffer::download: more bytes than allocated");
  check(cudaMemcpy(host, ptr_, n, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}

void device_synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace argx_test
