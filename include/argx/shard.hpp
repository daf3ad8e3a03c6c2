// A tensor split along one dim across the ranks of a communicator: this rank's part of it.
// Used by the distributed reductions (argx/mpi.hpp, argx/nccl.hpp); plain C++, no MPI.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "error.hpp"
#include "detail/plan.hpp"
#include "spec.hpp"
#include "tensor_view.hpp"

namespace argx {

/// This rank's part of a tensor split along `dim` into contiguous ranges, one per rank
/// (a range may be empty; together they tile the dim). `local` has the whole tensor's
/// extents except along `dim`, where it has end - begin elements; it may have any strides.
struct shard {
  tensor_view local;       ///< this rank's elements
  shape global_extents;    ///< the whole tensor's extents (the same on every rank)
  int dim = 0;             ///< the split dim (negative counts from the end)
  std::int64_t begin = 0;  ///< this rank's range [begin, end) of `dim`
  std::int64_t end = 0;
};

/// The shard whose elements are `local`, starting at `begin` along `dim` of a tensor of
/// `global_extents` (end = begin + local's extent along `dim`). Never throws: a bad dim is
/// reported by the distributed call, on every rank.
inline shard make_shard(const tensor_view& local, const shape& global_extents, int dim, std::int64_t begin) {
  const int rank = local.rank();
  const int d = dim < 0 ? dim + rank : dim;
  const std::int64_t n = d >= 0 && d < rank ? local.extents[d] : 0;
  return shard{local, global_extents, dim, begin, begin + n};
}

/// Range [begin, end) of part `index` when `extent` elements are split into `parts` nearly
/// equal contiguous parts (the first extent % parts parts get one more element).
inline std::pair<std::int64_t, std::int64_t> even_split(std::int64_t extent, int parts, int index) {
  if (parts <= 0 || index < 0 || index >= parts || extent < 0)
    throw error(errc::bad_argument, "even_split: part " + std::to_string(index) + " of " + std::to_string(parts) +
                                        " of extent " + std::to_string(extent));
  const std::int64_t base = extent / parts, extra = extent % parts;
  const std::int64_t begin = index * base + (index < extra ? index : extra);
  return {begin, begin + base + (index < extra ? 1 : 0)};
}

namespace detail {
/// Bit d set when dim d of a rank-`rank` tensor is reduced by `s` (dims already validated).
inline std::uint32_t reduced_mask(const spec& s, int rank) {
  if (s.dims.empty()) return (1u << rank) - 1u;  // rank <= max_rank = 16
  std::uint32_t mask = 0;
  for (int d : s.dims) mask |= 1u << (d < 0 ? d + rank : d);
  return mask;
}
/// Where kept dim `dim` of a rank-`rank` tensor lands in the output of `s` (dims validated).
inline int output_position(int dim, int rank, const spec& s) {
  if (s.keepdim) return dim;  // every dim stays
  const std::uint32_t mask = reduced_mask(s, rank);
  int at = dim;
  for (int d = 0; d < dim; ++d) at -= static_cast<int>(mask >> d & 1u);
  return at;
}
}  // namespace detail

/// The output shape this rank passes to a distributed reduction: the whole output when the
/// split dim is reduced (every rank gets all of it), and this rank's slab of it along the
/// split dim when that dim is kept (outputs stay sharded like the input). Validates only
/// this rank's arguments (argx::error); the distributed call checks that ranks agree.
inline shape output_shape(const shard& x, const spec& s = {}) {
  const int rank = x.global_extents.size();
  if (x.dim < -rank || x.dim >= rank)
    throw error(errc::bad_dim,
                "split dim " + std::to_string(x.dim) + " is out of range for a tensor of rank " + std::to_string(rank));
  const int split = x.dim < 0 ? x.dim + rank : x.dim;
  // The whole tensor's shape, to validate the spec against (make_plan reads no element:
  // any non-null pointer will do).
  const tensor_view whole{&x, x.local.type, x.global_extents, contiguous_strides(x.global_extents), x.local.space};
  shape out = detail::make_plan(whole, op::argmax, s).out_extents;
  if (detail::reduced_mask(s, rank) >> split & 1u) return out;
  out[detail::output_position(split, rank, s)] = x.end - x.begin;
  return out;
}

}  // namespace argx
