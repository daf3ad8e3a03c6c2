// choose_launch: the shape-class policy of the CUDA backend, as plain host code.
#include "launch.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace argx::detail::gpu {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

int log2_ceil(std::int64_t x) {
  int l = 0;
  while ((std::int64_t(1) << l) < x) ++l;
  return l;
}

// Every column group of a strided plan starts on a 16-byte boundary.
bool strided_vector_aligned(const plan& p, std::int64_t elem) {
  const std::int64_t vec = 16 / elem;
  if (reinterpret_cast<std::uintptr_t>(p.data) % 16 != 0 || p.inner() % vec != 0) return false;
  if ((p.reduced_strides[0] * elem) % 16 != 0) return false;
  for (int d = 0; d + 1 < p.kept_extents.size(); ++d)
    if ((p.kept_strides[d] * elem) % 16 != 0) return false;
  return true;
}

launch_config choose_strided(const plan& p, const tuning& t, const device_limits& d) {
  const std::int64_t elem = static_cast<std::int64_t>(size_of(p.type)), vec = 16 / elem;
  const std::int64_t inner = p.inner(), outer = p.outputs / inner, reduce = p.reduce_size;
  const std::int64_t groups = outer * ceil_div(inner, vec);  // 16-byte column groups
  launch_config c;
  c.kernel = kernel_kind::strided;
  c.threads = t.strided.threads;
  c.vector = strided_vector_aligned(p, elem);
  // A warp spreads over up to 32 column groups; with fewer, its other lanes take rows.
  c.team_log2 = std::min(5, log2_ceil(groups));
  const std::int64_t lanes_along_r = 32 >> c.team_log2;
  const std::int64_t tiles = ceil_div(groups, std::int64_t(1) << c.team_log2);
  // Too few tiles to fill the GPU: cut the reduced dim into splits, one warp each, at most
  // one wave of resident warps (a second, partial wave would leave most of the GPU idle).
  const std::int64_t resident_warps =
      static_cast<std::int64_t>(d.multiprocessors) * t.strided.blocks_per_multiprocessor * (c.threads / 32);
  std::int64_t splits = std::max<std::int64_t>(1, resident_warps / tiles);
  splits = std::min(splits, std::max<std::int64_t>(1, reduce / (lanes_along_r * t.min_split_rows)));
  splits = std::max(splits, ceil_div(reduce, std::int64_t(1) << 31));  // 32-bit positions inside a split
  c.chunk = ceil_div(reduce, splits);
  c.splits = ceil_div(reduce, c.chunk);
  const std::int64_t warps_per_block = c.threads / 32;
  c.blocks = ceil_div(tiles * c.splits, warps_per_block);
  if (c.splits > 1) {
    c.counters = static_cast<std::size_t>(tiles);
    c.partials = static_cast<std::size_t>(c.splits * p.outputs);
  }
  return c;
}

}  // namespace

tuning tuning::for_device(const device_limits& d) {
  tuning t;
  // Enough blocks to fill every multiprocessor's thread slots.
  for (kernel_settings* k : {&t.team, &t.block, &t.strided, &t.registers})
    k->blocks_per_multiprocessor = std::max(1, d.max_threads_per_multiprocessor / k->threads);
  return t;
}

launch_config choose_launch(const plan& p, const tuning& t, const device_limits& d) {
  if (p.kind == shape_class::strided) return choose_strided(p, t, d);

  const std::int64_t elem = static_cast<std::int64_t>(size_of(p.type)), vec = 16 / elem;
  const std::int64_t reduce = p.reduce_size, outputs = p.outputs;
  launch_config c;
  c.general = p.kind == shape_class::general;

  // Short rows of whole aligned vectors are held in registers, at most 256 vectors a row.
  const std::int64_t nv = reduce / vec, stride = p.kept_extents.size() == 1 ? p.kept_strides[0] : 0;
  const bool registers = !c.general && p.kept_extents.size() <= 1 && reduce % vec == 0 && stride % vec == 0 &&
                         reinterpret_cast<std::uintptr_t>(p.data) % 16 == 0 && nv <= 8 * 32;
  // Vectors per lane: 8 loads in flight either way (8 / vectors rows at a time); more
  // vectors per lane means fewer shuffle steps and fewer rows in flight.
  const int register_vectors = !registers ? 0 : nv > t.register_wide_rows ? 8 : nv > 2 ? 4 : 2;
  // A team of lanes per slice when there are enough slices to fill the GPU with teams, or
  // when one warp covers a slice in a single pass anyway.
  const std::int64_t per_lane = registers ? vec * register_vectors : c.general ? 8 : vec * t.team_vectors_per_lane;
  const int lanes_log2 = std::min(5, log2_ceil(ceil_div(reduce, per_lane)));
  const bool teams_fill = outputs * (std::int64_t(1) << lanes_log2) >= d.resident_threads();
  const bool warp_covers = reduce <= 32 * per_lane;
  if (reduce <= std::numeric_limits<std::int32_t>::max() && (teams_fill || warp_covers)) {
    c.kernel = kernel_kind::team;
    const kernel_settings& k = registers ? t.registers : t.team;
    c.threads = k.threads;
    c.team_log2 = lanes_log2;
    c.register_vectors = register_vectors;
    const std::int64_t rows_per_team = registers ? 8 / register_vectors : 1;  // at a time
    const std::int64_t teams_per_block = (c.threads / 32) * (32 >> lanes_log2) * rows_per_team;
    const std::int64_t resident = static_cast<std::int64_t>(d.multiprocessors) * k.blocks_per_multiprocessor;
    c.blocks = std::max<std::int64_t>(1, std::min(ceil_div(outputs, teams_per_block), resident));
    return c;
  }

  // Blocks per slice: few long slices are cut into splits whose partials the last block
  // to finish combines, so even one slice (flat) fills the GPU in one launch.
  c.kernel = kernel_kind::block;
  c.threads = t.block.threads;
  // Splits: at most one wave of resident blocks, each with one equal share of work (a
  // second, partial wave would leave most of the GPU idle while it runs).
  const std::int64_t target = static_cast<std::int64_t>(d.multiprocessors) * t.block.blocks_per_multiprocessor;
  std::int64_t splits = std::max<std::int64_t>(1, target / outputs);
  splits = std::min(splits, std::max<std::int64_t>(1, reduce / t.min_split_elements));
  if (reduce <= t.max_unsplit_elements) splits = 1;
  splits = std::max(splits, ceil_div(reduce, std::int64_t(1) << 30));  // 32-bit vector indices inside a split
  c.chunk = ceil_div(ceil_div(reduce, splits), vec) * vec;  // whole 16-byte vectors per split
  c.splits = ceil_div(reduce, c.chunk);
  // One block per item: the scheduler overlaps one block's final fold with others' loads.
  c.blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(outputs * c.splits, 0x7fffffff));
  if (c.splits > 1) {
    c.counters = static_cast<std::size_t>(outputs);
    c.partials = static_cast<std::size_t>(outputs * c.splits);
  }
  return c;
}

std::string describe(const launch_config& c) {
  std::string s;
  switch (c.kernel) {
    case kernel_kind::team: s = "team lanes=" + std::to_string(1 << c.team_log2); break;
    case kernel_kind::block: s = "block"; break;
    case kernel_kind::strided:
      s = std::string("strided vector=") + (c.vector ? "yes" : "no") + " lanes=" + std::to_string(1 << c.team_log2);
      break;
  }
  if (c.register_vectors > 0) s += " registers=" + std::to_string(c.register_vectors);
  if (c.general) s += " general";
  s += " blocks=" + std::to_string(c.blocks) + " threads=" + std::to_string(c.threads);
  if (c.splits > 1) s += " splits=" + std::to_string(c.splits) + " chunk=" + std::to_string(c.chunk);
  return s;
}

}  // namespace argx::detail::gpu
