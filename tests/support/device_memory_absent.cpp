// Without CUDA there is no device memory: the GPU test executables exit 77 before any
// test runs, so reaching these is a harness bug and says so.
#include <stdexcept>

#include "device_memory.hpp"

namespace argx_test {
namespace {
[[noreturn]] void absent() { throw std::logic_error("device memory used in a test build without CUDA"); }
}  // namespace

bool device_memory_built() noexcept { return false; }
device_buffer::device_buffer(std::size_t) { absent(); }
device_buffer::~device_buffer() = default;
device_buffer& device_buffer::operator=(device_buffer&&) noexcept { return *this; }
void device_buffer::upload(const void*, std::size_t) { absent(); }
void device_buffer::download(void*, std::size_t) const { absent(); }
void device_synchronize() { absent(); }

}  // namespace argx_test
