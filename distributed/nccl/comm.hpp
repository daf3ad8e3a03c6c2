// The NCCL calls the distributed reductions make, with failures as argx::error.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <vector>

namespace argx::distributed::nccl {

/// Throws comm_failure with NCCL's error text (and its last-error detail) unless ncclSuccess.
void check(ncclResult_t r, ncclComm_t comm, const char* what);

/// This rank's place in `comm`: the rank count, its rank and its GPU.
struct place {
  int size = 1;
  int rank = 0;
  int device = 0;
};
place place_in(ncclComm_t comm);

/// Every rank's `bytes` bytes at `mine`, in rank order, into `all` (size * bytes): one
/// ncclAllGather through device memory on `stream`, then a wait for the stream.
void allgather_bytes(ncclComm_t comm, const place& where, cudaStream_t stream, const void* mine, std::size_t bytes,
                     void* all);

}  // namespace argx::distributed::nccl
