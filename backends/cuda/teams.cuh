// Teams of lanes: how the grid's warps are cut into teams of 2^k lanes that take compact
// outputs (slices) in turn, and the shuffles a team agrees with. Used by the work-item
// loops whose slices are short enough for a team (run_items, element_items).
#pragma once

#include <cstdint>
#include <type_traits>

#include <argx/device/warp_argmax.cuh>

namespace argx::detail::gpu {

/// Where a thread stands when every warp of the grid is cut into teams of 2^team_log2
/// lanes: the warp's teams take neighbouring outputs, first + team_in_warp for first =
/// warp * teams_per_warp, then every warps * teams_per_warp outputs on.
struct team_grid {
  int team;                     ///< lanes per team
  int team_lane;                ///< the thread's place in its team
  int team_in_warp;             ///< its team's place in the warp
  std::int64_t teams_per_warp;
  std::int64_t warp, warps;     ///< the thread's warp in the grid; the grid's warps

  __device__ __forceinline__ static team_grid of(int team_log2) {
    const int lane = threadIdx.x & 31;
    team_grid g;
    g.team = 1 << team_log2;
    g.team_lane = lane & (g.team - 1);
    g.team_in_warp = lane >> team_log2;
    g.teams_per_warp = 32 >> team_log2;
    g.warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
    g.warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
    return g;
  }
};

/// Team-wide maximum (of keys) and min/max (of positions) by xor shuffles within aligned
/// groups of `step * 2` lanes and more.
template <class K>
__device__ __forceinline__ K team_max_key(K k, int step) {
  using S = std::conditional_t<sizeof(K) == 8, unsigned long long, unsigned>;
  const K o = static_cast<K>(__shfl_xor_sync(device::full_warp, static_cast<S>(k), step));
  return o > k ? o : k;
}
__device__ __forceinline__ int team_pick_pos(int pos, int step, bool ties_last) {
  const int o = __shfl_xor_sync(device::full_warp, pos, step);
  return ties_last ? (o > pos ? o : pos) : (o < pos ? o : pos);
}

}  // namespace argx::detail::gpu
