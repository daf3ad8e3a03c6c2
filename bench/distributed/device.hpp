// Device memory for the benchmark's GPU methods (device.cpp with CUDA; device_absent.cpp
// without, where no GPU method is ever made).
#pragma once

#include <cstddef>

namespace argx_bench {

class device_bytes {
 public:
  device_bytes() = default;
  explicit device_bytes(std::size_t n);
  ~device_bytes();
  device_bytes(device_bytes&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; o.n_ = 0; }
  device_bytes& operator=(device_bytes&& o) noexcept;
  device_bytes(const device_bytes&) = delete;
  device_bytes& operator=(const device_bytes&) = delete;

  void* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }
  void upload(const void* host, std::size_t n);          ///< synchronous
  void download(void* host, std::size_t n) const;        ///< synchronous

 private:
  void* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace argx_bench
