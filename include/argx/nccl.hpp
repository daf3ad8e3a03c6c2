// argx over NCCL: argmax/argmin of a tensor sharded across GPUs, one rank per GPU, with
// the bits one process would return on the whole tensor. Link with argx-nccl.
//
//   argx::shard x = argx::make_shard(local_logits, {batch, vocab}, 1, begin);  // device memory
//   argx::argmax(argx::nccl(comm, stream), x, token_ids, {.dims = {1}});        // device output
//
// Every call is collective: every rank of the communicator calls it with the same global
// extents, op and spec. Each rank reduces its shard with argx::cuda on `stream`, on the
// communicator's GPU; when the split dim is reduced, the candidates are combined on the
// device with ncclAllReduce(ncclMax) on `stream` — one collective of one 64-bit word per
// output when keys have at most 32 bits and positions fit 32 bits (dtypes up to 4 bytes,
// reductions shorter than 2^32 - 1), two otherwise, one more for the winning elements.
// Before queueing the combine the ranks exchange what they were asked to do (one small
// ncclAllGather) and the call waits for the stream once to read it: a failure on any rank
// or ranks that disagree raise the same argx::error on every rank. The combine and the
// output writes are then queued on `stream` and the call returns.
// When the split dim is kept, each rank's outputs are its slab of the output.
#pragma once

#include <nccl.h>

#include "argx.hpp"
#include "shard.hpp"

namespace argx {

/// Reduce a shard on the ranks of the NCCL communicator `comm`, queued on `stream` (a
/// cudaStream_t of the communicator's GPU, as a stream_handle; null: the default stream).
struct nccl_policy {
  ncclComm_t comm = nullptr;
  stream_handle stream = nullptr;
};

inline nccl_policy nccl(ncclComm_t comm, stream_handle stream = nullptr) { return {comm, stream}; }

/// Collective. Reduces the sharded tensor (on the communicator's GPU, or host memory that
/// argx::cuda stages) into this rank's device buffers, shaped as argx::output_shape(x, s)
/// says. `values` may be null: on every rank or on none.
ARGX_API void reduce(const nccl_policy& pol, op o, const shard& x, const output_view& indices,
                     const output_view* values, const spec& s = {});

inline void argmax(const nccl_policy& pol, const shard& x, const output_view& indices, const spec& s = {}) {
  reduce(pol, op::argmax, x, indices, nullptr, s);
}
inline void argmax(const nccl_policy& pol, const shard& x, const output_view& indices, const output_view& values,
                   const spec& s = {}) {
  reduce(pol, op::argmax, x, indices, &values, s);
}
inline void argmin(const nccl_policy& pol, const shard& x, const output_view& indices, const spec& s = {}) {
  reduce(pol, op::argmin, x, indices, nullptr, s);
}
inline void argmin(const nccl_policy& pol, const shard& x, const output_view& indices, const output_view& values,
                   const spec& s = {}) {
  reduce(pol, op::argmin, x, indices, &values, s);
}

}  // namespace argx
