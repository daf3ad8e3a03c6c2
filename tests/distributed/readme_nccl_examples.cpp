// The README's argx::nccl example, compiled into test_nccl and run where a GPU is (every
// rank runs it, one GPU each): the snippet between the README markers appears verbatim in
// README.md (readme_sync.py).
#include <argx/nccl.hpp>

#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include <vector>

#include "device_memory.hpp"
#include "sharded.hpp"

TEST_CASE("README: argx::nccl with a communicator made through MPI") {
  const std::int64_t batch = 4, vocab = 5000;
  std::vector<float> whole(batch * vocab);
  for (std::size_t i = 0; i < whole.size(); ++i) whole[i] = static_cast<float>((i * 104729) % 4999);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto [first, last] = argx::even_split(vocab, size, rank);
  std::vector<float> mine;
  for (std::int64_t b = 0; b < batch; ++b)
    mine.insert(mine.end(), whole.begin() + b * vocab + first, whole.begin() + b * vocab + last);
  argx_test::device_buffer logits(mine.size() * sizeof(float) + 4), tokens(batch * 8);
  logits.upload(mine.data(), mine.size() * sizeof(float));
  const argx::tensor_view my_logits =
      argx::make_view(static_cast<const float*>(logits.data()), {batch, last - first}, argx::memory_space::device);
  std::int64_t* device_tokens = static_cast<std::int64_t*>(tokens.data());
  cudaStream_t stream;
  cudaStreamCreate(&stream);

  // README begin nccl_vocab
  ncclUniqueId id;  // rank 0 makes the communicator's id; MPI (or your launcher) hands it out
  if (rank == 0) ncclGetUniqueId(&id);
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclComm_t comm;
  ncclCommInitRank(&comm, size, id, rank);  // after cudaSetDevice(this rank's GPU)

  auto [begin, end] = argx::even_split(vocab, size, rank);
  argx::shard x = argx::make_shard(my_logits, {batch, vocab}, 1, begin);  // device memory
  argx::argmax(argx::nccl(comm, stream), x, argx::make_output(device_tokens, {batch}, argx::memory_space::device),
               {.dims = {1}});  // queued on `stream`, like the kernels around it
  // README end nccl_vocab

  std::vector<std::int64_t> got(batch);
  cudaStreamSynchronize(stream);
  tokens.download(got.data(), got.size() * 8);
  ncclCommDestroy(comm);
  cudaStreamDestroy(stream);
  CHECK(end == last);
  CHECK(got == argx::argmax(argx::seq, argx::make_view(whole.data(), {batch, vocab}), {.dims = {1}}).indices);
}
