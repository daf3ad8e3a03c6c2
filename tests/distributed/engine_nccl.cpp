// The NCCL engine of the distributed tests: argx::nccl with device inputs and outputs, one
// rank per GPU (rank % GPU count; NCCL refuses two ranks on one GPU, so the run is skipped
// when there are more ranks than GPUs). MPI carries NCCL's unique id to every rank.
#include <argx/nccl.hpp>

#include <cuda_runtime_api.h>

#include <stdexcept>

#include <doctest/doctest.h>

#include "device_memory.hpp"
#include "engine.hpp"
#include "sharded.hpp"

namespace argx_test {
namespace {

ncclComm_t comm = nullptr;
cudaStream_t stream = nullptr;

// Guarded output bytes on the GPU (or on the host, for the misplaced-outputs case).
struct output_bytes {
  std::vector<unsigned char> host;
  device_buffer device;
  output_bytes(std::size_t n, bool gpu) : host(n, output_sentinel) {
    if (!gpu) return;
    device = device_buffer(n);
    device.upload(host.data(), n);
  }
  void* data() { return device.data() ? device.data() : host.data(); }
  const std::vector<unsigned char>& read() {
    if (device.data()) device.download(host.data(), host.size());
    return host;
  }
};

}  // namespace

std::optional<std::string> engine_start(const std::vector<std::string>& args) {
  if (!args.empty()) throw std::invalid_argument("test_nccl takes no engine option, not " + args[0]);
  if (!argx::available(argx::backend::cuda))
    return argx::built_with_cuda() ? "no CUDA device is present" : "argx was built without CUDA";
  int devices = 0;
  cudaGetDeviceCount(&devices);
  const world& w = the_world();
  if (w.size > devices)
    return std::to_string(w.size) + " ranks but " + std::to_string(devices) + " GPU(s): NCCL needs one GPU per rank";
  cudaSetDevice(w.rank % devices);
  ncclUniqueId id{};
  if (w.rank == 0) ncclGetUniqueId(&id);
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, w.comm);
  if (ncclCommInitRank(&comm, w.size, id, w.rank) != ncclSuccess) throw std::runtime_error("ncclCommInitRank failed");
  cudaStreamCreate(&stream);
  return std::nullopt;
}

void engine_stop() {
  if (comm) ncclCommDestroy(comm);
  if (stream) cudaStreamDestroy(stream);
}

std::string engine_name() { return "nccl"; }

bool engine_on_gpu() { return true; }

sharded_outcome run_sharded(const sharded_call& c) {
  const std::vector<unsigned char>& before = *c.local.storage;
  device_buffer input(before.size());
  input.upload(before.data(), before.size());
  const argx::shard x =
      shard_of(c, static_cast<const unsigned char*>(input.data()) + c.local.data_offset(), argx::memory_space::device);
  const argx::shape extents = outputs_for(c, x);
  std::int64_t count = 1;
  for (auto e : extents) count *= e;
  const bool int32 = c.spec.index == argx::index_type::int32;
  output_bytes indices((count + 1) * (int32 ? 4 : 8), !c.misplaced_outputs);
  output_bytes values((count + 1) * argx::size_of(c.local.type()), !c.misplaced_outputs);
  const auto space = c.misplaced_outputs ? argx::memory_space::host : argx::memory_space::device;
  const auto iv = argx::make_output(indices.data(), int32 ? argx::dtype::i32 : argx::dtype::i64, extents, space);
  const auto vv = argx::make_output(values.data(), c.local.type(), extents, space);
  try {
    argx::reduce(argx::nccl(comm, stream), c.op, x, iv, c.values ? &vv : nullptr, c.spec);
  } catch (const argx::error&) {
    CHECK_MESSAGE(untouched(indices.read()), "the index output was written by a call that raised");
    CHECK_MESSAGE(untouched(values.read()), "the values output was written by a call that raised");
    throw;
  }
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  std::vector<unsigned char> after(before.size());
  input.download(after.data(), after.size());
  CHECK_MESSAGE(after == before, "the input was modified");
  return read_outputs(c, extents, indices.read(), values.read());
}

}  // namespace argx_test
