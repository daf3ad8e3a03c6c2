// Built instead of tbb.cpp when oneTBB is absent: the tbb backend reports itself missing.
#include <argx/devices.hpp>
#include <argx/error.hpp>

#include "../common/backend.hpp"

namespace argx::detail {

bool tbb_built() noexcept { return false; }

void run_tbb(const plan&, const outputs&) {
  throw error(errc::backend_unavailable, "backend tbb: argx was built without oneTBB");
}

}  // namespace argx::detail

const char* argx::cpu_simd_target() noexcept { return ""; }
