// Built instead of the CUDA backend when CUDA is disabled or absent: code that names
// argx::cuda still compiles and links, and fails at run time with a clear error.
#include <argx/devices.hpp>
#include <argx/error.hpp>

#include "../common/backend.hpp"

namespace argx {

std::vector<gpu_info> gpus() { return {}; }
bool built_with_cuda() noexcept { return false; }
const char* cuda_archs() noexcept { return ""; }

namespace detail {

bool cuda_usable() noexcept { return false; }
std::string cuda_unavailable_reason() { return "argx was built without CUDA"; }
memory_space locate(const void*) noexcept { return memory_space::host; }

void run_cuda(const plan&, const outputs&, stream_handle) {
  throw error(errc::backend_unavailable, "backend cuda: argx was built without CUDA");
}
void run_thrust(const plan&, const outputs&, stream_handle) {
  throw error(errc::backend_unavailable, "backend thrust: argx was built without CUDA");
}

}  // namespace detail
}  // namespace argx
