// argx::nccl: each rank reduces its shard with argx::cuda into device scratch, the ranks
// exchange reports (one ncclAllGather, then one wait for the stream) and agree or all
// raise the same error, then, when the split dim is reduced, the candidates are combined
// with ncclAllReduce(ncclMax) and written to the caller's device outputs, all queued on
// the stream. The caller's outputs are written only after the ranks agreed.
#include <argx/nccl.hpp>

#include <vector>

#include "../../backends/cuda/runtime.hpp"
#include "../common/agreement.hpp"
#include "../common/shard_plan.hpp"
#include "comm.hpp"
#include "kernels.hpp"

namespace argx {
namespace {

namespace gpu = detail::gpu;
using distributed::shard_plan;

// Makes the communicator's GPU current for the call, and restores the caller's.
class device_scope {
 public:
  explicit device_scope(int device) {
    gpu::check(cudaGetDevice(&previous_), "reading the current device");
    gpu::check(cudaSetDevice(device), "selecting the communicator's device");
  }
  ~device_scope() { cudaSetDevice(previous_); }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = 0;
};

// Device allocations of one call, freed in stream order when the call returns.
class scratch {
 public:
  explicit scratch(cudaStream_t stream) : stream_(stream) {}
  ~scratch() {
    for (void* p : blocks_) gpu::device_free(p, stream_);
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  template <class T = void>
  T* get(std::size_t bytes, const char* what) {
    blocks_.push_back(gpu::device_alloc(bytes, stream_, what));
    return static_cast<T*>(blocks_.back());
  }

 private:
  cudaStream_t stream_;
  std::vector<void*> blocks_;
};

// NCCL combines device memory on the communicator's GPU: the outputs must be there.
void require_device_output(const output_view& out, int device, const char* what) {
  const gpu::pointer_info info = out.data ? gpu::inspect(out.data) : gpu::pointer_info{};
  const bool here = info.type == cudaMemoryTypeManaged || (info.type == cudaMemoryTypeDevice && info.device == device);
  if (out.space != memory_space::device || (out.data && !here))
    throw error(errc::wrong_memory_space, std::string("argx::nccl writes device memory of the communicator's GPU (") +
                                              std::to_string(device) + "), but the " + what + " output is not there");
}

struct local_part {
  void* indices = nullptr;
  void* values = nullptr;
};

// This rank's own part: validate, then reduce the shard with argx::cuda into scratch.
local_part reduce_locally(const nccl_policy& pol, op o, const shard& x, const spec& s, const shard_plan& sp,
                          const output_view& indices, const output_view* values, int device, scratch& mem) {
  if (x.local.data) {
    const gpu::pointer_info in = gpu::inspect(x.local.data);
    if (in.type == cudaMemoryTypeDevice && in.device != device)
      throw error(errc::wrong_memory_space, "argx::nccl: the shard is on GPU " + std::to_string(in.device) +
                                                " but the communicator's GPU is " + std::to_string(device));
  }
  detail::check_output(sp.outputs, indices, s.index == index_type::int64 ? dtype::i64 : dtype::i32, "index");
  require_device_output(indices, device, "index");
  if (values) {
    detail::check_output(sp.outputs, *values, x.local.type, "values");
    require_device_output(*values, device, "values");
  }
  local_part local;
  if (!sp.reduces_locally() || sp.outputs.outputs == 0) return local;
  spec ls = s;
  if (sp.split_reduced) ls.index = index_type::int64;  // positions of the local slices
  const dtype it = ls.index == index_type::int64 ? dtype::i64 : dtype::i32;
  const auto n = static_cast<std::size_t>(sp.outputs.outputs);
  local.indices = mem.get(n * size_of(it), "allocating the local indices");
  local.values = mem.get(n * size_of(x.local.type), "allocating the local values");
  const output_view iv = make_output(local.indices, it, sp.outputs.out_extents, memory_space::device);
  const output_view vv = make_output(local.values, x.local.type, sp.outputs.out_extents, memory_space::device);
  reduce(cuda.on(pol.stream), o, x.local, iv, &vv, ls);
  return local;
}

// The split dim is reduced: combine the candidates across ranks into the outputs.
void combine(const nccl_policy& pol, const shard_plan& sp, const local_part& local, const output_view& indices,
             const output_view* values, scratch& mem) {
  const auto stream = static_cast<cudaStream_t>(pol.stream);
  const std::int64_t n = sp.outputs.outputs;
  const auto words = static_cast<std::size_t>(n);
  const distributed::nccl::local_winners w{static_cast<const std::int64_t*>(local.indices), local.values,
                                           sp.outputs.type, local.indices ? sp.local_reduce_size : 0, sp.positions};
  const distributed::nccl::order_rules rules{sp.keys, sp.ties_last, sp.is_float};
  auto allreduce_max = [&](std::uint64_t* buffer) {
    distributed::nccl::check(ncclAllReduce(buffer, buffer, words, ncclUint64, ncclMax, pol.comm, stream), pol.comm,
                             "ncclAllReduce");
  };
  distributed::nccl::combined winners;
  if (size_of(sp.outputs.type) <= 4 && sp.global_reduce_size <= distributed::max_packed_positions) {
    auto* packed = mem.get<std::uint64_t>(words * 8, "allocating the packed candidates");
    distributed::nccl::queue_packed_words(w, rules, n, packed, stream);
    allreduce_max(packed);
    winners.packed = packed;
  } else {  // 64-bit keys or positions: the best key first, then the best position among its holders
    auto* keys = mem.get<std::uint64_t>(words * 8, "allocating the candidate keys");
    auto* positions = mem.get<std::uint64_t>(words * 8, "allocating the candidate positions");
    distributed::nccl::queue_key_words(w, rules, n, keys, stream);
    allreduce_max(keys);
    distributed::nccl::queue_position_words(w, rules, n, keys, positions, stream);
    allreduce_max(positions);
    winners.keys = keys;
    winners.position_words = positions;
  }
  distributed::nccl::queue_indices(winners, rules, n, sp.outputs.index, indices.data, stream);
  if (!values) return;
  auto* bits = mem.get<std::uint64_t>(words * 8, "allocating the winning elements");
  distributed::nccl::queue_owned_values(winners, rules, w, n, bits, stream);
  allreduce_max(bits);  // exactly one rank holds each winner; the others give 0
  distributed::nccl::queue_values(bits, sp.outputs.type, n, values->data, stream);
}

void reduce_sharded(const nccl_policy& pol, op o, const shard& x, const output_view& indices, const output_view* values,
                    const spec& s) {
  const distributed::nccl::place where = distributed::nccl::place_in(pol.comm);
  const device_scope on_device(where.device);
  const auto stream = static_cast<cudaStream_t>(pol.stream);
  scratch mem(stream);
  shard_plan sp;
  local_part local;
  std::exception_ptr failure;
  try {
    sp = distributed::make_shard_plan(o, x, s);
    local = reduce_locally(pol, o, x, s, sp, indices, values, where.device, mem);
  } catch (...) {
    failure = std::current_exception();
  }
  const auto status = distributed::status_of(failure, "argx::nccl reduce");
  const auto mine = distributed::make_report(o, x, s, values != nullptr, status);
  std::vector<distributed::rank_report> all(static_cast<std::size_t>(where.size));
  distributed::nccl::allgather_bytes(pol.comm, where, stream, &mine, sizeof mine, all.data());
  distributed::agree(all);

  if (sp.outputs.outputs == 0) return;
  if (sp.split_reduced) return combine(pol, sp, local, indices, values, mem);
  const auto n = static_cast<std::size_t>(sp.outputs.outputs);
  gpu::check(cudaMemcpyAsync(indices.data, local.indices, n * size_of(indices.type), cudaMemcpyDeviceToDevice, stream),
             "copying the indices");
  if (values)
    gpu::check(cudaMemcpyAsync(values->data, local.values, n * size_of(values->type), cudaMemcpyDeviceToDevice, stream),
               "copying the values");
}

}  // namespace

// Like argx's own entry points, these let only argx::error out (std::bad_alloc as
// out_of_memory, anything unexpected as internal).
void reduce(const nccl_policy& pol, op o, const shard& x, const output_view& indices, const output_view* values,
            const spec& s) {
  detail::with_argx_errors("argx::nccl reduce", [&] { reduce_sharded(pol, o, x, indices, values, s); });
}

}  // namespace argx
