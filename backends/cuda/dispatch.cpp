// Host dispatch of the cuda backend: memory via gpu_call, the launch from the plan and the
// device's tuning, the workspace of the stream, then one kernel launch.
#include <map>
#include <mutex>
#include <utility>

#include "../common/visit_dtype.hpp"
#include "call.hpp"
#include "dispatch.hpp"
#include "enqueue.hpp"

namespace argx::detail {
namespace {

// Tuning of (device, dtype): the device's size plus the compiled kernels' residency.
const gpu::tuning& tuning_for(int device, dtype type) {
  static std::mutex m;
  static std::map<std::pair<int, dtype>, gpu::tuning> known;
  std::lock_guard<std::mutex> lock(m);
  auto it = known.find({device, type});
  if (it != known.end()) return it->second;
  gpu::tuning t = gpu::tuning::for_device(gpu::device(device).limits);
  visit_dtype(type, [&](auto d) { gpu::fill_residency<decltype(d)::value>(t); });
  return known.emplace(std::make_pair(device, type), t).first->second;
}

}  // namespace

gpu::launch_config gpu::launch_for(const plan& p) {
  int dev = 0;
  check(cudaGetDevice(&dev), "querying the current device");
  return choose_launch(p, tuning_for(dev, p.type), device(dev).limits);
}

void run_cuda(const plan& p, const outputs& out, stream_handle stream) {
  gpu::gpu_call call(p, out, stream, "cuda");
  const plan& in = call.input();
  const gpu::launch_config c = gpu::choose_launch(in, tuning_for(call.device(), in.type), gpu::device(call.device()).limits);
  gpu::workspace_ptrs ws{};
  if (c.counters > 0 || c.partials > 0) ws = gpu::workspace(call.device(), call.stream(), c.counters, c.partials);
  visit_dtype(in.type, [&](auto d) { gpu::enqueue<decltype(d)::value>(c, in, call.targets(), ws, call.stream()); });
  gpu::check(cudaGetLastError(), "launching the argmax kernel");
  call.finish();
}

}  // namespace argx::detail
