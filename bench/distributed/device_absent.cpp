#include <stdexcept>
#include <utility>

#include "device.hpp"

namespace argx_bench {

device_bytes::device_bytes(std::size_t) { throw std::runtime_error("this benchmark was built without CUDA"); }
device_bytes::~device_bytes() = default;
device_bytes& device_bytes::operator=(device_bytes&& o) noexcept {
  std::swap(p_, o.p_);
  std::swap(n_, o.n_);
  return *this;
}
void device_bytes::upload(const void*, std::size_t) {}
void device_bytes::download(void*, std::size_t) const {}

}  // namespace argx_bench
