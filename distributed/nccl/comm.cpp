#include "comm.hpp"

#include <string>

#include <argx/error.hpp>

#include "../../backends/cuda/runtime.hpp"

namespace argx::distributed::nccl {

void check(ncclResult_t r, ncclComm_t comm, const char* what) {
  if (r == ncclSuccess) return;
  std::string text = std::string(what) + " failed: " + ncclGetErrorString(r);
  if (const char* last = ncclGetLastError(comm); last && *last) text += " (" + std::string(last) + ")";
  throw error(errc::comm_failure, text);
}

place place_in(ncclComm_t comm) {
  if (comm == nullptr) throw error(errc::bad_argument, "argx::nccl: the communicator is null");
  place p;
  check(ncclCommCount(comm, &p.size), comm, "ncclCommCount");
  check(ncclCommUserRank(comm, &p.rank), comm, "ncclCommUserRank");
  check(ncclCommCuDevice(comm, &p.device), comm, "ncclCommCuDevice");
  return p;
}

void allgather_bytes(ncclComm_t comm, const place& where, cudaStream_t stream, const void* mine, std::size_t bytes,
                     void* all) {
  const std::size_t total = bytes * static_cast<std::size_t>(where.size);
  auto* buffer = static_cast<unsigned char*>(detail::gpu::device_alloc(total, stream, "allocating the rank reports"));
  try {
    unsigned char* slot = buffer + bytes * static_cast<std::size_t>(where.rank);
    detail::gpu::check(cudaMemcpyAsync(slot, mine, bytes, cudaMemcpyHostToDevice, stream),
                       "copying this rank's report");
    check(ncclAllGather(slot, buffer, bytes, ncclUint8, comm, stream), comm, "ncclAllGather");
    detail::gpu::check(cudaMemcpyAsync(all, buffer, total, cudaMemcpyDeviceToHost, stream), "copying the rank reports");
    detail::gpu::check(cudaStreamSynchronize(stream), "waiting for the rank reports");
  } catch (...) {
    detail::gpu::device_free(buffer, stream);
    throw;
  }
  detail::gpu::device_free(buffer, stream);
}

}  // namespace argx::distributed::nccl
