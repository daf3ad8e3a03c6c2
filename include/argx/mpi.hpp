// argx over MPI: argmax/argmin of a tensor sharded across the ranks of a communicator,
// with the bits one process would return on the whole tensor. Link with argx-mpi.
//
//   auto [begin, end] = argx::even_split(vocab, size, rank);     // this rank's columns
//   argx::shard x = argx::make_shard(local_logits, {batch, vocab}, 1, begin);
//   argx::result r = argx::argmax(argx::mpi(MPI_COMM_WORLD, argx::tbb), x, {.dims = {1}});
//
// Every call is collective: every rank of the communicator calls it with the same global
// extents, op and spec. Each rank reduces its shard with the local policy (any backend);
// when the split dim is reduced, the per-output candidates (key, global position, value)
// are combined with one MPI_Allreduce through a commutative user-defined MPI_Op, and every
// rank gets the whole output. When the split dim is kept, each rank's outputs are its slab
// of the output (no data is exchanged). A failure on any rank, or ranks that disagree,
// raise the same argx::error on every rank.
#pragma once

#include <mpi.h>

#include <exception>

#include "argx.hpp"
#include "shard.hpp"

namespace argx {

/// Reduce a shard on the ranks of `comm`, each rank's part with `local`.
struct mpi_policy {
  MPI_Comm comm = MPI_COMM_NULL;
  policy local = automatic;
};

/// The MPI policy: `local` reduces this rank's shard (seq, par, tbb, cuda, thrust, auto).
inline mpi_policy mpi(MPI_Comm comm, const policy& local = automatic) { return {comm, local}; }

/// Collective. Reduces the sharded tensor into this rank's host buffers (shaped as
/// argx::output_shape(x, s) says). `values` may be null: on every rank or on none.
ARGX_API void reduce(const mpi_policy& pol, op o, const shard& x, const output_view& indices,
                     const output_view* values, const spec& s = {});
/// Collective. Returns this rank's outputs (int64 indices and the winning elements).
ARGX_API result reduce(const mpi_policy& pol, op o, const shard& x, const spec& s = {});

inline void argmax(const mpi_policy& pol, const shard& x, const output_view& indices, const spec& s = {}) {
  reduce(pol, op::argmax, x, indices, nullptr, s);
}
inline void argmax(const mpi_policy& pol, const shard& x, const output_view& indices, const output_view& values,
                   const spec& s = {}) {
  reduce(pol, op::argmax, x, indices, &values, s);
}
inline result argmax(const mpi_policy& pol, const shard& x, const spec& s = {}) {
  return reduce(pol, op::argmax, x, s);
}

inline void argmin(const mpi_policy& pol, const shard& x, const output_view& indices, const spec& s = {}) {
  reduce(pol, op::argmin, x, indices, nullptr, s);
}
inline void argmin(const mpi_policy& pol, const shard& x, const output_view& indices, const output_view& values,
                   const spec& s = {}) {
  reduce(pol, op::argmin, x, indices, &values, s);
}
inline result argmin(const mpi_policy& pol, const shard& x, const spec& s = {}) {
  return reduce(pol, op::argmin, x, s);
}

/// Collective, for a rank's own steps before a distributed call (reading its part of a
/// file, say): when `failure` is set on any rank, throws on every rank the argx::error of
/// the lowest such rank (same code and message); returns on every rank otherwise.
ARGX_API void raise_on_every_rank(MPI_Comm comm, const std::exception_ptr& failure);

}  // namespace argx
