// The NCCL methods, on this rank's GPU (rank % GPU count): argx::nccl, and ncclAllGather of
// the logits + cat + argx::cuda. Both end with the token ids copied to the host.
#include <argx/nccl.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "device_memory.hpp"
#include "methods.hpp"

namespace argx_bench {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(r));
}

// One NCCL communicator over the MPI communicator's ranks, made once (MPI carries the id).
struct nccl_world {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  int rank = 0, size = 1;
  explicit nccl_world(MPI_Comm mpi) {
    MPI_Comm_rank(mpi, &rank);
    MPI_Comm_size(mpi, &size);
    int devices = 0;
    check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    check(cudaSetDevice(rank % devices), "cudaSetDevice");
    ncclUniqueId id{};
    if (rank == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mpi);
    check(ncclCommInitRank(&comm, size, id, rank), "ncclCommInitRank");
    check(cudaStreamCreate(&stream), "cudaStreamCreate");
  }
};
// The end of a step: the token ids on the host, the stream drained.
void tokens_to_host(const argx_test::device_buffer& device, std::vector<std::int64_t>& host, cudaStream_t stream) {
  check(cudaMemcpyAsync(host.data(), device.data(), host.size() * 8, cudaMemcpyDeviceToHost, stream),
        "copying the tokens");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

nccl_world& world_of(MPI_Comm mpi) {
  static nccl_world w(mpi);  // destroyed at exit: NCCL cleans up with the process
  return w;
}

class argx_nccl_method final : public method {
 public:
  explicit argx_nccl_method(MPI_Comm mpi) : w_(world_of(mpi)) {}
  void prepare(const step_shape& s, const std::vector<unsigned char>& logits) override {
    s_ = s;
    logits_ = argx_test::device_buffer(logits.size());
    logits_.upload(logits.data(), logits.size());
    device_tokens_ = argx_test::device_buffer(static_cast<std::size_t>(s.batch) * 8);
    const argx::shape local{s.batch, s.end - s.begin};
    shard_ = argx::make_shard(
        argx::make_view(logits_.data(), s.type, local, argx::contiguous_strides(local), argx::memory_space::device),
        {s.batch, s.vocab}, 1, s.begin);
    tokens_.assign(static_cast<std::size_t>(s.batch), -2);
  }
  void step() override {
    argx::argmax(
        argx::nccl(w_.comm, w_.stream), shard_,
        argx::make_output(static_cast<std::int64_t*>(device_tokens_.data()), {s_.batch}, argx::memory_space::device),
        {.dims = {1}});
    tokens_to_host(device_tokens_, tokens_, w_.stream);
  }
  // One packed 64-bit word per row (bf16, f32) in ncclAllReduce.
  std::int64_t bytes_sent() const override { return argx_bytes_sent(s_.batch, 8); }
  std::int64_t bytes_received() const override { return argx_bytes_received(w_.size, s_.batch, 8); }

 private:
  nccl_world& w_;
  step_shape s_;
  argx_test::device_buffer logits_, device_tokens_;
  argx::shard shard_;
};

class allgather_nccl_method final : public method {
 public:
  explicit allgather_nccl_method(MPI_Comm mpi) : w_(world_of(mpi)) {}
  void prepare(const step_shape& s, const std::vector<unsigned char>& logits) override {
    s_ = s;
    elem_ = argx::size_of(s.type);
    // ncclAllGather takes the same count from every rank: blocks padded to the widest share.
    widest_ = 0;
    columns_.clear();
    for (int r = 0; r < w_.size; ++r) {
      columns_.push_back(argx::even_split(s.vocab, w_.size, r));
      widest_ = std::max(widest_, columns_.back().second - columns_.back().first);
    }
    block_ = static_cast<std::size_t>(s.batch * widest_) * elem_;
    mine_ = argx_test::device_buffer(block_);
    check(cudaMemcpy2D(mine_.data(), widest_ * elem_, logits.data(), (s.end - s.begin) * elem_,
                       (s.end - s.begin) * elem_, s.batch, cudaMemcpyHostToDevice),
          "uploading the logits");
    pieces_ = argx_test::device_buffer(block_ * w_.size);
    whole_ = argx_test::device_buffer(static_cast<std::size_t>(s.batch * s.vocab) * elem_);
    device_tokens_ = argx_test::device_buffer(static_cast<std::size_t>(s.batch) * 8);
    tokens_.assign(static_cast<std::size_t>(s.batch), -2);
  }
  void step() override {
    check(ncclAllGather(mine_.data(), pieces_.data(), block_, ncclUint8, w_.comm, w_.stream), "ncclAllGather");
    for (int r = 0; r < w_.size; ++r) {  // torch.cat(dim=-1): each block into its columns
      const auto [b, e] = columns_[r];
      check(cudaMemcpy2DAsync(static_cast<char*>(whole_.data()) + b * elem_, s_.vocab * elem_,
                              static_cast<char*>(pieces_.data()) + r * block_, widest_ * elem_, (e - b) * elem_,
                              s_.batch, cudaMemcpyDeviceToDevice, w_.stream),
            "cat");
    }
    const argx::shape ext{s_.batch, s_.vocab};
    argx::argmax(
        argx::cuda.on(w_.stream),
        argx::make_view(whole_.data(), s_.type, ext, argx::contiguous_strides(ext), argx::memory_space::device),
        argx::make_output(static_cast<std::int64_t*>(device_tokens_.data()), {s_.batch}, argx::memory_space::device),
        {.dims = {1}});
    tokens_to_host(device_tokens_, tokens_, w_.stream);
  }
  std::int64_t bytes_sent() const override { return static_cast<std::int64_t>(block_); }
  std::int64_t bytes_received() const override { return static_cast<std::int64_t>(block_) * (w_.size - 1); }

 private:
  nccl_world& w_;
  step_shape s_;
  std::size_t elem_ = 4, block_ = 0;
  std::int64_t widest_ = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> columns_;
  argx_test::device_buffer mine_, pieces_, whole_, device_tokens_;
};

}  // namespace

std::unique_ptr<method> argx_nccl(MPI_Comm comm) { return std::make_unique<argx_nccl_method>(comm); }
std::unique_ptr<method> allgather_nccl(MPI_Comm comm) { return std::make_unique<allgather_nccl_method>(comm); }
bool nccl_built() { return true; }

}  // namespace argx_bench
