// GPU memory for the tests of the cuda and thrust backends, through the CUDA runtime.
// Built from device_memory.cpp when argx has CUDA, and from device_memory_absent.cpp
// otherwise (where no test reaches it: those executables exit 77 first).
#pragma once

#include <cstddef>

namespace argx_test {

/// True when this test build can allocate GPU memory.
bool device_memory_built() noexcept;

/// An owning GPU allocation. Copies are not allowed; moves are.
class device_buffer {
 public:
  device_buffer() = default;
  /// Allocates `bytes` (at least 1) of device memory. Throws std::runtime_error on failure.
  explicit device_buffer(std::size_t bytes);
  ~device_buffer();
  device_buffer(device_buffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; o.bytes_ = 0; }
  device_buffer& operator=(device_buffer&& o) noexcept;
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  void* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return bytes_; }
  /// Host → device, `n` bytes at the start of the buffer.
  void upload(const void* host, std::size_t n);
  /// Device → host, `n` bytes from the start of the buffer (waits for queued work).
  void download(void* host, std::size_t n) const;

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Waits until all queued GPU work has finished; throws on a device error.
void device_synchronize();

}  // namespace argx_test
