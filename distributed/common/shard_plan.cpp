#include "shard_plan.hpp"

#include <string>

namespace argx::distributed {
namespace {

std::string shape_text(const shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(s[i]);
  }
  return out + ")";
}

}  // namespace

shard_plan make_shard_plan(op o, const shard& x, const spec& s) {
  const int rank = x.global_extents.size();
  if (x.local.rank() != rank)
    throw error(errc::bad_shape, "the shard has rank " + std::to_string(x.local.rank()) + " but the global extents " +
                                     shape_text(x.global_extents) + " have rank " + std::to_string(rank));
  shard_plan sp;
  sp.outputs.out_extents = output_shape(x, s);  // validates the split dim and the spec on the whole shape
  sp.split = x.dim < 0 ? x.dim + rank : x.dim;
  const std::int64_t n = x.global_extents[sp.split];
  if (x.begin < 0 || x.end < x.begin || x.end > n)
    throw error(errc::bad_shape, "this rank's range [" + std::to_string(x.begin) + ", " + std::to_string(x.end) +
                                     ") lies outside dim " + std::to_string(sp.split) + " of extent " +
                                     std::to_string(n));
  for (int d = 0; d < rank; ++d) {
    const std::int64_t want = d == sp.split ? x.end - x.begin : x.global_extents[d];
    if (x.local.extents[d] != want)
      throw error(errc::bad_shape, "the shard has extents " + shape_text(x.local.extents) + " but global extents " +
                                       shape_text(x.global_extents) + " split along dim " + std::to_string(sp.split) +
                                       " at [" + std::to_string(x.begin) + ", " + std::to_string(x.end) + ") need " +
                                       std::to_string(want) + " along dim " + std::to_string(d));
  }
  sp.reduced_mask = detail::reduced_mask(s, rank);
  sp.split_reduced = (sp.reduced_mask >> sp.split & 1u) != 0;
  sp.outputs.outputs = 1;
  for (auto e : sp.outputs.out_extents) sp.outputs.outputs *= e;

  std::int64_t global_size = 1, inner = 1;
  for (int d = 0; d < rank; ++d) {
    if (!(sp.reduced_mask >> d & 1u)) continue;
    global_size *= x.global_extents[d];  // fits: output_shape's plan checked the element count
    if (d > sp.split) inner *= x.global_extents[d];
  }
  sp.global_reduce_size = global_size;
  sp.local_reduce_size = sp.split_reduced ? global_size / n * (x.end - x.begin) : global_size;
  sp.positions = position_map{inner, x.end - x.begin, n, x.begin};
  sp.keys = key_params{o == op::argmin, s.abs, s.nan == nan_policy::ignore};
  sp.ties_last = s.ties == tie_break::last;
  sp.is_float = is_floating(x.local.type);
  sp.outputs.type = x.local.type;
  sp.outputs.index = s.index;
  return sp;
}

}  // namespace argx::distributed
