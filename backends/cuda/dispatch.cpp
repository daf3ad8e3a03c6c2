// Host dispatch of the cuda backend: memory via gpu_call, the plan lowered to a layout,
// the launch from the layout and the device's residency, the workspace (the stream's, or
// the graph's under capture), then one kernel launch.
#include <map>
#include <mutex>
#include <utility>

#include "../common/visit_dtype.hpp"
#include "archs.hpp"
#include "call.hpp"
#include "dispatch.hpp"
#include "enqueue.hpp"
#include "workspace.hpp"

namespace argx::detail {
namespace {

// Residency of (device, dtype): what the compiled kernels keep per multiprocessor there.
const gpu::residency& residency_for(int device, dtype type) {
  static std::mutex m;
  static std::map<std::pair<int, dtype>, gpu::residency> known;
  std::lock_guard<std::mutex> lock(m);
  auto it = known.find({device, type});
  if (it != known.end()) return it->second;
  gpu::residency r;
  visit_dtype(type, [&](auto d) { gpu::fill_residency<decltype(d)::value>(r); });
  return known.emplace(std::make_pair(device, type), r).first->second;
}

thread_local gpu::launch_rewritten::function rewrite_hook = nullptr;

gpu::launch_config chosen(const gpu::layout& l, int dev) {
  const gpu::residency& r = residency_for(dev, l.type);
  const gpu::device_limits& d = gpu::device(dev).limits;
  const gpu::launch_config c = gpu::choose_launch(l, r, d);
  return rewrite_hook ? rewrite_hook(l, c, r, d) : c;
}

}  // namespace

gpu::launch_rewritten::launch_rewritten(function rewrite) { rewrite_hook = rewrite; }
gpu::launch_rewritten::~launch_rewritten() { rewrite_hook = nullptr; }

gpu::launch_config gpu::launch_for(const plan& p) {
  int dev = 0;
  check(cudaGetDevice(&dev), "querying the current device");
  return chosen(make_layout(p), dev);
}

namespace {

void run_cuda(const plan& p, const outputs& out, stream_handle stream) {
  gpu::gpu_call call(p, out, stream, "cuda");
  const gpu::layout l = gpu::make_layout(call.input());
  const gpu::launch_config c = chosen(l, call.device());
  gpu::workspace_lease ws{};
  if (c.counters > 0 || c.slots > 0 || c.partials > 0)
    ws = gpu::workspace(call.device(), call.stream(), call.graph(), c.counters, c.slots, c.partials);
  visit_dtype(l.type, [&](auto d) { gpu::enqueue<decltype(d)::value>(c, l, call.targets(), ws.ptrs, call.stream()); });
  gpu::workspace_done(ws, call.stream());
  gpu::check(cudaGetLastError(), "launching the argmax kernel");
  call.finish();
}

}  // namespace

const backend_entry cuda_entry{backend::cuda, false, cuda_usable, cuda_unavailable_reason, run_cuda};

}  // namespace argx::detail
