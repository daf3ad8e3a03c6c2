// Greedy decoding over a vocabulary split across ranks: the logits of one step are a
// (batch, vocab) matrix whose columns are split evenly over the ranks, and every rank needs
// the argmax of every row. A method is one way to get it; vocab_bench.cpp times them.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <argx/argx.hpp>

#include "../../distributed/common/agreement.hpp"

namespace argx_bench {

struct step_shape {
  std::int64_t batch = 1, vocab = 0;
  argx::dtype type = argx::dtype::bf16;
  std::int64_t begin = 0, end = 0;  ///< this rank's columns
};

/// One way of computing the step's token ids on every rank.
class method {
 public:
  virtual ~method() = default;
  /// Takes this rank's (batch, end - begin) logits, row-major, on the host; copies them
  /// wherever the method reads them from.
  virtual void prepare(const step_shape& s, const std::vector<unsigned char>& local_logits) = 0;
  /// One step: complete (token ids on the host of every rank) when it returns.
  virtual void step() = 0;
  /// The token ids of the last step.
  const std::vector<std::int64_t>& tokens() const { return tokens_; }
  /// Bytes this rank hands to the collectives per step, and what it receives from them.
  virtual std::int64_t bytes_sent() const = 0;
  virtual std::int64_t bytes_received() const = 0;

 protected:
  std::vector<std::int64_t> tokens_;  ///< one per row of the batch, on the host
};

/// What argx::mpi and argx::nccl move per step for one rank of `ranks`: its rank_report in
/// the agreement's all-gather (and the others' reports), then `row_bytes` per row in the
/// combine's all-reduce.
inline std::int64_t argx_bytes_sent(std::int64_t batch, std::int64_t row_bytes) {
  return static_cast<std::int64_t>(sizeof(argx::distributed::rank_report)) + batch * row_bytes;
}
inline std::int64_t argx_bytes_received(int ranks, std::int64_t batch, std::int64_t row_bytes) {
  return static_cast<std::int64_t>(sizeof(argx::distributed::rank_report)) * (ranks - 1) + batch * row_bytes;
}

/// argx::mpi: local argmax with `local`, candidates combined by MPI (input on the GPU
/// when `local` is cuda).
std::unique_ptr<method> argx_mpi(MPI_Comm comm, argx::backend local);
/// MPI_Allgatherv of the logits, the gathered pieces put side by side (torch.cat(dim=-1)),
/// then argmax of the whole rows with `local` (device copies in and out for cuda).
std::unique_ptr<method> allgather_mpi(MPI_Comm comm, argx::backend local);
/// argx::nccl on this rank's GPU, and ncclAllGather + cat + argx::cuda (built with NCCL).
std::unique_ptr<method> argx_nccl(MPI_Comm comm);
std::unique_ptr<method> allgather_nccl(MPI_Comm comm);
/// Whether argx_nccl / allgather_nccl were built.
bool nccl_built();

}  // namespace argx_bench
