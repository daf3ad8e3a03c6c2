// The backends by tag: the one place that knows which backends this build has. Those it
// lacks get entries that say so, and the public device queries answer "none".
#include <argx/devices.hpp>
#include <argx/error.hpp>

#include "../backends/common/backend.hpp"

namespace argx::detail {
namespace {

[[maybe_unused]] bool never_usable() noexcept { return false; }
[[maybe_unused]] std::string without_tbb() { return "argx was built without oneTBB"; }
[[maybe_unused]] std::string without_cuda() { return "argx was built without CUDA"; }

}  // namespace

#if !ARGX_WITH_TBB
const backend_entry tbb_entry{backend::tbb, true, never_usable, without_tbb, nullptr};
#endif
#if !ARGX_WITH_CUDA
const backend_entry cuda_entry{backend::cuda, false, never_usable, without_cuda, nullptr};
const backend_entry thrust_entry{backend::thrust, false, never_usable, without_cuda, nullptr};
#endif

const backend_entry* find_entry(backend b) noexcept {
  // Indexed by the enum's value; `automatic` is a choice among these, not a backend.
  static const backend_entry* const table[] = {&seq_entry, &par_entry, &tbb_entry, &cuda_entry, &thrust_entry};
  static_assert(static_cast<int>(backend::seq) == 0 && static_cast<int>(backend::par) == 1 &&
                static_cast<int>(backend::tbb) == 2 && static_cast<int>(backend::cuda) == 3 &&
                static_cast<int>(backend::thrust) == 4 && static_cast<int>(backend::automatic) == 5);
  const auto i = static_cast<unsigned>(b);
  return i < sizeof(table) / sizeof(table[0]) ? table[i] : nullptr;
}

}  // namespace argx::detail

#if !ARGX_WITH_TBB
const char* argx::cpu_simd_target() noexcept { return ""; }
#endif
#if !ARGX_WITH_CUDA
std::vector<argx::gpu_info> argx::gpus() { return {}; }
bool argx::built_with_cuda() noexcept { return false; }
const char* argx::cuda_archs() noexcept { return ""; }
argx::memory_space argx::locate(const void*) noexcept { return memory_space::host; }
#endif
